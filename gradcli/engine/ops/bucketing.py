"""searchsorted, bucketize and isin: index and membership lookups without a gradient, as ATen's CPU kernels
(Bucketization.cpp, TensorCompare.cpp) compute them: both operands compared in their promoted dtype, int64
results (int32 with out_int32=True), a number input giving a 0-d result."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def _array(value) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(value.array)
    return np.asarray(value, dtype=dtypes.result_type(value))


def _promoted(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    common = dtypes.promote_types(a.dtype, b.dtype)
    return a.astype(common, copy=False), b.astype(common, copy=False)


def _side(right, side, fn: str) -> str:
    if side is not None:
        if side not in ("left", "right"):
            raise TorchRuntimeError(f"{fn}: side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise TorchRuntimeError(f"{fn}: side and right can't be set to opposites, got side of left while "
                                    "right was True")
        return side
    return "right" if right else "left"


def _search(boundaries: np.ndarray, values: np.ndarray, side: str) -> np.ndarray:
    if boundaries.ndim <= 1:
        return np.searchsorted(boundaries.reshape(-1), values, side=side)
    rows_b = boundaries.reshape(-1, boundaries.shape[-1])
    rows_v = values.reshape(rows_b.shape[0], -1)
    out = np.stack([np.searchsorted(b, v, side=side) for b, v in zip(rows_b, rows_v)]) if len(rows_b) else \
        np.zeros(rows_v.shape, np.int64)
    return out.reshape(values.shape)


def _result(index: np.ndarray, out_int32: bool) -> Tensor:
    return Tensor._make(np.asarray(index, dtype=np.int32 if out_int32 else np.int64), None)


@register("searchsorted", sig="searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, "
          "sorter=None)", doc="where each value would be inserted to keep the innermost dim sorted (int64)",
          category="no-gradient", method=False)
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):  # noqa: A002
    if not isinstance(sorted_sequence, Tensor):
        raise TorchTypeError("searchsorted(): argument 'sorted_sequence' (position 1) must be Tensor, not "
                             f"{type(sorted_sequence).__name__}")
    side = _side(right, side, "torch.searchsorted()")
    boundaries, values = _array(sorted_sequence), _array(input)
    if sorter is not None:
        if not isinstance(sorter, Tensor) or sorter.dtype.name != "int64" or tuple(sorter.shape) != boundaries.shape:
            raise TorchRuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype and the same size "
                                    "as the boundaries tensor")
        boundaries = np.take_along_axis(boundaries, np.asarray(sorter.array), axis=-1)
    if boundaries.ndim > 1 and (values.ndim != boundaries.ndim or values.shape[:-1] != boundaries.shape[:-1]):
        raise TorchRuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
            "tensor and input value tensor must match, but we got boundaries tensor "
            f"[{', '.join(map(str, boundaries.shape))}] and input value tensor [{', '.join(map(str, values.shape))}]")
    boundaries, values = _promoted(boundaries, values)
    return _result(_search(boundaries, values, side), out_int32)


@register("bucketize", sig="bucketize(input, boundaries, *, out_int32=False, right=False)",
          doc="the bucket of each value among 1-D boundaries (int64)", category="no-gradient", method=False)
def bucketize(input, boundaries, *, out_int32=False, right=False):  # noqa: A002
    if not isinstance(boundaries, Tensor):
        raise TorchTypeError("bucketize(): argument 'boundaries' (position 2) must be Tensor, not "
                             f"{type(boundaries).__name__}")
    if boundaries.ndim != 1:
        raise TorchRuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    bounds, values = _promoted(_array(boundaries), _array(input))
    return _result(np.searchsorted(bounds, values, side="right" if right else "left"), out_int32)


@register("isin", sig="isin(elements, test_elements, *, assume_unique=False, invert=False)",
          doc="whether each element is among test_elements (bool)", category="no-gradient", method=False)
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TorchTypeError(
            f"isin() received an invalid combination of arguments - got ({type(elements).__name__}, "
            f"{type(test_elements).__name__}), but expected one of:\n"
            " * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = False, "
            "Tensor out = None)\n"
            " * (Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = False, "
            "Tensor out = None)\n"
            " * (Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = False, "
            "Tensor out = None)\n")
    a, b = _promoted(_array(elements), _array(test_elements))
    found = np.isin(a, b.reshape(-1), invert=bool(invert))
    return Tensor._make(np.asarray(found, dtype=bool), None)
