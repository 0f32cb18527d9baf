"""lgamma, vectorised (the fast mode's kernel; numpy has none, scipy is no dependency).

torch computes lgamma with SLEEF's vector lanes; the C library element by element (the `--bits torch` path)
costs 140-620 ms a million elements.  Here, in the input's dtype, for x > 0 (anything else - x <= 0, the poles,
inf, nan - goes to the caller's element-by-element fallback):

  x >= 8:     Stirling's series, (x - 1/2) log x - x + log(2 pi) / 2 + S(1/x**2) / x
  0 < x < 8:  the recurrence Gamma(y + 1) = y Gamma(y) moves y into [0.5, 2.5): down from above 2.5 (the factors'
              product P), up from below (x, or x (x + 1)); with e = y - 2, y - 1 or y (exact),
              lgamma(2 + e) = e * R(2 e), so the zeros at 1 and 2 keep their relative accuracy.

R is a Chebyshev interpolant fitted by scripts/fit_special_kernels.py (which prints the tuples below)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.kernels.loops import in_blocks
from gradcli.engine.kernels.vector_erf import horner

F32, F64 = np.float32, np.float64

F64_NEAR_2 = (7.135187717052461e-15, -2.986362968529387e-14, 8.602110991519562e-14, -3.624502725762705e-13,
    1.6248266047021699e-12, -6.883516221643538e-12, 2.91427929472642e-11, -1.244396513950453e-10,
    5.34044497147953e-10, -2.3045756643126745e-09, 1.0013286400346485e-08, -4.38732735289113e-08,
    1.9425295488626736e-07, -8.716982761862248e-07, 3.981793162025629e-06, -1.8636779870240908e-05,
    9.032844783567449e-05, -0.00046159693929213197, 0.0025726010534730683, -0.016838075263299522,
    0.1612335167120566, 0.42278433509846713)
F32_NEAR_2 = (2.216266014561463e-07, -9.91473029971807e-07, 3.9571651793110635e-06, -1.8529063039036263e-05,
    9.03373537987405e-05, -0.0004616358847270883, 0.0025725999339397815, -0.01683807036802515, 0.16123351673447125,
    0.4227843350004583)

# Stirling's series: B_2k / (2k (2k - 1)), k = 1 .. 9, the highest power of 1/x**2 first
_STIRLING = (43867 / 244188, -3617 / 122400, 1 / 156, -691 / 360360, 1 / 1188, -1 / 1680, 1 / 1260, -1 / 360, 1 / 12)
_TERMS = {F64: _STIRLING, F32: _STIRLING[-4:]}
_NEAR_2 = {F64: F64_NEAR_2, F32: F32_NEAR_2}
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _stirling(x, dtype):
    w = dtype(1) / x
    series = horner(_TERMS[dtype], w * w, dtype)
    series *= w
    out = (x - dtype(0.5)) * np.log(x)
    out -= x
    out += dtype(_HALF_LOG_2PI)
    out += series
    return out


def _reduced(x, dtype):
    """lgamma for 0 < x < 8.  The steps and branches are arithmetic on 0/1 masks, in place (np.where costs a
    branch per element, a fresh array page faults): 1 + 1 * (y - 1) is y and 1 + 0 * (y - 1) is 1, exactly
    (y - 1 is exact for y >= 1)."""
    one = dtype(1)
    y = x.copy()
    product = np.ones_like(y)
    step, factor = np.empty_like(y), np.empty_like(y)
    mask = np.empty(y.shape, dtype=bool)
    for _ in range(6):
        np.greater_equal(y, dtype(2.5), out=mask)
        if not mask.any():
            break
        np.copyto(step, mask)
        y -= step
        np.subtract(y, one, out=factor)  # Gamma(y + 1) = y Gamma(y): the factor y where a step was taken
        factor *= step
        factor += one
        product *= factor
    # below 1.5 (product 1): up by one step (divide by y), below 0.5 by two (y (y + 1)); e = y - 2, y - 1 or y
    low = step
    np.copyto(low, np.less(y, dtype(1.5), out=mask))
    lower = np.less(y, dtype(0.5), out=mask).astype(dtype)
    shift = dtype(2) - low
    shift -= lower  # 2, 1 or 0
    e = y - shift  # exact in each range
    np.multiply(y, lower, out=factor)
    factor += one  # y + 1 or 1
    keep = one - low
    y *= low
    y += keep  # y or 1 (y * 1 + 0, y * 0 + 1)
    factor *= y  # the divisor
    # the one factor that is not 1: the product (added) or the divisor (subtracted); one log
    factor *= low
    product *= keep
    factor += product
    out = horner(_NEAR_2[dtype], e + e, dtype)
    out *= e
    keep -= low  # +1 or -1
    np.log(factor, out=factor)
    factor *= keep
    out += factor
    return out


def lgamma(x: np.ndarray, fallback) -> np.ndarray:
    """lgamma of a float32 or float64 array in its dtype; `fallback(values)` computes the elements that are not
    positive and finite.  A block of 2**16 elements at a time (as vector_erf's): 2.9x torch's time before, when
    each of its dozen temporaries was a fresh array of the input's size."""
    return in_blocks(lambda block: _lgamma(block, fallback), x)


def _lgamma(x: np.ndarray, fallback) -> np.ndarray:
    dtype = x.dtype.type
    flat = x.reshape(-1)
    out = np.empty_like(flat)
    with np.errstate(all="ignore"):
        regular = (flat > 0) & (flat < np.inf)
        large = flat >= dtype(8)
        middle = regular & ~large
        large &= regular
        for mask, fn in ((middle, _reduced), (large, _stirling)):
            where = np.flatnonzero(mask)
            if where.size == flat.size:
                return fn(flat, dtype).reshape(x.shape)
            if where.size:
                out[where] = fn(flat[where], dtype)
        other = np.flatnonzero(~regular)
        if other.size:
            out[other] = fallback(flat[other])
    return out.reshape(x.shape)
