"""numpy's own best expression of the special functions numpy has no ufunc for: bench_kernels.py's yardstick.

Issue 27's bound is 2x "the slower of torch's single-thread time and numpy's own best expression of the same
formula".  For erf, erfc, erfinv and gelu that expression is what a competent numpy user writes from the
published approximations of the same accuracy as gradcli's fast kernels (1-6 ulps; measured against torch by
`python benchmarks/special_baselines.py`): Cephes' rational approximations for erf/erfc (ndtr.c in float64,
ndtrf.c in float32), Giles' polynomials for erfinv ("Approximating the erfinv function", GPU Computing Gems,
2011), in the input's dtype, Horner's rule in place on one buffer, each region on its own elements (gathered by
index, so no element pays for both branches), exp(-x**2) from a head whose square is exact times a tail's
(Cephes' expx2: without it erfc loses x**2 ulps and would not be of the same accuracy).  Nothing here is part of
gradcli: a benchmark's reference only.

Measured by `python benchmarks/special_baselines.py` (ulps from torch 2.13, max over 200,000 arguments /
max where |result| >= 1e-3; baseline, then gradcli's fast kernel):

  erf     2 / 2, 3 / 3 (float32, float64)    gradcli 2 / 2, 2 / 2
  erfc    9 / 9, 10 / 10                     gradcli 4 / 4, 5 / 5
  erfinv  4 / 4, 4 / 4                       gradcli 3 / 3, 2 / 2
  gelu    both as torch's own formula: 1e38 / 7,900 float32 (0 against a tiny value), 7e4 / 870 float64
  lgamma  5.5e4 / 1,890, 4.2e4 / 2,120       gradcli 11 / 11, 6 / 6
  digamma 8.6e4 / 3,100, 2.6e5 / 1,700       gradcli 32 / 32, 128 / 128

so lgamma and digamma (Cephes' lgam and psi, below for the record) lose their relative accuracy near the zeros
of lgamma and the root of digamma, where gradcli's kernels keep it: they are not of the same accuracy, and
bench_kernels.py does not use them as its yardstick (torch alone is).
"""

from __future__ import annotations

import numpy as np

F32, F64 = np.float32, np.float64

# Cephes ndtr.c (float64)
_T = (9.60497373987051638749E0, 9.00260197203842689217E1, 2.23200534594684319226E3, 7.00332514112805075473E3,
      5.55923013010394962768E4)
_U = (3.35617141647503099647E1, 5.21357949780152679795E2, 4.59432382970980127987E3, 2.26290000613890934246E4,
      4.92673942608635921086E4)  # monic
_P = (2.46196981473530512524E-10, 5.64189564831068821977E-1, 7.46321056442269912687E0, 4.86371970985681366614E1,
      1.96520832956077098242E2, 5.26445194995477358631E2, 9.34528527171957607540E2, 1.02755188689515710272E3,
      5.57535335369399327526E2)
_Q = (1.32281951154744992508E1, 8.67072140885989742329E1, 3.54937778887819891062E2, 9.75708501743205489753E2,
      1.82390916687909736289E3, 2.24633760818710981792E3, 1.65666309194161350182E3, 5.57535340817727675546E2)
_R = (5.64189583547755073984E-1, 1.27536670759978104416E0, 5.01905042251180477414E0, 6.16021097993053585195E0,
      7.40974269950448939160E0, 2.97886665372100240670E0)
_S = (2.26052863220117276590E0, 9.39603524938001434673E0, 1.20489539808096656605E1, 1.70814450747565897222E1,
      9.60896809063285878198E0, 3.36907645100081516050E0)  # monic
# Cephes ndtrf.c (float32)
_TF = (7.853861353153693E-5, -8.010193625184903E-4, 5.188327685732524E-3, -2.685381193529856E-2,
       1.128358514861418E-1, -3.761262582423300E-1, 1.128379165726710E+0)
_PF = (2.326819970068386E-2, -1.387039388740657E-1, 3.687424674597105E-1, -5.824733027278666E-1,
       6.210004621745983E-1, -4.944515323274145E-1, 3.404879937665872E-1, -2.741127028184656E-1,
       5.638259427386472E-1)
_RF = (-1.047766399936249E+1, 1.297719955372516E+1, -7.495518717768503E+0, 2.921019019210786E+0,
       -1.015265279202700E+0, 4.218463358204948E-1, -2.820767439740514E-1, 5.641895067754075E-1)
# Giles' erfinv: (upper bound of w, square root of w?, shift, coefficients)
_GILES32 = (
    (5.0, False, 2.5, (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                       -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)),
    (np.inf, True, 3.0, (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                         -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)))
_GILES64 = (
    (6.25, False, 3.125, (-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
                          1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
                          6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
                          2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
                          1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
                          4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
                          0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
                          0.24015818242558961693, 1.6536545626831027356)),
    (16.0, True, 3.25, (2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
                        1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
                        2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
                        6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
                        0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
                        -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
                        3.0838856104922207635)),
    (np.inf, True, 5.0, (-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
                         -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
                         2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
                         -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
                         7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
                         1.0103004648645343977, 4.8499064014085844221)))


def polevl(z, coefficients, monic=False):
    """The polynomial (highest power first; `monic`: a leading 1 not listed) at z, in z's dtype: one buffer."""
    d = z.dtype.type
    r = z + d(coefficients[0]) if monic else z * d(coefficients[0])
    if not monic:
        r += d(coefficients[1])
    for c in coefficients[1 if monic else 2:]:
        r *= z
        r += d(c)
    return r


def split(x, cond, inside, outside):
    """inside(x[cond]) and outside(x[~cond]), each on its own elements gathered by index."""
    i = np.flatnonzero(cond)
    if i.size == x.size:
        return inside(x)
    out = np.empty_like(x)
    o = np.flatnonzero(~cond)
    if i.size:
        out[i] = inside(x[i])
    if o.size:
        out[o] = outside(x[o])
    return out


def exp_minus_square(a):
    """exp(-a*a) without a*a's rounding: a = head + tail, head's square exact (Cephes' expx2)."""
    bits, mask = (np.uint32, 0xFFFFF000) if a.dtype == F32 else (np.uint64, 0xFFFFFFFFF8000000)
    head = (a.view(bits) & bits(mask)).view(a.dtype)
    e = np.multiply(head, head)
    np.negative(e, out=e)
    np.exp(e, out=e)
    t = a - head
    t *= a + head
    np.negative(t, out=t)
    np.exp(t, out=t)
    e *= t
    return e


def _erf_small(x):
    z = x * x
    if x.dtype == F32:
        p = polevl(z, _TF)
    else:
        p = polevl(z, _T)
        p /= polevl(z, _U, monic=True)
    p *= x
    return p


def _erfc_tail(a):
    """erfc(a), a >= 1 (nan stays nan)."""
    d = a.dtype.type
    a = np.minimum(a, d(10 if a.dtype == F32 else 27))  # erfc underflows beyond
    e = exp_minus_square(a)
    if a.dtype == F32:  # exp(-a^2) / a * P(1/a^2), P on [1, 2), R beyond
        q = np.reciprocal(a)
        y = q * q
        e *= q
        e *= split(y, a < 2, lambda v: polevl(v, _PF), lambda v: polevl(v, _RF))
        return e
    # exp(-a^2) P(a) / Q(a) below 8, R / S beyond
    e *= split(a, a < 8, lambda v: polevl(v, _P) / polevl(v, _Q, monic=True),
               lambda v: polevl(v, _R) / polevl(v, _S, monic=True))
    return e


def erf(x):
    d = x.dtype.type

    def tail(v):
        r = _erfc_tail(np.abs(v))
        np.subtract(d(1), r, out=r)
        return np.copysign(r, v, out=r)

    with np.errstate(all="ignore"):
        return split(x, np.abs(x) < 1, _erf_small, tail)


def erfc(x):
    d = x.dtype.type

    def small(v):
        r = _erf_small(v)
        return np.subtract(d(1), r, out=r)

    def tail(v):
        r = _erfc_tail(np.abs(v))
        neg = np.flatnonzero(v < 0)
        r[neg] = d(2) - r[neg]
        return r

    with np.errstate(all="ignore"):
        return split(x, np.abs(x) < 1, small, tail)


def erfinv(x):
    d = x.dtype.type
    with np.errstate(all="ignore"):
        w = d(1) - x
        w *= d(1) + x
        np.log(w, out=w)
        np.negative(w, out=w)
        out = np.empty_like(x)
        lower = -np.inf
        for upper, root, shift, coefficients in (_GILES32 if x.dtype == F32 else _GILES64):
            i = np.flatnonzero((w < upper) & (w >= lower)) if lower > -np.inf or upper < np.inf else None
            lower = upper
            v = w[i] if i is not None and i.size < x.size else w
            if v.size == 0:
                continue
            if root:
                v = np.sqrt(v)
            v = v - d(shift)
            p = polevl(v, coefficients)
            if v.size == x.size:
                p *= x
                out = p
                break
            p *= x[i]
            out[i] = p
        edge = np.flatnonzero(np.abs(x) >= d(1))
        out[edge] = np.where(np.abs(x[edge]) == d(1), np.copysign(d(np.inf), x[edge]), d(np.nan))
    return out


def gelu(x):
    """torch's x * 0.5 * (1 + erf(x * M_SQRT1_2)), with erf above."""
    d = x.dtype.type
    r = erf(x * d(0.7071067811865476))
    r += d(1)
    r *= x
    r *= d(0.5)
    return r


# Cephes lgam (float64): Stirling's series (A) from 13 up, B/C for lgamma(2 + x) on [0, 1)
_LGAM_A = (8.11614167470508450300E-4, -5.95061904284301438324E-4, 7.93650340457716943945E-4,
           -2.77777777730099687205E-3, 8.33333333333331927722E-2)
_LGAM_B = (-1.37825152569120859100E3, -3.88016315134637840924E4, -3.31612992738871184744E5,
           -1.16237097492762307383E6, -1.72173700820839662146E6, -8.53555664245765465627E5)
_LGAM_C = (-3.51815701436523470549E2, -1.70642106651881159223E4, -2.20528590553854454839E5,
           -1.13933444367982507207E6, -2.53252307177582951285E6, -2.01889141433532773231E6)  # monic
_LS2PI = 0.91893853320467274178
# Cephes psi: the asymptotic series' B_2k / 2k, k = 7 .. 1
_PSI_A = (7 / 6 / 14, -691 / 2730 / 12, 5 / 66 / 10, -1 / 30 / 8, 1 / 42 / 6, -1 / 30 / 4, 1 / 6 / 2)


def lgamma(x):
    """Cephes' lgam for x > 0 (the benchmark's domain), in x's dtype: below 13 the recurrence moves u = x into
    [2, 3) (the factors' product z, one masked step at a time, as a vector loop must), then log(z) +
    e B(e) / C(e), e = u - 2; from 13, Stirling's series."""
    d = x.dtype.type
    one = d(1)

    def small(v):
        u = v.copy()
        z = np.ones_like(v)
        step = np.empty_like(v)
        while True:  # down from above 3: z *= u - 1, u -= 1
            np.greater_equal(u, d(3), out=step, casting="unsafe")
            if not step.any():
                break
            u -= step
            t = u * step
            t += one - step
            z *= t
        while True:  # up from below 2: z /= u, u += 1
            np.less(u, d(2), out=step, casting="unsafe")
            if not step.any():
                break
            t = u * step
            t += one - step
            z /= t
            u += step
        u -= d(2)
        p = polevl(u, _LGAM_B)
        p *= u
        p /= polevl(u, _LGAM_C, monic=True)
        np.abs(z, out=z)
        np.log(z, out=z)
        z += p
        return z

    def large(v):
        q = (v - d(0.5)) * np.log(v)
        q -= v
        q += d(_LS2PI)
        w = np.reciprocal(v)
        s = polevl(w * w, _LGAM_A)
        s *= w
        q += s
        return q

    with np.errstate(all="ignore"):
        return split(x, x < d(13), small, large)


def digamma(x):
    """Cephes' psi for x > 0 (the benchmark's domain), in x's dtype: 1/x added while x < 10 (masked steps),
    then log(x) - 1/(2x) - z A(z), z = 1/x**2, minus the sum."""
    d = x.dtype.type
    with np.errstate(all="ignore"):
        v = x.copy()
        w = np.zeros_like(x)
        step = np.empty_like(x)
        while True:
            np.less(v, d(10), out=step, casting="unsafe")
            if not step.any():
                break
            w += step / v
            v += step
        r = np.reciprocal(v)
        y = polevl(r * r, _PSI_A)
        y *= r * r
        r *= d(0.5)
        out = np.log(v)
        out -= r
        out -= y
        out -= w
    return out


def _ulps(a, b):
    """The distance in ulps of b between a and b (nan == nan)."""
    a, b = np.asarray(a), np.asarray(b)
    spacing = np.spacing(np.maximum(np.abs(b), np.finfo(b.dtype).tiny)).astype(np.float64)
    d = np.abs(a.astype(np.float64) - b.astype(np.float64)) / spacing
    d[(np.isnan(a) & np.isnan(b)) | (a == b)] = 0
    return d


if __name__ == "__main__":  # the baselines' accuracy against torch, beside gradcli's fast kernels' (dev only)
    import sys
    from pathlib import Path

    import torch

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from gradcli import engine as E

    rng = np.random.default_rng(1)
    print("ulps from torch's result: max, and max where |result| >= 1e-3 (away from the zeros, where relative "
          "error is cancellation's)")
    for name, fn, lo, hi in (("erf", erf, -6, 6), ("erfc", erfc, -6, 10), ("erfinv", erfinv, -1, 1),
                             ("gelu", gelu, -6, 6), ("lgamma", lgamma, 0.01, 10), ("digamma", digamma, 0.01, 10)):
        for dtype in (F32, F64):
            x = np.concatenate([rng.uniform(lo, hi, 100_000), rng.standard_normal(100_000)]).astype(dtype)
            x = x[(x > lo) & (x < hi)]
            op = getattr(torch.nn.functional, name, None) if name == "gelu" else getattr(torch, name)
            ref = op(torch.from_numpy(x)).numpy()
            ours = E.ops.REGISTRY[name].fn(E.Tensor(x)).array
            away = np.abs(ref) >= 1e-3
            line = f"{name:<8}{dtype.__name__:<9}"
            for label, got in (("baseline", fn(x)), ("gradcli", ours)):
                u = _ulps(got, ref)
                line += f"  {label} {u.max():9.3g} / {u[away].max():5.3g}"
            print(line)
