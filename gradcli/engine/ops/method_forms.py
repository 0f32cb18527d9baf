"""Tensor methods (and their torch.X functions) that learners call beside the ops: index queries (nonzero,
argwhere), whole-tensor comparisons (equal, isclose, allclose), another op under torch's name (ravel, msort,
adjoint, positive, the tensor_split family, sum_to_size), small elementwise ops with their own torch node
(sgn, deg2rad, rad2deg, signbit), the legacy `type()` and the `new`/`new_empty` constructors.  Each gives
torch's values, dtypes, grad_fn names and errors (tests/snippets/41x_*.py, recorded from torch)."""

from __future__ import annotations

import inspect
import math

import numpy as np

from gradcli.engine import dtypes, dual, kernels, state
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
)
from gradcli.engine.ops import sizes
from gradcli.engine.ops.arith import MulScalar
from gradcli.engine.ops.common import promote, val
from gradcli.engine.ops.convert import to
from gradcli.engine.ops.elementwise import unary
from gradcli.engine.ops.join_split import cat, index_select, split
from gradcli.engine.ops.linalg import Dot
from gradcli.engine.ops.matrix_algebra import DiagEmbed, diagonal
from gradcli.engine.ops.matrix_functions import pinv as linalg_pinv
from gradcli.engine.ops.matrix_functions import qr as linalg_qr
from gradcli.engine.ops.nn_functional import prelu as functional_prelu
from gradcli.engine.ops.ordering import sort
from gradcli.engine.ops.rearrange import masked_select, narrow
from gradcli.engine.ops.reduction import sum as reduce_sum
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import TransposeView, index_put_zeros, view
from gradcli.engine.ops.svd import named_result
from gradcli.engine.ops.tensor_methods import contiguous
from gradcli.engine.tensor import Tensor, wrap_dim

# -- index queries ------------------------------------------------------------------------------------------


@register("nonzero", sig="nonzero(input, *, as_tuple=False)",
          doc="the indices of the non-zero elements: one row per element (int64), or one tensor per dim",
          category="no-gradient", result_shape=sizes.nonzero)
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
          category="no-gradient", result_shape=sizes.nonzero)
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
          doc="|input - other| <= atol + rtol * |other| elementwise (bool)", category="comparison", torch=False,
          result_shape=sizes.broadcast)
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
          category="comparison")
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
        return np.array(x.reshape(-1)[index])  # (a copy; 0-d for a 0-d index)

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


# -- index_fill, index_copy, masked_scatter (and their in-place forms through ops/inplace.py) ----------------

def _dim_index(input, dim, index, name: str):
    """dim wrapped and index as a vector of non-negative positions, with index_fill's or index_copy's errors."""
    d = wrap_dim(dim, input.ndim)
    idx = np.asarray(val(index))
    if idx.dtype != np.int64:
        if name == "index_fill":
            raise TorchIndexError("index_fill_(): Expected dtype int64 for index.")
        raise TorchRuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                                f"{_title(dtypes.of_array(idx))}")
    if idx.ndim > 1:
        if name == "index_fill":
            raise TorchRuntimeError("Index has to be a vector/scalar")
        raise TorchIndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    return d, idx.reshape(-1)


def _in_bounds(input, d: int, idx, prefix: str = ""):
    size = input.shape[d] if input.ndim else 1
    bad = idx[(idx >= size) | (idx < -size)]
    if bad.size:
        raise TorchIndexError(f"{prefix}index {int(bad[0])} is out of bounds for dimension {d} with size {size}")
    return np.where(idx < 0, idx + size, idx)


def _along(d: int, idx, ndim: int) -> tuple:
    return (slice(None),) * d + (idx,) if ndim else ()


class IndexFill(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, x, d, idx, value):
        ctx.aux = (d, idx)
        out = x.copy()
        out[_along(d, idx, x.ndim)] = value
        return out

    @staticmethod
    def backward(ctx, g):
        d, idx = ctx.aux
        if isinstance(g, Tensor):
            return (IndexFill.apply(g, d, idx, 0),)
        out = np.array(g, copy=True)
        out[_along(d, idx, out.ndim)] = 0
        return (out,)


@register("index_fill", sig="index_fill(input, dim, index, value)",
          doc="input with the entries at index along dim set to value", category="shape")
def index_fill(input, dim, index, value):
    d, idx = _dim_index(input, dim, index, "index_fill")
    idx = _in_bounds(input, d, idx)
    if isinstance(value, Tensor):
        if value.ndim:
            raise TorchRuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                                    f"{value.ndim} dimension(s).")
        if value.requires_grad:
            raise TorchNotImplementedError("gradcli does not record index_fill with a value tensor that requires "
                                           "grad; pass value.item() or use torch.where")
        value = value.array[()]
    return IndexFill.apply(input, d, idx, value)


class IndexCopy(Function):
    __slots__ = ()
    name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, x, d, idx, source):
        x, source = np.asarray(x), np.asarray(source)
        ctx.aux = (d, idx, source.shape)
        out = x.copy()
        key = _along(d, idx, x.ndim)
        out[key] = source if source.ndim else source.reshape(1)
        return out

    @staticmethod
    def backward(ctx, g):
        d, idx, source_shape = ctx.aux
        gx = gs = None
        if ctx.needs_input_grad[0]:
            if isinstance(g, Tensor):
                gx = IndexFill.apply(g, d, idx, 0)
            else:
                gx = np.array(g, copy=True)
                gx[_along(d, idx, gx.ndim)] = 0
        if ctx.needs_input_grad[3]:
            if isinstance(g, Tensor):
                gs = dual.reshape(index_select(g, d, Tensor._make(idx, None)), source_shape)
            else:
                gs = np.take(g, idx, axis=d).reshape(source_shape) if g.ndim else g.reshape(source_shape)
        return gx, None, None, gs


@register("index_copy", sig="index_copy(input, dim, index, source)",
          doc="input with the slices at index along dim replaced by source's", category="shape")
def index_copy(input, dim, index, source):
    d, idx = _dim_index(input, dim, index, "index_copy")
    own = [n for i, n in enumerate(input.shape) if i != d]
    theirs = [n for i, n in enumerate(source.shape) if i != d]
    if own != theirs:
        raise TorchRuntimeError(f"index_copy_(): Source/destination tensor must have same slice shapes. "
                                f"Destination slice shape: {', '.join(map(str, own))} at dimension {d} and source "
                                f"slice shape: {', '.join(map(str, theirs))} at dimension 0.")
    if np.asarray(val(index)).ndim and source.ndim and idx.size != source.shape[d]:
        raise TorchIndexError(f"index_copy_(): Number of indices ({idx.size}) should be equal to source.size(dim) "
                              f"({source.shape[d]})")
    if source.dtype is not input.dtype:
        raise TorchRuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                                f"{_title(input.dtype)} and (source) {_title(source.dtype)}")
    idx = _in_bounds(input, d, idx, "index_copy_(): ")
    return IndexCopy.apply(input, d, idx, source)


class MaskedScatter(Function):
    __slots__ = ()
    name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx, x, mask, source):
        source = np.asarray(source)
        ctx.aux = (mask, source.shape)
        out = np.array(np.broadcast_to(x, mask.shape), copy=True)
        count = int(mask.sum())
        out[mask] = source.reshape(-1)[:count]
        return out

    @staticmethod
    def backward(ctx, g):
        mask, source_shape = ctx.aux
        gx = gs = None
        if ctx.needs_input_grad[0]:
            gx = dual.where(mask, 0.0, g)
        if ctx.needs_input_grad[2]:
            # masked_scatter_backward: grad.masked_select(mask), zero-padded to source's size, in its shape
            size = int(np.prod(source_shape, dtype=np.int64))
            count = int(mask.sum())
            if isinstance(g, Tensor):
                picked = masked_select(g, Tensor._make(mask, None))
                if count < size:
                    picked = cat([picked, Tensor._make(np.zeros(size - count, g.array.dtype), None)])
                gs = dual.reshape(picked, source_shape)
            else:
                flat = np.zeros(size, g.dtype)
                flat[:count] = np.broadcast_to(g, mask.shape)[mask]
                gs = flat.reshape(source_shape)
        return gx, None, gs


@register("masked_scatter", sig="masked_scatter(input, mask, source)",
          doc="input with the elements where mask is True taken, in order, from source", category="shape")
def masked_scatter(input, mask, source):
    m = np.asarray(val(mask))
    if m.dtype != np.bool_:
        raise TorchRuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                                f"{_title(dtypes.of_array(m))}")
    if source.dtype is not input.dtype:
        raise TorchRuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                                f"{_title(input.dtype)} and {_title(source.dtype)}")
    try:
        shape = np.broadcast_shapes(input.shape, m.shape)
    except ValueError:
        raise TorchRuntimeError(f"The size of tensor a ({input.shape[-1]}) must match the size of tensor b "
                                f"({m.shape[-1]}) at non-singleton dimension {len(input.shape) - 1}") from None
    m = np.broadcast_to(m, shape)
    if int(m.sum()) > source.array.size:
        raise TorchRuntimeError("Number of elements of source < number of ones in mask")
    return MaskedScatter.apply(input, np.ascontiguousarray(m), source)


# -- isposinf, isneginf, gcd, lcm, ldexp, frexp ------------------------------------------------------------

@register("isposinf", sig="isposinf(input)", doc="elementwise test for +inf (bool)", category="comparison")
def isposinf(input):
    return Tensor._make(np.isposinf(input.array) if input.array.dtype.kind == "f"
                        else np.zeros(input.shape, bool), None)


@register("isneginf", sig="isneginf(input)", doc="elementwise test for -inf (bool)", category="comparison")
def isneginf(input):
    return Tensor._make(np.isneginf(input.array) if input.array.dtype.kind == "f"
                        else np.zeros(input.shape, bool), None)


def _integer_pair(name: str, np_fn, input, other):
    a, b = input.array, val(other)
    for arr in (a, np.asarray(b)):
        if arr.dtype.kind not in "iub":
            raise TorchRuntimeError(f"\"{name}_cpu\" not implemented for '{_title(dtypes.of_array(arr))}'")
    a, b = promote(a, b)
    return Tensor._make(np.asarray(np_fn(a, b)), None)


@register("gcd", sig="gcd(input, other)", doc="greatest common divisor, elementwise (integers)",
          category="no-gradient", result_shape=sizes.broadcast)
def gcd(input, other):
    return _integer_pair("gcd", np.gcd, input, other)


@register("lcm", sig="lcm(input, other)", doc="least common multiple, elementwise (integers)",
          category="no-gradient", result_shape=sizes.broadcast)
def lcm(input, other):
    return _integer_pair("lcm", np.lcm, input, other)


def _two_to(e: np.ndarray, dtype) -> np.ndarray:
    """pow(2.0, e) in `dtype`: exact powers of two for integer exponents, the pow kernel otherwise."""
    if e.dtype.kind != "f":
        return np.ldexp(np.ones(e.shape, dtype), np.clip(e, -2000, 2000).astype(np.int32))
    return kernels.pow(np.full(e.shape, 2.0, dtype), e.astype(dtype))


def _pow2_backward(other):
    """at::pow(2, other) of ldexp's backward: an integer power for an integer exponent (0 for a negative one,
    wrapping at 2**63 as int64 does), a floating one otherwise."""
    e = np.asarray(val(other))
    if e.dtype.kind == "f":
        return 2.0 ** other if isinstance(other, Tensor) else _two_to(e, e.dtype)
    e = e.astype(np.int64)
    p = np.where((e < 0) | (e > 63), 0, np.left_shift(np.int64(1), np.clip(e, 0, 63)))
    return Tensor._make(p, None) if isinstance(other, Tensor) else p


class Ldexp(Function):
    """input * 2**other (torch computes mul(self, pow(2.0, other))); derivatives.yaml: self grad * 2**other,
    other grad * result * ln 2."""

    __slots__ = ()
    name = "LdexpBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, x, other):
        kind = np.asarray(other).dtype
        pow_dtype = kind if kind.kind == "f" else dtypes.get_default_dtype().np
        x, p = promote(x, _two_to(np.asarray(other), pow_dtype))
        return np.asarray(x * p)

    @staticmethod
    def backward(ctx, g, x, other):
        gx = go = None
        p = _pow2_backward(other)
        if ctx.needs_input_grad[0]:
            gx = g * p
        if ctx.needs_input_grad[1]:
            go = g * (x * 2.0 ** other)  # grad * result (other requires grad, so it is floating) ...
            go = MulScalar.apply(go, LN2) if isinstance(go, Tensor) else go * LN2  # ... * M_LN2: mul.Scalar
        return gx, go


LN2 = math.log(2)  # M_LN2


@register("ldexp", sig="ldexp(input, other)", doc="input * 2 ** other", category="elementwise",
          result_shape=sizes.broadcast)
def ldexp(input, other):
    if not isinstance(other, Tensor):
        raise TorchTypeError(f"ldexp(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return Ldexp.apply(input, other)


FrexpResult = named_result("frexp", ["mantissa", "exponent"])


class Frexp(Function):
    __slots__ = ()
    name = "FrexpBackward0"

    @staticmethod
    def forward(ctx, x):
        mantissa, exponent = np.frexp(x)
        ctx.aux = exponent.astype(np.int32)
        return mantissa.astype(x.dtype)

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            return (g / Tensor._make(_two_to(ctx.aux, g.array.dtype), None),)
        return (g / _two_to(ctx.aux, g.dtype),)


@register("frexp", sig="frexp(input)", doc="(mantissa, exponent) with input = mantissa * 2 ** exponent",
          category="elementwise")
def frexp(input):
    if input.array.dtype.kind != "f":
        raise TorchRuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa = Frexp.apply(input)
    exponent = mantissa.grad_fn.aux if mantissa.grad_fn is not None else np.frexp(input.array)[1].astype(np.int32)
    return FrexpResult(mantissa, Tensor._make(np.asarray(exponent), None))


# -- the deprecated linear algebra methods torch still has: linalg's op under the old name ----------------

QR_WARNING = (
    "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch release.\n"
    "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
    "Q, R = torch.qr(A, some)\n"
    "should be replaced with\n"
    "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete') (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2505.)")
QrResult = named_result("qr", ["Q", "R"])


@register("qr", sig="qr(input, some=True)", doc="(Q, R) of input: torch.linalg.qr (deprecated name)",
          category="linalg")
def qr(input, some=True):
    state.warn(QR_WARNING, UserWarning, torch_location=True)  # TORCH_WARN_ONCE
    q, r = linalg_qr(input, "reduced" if some else "complete")
    return QrResult(q, r)


@register("pinverse", sig="pinverse(input, rcond=1e-15)",
          doc="the pseudo-inverse: torch.linalg.pinv(input, rtol=rcond)", category="linalg")
def pinverse(input, rcond=1e-15):
    return linalg_pinv(input, rtol=rcond)


class Vdot(Dot):
    """torch.vdot of real tensors: dot's kernel and values (derivatives.yaml: grad.conj() * other, grad * self,
    the same products as dot's), recorded as its own node."""

    __slots__ = ()
    name = "VdotBackward0"


@register("vdot", sig="vdot(input, other)", doc="inner product of two 1-D tensors (conjugating input)",
          category="linalg")
def vdot(input, other):
    if input.ndim != 1 or other.ndim != 1:
        raise TorchRuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    return Vdot.apply(input, other)
