"""torch.nn's 1-d and 3-d adaptive pools, the `_with_indices` forms of F's max pools, BatchNorm3d and
InstanceNorm3d: each is torch's composition of kernels gradcli has (ATen's adaptive_avg_pool1d is
adaptive_avg_pool2d on input.unsqueeze(-2), squeezed back: SqueezeBackward1), with torch's checks and printed form.
"""

from __future__ import annotations

from gradcli.engine import nn_layers
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.modules import Module, registry_op
from gradcli.engine.nn_layers import BatchNorm2d, InstanceNorm2d


def _check_1d(name: str, input, output_size) -> int:
    if input.ndim not in (2, 3):
        raise TorchRuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument "
                                f"#1 'self' (while checking arguments for {name})")
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (output_size,)
    if len(sizes) != 1:
        raise TorchRuntimeError(f"{name}() argument 'output_size' should contain one int (got {len(sizes)})")
    return int(sizes[0])


def adaptive_avg_pool1d(input, output_size):
    size = _check_1d("adaptive_avg_pool1d", input, output_size)
    return registry_op("adaptive_avg_pool2d")(input.unsqueeze(-2), (1, size)).squeeze(-2)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    size = _check_1d("adaptive_max_pool1d", input, output_size)
    for d in range(1, input.ndim):
        if input.shape[d] == 0:
            raise TorchRuntimeError("adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
                                    f"dimensions, but input has sizes {list(input.shape)} with dimension {d} being "
                                    "empty")
    out, indices = registry_op("adaptive_max_pool2d")(input.unsqueeze(-2), (1, size), True)
    return out.squeeze(-2), indices.squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out = adaptive_max_pool1d_with_indices(input, output_size)
    return out if return_indices else out[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return registry_op("adaptive_max_pool2d")(input, output_size, True)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return registry_op("max_pool1d")(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return registry_op("max_pool2d")(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


class AdaptiveAvgPool1d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(AdaptiveAvgPool1d):
    def __init__(self, output_size, return_indices: bool = False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input):
        return adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool3d(AdaptiveAvgPool1d):
    def forward(self, input):
        return registry_op("adaptive_avg_pool3d")(input, self.output_size)


class BatchNorm3d(BatchNorm2d):
    _dims = (5,)


class InstanceNorm3d(InstanceNorm2d):
    _dims = (4, 5)
    _no_batch_dim = 4


POOLING_FUNCTIONS = {fn.__name__: fn for fn in (
    adaptive_avg_pool1d, adaptive_max_pool1d, adaptive_max_pool1d_with_indices, adaptive_max_pool2d_with_indices,
    max_pool1d_with_indices, max_pool2d_with_indices)}
POOLING_CLASSES = {cls.__name__: cls for cls in (AdaptiveAvgPool1d, AdaptiveMaxPool1d, AdaptiveAvgPool3d, BatchNorm3d,
                                                InstanceNorm3d)}
POOLING_FILES = {"AdaptiveAvgPool1d": "pooling", "AdaptiveMaxPool1d": "pooling", "AdaptiveAvgPool3d": "pooling",
                 "BatchNorm3d": "batchnorm", "InstanceNorm3d": "instancenorm"}
_NORM = frozenset({"num_features", "eps", "momentum", "affine", "track_running_stats", "weight", "bias",
                   "running_mean", "running_var", "num_batches_tracked"})
POOLING_SETTINGS = {"AdaptiveAvgPool1d": frozenset({"output_size"}), "AdaptiveAvgPool3d": frozenset({"output_size"}),
                    "AdaptiveMaxPool1d": frozenset({"output_size", "return_indices"}),
                    "BatchNorm3d": _NORM, "InstanceNorm3d": _NORM}

# registered beside nn_layers' own (this module builds on them, so it adds itself)
nn_layers.LAYER_CLASSES.update(POOLING_CLASSES)
nn_layers.LAYER_FILES.update(POOLING_FILES)
nn_layers.LAYER_SETTINGS.update(POOLING_SETTINGS)
