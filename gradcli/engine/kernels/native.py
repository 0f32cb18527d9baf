"""The optional compiled kernels: native_sum.c (torch's summation order), built by setup.py into this package as
_native_sum.<platform suffix>.so when a C compiler is at hand, loaded here with ctypes on first use.

As PyYAML's and msgpack's C speedups: nothing depends on it.  When the library was not built (no compiler,
a failed build, a source checkout), or GRADCLI_NATIVE=0 is set, `sum_kernels()` returns None and
engine/sum_order.py computes the same bits with numpy.  Tests switch it off with `ENABLED`."""

from __future__ import annotations

import importlib.machinery
import os
from pathlib import Path

ENABLED = os.environ.get("GRADCLI_NATIVE", "1").strip() != "0"
ABI = 1  # gradcli_sum_abi() of the native_sum.c this module calls
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
