"""erf and erfc, vectorised (the fast mode's kernel; numpy has neither and scipy is no dependency).

torch computes them with MKL's vector math (vsErf/vdErf ...); calling the C library element by element (the
`--bits torch` path, kernels.erf) costs 100-150 ms a million elements.  Here, in the input's dtype:

  |x| < 1:        erf(x) = x * P(2 x**2 - 1)
  |x| >= 1 (erf), x >= 0.5 and x <= -1 (erfc):
                  erfc(z) = t * exp(Q(t') - z**2),  z = |x|,  t = 1 / (1 + z / 2),  t' = t mapped to [-1, 1]
                  (Numerical Recipes' erfcc variable: one smooth function from 0.5 to erfc's underflow)

P and Q are Chebyshev interpolants fitted by scripts/fit_special_kernels.py (which prints the tuples below) to
about an ulp; the distance to torch's results is measured by scripts/make_kernel_contract.py and stated in
docs/deviations.md.  erfc's exp(-z**2) loses z**2's rounding error (z**2 ulps at z = 26): float32 computes the
exponent in double, float64 splits z = zh + zl with zh**2 exact.  Each region is computed on its own elements
(gathered by index: np.where on mixed regions costs a branch per element)."""

from __future__ import annotations

import numpy as np

F32, F64 = np.float32, np.float64

F64_SMALL = (-3.80659122412214e-13, 9.21125018742823e-12, -2.035231956483527e-10, 4.115751500265885e-09,
    -7.51156925108609e-08, 1.2233827638093572e-06, -1.75371694412802e-05, 0.00021751715603563488,
    -0.0022854855611440855, 0.019852496688984218, -0.1405360890227171, 0.9654687386698673)
F64_TAIL = (7.704472047823249e-11, -1.5684487313094084e-10, -5.946171755117057e-10, 2.1608370600213862e-09,
    6.550609981147612e-10, -1.483489374614698e-08, 1.9250574421486958e-08, 6.259964503574864e-08,
    -2.0274954537544339e-07, -1.2102786685967685e-07, 1.3378985887419745e-06, -6.554059625259283e-07,
    -7.261948618372495e-06, 9.671422829790338e-06, 3.6840614301539405e-05, -7.96688916841009e-05,
    -0.0001998427491263183, 0.0005815061396394129, 0.0013973696644398734, -0.004366761479666186,
    -0.015841843864836808, 0.03487470250824968, 0.4822577912130475, -0.7605305090234711)
F64_TAIL_T = (0.06666666666666667, 0.8)
F32_SMALL = (-1.7650187079697012e-05, 0.0002193591913438419, -0.0022854431428609664, 0.01985180518381977,
    -0.14053609137964274, 0.9654687770939903)
F32_TAIL = (8.547252261227628e-06, -9.059056526940361e-06, -9.081931381937852e-05, 0.00014819326432936904,
    0.0008570339184892276, -0.0018197552482198047, -0.011554163713202932, 0.020843250062399208, 0.42391039223405563,
    -0.694161196572801)
F32_TAIL_T = (0.16666666666666666, 0.8)

_TAIL_FROM = 0.5
_UNDERFLOW = {F64: 40.0, F32: 12.0}  # erfc is 0 beyond (inf included: its z = inf would give inf - inf)
_POLYNOMIALS = {F64: (F64_SMALL, F64_TAIL, F64_TAIL_T), F32: (F32_SMALL, F32_TAIL, F32_TAIL_T)}
_SPLIT_MASK = np.uint64(0xFFFFFFFFF8000000)  # float64 with 26 significant bits: its square is exact


def _horner(coefficients, m, dtype):
    r = np.full_like(m, dtype(coefficients[0]))
    for c in coefficients[1:]:
        r *= m
        r += dtype(c)
    return r


def _small(x, dtype):
    """erf(x) for |x| < 1."""
    m = x * x
    m *= dtype(2)
    m -= dtype(1)
    out = _horner(_POLYNOMIALS[dtype][0], m, dtype)
    out *= x
    return out


def _erfc_tail(z, dtype):
    """erfc(z) for z >= 0.5 (nan stays nan)."""
    _, tail, (lo, hi) = _POLYNOMIALS[dtype]
    z = np.minimum(z, dtype(_UNDERFLOW[dtype]))
    t = dtype(1) / (z * dtype(0.5) + dtype(1))
    m = t * dtype(2 / (hi - lo))
    m -= dtype((hi + lo) / (hi - lo))
    q = _horner(tail, m, dtype)
    with np.errstate(under="ignore"):
        if dtype == F32:  # the exponent in double: z * z is exact there
            z64 = z.astype(F64)
            return (t * np.exp(q.astype(F64) - z64 * z64)).astype(F32)
        zh = (z.view(np.uint64) & _SPLIT_MASK).view(F64)
        return t * (np.exp(-(zh * zh)) * np.exp(q - (z - zh) * (z + zh)))


def _by_region(x, first, first_fn, rest_fn):
    """first_fn on the elements where `first` holds, rest_fn on the others, each gathered by index."""
    flat = x.reshape(-1)
    mask = first.reshape(-1)
    out = np.empty_like(flat)
    inside = np.flatnonzero(mask)
    if inside.size == flat.size:
        return first_fn(flat).reshape(x.shape)
    if inside.size == 0:
        return rest_fn(flat).reshape(x.shape)
    outside = np.flatnonzero(~mask)
    out[inside] = first_fn(flat[inside])
    out[outside] = rest_fn(flat[outside])
    return out.reshape(x.shape)


def erf(x: np.ndarray) -> np.ndarray:
    """erf of a float32 or float64 array, in its dtype."""
    dtype = x.dtype.type
    with np.errstate(invalid="ignore"):
        small = np.abs(x) < 1

    def tail(v):
        return np.copysign(dtype(1) - _erfc_tail(np.abs(v), dtype), v)

    return _by_region(x, small, lambda v: _small(v, dtype), tail)


def erfc(x: np.ndarray) -> np.ndarray:
    """erfc of a float32 or float64 array, in its dtype: 1 - erf(x) on (-1, 0.5), the tail elsewhere
    (2 - erfc(-x) below -1)."""
    dtype = x.dtype.type
    with np.errstate(invalid="ignore"):
        small = (x > -1) & (x < _TAIL_FROM)

    def tail(v):
        e = _erfc_tail(np.abs(v), dtype)
        return np.where(v < 0, dtype(2) - e, e)

    return _by_region(x, small, lambda v: dtype(1) - _small(v, dtype), tail)
