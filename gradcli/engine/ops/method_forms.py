"""Tensor methods (and their torch.X functions) that learners call beside the ops: index queries (nonzero,
argwhere), whole-tensor comparisons (equal, isclose, allclose), another op under torch's name (ravel, msort,
adjoint, positive, the tensor_split family, sum_to_size), small elementwise ops with their own torch node
(sgn, deg2rad, rad2deg, signbit), the legacy `type()` and the `new`/`new_empty` constructors.  Each gives
torch's values, dtypes, grad_fn names and errors (tests/snippets/41x_*.py, recorded from torch)."""

from __future__ import annotations

import inspect
import math

import numpy as np

from gradcli.engine import dtypes, dual
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
)
from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import val
from gradcli.engine.ops.convert import to
from gradcli.engine.ops.elementwise import unary
from gradcli.engine.ops.join_split import split
from gradcli.engine.ops.matrix_algebra import DiagEmbed, diagonal
from gradcli.engine.ops.nn_functional import prelu as functional_prelu
from gradcli.engine.ops.ordering import sort
from gradcli.engine.ops.rearrange import narrow
from gradcli.engine.ops.reduction import sum as reduce_sum
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import TransposeView, index_put_zeros, view
from gradcli.engine.ops.tensor_methods import contiguous
from gradcli.engine.tensor import Tensor, wrap_dim

# -- index queries ------------------------------------------------------------------------------------------


@register("nonzero", sig="nonzero(input, *, as_tuple=False)",
          doc="the indices of the non-zero elements: one row per element (int64), or one tensor per dim",
          category="no-gradient")
def nonzero(input, *, as_tuple=False):
    array = np.asarray(val(input))
    if as_tuple:
        if array.ndim == 0:  # torch: of input.unsqueeze(0)
            return (Tensor._make(np.flatnonzero(array.reshape(1)).astype(np.int64), None),)
        return tuple(Tensor._make(np.ascontiguousarray(p, dtype=np.int64), None) for p in np.nonzero(array))
    if array.ndim == 0:
        return Tensor._make(np.zeros((int(array != 0), 0), np.int64), None)
    # torch fills a (ndim, n) buffer and returns its transpose: strides (1, n)
    return Tensor._make(np.stack([p.astype(np.int64) for p in np.nonzero(array)]).T, None)


@register("argwhere", sig="argwhere(input)", doc="the indices of the non-zero elements, one row per element",
          category="no-gradient")
def argwhere(input):
    return nonzero(input)


# -- whole-tensor comparisons -------------------------------------------------------------------------------

@register("equal", sig="equal(input, other)", doc="True if both have the same size and elements",
          category="comparison")
def equal(input, other):
    if not isinstance(other, Tensor):
        raise TorchTypeError(f"equal(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    a, b = input.array, other.array
    if a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.array_equal(a, b.astype(np.result_type(a, b))))


def _title(dtype) -> str:
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
            "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}[dtype.name]


@register("isclose", sig="isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
          doc="|input - other| <= atol + rtol * |other| elementwise (bool)", category="comparison", torch=False)
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    if not isinstance(other, Tensor):
        raise TorchTypeError(f"isclose(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    if input.dtype is not other.dtype:
        raise TorchRuntimeError(f"{_title(input.dtype)} did not match {_title(other.dtype)}")
    a, b = input.array, other.array
    with np.errstate(all="ignore"):
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan) if a.dtype.kind == "f" else a == b
    return Tensor._make(np.asarray(close), None)


@register("allclose", sig="allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
          doc="True if isclose holds for every element", category="comparison", torch=False)
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).array.all())


# -- another op under torch's name --------------------------------------------------------------------------

@register("ravel", sig="ravel(input)", doc="flattened to 1-D (a view when input is contiguous)", category="shape")
def ravel(input):
    return view(contiguous(input), -1)  # torch: contiguous().view(-1)


@register("msort", sig="msort(input)", doc="sorted along dim 0 (the values of sort(input, 0))", category="reduction")
def msort(input):
    return sort(input, 0)[0]


@register("adjoint", sig="adjoint(input)", doc="the conjugate transpose of the last two dims (a view)",
          category="shape")
def adjoint(input):
    return TransposeView.apply(input, -2, -1)


@register("positive", sig="positive(input)", doc="input itself (an error for bool tensors)", category="arithmetic")
def positive(input):
    if input.array.dtype == np.bool_:
        raise TorchRuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def _sections(value):
    if isinstance(value, Tensor):
        return value.array.tolist()
    return list(value) if isinstance(value, (list, tuple)) else int(value)


@register("tensor_split", sig="tensor_split(input, indices_or_sections, dim=0)",
          doc="views of input split into n nearly equal sections, or at the given indices, along dim",
          category="shape")
def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None,
                 tensor_indices_or_sections=None):
    chosen = next((v for v in (indices_or_sections, sections, indices, tensor_indices_or_sections) if v is not None),
                  None)
    if chosen is None:
        raise TorchTypeError("tensor_split() missing required argument 'indices_or_sections'")
    if input.ndim == 0:
        raise TorchRuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = wrap_dim(dim, input.ndim)
    size = input.shape[d]
    parts = _sections(chosen)
    if isinstance(parts, int):
        if parts <= 0:
            raise TorchRuntimeError(f"number of sections must be larger than 0, got {parts}")
        small, extra = divmod(size, parts)
        bounds, start = [], 0
        for i in range(parts):
            length = small + (1 if i < extra else 0)
            bounds.append((start, length))
            start += length
    else:
        bounds, start = [], 0
        for index in [*parts, size]:
            stop = max(min(int(index), size), start) if int(index) >= 0 else max(size + int(index), start)
            bounds.append((start, stop - start))
            start = stop
    return tuple(narrow(input, d, s, n) for s, n in bounds)


def _split_along(name: str, input, sections: tuple, dim: int, least: int):
    sections = sections[0] if len(sections) == 1 else list(sections)  # x.hsplit(1, 3): the indices [1, 3]
    if input.ndim < least:
        raise TorchRuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor "
                                f"with {input.ndim} dimensions!")
    parts = _sections(sections)
    if isinstance(parts, int):
        size = input.shape[dim]
        if parts == 0 or size % parts:
            raise TorchRuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                                    f"dimension {size} is not divisible by the split_size {parts}!")
    return tensor_split(input, parts, dim)


@register("hsplit", sig="hsplit(input, indices_or_sections)", doc="tensor_split along dim 1 (dim 0 for 1-D)",
          category="shape")
def hsplit(input, *indices_or_sections):
    return _split_along("hsplit", input, indices_or_sections, 0 if input.ndim == 1 else 1, 1)


@register("vsplit", sig="vsplit(input, indices_or_sections)", doc="tensor_split along dim 0", category="shape")
def vsplit(input, *indices_or_sections):
    return _split_along("vsplit", input, indices_or_sections, 0, 2)


@register("dsplit", sig="dsplit(input, indices_or_sections)", doc="tensor_split along dim 2", category="shape")
def dsplit(input, *indices_or_sections):
    return _split_along("dsplit", input, indices_or_sections, 2, 3)


@register("split_with_sizes", sig="split_with_sizes(input, split_sizes, dim=0)",
          doc="pieces of the given sizes along dim", category="shape")
def split_with_sizes(input, split_sizes, dim=0):
    return split(input, list(split_sizes), dim)


@register("sum_to_size", sig="sum_to_size(input, *size)", doc="summed down to a size input expands from",
          category="reduction", torch=False)
def sum_to_size(input, *size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    shape = input.shape
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:])):
        raise TorchRuntimeError(f"size {{[{', '.join(map(str, size))}]}} is not expandable to size "
                                f"{{[{', '.join(map(str, shape))}]}}.")
    dims = [*range(lead), *(lead + i for i, (s, n) in enumerate(zip(size, shape[lead:])) if s == 1 and n != 1)]
    if not dims:
        return input
    out = reduce_sum(input, tuple(dims), True)
    return view(out, *size) if lead else out


# -- small elementwise ops with their own node --------------------------------------------------------------

sgn = unary("sgn", "SgnBackward0", dual.np_sign, lambda g, x: dual.zeros_like(g),
            doc="sign of input (the complex sgn; the same as sign for real tensors)", float_only=False)
DEG_PER_RAD = 180 / math.pi  # torch's M_180_PI, rounded to double
RAD_PER_DEG = math.pi / 180  # M_PI_180
deg2rad = unary("deg2rad", "Deg2RadBackward0", lambda x: x * RAD_PER_DEG, lambda g, x: g * RAD_PER_DEG,
                doc="degrees to radians: input * pi / 180")
rad2deg = unary("rad2deg", "Rad2DegBackward0", lambda x: x * DEG_PER_RAD, lambda g, x: g * DEG_PER_RAD,
                doc="radians to degrees: input * 180 / pi")


@register("signbit", sig="signbit(input)", doc="True where the sign bit is set (-0.0 included)",
          category="comparison", result_shape=sizes.broadcast)
def signbit(input):
    array = input.array
    if array.dtype.kind == "f":
        return Tensor._make(np.signbit(array), None)
    return Tensor._make(np.asarray(array < 0) if array.dtype.kind == "i" else np.zeros(array.shape, bool), None)


# -- the legacy type() and the new* constructors ----------------------------------------------------------

TYPE_NAMES = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "float16": "torch.HalfTensor",
              "int64": "torch.LongTensor", "int32": "torch.IntTensor", "int16": "torch.ShortTensor",
              "int8": "torch.CharTensor", "uint8": "torch.ByteTensor", "bool": "torch.BoolTensor"}
TYPE_DTYPES = {name: dtypes.by_name(dtype) for dtype, name in TYPE_NAMES.items()}


@register("type", sig="type(dtype=None, non_blocking=False)",
          doc="with no argument torch's legacy type name ('torch.FloatTensor'), else converted to dtype",
          category="conversion", torch=False)
def tensor_type(input, dtype=None, non_blocking=False, **kwargs):
    if dtype is None:
        return TYPE_NAMES[input.dtype.name]
    if isinstance(dtype, str):
        if dtype not in TYPE_DTYPES:
            raise TorchValueError(f"invalid type: '{dtype}'")
        dtype = TYPE_DTYPES[dtype]
    elif not isinstance(dtype, dtypes.DType):
        dtype = getattr(dtype, "dtype", None)
        if not isinstance(dtype, dtypes.DType):
            raise TorchValueError("invalid type")
    return input if dtype is input.dtype else to(input, dtype)


def _new_shape(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


@register("new_empty", sig="new_empty(size, dtype=None)",
          doc="a tensor of input's dtype whose values are not set (gradcli gives zeros)", category="creation",
          torch=False)
def new_empty(input, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    shape = _new_shape(size)
    sizes.check_new_shape(shape, "new_empty")
    out = Tensor._make(np.zeros(shape, (dtype or input.dtype).np), None)
    return out.requires_grad_(True) if requires_grad else out


CPP_TYPES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
             "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _options(dtype) -> str:
    return (f"TensorOptions(dtype={CPP_TYPES[dtype.name]}, device=cpu, layout=Strided, requires_grad=false (default), "
            "pinned_memory=false (default), memory_format=(nullopt))")


@register("new", sig="new(*args)", doc="legacy: new(*sizes) uninitialised, new(data) a copy, in input's dtype",
          category="creation", torch=False)
def new(input, *args, device=None):
    if len(args) == 1 and isinstance(args[0], Tensor):
        source = args[0]
        if source.dtype is not input.dtype:
            raise TorchTypeError(f"expected {_options(input.dtype)} (got {_options(source.dtype)})")
        return Tensor._make(source.array, None) if not source.requires_grad else source.detach()
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return Tensor._make(np.array(args[0], dtype=input.dtype.np), None)
    return new_empty(input, *args) if args else Tensor._make(np.zeros((0,), input.dtype.np), None)


# -- take, diag_embed, diagflat --------------------------------------------------------------------------------

class Take(Function):
    """input.flatten()[index], shaped as index; derivatives.yaml: zeros_like(self).put_(index, grad, accumulate)."""

    __slots__ = ()
    jvp = LINEAR
    name = "TakeBackward0"

    @staticmethod
    def forward(ctx, x, index):
        ctx.aux = (index, x.shape, x.size)
        return np.ascontiguousarray(x.reshape(-1)[index])

    @staticmethod
    def backward(ctx, g):
        index, shape, size = ctx.aux
        return dual.reshape(index_put_zeros(g, (index,), (size,)), shape), None


@register("take", sig="take(input, index)", doc="the elements of input (read as 1-D) at index, shaped as index",
          category="shape")
def take(input, index):
    if not isinstance(index, Tensor):
        raise TorchTypeError(f"take(): argument 'index' (position 1) must be Tensor, not {type(index).__name__}")
    idx = index.array
    if idx.dtype != np.int64:
        raise TorchRuntimeError(f"take(): Expected a long tensor for index, but got {_title(index.dtype)}")
    size = input.array.size
    if idx.size and size == 0:
        raise TorchIndexError("take(): tried to take from an empty tensor")
    bad = idx[(idx >= size) | (idx < -size)]
    if bad.size:
        raise TorchIndexError(f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of "
                              f"{size} elements.")
    return Take.apply(input, np.where(idx < 0, idx + size, idx))


class DiagEmbedBatched(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, v, offset, dim1, dim2):
        n = v.shape[-1] + abs(offset) if v.ndim else abs(offset) + 1
        out = np.zeros((*v.shape[:-1], n, n), dtype=v.dtype)
        idx = np.arange(v.shape[-1])
        out[..., idx + max(-offset, 0), idx + max(offset, 0)] = v
        ctx.aux = (offset, dim1, dim2)
        return np.ascontiguousarray(np.moveaxis(out, (-2, -1), (dim1, dim2)))

    @staticmethod
    def backward(ctx, g):
        offset, dim1, dim2 = ctx.aux
        if isinstance(g, Tensor):
            return (diagonal(g, offset, dim1, dim2),)
        return (np.diagonal(g, offset, dim1, dim2).copy(),)


def _embed_shape(input, offset=0, dim1=-2, dim2=-1):
    shape = sizes.shape_of(input)
    n = (shape[-1] if shape else 1) + abs(int(offset))
    return (*shape[:-1], n, n)


@register("diag_embed", sig="diag_embed(input, offset=0, dim1=-2, dim2=-1)",
          doc="matrices with the last dim of input on a diagonal (of dims dim1, dim2 of the result)",
          category="linalg", result_shape=_embed_shape)
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    ndim = input.ndim + 1
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise TorchRuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagEmbedBatched.apply(input, int(offset), d1, d2)


def _flat_shape(input, offset=0):
    n = int(np.prod(sizes.shape_of(input), dtype=np.int64)) + abs(int(offset))
    return (n, n)


@register("diagflat", sig="diagflat(input, offset=0)", doc="a matrix with input (flattened) on a diagonal",
          category="linalg", result_shape=_flat_shape)
def diagflat(input, offset=0):
    return DiagEmbed.apply(view(contiguous(input), -1), int(offset))  # torch: contiguous().view(-1), then diag


# -- unique, unique_consecutive (no derivative in torch either: refused on a tensor that requires grad) -----

def _no_grad(input, name: str) -> None:
    if input.requires_grad:
        raise TorchNotImplementedError(f"gradcli does not record {name} of a tensor that requires grad (torch's "
                                       f"backward of it is not implemented); call x.detach().{name}(...)")


@register("unique", sig="unique(sorted=True, return_inverse=False, return_counts=False, dim=None)",
          doc="the distinct values in ascending order (with inverse indices and counts)", category="no-gradient",
          torch=False)
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002 - torch's name
    _no_grad(input, "unique")
    if not sorted:
        raise TorchNotImplementedError("x.unique(sorted=False) (its order is an implementation detail of torch's "
                                       "hash table; use sorted=True)")
    array = input.array
    if dim is not None:
        dim = wrap_dim(dim, array.ndim)
    values, inverse, counts = np.unique(array, return_inverse=True, return_counts=True, axis=dim)
    out = [Tensor._make(values.astype(array.dtype, copy=False), None)]
    if return_inverse:
        shape = array.shape if dim is None else (array.shape[dim],)
        out.append(Tensor._make(inverse.reshape(shape).astype(np.int64), None))
    if return_counts:
        out.append(Tensor._make(counts.astype(np.int64), None))
    return out[0] if len(out) == 1 else tuple(out)


@register("unique_consecutive", sig="unique_consecutive(input, return_inverse=False, return_counts=False, dim=None)",
          doc="input with each run of equal consecutive values kept once (with inverse indices and counts)",
          category="no-gradient")
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    _no_grad(input, "unique_consecutive")
    array = input.array
    if dim is None:
        flat = array.reshape(-1)
        starts = np.flatnonzero(np.concatenate([[True], flat[1:] != flat[:-1]])) if flat.size else \
            np.zeros(0, np.int64)
        values = flat[starts]
        shape = array.shape
    else:
        d = wrap_dim(dim, array.ndim)
        moved = np.moveaxis(array, d, 0)
        n = moved.shape[0]
        change = [True] + [bool((moved[i] != moved[i - 1]).any()) for i in range(1, n)]
        starts = np.flatnonzero(change) if n else np.zeros(0, np.int64)
        values = np.ascontiguousarray(np.moveaxis(moved[starts], 0, d))
        shape = (n,)
    out = [Tensor._make(np.ascontiguousarray(values), None)]
    total = int(np.prod(shape, dtype=np.int64))
    if return_inverse:
        run = np.zeros(total, np.int64)
        if starts.size:
            run[starts[1:]] = 1
        out.append(Tensor._make(np.cumsum(run).reshape(shape), None))
    if return_counts:
        out.append(Tensor._make(np.diff(np.append(starts, total)).astype(np.int64), None))
    return out[0] if len(out) == 1 else tuple(out)


# F.prelu as the method torch's Tensor also has (x.prelu(weight)): the same op, PreluKernelBackward0
register("prelu", sig="prelu(input, weight)", doc="x if x > 0 else weight * x (weight per channel)", category="nn",
         functional=True)(inspect.unwrap(functional_prelu))
