"""torch.nn's rearranging layers and the F functions the registry does not hold: pixel_shuffle,
pixel_unshuffle and channel_shuffle (ATen's kernels, aten/src/ATen/native/PixelShuffle.cpp and
ChanelShuffle.cpp: their checks, their nodes PixelShuffleBackward0 / PixelUnshuffleBackward0 /
ChannelShuffleBackward0, whose gradient is the inverse rearrangement, as derivatives.yaml writes it), the
modules PixelShuffle, PixelUnshuffle and ChannelShuffle, and F's in-place activations relu_, elu_, leaky_relu_,
hardtanh_, threshold_, celu_, selu_ (torch's F.X(..., inplace=True): the same kernel, the same node).
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.modules import Module, registry_op
from gradcli.engine.tensor import Tensor


def _pixel_shuffle(x: np.ndarray, r: int) -> np.ndarray:
    *lead, c, h, w = x.shape
    n = len(lead)
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    y = y.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(y).reshape(*lead, c // (r * r), h * r, w * r)


def _pixel_unshuffle(x: np.ndarray, r: int) -> np.ndarray:
    *lead, c, h, w = x.shape
    n = len(lead)
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    y = y.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(y).reshape(*lead, c * r * r, h // r, w // r)


def _channel_shuffle(x: np.ndarray, groups: int) -> np.ndarray:
    n, c, *rest = x.shape
    y = x.reshape(n, groups, c // groups, *rest).swapaxes(1, 2)
    return np.ascontiguousarray(y).reshape(x.shape)


class PixelShuffleNode(Function):
    __slots__ = ()
    name = "PixelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, r):
        ctx.aux = r
        return _pixel_shuffle(x, r)

    @staticmethod
    def backward(ctx, g):
        r = ctx.aux
        return (PixelUnshuffleNode.apply(g, r) if isinstance(g, Tensor) else _pixel_unshuffle(g, r),)


class PixelUnshuffleNode(Function):
    __slots__ = ()
    name = "PixelUnshuffleBackward0"

    @staticmethod
    def forward(ctx, x, r):
        ctx.aux = r
        return _pixel_unshuffle(x, r)

    @staticmethod
    def backward(ctx, g):
        r = ctx.aux
        return (PixelShuffleNode.apply(g, r) if isinstance(g, Tensor) else _pixel_shuffle(g, r),)


class ChannelShuffleNode(Function):
    __slots__ = ()
    name = "ChannelShuffleBackward0"

    @staticmethod
    def forward(ctx, x, groups):
        ctx.aux = x.shape[1] // groups
        return _channel_shuffle(x, groups)

    @staticmethod
    def backward(ctx, g):
        back = ctx.aux  # the inverse permutation: channel_shuffle by C / groups
        return (ChannelShuffleNode.apply(g, back) if isinstance(g, Tensor) else _channel_shuffle(g, back),)


def pixel_shuffle(input, upscale_factor):
    r = int(upscale_factor)
    if input.ndim < 3:
        raise TorchRuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                                f"{input.ndim} dimension(s)")
    if r <= 0:
        raise TorchRuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c = input.shape[-3]
    if c % (r * r):
        raise TorchRuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                                f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    return PixelShuffleNode.apply(input, r)


def pixel_unshuffle(input, downscale_factor):
    r = int(downscale_factor)
    if input.ndim < 3:
        raise TorchRuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                                f"{input.ndim} dimension(s)")
    if r <= 0:
        raise TorchRuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    for what, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % r:
            raise TorchRuntimeError(f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                                    f"input.size({dim})={input.shape[dim]} is not divisible by {r}")
    return PixelUnshuffleNode.apply(input, r)


def channel_shuffle(input, groups):
    g = int(groups)
    if input.ndim <= 2:
        raise TorchRuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                                f"{list(input.shape)}")
    if g <= 0:
        raise TorchRuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{g}")
    if input.shape[1] % g:
        raise TorchRuntimeError(f"Number of channels must be divisible by groups. Got {input.shape[1]} channels "
                                f"and {g} groups.")
    return ChannelShuffleNode.apply(input, g)


class PixelShuffle(Module):
    def __init__(self, upscale_factor: int):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor: int):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    def __init__(self, groups: int):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


def relu_(input):
    return registry_op("relu")(input, inplace=True)


def elu_(input, alpha=1.0):
    return registry_op("elu")(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return registry_op("leaky_relu")(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return registry_op("hardtanh")(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    return registry_op("threshold")(input, threshold, value, inplace=True)


def celu_(input, alpha=1.0):
    return registry_op("celu")(input, alpha, inplace=True)


def selu_(input):
    return registry_op("selu")(input, inplace=True)


SHUFFLE_FUNCTIONS = {fn.__name__: fn for fn in (pixel_shuffle, pixel_unshuffle, channel_shuffle, relu_, elu_,
                                                leaky_relu_, hardtanh_, threshold_, celu_, selu_)}
SHUFFLE_FUNCTIONS["native_channel_shuffle"] = channel_shuffle
SHUFFLE_CLASSES = {cls.__name__: cls for cls in (PixelShuffle, PixelUnshuffle, ChannelShuffle)}
SHUFFLE_FILES = {"PixelShuffle": "pixelshuffle", "PixelUnshuffle": "pixelshuffle", "ChannelShuffle": "channelshuffle"}
SHUFFLE_SETTINGS = {"PixelShuffle": frozenset({"upscale_factor"}), "PixelUnshuffle": frozenset({"downscale_factor"}),
                    "ChannelShuffle": frozenset({"groups"})}
