"""The optional compiled kernels: native_sum.c (torch's summation order; cumsum and cumprod) and native_math.c (fused
multiply-adds, SLEEF's powf as torch's vector lanes compute it), built by setup.py into this package as
_native_sum / _native_math .<platform suffix>.so when a C compiler is at hand, loaded here with ctypes on first
use.

As PyYAML's and msgpack's C speedups: nothing depends on them. When a library was not built (no compiler, a failed
build, a source checkout), or GRADCLI_NATIVE=0 is set, `sum_kernels()`, `fma()`, `sleef_exp()` and `sleef_powf()`
return None and engine/sum_order.py, kernels/fused.py, sleef.py, float32.py, mkl_exp.py, mkl_sqrt.py and libm.py
compute the same bits with numpy. Tests switch them off with `ENABLED`."""

from __future__ import annotations

import importlib.machinery
import os
from pathlib import Path

import numpy as np

ENABLED = os.environ.get("GRADCLI_NATIVE", "1").strip() != "0"
ABI = 2  # gradcli_sum_abi() of the native_sum.c this module calls
CUM_MIN = 1024  # elements: below, numpy's cumsum costs less than the call
MATH_ABI = 8  # gradcli_math_abi() of native_math.c
_LOADED: list = []  # [the kernels or None], filled on first use
_MATH: list = []


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


def sleef_powf():
    """SLEEF's powf over arrays, `f(x, y)` for float32 arrays of one shape (or y one float32 number), when the
    library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["powf"]


def sleef_exp():
    """SLEEF's exp over a float32 or float64 array, `f(x)`, when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["exp"]


def mkl_exp():
    """MKL's vector exp (VML_HA) over a float32 or float64 array, `f(x, hi, lo)` with mkl_exp.py's table of
    2**(j/n), when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["mkl_exp"]


def mkl_sqrt():
    """MKL's vector sqrt (VML_HA) over a float32 or float64 array, `f(x, seeds)` with mkl_sqrt.py's 8192 rsqrt
    estimates, when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["mkl_sqrt"]


def map_function():
    """`f(function, x, through_double=False)`: out[i] = function(x[i]) over a float32 or float64 array in C, for
    a ctypes function of the C library (float -> float for float32, double -> double for float64; with
    through_double a double function of float32 values, rounded to float32), when the library is built and
    enabled, else None."""
    math = _math()
    return None if math is None else math["map"]


def mkl_trig():
    """{"sin": f, "cos": f}: MKL's float32 sin and cos over a float32 array for the lanes with |x| <= 10000 (the
    others are the caller's), when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["trig"]


def squared_deviations():
    """`f(x, mean)`: the sum of (x[i] - mean)**2 in double, one element after another from 0.0, over a
    contiguous float32 or float64 array, when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["squared_deviations"]


def welford():
    """`f(rows)`: ATen's Welford mean and sum of squares in double along each row of a 2-D float32/float64
    array (ops/aggregates.py's variance over dims), as (mean, m2) arrays, when the library is built and
    enabled, else None."""
    math = _math()
    return None if math is None else math["welford"]


def rowwise_moments():
    """`f(rows)`: torch's RowwiseMoments (mean, biased variance) of each row of a 2-D float32/float64 array in
    its dtype (kernels/moments.py), when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["rowwise_moments"]


def layer_norm_affine():
    """`f(rows, mean, rstd, weight, bias)`: layer_norm's output from each row's mean and rstd, as torch's second
    pass computes it (weight, bias: 1-D or None), when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["layer_norm_affine"]


def batch_norm():
    """{"image": f(x3, mean, squares), "rows": f(x2, threads, mean, squares), "output": f(x3, alpha, beta, out)}:
    batch_norm's statistics and output step (kernels/moments.py) over contiguous float32/float64 arrays viewed as
    (N, C, image) or (N, C), when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["batch_norm"]


def group_norm():
    """{"affine": f(x3, scale, shift), "sums": f(dy3, x3, fuse_tail), "dx": f(dy3, x3, c1, c2, c3)}: group_norm's
    affine step, its backward's per-plane sums (ds, db) and its input gradient (kernels/moments.py) over contiguous
    float32/float64 arrays viewed as (planes, image) with per-plane coefficients, when the library is built and
    enabled, else None."""
    math = _math()
    return None if math is None else math["group_norm"]


def layer_norm_buffers():
    """`f(dy, x, mean, rstd, threads, need_gamma, need_beta)`: layer_norm's backward per-thread buffers of weight's
    and bias's gradients (kernels/moments.py), (threads, n) arrays or None, when the library is built and
    enabled, else None."""
    math = _math()
    return None if math is None else math["layer_norm_buffers"]


def fma():
    """The fused multiply-add over arrays, `f(a, b, c)` for arrays of one float dtype (float32 or float64) that
    broadcast together, when the library is built and enabled, else None."""
    math = _math()
    return None if math is None else math["fma"]


def _math():
    if not ENABLED:
        return None
    if not _MATH:
        _MATH.append(_load_math())
    return _MATH[0]


def _load_math():
    lib = _open("_native_math", "gradcli_math_abi", MATH_ABI)
    if lib is None:
        return None
    import ctypes

    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    for name in ("gradcli_sleef_powf", "gradcli_fma_float32", "gradcli_fma_float64", "gradcli_sleef_expf",
                 "gradcli_sleef_exp"):
        getattr(lib, name).restype = None
    lib.gradcli_sleef_powf.argtypes = [ptr, i64, ptr, i64, ptr, i64]
    lib.gradcli_sleef_expf.argtypes = lib.gradcli_sleef_exp.argtypes = [ptr, ptr, i64]
    exp_functions = {np.dtype(np.float32): lib.gradcli_sleef_expf, np.dtype(np.float64): lib.gradcli_sleef_exp}
    for name in ("gradcli_mkl_exp_float32", "gradcli_mkl_exp_float64", "gradcli_mkl_sqrt_float32",
                 "gradcli_mkl_sqrt_float64"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, ptr, i64, ptr, ptr] if "exp" in name else [ptr, ptr, i64, ptr]
    for name in ("gradcli_map_float64", "gradcli_map_float32", "gradcli_map_float_through_double"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, ptr, ptr, i64]
    for name in ("gradcli_mkl_sin_float32", "gradcli_mkl_cos_float32"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, ptr, i64]
    for name in ("gradcli_squared_deviations_float32", "gradcli_squared_deviations_float64"):
        getattr(lib, name).restype = ctypes.c_double
        getattr(lib, name).argtypes = [ptr, i64, ctypes.c_double]
    for name in ("gradcli_welford_float32", "gradcli_welford_float64"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, i64, i64, i64, i64, ptr, ptr]
    for name in ("gradcli_rowwise_moments_float32", "gradcli_rowwise_moments_float64"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, i64, i64, ptr, ptr]
    for name in ("gradcli_layer_norm_affine_float32", "gradcli_layer_norm_affine_float64"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, i64, i64, ptr, ptr, ptr, ptr, ptr]
    affine_functions = {np.dtype(np.float32): lib.gradcli_layer_norm_affine_float32,
                        np.dtype(np.float64): lib.gradcli_layer_norm_affine_float64}
    for name in ("gradcli_layer_norm_buffers_float32", "gradcli_layer_norm_buffers_float64"):
        getattr(lib, name).restype = None
        getattr(lib, name).argtypes = [ptr, ptr, ptr, ptr, i64, i64, i64, ptr, ptr]
    buffer_functions = {np.dtype(np.float32): lib.gradcli_layer_norm_buffers_float32,
                        np.dtype(np.float64): lib.gradcli_layer_norm_buffers_float64}
    batch_norm_functions = {}
    for dtype, suffix in ((np.float32, "float32"), (np.float64, "float64")):
        functions = [getattr(lib, f"gradcli_bn_{part}_{suffix}")
                     for part in ("stats_image", "stats_rows", "output", "plane_sums", "row_sums", "input_grad")]
        functions[0].argtypes = [ptr, i64, i64, i64, ptr, ptr]
        functions[1].argtypes = [ptr, i64, i64, i64, ptr, ptr, ptr]
        functions[2].argtypes = [ptr, i64, i64, i64, ptr, ptr, ptr]
        functions[3].argtypes = [ptr, ptr, ptr, i64, i64, i64, ptr, ptr]
        functions[4].argtypes = [ptr, ptr, ptr, i64, i64, i64, ptr, ptr, ptr]
        functions[5].argtypes = [ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, i64, i64, ptr]
        for function in functions:
            function.restype = None
        batch_norm_functions[np.dtype(dtype)] = functions
    group_norm_functions = {}
    for dtype, suffix in ((np.float32, "float32"), (np.float64, "float64")):
        functions = [getattr(lib, f"gradcli_gn_{part}_{suffix}") for part in ("affine", "sums", "dx")]
        functions[0].argtypes = [ptr, i64, i64, ptr, ptr, ptr]
        functions[1].argtypes = [ptr, ptr, i64, i64, i64, ptr, ptr]
        functions[2].argtypes = [ptr, ptr, i64, i64, ptr, ptr, ptr, ptr]
        for function in functions:
            function.restype = None
        group_norm_functions[np.dtype(dtype)] = functions
    moments_functions = {np.dtype(np.float32): lib.gradcli_rowwise_moments_float32,
                         np.dtype(np.float64): lib.gradcli_rowwise_moments_float64}
    welford_functions = {np.dtype(np.float32): lib.gradcli_welford_float32,
                         np.dtype(np.float64): lib.gradcli_welford_float64}
    deviation_functions = {np.dtype(np.float32): lib.gradcli_squared_deviations_float32,
                           np.dtype(np.float64): lib.gradcli_squared_deviations_float64}
    mkl_exp_functions = {np.dtype(np.float32): lib.gradcli_mkl_exp_float32,
                         np.dtype(np.float64): lib.gradcli_mkl_exp_float64}
    mkl_sqrt_functions = {np.dtype(np.float32): lib.gradcli_mkl_sqrt_float32,
                          np.dtype(np.float64): lib.gradcli_mkl_sqrt_float64}
    fma_functions = {}
    for dtype, name in ((np.float32, "gradcli_fma_float32"), (np.float64, "gradcli_fma_float64")):
        fn = getattr(lib, name)
        fn.argtypes = [ptr, i64, ptr, i64, ptr, i64, ptr, i64]
        fma_functions[np.dtype(dtype)] = fn

    def operand(value, shape, dtype):
        """(a contiguous array, its step): one value repeats with step 0, else the broadcast array."""
        value = np.asarray(value, dtype=dtype)
        if value.size == 1:
            return np.ascontiguousarray(value.reshape(1)), 0
        return np.ascontiguousarray(np.broadcast_to(value, shape)), 1

    # np.ascontiguousarray makes a 0-d array 1-d: every result takes the argument's own shape
    def powf(x, y):
        shape = np.shape(x)
        x = np.ascontiguousarray(x, dtype=np.float32)
        y, y_step = operand(y, shape, np.float32)
        out = np.empty(shape, dtype=np.float32)
        lib.gradcli_sleef_powf(x.ctypes.data, 1, y.ctypes.data, y_step, out.ctypes.data, x.size)
        return out

    def fused_multiply_add(a, b, c):
        dtype = np.result_type(a, b, c)
        shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
        (a, a_step), (b, b_step), (c, c_step) = (operand(v, shape, dtype) for v in (a, b, c))
        out = np.empty(shape, dtype=dtype)
        fma_functions[np.dtype(dtype)](a.ctypes.data, a_step, b.ctypes.data, b_step, c.ctypes.data, c_step,
                                       out.ctypes.data, out.size)
        return out

    def exp(x):
        shape, x = np.shape(x), np.ascontiguousarray(x)
        out = np.empty(shape, dtype=x.dtype)
        exp_functions[x.dtype](x.ctypes.data, out.ctypes.data, x.size)
        return out

    def mkl_exp(x, hi, lo):
        shape, x = np.shape(x), np.ascontiguousarray(x)
        hi, lo = (np.ascontiguousarray(t, dtype=x.dtype) for t in (hi, lo))
        out = np.empty(shape, dtype=x.dtype)
        mkl_exp_functions[x.dtype](x.ctypes.data, out.ctypes.data, x.size, hi.ctypes.data, lo.ctypes.data)
        return out

    def mkl_sqrt(x, seeds):
        shape, x = np.shape(x), np.ascontiguousarray(x)
        seeds = np.ascontiguousarray(seeds, dtype=np.int32)
        out = np.empty(shape, dtype=x.dtype)
        mkl_sqrt_functions[x.dtype](x.ctypes.data, out.ctypes.data, x.size, seeds.ctypes.data)
        return out

    def map_over(function, x, through_double=False):
        shape, x = np.shape(x), np.ascontiguousarray(x)
        out = np.empty(shape, dtype=x.dtype)
        if through_double:
            loop = lib.gradcli_map_float_through_double
        else:
            loop = lib.gradcli_map_float32 if x.dtype == np.float32 else lib.gradcli_map_float64
        loop(ctypes.cast(function, ctypes.c_void_p), x.ctypes.data, out.ctypes.data, x.size)
        return out

    def trig(function):
        def apply(x):
            shape, x = np.shape(x), np.ascontiguousarray(x, dtype=np.float32)
            out = np.empty(shape, dtype=np.float32)
            function(x.ctypes.data, out.ctypes.data, x.size)
            return out
        return apply

    def squared_deviations(x, mean):
        x = np.ascontiguousarray(x)
        return deviation_functions[x.dtype](x.ctypes.data, x.size, float(mean))

    def welford(rows):
        item = rows.itemsize
        if any(s % item for s in rows.strides):
            rows = np.ascontiguousarray(rows)
        mean, m2 = np.empty(rows.shape[0]), np.empty(rows.shape[0])
        welford_functions[rows.dtype](rows.ctypes.data, rows.shape[0], rows.shape[1], rows.strides[0] // item,
                                      rows.strides[1] // item, mean.ctypes.data, m2.ctypes.data)
        return mean, m2

    def rowwise_moments(rows):
        rows = np.ascontiguousarray(rows)
        mean, var = np.empty(rows.shape[0], rows.dtype), np.empty(rows.shape[0], rows.dtype)
        moments_functions[rows.dtype](rows.ctypes.data, rows.shape[0], rows.shape[1], mean.ctypes.data,
                                      var.ctypes.data)
        return mean, var

    def layer_norm_affine(rows, mean, rstd, weight, bias):
        rows = np.ascontiguousarray(rows)
        parts = [np.ascontiguousarray(p, dtype=rows.dtype) if p is not None else None
                 for p in (mean, rstd, weight, bias)]
        out = np.empty(rows.shape, rows.dtype)
        affine_functions[rows.dtype](rows.ctypes.data, rows.shape[0], rows.shape[1],
                                     *(None if p is None else p.ctypes.data for p in parts), out.ctypes.data)
        return out

    def layer_norm_buffers(dy, x, mean, rstd, threads, need_gamma, need_beta):
        dy, x = np.ascontiguousarray(dy), np.ascontiguousarray(x, dtype=dy.dtype)
        mean, rstd = np.ascontiguousarray(mean, dtype=dy.dtype), np.ascontiguousarray(rstd, dtype=dy.dtype)
        gamma = np.zeros((threads, x.shape[1]), dy.dtype) if need_gamma else None
        beta = np.zeros((threads, x.shape[1]), dy.dtype) if need_beta else None
        buffer_functions[dy.dtype](dy.ctypes.data, x.ctypes.data, mean.ctypes.data, rstd.ctypes.data, *x.shape,
                                   threads, None if gamma is None else gamma.ctypes.data,
                                   None if beta is None else beta.ctypes.data)
        return gamma, beta

    def bn_stats_image(x, mean, squares):
        batch_norm_functions[x.dtype][0](x.ctypes.data, *x.shape, mean.ctypes.data, squares.ctypes.data)

    def bn_stats_rows(x, threads, mean, squares):
        buffer = np.empty(threads * x.shape[1], x.dtype)
        batch_norm_functions[x.dtype][1](x.ctypes.data, *x.shape, threads, buffer.ctypes.data, mean.ctypes.data,
                                         squares.ctypes.data)

    def bn_sums(x, dy, mean, threads):
        """(sum of dy, sum of (x - mean) * dy) per channel in double: x, dy contiguous (N, C, image)."""
        rows, channels, image = x.shape
        total, dotp = np.empty(channels), np.empty(channels)
        mean = np.ascontiguousarray(mean, dtype=x.dtype)
        if image > 1:
            batch_norm_functions[x.dtype][3](x.ctypes.data, dy.ctypes.data, mean.ctypes.data, rows, channels, image,
                                             total.ctypes.data, dotp.ctypes.data)
        else:
            buffer = np.empty(2 * channels, x.dtype)
            batch_norm_functions[x.dtype][4](x.ctypes.data, dy.ctypes.data, mean.ctypes.data, rows, channels,
                                             threads, buffer.ctypes.data, total.ctypes.data, dotp.ctypes.data)
        return total, dotp

    def bn_input_grad(x, dy, mean, k, grad_mean, invstd, weight, train):
        """dx of contiguous (N, C, image) x and dy from per-channel arrays of x's dtype (k, grad_mean unused
        in evaluation)."""
        rows, channels, image = x.shape
        out = np.empty_like(x)
        per_channel = [np.ascontiguousarray(a, dtype=x.dtype) for a in (mean, k, grad_mean, invstd, weight)]
        batch_norm_functions[x.dtype][5](x.ctypes.data, dy.ctypes.data, *(a.ctypes.data for a in per_channel),
                                         rows, channels, image, int(train), out.ctypes.data)
        return out

    def planes_of(a, dtype):
        return np.ascontiguousarray(a, dtype=dtype)

    def gn_affine(x, scale, shift):
        """x: (planes, image); scale, shift: one value per plane."""
        x = planes_of(x, x.dtype)
        out = np.empty(x.shape, x.dtype)
        scale, shift = planes_of(scale, x.dtype), planes_of(shift, x.dtype)
        group_norm_functions[x.dtype][0](x.ctypes.data, *x.shape, scale.ctypes.data, shift.ctypes.data,
                                         out.ctypes.data)
        return out

    def gn_sums(dy, x, fuse_tail):
        """(sum of dy * x, sum of dy) over each plane (row) of 2-D dy, x."""
        dy, x = planes_of(dy, dy.dtype), planes_of(x, dy.dtype)
        ds, db = np.empty(x.shape[0], x.dtype), np.empty(x.shape[0], x.dtype)
        group_norm_functions[x.dtype][1](dy.ctypes.data, x.ctypes.data, *x.shape, int(fuse_tail), ds.ctypes.data,
                                         db.ctypes.data)
        return ds, db

    def gn_dx(dy, x, c1, c2, c3):
        dy, x = planes_of(dy, dy.dtype), planes_of(x, dy.dtype)
        out = np.empty(x.shape, x.dtype)
        c1, c2, c3 = (planes_of(c, x.dtype) for c in (c1, c2, c3))
        group_norm_functions[x.dtype][2](dy.ctypes.data, x.ctypes.data, *x.shape, c1.ctypes.data, c2.ctypes.data,
                                         c3.ctypes.data, out.ctypes.data)
        return out

    def bn_output(x, alpha, beta, out):
        batch_norm_functions[x.dtype][2](x.ctypes.data, *x.shape, alpha.ctypes.data, beta.ctypes.data,
                                         out.ctypes.data)

    return {"squared_deviations": squared_deviations, "welford": welford, "rowwise_moments": rowwise_moments,
            "layer_norm_buffers": layer_norm_buffers,
            "batch_norm": {"image": bn_stats_image, "rows": bn_stats_rows, "output": bn_output, "sums": bn_sums,
                           "input_grad": bn_input_grad},
            "layer_norm_affine": layer_norm_affine,
            "group_norm": {"affine": gn_affine, "sums": gn_sums, "dx": gn_dx},
            "trig": {"sin": trig(lib.gradcli_mkl_sin_float32), "cos": trig(lib.gradcli_mkl_cos_float32)},
            "powf": powf, "fma": fused_multiply_add, "exp": exp, "mkl_exp": mkl_exp, "mkl_sqrt": mkl_sqrt,
            "map": map_over}
