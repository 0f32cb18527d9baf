"""Fused multiply-add, a * b + c rounded once, on numpy arrays: what the FMA instructions in torch's compiled
kernels compute where the compiler contracted a multiply and an add (its AVX512 build does, in Math.h's
polynomials and SLEEF's and avx_mathfun's kernels).  numpy has no fma; these are exact."""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import libm, native

F32, F64 = np.float32, np.float64
_SPLIT = F64(2.0 ** 27 + 1)  # Veltkamp's splitter for double


def fma(a, b, c):
    """a * b + c rounded once, in float32 if every operand is float32 (or a Python number), else float64."""
    if np.result_type(a, b, c) == F32:
        return fma32(a, b, c)
    return fma64(a, b, c)


def fma32(a, b, c):
    """float32 fused multiply-add, rounded once: the product is exact in double, and the double sum rounds to
    the right float32 unless it lands exactly on a float32 midpoint (or in the subnormal range), where the
    exact error of the sum decides (round to odd)."""
    if np.ndim(a) == 0 and np.ndim(b) == 0 and np.ndim(c) == 0:  # one number: the C library's fmaf, 20x faster
        out = libm.scalar_fma(F32(a), F32(b), F32(c), F32)
        if out is not None:
            return np.asarray(out)
    compiled = native.fma()
    if compiled is not None:  # arrays: the compiled loop (one rounding per element, as the instruction), 10x faster
        return compiled(np.asarray(a, F32), np.asarray(b, F32), np.asarray(c, F32))
    p = np.asarray(a, F32).astype(np.float64) * np.asarray(b, F32)
    c = np.asarray(c, F32)
    if p.ndim == 0 and c.ndim == 0:  # the midpoint repair below indexes arrays
        return _fma32_array(p.reshape(1), c.reshape(1)).reshape(())
    return _fma32_array(p, c)


def _fma32_array(p, c):
    total = p + c
    out = np.asarray(total.astype(F32))
    suspect = ((total.view(np.int64) & 0x1FFFFFFF) == 0x10000000) | ((np.abs(total) < 2.0 ** -125) & (total != 0))
    if suspect.any():
        where = np.nonzero(suspect)
        ps, cs, ss = np.broadcast_to(p, total.shape)[where], np.broadcast_to(c, total.shape)[where], total[where]
        back = ss - ps
        error = (ps - (ss - back)) + (cs - back)  # exact: p + c = ss + error
        odd = (error != 0) & ((ss.view(np.int64) & 1) == 0) & np.isfinite(ss)
        ss = np.where(odd, np.nextafter(ss, np.where(error > 0, np.inf, -np.inf)), ss)
        out = out.copy()
        out[where] = ss.astype(F32)
    return out


def fma64(a, b, c):
    """float64 fused multiply-add, rounded once: Dekker's exact product p + e2 = a * b and Knuth's exact sums
    give a * b + c = s + t + t_err exactly (t_err far below an ulp of the result); s + t is rounded, and where
    that rounding was an exact tie t_err decides it, as the exact value would.  Zeros take IEEE's sign (the
    plain a * b + c), an infinite c stays itself, operands too large to split (beyond 2**995) are scaled first.
    Results below 2**-969, where the products' error terms underflow, can differ from IEEE's in the last bit
    or the sign of a zero."""
    if np.ndim(a) == 0 and np.ndim(b) == 0 and np.ndim(c) == 0:  # one number: the C library's fma, exact
        out = libm.scalar_fma(F64(a), F64(b), F64(c), F64)
        if out is not None:
            return np.asarray(out)
    a, b, c = (np.asarray(v, F64) for v in (a, b, c))
    compiled = native.fma()
    if compiled is not None:  # arrays: the compiled loop, IEEE-exact everywhere (subnormal results too)
        return compiled(a, b, c)
    with np.errstate(all="ignore"):
        big = ((np.abs(a) > 2.0 ** 995) | (np.abs(b) > 2.0 ** 995)) & np.isfinite(a) & np.isfinite(b)
        if big.any():  # too large to split: scale the large operand (and c) down, the result back up (exact)
            return np.where(big, _fma64_scaled(a, b, c), fma64(np.where(big, 0.0, a), np.where(big, 0.0, b), c))
        out = fma64_core(a, b, c)
        plain = a * b + c
        special = (out == 0) | ~np.isfinite(out) | ~np.isfinite(plain)
        if special.any():
            out = np.where(special, np.where(np.isinf(c) & np.isfinite(a) & np.isfinite(b), c, plain), out)
    return out


def fma64_core(a, b, c):
    """fma64 for finite operands whose products and sums stay far inside the float64 range (a kernel's
    polynomial): the same exact value and tie rule, without the checks for zeros, infinities and huge operands."""
    a, b, c = (np.asarray(v, F64) for v in (a, b, c))
    p = a * b
    t = _SPLIT * a
    a_hi = t - (t - a)
    t = _SPLIT * b
    b_hi = t - (t - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    e2 = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    s, e1 = _two_sum(p, c)
    t, t_err = _two_sum(e1, e2)
    out, rest = _two_sum(s, t)
    # an exact tie in out = s + t went to even; the part below, t_err, says which side the true value is
    toward = np.nextafter(out, out + 2 * rest)
    tie = (rest != 0) & (rest == (toward - out) / 2) & (t_err != 0) & (np.sign(t_err) == np.sign(rest))
    return np.where(tie, toward, out)


def _fma64_scaled(a, b, c):
    scale_a = np.where(np.abs(a) > 2.0 ** 995, 2.0 ** -200, 1.0)
    scale_b = np.where(np.abs(b) > 2.0 ** 995, 2.0 ** -200, 1.0)
    return fma64(a * scale_a, b * scale_b, c * (scale_a * scale_b)) / (scale_a * scale_b)


def _two_sum(x, y):
    """x + y = s + error exactly (Knuth)."""
    s = x + y
    back = s - x
    return s, (x - (s - back)) + (y - back)
