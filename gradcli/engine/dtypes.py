"""PyTorch dtypes over numpy dtypes, and PyTorch's type-promotion rules.

numpy and PyTorch disagree on promotion (numpy: int64 array * 2.5 -> float64; torch: float32, the default
dtype), so binary ops ask `result_type` here instead of trusting numpy.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.state import ContextAttribute


class DType:
    __slots__ = ("name", "np", "is_floating_point", "is_integer", "itemsize")

    def __init__(self, name: str, np_dtype):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = self.np.kind == "f"
        self.is_integer = self.np.kind in "iu"
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (by_name, (self.name,))


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
bool_ = DType("bool", np.bool_)

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool_)
_BY_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update({"float": float32, "double": float64, "half": float16, "long": int64, "int": int32,
                 "short": int16})


def by_name(name: str) -> DType:
    return _BY_NAME[name]


def of_array(array: np.ndarray) -> DType:
    return _BY_NP[array.dtype]


def of_numpy(np_dtype: np.dtype) -> DType:
    return _BY_NP[np.dtype(np_dtype)]


class _DefaultsType:
    # torch.get_default_dtype(): what Python floats and float-producing ops on integers become; a context
    # variable, so each thread and each API call has its own (run's float32, eval's float64)
    float_dtype = ContextAttribute("default_dtype", float32)


_Defaults = _DefaultsType()


def get_default_dtype() -> DType:
    return _Defaults.float_dtype


def set_default_dtype(dtype: DType) -> None:
    _Defaults.float_dtype = dtype


def _category(np_dtype: np.dtype) -> int:
    kind = np_dtype.kind
    return 0 if kind == "b" else 2 if kind == "f" else 1


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """torch.promote_types: like numpy, except that an integer meeting a float yields that float."""
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca == 2 and cb != 2:
        return a
    if cb == 2 and ca != 2:
        return b
    return np.promote_types(a, b)


def _scalar_dtype(value) -> np.dtype:
    if isinstance(value, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(value, (int, np.integer)):
        return np.dtype(np.int64)
    return _Defaults.float_dtype.np


def _combine(higher, lower):
    # c10's combine_categories: a group with higher priority wins unless a lower one has a higher category.
    if higher is None:
        return lower
    if lower is None or higher.kind == "f":
        return higher
    if higher.kind == "b" or lower.kind == "f":
        return promote_types(higher, lower)
    return higher


def result_type(*operands) -> np.dtype:
    """torch.result_type over numpy arrays (tensors) and Python numbers (wrapped scalars)."""
    dim_result = zero_result = wrapped_result = None
    for op in operands:
        if isinstance(op, np.ndarray):
            if op.ndim:
                dim_result = op.dtype if dim_result is None else promote_types(dim_result, op.dtype)
            else:
                zero_result = op.dtype if zero_result is None else promote_types(zero_result, op.dtype)
        elif op is not None:
            dt = _scalar_dtype(op)
            wrapped_result = dt if wrapped_result is None else promote_types(wrapped_result, dt)
    return _combine(dim_result, _combine(zero_result, wrapped_result))
