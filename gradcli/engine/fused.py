"""Fused multiply-add, a * b + c rounded once, on numpy arrays: what the FMA instructions in torch's compiled
kernels compute where the compiler contracted a multiply and an add (its AVX512 build does, in Math.h's
polynomials and SLEEF's and avx_mathfun's kernels).  numpy has no fma; these are exact."""

from __future__ import annotations

import numpy as np

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
    """float64 fused multiply-add: Dekker's exact product p + e = a * b, then Knuth's exact sum of p and c;
    rounded once but for sums within 2**-100 of a rounding boundary (and products near overflow or underflow)."""
    a, b, c = (np.asarray(v, F64) for v in (a, b, c))
    p = a * b
    t = _SPLIT * a
    a_hi = t - (t - a)
    t = _SPLIT * b
    b_hi = t - (t - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    error = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    s = p + c
    back = s - p
    out = s + (((p - (s - back)) + (c - back)) + error)
    # infinities and nan (and operands so large that the splitting overflows): IEEE's a * b + c
    return np.where(np.isfinite(out), out, s) if not np.isfinite(out).all() else out
