"""Tensor methods learners write beside the ops: contiguous, view_as, reshape_as, type_as, new_zeros,
new_ones, new_full, new_tensor and masked_fill.  Most are another op under PyTorch's method name (the
gradient is that op's); masked_fill is its own node, MaskedFillBackward0, as torch's."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops.common import dtype_title
from gradcli.engine.ops.convert import Clone, to
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import reshape, view
from gradcli.engine.ops.sizes import check_new_shape
from gradcli.engine.tensor import Tensor, check_device


@register("contiguous", sig="contiguous()", doc="the tensor itself, or a copy of a non-contiguous view",
          category="method", torch=False)
def contiguous(input, memory_format=None):
    # a transposed or sliced view is copied (CloneBackward0), as torch copies a non-contiguous tensor
    return input if input.array.flags.c_contiguous else Clone.apply(input, True)  # row-major, as torch's


@register("view_as", sig="view_as(other)", doc="a view with other's shape", category="method", torch=False)
def view_as(input, other):
    return view(input, *other.shape)


@register("reshape_as", sig="reshape_as(other)", doc="reshaped to other's shape", category="method", torch=False)
def reshape_as(input, other):
    return reshape(input, *other.shape)


@register("type_as", sig="type_as(other)", doc="converted to other's dtype", category="method", torch=False)
def type_as(input, other):
    return to(input, other.dtype)


def _new(input, shape, fill, dtype, requires_grad) -> Tensor:
    """A fresh leaf of `shape` filled with `fill`, in input's dtype unless `dtype` says otherwise."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    kind = dtype if dtype is not None else input.dtype
    check_new_shape(tuple(int(s) for s in shape), "new_zeros" if fill == 0 else "new_full")
    out = Tensor._make(np.full(tuple(shape), fill, dtype=kind.np), None)
    return out.requires_grad_(True) if requires_grad else out


@register("new_zeros", sig="new_zeros(*size, dtype=None)", doc="zeros of input's dtype", category="creation",
          torch=False)
def new_zeros(input, *size, dtype=None, device=None, requires_grad=False):
    check_device(device)  # the input's device otherwise (torch's new_* ignore the default device)
    return _new(input, size, 0, dtype, requires_grad)


@register("new_ones", sig="new_ones(*size, dtype=None)", doc="ones of input's dtype", category="creation",
          torch=False)
def new_ones(input, *size, dtype=None, device=None, requires_grad=False):
    check_device(device)  # the input's device otherwise (torch's new_* ignore the default device)
    return _new(input, size, 1, dtype, requires_grad)


@register("new_full", sig="new_full(size, fill_value, dtype=None)", doc="fill_value in input's dtype",
          category="creation", torch=False)
def new_full(input, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    check_device(device)  # the input's device otherwise (torch's new_* ignore the default device)
    return _new(input, (tuple(size),), fill_value, dtype, requires_grad)


@register("new_tensor", sig="new_tensor(data, dtype=None)", doc="a new tensor of data, in input's dtype",
          category="creation", torch=False)
def new_tensor(input, data, *, dtype=None, device=None, requires_grad=False):
    check_device(device)  # the input's device otherwise (torch's new_* ignore the default device)
    source = data.array if isinstance(data, Tensor) else np.asarray(data)
    kind = dtype if dtype is not None else input.dtype
    out = Tensor._make(source.astype(kind.np), None)
    return out.requires_grad_(True) if requires_grad else out


class MaskedFill(Function):
    __slots__ = ()
    name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.aux = mask
        return np.where(mask, np.asarray(value).astype(x.dtype), x)

    @staticmethod
    def backward(ctx, g):
        return dual.where(ctx.aux, 0.0, g), None, None


class MaskedFillTensor(Function):
    """masked_fill with a 0-d tensor value, which receives the masked elements' gradient."""

    __slots__ = ()
    name = "MaskedFillBackward1"

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.aux = mask
        return np.where(mask, value.astype(x.dtype), x)

    @staticmethod
    def backward(ctx, g):
        return dual.where(ctx.aux, 0.0, g), None, dual.sum_to(dual.where(ctx.aux, g, 0.0), ())


@register("masked_fill", sig="masked_fill(mask, value)", doc="value where mask is True, input elsewhere",
          category="method", torch=True)
def masked_fill(input, mask, value):
    mask_array = mask.array if isinstance(mask, Tensor) else np.asarray(mask)
    if mask_array.dtype != np.bool_:
        raise TorchRuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                                f"{dtype_title(mask_array.dtype).lower()}")
    if isinstance(value, Tensor):
        if value.array.ndim:
            raise TorchRuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                                    f"with {value.array.ndim} dimension(s).")
    try:
        mask_array = np.broadcast_to(mask_array, input.array.shape)
    except ValueError:
        raise TorchRuntimeError(f"The size of tensor a ({input.array.shape[-1]}) must match the size of tensor b "
                                f"({mask_array.shape[-1]}) at non-singleton dimension "
                                f"{input.array.ndim - 1}") from None
    if isinstance(value, Tensor):
        return MaskedFillTensor.apply(input, mask_array, value)
    return MaskedFill.apply(input, mask_array, value)
