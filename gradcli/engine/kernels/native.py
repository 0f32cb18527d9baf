"""The optional compiled kernels: native_sum.c (torch's summation order; cumsum and cumprod), built by setup.py
into this package as _native_sum.<platform suffix>.so when a C compiler is at hand, loaded here with ctypes on
first use.

As PyYAML's and msgpack's C speedups: nothing depends on it.  When the library was not built (no compiler,
a failed build, a source checkout), or GRADCLI_NATIVE=0 is set, `sum_kernels()` returns None and
engine/sum_order.py computes the same bits with numpy.  Tests switch it off with `ENABLED`."""

from __future__ import annotations

import importlib.machinery
import os
from pathlib import Path

import numpy as np

ENABLED = os.environ.get("GRADCLI_NATIVE", "1").strip() != "0"
ABI = 2  # gradcli_sum_abi() of the native_sum.c this module calls
CUM_MIN = 1024  # elements: below, numpy's cumsum costs less than the call
_LOADED: list = []  # [the kernels or None], filled on first use


def library_path() -> Path | None:
    """The built library in this package's directory, or None."""
    here = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = here / f"_native_sum{suffix}"
        if path.is_file():
            return path
    return None


def _load():
    path = library_path()
    if path is None:
        return None
    import ctypes  # late: ctypes costs start-up time, and only large sums need it

    try:
        lib = ctypes.CDLL(str(path))
        lib.gradcli_sum_abi.restype = ctypes.c_int64
        if lib.gradcli_sum_abi() != ABI:
            return None
    except (OSError, AttributeError):  # a library of another platform or version: the numpy path
        return None
    kernels = {"sum": {}, "cum": {}}
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    for itemsize, dtype in ((4, "float32"), (8, "float64")):
        fn = getattr(lib, f"gradcli_sum_{dtype}")
        fn.restype = i64
        fn.argtypes = [ptr, ptr, i64, ptr, ptr, ptr, i64, i64]
        kernels["sum"][itemsize] = fn
        fn = getattr(lib, f"gradcli_cum_{dtype}")
        fn.restype = i64
        fn.argtypes = [ptr, ptr, i64, i64, i64, i64, i64, ptr, ptr, ptr]
        kernels["cum"][itemsize] = fn
    return kernels


def sum_kernels():
    """{itemsize: the C function gradcli_sum_<dtype>} when the library is built and enabled, else None.
    Each is serial_for_each over a range of a reduction's iteration: (input, output, ndim, sizes,
    input strides, output strides (bytes, innermost dim first, as int64 arrays), begin, end)."""
    if not ENABLED:
        return None
    if not _LOADED:
        _LOADED.append(_load())
    return _LOADED[0] and _LOADED[0]["sum"]


_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)  # in this machine's byte order


def cumulative(x: np.ndarray, axis: int, product: bool):
    """torch's cumsum (product False) or cumprod of x along axis, float32 and float64 (cpu_cum_base_kernel: each
    slice's running value in double from 0 or 1, each step rounded to x's dtype), C-contiguous as torch's result;
    None when the library is not there or for what it does not take (other dtypes, broadcast or misaligned
    arrays: numpy computes the same)."""
    if not ENABLED:
        return None
    if not _LOADED:
        _LOADED.append(_load())
    if not _LOADED[0] or type(x) is not np.ndarray or not x.ndim or (x.dtype != _F32 and x.dtype != _F64) \
            or not x.flags.aligned or not all(x.strides) or not x.size:
        return None
    fn = _LOADED[0]["cum"][x.itemsize]
    out = np.empty(x.shape, x.dtype)
    axis %= x.ndim
    lanes = sorted((d for d in range(x.ndim) if d != axis), key=lambda d: abs(x.strides[d]))  # innermost first
    fn(x.ctypes.data, out.ctypes.data, int(product), x.shape[axis], x.strides[axis], out.strides[axis], len(lanes),
       int64_array([x.shape[d] for d in lanes]), int64_array([x.strides[d] for d in lanes]),
       int64_array([out.strides[d] for d in lanes]))
    return out


def int64_array(values):
    """values as a C int64 array (kept by the caller for as long as the call may use it)."""
    import ctypes

    return (ctypes.c_int64 * max(1, len(values)))(*values)
