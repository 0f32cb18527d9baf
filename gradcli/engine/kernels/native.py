"""The optional compiled kernels: native_sum.c (torch's summation order) and native_sleef.c (SLEEF's powf, as
torch's vector lanes compute it), built by setup.py into this package as _native_sum / _native_sleef
.<platform suffix>.so when a C compiler is at hand, loaded here with ctypes on first use.

As PyYAML's and msgpack's C speedups: nothing depends on them.  When a library was not built (no compiler,
a failed build, a source checkout), or GRADCLI_NATIVE=0 is set, `sum_kernels()` and `sleef_powf()` return None
and engine/sum_order.py and kernels/float32.py compute the same bits with numpy.  Tests switch them off with
`ENABLED`."""

from __future__ import annotations

import importlib.machinery
import os
from pathlib import Path

ENABLED = os.environ.get("GRADCLI_NATIVE", "1").strip() != "0"
ABI = 1  # gradcli_sum_abi() of the native_sum.c this module calls
SLEEF_ABI = 1  # gradcli_sleef_abi() of native_sleef.c
_LOADED: list = []  # [the kernels or None], filled on first use
_SLEEF: list = []


def library_path(name: str = "_native_sum") -> Path | None:
    """The built library `name` in this package's directory, or None."""
    here = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = here / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


def _open(name: str, abi_function: str, abi: int):
    """The library `name` through ctypes when it is built for this platform and speaks `abi`, else None."""
    path = library_path(name)
    if path is None:
        return None
    import ctypes  # late: ctypes costs start-up time, and only large sums need it

    try:
        lib = ctypes.CDLL(str(path))
        check = getattr(lib, abi_function)
        check.restype = ctypes.c_int64
        if check() != abi:
            return None
    except (OSError, AttributeError):  # a library of another platform or version: the numpy path
        return None
    return lib


def _load():
    lib = _open("_native_sum", "gradcli_sum_abi", ABI)
    if lib is None:
        return None
    import ctypes

    kernels = {}
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    for itemsize, name in ((4, "gradcli_sum_float32"), (8, "gradcli_sum_float64")):
        fn = getattr(lib, name)
        fn.restype = i64
        fn.argtypes = [ptr, ptr, i64, ptr, ptr, ptr, i64, i64]
        kernels[itemsize] = fn
    return kernels


def sum_kernels():
    """{itemsize: the C function gradcli_sum_<dtype>} when the library is built and enabled, else None.
    Each is serial_for_each over a range of a reduction's iteration: (input, output, ndim, sizes,
    input strides, output strides (bytes, innermost dim first, as int64 arrays), begin, end)."""
    if not ENABLED:
        return None
    if not _LOADED:
        _LOADED.append(_load())
    return _LOADED[0]


def int64_array(values):
    """values as a C int64 array (kept by the caller for as long as the call may use it)."""
    import ctypes

    return (ctypes.c_int64 * max(1, len(values)))(*values)


def sleef_powf():
    """SLEEF's powf over arrays, `f(x, y)` for float32 arrays of one shape (or y a float32 number), when the
    library is built and enabled, else None."""
    if not ENABLED:
        return None
    if not _SLEEF:
        _SLEEF.append(_load_sleef())
    return _SLEEF[0]


def _load_sleef():
    lib = _open("_native_sleef", "gradcli_sleef_abi", SLEEF_ABI)
    if lib is None:
        return None
    import ctypes

    import numpy as np

    fn = lib.gradcli_sleef_powf
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    fn.restype = None
    fn.argtypes = [ptr, i64, ptr, i64, ptr, i64]

    def powf(x, y):
        x = np.ascontiguousarray(x, dtype=np.float32)
        y = np.ascontiguousarray(y, dtype=np.float32)
        out = np.empty(x.shape, dtype=np.float32)
        y_step = 0 if y.size == 1 else 1
        if y_step and y.shape != x.shape:
            raise ValueError("sleef_powf: x and y differ in shape")
        fn(x.ctypes.data, 1, y.ctypes.data, y_step, out.ctypes.data, x.size)
        return out

    return powf
