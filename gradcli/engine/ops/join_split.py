"""More shape ops: flatten, expand_as, repeat, cat, stack, split, chunk, flip, roll, gather, index_select.

Backward rules move gradients back with the adjoint op (slicing, padding with zeros, scatter-add), each
written so that it also runs on Tensors and is differentiable again.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.dtypes import result_type
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError
from gradcli.engine.ops import shape, sizes
from gradcli.engine.ops.common import as_shape, check_size, dtype_title, val
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.views import ViewFunction, number_outputs
from gradcli.engine.tensor import Tensor, wrap_dim


def _axis_key(dim, index):
    return (slice(None),) * dim + (index,)


# -- flatten, expand_as ---------------------------------------------------------------------------------

@register("flatten", sig="flatten(input, start_dim=0, end_dim=-1)", doc="merge dims start_dim..end_dim into one",
          category="shape")
def flatten(input, start_dim=0, end_dim=-1):
    if input.ndim == 0:
        return shape.reshape(input, 1)
    start, end = wrap_dim(start_dim, input.ndim), wrap_dim(end_dim, input.ndim)
    if start > end:
        raise TorchRuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input  # torch returns the input itself
    sizes = input.shape
    merged = 1
    for s in sizes[start:end + 1]:
        merged *= s
    return shape.reshape(input, *sizes[:start], merged, *sizes[end + 1:])


@register("expand_as", sig="expand_as(input, other)", doc="expand to other's shape", category="shape", torch=False)
def expand_as(input, other):
    return shape.expand(input, *other.shape)


# -- repeat ---------------------------------------------------------------------------------------------

class Repeat(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, x, repeats):
        if len(repeats) < x.ndim:
            raise TorchRuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                                    "dimensions of tensor")
        padded = (1,) * (len(repeats) - x.ndim) + x.shape
        ctx.aux = (repeats, padded)
        out_shape = tuple(r * s for r, s in zip(repeats, padded))
        check_size(out_shape)
        return np.tile(x.reshape(padded), repeats)

    @staticmethod
    def backward(ctx, g):
        repeats, padded = ctx.aux
        split = []
        for r, s in zip(repeats, padded):
            split += [r, s]
        g = dual.reshape(g, tuple(split))
        g = dual.sum(g, axis=tuple(range(0, 2 * len(repeats), 2)))
        return (dual.reshape(g, ctx.in_shapes[0]),)


@register("repeat", sig="repeat(input, *repeats)", doc="tile the tensor repeats[i] times along each dim",
          category="shape", torch=False, result_shape=sizes.repeat)
def repeat(input, *repeats):
    return Repeat.apply(input, as_shape(repeats))


# -- cat, stack -----------------------------------------------------------------------------------------

def _tensor_list(tensors, name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TorchRuntimeError(f"{name}(): argument 'tensors' must be tuple of Tensors, not "
                                f"{type(tensors).__name__}")
    if not tensors:
        raise TorchRuntimeError(f"{name}(): expected a non-empty list of Tensors")
    return [t if isinstance(t, Tensor) else Tensor._make(np.asarray(t), None) for t in tensors]


class Cat(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "CatBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim):
        ref = arrays[0]
        if ref.ndim == 0:
            raise TorchRuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
        d = wrap_dim(dim, ref.ndim)
        for i, a in enumerate(arrays):
            if a.ndim != ref.ndim:
                raise TorchRuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}")
            for k in range(ref.ndim):
                if k != d and a.shape[k] != ref.shape[k]:
                    raise TorchRuntimeError(
                        f"Sizes of tensors must match except in dimension {d}. Expected size {ref.shape[k]} but "
                        f"got size {a.shape[k]} for tensor number {i} in the list.")
        dtype = result_type(*arrays)
        ctx.aux = (d, [a.shape[d] for a in arrays])
        return np.concatenate([a.astype(dtype, copy=False) for a in arrays], axis=d)

    @staticmethod
    def backward(ctx, g):
        d, sizes = ctx.aux
        grads, start = [], 0
        for size, need in zip(sizes, ctx.needs_input_grad):
            grads.append(g[_axis_key(d, slice(start, start + size))] if need else None)
            start += size
        return tuple(grads)


@register("cat", sig="cat(tensors, dim=0)", doc="join tensors along an existing dim", category="shape",
          method=False, aliases=("concat", "concatenate"), result_shape=sizes.cat)
def cat(tensors, dim=0, *, axis=None):
    tensors = _tensor_list(tensors, "cat")
    return Cat.apply(*tensors, dim=dim if axis is None else axis)


class Stack(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "StackBackward0"

    @staticmethod
    def forward(ctx, *arrays, dim):
        ref = arrays[0]
        d = wrap_dim(dim, ref.ndim + 1)
        for i, a in enumerate(arrays):
            if a.shape != ref.shape:
                raise TorchRuntimeError(f"stack expects each tensor to be equal size, but got "
                                        f"[{', '.join(map(str, ref.shape))}] at entry 0 and "
                                        f"[{', '.join(map(str, a.shape))}] at entry {i}")
        dtype = result_type(*arrays)
        ctx.aux = d
        return np.stack([a.astype(dtype, copy=False) for a in arrays], axis=d)

    @staticmethod
    def backward(ctx, g):
        d = ctx.aux
        return tuple(g[_axis_key(d, i)] if need else None for i, need in enumerate(ctx.needs_input_grad))


@register("stack", sig="stack(tensors, dim=0)", doc="join same-shape tensors along a new dim", category="shape",
          method=False, result_shape=sizes.stack)
def stack(tensors, dim=0):
    tensors = _tensor_list(tensors, "stack")
    return Stack.apply(*tensors, dim=dim)


# -- split, chunk ---------------------------------------------------------------------------------------

class SplitPiece(Function):
    """One output of split: a slice along dim whose gradient is padded back with zeros."""

    __slots__ = ()
    jvp = LINEAR
    name = "SplitBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.aux = key
        return x[key]

    @staticmethod
    def backward(ctx, g):
        return (shape.index_put_zeros(g, ctx.aux, ctx.in_shapes[0]),)


class SplitView(ViewFunction, SplitPiece):
    """One output of split or chunk: a view, which torch forbids modifying in place (one of several)."""

    __slots__ = ()
    multi_output = True

    @staticmethod
    def forward(ctx, x, key):
        ctx.aux = key
        out = x[key]
        return out if isinstance(out, np.ndarray) else x[(*key, Ellipsis)]  # unbind's 0-d pieces: views too


class SplitWithSizesPiece(SplitView):
    __slots__ = ()
    name = "SplitWithSizesBackward0"


def _split_pieces(input, sizes, d, cls):
    pieces, start = [], 0
    for size in sizes:
        pieces.append(cls.apply(input, _axis_key(d, slice(start, start + size))))
        start += size
    return number_outputs(pieces)


@register("split", sig="split(tensor, split_size_or_sections, dim=0)",
          doc="pieces of a given size (or list of sizes) along dim, as a tuple", category="shape")
def split(tensor, split_size_or_sections, dim=0):
    d = wrap_dim(dim, tensor.ndim)
    n = tensor.shape[d] if tensor.ndim else 1
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != n:
            raise TorchRuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's "
                                    f"size at dimension {d}), but got split_sizes={sizes}")
        return _split_pieces(tensor, sizes, d, SplitWithSizesPiece)
    size = int(split_size_or_sections)
    if size <= 0 and n:
        raise TorchRuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
    sizes = [min(size, n - s) for s in range(0, n, size)] or [0]
    return _split_pieces(tensor, sizes, d, SplitView)


@register("chunk", sig="chunk(input, chunks, dim=0)", doc="split into `chunks` nearly equal pieces along dim",
          category="shape")
def chunk(input, chunks, dim=0):
    if chunks <= 0:
        raise TorchRuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = wrap_dim(dim, input.ndim)
    n = input.shape[d]
    if n == 0:  # torch: `chunks` empty pieces
        return split(input, [0] * chunks, d)
    size = max(-(-n // chunks), 1)
    return split(input, size, d)


# -- flip, roll -----------------------------------------------------------------------------------------

def _dims_tuple(dims, ndim):
    if isinstance(dims, (int, np.integer)):
        dims = (dims,)
    return tuple(wrap_dim(int(d), ndim) for d in dims)


class Flip(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "FlipBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        dims = _dims_tuple(dims, x.ndim)
        if len(set(dims)) != len(dims):
            raise TorchRuntimeError(f"dims has duplicates, original flip dims size={len(dims)}, but unique flip "
                                    f"dims size={len(set(dims))}")
        ctx.aux = dims
        return np.flip(x, dims).copy() if x.ndim else x.copy()

    @staticmethod
    def backward(ctx, g):
        return (dual.flip(g, ctx.aux) if g.ndim else g,)


@register("flip", sig="flip(input, dims)", doc="reverse the order along dims", category="shape")
def flip(input, *dims, **kwargs):
    if "dims" in kwargs:
        dims = (kwargs.pop("dims"),)
    if kwargs:
        raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kwargs))}'")
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = dims[0]
    return Flip.apply(input, tuple(dims))


class Roll(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "RollBackward0"

    @staticmethod
    def forward(ctx, x, shifts, dims):
        ctx.aux = (shifts, dims)
        if dims is None:
            return np.roll(x.reshape(-1), shifts).reshape(x.shape)
        return np.roll(x, shifts, axis=dims)

    @staticmethod
    def backward(ctx, g):
        shifts, dims = ctx.aux
        back = tuple(-s for s in shifts) if isinstance(shifts, tuple) else -shifts
        if isinstance(g, Tensor):
            return (Roll.apply(g, back, dims),)
        if dims is None:
            return (np.roll(g.reshape(-1), back).reshape(g.shape),)
        return (np.roll(g, back, axis=dims),)


@register("roll", sig="roll(input, shifts, dims=None)", doc="rotate elements along dims (flattened if none)",
          category="shape")
def roll(input, shifts, dims=None):
    if dims is None:
        if isinstance(shifts, (list, tuple)):
            if len(shifts) != 1:
                raise TorchRuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
            shifts = shifts[0]
        return Roll.apply(input, int(shifts), None)
    shifts_t = (int(shifts),) if isinstance(shifts, (int, np.integer)) else tuple(int(s) for s in shifts)
    dims_t = _dims_tuple(dims, input.ndim)
    if len(shifts_t) != len(dims_t):
        raise TorchRuntimeError(f"shifts and dimensions must align. shifts: {len(shifts_t)}, dims:{len(dims_t)}")
    return Roll.apply(input, shifts_t, dims_t)


# -- gather, index_select -------------------------------------------------------------------------------

# torch 2.13's text when an index tensor is not an integer tensor, per op
_INDEX_DTYPE_ERRORS = {
    "gather": "gather(): Expected dtype int32/int64 for index",
    "scatter": "scatter(): Expected dtype int32/int64 for index",
    "scatter_add": "scatter(): Expected dtype int32/int64 for index",
    "index_select": "index_select(): Expected dtype int32 or int64 for index",
    "index_add": "index_add_(): Expected dtype int32/int64 for index but got: {dtype}",
    "take_along_dim": "torch.take_along_dim(): dtype of indices should be Long but got {dtype}",
}


def index_array(index, name):
    arr = val(index)
    arr = np.asarray(arr)
    if arr.dtype.kind not in "iu":
        text = _INDEX_DTYPE_ERRORS.get(name, name + "(): Expected dtype int64 for index")
        raise TorchRuntimeError(text.format(dtype=dtype_title(arr.dtype)))
    return arr.astype(np.int64, copy=False)


def gather_key(index, d):
    """Advanced-index arrays picking x[..., index, ...] along d, with the other dims from index's grid."""
    # np.indices(sparse=True)'s grids, without building the one along d that index replaces
    return tuple(index if k == d else np.arange(n).reshape([n if j == k else 1 for j in range(index.ndim)])
                 for k, n in enumerate(index.shape))


class Gather(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "GatherBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        d = wrap_dim(dim, x.ndim)
        if index.ndim != x.ndim and not (x.ndim == 0 and index.ndim <= 1):
            raise TorchRuntimeError("Index tensor must have the same number of dimensions as input tensor")
        if x.ndim == 0:
            ctx.aux = None
            return np.broadcast_to(x, index.shape).copy()
        for k in range(x.ndim):
            if k != d and index.shape[k] > x.shape[k]:
                raise TorchRuntimeError(f"Size does not match at dimension {k} expected index "
                                        f"[{', '.join(map(str, index.shape))}] to be no larger than self "
                                        f"[{', '.join(map(str, x.shape))}] apart from dimension {d}")
        if index.size and (index.max() >= x.shape[d] or index.min() < -x.shape[d]):
            bad = int(index.max()) if index.max() >= x.shape[d] else int(index.min())
            raise TorchRuntimeError(f"index {bad} is out of bounds for dimension {d} with size {x.shape[d]}")
        index = np.where(index < 0, index + x.shape[d], index)
        key = gather_key(index, d)
        ctx.aux = (key, x.shape)
        return x[key]

    @staticmethod
    def backward(ctx, g):
        if ctx.aux is None:
            return (dual.sum(g),)
        key, in_shape = ctx.aux
        return (shape.index_put_zeros(g, key, in_shape),)


@register("gather", sig="gather(input, dim, index)", doc="out[i][j] = input[index[i][j]][j] (for dim 0)",
          category="shape")
def gather(input, dim, index, *, sparse_grad=False):
    return Gather.apply(input, int(dim), index_array(index, "gather"))


class IndexSelect(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        if index.ndim > 1:
            raise TorchIndexError("index_select(): Index is supposed to be a vector")
        d = wrap_dim(dim, x.ndim)
        size = x.shape[d] if x.ndim else 1
        flat = index.reshape(-1)
        if flat.size and (flat.max() >= size or flat.min() < -size):
            bad = int(flat.max()) if flat.max() >= size else int(flat.min())
            raise TorchIndexError(f"index out of range in self (index {bad}, size {size})")
        if x.ndim == 0:
            ctx.aux = None
            return x.copy()
        key = _axis_key(d, flat)
        ctx.aux = (key, x.shape)
        return x[key]

    @staticmethod
    def backward(ctx, g):
        if ctx.aux is None:
            return (g,)
        key, in_shape = ctx.aux
        return (shape.index_put_zeros(g, key, in_shape),)


@register("index_select", sig="index_select(input, dim, index)", doc="the entries at `index` along dim",
          category="shape", result_shape=sizes.index_select)
def index_select(input, dim, index):
    return IndexSelect.apply(input, int(dim), index_array(index, "index_select"))
