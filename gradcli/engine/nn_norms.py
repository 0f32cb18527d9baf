"""torch.nn's RMSNorm (ATen's rms_norm: pow, mean, add_, rsqrt, mul, as layer_norm.cpp composes it),
LocalResponseNorm and LPPool1d/2d (torch.nn.functional's Python compositions, op for op), with torch's printed forms.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import creation, nn_layers
from gradcli.engine.errors import TorchRuntimeError, TorchValueError
from gradcli.engine.modules import Module, Parameter, registry_op


def _op(name):
    return registry_op(name)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    shape = tuple(int(s) for s in normalized_shape) if isinstance(normalized_shape, (tuple, list)) else \
        (int(normalized_shape),)
    n = len(shape)
    if input.ndim < n:
        raise TorchValueError(f"Input tensor must have at least {n} dimensions, but got {input.ndim}")
    if n == 0 or tuple(input.shape[input.ndim - n:]) != shape:
        raise TorchRuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                                f"[*{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if weight is not None and tuple(weight.shape) != shape:
        raise TorchRuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                                f"{list(weight.shape)} and normalized_shape = {list(shape)}")
    if eps is None:
        eps = float(np.finfo(input.array.dtype).eps)  # std::numeric_limits<opmath_t>::epsilon()
    dims = [input.ndim - i - 1 for i in range(n)]
    rsqrt = input.pow(2).mean(dims, keepdim=True).add_(eps).rsqrt()
    result = input.mul(rsqrt)
    return result.mul(weight) if weight is not None else result


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine: bool = True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(creation.ones(*self.normalized_shape, dtype=nn_layers.factory_dtype(dtype)))
        else:
            self.register_parameter("weight", None)

    def forward(self, x):
        return rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


def local_response_norm(input, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
    dim = input.ndim
    if dim < 3:
        raise TorchValueError(f"Expected 3D or higher dimensionality                          input (got {dim} "
                              "dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = _op("pad")(div, (0, 0, size // 2, (size - 1) // 2))
        div = _op("avg_pool2d")(div, (size, 1), stride=1).squeeze(1)
    else:  # torch: avg_pool3d with a (size, 1, 1) kernel: the same window sums as a 2-D pool over the flat rest
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], -1)
        div = _op("pad")(div, (0, 0, size // 2, (size - 1) // 2))
        div = _op("avg_pool2d")(div, (size, 1), stride=1).squeeze(1)
        div = div.view(*sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


class LocalResponseNorm(Module):
    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


def _lp_pool(nd: int, input, norm_type, kernel_size, stride=None, ceil_mode=False):
    max_pool, avg_pool = _op(f"max_pool{nd}d"), _op(f"avg_pool{nd}d")
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    if nd == 2:
        kw, kh = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size, kernel_size)
        scale = kw * kh
    else:
        scale = kernel_size
    return (_op("sign")(out) * _op("relu")(_op("abs")(out))).mul(scale).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(1, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(2, input, norm_type, kernel_size, stride, ceil_mode)


class _LPPoolNd(Module):
    _nd = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode: bool = False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return _lp_pool(self._nd, input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    _nd = 1


class LPPool2d(_LPPoolNd):
    _nd = 2


NORM_FUNCTIONS = {fn.__name__: fn for fn in (rms_norm, local_response_norm, lp_pool1d, lp_pool2d)}
NORM_CLASSES = {cls.__name__: cls for cls in (RMSNorm, LocalResponseNorm, LPPool1d, LPPool2d)}
nn_layers.LAYER_CLASSES.update(NORM_CLASSES)
nn_layers.LAYER_FILES.update({"RMSNorm": "normalization", "LocalResponseNorm": "normalization",
                              "LPPool1d": "pooling", "LPPool2d": "pooling"})
nn_layers.LAYER_SETTINGS.update({"RMSNorm": frozenset({"normalized_shape", "eps", "elementwise_affine", "weight"}),
                                 "LocalResponseNorm": frozenset({"size", "alpha", "beta", "k"}),
                                 **dict.fromkeys(("LPPool1d", "LPPool2d"),
                                                 frozenset({"norm_type", "kernel_size", "stride", "ceil_mode"}))})
