"""More reductions and running ops: nansum, nanmean, var_mean, std_mean, any, all, count_nonzero,
logcumsumexp, diff, trapezoid.

nanmean, diff and trapezoid are compositions of other ops in torch too, so their graphs (grad_fn names
included) are the same ops torch records.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual, kernels, sum_order
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops import arith
from gradcli.engine.ops.aggregates import Std, Var, kept_dims, reduce_dims, var_args, var_forward, welford
from gradcli.engine.ops.common import as_float, norm_dims, val
from gradcli.engine.ops.join_split import cat
from gradcli.engine.ops.reduction import Mean, MeanDim
from gradcli.engine.ops.reduction import sum as sum_op
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor, wrap_dim


class Nansum(Function):
    __slots__ = ()
    name = "NansumBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        dims = reduce_dims(dim, x.ndim)
        ctx.aux = (dims, keepdim, x.shape)
        if x.dtype.kind in "biu":
            return np.sum(x.astype(np.int64), axis=dims or None, keepdims=keepdim)
        # torch's nansum is its sum kernel reading nan as 0, in the same order: the order follows the
        # input's layout (a sliced or transposed view), which the cleaned copy keeps
        return sum_order.torch_sum(_nan_as_zero(x), dims, keepdim)

    @staticmethod
    def backward(ctx, g, x):
        dims, keepdim, shape = ctx.aux
        g = kept_dims(g, dims, keepdim, shape)
        xv = val(x)
        # torch multiplies by the mask (not a where): an inf gradient (nanmean of an all-nan row) gives nan
        return (g * (~np.isnan(xv)).astype(xv.dtype),)


def _nan_as_zero(x: np.ndarray) -> np.ndarray:
    """x with nan read as 0, in an array of x's strides (its own buffer spanning the same bytes)."""
    if not np.isnan(x).any():
        return x
    lo = sum(min(0, (n - 1) * s) for n, s in zip(x.shape, x.strides) if n)
    hi = sum(max(0, (n - 1) * s) for n, s in zip(x.shape, x.strides) if n) + x.itemsize
    buffer = np.empty(max(hi - lo, 0) if x.size else x.itemsize, dtype=np.uint8)
    clean = np.ndarray(x.shape, x.dtype, buffer=buffer, offset=-lo, strides=x.strides)
    np.copyto(clean, x)
    np.copyto(clean, x.dtype.type(0), where=np.isnan(x))
    return clean


@register("nansum", sig="nansum(input, dim=None, keepdim=False)", doc="sum treating nan as 0",
          category="reduction")
def nansum(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:  # torch sums in the requested dtype
        input = input.to(dtype)
    return Nansum.apply(input, dim, keepdim)


@register("nanmean", sig="nanmean(input, dim=None, keepdim=False)", doc="mean of the elements that are not nan",
          category="reduction")
def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    if input.array.dtype.kind != "f":
        raise TorchRuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                                f"{_long_name(input.array.dtype)}")
    # torch: nansum(input) / (number of non-nan elements), a tensor division
    count = sum_op(Tensor._make(~np.isnan(input.array), None), dim=dim, keepdim=keepdim)
    return nansum(input, dim, keepdim) / count


def _long_name(dtype) -> str:
    return {"int64": "Long", "int32": "Int", "bool": "Bool", "uint8": "Byte"}.get(str(dtype), str(dtype))


class VarPart(Var):
    __slots__ = ()
    name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        return var_forward(ctx, x, dim, correction, keepdim, one_pass=True).astype(x.dtype, copy=False)


class StdPart(Std):
    __slots__ = ()
    name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        return np.sqrt(var_forward(ctx, x, dim, correction, keepdim, one_pass=True)).astype(x.dtype, copy=False)


def _welford_mean(ctx, x, dim=None, keepdim=False):
    """var_mean's mean: the running mean of the same Welford pass, rounded to x's dtype (torch computes both
    results in one kernel); mean()'s own sum where that kernel is not Welford's (empty, integer input)."""
    if not (x.ndim and x.size and x.dtype.kind == "f" and x.dtype.itemsize >= 4):
        return MeanDim.forward(ctx, x, dim, keepdim)
    dims = reduce_dims(dim, x.ndim)
    ctx.aux = (dims, keepdim, x.shape, int(np.prod([x.shape[d] for d in dims])))  # as Mean.forward's
    mean, _ = welford(x, dims)
    shape = tuple(1 if d in dims else s for d, s in enumerate(x.shape)) if keepdim else tuple(
        s for d, s in enumerate(x.shape) if d not in dims)
    return mean.astype(x.dtype).reshape(shape)


class VarMeanMean(MeanDim):
    __slots__ = ()
    name = "VarMeanBackward0"
    forward = staticmethod(_welford_mean)


class VarMeanMeanAll(Mean):
    __slots__ = ()
    name = "VarMeanBackward0"
    forward = staticmethod(_welford_mean)


class StdMeanMean(MeanDim):
    __slots__ = ()
    name = "StdMeanBackward0"
    forward = staticmethod(_welford_mean)


class StdMeanMeanAll(Mean):
    __slots__ = ()
    name = "StdMeanBackward0"
    forward = staticmethod(_welford_mean)


def _spread_and_mean(spread, mean_dim, mean_all, input, dim, unbiased, keepdim, correction):
    dim, correction = var_args(dim, unbiased, correction)
    first = spread.apply(input, dim, correction, keepdim)
    if dim is None or (isinstance(dim, (tuple, list)) and not len(dim)):
        second = mean_all.apply(input) if not keepdim else mean_dim.apply(input, None, True)
    else:
        second = mean_dim.apply(input, dim, keepdim)
    return first, second


@register("var_mean", sig="var_mean(input, dim=None, *, correction=1, keepdim=False)",
          doc="(variance, mean) in one call", category="reduction", method=False)
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread_and_mean(VarPart, VarMeanMean, VarMeanMeanAll, input, dim, unbiased, keepdim, correction)


@register("std_mean", sig="std_mean(input, dim=None, *, correction=1, keepdim=False)",
          doc="(standard deviation, mean) in one call", category="reduction", method=False)
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread_and_mean(StdPart, StdMeanMean, StdMeanMeanAll, input, dim, unbiased, keepdim, correction)


def _truth(name, np_fn, doc):
    def op(input, dim=None, keepdim=False):
        x = np.asarray(val(input))
        axis = None if dim is None else norm_dims(dim, x.ndim)
        out = np_fn(x != 0, axis=axis or None if x.ndim else None, keepdims=keepdim)
        if dim is None and keepdim:
            out = np.reshape(out, (1,) * x.ndim)
        return Tensor._make(np.asarray(out, dtype=np.uint8 if x.dtype == np.uint8 else bool), None)

    op.__name__ = name
    return register(name, sig=f"{name}(input, dim=None, keepdim=False)", doc=doc, category="no-gradient")(op)


any = _truth("any", np.any, "whether any element is nonzero (bool), or along dim")  # noqa: A001 - torch's name
all = _truth("all", np.all, "whether every element is nonzero (bool), or along dim")  # noqa: A001 - torch's name


@register("count_nonzero", sig="count_nonzero(input, dim=None)", doc="number of nonzero elements (int64)",
          category="no-gradient")
def count_nonzero(input, dim=None, *dims):
    x = input.array
    if dims:  # x.count_nonzero(0, 2): the dims as one list, as torch's parser takes them
        dim = (dim, *dims)
    axis = None if dim is None else norm_dims(dim, x.ndim)
    return Tensor._make(np.asarray(np.count_nonzero(x, axis=axis if x.ndim else None), dtype=np.int64), None)


def _np_logcumsumexp(x, d):
    return kernels.logaddexp_accumulate(x, d)


class LogCumSumExp(Function):
    """log(cumsum(exp(x))), stable; the rule splits the gradient by sign and sums it in log space (torch's
    logcumsumexp_backward), so it is stable too."""

    __slots__ = ()
    name = "LogcumsumexpBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, x, dim):
        x = as_float(x)
        d = wrap_dim(dim, x.ndim) if x.ndim else 0
        ctx.aux = d
        if x.ndim == 0 or x.size == 0:
            return x.copy()
        return _np_logcumsumexp(x, d)

    @staticmethod
    def backward(ctx, g, x, out):
        d = ctx.aux
        if np.ndim(val(x)) == 0:
            return (g,)
        gv = val(g)
        with np.errstate(all="ignore"):
            pos = dual.where(gv > 0, dual.log(dual.where(gv > 0, g, 1.0)) - out, -np.inf)
            neg = dual.where(gv < 0, dual.log(dual.where(gv < 0, -g, 1.0)) - out, -np.inf)
            return (dual.exp(_reverse_logcumsumexp(pos, d) + x) - dual.exp(_reverse_logcumsumexp(neg, d) + x),)


def _reverse_logcumsumexp(v, d):
    if isinstance(v, Tensor):
        return dual.flip(LogCumSumExp.apply(dual.flip(v, (d,)), d), (d,))
    return np.flip(_np_logcumsumexp(np.flip(v, axis=d), d), axis=d)


@register("logcumsumexp", sig="logcumsumexp(input, dim)", doc="log(cumsum(exp(input))) along dim, stable",
          category="reduction")
def logcumsumexp(input, dim):
    return LogCumSumExp.apply(input, dim)


@register("diff", sig="diff(input, n=1, dim=-1, prepend=None, append=None)",
          doc="differences of neighbours along dim, n times", category="shape")
def diff(input, n=1, dim=-1, prepend=None, append=None):
    if input.ndim == 0:
        raise TorchRuntimeError("diff expects input to be at least one-dimensional")
    d = wrap_dim(dim, input.ndim)
    if int(n) < 0:
        raise TorchRuntimeError(f"order must be non-negative but got {int(n)}")
    if prepend is not None or append is not None:
        pieces = [p if isinstance(p, Tensor) else Tensor(p) for p in (prepend, input, append) if p is not None]
        input = cat(pieces, d)
    for _ in range(int(n)):
        size = input.shape[d]
        if size == 0:
            break
        input = input.narrow(d, 1, size - 1) - input.narrow(d, 0, size - 1)
    return input


@register("trapezoid", sig="trapezoid(y, x=None, *, dx=None, dim=-1)",
          doc="integral of y by the trapezoid rule (spacing dx, or sample points x)", category="reduction",
          aliases=("trapz",))
def trapezoid(y, x=None, *, dx=None, dim=-1):
    d = wrap_dim(dim, y.ndim) if y.ndim else 0
    if y.ndim == 0:
        raise TorchRuntimeError("trapezoid: Dimension specified as -1 but tensor has no dimensions")
    n = y.shape[d]
    if x is not None and not isinstance(x, Tensor):
        dx, x = x, None  # torch.trapezoid(y, 0.5): a number is the spacing
    if x is None:
        spacing = 1.0 if dx is None else float(dx)
        if n == 0:
            return sum_op(y, d) * 0.0
        ends = y.select(d, 0) + y.select(d, -1)
        return arith.mul_scalar(sum_op(y, d) - ends * 0.5, spacing)
    if x.ndim == 1:
        if x.shape[0] != n:
            raise TorchRuntimeError(
                f"trapezoid: There must be one `x` value for each sample point, but got {x.shape[0]} x values "
                f"and {n} sample points.")
        widths = x[1:] - x[:-1]
        shape = [1] * y.ndim
        shape[d] = n - 1
        widths = widths.view(*shape)
    else:
        widths = x.diff(dim=d)
    return arith.div_scalar(sum_op(widths * (y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1)), d), 2.0)
