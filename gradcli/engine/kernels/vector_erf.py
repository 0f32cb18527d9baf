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

from gradcli.engine.kernels.loops import in_blocks

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

F64_ERFINV_CENTRAL = (7.801712199036253e-10, -8.577966939639941e-11, -8.627191009014394e-09, 9.07207594789291e-09,
    3.931511157646558e-08, -1.0514990713371436e-07, -1.0412692841159635e-08, 5.456420572209782e-07,
    -1.0591188098187532e-06, -6.87655180725494e-07, 7.12993974314695e-06, -1.1255653983969421e-05,
    -1.5027665773117194e-05, 9.336692787624058e-05, -0.0001168888508125076, -0.00026439358646646055,
    0.0012324855702994214, -0.0012716922769885114, -0.004137314377547895, 0.0178083618187569, -0.022604447453444733,
    -0.0589225671037876, 0.7504943200799635, 1.6536545626831027)
F64_ERFINV_TAIL0 = (7.341259355519467e-13, -1.0325120271802873e-12, -7.465664851518714e-12, 2.977651856300377e-11,
    -3.7083231360434026e-11, -1.3011110282911666e-10, 9.355484735351774e-10, -2.445153734535932e-09,
    -3.0690827755019627e-10, 2.6387145258177144e-08, -9.47350549116485e-08, 9.289919677998435e-08,
    5.264836383281014e-07, -2.6647956295500704e-06, 5.127310377395869e-06, 2.4058651358580698e-06,
    -4.7391826158110145e-05, 0.00016966502194159527, -0.00040063569846923307, 0.0007883078513083163,
    -0.0015825410894019908, 0.0030211394363746816, 0.7539442257706239, 3.0838856104922208)
F64_ERFINV_TAIL1 = (8.806020435132402e-11, 7.09664294211451e-11, -1.3627050751566846e-09, 3.646122508667136e-09,
    -6.827632856648232e-09, 1.2879677490525713e-08, -2.3409237303990017e-08, 4.324530170086013e-08,
    -1.0707053010454858e-07, 3.8387630606218483e-07, -1.6195354145404386e-06, 6.891285384888059e-06,
    -2.764059086768375e-05, 9.780197800581869e-05, -0.00024824882606177596, -0.00024061923095308998,
    1.1112932209525206, 4.9509348530788735)
F32_ERFINV_CENTRAL = (-3.407259357545556e-05, 3.560786010087296e-05, 0.00028572469974080887, -0.0008456995282308036,
    -0.00048558786029831555, 0.008529272899990876, -0.019573849871456703, -0.02610870547001968, 0.6166006976365915,
    1.501409360450329)
F32_ERFINV_TAIL0 = (5.9159675033593585e-05, -7.788041340518317e-05, -0.0002123828064943313, 0.0008015284345111014,
    -0.0015530513114433077, 0.002464618675460483, -0.0037983295701933743, 0.005563806615627624, 0.935970671099578,
    3.0015267760627937)

_TAIL_FROM = 0.5
_UNDERFLOW = {F64: 40.0, F32: 12.0}  # erfc is 0 beyond (inf included: its z = inf would give inf - inf)
_POLYNOMIALS = {F64: (F64_SMALL, F64_TAIL, F64_TAIL_T), F32: (F32_SMALL, F32_TAIL, F32_TAIL_T)}
_SPLIT_MASK = np.uint64(0xFFFFFFFFF8000000)  # float64 with 26 significant bits: its square is exact


def horner(coefficients, m, dtype):
    """The polynomial with `coefficients` (highest power first) at m, in dtype, Horner's order in place."""
    r = np.multiply(m, dtype(coefficients[0]))  # c0 * m, as c0 times m in place: no pass filling c0
    r += dtype(coefficients[1])
    for c in coefficients[2:]:
        r *= m
        r += dtype(c)
    return r


def _small(x, dtype):
    """erf(x) for |x| < 1."""
    m = x * x
    m *= dtype(2)
    m -= dtype(1)
    out = horner(_POLYNOMIALS[dtype][0], m, dtype)
    out *= x
    return out


def _erfc_tail(z, dtype):
    """erfc(z) for z >= 0.5 (nan stays nan)."""
    _, tail, (lo, hi) = _POLYNOMIALS[dtype]
    # in place on a few arrays (a fresh one per operation cost its page faults), the roundings as written:
    # t = 1 / (z / 2 + 1), q = Q(t'), erfc = t * (exp(-zh**2) * exp(q - (z - zh)(z + zh)))
    z = np.minimum(z, dtype(_UNDERFLOW[dtype]))
    t = np.multiply(z, dtype(0.5))
    t += dtype(1)
    np.divide(dtype(1), t, out=t)
    m = t * dtype(2 / (hi - lo))
    m -= dtype((hi + lo) / (hi - lo))
    q = horner(tail, m, dtype)
    with np.errstate(under="ignore"):
        if dtype == F32:  # the exponent in double: z * z is exact there
            z64 = z.astype(F64)
            z64 *= z64
            q64 = q.astype(F64)
            q64 -= z64
            np.exp(q64, out=q64)
            q64 *= t
            return q64.astype(F32)
        zh = (z.view(np.uint64) & _SPLIT_MASK).view(F64)
        e = np.multiply(zh, zh)
        np.negative(e, out=e)
        np.exp(e, out=e)
        np.subtract(z, zh, out=m)
        zh += z
        m *= zh
        np.subtract(q, m, out=q)
        np.exp(q, out=q)
        e *= q
        e *= t
        return e


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
    """erf of a float32 or float64 array, in its dtype, a block of 2**16 elements at a time: its temporaries
    stay in cache and below the size the C allocator gives back to the system (a fresh array of the input's
    size per temporary cost its page faults, a third of the time)."""
    return in_blocks(_erf, x)


def _erf(x: np.ndarray) -> np.ndarray:
    dtype = x.dtype.type
    with np.errstate(invalid="ignore"):
        small = np.abs(x) < 1

    def tail(v):
        r = _erfc_tail(np.abs(v), dtype)
        np.subtract(dtype(1), r, out=r)
        return np.copysign(r, v, out=r)

    return _by_region(x, small, lambda v: _small(v, dtype), tail)


def erfc(x: np.ndarray) -> np.ndarray:
    """erfc of a float32 or float64 array, in its dtype: 1 - erf(x) on (-1, 0.5), the tail elsewhere
    (2 - erfc(-x) below -1); in blocks as erf."""
    return in_blocks(_erfc, x)


def _erfc(x: np.ndarray) -> np.ndarray:
    dtype = x.dtype.type
    with np.errstate(invalid="ignore"):
        small = (x > -1) & (x < _TAIL_FROM)

    def tail(v):
        e = _erfc_tail(np.abs(v), dtype)
        # 2 - e below 0, e above, as c + s * e with (c, s) = (2, -1) or (0, 1): exact, no branch per element
        negative = (v < 0).astype(dtype)
        e *= dtype(1) - negative - negative
        negative *= dtype(2)
        e += negative
        return e

    return _by_region(x, small, lambda v: dtype(1) - _small(v, dtype), tail)


# erfinv: x * E(w), w = -log((1 - x)(1 + x)); (upper bound of the piece, its variable: w or sqrt(w), its range)
_ERFINV = {
    F64: ((6.25, False, 0.0, 6.25, F64_ERFINV_CENTRAL), (16.0, True, 2.5, 4.0, F64_ERFINV_TAIL0),
          (np.inf, True, 4.0, 6.2, F64_ERFINV_TAIL1)),
    F32: ((5.0, False, 0.0, 5.0, F32_ERFINV_CENTRAL), (np.inf, True, 5 ** 0.5, 4.1, F32_ERFINV_TAIL0)),
}


def erfinv(x: np.ndarray) -> np.ndarray:
    """erfinv of a float32 or float64 array in its dtype: Giles' layout (a polynomial in w = -log(1 - x**2),
    then in sqrt(w) towards +-1) with gradcli's own fits; +-1 -> +-inf, beyond -> nan; in blocks as erf."""
    return in_blocks(_erfinv, x)


def _erfinv(x: np.ndarray) -> np.ndarray:
    dtype = x.dtype.type
    one = dtype(1)
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        a = np.abs(flat)
        w = one - a
        w *= a + one  # (1 - a)(1 + a): no cancellation near a = 1
        np.log(w, out=w)
        np.negative(w, out=w)
        out = np.empty_like(flat)
        lower = dtype(0)
        pieces = _ERFINV[dtype]
        for i, (upper, root, lo, hi, coefficients) in enumerate(pieces):
            mask = (w < dtype(upper)) if i == 0 else (w >= lower) & (w < dtype(upper))
            lower = dtype(upper)
            where = np.flatnonzero(mask) if len(pieces) > 1 or i else None
            whole = where is None or where.size == flat.size
            if not whole and where.size == 0:
                continue
            v = w if whole else w[where]
            if root:
                v = np.sqrt(v)
            m = v * dtype(2 / (hi - lo))
            m -= dtype((hi + lo) / (hi - lo))
            p = horner(coefficients, m, dtype)
            if whole:
                p *= flat
                out = p
                break
            out[where] = p * flat[where]
        edge = np.flatnonzero(~(a < one))  # +-1, beyond, nan
        if edge.size:
            e = flat[edge]
            out[edge] = np.where(np.abs(e) == one, np.copysign(dtype(np.inf), e), dtype(np.nan))
    return out.reshape(x.shape)
