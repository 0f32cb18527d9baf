"""Shape ops: reshape/view, transpose/permute/T, expand, unsqueeze/squeeze, and indexing."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError
from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import as_shape, check_size, val
from gradcli.engine.ops.registry import meta_guarded, register
from gradcli.engine.ops.views import ViewFunction
from gradcli.engine.tensor import Tensor, wrap_dim


def _infer_shape(shape: tuple, numel: int) -> tuple:
    if shape.count(-1) > 1:
        raise TorchRuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise TorchRuntimeError(f"invalid shape dimension {s}")
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise TorchRuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise TorchRuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}")
    return shape


class View(ViewFunction):
    __slots__ = ()
    jvp = LINEAR
    name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape, strict=False):
        shape = _infer_shape(shape, x.size)
        if strict:
            out = x.view()
            try:
                out.shape = shape  # numpy refuses exactly when a copy would be needed
            except AttributeError:
                raise TorchRuntimeError(
                    "view size is not compatible with input tensor's size and stride (at least one dimension "
                    "spans across two contiguous subspaces). Use .reshape(...) instead.") from None
            return out
        return x.reshape(shape)

    @staticmethod
    def backward(ctx, g):
        return (dual.reshape(g, ctx.in_shapes[0]),)

    @staticmethod
    def replay(x, shape, strict=False):
        return x.reshape(_infer_shape(shape, x.size))  # the same elements whatever the memory layout


class UnsafeView(Function):
    """reshape where torch copies (a clone, then _unsafe_view), or the _unsafe_view of a fresh result: not a
    view (reshape uses it only where numpy copies too)."""

    __slots__ = ()
    jvp = LINEAR
    name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        return x.reshape(_infer_shape(shape, x.size))

    @staticmethod
    def backward(ctx, g):
        return (dual.reshape(g, ctx.in_shapes[0]),)


@register("reshape", sig="reshape(input, *shape)", doc="same elements in a new shape (-1 inferred)",
          category="shape")
def reshape(input, *shape):
    shape = as_shape(shape)
    if not isinstance(input, Tensor):
        raise TorchRuntimeError("reshape(): argument 'input' must be Tensor")
    array = input.array
    if array.flags.c_contiguous or array.size <= 1 or \
            np.may_share_memory(array.reshape(_infer_shape(shape, array.size)), array):
        return View.apply(input, shape)  # a view, as torch's reshape is wherever the strides allow one
    return UnsafeView.apply(input, shape)  # torch copies here (a clone and an _unsafe_view)


@register("view", sig="view(input, *shape)", doc="reshape without copying (input must be contiguous)",
          category="shape", torch=False)
def view(input, *shape):
    return View.apply(input, as_shape(shape), True)


class Transpose(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, x, d0, d1):
        if x.ndim == 0:
            ctx.aux = (0, 0)
            return x
        d0, d1 = wrap_dim(d0, x.ndim), wrap_dim(d1, x.ndim)
        ctx.aux = (d0, d1)
        return np.swapaxes(x, d0, d1)

    @staticmethod
    def backward(ctx, g):
        d0, d1 = ctx.aux
        if d0 == d1:
            return (g,)
        if isinstance(g, Tensor):
            return (transpose(g, d0, d1),)
        return (np.swapaxes(g, d0, d1),)


class TransposeView(ViewFunction, Transpose):
    """transpose as a view op (Transpose itself is also the node of ops that only reuse its rule)."""

    __slots__ = ()


class T(TransposeView):
    __slots__ = ()
    name = "TBackward0"

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):  # derivatives.yaml: grad.t() (a TBackward0 node under create_graph)
            return (t(g),)
        return Transpose.backward(ctx, g)


@register("transpose", sig="transpose(input, dim0, dim1)", doc="swap two dims", category="shape",
          aliases=("swapaxes", "swapdims"))
def transpose(input, dim0, dim1):
    return TransposeView.apply(input, dim0, dim1)


@register("t", sig="t(input)", doc="transpose of a matrix (<= 2-D)", category="shape")
def t(input):
    if input.ndim > 2:
        raise TorchRuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return T.apply(input, 0, -1 if input.ndim else 0)


class Permute(ViewFunction):
    __slots__ = ()
    jvp = LINEAR
    name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        dims = tuple(wrap_dim(d, x.ndim) for d in dims)
        if len(dims) != x.ndim:
            raise TorchRuntimeError(
                f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
                f"the desired ordering of dimensions i.e. input.dim() = {x.ndim} is not equal to len(dims) = "
                f"{len(dims)}")
        if len(set(dims)) != len(dims):
            raise TorchRuntimeError("permute(): duplicate dims are not allowed.")
        ctx.aux = tuple(np.argsort(dims))
        return np.transpose(x, dims)

    @staticmethod
    def backward(ctx, g):
        inverse = ctx.aux
        return (permute(g, inverse) if isinstance(g, Tensor) else np.transpose(g, inverse),)


@register("permute", sig="permute(input, *dims)", doc="reorder dims", category="shape")
def permute(input, *dims):
    return Permute.apply(input, as_shape(dims))


def _T(self):
    return Permute.apply(self, tuple(range(self.ndim - 1, -1, -1)))


def _mT(self):
    return TransposeView.apply(self, -2, -1)


Tensor.T = property(meta_guarded("T", "shape", _T))
Tensor.mT = property(meta_guarded("mT", "shape", _mT))


class Expand(ViewFunction):
    __slots__ = ()
    jvp = LINEAR
    name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        lead = len(shape) - x.ndim
        if lead < 0:
            raise TorchRuntimeError(
                f"expand(torch.{_dt(x)}{{[{', '.join(map(str, x.shape))}]}}, size=[{', '.join(map(str, shape))}]):"
                " the number of sizes provided (" + str(len(shape)) + ") must be greater or equal to the number "
                "of dimensions in the tensor (" + str(x.ndim) + ")")
        full = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        for i, s in enumerate(x.shape):
            if s != 1 and s != full[i + lead]:
                raise TorchRuntimeError(
                    f"The expanded size of the tensor ({full[i + lead]}) must match the existing size ({s}) at "
                    f"non-singleton dimension {i + lead}.  Target sizes: [{', '.join(map(str, shape))}].  "
                    f"Tensor sizes: [{', '.join(map(str, x.shape))}]")
        check_size(full)
        out = np.broadcast_to(x, full)
        if x.flags.writeable:
            # writable, as torch's: writing where elements repeat is refused by the in-place ops themselves
            # (apply_inplace), not by numpy, so a part of it that repeats nothing (x.expand(2, 3)[0]) may be written
            out.flags.writeable = True
        return out

    @staticmethod
    def backward(ctx, g):
        return (g,)  # the engine sums it down to the input's shape


def _dt(x):
    return {"float32": "FloatTensor", "float64": "DoubleTensor"}.get(str(x.dtype), "Tensor")


@register("expand", sig="expand(input, *sizes)", doc="broadcast to a larger shape without copying",
          category="shape", torch=False, result_shape=sizes.expand)
def expand(input, *sizes):
    return Expand.apply(input, as_shape(sizes))


class Unsqueeze(ViewFunction):
    __slots__ = ()
    jvp = LINEAR
    name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.aux = wrap_dim(dim, x.ndim + 1)
        return np.expand_dims(x, ctx.aux)

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):  # torch's formula, grad.squeeze(dim): SqueezeBackward1 under create_graph
            return (squeeze(g, ctx.aux),)
        return (dual.reshape(g, ctx.in_shapes[0]),)


@register("unsqueeze", sig="unsqueeze(input, dim)", doc="insert a size-1 dim", category="shape")
def unsqueeze(input, dim):
    return Unsqueeze.apply(input, dim)


class Squeeze(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        if dims is None:
            return x.reshape(tuple(s for s in x.shape if s != 1))
        axes = tuple(d for d in (wrap_dim(d, x.ndim) for d in dims) if x.ndim and x.shape[d] == 1)
        return np.squeeze(x, axis=axes) if axes else x

    @staticmethod
    def backward(ctx, g):
        return (dual.reshape(g, ctx.in_shapes[0]),)


class SqueezeView(ViewFunction, Squeeze):
    """squeeze as a view op (Squeeze itself is also the node of ops that only reuse its rule)."""

    __slots__ = ()

    @staticmethod
    def backward(ctx, g):
        if not isinstance(g, Tensor):
            return (dual.reshape(g, ctx.in_shapes[0]),)
        # torch's unsqueeze_to: one unsqueeze per squeezed dim, in increasing order (UnsqueezeBackward0 under
        # create_graph); which of several adjacent size-1 dims was removed changes neither shape nor nodes
        kept, o = tuple(g.shape), 0
        for d, size in enumerate(ctx.in_shapes[0]):
            if o < len(kept) and kept[o] == size:
                o += 1
            else:
                g = unsqueeze(g, d)
        return (g,)


class SqueezeDim(SqueezeView):
    __slots__ = ()
    name = "SqueezeBackward1"


@register("squeeze", sig="squeeze(input, dim=None)", doc="remove size-1 dims", category="shape")
def squeeze(input, dim=None, *dims):
    if dim is None and not dims:
        return SqueezeView.apply(input, None)
    dims = (dim, *dims) if dims else (dim,) if isinstance(dim, int) else tuple(dim)  # x.squeeze(0, 2): a list
    if len(dims) > 1:  # torch's dim_list_to_bitset
        seen = set()
        for d in dims:
            d = wrap_dim(d, input.ndim)
            if d in seen:
                raise TorchRuntimeError(f"dim {d} appears multiple times in the list of dims")
            seen.add(d)
    return SqueezeDim.apply(input, dims)


# -- indexing -----------------------------------------------------------------------------------------

def normalise_key(key, shape):
    """Validate a basic/advanced index and name the torch node it produces (the last op applied)."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    dim = 0
    last = "Alias"
    advanced = False
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis
                 and not (isinstance(k, np.ndarray) and k.dtype == bool))
    n_real += sum(k.ndim - 1 for k in key if isinstance(k, np.ndarray) and k.dtype == bool)
    if not shape and n_real:  # torch's words for an int or a slice into a 0-d tensor
        first = next(k for k in key if k is not None and k is not Ellipsis)
        if isinstance(first, (int, np.integer)) and not isinstance(first, (bool, np.bool_)):
            raise TorchIndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                  "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        if isinstance(first, slice):
            raise TorchIndexError("slice() cannot be applied to a 0-dim tensor.")
    if n_real > len(shape):
        raise TorchIndexError(
            f"too many indices for tensor of dimension {len(shape)}")
    for k in key:
        if k is Ellipsis:
            skip = len(shape) - n_real
            dim += skip
            out.append(k)
            continue
        if k is None:
            last = "Unsqueeze"
            out.append(k)
            continue
        if isinstance(k, (bool, np.bool_)):
            advanced = True
            out.append(k)
            continue
        if isinstance(k, (int, np.integer)):
            size = shape[dim]
            if not -size <= k < size:
                raise TorchIndexError(
                    f"index {k} is out of bounds for dimension {dim} with size {size}")
            last = "Select"
            out.append(int(k))
            dim += 1
            continue
        if isinstance(k, slice):
            if k.step is not None and k.step <= 0:
                raise TorchRuntimeError("step must be greater than zero")
            if not (k.start in (None, 0) and k.stop is None and k.step in (None, 1)):
                last = "Slice"
            out.append(k)
            dim += 1
            continue
        if isinstance(k, np.ndarray):
            advanced = True
            if k.dtype == bool:
                dim += k.ndim
            else:
                if k.size and (k.max() >= shape[dim] or k.min() < -shape[dim]):
                    bad = int(k.max()) if k.max() >= shape[dim] else int(k.min())
                    raise TorchIndexError(
                        f"index {bad} is out of bounds for dimension {dim} with size {shape[dim]}")
                dim += 1
            out.append(k)
            continue
        raise TorchIndexError(
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices "
            f"(got {type(k).__name__})")
    return tuple(out), ("Index" if advanced else last)


class Index(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.aux = key
        out = x[key]
        if isinstance(out, np.ndarray):
            return out
        if not any(k is Ellipsis for k in key):
            return x[(*key, Ellipsis)]  # all integers: numpy gives a scalar, x[i, j, ...] the 0-d view torch has
        return np.asarray(out)

    @staticmethod
    def backward(ctx, g):
        return (index_put_zeros(g, ctx.aux, ctx.in_shapes[0]),)


_INDEX_CLASSES = {}


def _index_class(kind):
    cls = _INDEX_CLASSES.get(kind)
    if cls is None:
        # basic indexing (ints, slices, None, ...) gives a view; advanced indexing ("Index") a copy
        bases = (Index,) if kind == "Index" else (ViewFunction, Index)
        cls = type(kind + "Index", bases, {"__slots__": (), "name": f"{kind}Backward0"})
        _INDEX_CLASSES[kind] = cls
    return cls


class IndexPutZeros(Function):
    """zeros(shape) with `g` accumulated at `key`: the backward of indexing, differentiable itself."""

    __slots__ = ()
    name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, g, key, shape):
        ctx.aux = key
        return _scatter_zeros(g, key, shape)

    @staticmethod
    def backward(ctx, gg):
        return (getitem(gg, ctx.aux) if isinstance(gg, Tensor) else gg[ctx.aux],)


def _scatter_zeros(g, key, shape):
    out = np.zeros(shape, dtype=g.dtype)
    if any(isinstance(k, np.ndarray) for k in key):
        np.add.at(out, key, g)  # repeated indices accumulate
    else:
        out[key] = g
    return out


def index_put_zeros(g, key, shape):
    if isinstance(g, Tensor):
        return IndexPutZeros.apply(g, key, shape)
    return _scatter_zeros(g, key, shape)


def getitem(self, key):
    key = to_index(key)
    single_slice = isinstance(key, slice)  # torch records x[:] as a slice, but skips full slices in x[:, 0]
    key, kind = normalise_key(key, self.array.shape)
    if kind == "Index" and sizes.SizeLimit.max_elements is not None:  # x[[0] * N] can outgrow x
        check_size(sizes.indexing(self.array.shape, key), "advanced indexing")
    if single_slice:
        kind = "Slice"
    return _index_class(kind).apply(self, key)


def to_index(key):
    if isinstance(key, tuple):
        return tuple(to_index(k) for k in key)
    if isinstance(key, Tensor):
        arr = key.array
        if arr.dtype.kind == "b":
            return arr
        if arr.dtype.kind in "iu":
            return arr.astype(np.int64) if arr.ndim else int(arr)
        raise TorchIndexError("tensors used as indices must be long, int, byte or bool tensors")
    if isinstance(key, (list, range)):  # a sequence is an index tensor to torch: x[range(n), y], x[[]]
        arr = np.asarray([val(k) for k in key], dtype=None if len(key) else np.int64)
        if arr.dtype.kind not in "iub":
            raise TorchIndexError("tensors used as indices must be long, int, byte or bool tensors")
        return arr
    return key


Tensor.__getitem__ = getitem
