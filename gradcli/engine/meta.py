"""The meta device: tensors with a shape, a dtype and strides but no data, whose ops compute the shape of their
result (and torch's shape errors) without allocating or computing anything.

A meta tensor is an ordinary `Tensor` whose array is a `MetaArray`: a zero-strided view of one zero element, so
it costs no memory whatever its shape (a (1024, 3, 65536, 65536) tensor is 4 bytes), carrying the strides torch
would give it (`meta_strides`, in elements).  Every registry op checks its arguments for one (`registry.
register`, once a meta tensor exists in the process) and then calls `dispatch` here instead of its numpy
kernel: the op's shape rule gives the result's shape and strides, and the op itself, run on a tiny CPU stand-in
of each input (`_proxy`: the same dtype, ndim and requires_grad), gives torch's result dtype, its grad_fn's name
and the argument errors that do not depend on sizes.  An op without a shape rule is refused by name
(`errors.Unsupported`), never computed on the stand-in's zeros; a MetaArray that reaches a numpy function anyway
raises the same refusal.  Backward through meta tensors is refused too (their gradients would be meta tensors of
the inputs' shapes, which gradcli does not build yet).
"""

from __future__ import annotations

import inspect
import math

import numpy as np

from gradcli.engine import dtypes, state
from gradcli.engine.autograd import Function, is_grad_enabled
from gradcli.engine.errors import (
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchValueError,
    Unsupported,
)
from gradcli.engine.tensor import Size, Tensor, wrap_dim


# The device factories use when none is given: `with torch.device('meta'):` sets it for its block.
def on_meta(device) -> bool:
    """Whether a factory given `device` (None: the default one, state.DEFAULT_DEVICE) makes a meta tensor."""
    if device is None:
        default = state.DEFAULT_DEVICE.get()
        return default is not None and default.type == "meta"
    return str(device).partition(":")[0] == "meta"


# Some meta tensor was made in this process: only then do the registry's ops look for one among their arguments.
USED = [False]

ITEM = "Tensor.item() cannot be called on meta tensors"
NO_DATA = "Cannot copy out of meta tensor; no data!"
TO_NUMPY = ("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory "
            "first.")


class MetaArray(np.ndarray):
    """The array of a meta tensor: every element is the same zero (no memory), the logical strides beside it."""

    meta_strides: tuple

    def __array_finalize__(self, obj) -> None:
        self.meta_strides = getattr(obj, "meta_strides", None)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise Unsupported(f"computing {ufunc.__name__} on a meta tensor's data (a meta tensor has none: gradcli "
                          "computes the shapes of the ops docs/run.md lists; use a CPU tensor)")

    def __array_function__(self, func, types, args, kwargs):
        raise Unsupported(f"computing numpy.{func.__name__} on a meta tensor's data (a meta tensor has none: gradcli "
                          "computes the shapes of the ops docs/run.md lists; use a CPU tensor)")


def contiguous_strides(shape) -> tuple:
    strides, run = [], 1
    for size in reversed(tuple(shape)):
        strides.append(run)
        run *= max(size, 1)
    return tuple(reversed(strides))


def meta_array(shape, dtype, strides=None) -> MetaArray:
    USED[0] = True
    shape = tuple(int(s) for s in shape)
    array = np.broadcast_to(np.zeros((), dtype=np.dtype(dtype)), shape).view(MetaArray)
    array.meta_strides = contiguous_strides(shape) if strides is None else tuple(strides)
    return array


def empty(shape, dtype, requires_grad: bool = False) -> Tensor:
    """A new meta tensor (a leaf)."""
    t = Tensor._make(meta_array(shape, dtype), None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def is_meta(value) -> bool:
    return isinstance(value, Tensor) and type(value.array) is MetaArray


def has_meta(args, kwargs) -> bool:
    for a in args:
        if isinstance(a, Tensor):
            if type(a.array) is MetaArray:
                return True
        elif isinstance(a, (list, tuple)) and any(is_meta(x) for x in a):
            return True
    return any(is_meta(v) for v in kwargs.values()) if kwargs else False


def strides_of(t: Tensor) -> tuple:
    """Tensor.stride(): the meta strides, or the array's own in elements."""
    if type(t.array) is MetaArray:
        return t.array.meta_strides
    item = t.array.itemsize
    return tuple(s // item for s in t.array.strides)


class MetaBackward(Function):
    """A meta op's node: torch's grad_fn name and its edges, nothing to compute."""

    __slots__ = ("label",)

    @property
    def name(self) -> str:
        return self.label

    def backward(self, *grads):
        raise Unsupported(f"backward through meta tensors ({self.label} of a tensor on the meta device: gradcli "
                          "computes the forward shapes of meta tensors only; run backward on CPU tensors)")


def _node(label: str, inputs) -> MetaBackward:
    node = object.__new__(MetaBackward)
    node.label = label
    node.aux = None
    needs = tuple(bool(isinstance(a, Tensor) and a.requires_grad) for a in inputs)
    node.needs_input_grad = needs
    node.next_functions = tuple((a.grad_fn or a) if n else None for a, n in zip(inputs, needs))
    node.saved = node.versions = ()
    node.out = None
    node.released = False
    node.retained = None
    node.saved_cast = None
    node.in_shapes = tuple(tuple(a.shape) if isinstance(a, Tensor) else () for a in inputs)
    node.seq = 0
    return node


def _result(shape, dtype, inputs, grad_fn_name: str | None, strides=None) -> Tensor:
    t = Tensor._make(meta_array(shape, dtype, strides), None)
    tensors = [a for a in inputs if isinstance(a, Tensor)]
    if grad_fn_name is not None and is_grad_enabled() and any(a.requires_grad for a in tensors):
        t.grad_fn = _node(grad_fn_name, tensors)
        t.requires_grad = True
        t.grad_fn.out_shape = tuple(shape)
    return t


# -- the stand-ins ----------------------------------------------------------------------------------------------

def _proxy(t: Tensor, shape) -> Tensor:
    stand_in = Tensor(np.zeros(shape, dtype=t.array.dtype))
    if t.requires_grad:
        stand_in.requires_grad_(True)
        if t.grad_fn is not None:  # a non-leaf stands for a non-leaf (in-place ops check leaves)
            stand_in = stand_in.clone()
    return stand_in


def _ones(t: Tensor) -> tuple:
    return (1,) * t.array.ndim


def _proxied(args, kwargs, shape_of=_ones):
    def swap(a):
        if is_meta(a):
            return _proxy(a, shape_of(a))
        if isinstance(a, (list, tuple)) and any(is_meta(x) for x in a):
            return type(a)(swap(x) for x in a)
        return a
    return [swap(a) for a in args], {k: swap(v) for k, v in kwargs.items()}


def _flat_tensors(args, kwargs) -> list:
    found = []
    for a in (*args, *kwargs.values()):
        if isinstance(a, Tensor):
            found.append(a)
        elif isinstance(a, (list, tuple)):
            found.extend(x for x in a if isinstance(x, Tensor))
    return found


def _check_devices(tensors) -> None:
    """torch: a CPU tensor beside a meta one is an error unless it is 0-d (a CPU scalar)."""
    first = None
    for t in tensors:
        device = "meta" if is_meta(t) else "cpu"
        if device == "cpu" and t.array.ndim == 0:
            continue
        if first is None:
            first = device
        elif device != first:
            raise TorchRuntimeError(f"Tensor on device {device} is not on the expected device {first}!")


# -- shape rules --------------------------------------------------------------------------------------------------

def broadcast_shapes(*shapes) -> tuple:
    """The broadcast shape, with the error torch's meta kernels raise (torch._refs._broadcast_shapes)."""
    ndim = max((len(s) for s in shapes), default=0)
    common = [1] * ndim
    for index, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if common[i] == 1:
                common[i] = shape[i]
            elif shape[i] != 1 and common[i] != shape[i]:
                raise TorchRuntimeError(f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching "
                                        f"argument at index {index} had {Size(shape)}; but expected shape should be "
                                        f"broadcastable to {common}")
    return tuple(common)


def _elementwise(name, fn, args, kwargs):
    tensors = _flat_tensors(args, kwargs)
    shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
    return _from_proxy(fn, args, kwargs, shape, tensors)


def _same_shape(name, fn, args, kwargs):
    """softmax, log_softmax, clone, contiguous, detach, the conversions: the input's shape."""
    tensors = _flat_tensors(args, kwargs)
    return _from_proxy(fn, args, kwargs, tuple(tensors[0].shape), tensors)


def _from_proxy(fn, args, kwargs, shape, tensors, strides=None, shape_of=_ones):
    p_args, p_kwargs = _proxied(args, kwargs, shape_of)
    out = fn(*p_args, **p_kwargs)
    if not isinstance(out, Tensor):  # several results (torch.where(x), max(dim=)): no shape rule for those
        raise Unsupported(f"{getattr(fn, '__name__', 'this op')} of a meta tensor with several results (gradcli "
                          "computes the shape of one result: compute it on a CPU tensor of the shape)")
    name = out.grad_fn.name if out.grad_fn is not None else None
    return _result(shape, out.array.dtype, tensors, name, strides)


def _mm_message(a, b) -> str:
    return f"a and b must have same reduction dim, but got {list(a)} X {list(b)}."


def matmul_shape(sa: tuple, sb: tuple) -> tuple:
    if not sa or not sb:
        raise TorchRuntimeError(f"both arguments to matmul need to be at least 1D, but they are {len(sa)}D and "
                                f"{len(sb)}D")
    if len(sa) == 1 and len(sb) == 1:
        if sa[0] != sb[0]:
            raise TorchRuntimeError(f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to have "
                                    f"thesame number of elements, but got {sa[0]} and {sb[0]} elements respectively")
        return ()
    if len(sa) == 2 and len(sb) == 1:
        if sa[1] != sb[0]:
            raise TorchRuntimeError(f"size mismatch, got input ({sa[0]}), mat ({sa[0]}x{sa[1]}), vec ({sb[0]})")
        return (sa[0],)
    if len(sa) == 1 and len(sb) == 2:
        if sa[0] != sb[0]:
            raise TorchRuntimeError(f"size mismatch, got input ({sb[1]}), mat ({sb[1]}x{sb[0]}), vec ({sa[0]})")
        return (sb[1],)
    if len(sa) == 2 and len(sb) == 2:
        if sa[1] != sb[0]:
            raise TorchRuntimeError(_mm_message(sa, sb))
        return (sa[0], sb[1])
    a = sa if len(sa) > 1 else (1, sa[0])
    b = sb if len(sb) > 1 else (sb[0], 1)
    if len(sa) >= 3 and len(sb) == 2 or len(sb) == 1:  # folded into one matrix product
        if a[-1] != b[0]:
            raise TorchRuntimeError(_mm_message((math.prod(a[:-1]), a[-1]), b))
    batch = broadcast_shapes(a[:-2], b[:-2])
    if a[-1] != b[-2]:
        n = math.prod(batch)
        raise TorchRuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {a[-1]}] but "
                                f"got: [{n}, {b[-2]}].")
    out = batch + (a[-2], b[-1])
    if len(sa) == 1:
        out = out[:-2] + out[-1:]
    if len(sb) == 1:
        out = out[:-1]
    return out


def _two(t: Tensor) -> tuple:
    return tuple(min(s, 2) for s in t.shape)


def _matmul(name, fn, args, kwargs):
    a, b = args[0], args[1]
    sa, sb = tuple(a.shape), tuple(b.shape)
    if name == "mm":
        if len(sa) != 2:
            raise TorchRuntimeError("self must be a matrix")
        if len(sb) != 2:
            raise TorchRuntimeError("mat2 must be a matrix")
    if name == "bmm":
        if len(sa) != 3:
            raise TorchRuntimeError("batch1 must be a 3D tensor")
        if len(sb) != 3:
            raise TorchRuntimeError("batch2 must be a 3D tensor")
    shape = matmul_shape(sa, sb)
    return _from_proxy(fn, args, kwargs, shape, [a, b], shape_of=_two)


def _linear(name, fn, args, kwargs):
    input, weight = args[0], args[1] if len(args) > 1 else kwargs["weight"]
    bias = args[2] if len(args) > 2 else kwargs.get("bias")
    si, sw = tuple(input.shape), tuple(weight.shape)
    if len(sw) == 2 and si and si[-1] != sw[1]:
        rows = math.prod(si[:-1]) if len(si) > 1 else 1
        raise TorchRuntimeError(_mm_message((rows, si[-1]), (sw[1], sw[0])))
    shape = si[:-1] + sw[:1] if len(sw) == 2 else si[:-1]
    if bias is not None:
        broadcast_shapes(shape, tuple(bias.shape))
    tensors = [t for t in (input, weight, bias) if t is not None]
    return _from_proxy(fn, args, kwargs, shape, tensors, shape_of=_two)


def _tuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _conv(name, fn, args, kwargs):
    nd = int(name[4])
    names = ("input", "weight", "bias", "stride", "padding", "dilation", "groups")
    given = dict(zip(names, args), **kwargs)
    input, weight, bias = given["input"], given["weight"], given.get("bias")
    stride = _tuple(given.get("stride", 1), nd)
    padding = given.get("padding", 0)
    dilation = _tuple(given.get("dilation", 1), nd)
    groups = given.get("groups", 1)
    si, sw = tuple(input.shape), tuple(weight.shape)
    if len(si) not in (nd + 1, nd + 2):
        raise TorchRuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got "
                                f"input of size: {list(si)}")
    batched = len(si) == nd + 2
    full = si if batched else (1, *si)
    if len(sw) != nd + 2:
        raise TorchRuntimeError("weight should have at least three dimensions")
    if full[1] != sw[1] * groups:
        raise TorchRuntimeError("Invalid channel dimensions")
    if isinstance(padding, str):
        pads = (0,) * nd
    else:
        pads = _tuple(padding, nd)
    spatial = []
    padded = [full[2 + i] + 2 * pads[i] for i in range(nd)]
    kernel = [dilation[i] * (sw[2 + i] - 1) + 1 for i in range(nd)]
    if padding != "same" and any(k > p for k, p in zip(kernel, padded)):
        raise TorchRuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                                f"size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual "
                                "input size")
    for i in range(nd):
        spatial.append(full[2 + i] if padding == "same" else (padded[i] - kernel[i]) // stride[i] + 1)
    shape = (full[0], sw[0], *spatial)
    if not batched:
        shape = shape[1:]
    tensors = [t for t in (input, weight, bias) if isinstance(t, Tensor)]
    _check_devices(tensors)
    return _result(shape, input.array.dtype, tensors, "ConvolutionBackward0" if batched else "SqueezeBackward1")


def pooling_output_size(size, kernel, pad, stride, dilation, ceil_mode) -> int:
    numerator = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = numerator // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


POOL_NODES = {"max_pool2d": "MaxPool2DWithIndicesBackward0", "avg_pool2d": "AvgPool2DBackward0",
              "max_pool1d": "SqueezeBackward1", "avg_pool1d": "SqueezeBackward1"}


def _pool(name, fn, args, kwargs):
    nd = int(name[-2])
    is_max = name.startswith("max")
    names = ("input", "kernel_size", "stride", "padding") + (("dilation", "ceil_mode") if is_max else ("ceil_mode",))
    given = dict(zip(names, args), **kwargs)
    input = given["input"]
    kernel = _tuple(given["kernel_size"], nd)
    stride = given.get("stride")
    stride = kernel if stride is None or stride == [] or stride == () else _tuple(stride, nd)
    padding = _tuple(given.get("padding", 0), nd)
    dilation = _tuple(given.get("dilation", 1), nd) if is_max else (1,) * nd
    ceil_mode = bool(given.get("ceil_mode", False))
    si = tuple(input.shape)
    if len(si) not in (nd + 1, nd + 2):
        raise TorchRuntimeError(f"non-empty {nd + 1}D or {nd + 2}D (batch mode) tensor expected for input")
    for k, p in zip(kernel, padding):
        if p > k // 2:
            raise TorchRuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                                    f"kernel_size={k} and dilation=1" if is_max else
                                    "pad should be smaller than or equal to half of kernel size, but got "
                                    f"padW = {p}, padH = {p}, kW = {k}, kH = {k}")
    spatial = si[-nd:]
    out = tuple(pooling_output_size(spatial[i], kernel[i], padding[i], stride[i], dilation[i], ceil_mode)
                for i in range(nd))
    if any(o <= 0 for o in out):
        dims = "x".join(str(s) for s in (si[-3] if len(si) > nd else 1, *spatial))
        raise TorchRuntimeError(f"Given input size: ({dims}). Calculated output size: "
                                f"({'x'.join(str(s) for s in (si[-3] if len(si) > nd else 1, *out))}). Output size "
                                "is too small")
    shape = si[:-nd] + out
    if given.get("return_indices"):
        raise Unsupported(f"F.{name}(..., return_indices=True) on the meta device (gradcli computes its output's "
                          "shape only: call it without return_indices)")
    return _result(shape, input.array.dtype, [input], POOL_NODES[name])


def _reduce(name, fn, args, kwargs):
    input = args[0]
    names = ("input", "dim", "keepdim")
    given = dict(zip(names, args), **kwargs)
    dim, keepdim = given.get("dim"), bool(given.get("keepdim", False))
    shape = tuple(input.shape)
    if dim is None or dim == () or dim == []:
        dims = set(range(len(shape)))
    else:
        dims = {wrap_dim(d, len(shape)) for d in _tuple(dim, 1)}
    out = tuple((1 if keepdim else None) if i in dims else s for i, s in enumerate(shape))
    return _from_proxy(fn, args, kwargs, tuple(s for s in out if s is not None), [input], shape_of=_two)


def _cat(name, fn, args, kwargs):
    tensors = list(args[0] if args else kwargs["tensors"])
    dim = args[1] if len(args) > 1 else kwargs.get("dim", 0)
    if not tensors:
        raise TorchRuntimeError("torch.cat(): expected a non-empty list of Tensors")
    _check_devices(tensors)
    if name == "stack":
        first = tuple(tensors[0].shape)
        for t in tensors:
            if tuple(t.shape) != first:
                raise TorchRuntimeError(f"stack expects each tensor to be equal size, but got {Size(first)} at entry "
                                        "0 ")  # (sic: torch's meta kernel ends its message there)
        d = wrap_dim(dim, len(first) + 1)
        shape = first[:d] + (len(tensors),) + first[d:]
    else:
        shaped = [t for t in tensors if tuple(t.shape) != (0,)]
        first = tuple(shaped[0].shape) if shaped else (0,)
        d = wrap_dim(dim, len(first))
        total = 0
        for i, t in enumerate(tensors):
            s = tuple(t.shape)
            if s == (0,):
                continue
            if len(s) != len(first):
                raise TorchRuntimeError(f"Tensors must have same number of dimensions: got {len(first)} and {len(s)}")
            for j in range(len(s)):
                if j != d and s[j] != first[j]:
                    raise TorchRuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected "
                                            f"{first[j]} in dimension {j} but got {s[j]} for tensor number {i} in the "
                                            "list")
            total += s[d]
        shape = first[:d] + (total,) + first[d + 1:]
    return _from_proxy(fn, args, kwargs, shape, tensors)


# -- views ---------------------------------------------------------------------------------------------------------

def _infer_size(shape, numel: int) -> tuple:
    shape = [int(s) for s in shape]
    infer = [i for i, s in enumerate(shape) if s == -1]
    if len(infer) > 1:
        raise TorchRuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    for s in shape:
        if s < -1:
            raise TorchRuntimeError(f"invalid shape dimension {s}")
    if infer:
        if known == 0 or numel % known:
            raise TorchRuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[infer[0]] = numel // known
    elif known != numel:
        raise TorchRuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def view_strides(old_shape, old_strides, new_shape):
    """ATen's computeStride: the strides of a view of (old_shape, old_strides) as new_shape, or None."""
    if math.prod(old_shape) == 0:
        return contiguous_strides(new_shape)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1] if old_strides else 1
    tensor_numel, view_numel = 1, 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1
                             and old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel, view_numel = 1, 1
    if view_d != -1:
        return None
    return tuple(new_strides)


def _sizes(args):
    rest = args[1:]
    if len(rest) == 1 and isinstance(rest[0], (tuple, list)):
        return tuple(rest[0])
    return tuple(rest)


def _view_like(name, fn, args, kwargs):
    input = args[0]
    shape, strides = tuple(input.shape), input.array.meta_strides
    label = None
    if name in ("view", "reshape"):
        sizes = _sizes(args) if len(args) > 1 else tuple(kwargs.get("shape", kwargs.get("size", ())))
        new = _infer_size(sizes, math.prod(shape))
        new_strides = view_strides(shape, strides, new)
        if new_strides is None:
            if name == "view":
                raise TorchRuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                                        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
            new_strides, label = contiguous_strides(new), "UnsafeViewBackward0"
        else:
            label = "ViewBackward0"
        out_shape = new
    elif name == "flatten":
        given = dict(zip(("input", "start_dim", "end_dim"), args), **kwargs)
        n = max(len(shape), 1)
        start, end = wrap_dim(given.get("start_dim", 0), n), wrap_dim(given.get("end_dim", -1), n)
        if start > end:
            raise TorchRuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if not shape or start == end:
            return input
        out_shape = shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:]
        new_strides = view_strides(shape, strides, out_shape)
        label = "ViewBackward0" if new_strides is not None else "UnsafeViewBackward0"
        new_strides = new_strides or contiguous_strides(out_shape)
    elif name in ("transpose", "swapaxes", "swapdims", "t", "T", "mT"):
        if name == "T":
            d0, d1 = 0, max(len(shape) - 1, 0)
            label = "PermuteBackward0"
            if len(shape) > 2:
                order = list(reversed(range(len(shape))))
                return _result(tuple(shape[i] for i in order), input.array.dtype, [input], label,
                               tuple(strides[i] for i in order))
        elif name == "mT":
            if len(shape) < 2:
                raise TorchRuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got "
                                        f"{len(shape)}-D tensor.")
            d0, d1, label = len(shape) - 2, len(shape) - 1, "TransposeBackward0"
        elif name == "t":
            if len(shape) > 2:
                raise TorchRuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {len(shape)}D")
            d0, d1 = (0, len(shape) - 1) if shape else (0, 0)
            label = "TBackward0"
        else:
            given = dict(zip(("input", "dim0", "dim1"), args), **kwargs)
            d0, d1 = wrap_dim(given["dim0"], len(shape)), wrap_dim(given["dim1"], len(shape))
            label = "TransposeBackward0"
        order = list(range(len(shape)))
        order[d0], order[d1] = order[d1], order[d0]
        out_shape, new_strides = tuple(shape[i] for i in order), tuple(strides[i] for i in order)
    elif name == "permute":
        dims = _sizes(args) if len(args) > 1 else tuple(kwargs["dims"])
        if len(dims) != len(shape):
            raise TorchRuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                                    f"the length of the desired ordering of dimensions i.e. input.dim() = "
                                    f"{len(shape)} is not equal to len(dims) = {len(dims)}")
        order = [wrap_dim(d, len(shape)) for d in dims]
        if len(set(order)) != len(order):
            raise TorchRuntimeError("permute(): duplicate dims are not allowed.")
        out_shape, new_strides = tuple(shape[i] for i in order), tuple(strides[i] for i in order)
        label = "PermuteBackward0"
    elif name == "unsqueeze":
        dim = args[1] if len(args) > 1 else kwargs["dim"]
        d = wrap_dim(dim, len(shape) + 1)
        inner = strides[d] * shape[d] if d < len(shape) else 1
        out_shape, new_strides = shape[:d] + (1,) + shape[d:], strides[:d] + (inner,) + strides[d:]
        label = "UnsqueezeBackward0"
    elif name == "squeeze":
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if dim is None:
            keep = [i for i, s in enumerate(shape) if s != 1]
            label = "SqueezeBackward0"
        else:
            drop = {wrap_dim(d, len(shape)) for d in _tuple(dim, 1)} if shape else set()
            keep = [i for i, s in enumerate(shape) if not (i in drop and s == 1)]
            label = "SqueezeBackward1" if not isinstance(dim, (tuple, list)) else "SqueezeBackward2"
        out_shape, new_strides = tuple(shape[i] for i in keep), tuple(strides[i] for i in keep)
    elif name == "expand":
        sizes = _sizes(args)
        if len(sizes) < len(shape):
            raise TorchRuntimeError(f"expand(torch.FloatTensor{{{list(shape)}}}, size={list(sizes)}): the number of "
                                    "sizes provided ({len(sizes)}) must be greater or equal to the number of "
                                    f"dimensions in the tensor ({len(shape)})")
        lead = len(sizes) - len(shape)
        out, out_strides = [], []
        for i, size in enumerate(sizes):
            if i < lead:
                out.append(size)
                out_strides.append(0)
                continue
            old = shape[i - lead]
            if size == -1:
                size = old
            if old != size and old != 1:
                raise TorchRuntimeError(f"The expanded size of the tensor ({size}) must match the existing size "
                                        f"({old}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                                        f"Tensor sizes: {list(shape)}")
            out.append(size)
            out_strides.append(strides[i - lead] if old == size else 0)
        out_shape, new_strides, label = tuple(out), tuple(out_strides), "ExpandBackward0"
    else:  # pragma: no cover - the table below lists exactly the names above
        raise AssertionError(name)
    return _result(out_shape, input.array.dtype, [input], label, new_strides)


def _getitem(name, fn, args, kwargs):
    """Basic indexing (integers, slices, None, Ellipsis): the view's shape and strides."""
    input, key = args[0], args[1]
    key = key if isinstance(key, tuple) else (key,)
    shape, strides = list(input.shape), list(input.array.meta_strides)
    if any(not (isinstance(k, (int, slice)) or k is None or k is Ellipsis) or isinstance(k, bool) for k in key):
        raise Unsupported("indexing a meta tensor with tensors, lists or booleans (gradcli computes the shapes of "
                          "basic indexing on the meta device: integers, slices, None and ...)")
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > len(shape):
        raise TorchIndexError(f"too many indices for tensor of dimension {len(shape)}")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (len(shape) - used) + key[at + 1:]
    out_shape, out_strides, d = [], [], 0
    label = None
    for k in key:
        if k is None:
            out_shape.append(1)
            out_strides.append(strides[d] * shape[d] if d < len(shape) else 1)
            label = label or "UnsqueezeBackward0"
            continue
        if isinstance(k, int):
            if not -shape[d] <= k < shape[d]:
                raise TorchIndexError(f"index {k} is out of bounds for dimension {d} with size {shape[d]}")
            label = "SelectBackward0"
        else:
            start, stop, step = k.indices(shape[d])
            if k.step is not None and k.step <= 0:
                raise TorchValueError("step must be greater than zero")
            out_shape.append(max(0, (stop - start + step - 1) // step))
            out_strides.append(strides[d] * step)
            if (start, stop, step) != (0, shape[d], 1):
                label = "SliceBackward0"
        d += 1
    out_shape += shape[d:]
    out_strides += strides[d:]
    if label is None:
        label = "AliasBackward0"
    return _result(out_shape, input.array.dtype, [input], label, out_strides)


def _select(name, fn, args, kwargs):
    """select(dim, index) and unbind(dim): the views dropping `dim` (unbind's share one UnbindBackward0 node's
    name, one node each here)."""
    input = args[0]
    given = dict(zip(("input", "dim", "index"), args), **kwargs)
    shape, strides = tuple(input.shape), input.array.meta_strides
    if not shape:
        raise TorchIndexError("select() cannot be applied to a 0-dim tensor." if name == "select" else
                              "Dimension specified as 0 but tensor has no dimensions")
    d = wrap_dim(given.get("dim", 0), len(shape))
    out_shape, out_strides = shape[:d] + shape[d + 1:], strides[:d] + strides[d + 1:]
    if name == "unbind":
        return tuple(_result(out_shape, input.array.dtype, [input], "UnbindBackward0", out_strides)
                     for _ in range(shape[d]))
    index = given["index"]
    if not -shape[d] <= index < shape[d]:
        raise TorchIndexError(f"select(): index {index} out of range for tensor of size {list(shape)} at dimension "
                              f"{d}")
    return _result(out_shape, input.array.dtype, [input], "SelectBackward0", out_strides)


def _dropout(name, fn, args, kwargs):
    """F.dropout on the meta device: nothing drawn (torch's meta kernel draws no mask either)."""
    given = dict(zip(("input", "p", "training", "inplace"), args), **kwargs)
    input, p = given["input"], given.get("p", 0.5)
    if p < 0.0 or p > 1.0:
        raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not given.get("training", True) or p == 0 or input.array.size == 0:
        return input
    if given.get("inplace"):
        input._bump_version()
        if is_grad_enabled() and input.requires_grad:
            input.grad_fn = _node("MulBackward0", [input])
        return input
    return _result(tuple(input.shape), input.array.dtype, [input], "MulBackward0")


def _norm(name, fn, args, kwargs):
    """batch_norm and layer_norm: the input's shape after the checks of the engine's own functions."""
    input = args[0]
    shape = tuple(input.shape)
    if name == "layer_norm":
        given = dict(zip(("input", "normalized_shape", "weight", "bias", "eps"), args), **kwargs)
        ns = given["normalized_shape"]
        ns = (int(ns),) if isinstance(ns, int) else tuple(int(s) for s in ns)
        if shape[len(shape) - len(ns):] != ns or not ns:
            raise TorchRuntimeError(f"Given normalized_shape={list(ns)}, expected input with shape {list(ns)}, but got "
                                    f"input of size {Size(shape)}")  # (torch's meta kernel's words)
        tensors, label = [t for t in (input, given.get("weight"), given.get("bias")) if t is not None], \
            "NativeLayerNormBackward0"
    else:
        given = dict(zip(("input", "running_mean", "running_var", "weight", "bias", "training"), args), **kwargs)
        if len(shape) < 2:
            raise TorchRuntimeError(f"batch_norm: expected 2D or higher input (got {len(shape)}D input)")
        for key in ("running_mean", "running_var", "weight", "bias"):
            value = given.get(key)
            if value is not None and value.numel() != shape[1]:
                raise TorchRuntimeError(f"{key} should contain {shape[1]} elements not {value.numel()}")
        tensors = [t for t in (input, given.get("weight"), given.get("bias")) if t is not None]
        label = "NativeBatchNormBackward0"
    return _result(shape, input.array.dtype, tensors, label)


def _legacy_name(t: Tensor) -> str:
    return "torch." + {"float32": "Float", "float64": "Double", "float16": "Half", "bool": "Bool"}.get(
        t.array.dtype.name, "Float") + "Tensor"


def _embedding(name, fn, args, kwargs):
    input, weight = args[0], args[1] if len(args) > 1 else kwargs["weight"]
    if input.array.dtype.kind not in "iu":
        raise TorchRuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                                f"Long, Int; but got {_legacy_name(input)} instead (while checking arguments for "
                                "embedding)")
    return _result(tuple(input.shape) + tuple(weight.shape[1:]), weight.array.dtype, [weight], "EmbeddingBackward0")


def _like(name, fn, args, kwargs):
    input = args[0]
    dtype = kwargs.get("dtype")
    np_dtype = dtype.np if isinstance(dtype, dtypes.DType) else input.array.dtype
    device = kwargs.get("device")
    if device is not None and str(device) != "meta":
        raise Unsupported(f"torch.{name}(..., device='{device}') of a meta tensor (its data would be new: make it "
                          f"with torch.{name.replace('_like', '')}(size, device='{device}'))")
    return empty(tuple(input.shape), np_dtype, bool(kwargs.get("requires_grad", False)))


def _inplace_fill(name, fn, args, kwargs):
    """The in-place draws and fills nn.init uses (uniform_, normal_, zero_, fill_ ...): nothing to write."""
    t = args[0]
    if is_grad_enabled() and t.requires_grad and t.grad_fn is None:
        raise TorchRuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    t._bump_version()
    return t


def _copy_(name, fn, args, kwargs):
    target, source = args[0], args[1]
    if not is_meta(target):
        raise TorchNotImplementedError(NO_DATA)
    broadcast_shapes(tuple(target.shape), tuple(source.shape))
    return _inplace_fill(name, fn, args, kwargs)


def _inplace_elementwise(name, fn, args, kwargs):
    """An elementwise op in place (x.add_(y), x.relu_(), F.relu(x, inplace=True)) on a meta tensor: the broadcast
    must keep x's shape; x's version moves on and, under grad, x gets the op's node (torch's leaf and dtype errors
    come from the op run in place on x's stand-in)."""
    target = args[0]
    tensors = _flat_tensors(args, kwargs)
    shape = broadcast_shapes(*(tuple(t.shape) for t in tensors))
    if shape != tuple(target.shape):
        raise TorchRuntimeError(f"output with shape {Size(target.shape)} doesn't match the broadcast shape {shape}")
    if not (is_grad_enabled() and any(t.requires_grad for t in tensors)):
        target._bump_version()
        return target  # (torch's meta kernels check no dtype cast in place: i.mul_(1.5) passes)
    p_args, p_kwargs = _proxied(args, kwargs)
    out = fn(*p_args, **p_kwargs)  # torch's leaf error, if x is a leaf that requires grad
    target._bump_version()
    if out.grad_fn is not None:
        node = _node(out.grad_fn.name, tensors)
        node.out_shape = shape
        target.grad_fn = node
        target.requires_grad = True
    return target


def _detach(name, fn, args, kwargs):
    t = args[0]
    out = Tensor._make(t.array, None)
    out._version = t._version
    return out


def _to(name, fn, args, kwargs):
    t = args[0]
    dtype = kwargs.get("dtype")
    device = kwargs.get("device")
    for a in args[1:]:
        if isinstance(a, dtypes.DType):
            dtype = a
        elif isinstance(a, str) or type(a).__name__ == "Device":
            device = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
            device = "meta" if is_meta(a) else "cpu"
    if device is not None and str(device) != "meta":
        raise TorchNotImplementedError(NO_DATA)
    if dtype is None or dtype.np == t.array.dtype:
        return t
    return _result(tuple(t.shape), dtype.np, [t], "ToCopyBackward0")


def to_meta(t: Tensor, dtype=None) -> Tensor:
    """t.to('meta') of a CPU tensor: a new tensor of its shape without data (a ToCopyBackward0 node under grad)."""
    np_dtype = dtype.np if isinstance(dtype, dtypes.DType) else t.array.dtype
    return _result(tuple(t.shape), np_dtype, [t], "ToCopyBackward0")


def _conversion(name, fn, args, kwargs):
    target = {"float": np.float32, "double": np.float64, "half": np.float16, "long": np.int64, "int": np.int32,
              "bool": np.bool_}[name]
    t = args[0]
    if t.array.dtype == target:
        return t
    return _result(tuple(t.shape), target, [t], "ToCopyBackward0")


RULES = {
    **dict.fromkeys(("matmul", "mm", "bmm"), _matmul),
    "linear": _linear,
    "conv1d": _conv, "conv2d": _conv,
    **dict.fromkeys(("max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d"), _pool),
    **dict.fromkeys(("sum", "mean"), _reduce),
    **dict.fromkeys(("cat", "concat", "concatenate", "stack"), _cat),
    **dict.fromkeys(("view", "reshape", "flatten", "transpose", "swapaxes", "swapdims", "t", "T", "mT", "permute",
                     "unsqueeze",
                     "squeeze", "expand"), _view_like),
    "getitem": _getitem,
    **dict.fromkeys(("select", "unbind"), _select),
    "dropout": _dropout, "embedding": _embedding,
    **dict.fromkeys(("batch_norm", "layer_norm"), _norm),
    **dict.fromkeys(("softmax", "log_softmax", "softmin", "clone", "contiguous"), _same_shape),
    **dict.fromkeys(("zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like"), _like),
    **dict.fromkeys(("uniform_", "normal_", "zero_", "fill_", "bernoulli_", "exponential_", "random_"),
                    _inplace_fill),
    "copy_": _copy_,
    "detach": _detach,
    "to": _to,
    **dict.fromkeys(("float", "double", "half", "long", "int", "bool"), _conversion),
}
# The registry's categories whose ops broadcast their tensor arguments elementwise (dropout and rrelu draw random
# numbers, so they are not among them).
ELEMENTWISE = frozenset({"elementwise", "arithmetic", "activation", "comparison"})
# The registry's elementwise op names (set by the registry as it fills): `name_` of one is its in-place form.
ELEMENTWISE_NAMES: set | None = None


# What a refusal calls the operators that are not torch functions.
SPELLED = {"getitem": "indexing x[...]", "setitem": "assigning x[...] = v", "rsub": "number - tensor",
           "rmatmul": "array @ tensor", "positive": "+x"}


def dispatch(name: str, category: str, fn, args, kwargs):
    """The result of registry op `name` on arguments holding a meta tensor."""
    rule = RULES.get(name)
    if rule is None and category in ELEMENTWISE:
        rule = _inplace_elementwise if kwargs.get("inplace") else _elementwise
    if rule is None and category == "inplace" and name.endswith("_") and is_meta(args[0]) and \
            ELEMENTWISE_NAMES is not None and name[:-1] in ELEMENTWISE_NAMES:
        rule = _inplace_elementwise
    if rule is None:
        what = SPELLED.get(name, f"torch.{name}")
        raise Unsupported(f"{what} on the meta device (gradcli computes the shapes of meta tensors through "
                          "elementwise ops, matmul/linear, conv1d/conv2d, pools, activations, softmax, dropout, "
                          "batch_norm/layer_norm, embedding, reshape/view/flatten/permute/transpose, indexing, "
                          "sum/mean and cat/stack: move the tensor to the CPU with a real tensor of its shape, e.g. "
                          "torch.zeros(t.shape), to compute this one)")
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError:  # a missing or unknown argument: the op's own TypeError, from its stand-ins
        p_args, p_kwargs = _proxied(args, kwargs)
        fn(*p_args, **p_kwargs)
        raise
    except ValueError:  # (no signature to read: the rule reads the arguments itself)
        pass
    if rule not in (_conv, _pool, _copy_, _getitem):
        _check_devices(_flat_tensors(args, kwargs))
    return rule(name, fn, args, kwargs)
