"""The C library's own scalar math functions, for results torch's CPU kernels get by calling them one element
at a time: calc_digamma's logf and tan, trigamma's sinf and sin (aten/src/ATen/native/Math.h).  glibc's float
functions are not correctly rounded (its logf differs from the correctly rounded value on about 0.08% of
arguments, its sinf on about 1.4% of those trigamma reflects), and numpy's own float64 tan and sin differ from
glibc's too; calling the library torch calls gives its bits.  Where no C math library can be loaded (or it
lacks the function), the value numpy computes in double, rounded once, stands in."""

from __future__ import annotations

import itertools
import math

import numpy as np

from gradcli.engine.kernels import native

_FUNCTIONS: dict[tuple[str, type], object] = {}
_BLOCK = 1 << 16
_LIBRARY: list = []
_KNOWN_NAMES = ("libm.so.6", "libSystem.B.dylib")  # glibc's and macOS's, loaded without a search


def _library():
    """The C math library, loaded on first use (ctypes and its search cost start-up time otherwise)."""
    if not _LIBRARY:
        import ctypes

        library = None
        for name in _KNOWN_NAMES:
            try:
                library = ctypes.CDLL(name)
                break
            except OSError:
                continue
        if library is None:
            import ctypes.util

            found = ctypes.util.find_library("m")
            try:
                library = ctypes.CDLL(found) if found else None
            except OSError:
                library = None
        _LIBRARY.append(library)
    return _LIBRARY[0]


def _function(name: str, dtype):
    """(the ctypes function, its numpy ufunc) of the C library's `name` for `dtype` (its float variant for
    float32), or None where the library lacks it."""
    key = (name, dtype)
    if key not in _FUNCTIONS:
        import ctypes

        c_name, c_type = (name + "f", ctypes.c_float) if dtype == np.float32 else (name, ctypes.c_double)
        fn = getattr(_library(), c_name, None) if _library() is not None else None
        if fn is not None:
            fn.restype, fn.argtypes = c_type, [c_type]
            fn = (fn, np.frompyfunc(fn, 1, 1))
        _FUNCTIONS[key] = fn
    return _FUNCTIONS[key]


def call_in_double(name: str, x: np.ndarray):
    """The C library's double `name` of every element of a float32 or float64 array (float32 widened, the result
    rounded once to float32): what Python's math module computes on each element.  None where the compiled map
    (kernels/native.py) or the function is missing: the caller maps math.`name` itself."""
    mapper = native.map_function()
    fn = _function(name, np.float64) if mapper is not None and x.dtype in (np.float32, np.float64) else None
    if fn is None:
        return None
    return mapper(fn[0], x, through_double=x.dtype == np.float32)


_FMA: dict[type, object] = {}


def scalar_fma(a, b, c, dtype):
    """The C library's fma (fmaf for float32) of three numbers of `dtype`: a * b + c rounded once, exactly as
    the FMA instruction rounds it (glibc's fma is correctly rounded); None where the library has no fma."""
    if dtype not in _FMA:
        import ctypes

        c_name, c_type = ("fmaf", ctypes.c_float) if dtype == np.float32 else ("fma", ctypes.c_double)
        fn = getattr(_library(), c_name, None)
        if fn is not None:
            fn.restype, fn.argtypes = c_type, [c_type, c_type, c_type]
        _FMA[dtype] = fn
    fn = _FMA[dtype]
    return None if fn is None else dtype(fn(float(a), float(b), float(c)))


_POW: dict[type, object] = {}


def scalar_pow(x, y, dtype):
    """The C library's pow (powf for float32) of two numbers of `dtype`, as std::pow computes it on scalars;
    Python's ** in double, rounded once, where the library cannot be loaded."""
    if dtype not in _POW:
        import ctypes

        c_name, c_type = ("powf", ctypes.c_float) if dtype == np.float32 else ("pow", ctypes.c_double)
        fn = getattr(_library(), c_name, None) if _library() is not None else None
        if fn is not None:
            fn.restype, fn.argtypes = c_type, [c_type, c_type]
        _POW[dtype] = fn
    fn = _POW[dtype]
    if fn is None:
        with np.errstate(all="ignore"):
            return dtype(np.power(np.float64(x), np.float64(y)))
    return dtype(fn(float(x), float(y)))


def call(name: str, x: np.ndarray) -> np.ndarray:
    """libm's `name` (its float variant for float32) on every element of x (float32 or float64)."""
    x = np.asarray(x)
    fn = _function(name, x.dtype.type)
    if fn is None:
        with np.errstate(all="ignore"):
            return getattr(np, name)(x.astype(np.float64)).astype(x.dtype)
    mapper = native.map_function()
    if mapper is not None and x.dtype in (np.float32, np.float64):  # the same function from a compiled loop
        return mapper(fn[0], x)
    if x.size <= _BLOCK:
        return np.array(fn[1](x), dtype=x.dtype)
    flat, out = x.reshape(-1), np.empty(x.size, dtype=x.dtype)
    for start in range(0, flat.size, _BLOCK):  # a Python float object per element: bound the memory
        out[start:start + _BLOCK] = fn[1](flat[start:start + _BLOCK])
    return out.reshape(x.shape)


def pow_array(x: np.ndarray, exponent: float) -> np.ndarray:
    """The C library's pow (powf for float32) of every element of a float32/float64 array and one exponent (of the
    array's dtype), as a scalar loop of std::pow computes it (ATen's NormOps).  float64: math.pow, which is the
    library's pow, element by element (the library itself, one ctypes call each, where math.pow would raise:
    zeros, non-finite values, overflow).  float32: the power in double, rounded once, is powf's result except near
    a rounding midpoint (powf is within 2**-10 ulp of the exact power, numpy's double power far closer) or where
    it is not finite; those elements (about 4 in 100) go to powf itself."""
    x = np.ascontiguousarray(x)  # (the redone elements are written through a flat view of the result)
    dtype = x.dtype.type
    y = dtype(exponent)
    if dtype == np.float64:
        flat = x.reshape(-1)
        with np.errstate(all="ignore"):
            risky = ~np.isfinite(flat) | (flat == 0) | (np.abs(np.log2(np.abs(flat)) * float(y)) > 1000)
        out = np.empty(flat.size, dtype)
        safe = np.flatnonzero(~risky)
        out[safe] = list(map(math.pow, flat[safe].tolist(), itertools.repeat(float(y), safe.size)))
        where = np.flatnonzero(risky)
        out[where] = [scalar_pow(v, y, dtype) for v in flat[where].tolist()]
        return out.reshape(x.shape)
    with np.errstate(all="ignore"):
        high = np.power(x.astype(np.float64), np.float64(y))
        out = high.astype(dtype)
        gap = np.abs(high - out.astype(np.float64)) / np.spacing(np.abs(out)).astype(np.float64)
        redo = ~np.isfinite(high) | ~np.isfinite(gap) | (np.abs(gap - 0.5) < 2e-2) | (x == 0)
    if redo.any():
        flat_out, flat_x, where = out.reshape(-1), x.reshape(-1), np.flatnonzero(redo)
        flat_out[where] = [scalar_pow(v, y, dtype) for v in flat_x[where].tolist()]
    return out
