"""Copies and dtype conversions: clone, .to(...), .float() .double() .half() .long() .int() .bool().

As in torch, a conversion to the dtype a tensor already has returns the tensor itself (no copy, no node),
and integer or bool results never require grad: they are not differentiable.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, meta
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.ops.common import preserved_copy
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Device, Tensor, check_device


class Clone(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "CloneBackward0"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, contiguous=False):
        return np.array(x, order="C", copy=True) if contiguous else preserved_copy(x)

    @staticmethod
    def backward(ctx, g):
        return (g,)


class ToCopy(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "ToCopyBackward0"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, dtype):
        ctx.aux = x.dtype
        return preserved_copy(x, dtype)

    @staticmethod
    def backward(ctx, g):
        # the gradient flows back in the input's dtype
        source = ctx.aux
        if isinstance(g, Tensor):
            return (g if g.array.dtype == source else ToCopy.apply(g, source),)
        return (g.astype(source, copy=False),)


register("detach", sig="detach(input)", category="conversion",
         doc="the same values cut from the graph: no gradient flows back through it")(Tensor.detach)


@register("clone", sig="clone(input)", doc="a copy that stays in the graph", category="conversion")
def clone(input, *, memory_format=None):
    # torch.preserve_format (the default) keeps a dense input's strides; contiguous_format is row-major
    return Clone.apply(input, str(memory_format) == "torch.contiguous_format")


def _convert(input: Tensor, dtype: dtypes.DType, copy: bool = False) -> Tensor:
    if input.array.dtype == dtype.np and not copy:
        return input
    if not dtype.is_floating_point:
        return Tensor._make(input.array.astype(dtype.np), None)
    return ToCopy.apply(input, dtype.np)


@register("to", sig="to(input, dtype_or_device_or_tensor, *, dtype=None, copy=False)",
          doc="convert to a dtype (or another tensor's dtype); the device must be 'cpu'", category="conversion",
          torch=False)
def to(input, *args, dtype=None, device=None, copy=False, non_blocking=False):
    for arg in args:
        if isinstance(arg, dtypes.DType):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype = arg.dtype
        elif isinstance(arg, (str, Device)):
            device = arg
        elif isinstance(arg, (bool, float)):  # a number stands for a tensor of its dtype (to(Tensor other))
            dtype = dtypes.bool_ if isinstance(arg, bool) else dtypes.float64
        elif isinstance(arg, (int, np.integer)):  # a device index
            raise TorchRuntimeError("Device index must not be negative" if arg < 0 else
                                    "Cannot access accelerator device when none is available.")
        else:
            raise TorchTypeError(f"to() received an invalid combination of arguments - got ({type(arg).__name__})")
    check_device(device)
    if device is not None and str(device).partition(":")[0] == "meta":  # a copy without data (engine/meta.py)
        return meta.to_meta(input, dtype)
    return _convert(input, dtype or input.dtype, copy)


def _conversion(name: str, dtype: dtypes.DType) -> None:
    def convert(input):
        return _convert(input, dtype)

    convert.__name__ = name
    register(name, sig=f"{name}(input)", doc=f"convert to {dtype}", category="conversion", torch=False)(convert)


for _name, _dtype in (("float", dtypes.float32), ("double", dtypes.float64), ("half", dtypes.float16),
                      ("long", dtypes.int64), ("int", dtypes.int32), ("bool", dtypes.bool_),
                      ("short", dtypes.int16), ("char", dtypes.int8), ("byte", dtypes.uint8)):
    _conversion(_name, _dtype)
