"""float32 kernels that give PyTorch 2.13's CPU results to the bit, where numpy's would differ in the last one.

torch's CPU build hands float32 `sin`/`cos` (and `sqrt`, `exp`, ...) of a whole tensor to MKL's vector math
library (aten/src/ATen/cpu/vml.h: vmsSin(n, in, out, VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE)), matrix
products to MKL's sgemm/sgemv, and `pow` to glibc's powf (scalar lanes) or SLEEF's powf (vector lanes); numpy
computes the same functions correctly rounded, or with OpenBLAS's summation order.  The kernels below were
measured against torch 2.13.0+cpu (MKL 2024.2, AMD EPYC, AVX512) - scripts/make_float32_kernel_goldens.py
records the evidence, tests/engine/test_float32_kernels.py checks it - and every path returns the correctly
rounded value, or numpy's product, where no rule has been established.  float64 never comes here.

sin, cos (|x| <= 10000): MKL rounds a double-precision evaluation once.  It reduces by pi, with the quotient
from a float32 product (k = rint(float32(x * float32(1/pi)))), r = x - k*pi in double, and evaluates one odd
polynomial, r + r^3 (c3 + c5 r^2 + c7 r^4 + c9 r^6), for both (cos(x) = sin(x + pi/2), the quotient from the
float32 sum x + float32(pi/2)).  The four coefficients are not published; they were fitted (linear
programming over the half-ulp intervals torch's results leave) to every float32 in [0, 10000], and the
kernels below then agree with torch on all 1,176,256,512 of them, for sin and for cos (and on their negatives:
torch's sin is odd and its cos even).  Beyond |x| = 10000 MKL switches to another algorithm, which computes
in float32 (about 1% of its results differ from the correctly rounded value); there the correctly rounded
value is returned.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import native
from gradcli.engine.kernels.fused import fma32 as _fma
from gradcli.engine.kernels.sleef import ldexpf

F32 = np.float32

# -- sin and cos ----------------------------------------------------------------------------------------------

TRIG_FAST_LIMIT = 10000.0  # MKL's double-precision path covers |x| <= this
_INV_PI_F32 = F32(0.3183098861837907)  # float32(1/pi), the multiplier of the quotient
_HALF_PI_F32 = F32(1.5707963267948966)
# pi in three 28-bit pieces, so k * piece is exact in double for every quotient of |x| <= 10000
_PI = (float.fromhex("0x1.921fb54000000p+1"), float.fromhex("0x1.10b4610000000p-29"),
       float.fromhex("0x1.a626330000000p-57"))
# r + r^3 (C3 + C5 r^2 + C7 r^4 + C9 r^6): the polynomial MKL's results fix (see the module docstring)
_C3 = float.fromhex("-0x1.55554bc83664ep-3")
_C5 = float.fromhex("0x1.110ed3804f162p-7")
_C7 = float.fromhex("-0x1.9f6ffeeae10d5p-13")
_C9 = float.fromhex("0x1.5dbdf0ea5eb5bp-19")


def _odd_poly(r: np.ndarray) -> np.ndarray:
    s = r * r
    return r + (r * s) * (((_C9 * s + _C7) * s + _C5) * s + _C3)


def _reduced(x: np.ndarray, halves: np.ndarray) -> np.ndarray:
    """x - halves * (pi / 2) in double, exact to an ulp of the result (halves an integer array)."""
    xd = x.astype(np.float64)
    return ((xd - halves * (_PI[0] / 2)) - halves * (_PI[1] / 2)) - halves * (_PI[2] / 2)


def sin(x: np.ndarray) -> np.ndarray:
    """torch.sin of a float32 array, to the bit."""
    x = np.asarray(x, dtype=F32)
    compiled = native.mkl_trig()
    if compiled is not None:  # the same operations compiled (native_math.c)
        return _beyond_fast_limit(x, compiled["sin"](x), np.sin)
    with np.errstate(invalid="ignore", over="ignore"):
        fast = np.abs(x) <= TRIG_FAST_LIMIT
        xf = np.where(fast, x, F32(0))
        k = np.rint((xf * _INV_PI_F32).astype(np.float64))
        p = _odd_poly(_reduced(xf, 2 * k))
        out = np.where(np.fmod(k, 2) != 0, -p, p).astype(F32)
        out = np.where(x == 0, x, out)  # sin(-0.) is -0.
        if not fast.all():
            out = np.where(fast, out, np.sin(x.astype(np.float64)).astype(F32))
    return out


def cos(x: np.ndarray) -> np.ndarray:
    """torch.cos of a float32 array, to the bit."""
    x = np.abs(np.asarray(x, dtype=F32))  # torch's cos is even to the bit
    compiled = native.mkl_trig()
    if compiled is not None:  # the same operations compiled (native_math.c)
        return _beyond_fast_limit(x, compiled["cos"](x), np.cos)
    with np.errstate(invalid="ignore", over="ignore"):
        fast = x <= TRIG_FAST_LIMIT
        xf = np.where(fast, x, F32(0))
        k = np.rint(((xf + _HALF_PI_F32) * _INV_PI_F32).astype(np.float64)) - 1  # x = (k + 1/2) pi + r
        p = _odd_poly(_reduced(xf, 2 * k + 1))
        out = np.where(np.fmod(k, 2) == 0, -p, p).astype(F32)
        if not fast.all():
            out = np.where(fast, out, np.cos(x.astype(np.float64)).astype(F32))
    return out


def _beyond_fast_limit(x: np.ndarray, out: np.ndarray, function) -> np.ndarray:
    """Beyond |x| = 10000 (and at nan): the correctly rounded value, numpy's in double rounded once."""
    slow = ~(np.abs(x) <= TRIG_FAST_LIMIT)
    if slow.any():
        with np.errstate(invalid="ignore"):
            out[slow] = function(x[slow].astype(np.float64)).astype(F32)
    return out


# -- matrix products ------------------------------------------------------------------------------------------
#
# torch's addmm/mm (aten/src/ATen/native/LinearAlgebra.cpp, addmm_impl_cpu_) calls MKL's column-major sgemm on
# its row-major operands: it picks, from their strides, whether to swap them (so that the result is
# column-major) and whether each is passed transposed; mv calls sgemv the same way.  MKL's kernel then depends
# on those flags and on m, n and k.  Measured: when the result is a vector (n == 1 after the swap), MKL's
# small kernels sum each entry's products in order, p0 + p1 + ... (float32 products, no fused multiply-add),
# and store alpha * sum + beta * C - for a non-transposed A (its m rows have stride 1) whenever m >= 2 (every k
# tried, up to 100,000), for a transposed A while k <= 4, and for a single row while k <= 5; dot while k <= 3.
# Everywhere else (a matrix result, longer sums) MKL vectorises its sums in ways not established here, and
# numpy's (OpenBLAS's) product is kept.

_SEQUENTIAL_CHUNK = 1 << 22  # products formed at a time by the ordered sum


def _ordered_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sum_k a[i, k] * b[k, j] with the products rounded to float32 and added in k order, for a result with one
    row or one column (returned with shape (m, n))."""
    m, k = a.shape
    n = b.shape[1]
    rows = (a.T * b[:, 0][:, None]) if n == 1 else (a[0][:, None] * b)  # (k, length of the result)
    total = None
    step = max(1, _SEQUENTIAL_CHUNK // max(1, rows.shape[1]))
    for start in range(0, k, step):
        block = np.array(rows[start:start + step], dtype=F32)
        if total is not None:
            block[0] += total
        total = np.cumsum(block, axis=0, dtype=F32)[-1]  # add.accumulate: strictly left to right
    return total.reshape(m, n)


def _gemm_layout(a: np.ndarray, b: np.ndarray):
    """(transpose_a, m, n, k) of the sgemm call torch makes for a @ b (2-D), as addmm_impl_cpu_ decides."""
    rows, inner = a.shape
    cols = b.shape[1]
    sa = [s // a.itemsize for s in a.strides]
    sb = [s // b.itemsize for s in b.strides]
    swap = cols != 1  # the result is C-contiguous; only a single column is column-major as it stands
    if swap:
        m, n, k = cols, rows, inner
        s1, i0, i1 = sb, 1, 0  # the first operand of the column-major product is b, read transposed
    else:
        m, n, k = rows, cols, inner
        s1, i0, i1 = sa, 0, 1
    if s1[i0] == 1 and s1[i1] >= max(1, m):
        trans_a = False
    elif s1[i1] == 1 and s1[i0] >= max(1, k):
        trans_a = True
    else:
        trans_a = not swap  # torch copies it contiguous
    return trans_a, m, n, k


def _ordered(trans_a: bool, m: int, n: int, k: int) -> bool:
    """Whether MKL sums this product's entries in order (see above)."""
    if n != 1:
        return False
    if m == 1:
        return k <= 5
    return True if not trans_a else k <= 4


def matmul(a: np.ndarray, b: np.ndarray):
    """torch's float32 a @ b to the bit, for the products whose summation order is established (a 1-D or 2-D
    operand each); None otherwise."""
    if a.dtype != F32 or b.dtype != F32 or a.ndim > 2 or b.ndim > 2 or 0 in a.shape or 0 in b.shape:
        return None
    if a.ndim == 1 and b.ndim == 1:  # dot
        if a.shape[0] > 3:
            return None
        return _ordered_sum(a[None, :], b[:, None])[0, 0] + F32(0)
    if a.ndim == 2 and b.ndim == 1:  # mv: sgemv on the matrix as stored
        s0, s1 = (s // a.itemsize for s in a.strides)
        rows, inner = a.shape
        column_major = s0 == 1 and (inner == 1 or s1 >= max(1, rows))
        if not (column_major and rows >= 2 or (not column_major and inner <= 4) or (rows == 1 and inner <= 5)):
            return None
        return _ordered_sum(a, b[:, None])[:, 0] + F32(0)
    if a.ndim == 1:  # torch: mm(a.unsqueeze(0), b).squeeze(0)
        out = matmul(a[None, :], b)
        return None if out is None else out[0]
    if not _ordered(*_gemm_layout(a, b)):
        return None
    return _ordered_sum(a, b) + F32(0)  # beta = 0: MKL still adds 0 * C, so -0. sums are +0.


def addmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray):
    """torch's float32 addmm(bias, a, b) with beta = alpha = 1: the ordered sums, then + bias; None where the
    product's order is not established."""
    if a.dtype != F32 or b.dtype != F32 or a.ndim != 2 or b.ndim != 2 or 0 in a.shape or 0 in b.shape \
            or not _ordered(*_gemm_layout(a, b)):
        return None
    return _ordered_sum(a, b) + bias


# -- pow ------------------------------------------------------------------------------------------------------
#
# torch's pow kernels (aten/src/ATen/native/cpu/PowKernel.cpp: cpu_kernel_vec) compute whole vectors with
# Vectorized<float>::pow, i.e. SLEEF's Sleef_powf16_u10, and the elements gradcli.engine.kernels.scalar_lanes
# names one at a time with std::pow(float, float), i.e. glibc's powf.  The vector lanes below are SLEEF's
# published algorithm (xpowf: logkf, then expkf of y * log|x|, in double-float arithmetic with fused
# multiply-adds, AVX512 flavour), reproduced operation by operation in float32; it gives torch's bits on every
# one of millions of random, extreme and special arguments tried.  The scalar lanes are computed in double and
# rounded once: glibc's powf is that value except on about 0.07% of random arguments, where it is an ulp off.
# The vectorised loop takes two AVX512 vectors (32 floats) at a time: kernels.scalar_lanes(vector_bytes=128).


# double-float arithmetic (SLEEF's df.h, FMA flavour): a value is a pair (hi, lo) of float32 arrays

def _df_add2(x, y):  # float + float, both may be pairs' parts; x, y floats
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _df_add2_pf(x, y):  # pair + float
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def _df_add2_pp(x, y):  # pair + pair
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def _df_add_pp(x, y):  # pair + pair, |x| >= |y|
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _df_add_fp(x, y):  # float + pair, |x| >= |y|
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _df_mul_pf(x, y):  # pair * float
    s = x[0] * y
    return s, _fma(x[1], y, _fma(x[0], y, -s))


def _df_mul_pp(x, y):  # pair * pair
    s = x[0] * y[0]
    return s, _fma(x[0], y[1], _fma(x[1], y[0], _fma(x[0], y[0], -s)))


def _df_sq(x):
    s = x[0] * x[0]
    return s, _fma(x[0] + x[0], x[1], _fma(x[0], x[0], -s))


def _df_div(n, d):
    t = F32(1) / d[0]
    s = n[0] * t
    u = _fma(t, n[0], -s)
    v = _fma(-d[1], t, _fma(-d[0], t, F32(1)))
    return s, _fma(s, v, _fma(n[1], t, u))


def _sleef_logkf(d):
    """log(d) as a pair, d > 0 (xlogkf's AVX512 path: vgetexp / vgetmant into [0.75, 1.5))."""
    scaled = d * F32(1 / 0.75)  # vgetexp of it (its exponent), 128 where it overflows
    e = np.where(np.isinf(scaled), F32(128), (np.frexp(scaled.astype(np.float64))[1] - 1).astype(F32)).astype(F32)
    m, _ = np.frexp(d.astype(np.float64))
    m = np.where(m < 0.75, m * 2, m).astype(F32)
    x = _df_div(_df_add2(F32(-1), m), _df_add2(F32(1), m))
    x2 = _df_sq(x)
    t = _fma(_fma(F32(0.240320354700088500976562), x2[0], F32(0.285112679004669189453125)), x2[0],
             F32(0.400007992982864379882812))
    s = _df_mul_pf((F32(0.69314718246459960938), F32(-1.904654323148236017e-09)), e)
    s = _df_add_pp(s, (x[0] * F32(2), x[1] * F32(2)))
    c = (F32(0.66666662693023681640625), F32(3.69183861259614332084311e-09))
    return _df_add_pp(s, _df_mul_pp(_df_mul_pp(x2, x), _df_add2_pp(_df_mul_pf(x2, t), c)))


def _sleef_expkf(d):
    """exp of a pair (xexpkf)."""
    u = (d[0] + d[1]) * F32(1.442695040888963407359924681001892137426645954152985934135449406931)
    q = np.where(np.abs(u) < 2.0 ** 31, np.rint(u), -(2.0 ** 31)).astype(np.int64).astype(np.int32)
    qf = q.astype(F32)
    s = _df_add2_pf(d, qf * F32(-0.693145751953125))
    s = _df_add2_pf(s, qf * F32(-1.428606765330187045e-06))
    hi = s[0] + s[1]
    s = hi, (s[0] - hi) + s[1]
    u = F32(0.00136324646882712841033936)
    for coef in (0.00836596917361021041870117, 0.0416710823774337768554688, 0.166665524244308471679688,
                 0.499999850988388061523438):
        u = _fma(u, s[0], F32(coef))
    t = _df_add_fp(F32(1), _df_add_pp(s, _df_mul_pf(_df_sq(s), u)))
    out = ldexpf(t[0] + t[1], q)
    return np.where(d[0] < -104, F32(0), out)


def _sleef_powf(x, y):
    """Sleef_powf16_u10 of float32 arrays of one shape (xpowf)."""
    with np.errstate(all="ignore"):
        ay = np.abs(y)
        yisint = (np.trunc(y) == y) | (ay > 2 ** 24)
        yisodd = ((np.where(ay < 2 ** 24, np.trunc(y), 0).astype(np.int64) & 1) == 1) & yisint
        ax = np.abs(x)
        out = _sleef_expkf(_df_mul_pf(_sleef_logkf(ax), y))
        out = np.where(np.isnan(out), F32(np.inf), out)
        out = out * np.where(x > 0, F32(1), np.where(yisint, np.where(yisodd, F32(-1), F32(1)), F32(np.nan)))
        efx = np.where(np.signbit(y), -(ax - F32(1)), ax - F32(1))
        out = np.where(np.isinf(y), np.where(efx < 0, F32(0), np.where(efx == 0, F32(1), F32(np.inf))), out)
        edge = np.where(np.signbit(y) ^ (x == 0), F32(0), F32(np.inf))
        out = np.where(np.isinf(x) | (x == 0), np.copysign(edge, np.where(yisodd, x, F32(1))), out)
        out = np.where(np.isnan(x) | np.isnan(y), F32(np.nan), out)
        return np.where((y == 0) | (x == 1), F32(1), out).astype(F32)


def pow(x: np.ndarray, y, scalar_lanes=True) -> np.ndarray:  # noqa: A001 - torch's name
    """torch.pow of a float32 x and a float32 array y, or a number y.  `scalar_lanes` (True, False or a boolean
    array of the result's shape, as gradcli.engine.kernels.scalar_lanes gives it) says which elements torch
    computes one at a time.  A tensor exponent: those are glibc's powf(x, y), here the correctly rounded value
    (glibc's is an ulp off on about 0.07% of random arguments), the others SLEEF's powf, to the bit.  A number
    exponent (pow_tensor_scalar_optimized_kernel): the scalar lanes are std::pow(float, double), the correctly
    rounded value of x ** y with y unrounded, the vector lanes SLEEF's powf with y rounded to float32."""
    x = np.asarray(x, dtype=F32)
    number = not isinstance(y, np.ndarray)
    y_vector = np.asarray(y, dtype=F32)
    y_scalar = np.float64(y) if number else y_vector.astype(np.float64)
    with np.errstate(all="ignore"):
        compiled = native.sleef_powf() if scalar_lanes is not True else None
        if compiled is not None:  # the same operations compiled, on every vector lane: 6x faster than the filter
            shape = np.broadcast_shapes(x.shape, y_vector.shape)
            out = compiled(np.broadcast_to(x, shape), y_vector if number else np.broadcast_to(y_vector, shape))
            if scalar_lanes is not False:
                scalar = np.broadcast_to(np.asarray(scalar_lanes), shape)
                ys = y_scalar if number else np.broadcast_to(y_scalar, shape)[scalar]
                out[scalar] = np.power(np.broadcast_to(x, shape)[scalar].astype(np.float64), ys).astype(F32)
            return out
        out = np.asarray(np.power(x.astype(np.float64), y_scalar)).astype(F32)
        if scalar_lanes is True:
            return out
        vector = np.broadcast_to(~np.asarray(scalar_lanes), out.shape)
        xs, ys = np.broadcast_to(x, out.shape)[vector], np.broadcast_to(y_vector, out.shape)[vector]
        exact = np.power(xs.astype(np.float64), ys.astype(np.float64))
        rounded = exact.astype(F32)
        # SLEEF's double-float value is within 0.09 ulp of the exact one (measured on 12 million random
        # arguments), so it rounds the same way unless the exact value lies near a rounding boundary: only those,
        # and the edge cases, take the (slow, exact) emulation
        toward = np.nextafter(rounded, np.where(exact > rounded, F32(np.inf), F32(-np.inf))).astype(np.float64)
        step = np.abs(toward - rounded)
        boundary = np.abs(exact - (toward + rounded) / 2) < SLEEF_POWF_MARGIN * step  # the boundary on its side
        slow = boundary | ~np.isfinite(exact) | ~np.isfinite(rounded) | (np.abs(rounded) < 2.0 ** -125) | (xs == 0) \
            | ~np.isfinite(ys)
        rounded[slow] = _sleef_powf(xs[slow], ys[slow])
        out[vector] = rounded
    return out


SLEEF_POWF_MARGIN = 0.125  # ulps around a rounding boundary where SLEEF's rounding is emulated (its error: <= 0.087)
