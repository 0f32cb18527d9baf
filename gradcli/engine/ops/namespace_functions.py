"""Functions of torch's namespace that torch builds from other ops (torch/functional.py, ATen's composite
kernels), each recording what those ops record: atleast_1d/2d/3d (reshape: ViewBackward0, unsqueeze:
UnsqueezeBackward0, the input itself where it has the dims already), broadcast_tensors (expand, the input itself
where its shape is the result's), nonzero / argwhere (int64 indices, no gradient), scalar_tensor and the
deprecated range (end included)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, state
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def _tensors(tensors, fn: str) -> tuple[list, bool]:
    """atleast_Nd's arguments: one tensor, several, or one tuple/list of them (returned as a tuple)."""
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TorchTypeError(f"{fn}(): argument 'tensors' must be tuple of Tensors, not {type(t).__name__}")
    return list(tensors), single


def _atleast(fn: str, grow):
    def op(*tensors):
        items, single = _tensors(tensors, fn)
        results = tuple(grow(t) for t in items)
        return results[0] if single else results

    op.__name__ = fn
    return op


def _grow_1d(t):
    return t.reshape(1) if t.ndim == 0 else t


def _grow_2d(t):
    if t.ndim == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t.ndim == 1 else t


def _grow_3d(t):
    if t.ndim == 0:
        return t.reshape(1, 1, 1)
    if t.ndim == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.ndim == 2 else t


for _name, _grow in (("atleast_1d", _grow_1d), ("atleast_2d", _grow_2d), ("atleast_3d", _grow_3d)):
    register(_name, sig=f"{_name}(*tensors)", doc=f"each tensor viewed with at least {_name[-2]} dims",
             category="shape", method=False)(_atleast(_name, _grow))


@register("broadcast_tensors", sig="broadcast_tensors(*tensors)", doc="the tensors expanded to their common shape",
          category="shape", method=False)
def broadcast_tensors(*tensors):
    items = list(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)) else list(tensors)
    for t in items:
        if not isinstance(t, Tensor):
            raise TorchTypeError(f"broadcast_tensors(): argument 'tensors' must be tuple of Tensors, not "
                                 f"{type(t).__name__}")
    shape: tuple = ()
    for t in items:
        a, b = list(shape), list(t.shape)
        ndim = max(len(a), len(b))
        a, b = [1] * (ndim - len(a)) + a, [1] * (ndim - len(b)) + b
        for i in range(ndim):
            if a[i] != b[i] and a[i] != 1 and b[i] != 1:
                raise TorchRuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                                        f"at non-singleton dimension {i}")
        shape = tuple(b[i] if a[i] == 1 else a[i] for i in range(ndim))
    return tuple(t if tuple(t.shape) == shape else t.expand(*shape) for t in items)


def _nonzero_indices(x) -> np.ndarray:
    array = np.asarray(x.array)
    if array.ndim == 0:
        return np.zeros((1 if array != 0 else 0, 0), dtype=np.int64)
    return np.argwhere(array).astype(np.int64)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """torch.scalar_tensor: a 0-d tensor of the default float type (whatever the number), or of dtype."""
    if isinstance(s, Tensor) or not isinstance(s, (bool, int, float, np.number)):
        raise TorchTypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not {type(s).__name__}")
    dtype = dtypes.get_default_dtype() if dtype is None else dtype
    out = Tensor._make(np.asarray(s, dtype=np.float64).astype(dtype.np) if not isinstance(s, bool)
                       else np.asarray(s).astype(dtype.np), None)
    return out.requires_grad_(True) if requires_grad else out


RANGE_WARNING = ("torch.range is deprecated and will be removed in a future release because its behavior is "
                 "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                 "[start, end).")


def deprecated_range(start=0, end=None, step=1, *, dtype=None, layout=None, device=None, requires_grad=False):
    """torch.range (deprecated: it warns as torch's): start, start + step ... up to end included, in the default
    float type unless dtype; each value start + i * step computed in double, then cast (ATen's range)."""
    state.warn(RANGE_WARNING, UserWarning)
    if end is None:
        start, end = 0, start
    for name, value in (("start", start), ("end", end), ("step", step)):
        if isinstance(value, Tensor):
            value = value.item()
        if not isinstance(value, (int, float, np.number)):
            raise TorchTypeError(f"range(): argument '{name}' must be Number, not {type(value).__name__}")
    start, end, step = (float(v.item() if isinstance(v, Tensor) else v) for v in (start, end, step))
    if step == 0:
        raise TorchRuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise TorchRuntimeError(f"unsupported range: {start} -> {end}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise TorchRuntimeError("upper bound and larger bound inconsistent with step sign")
    size = int(math.floor((end - start) / step)) + 1
    dtype = dtypes.get_default_dtype() if dtype is None else dtype
    if dtype.is_floating_point:
        values = (start + np.arange(size, dtype=np.float64) * step).astype(dtype.np)
    else:
        values = (int(start) + np.arange(size, dtype=np.int64) * int(step)).astype(dtype.np)
    out = Tensor._make(values, None)
    return out.requires_grad_(True) if requires_grad else out


def get_device(input) -> int:  # noqa: A002 - torch's names
    """torch.get_device: -1 for a CPU tensor (gradcli's every tensor)."""
    if not isinstance(input, Tensor):
        raise TorchTypeError(f"get_device(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return -1


FUNCTIONS = {"scalar_tensor": scalar_tensor, "range": deprecated_range, "get_device": get_device}
