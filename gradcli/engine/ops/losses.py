"""Loss functions of torch.nn.functional."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels, state, sum_order
from gradcli.engine.autograd import Function, GradMode
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError, TorchValueError
from gradcli.engine.ops import arith, sizes
from gradcli.engine.ops import reduction as reduction_ops
from gradcli.engine.ops.arith import elementwise_binary
from gradcli.engine.ops.common import dtype_title, mixed_floats, val
from gradcli.engine.ops.elementwise import abs as _abs
from gradcli.engine.ops.elementwise import exp, where
from gradcli.engine.ops.inplace import fill_
from gradcli.engine.ops.nn import log_softmax
from gradcli.engine.ops.nn_linear import xlogy
from gradcli.engine.ops.reduction import sum as _sum
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import view
from gradcli.engine.tensor import Tensor

REDUCTIONS = ("none", "mean", "sum")

BCE_EPSILON = float(np.float32(1e-12))


def _mean(loss: np.ndarray):
    """The mean reduction (torch's loss.mean(): its sum, in torch's order, over the count); nan for an empty
    input, as torch, without numpy's 'Mean of empty slice' warning."""
    if not loss.size:
        return np.asarray(np.nan, dtype=loss.dtype)
    total = sum_order.torch_sum(loss, ())
    return loss.mean() if total is None else total / loss.dtype.type(loss.size)


def _total(loss: np.ndarray):
    """The sum reduction, in torch's SumKernel order."""
    total = sum_order.torch_sum(loss, ())
    return loss.sum() if total is None else total


def check_reduction(reduction: str) -> None:
    if reduction not in REDUCTIONS:
        raise TorchValueError(f"{reduction} is not a valid value for reduction")


class MseLoss(Function):
    __slots__ = ()
    name = "MseLossBackward0"
    saves = (0, 1)

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """apply_loss_reduction(mse_loss_backward(self_t, self_p, target_p, None)
        + mse_loss_backward(target_t, target_p, self_p, None), reduction), the kernel's 2 * (a - b) * grad."""
        (tx, tt), (x, target) = tangents[:2], arrays[:2]
        loss = None
        for t, (a, b) in ((tx, (x, target)), (tt, (target, x))):
            if t is not None:
                term = 2 * elementwise_binary(np.subtract, a, b) * t
                loss = term if loss is None else loss + term
        reduction = ctx.aux[0]
        if reduction == "none":
            return loss
        return _mean(loss) if reduction == "mean" else _total(loss)

    @staticmethod
    def forward(ctx, x, target, reduction):
        diff = elementwise_binary(np.subtract, x, target)  # broadcasts, with torch's size-mismatch error
        if diff.dtype.kind != "f":
            raise TorchRuntimeError(f'"mse_cpu" not implemented for \'{dtype_title(diff.dtype)}\'')
        ctx.aux = (reduction, diff.size)
        squared = diff * diff
        if reduction == "none":
            return squared
        return _mean(squared) if reduction == "mean" else _total(squared)

    @staticmethod
    def backward(ctx, g, x, target):
        reduction, count = ctx.aux
        # torch's kernel: norm * (input - target) * grad, norm = 2/N for 'mean' and 2 otherwise
        norm = (2.0 / count if count else math.nan) if reduction == "mean" else 2.0  # empty mean: nan, as torch
        grad = (x - target) * norm * g
        want_x, want_target = ctx.needs_input_grad[:2]
        return (grad if want_x else None), (-grad if want_target else None), None


@register("mse_loss", sig="mse_loss(input, target, reduction='mean')",
          doc="mean (or sum, or elementwise) squared error", category="loss", functional=True, method=False,
          torch=False, result_shape=sizes.broadcast)
def mse_loss(input, target, reduction="mean"):
    _same_size_warning(input, target)
    check_reduction(reduction)
    return MseLoss.apply(input, target, reduction)


# -- the rest of the losses (the op-set feature): l1, smooth_l1, huber, nll, cross_entropy, binary cross
# entropies, kl_div.  Fused torch kernels are Functions with torch's backward formulas (in `dual` operations,
# so Hessians work); composite ones are built from ops exactly as torch builds them.

_REDUCTION_ENUM = {0: "none", 1: "mean", 2: "sum"}


def _reduction_name(reduction, size_average=None, reduce=None) -> str:
    if size_average is not None or reduce is not None:  # torch's legacy arguments
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        return "none" if not reduce else ("mean" if size_average else "sum")
    if isinstance(reduction, int) and not isinstance(reduction, bool):
        return _REDUCTION_ENUM.get(reduction, str(reduction))
    return reduction


def _reduce(loss, reduction):
    if reduction == "mean":
        return reduction_ops.mean(loss)
    if reduction == "sum":
        return _sum(loss)
    return loss


def _same_size_warning(input, target):
    if isinstance(target, Tensor) and target.shape != input.shape:
        state.warn(
            f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            UserWarning, stacklevel=3)


@register("l1_loss", sig="l1_loss(input, target, reduction='mean')",
          doc="mean (or sum, or elementwise) |input - target|", category="loss", functional=True, method=False,
          torch=False, result_shape=sizes.broadcast)
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_name(reduction, size_average, reduce)
    check_reduction(reduction)
    _same_size_warning(input, target)
    return _reduce(_abs(input - target), reduction)  # torch: (input - target).abs(), then the reduction


class _PointwiseLoss(Function):
    """A fused elementwise loss of (input, target) with reduction; `rule` gives d loss_i / d input_i."""

    __slots__ = ()
    in_input_dtype = False  # the loss takes the input's dtype, not the promoted one
    saves = (0, 1)
    uniform_grad_ok = True

    @classmethod
    def forward(cls, ctx, x, target, reduction, param):
        diff = elementwise_binary(np.subtract, x, target)
        if diff.dtype.kind != "f":
            raise TorchRuntimeError(f'"{cls.kernel}" not implemented for \'{dtype_title(diff.dtype)}\'')
        ctx.aux = (reduction, diff.size, param, diff.shape)
        loss = cls.loss(diff, param)
        if cls.in_input_dtype and x.dtype.kind == "f":  # huber's kernel writes into a tensor like the input
            loss = loss.astype(x.dtype, copy=False)
        if reduction == "none":
            return loss
        return np.asarray(_mean(loss) if reduction == "mean" else _total(loss), dtype=loss.dtype)

    @classmethod
    def backward(cls, ctx, g, x, target):
        reduction, count, param, shape = ctx.aux
        norm = (1.0 / count if count else math.nan) if reduction == "mean" else 1.0
        diff = x - target
        grad = cls.rule(diff, (g * norm) if norm != 1.0 else g, param)
        if grad.shape != shape:
            grad = dual.expand(grad, shape)
        want_x, want_t = ctx.needs_input_grad[:2]
        return (grad if want_x else None), (-grad if want_t else None), None, None


class SmoothL1Loss(_PointwiseLoss):
    __slots__ = ()
    name = "SmoothL1LossBackward0"
    kernel = "smooth_l1_cpu"

    @staticmethod
    def loss(diff, beta):
        z = np.abs(diff)
        return np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)

    @staticmethod
    def rule(diff, g, beta):
        d = val(diff)
        # torch's kernel: x < -beta ? -grad : x > beta ? grad : x * grad / beta (so nan stays nan)
        return dual.where(d < -beta, -g, dual.where(d > beta, g, diff * g / beta))


class HuberLoss(_PointwiseLoss):
    __slots__ = ()
    name = "HuberLossBackward0"
    kernel = "huber_cpu"
    in_input_dtype = True

    @staticmethod
    def loss(diff, delta):
        z = np.abs(diff)
        return np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))

    @staticmethod
    def rule(diff, g, delta):
        d = val(diff)
        # at |x| == delta both formulas agree; torch's double backward is 0 there, as for the outer branches
        return dual.where(d <= -delta, g * -delta, dual.where(d >= delta, g * delta, diff * g))


@register("smooth_l1_loss", sig="smooth_l1_loss(input, target, reduction='mean', beta=1.0)",
          doc="squared error below beta, absolute error above (scaled to join smoothly)", category="loss",
          functional=True, method=False, torch=False, result_shape=sizes.broadcast)
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    reduction = _reduction_name(reduction, size_average, reduce)
    check_reduction(reduction)
    _same_size_warning(input, target)
    if beta < 0:
        raise TorchRuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return l1_loss(input, target, reduction=reduction)  # torch does the same
    return SmoothL1Loss.apply(input, target, reduction, float(beta))


@register("huber_loss", sig="huber_loss(input, target, reduction='mean', delta=1.0)",
          doc="squared error below delta, delta * absolute error above", category="loss", functional=True,
          method=False, torch=False, result_shape=sizes.broadcast)
def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    reduction = _reduction_name(reduction)
    check_reduction(reduction)
    _same_size_warning(input, target)
    if delta <= 0:
        raise TorchRuntimeError("huber_loss does not support non-positive values for delta.")
    return HuberLoss.apply(input, target, reduction, float(delta))


# -- nll_loss and cross_entropy ---------------------------------------------------------------------------

class NllLoss(Function):
    """-input[i, target[i]] (times weight[target[i]]); ignored targets contribute 0 and no weight."""

    __slots__ = ()
    name = "NllLossBackward0"
    saves = (0,)  # torch's node saves self (its double backward's edge)
    double_backward = "NllLossBackwardBackward0"

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """nll_loss_forward(self_t, target, weight, reduction, ignore_index): linear in the input."""
        return NllLoss.forward(object.__new__(NllLoss), tangents[0], *arrays[1:], **params)

    @staticmethod
    def forward(ctx, x, target, weight, reduction, ignore_index):
        if x.ndim == 0 or x.ndim > 1 and target.shape != (x.shape[0],) + x.shape[2:] or \
                x.ndim == 1 and target.ndim != 0 and target.shape != (1,):
            # torch prints a 0-d target's batch size as 0
            raise TorchValueError(f"Expected input batch_size ({x.shape[0] if x.ndim else 1}) to match target "
                                  f"batch_size ({target.shape[0] if target.ndim else 0}).")
        if target.dtype.kind not in "iu":
            raise TorchRuntimeError(f"expected target dtype to be Long or Byte, but got {dtype_title(target.dtype)}")
        c_dim = 0 if x.ndim == 1 else 1
        n_classes = x.shape[c_dim]
        t = target.reshape(()) if x.ndim == 1 else target
        ignored = t == ignore_index
        safe = np.where(ignored, 0, t)
        bad = (safe < 0) | (safe >= n_classes)
        if bad.any():
            raise TorchIndexError(f"Target {int(np.asarray(safe)[bad].flat[0])} is out of bounds.")
        w = np.ones(n_classes, dtype=x.dtype) if weight is None else weight.astype(x.dtype, copy=False)
        wt = np.where(ignored, 0.0, w[safe]).astype(x.dtype)
        idx = np.expand_dims(safe, c_dim)
        picked = np.squeeze(np.take_along_axis(x, idx, axis=c_dim), c_dim) if x.ndim > 1 else x[safe]
        losses = -(picked * wt)
        total = wt.sum()
        ctx.aux = (reduction, c_dim, idx, wt, total, x.shape, (target, weight, ignore_index))
        if reduction == "none":
            return losses.astype(x.dtype, copy=False)
        if reduction == "sum":
            return np.asarray(losses.sum(), dtype=x.dtype)
        with np.errstate(all="ignore"):
            return np.asarray(losses.sum() / total, dtype=x.dtype)

    @classmethod
    def backward(cls, ctx, g, x=None):
        if isinstance(g, Tensor) or isinstance(x, Tensor):  # create_graph: nll_loss_backward is a node of its own
            return NllLossGrad.apply(g, x, ctx.aux, type(ctx)), None, None
        return cls.rule(ctx.aux, g), None, None

    @staticmethod
    def rule(aux, g):
        reduction, c_dim, idx, wt, total, shape, _ = aux
        coef = np.zeros(shape, dtype=wt.dtype)
        if len(shape) > 1:
            np.put_along_axis(coef, idx, np.expand_dims(-wt, c_dim), axis=c_dim)
        else:
            coef[idx] = -wt
        if reduction == "mean":  # entries of ignored targets stay 0, even when every target is ignored
            coef = np.divide(coef, total, out=np.zeros_like(coef), where=coef != 0)
        if reduction == "none" and len(shape) > 1:
            g = dual.reshape(g, g.shape[:1] + (1,) + g.shape[1:])
        return g * coef


class NllLoss2d(NllLoss):
    __slots__ = ()
    name = "NllLoss2DBackward0"
    double_backward = "NllLoss2DBackwardBackward0"


class NllLossGrad(Function):
    """nll_loss_backward(grad, self, ...) under create_graph (derivatives.yaml): linear in grad, whose own
    derivative is nll_loss(grad, target, weight, reduction, ignore_index), and zeros_like(grad) for self."""

    __slots__ = ()
    name = "NllLossBackwardBackward0"
    torch_edges = (0, 1)

    @classmethod
    def apply(cls, g, x, aux, loss_cls):
        node = NllLoss2dGrad if loss_cls is NllLoss2d else NllLossGrad
        return Function.apply.__func__(node, g, x, aux, loss_cls)

    @staticmethod
    def forward(ctx, g, x, aux, loss_cls):
        ctx.aux = (aux, loss_cls)
        return np.asarray(NllLoss.rule(aux, g), dtype=x.dtype)

    @staticmethod
    def backward(ctx, gg):
        aux, loss_cls = ctx.aux
        need_g, need_x = ctx.needs_input_grad[:2]
        target, weight, ignore_index = aux[6]
        d_g = loss_cls.apply(gg, target, weight, aux[0], ignore_index) if need_g else None
        return d_g, (dual.zeros_like(gg) if need_x else None), None, None


class NllLoss2dGrad(NllLossGrad):
    __slots__ = ()
    name = "NllLoss2DBackwardBackward0"


def check_no_requires_grad(tensor, argument: str, function: str) -> None:
    """torch's check_no_requires_grad (VariableType): an argument its derivatives.yaml does not differentiate
    must not require grad while grad mode is on."""
    if isinstance(tensor, Tensor) and tensor.requires_grad and GradMode.enabled:
        raise TorchRuntimeError(f"The function '{function}' is not differentiable with respect to argument "
                                f"'{argument}'. This input cannot have requires_grad True.")


@register("nll_loss", sig="nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')",
          doc="negative log likelihood of class indices, from log-probabilities", category="loss",
          functional=True, method=False, torch=False)
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _reduction_name(reduction, size_average, reduce)
    check_reduction(reduction)
    check_no_requires_grad(weight, "weight", "nll_loss2d_forward" if input.ndim > 2 else "nll_loss_forward")
    cls = NllLoss2d if input.ndim > 2 else NllLoss
    w = None if weight is None else weight.array
    out = cls.apply(input, target.array if isinstance(target, Tensor) else np.asarray(target), w, reduction,
                    int(ignore_index))
    if input.ndim > 2 and input.ndim != 4 and reduction == "none":
        out = view(out, *out.shape)  # torch runs other ranks through the 4-D kernel and views back
    return out


@register("cross_entropy",
          sig="cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)",
          doc="log_softmax + nll_loss (class indices) or -sum(target * log_softmax) (probabilities)",
          category="loss", functional=True, method=False, torch=False)
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    reduction = _reduction_name(reduction, size_average, reduce)
    check_reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise TorchRuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    c_dim = 0 if input.ndim == 1 else 1
    n_classes = input.shape[c_dim]
    logp = log_softmax(input, c_dim)
    weight_b = None
    if weight is not None:
        shape = [1] * input.ndim
        shape[c_dim] = n_classes
        weight_b = weight.reshape(*shape)
    t_array = target.array if isinstance(target, Tensor) else np.asarray(target)
    if t_array.shape == tuple(input.shape):  # torch: a target of the input's shape holds class probabilities
        if t_array.dtype.kind != "f":
            raise TorchRuntimeError("Expected floating point type for target with class probabilities, got "
                                    f"{dtype_title(t_array.dtype)}")
        if ignore_index >= 0:
            raise TorchRuntimeError("ignore_index is not supported for floating point target")
        tgt = target if isinstance(target, Tensor) else Tensor._make(t_array, None)
        if label_smoothing > 0:
            tgt = arith.add(arith.mul(target, 1 - label_smoothing), _per_class(label_smoothing, n_classes))
        prod = arith.mul(logp, tgt)
        if weight_b is not None:
            prod = arith.mul(prod, weight_b)
        if reduction == "mean":
            if not input.array.size:  # torch: -(input * target).sum().fill_(nan), no division by the count
                return arith.neg(fill_(_sum(prod), math.nan))
            return arith.div_scalar(arith.neg(_sum(prod)), input.array.size / n_classes)
        if reduction == "sum":
            return arith.neg(_sum(prod))
        return arith.neg(_sum(prod, c_dim))
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0:
        return nll
    t = target.array if isinstance(target, Tensor) else np.asarray(target)
    ignored = t == ignore_index

    smooth = arith.neg(_sum(logp if weight_b is None else arith.mul(logp, weight_b), c_dim))
    smooth = where(Tensor._make(np.asarray(ignored), None), 0.0, smooth)
    if reduction == "mean":
        if weight is None:
            denom = float((~ignored).sum())
        else:
            safe = np.where(ignored, 0, t)
            denom = float(np.where(ignored, 0.0, weight.array[safe]).sum())
        ret = arith.div(_sum(smooth), Tensor._make(np.asarray(denom, dtype=input.array.dtype), None))
    elif reduction == "sum":
        ret = _sum(smooth)
    else:
        ret = smooth
    return arith.add(arith.mul(nll, 1 - label_smoothing), arith.mul(ret, _per_class(label_smoothing, n_classes)))


def _per_class(label_smoothing: float, n_classes: int) -> float:
    """label_smoothing / n_classes as torch's C++ divides it: by 0 classes (an input of shape (N, 0)) it is
    inf, not Python's ZeroDivisionError."""
    return label_smoothing / n_classes if n_classes else math.inf


# -- binary cross entropies -------------------------------------------------------------------------------

def _check_probabilities(x, target):
    """torch's kernel checks each element in turn, its input then its target: `(v >= 0) && (v <= 1)`, so nan
    fails too; the first element that fails names which (gradcli checked the input only, nan passing)."""
    with np.errstate(invalid="ignore"):
        bad_x = ~((x >= 0) & (x <= 1))
        bad_t = ~((target >= 0) & (target <= 1))
    if not (bad_x.any() or bad_t.any()):
        return
    bad_x, bad_t = np.broadcast_arrays(bad_x, bad_t)
    first = np.flatnonzero((bad_x | bad_t).ravel())[0]
    which = "input" if bad_x.ravel()[first] else "target"
    raise TorchRuntimeError(f"all elements of {which} should be between 0 and 1")


class BinaryCrossEntropy(Function):
    __slots__ = ()
    name = "BinaryCrossEntropyBackward0"
    saves = (0, 1, 2)

    @staticmethod
    def forward(ctx, x, target, weight, reduction):
        _check_probabilities(x, target)
        ctx.aux = (reduction, x.size, x.shape)
        with np.errstate(all="ignore"):
            # torch's scalar loop: std::log and std::log1p (the C library's bits with --bits torch)
            loss = -(target * np.maximum(kernels.scalar("log", x), -100.0)
                     + (1 - target) * np.maximum(kernels.scalar("log1p", -x), -100.0))
        if weight is not None:
            loss = loss * weight
        if reduction == "none":
            return loss.astype(x.dtype, copy=False)
        return np.asarray(_mean(loss) if reduction == "mean" else _total(loss), dtype=x.dtype)

    @staticmethod
    def backward(ctx, g, x, target, weight):
        reduction, count, shape = ctx.aux
        need_x, need_t = ctx.needs_input_grad[:2]
        w = None if weight is None else val(weight)
        if isinstance(g, Tensor):  # create_graph: nodes whose own backward is PyTorch's double backward
            gx = BceInputGrad.apply(g, x, target, w, reduction, count) if need_x else None
            gt = BceTargetGrad.apply(g, x, w, reduction, count) if need_t else None
            return gx, gt, None, None
        gx, gt = _bce_grads(g, x, target, w, reduction, count, need_x, need_t)
        if gx is not None and gx.shape != shape:
            gx = np.broadcast_to(gx, shape)
        return gx, gt, None, None


def _bce_grads(g, x, t, w, reduction, count, need_x, need_t):
    """torch's kernels, in their order (the last bit depends on it): grad * (x - t) / max((1 - x) x, EPSILON)
    and -logit(x) * grad, then times weight, then / numel for the mean (numpy arrays)."""
    gx = gt = None
    with np.errstate(all="ignore"):
        if need_x:
            denom = (1 - x) * x
            gx = g * (x - t) / np.where(denom < BCE_EPSILON, BCE_EPSILON, denom)
        if need_t:
            ratio = x / (1 - x)
            gt = -kernels.inner("log", ratio, x) * g  # torch's logit kernel: Vectorized::log, std::log
    return _weight_and_mean(gx, gt, w, reduction, count)


def _weight_and_mean(gx, gt, weight, reduction: str, count: int):
    """The two gradients of a binary cross-entropy times the weight, then / numel for the mean (torch's order)."""
    if weight is not None:
        gx = None if gx is None else gx * weight
        gt = None if gt is None else gt * weight
    if reduction == "mean":
        gx = None if gx is None else gx / count
        gt = None if gt is None else gt / count
    return gx, gt


def _bce_scale(w, reduction, count):
    scale = 1.0 / count if reduction == "mean" else 1.0
    return scale if w is None else w * scale


class BceInputGrad(Function):
    """binary_cross_entropy_backward as a node of its own (create_graph): its backward is PyTorch's
    binary_cross_entropy_double_backward, _grad_output and _target (FunctionsManual.cpp), whose eps is the
    double 1e-12 (not the float EPSILON of the first-order kernel)."""

    __slots__ = ()
    name = "BinaryCrossEntropyBackwardBackward0"
    saves = (0, 1, 2)

    @staticmethod
    def forward(ctx, g, x, t, w, reduction, count):
        ctx.aux = (w, reduction, count)
        return np.broadcast_to(_bce_grads(g, x, t, w, reduction, count, True, False)[0], x.shape).copy()

    @staticmethod
    def backward(ctx, gg, g, x, t):
        w, reduction, count = ctx.aux
        scale = _bce_scale(w, reduction, count)
        need_g, need_x, need_t = ctx.needs_input_grad[:3]
        eps = 1e-12
        with np.errstate(all="ignore"):
            d_g = gg * (x - t) / ((x + eps) * (1 - x + eps)) * scale if need_g else None
            d_x = (x * x - 2 * x * t + t) / ((x + eps) ** 2 * (1 - x + eps) ** 2) * (gg * g) * scale if need_x \
                else None
            d_t = None
            if need_t:
                denom = (1 - x) * x
                denom = dual.where(val(denom) < eps, eps, denom)
                d_t = -gg * g / denom * scale
        return d_g, d_x, d_t, None, None, None


class BceTargetGrad(Function):
    """binary_cross_entropy_target_backward (create_graph): -logit(x) * grad, with logit's derivative
    1 / (x (1 - x)), as PyTorch differentiates it."""

    __slots__ = ()
    name = "MulBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, g, x, w, reduction, count):
        ctx.aux = (w, reduction, count)
        return np.broadcast_to(_bce_grads(g, x, None, w, reduction, count, False, True)[1], x.shape).copy()

    @staticmethod
    def backward(ctx, gg, g, x):
        w, reduction, count = ctx.aux
        scale = _bce_scale(w, reduction, count)
        need_g, need_x = ctx.needs_input_grad[:2]
        with np.errstate(all="ignore"):
            d_g = -dual.log(x / (1 - x)) * gg * scale if need_g else None
            d_x = -(gg * g) / (x * (1 - x)) * scale if need_x else None
        return d_g, d_x, None, None, None


@register("binary_cross_entropy", sig="binary_cross_entropy(input, target, weight=None, reduction='mean')",
          doc="-(t*log(x) + (1-t)*log(1-x)) for probabilities x (log clamped at -100)", category="loss",
          functional=True, method=False, torch=False, result_shape=sizes.broadcast)
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction_name(reduction, size_average, reduce)
    check_reduction(reduction)
    if target.shape != input.shape:
        raise TorchValueError(f"Using a target size ({target.shape}) that is different to the input size "
                              f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if mixed_floats(input.array, target.array):
        raise TorchRuntimeError(f"Found dtype {dtype_title(target.array.dtype)} but expected "
                                f"{dtype_title(input.array.dtype)}")
    check_no_requires_grad(weight, "weight", "binary_cross_entropy")
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


class BinaryCrossEntropyWithLogits(Function):
    __slots__ = ()
    name = "BinaryCrossEntropyWithLogitsBackward0"
    saves = (0, 1, 2, 3)

    @staticmethod
    def forward(ctx, x, target, weight, pos_weight, reduction):

        ctx.aux = (reduction, x.size, np.broadcast_shapes(x.shape, target.shape))
        with np.errstate(all="ignore"):
            log_sig = dual.np_logsigmoid(x)
            if pos_weight is not None:
                log_sig = log_sig * ((pos_weight - 1) * target + 1)
            loss = (1 - target) * x - log_sig
        if weight is not None:
            loss = loss * weight
        dtype = target.dtype if target.dtype.kind == "f" else x.dtype  # torch's kernel works on target's dtype
        if reduction == "none":
            return loss.astype(dtype, copy=False)
        return np.asarray(_mean(loss) if reduction == "mean" else _total(loss), dtype=dtype)

    @staticmethod
    def backward(ctx, g, x, target, weight, pos_weight):
        reduction, count, shape = ctx.aux
        need_x, need_t = ctx.needs_input_grad[:2]
        gx = gt = None
        if need_x:
            if pos_weight is not None:
                t = pos_weight * target
                gx = (t + 1 - target) * dual.sigmoid(x) - t
            else:
                gx = dual.sigmoid(x) - target
            gx = gx * g
        if need_t:
            if pos_weight is not None:
                gt = (dual.logsigmoid(-x) - dual.logsigmoid(x) * pos_weight) * g
            else:
                gt = -x * g
        gx, gt = _weight_and_mean(gx, gt, weight, reduction, count)
        if gx is not None and gx.shape != shape:
            gx = dual.expand(gx, shape)
        return gx, gt, None, None, None


@register("binary_cross_entropy_with_logits",
          sig="binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', pos_weight=None)",
          doc="binary cross entropy of sigmoid(input), computed stably from the logits", category="loss",
          functional=True, method=False, result_shape=sizes.broadcast)
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    reduction = _reduction_name(reduction, size_average, reduce)
    check_reduction(reduction)
    if target.shape != input.shape:
        raise TorchValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    check_no_requires_grad(weight, "weight", "binary_cross_entropy_with_logits")
    check_no_requires_grad(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


# -- kl_div -----------------------------------------------------------------------------------------------

@register("kl_div", sig="kl_div(input, target, reduction='mean', log_target=False)",
          doc="KL divergence sum(target * (log(target) - input)), input as log-probabilities", category="loss",
          functional=True, method=False, result_shape=sizes.broadcast)
def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    reduction = _reduction_name(reduction, size_average, reduce)
    if reduction not in REDUCTIONS + ("batchmean",):
        raise TorchValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
        state.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    # torch's kl_div: exp(t) * (t - x) for log targets, else xlogy(t, t) - t * x; then the reduction
    if log_target:
        loss = arith.mul(exp(target), arith.sub(target, input))
    else:
        loss = arith.sub(xlogy(target, target), arith.mul(target, input))
    if reduction == "batchmean":
        reduced = _reduce(loss, "sum")
        return arith.div(reduced, input.shape[0]) if input.ndim else reduced
    return _reduce(loss, reduction)
