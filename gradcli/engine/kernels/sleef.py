"""SLEEF's vector exp, as torch's Vectorized<float>::exp() and Vectorized<double>::exp() call it (Sleef_expf8_u10
and Sleef_expd4_u10, FMA flavour; sleefsimdsp.c xexpf, sleefsimddp.c xexp), operation by operation, to the bit.
The kernels built on it - sigmoid, silu, ... - reproduce torch's vector lanes with these; their scalar lanes call
the C library (kernels/libm.py)."""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import native
from gradcli.engine.kernels.fused import fma32, fma64_core

F32, F64 = np.float32, np.float64
_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_EXPF_POLY = tuple(F32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                                    0.00833336077630519866943359, 0.0416664853692054748535156,
                                    0.166666671633720397949219, 0.5))
# xexp's degree-10 polynomial, highest power first (POLY10: Estrin's scheme over s, s**2, s**4, s**8)
_EXP_POLY = (0.2081276378237164457e-8, 0.2511210703042288022e-7, 0.2755762628169491192e-6,
             0.2755723402025388239e-5, 0.2480158687479686264e-4, 0.1984126989855865850e-3,
             0.1388888888914497797e-2, 0.8333333333314938210e-2, 0.4166666666666602598e-1,
             0.1666666666666669072e+0)


def ldexpf(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """x * 2**q as SLEEF's vldexp_vf_vf_vi2 computes it (four partial scalings, then the rest)."""
    q = q.astype(np.int32)
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = np.clip(m + 0x7F, 0, 0xFF).astype(np.int32)
    u = (m << 23).view(F32)
    x = (((x * u) * u) * u) * u
    return x * ((q + 0x7F).astype(np.int32) << 23).view(F32)


def expf(d: np.ndarray) -> np.ndarray:
    """Sleef_expf8_u10 of a float32 array."""
    d = np.asarray(d, F32)
    compiled = native.sleef_exp()
    if compiled is not None:
        return compiled(d)
    with np.errstate(all="ignore"):
        q = np.rint(d * F32(_R_LN2))
        q = np.where(np.abs(q) < 2.0 ** 31, q, 0).astype(np.int32)
        qf = q.astype(F32)
        s = fma32(qf, F32(-0.693145751953125), d)
        s = fma32(qf, F32(-1.428606765330187045e-06), s)
        u = _EXPF_POLY[0]
        for c in _EXPF_POLY[1:]:
            u = fma32(u, s, c)
        u = F32(1) + fma32(s * s, u, s)
        u = ldexpf(u, q)
        u = np.where(d < F32(-104), F32(0), u)
        return np.asarray(np.where(F32(100) < d, F32(np.inf), u), dtype=F32)


def _pow2i(q: np.ndarray) -> np.ndarray:
    return ((q + 0x3FF).astype(np.int64) << 52).view(F64)


def exp(d: np.ndarray) -> np.ndarray:
    """Sleef_expd8_u10 of a float64 array.  Its independent multiply-adds (Estrin's scheme) go through one
    fused call per level, stacked: fewer numpy calls on small arrays."""
    d = np.asarray(d, F64)
    compiled = native.sleef_exp()
    if compiled is not None:
        return compiled(d)
    with np.errstate(all="ignore"):
        u = np.rint(d * _R_LN2)
        q = np.where(np.abs(u) < 2.0 ** 31, u, 0).astype(np.int64)
        u = np.where(np.isfinite(u), u, 0.0)  # out-of-range lanes are replaced below; keep their arithmetic tame
        s = np.where(np.isfinite(d), d, 0.0) - u * 0.69314718055966295651160180568695068359375  # exact product
        s = fma64_core(u, -0.28235290563031577122588448175013436025525412068e-12, s)
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        c = np.array(_EXP_POLY).reshape(-1, *([1] * s.ndim))
        # POLY10 = s8 * POLY2(c9, c8) + POLY8; POLY8 = s4 * POLY4(c7..c4) + POLY4(c3..c0); POLY4 = s2 * POLY2 + POLY2
        pairs = fma64_core(s, c[0::2], c[1::2])  # the five POLY2s: c9 s + c8, c7 s + c6, ..., c1 s + c0
        quads = fma64_core(np.stack([s2, s2]), pairs[[1, 3]], pairs[[2, 4]])
        poly8 = fma64_core(s4, quads[0], quads[1])
        u = fma64_core(s8, pairs[0], poly8)
        u = fma64_core(u, s, 0.5)
        u = fma64_core(u, s, 1.0)
        u = fma64_core(u, s, 1.0)
        half = q >> 1
        u = u * _pow2i(half) * _pow2i(q - half)
        u = np.where(d < -1000, 0.0, u)
        u = np.where(709.78271114955742909217217426 < d, np.inf, u)
        return np.asarray(np.where(np.isnan(d), d, u), dtype=F64)
