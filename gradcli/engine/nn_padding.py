"""torch.nn's padding layers (torch/nn/modules/padding.py) and its distance layers (distance.py).

Each is torch's class: the same constructor, the padding widened as torch's `_pair`/`_quadruple`/`_ntuple`
widen it, the same printed form, and a forward that is the registry's F.pad (F.cosine_similarity,
F.pairwise_distance) with the module's settings, so values, grad_fn names and errors are F.pad's.
"""

from __future__ import annotations

from gradcli.engine.errors import TorchRuntimeError, TorchValueError
from gradcli.engine.modules import Module, registry_op


def _ntuple(value, n: int) -> tuple:
    """torch.nn.modules.utils._ntuple: an iterable kept as a tuple, anything else repeated n times."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) * n


class _PadNd(Module):
    _mode = "constant"
    _nd = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._nd)

    def forward(self, input):
        return registry_op("pad")(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def forward(self, input):
        if input.ndim not in (self._nd + 1, self._nd + 2):
            raise TorchValueError(f"expected {self._nd + 1}D or {self._nd + 2}D input (got {input.ndim}D input)")
        return super().forward(input)


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return registry_op("pad")(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


def _layer(base, mode: str | None, nd: int, name: str):
    attrs = {"_nd": nd, "__qualname__": name, "__module__": __name__}
    if mode is not None:
        attrs["_mode"] = mode
    return type(name, (base,), attrs)


PADDING_CLASSES = {}
for _nd in (1, 2, 3):
    for _base, _mode, _name in ((_PadNd, "reflect", "ReflectionPad"), (_PadNd, "replicate", "ReplicationPad"),
                                (_CircularPadNd, None, "CircularPad"), (_ConstantPadNd, None, "ConstantPad"),
                                (_ZeroPadNd, None, "ZeroPad")):
        _cls = _layer(_base, _mode, _nd, f"{_name}{_nd}d")
        PADDING_CLASSES[_cls.__name__] = _cls
        globals()[_cls.__name__] = _cls


class CosineSimilarity(Module):
    def __init__(self, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return registry_op("cosine_similarity")(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return registry_op("pairwise_distance")(x1, x2, self.norm, self.eps, self.keepdim)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """torch.nn.functional's Python composition, line for line."""
    if reduction not in ("mean", "sum", "none"):
        raise TorchValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise TorchValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise TorchRuntimeError("The anchor, positive, and negative tensors are expected to have the same number of "
                                f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D "
                                "inputs")
    if distance_function is None:
        distance_function = registry_op("pairwise_distance")
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_swap = distance_function(positive, negative)
        dist_neg = registry_op("minimum")(dist_neg, dist_swap)
    loss = registry_op("clamp_min")(margin + dist_pos - dist_neg, 0)
    if reduction == "sum":
        return registry_op("sum")(loss)
    if reduction == "mean":
        return registry_op("mean")(loss)
    return loss


class TripletMarginWithDistanceLoss(Module):
    def __init__(self, *, distance_function=None, margin: float = 1.0, swap: bool = False, reduction: str = "mean"):
        super().__init__()
        self.reduction = reduction
        if margin <= 0:
            raise TorchValueError("TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                                  f"{margin} instead")
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=self.distance_function,
                                                 margin=self.margin, swap=self.swap, reduction=self.reduction)


DISTANCE_CLASSES = {"CosineSimilarity": CosineSimilarity, "PairwiseDistance": PairwiseDistance,
                    "TripletMarginWithDistanceLoss": TripletMarginWithDistanceLoss}
DISTANCE_FUNCTIONS = {"triplet_margin_with_distance_loss": triplet_margin_with_distance_loss}
PADDING_SETTINGS = {**{name: frozenset({"padding", "value"} if "Constant" in name or "Zero" in name else {"padding"})
                       for name in PADDING_CLASSES},
                    "CosineSimilarity": frozenset({"dim", "eps"}),
                    "PairwiseDistance": frozenset({"norm", "eps", "keepdim"}),
                    "TripletMarginWithDistanceLoss": frozenset({"distance_function", "margin", "swap", "reduction"})}
PADDING_FILES = {**dict.fromkeys(PADDING_CLASSES, "padding"), **dict.fromkeys(DISTANCE_CLASSES, "distance"),
                 "TripletMarginWithDistanceLoss": "loss"}
