"""Reductions: sum, mean, max, min.  Backward returns the gradient at the reduced shape (with the
reduced dims kept as 1); the engine expands it to the input's shape as a zero-copy view."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from gradcli.engine import dual, sum_order
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError
from gradcli.engine.ops import arith
from gradcli.engine.ops.common import keepdim_shape, norm_dims, val
from gradcli.engine.ops.elementwise_math import maximum, minimum
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


class ReturnTypes(namedtuple("ReturnTypes", ["values", "indices"])):
    """(values, indices) of max, min, sort, ...: a named tuple printed as torch.return_types.<op>(...)."""

    __slots__ = ()
    op = "max"

    def __repr__(self) -> str:
        return f"torch.return_types.{self.op}(\nvalues={self.values!r},\nindices={self.indices!r})"


def return_type(op: str) -> type:
    """The (values, indices) result class of torch op `op`."""
    return type(op, (ReturnTypes,), {"__slots__": (), "op": op})


MaxResult, MinResult = return_type("max"), return_type("min")


class _Reduce(Function):
    __slots__ = ()
    torch_edges = (0,)  # the input; dims and keepdim are parameters

    @staticmethod
    def kept_dims(ctx, g):
        dims, keepdim, in_shape = ctx.aux[:3]
        if not keepdim and dims:
            if isinstance(g, Tensor):  # under create_graph, the nodes torch's sum_backward records
                if not isinstance(ctx, (SumDim, MeanDim)):
                    return g  # a reduction of everything (sum(), mean()): its 0-d gradient, expanded whole
                for d in sorted(dims):  # unsqueeze_multiple: one unsqueeze per dim, in increasing order
                    g = g.unsqueeze(d)
                return g
            g = dual.reshape(g, keepdim_shape(in_shape, dims))
        return g


class Sum(_Reduce):
    __slots__ = ()
    jvp = LINEAR  # auto_linear
    name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, keepdim=False, dtype=None):
        dims = norm_dims(dim, x.ndim) or tuple(range(x.ndim))  # dim=[] sums every dim, as torch
        ctx.aux = (dims, keepdim, x.shape, dim)  # dim as given: torch's node keeps it so (grad_fn._saved_dim)
        if x.dtype.kind in "bu" or (x.dtype.kind == "i" and x.dtype != np.int64):
            x = x.astype(np.int64)  # torch sums integers and bools as int64
        total = sum_order.torch_sum(x, dims, keepdim)  # floats in ATen's order, bit for bit
        return x.sum(axis=dims, keepdims=keepdim) if total is None else total

    @staticmethod
    def backward(ctx, g):
        return (_Reduce.kept_dims(ctx, g),)


class SumDim(Sum):
    __slots__ = ()
    name = "SumBackward1"


class Mean(_Reduce):
    __slots__ = ()
    jvp = LINEAR  # auto_linear
    name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, keepdim=False):
        if x.dtype.kind != "f":
            raise TorchRuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                f"dtype. Got: {_dtype_title(x)}")
        dims = norm_dims(dim, x.ndim) or tuple(range(x.ndim))
        count = 1
        for d in dims:
            count *= x.shape[d]
        ctx.aux = (dims, keepdim, x.shape, count, dim)
        with np.errstate(invalid="ignore", divide="ignore"):  # torch's mean is its sum divided by the count
            return sum_order.torch_sum(x, dims, keepdim) / x.dtype.type(count)

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):  # torch's mean_backward: sum_backward(grad, ...) / n, expanded before dividing
            return (arith.div_scalar(dual.expand(_Reduce.kept_dims(ctx, g), ctx.aux[2]), ctx.aux[3]),)
        # the quotient of the expanded gradient is a new tensor in torch, contiguous: a later sum of it (a
        # broadcast operand's gradient) adds in that layout's order, not in a zero-stride view's
        return (np.broadcast_to(_Reduce.kept_dims(ctx, g), ctx.aux[2]) / ctx.aux[3],)


class MeanDim(Mean):
    __slots__ = ()
    name = "MeanBackward1"


def _reduced_shape(shape: tuple, dims: tuple, keepdim: bool) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(shape)) if keepdim else \
        tuple(s for i, s in enumerate(shape) if i not in dims)


def _dtype_title(x) -> str:
    return {"i": "Long", "b": "Bool", "u": "Byte"}.get(x.dtype.kind, str(x.dtype))


@register("sum", sig="sum(input, dim=None, keepdim=False)", doc="sum of all elements, or over dim",
          category="reduction")
def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None):  # noqa: A001 - torch's name
    dim = axis if dim is None else dim
    if dim is None or dim == ():
        return Sum.apply(input) if not keepdim else SumDim.apply(input, None, True)
    return SumDim.apply(input, dim, keepdim)


@register("mean", sig="mean(input, dim=None, keepdim=False)", doc="mean of all elements, or over dim",
          category="reduction")
def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None):
    dim = axis if dim is None else dim
    if dim is None:
        return Mean.apply(input) if not keepdim else MeanDim.apply(input, None, True)
    return MeanDim.apply(input, dim, keepdim)


class MaxAll(Function):
    """Full max/min: the gradient is split evenly between tied extrema, as torch does."""

    __slots__ = ()
    name = "MaxBackward1"
    saves = (0,)  # the mask of the extrema is found in backward, when it is needed (torch saves self and result)
    saves_output = True

    @staticmethod
    def forward(ctx, x, largest=True):
        if x.size == 0:
            raise TorchRuntimeError(
                f"{'max' if largest else 'min'}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        value = np.max(x) if largest else np.min(x)
        return np.asarray(value)

    @staticmethod
    def backward(ctx, g, x, result):
        x, value = val(x), val(result)
        mask = np.isnan(x) if np.isnan(value) else (x == value)
        return (dual.where(mask, g / int(mask.sum()), 0.0),)


class MinAll(MaxAll):
    __slots__ = ()
    name = "MinBackward1"


def argextremum(x, d, largest):
    """Indices of the max/min along axis `d` (first occurrence; a nan wins, as in torch)."""
    idx = np.argmax(x, axis=d) if largest else np.argmin(x, axis=d)
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        nan_any = nan.any(axis=d)
        if nan_any.any():
            idx = np.where(nan_any, np.argmax(nan, axis=d), idx)
    return idx


class MaxDim(Function):
    """max/min along a dim: the gradient goes to the selected index only."""

    __slots__ = ()
    name = "MaxBackward0"

    @staticmethod
    def forward(ctx, x, idx_kept, d, keepdim):
        if idx_kept is None:
            return x.copy()
        values = np.take_along_axis(x, idx_kept, axis=d)
        ctx.aux = (idx_kept, d, keepdim, x.shape)
        return values if keepdim else values.squeeze(d)

    @staticmethod
    def backward(ctx, g):
        if ctx.aux is None:
            return (g,)
        idx_kept, d, keepdim, in_shape = ctx.aux
        if not keepdim:
            g = dual.reshape(g, keepdim_shape(in_shape, (d,)))
        mask = np.zeros(in_shape, dtype=bool)
        np.put_along_axis(mask, idx_kept, True, axis=d)
        return (dual.where(mask, g, 0.0),)


class MinDim(MaxDim):
    __slots__ = ()
    name = "MinBackward0"


def _extremum(input, dim, keepdim, largest):
    name = "max" if largest else "min"
    if dim is None:
        return (MaxAll if largest else MinAll).apply(input, largest)
    if isinstance(dim, Tensor):  # torch.max(x, y): the elementwise maximum

        return maximum(input, dim) if largest else minimum(input, dim)
    x = input.array
    if x.ndim == 0:  # the value itself, at index 0
        norm_dims(dim, 0)  # validates dim
        values = (MaxDim if largest else MinDim).apply(input, None, None, True)
        return (MaxResult if largest else MinResult)(values, Tensor._make(np.zeros((), dtype=np.int64), None))
    d = norm_dims(dim, x.ndim)[0]
    if x.shape[d] == 0:
        raise TorchIndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    idx = argextremum(x, d, largest)
    idx_kept = np.expand_dims(idx, d)
    values = (MaxDim if largest else MinDim).apply(input, idx_kept, d, keepdim)
    return (MaxResult if largest else MinResult)(values, Tensor._make(idx_kept if keepdim else idx, None))


@register("max", sig="max(input, dim=None, keepdim=False)",
          doc="largest element (ties share the gradient), or (values, indices) along dim", category="reduction")
def max(input, dim=None, keepdim=False):  # noqa: A001 - torch's name
    return _extremum(input, dim, keepdim, True)


@register("min", sig="min(input, dim=None, keepdim=False)",
          doc="smallest element (ties share the gradient), or (values, indices) along dim", category="reduction")
def min(input, dim=None, keepdim=False):  # noqa: A001 - torch's name
    return _extremum(input, dim, keepdim, False)

