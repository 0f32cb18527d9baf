"""torch.nn's layers beyond Linear: convolutions, pooling, normalisation, Embedding, Upsample, Bilinear, the
dropout family beyond Dropout (ATen's _dropout_impl: feature and alpha dropout) and the recurrent layers (RNN,
LSTM, GRU and their cells).

Each is torch's class: the same constructor arguments and defaults, the same initialisation drawn from the
default generator in torch's order (so `torch.manual_seed(0); nn.Conv2d(1, 6, 5)` holds PyTorch's numbers),
the same printed form, and a forward that is the registry's functional op (F.conv2d, F.batch_norm ...).
"""

from __future__ import annotations

import math

from gradcli.engine import creation, dtypes, nn_padding, nn_shuffle, state
from gradcli.engine.autograd import no_grad
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.modules import (
    Module,
    Parameter,
    calculate_fan_in_and_fan_out,
    factory_dtype,
    kaiming_uniform_,
    normal_,
    registry_op,
    uniform_,
)
from gradcli.engine.tensor import Tensor


def _tuple(value, n: int) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,) * n


class _ConvNd(Module):
    _nd = 2
    _transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None,
                 output_padding=0):
        super().__init__()
        n = self._nd
        if self._transposed and padding_mode != "zeros":
            raise TorchValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        if groups <= 0:
            raise TorchValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise TorchValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise TorchValueError("out_channels must be divisible by groups")
        if isinstance(padding, str) and not self._transposed:
            if padding not in ("same", "valid"):
                raise TorchValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in _tuple(stride, n)):
                raise TorchValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            # torch prints a set literal: its order is Python's string hashing (PYTHONHASHSEED), this the source's
            raise TorchValueError("padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, but "
                                  f"got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _tuple(kernel_size, n)
        self.stride = _tuple(stride, n)
        self.padding = padding if isinstance(padding, str) and not self._transposed else _tuple(padding, n)
        self.dilation = _tuple(dilation, n)
        self.transposed = self._transposed
        self.output_padding = _tuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        if isinstance(self.padding, str):  # torch's _reversed_padding_repeated_twice, for F.pad
            self.reversed_padding = [0, 0] * n
            if self.padding == "same":
                for d, k, i in zip(self.dilation, self.kernel_size, range(n - 1, -1, -1)):
                    total = d * (k - 1)
                    self.reversed_padding[2 * i] = total // 2
                    self.reversed_padding[2 * i + 1] = total - total // 2
        else:
            self.reversed_padding = [p for p in reversed(self.padding) for _ in range(2)]
        dt = factory_dtype(dtype)
        shape = ((in_channels, out_channels // groups) if self._transposed else
                 (out_channels, in_channels // groups))
        self.weight = Parameter(creation.empty(*shape, *self.kernel_size, dtype=dt, device=device))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, dtype=dt, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                uniform_(self.bias, -bound, bound)

    def forward(self, input):
        conv = registry_op(f"conv{self._nd}d")
        if self.padding_mode != "zeros":
            padded = registry_op("pad")(input, self.reversed_padding, mode=self.padding_mode)
            return conv(padded, self.weight, self.bias, self.stride, (0,) * self._nd, self.dilation, self.groups)
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if isinstance(self.padding, str) or self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    _nd = 1


class Conv2d(_ConvNd):
    _nd = 2


class Conv3d(_ConvNd):
    _nd = 3


class _ConvTransposeNd(_ConvNd):
    """torch's ConvTranspose1d/2d/3d: the weight is (in, out / groups, k...), the constructor's argument order
    is (..., padding, output_padding, groups, bias, dilation, padding_mode), and a call may name the exact
    `output_size` (torch's _output_padding turns it into the output padding, or says which sizes are reachable)."""

    _transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, output_padding=output_padding)

    def output_padding_for(self, input, output_size) -> tuple:
        """torch's _ConvTransposeNd._output_padding."""
        n = self._nd
        if output_size is None:
            return self.output_padding
        _check_tensor(input, "input")
        batched = input.ndim == n + 2
        non_spatial = 2 if batched else 1
        sizes = output_size
        if len(sizes) == non_spatial + n:
            sizes = output_size[non_spatial:]
        if len(sizes) != n:
            raise TorchValueError(f"ConvTranspose{n}D: for {input.ndim}D input, output_size must have {n} or "
                                  f"{non_spatial + n} elements (got {len(sizes)})")
        min_sizes = [(input.shape[d + non_spatial] - 1) * self.stride[d] - 2 * self.padding[d]
                     + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        max_sizes = [m + s - 1 for m, s in zip(min_sizes, self.stride)]
        for size, lo, hi in zip(sizes, min_sizes, max_sizes):
            if size < lo or size > hi:
                raise TorchValueError(f"requested an output size of {_sequence_repr(sizes)}, but valid sizes range "
                                      f"from {min_sizes} to {max_sizes} (for an input of "
                                      f"{_sequence_repr(input.size()[2:])})")
        return tuple(int(size) - lo for size, lo in zip(sizes, min_sizes))

    def forward(self, input, output_size=None):
        if self.padding_mode != "zeros":
            raise TorchValueError(f"Only `zeros` padding mode is supported for ConvTranspose{self._nd}d")
        output_padding = self.output_padding_for(input, output_size)
        return registry_op(f"conv_transpose{self._nd}d")(input, self.weight, self.bias, self.stride, self.padding,
                                                        output_padding, self.groups, self.dilation)


def _sequence_repr(value) -> str:
    """A list's or a torch.Size's printed form (an error text shows what the program passed)."""
    return repr(list(value)) if isinstance(value, list) else str(value)


class ConvTranspose1d(_ConvTransposeNd):
    _nd = 1


class ConvTranspose2d(_ConvTransposeNd):
    _nd = 2


class ConvTranspose3d(_ConvTransposeNd):
    _nd = 3


class _MaxPoolNd(Module):
    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False,
                 ceil_mode: bool = False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return registry_op(f"max_pool{self._nd}d")(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                           ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _nd = 1


class MaxPool2d(_MaxPoolNd):
    _nd = 2


class _AvgPoolNd(Module):
    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        if self._nd == 2:
            self.divisor_override = divisor_override

    def forward(self, input):
        extra = {"divisor_override": self.divisor_override} if self._nd == 2 else {}
        return registry_op(f"avg_pool{self._nd}d")(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                           self.count_include_pad, **extra)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    _nd = 1

    def extra_repr(self) -> str:  # torch's AvgPool1d keeps its sizes as 1-tuples
        return (f"kernel_size={_tuple(self.kernel_size, 1)}, stride={_tuple(self.stride, 1)}, "
                f"padding={_tuple(self.padding, 1)}")


class AvgPool2d(_AvgPoolNd):
    _nd = 2


class _BatchNorm(Module):
    _dims: tuple = (2, 3)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum=0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *, bias: bool = True):
        super().__init__()
        dt = factory_dtype(dtype)
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(creation.ones(num_features, dtype=dt, device=device))
            if bias:
                self.bias = Parameter(creation.zeros(num_features, dtype=dt, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", creation.zeros(num_features, dtype=dt, device=device))
            self.register_buffer("running_var", creation.ones(num_features, dtype=dt, device=device))
            self.register_buffer("num_batches_tracked", creation.tensor(0, dtype=_long(), device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def _check_input_dim(self, input) -> None:
        if input.ndim not in self._dims:
            wanted = " or ".join(f"{d}D" for d in self._dims)
            raise TorchValueError(f"expected {wanted} input (got {input.ndim}D input)")

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked.item()) if self.momentum is None else self.momentum
        bn_training = True if self.training else (self.running_mean is None and self.running_var is None)
        use_stats = not self.training or self.track_running_stats
        return registry_op("batch_norm")(input, self.running_mean if use_stats else None,
                                 self.running_var if use_stats else None, self.weight, self.bias, bn_training,
                                 factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


def _long():
    return dtypes.by_name("int64")


class BatchNorm1d(_BatchNorm):
    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    _dims = (4,)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None):
        super().__init__()
        dt = factory_dtype(dtype)
        self.normalized_shape = tuple(normalized_shape) if isinstance(normalized_shape, (list, tuple)) else \
            (int(normalized_shape),)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(creation.ones(*self.normalized_shape, dtype=dt, device=device))
            if bias:
                self.bias = Parameter(creation.zeros(*self.normalized_shape, dtype=dt, device=device))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return registry_op("layer_norm")(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    """torch.nn.GroupNorm: F.group_norm with per-channel weight (ones) and bias (zeros) when affine."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None,
                 dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise TorchValueError("num_channels must be divisible by num_groups")
        dt = factory_dtype(dtype)
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(creation.ones(num_channels, dtype=dt, device=device))
            self.bias = Parameter(creation.zeros(num_channels, dtype=dt, device=device))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return registry_op("group_norm")(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class _InstanceNorm(_BatchNorm):
    """torch.nn.InstanceNorm1d/2d: F.instance_norm, with torch's defaults (no affine, no running statistics)."""

    _no_batch_dim = 2

    def __init__(self, num_features: int, eps: float = 1e-5, momentum=0.1, affine: bool = False,
                 track_running_stats: bool = False, device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.ndim - self._no_batch_dim
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise TorchValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                      f"({self.num_features}), but got: {input.shape[feature_dim]}.")
            state.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                       "warning by not passing in num_features, which is not used because affine=False",
                       UserWarning)
        if input.ndim == self._no_batch_dim:
            return registry_op("squeeze")(self._apply(registry_op("unsqueeze")(input, 0)), 0)
        return self._apply(input)

    def _apply(self, input):
        return registry_op("instance_norm")(input, self.running_mean, self.running_var, self.weight, self.bias,
                                            self.training or not self.track_running_stats,
                                            self.momentum if self.momentum is not None else 0.0, self.eps)


class InstanceNorm1d(_InstanceNorm):
    _dims = (2, 3)
    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    _dims = (3, 4)
    _no_batch_dim = 3


class _AdaptivePool2d(Module):
    _op = ""

    def __init__(self, output_size, return_indices: bool = False):
        super().__init__()
        self.output_size = output_size
        if self._op == "adaptive_max_pool2d":
            self.return_indices = return_indices

    def forward(self, input):
        if self._op == "adaptive_max_pool2d":
            return registry_op(self._op)(input, self.output_size, self.return_indices)
        return registry_op(self._op)(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(_AdaptivePool2d):
    _op = "adaptive_avg_pool2d"


class AdaptiveMaxPool2d(_AdaptivePool2d):
    _op = "adaptive_max_pool2d"


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return registry_op("interpolate")(input, self.size, self.scale_factor, self.mode, self.align_corners,
                                          recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class Bilinear(Module):
    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True, device=None,
                 dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        dt = factory_dtype(dtype)
        self.weight = Parameter(creation.empty(out_features, in1_features, in2_features, dtype=dt))
        if bias:
            self.bias = Parameter(creation.empty(out_features, dtype=dt))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.in1_features <= 0:
            raise TorchValueError(f"in1_features must be > 0, but got (in1_features={self.in1_features})")
        bound = 1 / math.sqrt(self.weight.shape[1])
        uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return registry_op("bilinear")(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class Embedding(Module):
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx=None, max_norm=None,
                 norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False, _weight=None,
                 _freeze: bool = False, device=None, dtype=None):
        super().__init__()
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = num_embeddings + padding_idx
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise TorchValueError("gradcli run's nn.Embedding supports neither max_norm, scale_grad_by_freq nor "
                                  "sparse: use the plain nn.Embedding(num_embeddings, embedding_dim, padding_idx)")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if _weight is None:
            self.weight = Parameter(creation.empty(num_embeddings, embedding_dim, dtype=factory_dtype(dtype),
                                                   device=device),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input):
        return registry_op("embedding")(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s

    @classmethod
    def from_pretrained(cls, embeddings, freeze: bool = True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        if embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, _weight=embeddings, _freeze=freeze, padding_idx=padding_idx)


class _DropoutModule(Module):
    """torch.nn's _DropoutNd: p (checked) and inplace; forward is the functional form in the module's mode."""

    functional = None  # the F form, called (input, p, training, inplace)

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        if p < 0 or p > 1:
            raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return type(self).functional(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


def dropout_impl(input, p: float, training: bool, inplace: bool, feature: bool, alpha: bool):
    """ATen's _dropout_impl (Dropout.cpp): the input itself when not training, p == 0 or empty; times a 0-d
    zero when p == 1; else a noise tensor (the input's shape, or (N, C, 1, ...) for feature dropout) filled
    by bernoulli_(1 - p) from torch's generator, divided by 1 - p and multiplied in; alpha dropout scales it by
    a = 1 / sqrt((alpha^2 p + 1)(1 - p)) and adds b = (noise - 1) * alpha a + alpha a p (SELU's alpha)."""
    if p < 0.0 or p > 1.0:
        raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if feature and input.ndim < 2:
        raise TorchRuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        zero = creation.zeros((), dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2) if feature else tuple(input.shape)
    noise = creation.empty(*shape, dtype=input.dtype)
    noise.bernoulli_(1 - p)
    if alpha:
        selu_alpha = 1.7580993408473766
        a = 1.0 / math.sqrt((selu_alpha * selu_alpha * p + 1) * (1 - p))
        b = noise.add(-1).mul_(selu_alpha * a).add_(selu_alpha * a * p)
        noise.mul_(a)
        return (input.mul_(noise) if inplace else input * noise).add_(b)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def _unbatched_feature_dropout(input, p, training, inplace, batched: bool):
    """F.dropout1d / dropout3d: an unbatched input is seen as a batch of one (noise per channel)."""
    if batched:
        return dropout_impl(input, p, training, inplace, True, False)
    if inplace:  # torch unsqueezes the input in place and squeezes it back: the same values, in place
        if not training or p == 0 or input.numel() == 0:
            return input
        shape = (1,) + tuple(input.shape)
        dropout_impl(input.view(*shape), p, training, True, True, False)
        return input
    return dropout_impl(input.unsqueeze(0), p, training, False, True, False).squeeze(0)


def _check_p(p) -> None:
    if p < 0.0 or p > 1.0:
        raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """F.dropout1d: channel-wise dropout of (N, C, L) or (C, L) inputs."""
    _check_p(p)
    if input.ndim not in (2, 3):
        raise TorchRuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that dropout1d exists to "
            "provide channel-wise dropout on inputs with 1 spatial dimension, a channel dimension, and an optional "
            "batch dimension (i.e. 2D or 3D inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, input.ndim == 3)


def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """F.dropout2d: torch's feature dropout, one bernoulli_(1 - p) draw per (batch, channel)."""
    _check_p(p)
    if input.ndim not in (3, 4):
        state.warn(f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is deprecated and will "
                      "result in an error in a future release. To retain the behavior and silence this warning, "
                      "please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on "
                      "inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension "
                      "(i.e. 3D or 4D inputs).", UserWarning, stacklevel=3)
    if input.ndim == 3:
        state.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.", UserWarning, stacklevel=3)
    return dropout_impl(input, p, training, inplace, True, False)


def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False):
    """F.dropout3d: channel-wise dropout of (N, C, D, H, W) or (C, D, H, W) inputs."""
    _check_p(p)
    if input.ndim not in (4, 5):
        state.warn(f"dropout3d: Received a {input.ndim}-D input to dropout3d, which is deprecated and will result "
                   "in an error in a future release. To retain the behavior and silence this warning, please use "
                   "dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 "
                   "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D "
                   "inputs).", UserWarning, stacklevel=3)
    return _unbatched_feature_dropout(input, p, training, inplace, input.ndim == 5)


def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """F.alpha_dropout (SELU-preserving dropout; eval by default, as torch's)."""
    _check_p(p)
    return dropout_impl(input, p, training, inplace, False, True)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):
    """F.feature_alpha_dropout: alpha dropout of whole channels."""
    _check_p(p)
    return dropout_impl(input, p, training, inplace, True, True)


class Dropout1d(_DropoutModule):
    functional = staticmethod(dropout1d)


class Dropout2d(_DropoutModule):
    functional = staticmethod(dropout2d)


class Dropout3d(_DropoutModule):
    functional = staticmethod(dropout3d)


class AlphaDropout(_DropoutModule):
    functional = staticmethod(lambda input, p, training, inplace: alpha_dropout(input, p, training))


class FeatureAlphaDropout(_DropoutModule):
    functional = staticmethod(lambda input, p, training, inplace: feature_alpha_dropout(input, p, training))


DROPOUT_FUNCTIONS = {fn.__name__: fn for fn in (dropout1d, dropout2d, dropout3d, alpha_dropout,
                                                 feature_alpha_dropout)}


def _check_tensor(value, what: str) -> None:
    if not isinstance(value, Tensor):
        raise TorchTypeError(f"{what} must be a Tensor, not {type(value).__name__}")


LAYER_CLASSES = {cls.__name__: cls for cls in (
    Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d,
    MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, BatchNorm1d, BatchNorm2d, LayerNorm, GroupNorm,
    InstanceNorm1d, InstanceNorm2d, AdaptiveAvgPool2d, AdaptiveMaxPool2d, Embedding, Upsample, UpsamplingNearest2d,
    UpsamplingBilinear2d, Bilinear,
    Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout)}
# the file of torch.nn.modules each class lives in (its printed class name is torch.nn.modules.<file>.<name>)
LAYER_FILES = {**dict.fromkeys(("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
                                "ConvTranspose3d"), "conv"), "MaxPool1d": "pooling", "MaxPool2d": "pooling",
               "AvgPool1d": "pooling", "AvgPool2d": "pooling", "BatchNorm1d": "batchnorm", "BatchNorm2d": "batchnorm",
               "LayerNorm": "normalization", "GroupNorm": "normalization", "Embedding": "sparse",
               "InstanceNorm1d": "instancenorm", "InstanceNorm2d": "instancenorm",
               "AdaptiveAvgPool2d": "pooling", "AdaptiveMaxPool2d": "pooling", "Bilinear": "linear",
               **dict.fromkeys(("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"), "upsampling"),
               **dict.fromkeys(("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"),
                               "dropout")}
# the attributes of each layer a program may read (model.conv1.weight, bn.running_mean ...)
LAYER_SETTINGS = {
    **{name: frozenset({"in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation", "groups",
                        "padding_mode", "weight", "bias", "output_padding", "transposed"})
       for name in ("Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")},
    **{name: frozenset({"kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"})
       for name in ("MaxPool1d", "MaxPool2d")},
    **{name: frozenset({"kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"})
       for name in ("AvgPool1d", "AvgPool2d")},
    **{name: frozenset({"num_features", "eps", "momentum", "affine", "track_running_stats", "weight", "bias",
                        "running_mean", "running_var", "num_batches_tracked"}) for name in (
        "BatchNorm1d", "BatchNorm2d", "InstanceNorm1d", "InstanceNorm2d")},
    "LayerNorm": frozenset({"normalized_shape", "eps", "elementwise_affine", "weight", "bias"}),
    "GroupNorm": frozenset({"num_groups", "num_channels", "eps", "affine", "weight", "bias"}),
    "Embedding": frozenset({"num_embeddings", "embedding_dim", "padding_idx", "weight", "from_pretrained"}),
    **dict.fromkeys(("Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"), frozenset(
        {"name", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"})),
    "Bilinear": frozenset({"in1_features", "in2_features", "out_features", "weight", "bias"}),
    **dict.fromkeys(("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"),
                    frozenset({"p", "inplace"})),
}


# -- recurrent layers ---------------------------------------------------------------------------------------

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _linear(x, weight, bias):
    return registry_op("linear")(x, weight, bias)


def _rnn_cell(mode: str, input_w, hidden, w_hh, b_hh):
    """One step of ATen's cell (aten/src/ATen/native/RNN.cpp) given the input's projection `input_w`
    (W_ih x + b_ih, computed for the whole sequence on a CPU): the hidden projection added to it, the gates."""
    if mode == "LSTM":
        hx, cx = hidden
        gates = _linear(hx, w_hh, b_hh) + input_w
        i, f, g, o = gates.chunk(4, 1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        cy = f * cx + i * g
        return o * cy.tanh(), cy
    if mode == "GRU":
        ir, iz, inn = input_w.chunk(3, 1)
        hr, hz, hn = _linear(hidden, w_hh, b_hh).chunk(3, 1)
        reset = (hr + ir).sigmoid()
        update = (hz + iz).sigmoid()
        new = (inn + hn * reset).tanh()
        return (hidden - new) * update + new
    pre = _linear(hidden, w_hh, b_hh) + input_w
    return pre.tanh() if mode == "RNN_TANH" else pre.relu()


_RENAMED_NODES: dict = {}


def _renamed(cls, name: str):
    """A node class computing as `cls` does, named as torch names the node of the kernel it runs there (an
    LSTM's output comes from oneDNN's kernel, a batch_first output from an in-place transpose_)."""
    if (cls, name) not in _RENAMED_NODES:
        _RENAMED_NODES[cls, name] = type(name.removesuffix("Backward0").removesuffix("Backward1"), (cls,),
                                         {"__slots__": (), "name": name})
    return _RENAMED_NODES[cls, name]


class _RNNBase(Module):
    _mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None, nonlinearity: str | None = None):
        super().__init__()
        if proj_size:
            raise TorchValueError("gradcli run's recurrent layers have no projections: proj_size is not supported")
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise TorchValueError("dropout should be a number in range [0, 1] representing the probability of an "
                                  "element being zeroed")
        if hidden_size <= 0:
            raise TorchValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise TorchValueError("num_layers must be greater than zero")
        if dropout > 0 and num_layers == 1:
            state.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", UserWarning, stacklevel=3)
        self.mode = self._mode
        if nonlinearity is not None:
            self.nonlinearity = nonlinearity
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bool(bidirectional)
        self.proj_size = 0
        gate = _GATES[self.mode] * hidden_size
        dt = factory_dtype(dtype)
        directions = ("", "_reverse") if self.bidirectional else ("",)
        for layer in range(num_layers):  # torch's order: layer by layer, each direction's four tensors
            layer_input = input_size if layer == 0 else hidden_size * len(directions)
            for suffix in directions:
                name = f"l{layer}{suffix}"
                self.register_parameter(f"weight_ih_{name}",
                                        Parameter(creation.empty(gate, layer_input, dtype=dt, device=device)))
                self.register_parameter(f"weight_hh_{name}",
                                        Parameter(creation.empty(gate, hidden_size, dtype=dt, device=device)))
                if bias:
                    self.register_parameter(f"bias_ih_{name}", Parameter(creation.empty(gate, dtype=dt, device=device)))
                    self.register_parameter(f"bias_hh_{name}", Parameter(creation.empty(gate, dtype=dt, device=device)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            uniform_(weight, -stdv, stdv)

    def _layer_parameters(self, layer: int, suffix: str = ""):
        get = self.own_attributes().get
        name = f"l{layer}{suffix}"
        return get(f"weight_ih_{name}"), get(f"weight_hh_{name}"), get(f"bias_ih_{name}"), get(f"bias_hh_{name}")

    def forward(self, input, hx=None):
        lstm = self.mode == "LSTM"
        batched = input.ndim == 3
        if input.ndim not in (2, 3):
            raise TorchValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got {input.ndim}D "
                                  "instead")
        if not batched:
            input = input.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        batch = input.shape[1]
        directions = ("", "_reverse") if self.bidirectional else ("",)
        states = self.num_layers * len(directions)
        if hx is None:
            zeros = creation.zeros(states, batch, self.hidden_size, dtype=input.dtype)
            hx = (zeros, creation.zeros(states, batch, self.hidden_size, dtype=input.dtype)) if lstm else zeros
        elif not batched:
            hx = tuple(h.unsqueeze(1) for h in hx) if lstm else hx.unsqueeze(1)
        layer_input = input
        finals_h, finals_c = [], []
        for layer in range(self.num_layers):
            direction_outputs = []
            for d, suffix in enumerate(directions):  # the reverse direction reads the sequence from its end
                w_ih, w_hh, b_ih, b_hh = self._layer_parameters(layer, suffix)
                k = layer * len(directions) + d
                hidden = (hx[0][k], hx[1][k]) if lstm else hx[k]
                projected = _linear(layer_input, w_ih, b_ih)
                steps = range(layer_input.shape[0])
                outputs = []
                for t in reversed(steps) if suffix else steps:
                    hidden = _rnn_cell(self.mode, projected[t], hidden, w_hh, b_hh)
                    outputs.append(hidden[0] if lstm else hidden)
                if suffix:
                    outputs.reverse()
                direction_outputs.append(registry_op("stack")(outputs, 0))
                finals_h.append(hidden[0] if lstm else hidden)
                if lstm:
                    finals_c.append(hidden[1])
            layer_output = direction_outputs[0] if len(directions) == 1 else \
                registry_op("cat")(direction_outputs, 2)  # torch's bidirectional output: CatBackward0
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_output = registry_op("dropout")(layer_output, self.dropout, True)
            layer_input = layer_output
        output = layer_input
        if lstm and not self.bidirectional and output.grad_fn is not None and str(output.dtype) == "torch.float32":
            # torch runs a float32 LSTM on a CPU through oneDNN: the output's node is named after that kernel
            output.grad_fn.__class__ = _renamed(type(output.grad_fn), "MkldnnRnnLayerBackward0")
        h_n = registry_op("stack")(finals_h, 0)
        if lstm:
            c_n = registry_op("stack")(finals_c, 0)
        if not batched:
            output = output.squeeze(1)
            h_n = h_n.squeeze(1)
            if lstm:
                c_n = c_n.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
            if output.grad_fn is not None and not lstm:  # ATen transposes its output in place: transpose_
                output.grad_fn.__class__ = _renamed(type(output.grad_fn), "TransposeBackward1")
        return (output, (h_n, c_n)) if lstm else (output, h_n)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(_RNNBase):
    def __init__(self, *args, nonlinearity: str = "tanh", **kwargs):
        if len(args) > 3:
            nonlinearity = args[3]
            args = args[:3] + args[4:]
        if nonlinearity not in ("tanh", "relu"):
            raise TorchValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self._mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(*args, nonlinearity=nonlinearity, **kwargs)


class LSTM(_RNNBase):
    _mode = "LSTM"


class GRU(_RNNBase):
    _mode = "GRU"


class _RNNCellBase(Module):
    _mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        if self._mode.startswith("RNN"):
            if nonlinearity not in ("tanh", "relu"):
                raise TorchValueError(f"Unknown nonlinearity: {nonlinearity}")
            self.nonlinearity = nonlinearity
        gate = _GATES[self._mode] * hidden_size
        dt = factory_dtype(dtype)
        self.weight_ih = Parameter(creation.empty(gate, input_size, dtype=dt, device=device))
        self.weight_hh = Parameter(creation.empty(gate, hidden_size, dtype=dt, device=device))
        if bias:
            self.bias_ih = Parameter(creation.empty(gate, dtype=dt, device=device))
            self.bias_hh = Parameter(creation.empty(gate, dtype=dt, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        stdv = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
        for weight in self.parameters():
            uniform_(weight, -stdv, stdv)

    def forward(self, input, hx=None):
        batched = input.ndim == 2
        if input.ndim not in (1, 2):
            raise TorchValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.ndim}D "
                                  "instead")
        if not batched:
            input = input.unsqueeze(0)
        lstm = self._mode == "LSTM"
        if hx is None:
            zeros = creation.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
            hx = (zeros, creation.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)) if lstm else zeros
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if lstm else hx.unsqueeze(0)
        mode = self._mode if not self._mode.startswith("RNN") else \
            ("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU")
        out = _rnn_cell(mode, _linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh, self.bias_hh)
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if lstm else out.squeeze(0)
        return out

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(_RNNCellBase):
    _mode = "RNN_TANH"


class LSTMCell(_RNNCellBase):
    _mode = "LSTM"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, device=device, dtype=dtype)


class GRUCell(_RNNCellBase):
    _mode = "GRU"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, device=device, dtype=dtype)


RECURRENT_CLASSES = {cls.__name__: cls for cls in (RNN, LSTM, GRU, RNNCell, LSTMCell, GRUCell)}
LAYER_CLASSES.update(RECURRENT_CLASSES)
LAYER_FILES.update({name: "rnn" for name in RECURRENT_CLASSES})
LAYER_SETTINGS.update({name: frozenset({"input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                                        "bidirectional", "proj_size", "mode", "nonlinearity", "weight_ih",
                                        "weight_hh", "bias_ih", "bias_hh"} | {f"{kind}_l{k}{suffix}" for kind in (
                                            "weight_ih", "weight_hh", "bias_ih", "bias_hh") for k in range(4)
                                            for suffix in ("", "_reverse")})
                       for name in RECURRENT_CLASSES})

LAYER_CLASSES.update(nn_padding.PADDING_CLASSES)
LAYER_CLASSES.update(nn_padding.DISTANCE_CLASSES)
LAYER_FILES.update(nn_padding.PADDING_FILES)
LAYER_SETTINGS.update(nn_padding.PADDING_SETTINGS)
LAYER_CLASSES.update(nn_shuffle.SHUFFLE_CLASSES)
LAYER_FILES.update(nn_shuffle.SHUFFLE_FILES)
LAYER_SETTINGS.update(nn_shuffle.SHUFFLE_SETTINGS)
