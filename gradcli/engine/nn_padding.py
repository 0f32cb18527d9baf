"""torch.nn's padding layers (torch/nn/modules/padding.py) and its distance layers (distance.py).

Each is torch's class: the same constructor, the padding widened as torch's `_pair`/`_quadruple`/`_ntuple`
widen it, the same printed form, and a forward that is the registry's F.pad (F.cosine_similarity,
F.pairwise_distance) with the module's settings, so values, grad_fn names and errors are F.pad's.
"""

from __future__ import annotations

from gradcli.engine.errors import TorchValueError
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


DISTANCE_CLASSES = {"CosineSimilarity": CosineSimilarity, "PairwiseDistance": PairwiseDistance}
PADDING_SETTINGS = {**{name: frozenset({"padding", "value"} if "Constant" in name or "Zero" in name else {"padding"})
                       for name in PADDING_CLASSES},
                    "CosineSimilarity": frozenset({"dim", "eps"}),
                    "PairwiseDistance": frozenset({"norm", "eps", "keepdim"})}
PADDING_FILES = {**dict.fromkeys(PADDING_CLASSES, "padding"), **dict.fromkeys(DISTANCE_CLASSES, "distance")}
