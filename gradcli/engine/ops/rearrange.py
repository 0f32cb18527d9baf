"""Ops that rearrange or pick elements: narrow, select, movedim, tile, unbind, vstack, hstack, broadcast_to,
fliplr, flipud, rot90, take_along_dim, masked_select, unflatten, repeat_interleave, scatter, scatter_add,
index_add, meshgrid, and the .H / .mH properties.

Where torch builds an op from others (tile = repeat, movedim = permute, meshgrid = expand ...) it is built
from the same ops here, so the recorded grad_fn names are torch's.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, state
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError, broadcast_message
from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import as_shape, check_size, dtype_title, val
from gradcli.engine.ops.join_split import SplitView, cat, flip, gather, gather_key, index_array, index_select, repeat
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import TransposeView, expand, getitem, index_put_zeros, permute, view
from gradcli.engine.ops.views import number_outputs
from gradcli.engine.tensor import Tensor, wrap_dim


def _axis_key(d: int, item) -> tuple:
    return (slice(None),) * d + (item,)


@register("narrow", sig="narrow(input, dim, start, length)", doc="input[..., start:start+length, ...] along dim",
          category="shape")
def narrow(input, dim, start, length):
    if input.ndim == 0:
        raise TorchRuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, input.ndim)
    size = input.shape[d]
    start, length = int(val(start)), int(length)
    if not -size <= start <= size:
        raise TorchIndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if length < 0 or start > size - length:
        raise TorchRuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return getitem(input, _axis_key(d, slice(start, start + length)))


@register("select", sig="select(input, dim, index)", doc="input[..., index, ...] along dim (drops the dim)",
          category="shape")
def select(input, dim, index):
    if input.ndim == 0:
        raise TorchIndexError("select() cannot be applied to a 0-dim tensor.")
    d = wrap_dim(dim, input.ndim)
    size, i = input.shape[d], int(index)
    if not -size <= i < size:
        raise TorchIndexError(f"select(): index {i} out of range for tensor of size "
                              f"[{', '.join(map(str, input.shape))}] at dimension {d}")
    return getitem(input, _axis_key(d, i))


def _dims(value) -> list:
    return [int(v) for v in value] if isinstance(value, (list, tuple)) else [int(value)]


@register("movedim", sig="movedim(input, source, destination)", doc="move dims to new positions (a permute)",
          category="shape", aliases=("moveaxis",))
def movedim(input, source, destination):
    n = input.ndim
    src, dst = _dims(source), _dims(destination)
    if len(src) != len(dst):
        raise TorchRuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain "
                                f"the same number of dims as destination ({dst} dims)")
    src = [wrap_dim(s, n) for s in src]  # a 0-d tensor's dim is -1 or 0 (wrap_dim's range for it)
    dst = [wrap_dim(s, n) for s in dst]
    if len(set(src)) != len(src):
        raise TorchRuntimeError("movedim: repeated dim in `source` " + str(list(source)))
    if len(set(dst)) != len(dst):
        raise TorchRuntimeError("movedim: repeated dim in `destination` " + str(list(destination)))
    if n == 0:
        return input[...]  # torch: an alias of a 0-d tensor
    order = [None] * n
    for s, t in zip(src, dst):
        order[t] = s
    rest = iter(i for i in range(n) if i not in src)
    order = [o if o is not None else next(rest) for o in order]
    return permute(input, *order) if n else permute(input)


@register("tile", sig="tile(input, dims)", doc="repeat the tensor along each dim (leading dims padded with 1)",
          category="shape", result_shape=sizes.tile)
def tile(input, dims, *more):
    reps = list(as_shape((dims, *more) if more else (dims,)))
    if len(reps) < input.ndim:
        reps = [1] * (input.ndim - len(reps)) + reps
    if any(r < 0 for r in reps):
        shape = [1] * (len(reps) - input.ndim) + list(input.shape)
        sizes = [s * r for s, r in zip(shape, reps)]
        raise TorchRuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: {sizes}")
    return repeat(input, *reps)


class UnbindPiece(SplitView):
    """One output of unbind: input[..., i, ...], a view; its gradient is padded back with zeros."""

    __slots__ = ()
    name = "UnbindBackward0"


@register("unbind", sig="unbind(input, dim=0)", doc="the slices along dim, as a tuple", category="shape")
def unbind(input, dim=0):
    if input.ndim == 0:
        raise TorchIndexError("Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(dim, input.ndim)
    return number_outputs(UnbindPiece.apply(input, _axis_key(d, i)) for i in range(input.shape[d]))


def _tensor_sequence(tensors, name):
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TorchRuntimeError(f"{name}(): argument 'tensors' must be tuple of Tensors, not "
                                f"{type(tensors).__name__}")
    return list(tensors)


@register("vstack", sig="vstack(tensors)", doc="stack rows: 1-D tensors become rows, then cat along dim 0",
          category="shape", aliases=("row_stack",), result_shape=sizes.stacked)
def vstack(tensors):
    pieces = [t.reshape(1, -1) if t.ndim < 2 else t for t in _tensor_sequence(tensors, "vstack")]
    return cat(pieces, 0)


@register("hstack", sig="hstack(tensors)", doc="cat along dim 1 (dim 0 for 1-D tensors)", category="shape",
          result_shape=sizes.stacked)
def hstack(tensors):
    pieces = [t.reshape(1) if t.ndim == 0 else t for t in _tensor_sequence(tensors, "hstack")]
    return cat(pieces, 0 if pieces and pieces[0].ndim == 1 else 1)


@register("broadcast_to", sig="broadcast_to(input, size)", doc="expand to a broadcast shape (a view)",
          category="shape", result_shape=sizes.expand)
def broadcast_to(input, size, *more):
    return expand(input, *as_shape((size, *more) if more else (size,)))


@register("fliplr", sig="fliplr(input)", doc="reverse dim 1 (left/right)", category="shape")
def fliplr(input):
    if input.ndim < 2:
        raise TorchRuntimeError("Input must be >= 2-d.")
    return flip(input, (1,))


@register("flipud", sig="flipud(input)", doc="reverse dim 0 (up/down)", category="shape")
def flipud(input):
    if input.ndim < 1:
        raise TorchRuntimeError("Input must be >= 1-d.")
    return flip(input, (0,))


class Rot90(Function):
    __slots__ = ()
    name = "Rot90Backward0"

    @staticmethod
    def forward(ctx, x, k, dims):
        ctx.aux = (k, dims)
        return np.rot90(x, k, axes=dims).copy()

    @staticmethod
    def backward(ctx, g):
        k, dims = ctx.aux
        if isinstance(g, Tensor):
            return (Rot90.apply(g, -k, dims),)
        return (np.rot90(g, -k, axes=dims),)


@register("rot90", sig="rot90(input, k=1, dims=(0, 1))", doc="rotate by k quarter turns in the plane of dims",
          category="shape")
def rot90(input, k=1, dims=(0, 1)):
    dims = tuple(int(d) for d in dims)
    if len(dims) != 2:
        raise TorchRuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise TorchRuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = (wrap_dim(d, input.ndim) for d in dims)
    if d0 == d1:
        raise TorchRuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    return Rot90.apply(input, int(k) % 4, (d0, d1))


@register("take_along_dim", sig="take_along_dim(input, indices, dim=None)",
          doc="input's values at indices along dim (the flattened input if dim is None)", category="shape",
          result_shape=sizes.take_along_dim)
def take_along_dim(input, indices, dim=None):
    index = index_array(indices, "take_along_dim")
    if dim is None:
        return gather(input.reshape(-1), 0, index.reshape(-1))
    d = wrap_dim(dim, input.ndim)
    if index.ndim != input.ndim:
        raise TorchRuntimeError("torch.take_along_dim(): input and indices should have the same number of "
                                f"dimensions, but got {input.ndim} dimensions for input, and {index.ndim} "
                                "dimensions for indices")
    # the other dims broadcast against each other, as torch's
    shape_in, shape_ix = list(input.shape), list(index.shape)
    shape_in[d] = shape_ix[d] = 1
    common = list(np.broadcast_shapes(tuple(shape_in), tuple(shape_ix)))
    want_in = common.copy()
    want_in[d] = input.shape[d]
    want_ix = common.copy()
    want_ix[d] = index.shape[d]
    if tuple(want_in) != input.shape:
        input = expand(input, *want_in)
    return gather(input, d, np.broadcast_to(index, tuple(want_ix)))


class MaskedSelect(Function):
    __slots__ = ()
    name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx, x, mask):
        shape = np.broadcast_shapes(x.shape, mask.shape)
        check_size(shape)
        full_mask = np.broadcast_to(mask, shape)
        ctx.aux = (full_mask, x.shape)
        return np.broadcast_to(x, shape)[full_mask]

    @staticmethod
    def backward(ctx, g):
        mask, in_shape = ctx.aux
        grad = index_put_zeros(g, (mask,), mask.shape)
        return (dual.sum_to(grad, in_shape) if isinstance(grad, Tensor) else dual.sum_to_shape(grad, in_shape),)


@register("masked_select", sig="masked_select(input, mask)", doc="the elements where mask is true, as a 1-D tensor",
          category="shape", result_shape=sizes.broadcast)
def masked_select(input, mask):
    m = np.asarray(val(mask))
    if m.dtype != np.bool_:
        raise TorchRuntimeError("masked_select: expected BoolTensor for mask")
    if message := broadcast_message(m.shape, input.shape):  # torch broadcasts the mask with the input
        raise TorchRuntimeError(message)
    return MaskedSelect.apply(input, m)


@register("unflatten", sig="unflatten(input, dim, sizes)", doc="split one dim into several (a view)",
          category="shape")
def unflatten(input, dim, sizes):
    d = wrap_dim(dim, input.ndim)
    sizes = [int(s) for s in sizes]
    known = math.prod(s for s in sizes if s != -1)
    if sizes.count(-1) > 1 or (known * (input.shape[d] // known if known and -1 in sizes else 1) != input.shape[d]):
        raise TorchRuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} "
                                f"({input.shape[d]}) in the input tensor")
    shape = list(input.shape[:d]) + sizes + list(input.shape[d + 1:])
    return view(input, *shape)


@register("repeat_interleave", sig="repeat_interleave(input, repeats, dim=None)",
          doc="repeat each element `repeats` times (along dim, or of the flattened input)", category="shape",
          result_shape=sizes.repeat_interleave)
def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    if dim is None:
        input, d = input.reshape(-1), 0
    else:
        d = wrap_dim(dim, input.ndim)
    if isinstance(repeats, Tensor) and repeats.ndim > 0:
        counts = repeats.array.astype(np.int64)
        if counts.ndim != 1 or counts.shape[0] not in (1, input.shape[d]):
            raise TorchRuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) = "
                                    f"{counts.shape[0]} and input.size({d}) = {input.shape[d]}")
        if (counts < 0).any():
            raise TorchRuntimeError("repeats can not be negative")
        counts = np.broadcast_to(counts, (input.shape[d],))
        check_size(input.shape[:d] + (int(counts.sum()),) + input.shape[d + 1:])
        return index_select(input, d, np.repeat(np.arange(input.shape[d]), counts))
    r = int(val(repeats))
    if r < 0:
        raise TorchRuntimeError("repeats can not be negative")
    shape = list(input.shape)
    check_size(tuple(shape[:d] + [shape[d] * r] + shape[d + 1:]))
    wide = expand(input.unsqueeze(d + 1), *(shape[:d + 1] + [r] + shape[d + 1:]))
    return view(wide.contiguous(), *(shape[:d] + [shape[d] * r] + shape[d + 1:]))


def _scatter_checks(x, d, index, src_shape, src_dtype=None):
    if src_dtype is not None and src_dtype != x.dtype:
        raise TorchRuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if index.ndim != x.ndim and not (x.ndim == 0 and index.ndim <= 1):
        raise TorchRuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if index.size and (index.max() >= (x.shape[d] if x.ndim else 1) or index.min() < -(x.shape[d] if x.ndim else 1)):
        bad = int(index.max()) if index.max() >= x.shape[d] else int(index.min())
        raise TorchRuntimeError(f"index {bad} is out of bounds for dimension {d} with size {x.shape[d]}")
    if src_shape is not None:
        for k in range(index.ndim):
            if index.shape[k] > src_shape[k]:
                raise TorchRuntimeError(f"Expected index [{', '.join(map(str, index.shape))}] to be no larger than "
                                        f"src [{', '.join(map(str, src_shape))}] in dimension {k}")


class Scatter(Function):
    """input with src (or a number) written at index along dim; the last write wins on a repeated index.
    Gradients: input's is g with the written positions zeroed, src's is g gathered at index."""

    __slots__ = ()
    name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, x, src, d, index, accumulate):
        _scatter_checks(x, d, index, *((src.shape, src.dtype) if isinstance(src, np.ndarray) else (None,)))
        index = np.where(index < 0, index + x.shape[d], index)
        key = gather_key(index, d)
        ctx.aux = (key, np.shape(src))
        out = x.copy()
        source = src[tuple(slice(0, n) for n in index.shape)] if isinstance(src, np.ndarray) else src
        if accumulate:
            np.add.at(out, key, np.broadcast_to(source, index.shape))
        else:
            out[key] = source
        return out

    @staticmethod
    def backward(ctx, g):
        key, src_shape = ctx.aux
        need_x, need_src = ctx.needs_input_grad[:2]
        gx = gs = None
        if need_x:
            gx = g if ctx.accumulate else dual.where(_written(key, np.shape(val(g))), 0.0, g)
        if need_src:
            gs = getitem(g, key) if isinstance(g, Tensor) else g[key]
            index_shape = key[0].shape if len(key) == 1 else np.broadcast_shapes(*(k.shape for k in key))
            if tuple(index_shape) != tuple(src_shape):  # src larger than index: its other elements get 0
                gs = index_put_zeros(gs, tuple(slice(0, n) for n in index_shape), src_shape)
        return gx, gs


def _written(key, shape):
    mask = np.zeros(shape, dtype=bool)
    mask[key] = True
    return mask


class ScatterValue(Scatter):
    __slots__ = ()
    name = "ScatterBackward1"
    accumulate = False


class ScatterTensor(Scatter):
    __slots__ = ()
    name = "ScatterBackward0"
    accumulate = False


class ScatterAdd(Scatter):
    __slots__ = ()
    name = "ScatterAddBackward0"
    accumulate = True


@register("scatter", sig="scatter(input, dim, index, src)", doc="input with src (or value) written at index along dim",
          category="shape")
def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    if reduce is not None:
        raise TorchRuntimeError("gradcli: scatter's reduce= is not supported (use scatter_add or scatter_reduce)")
    if src is None:
        src = value
    d = wrap_dim(dim, input.ndim) if input.ndim else 0
    idx = index_array(index, "scatter")
    if isinstance(src, Tensor):
        return ScatterTensor.apply(input, src, d, idx, False)
    return ScatterValue.apply(input, float(src) if input.array.dtype.kind == "f" else src, d, idx, False)


@register("scatter_add", sig="scatter_add(input, dim, index, src)", doc="input with src added at index along dim",
          category="shape")
def scatter_add(input, dim, index, src):
    d = wrap_dim(dim, input.ndim) if input.ndim else 0
    return ScatterAdd.apply(input, src, d, index_array(index, "scatter_add"), True)


class IndexAdd(Function):
    __slots__ = ()
    name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx, x, source, d, index, alpha):
        if index.ndim > 1:
            raise TorchIndexError("index_add_(): Index is supposed to be a vector")
        if source.dtype != x.dtype:
            raise TorchRuntimeError(f"index_add_(): self ({dtype_title(x.dtype)}) and source "
                                    f"({dtype_title(source.dtype)}) must have the same scalar type")
        n = x.shape[d] if x.ndim else 1
        if index.size and (index.max() >= n or index.min() < -n):
            raise TorchIndexError("index out of range in self")
        expected = list(x.shape)
        if x.ndim:
            expected[d] = index.size
        if tuple(source.shape) != tuple(expected) and not (x.ndim == 0 and source.size == 1):
            raise TorchRuntimeError("index_add_(): Source/destination tensor must have same slice shapes.")
        ctx.aux = (index, d, alpha)
        out = x.copy()
        key = _axis_key(d, np.where(index < 0, index + n, index))
        np.add.at(out, key if x.ndim else (), source * alpha if alpha != 1 else source)
        return out

    @staticmethod
    def backward(ctx, g):
        index, d, alpha = ctx.aux
        need_x, need_src = ctx.needs_input_grad[:2]
        gs = None
        if need_src:
            gs = index_select(g, d, index) if isinstance(g, Tensor) else np.take(g, index, axis=d)
            if alpha != 1:
                gs = gs * alpha
        return (g if need_x else None), gs


@register("index_add", sig="index_add(input, dim, index, source, *, alpha=1)",
          doc="input with alpha * source added at index along dim", category="shape")
def index_add(input, dim, index, source, *, alpha=1):
    d = wrap_dim(dim, input.ndim) if input.ndim else 0
    return IndexAdd.apply(input, source, d, index_array(index, "index_add"), alpha)


MESHGRID_INDEXING_WARNING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")


@register("meshgrid", sig="meshgrid(*tensors, indexing='ij')", doc="coordinate grids from 1-D tensors",
          category="shape", method=False, result_shape=sizes.meshgrid)
def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:  # at::meshgrid(tensors)'s TORCH_WARN_ONCE, before anything is checked
        state.warn(MESHGRID_INDEXING_WARNING, UserWarning, torch_location=True)
    indexing = indexing or "ij"
    if indexing not in ("ij", "xy"):
        raise TorchRuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    for t in tensors:
        if t.ndim > 1:
            raise TorchRuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " + repr(t))
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.shape[0] for t in ts]
    check_size(tuple(shape))
    grids = []
    for i, t in enumerate(ts):
        view_shape = [1] * len(ts)
        view_shape[i] = -1
        grids.append(expand(t.view(*view_shape), *shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _H(self):
    if self.ndim not in (0, 2):
        raise TorchRuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.")
    return TransposeView.apply(self, 0, 1) if self.ndim == 2 else self


def _mH(self):
    if self.ndim < 2:
        raise TorchRuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got "
                                f"{self.ndim}-D tensor.")
    return TransposeView.apply(self, -2, -1)


Tensor.H = property(_H)
Tensor.mH = property(_mH)
