"""Fit the polynomials of gradcli's fast erf/erfc and lgamma kernels (gradcli/engine/kernels/vector_erf.py,
vector_lgamma.py) and print them.

erf/erfc, in two regions for float32 and float64 each:
  |x| < 1:  erf(x) = x * P(m),  m = 2 x**2 - 1 in [-1, 1]
  |x| >= R: erfc(z) = t * exp(Q(m) - z**2),  t = 1 / (1 + z / 2),  m = (2 t - (t_lo + t_hi)) / (t_hi - t_lo)
            (R = 0.5; t_lo = t(28) for float64, t(10) for float32, where erfc underflows)
P and Q are Chebyshev interpolants (at Chebyshev nodes, computed with mpmath at 50 digits) converted to powers
of m and rounded to float64: the interpolation error is far below an ulp, the rest is Horner's rounding.
The variable t (Numerical Recipes' erfcc) makes the tail one smooth function from 0.5 to the underflow.

    python scripts/fit_erf_kernel.py      # prints the tuples erf.py holds
"""

from __future__ import annotations

import textwrap

import mpmath

mpmath.mp.dps = 50
P_HALF = mpmath.mpf(1) / 2  # t = 1 / (1 + P_HALF * z)
TAIL_FROM = mpmath.mpf(1) / 2


def chebyshev_powers(f, a, b, n):
    """The degree n-1 Chebyshev interpolant of f on [a, b], as power coefficients (low first) of the variable
    mapped to [-1, 1]."""
    nodes = [mpmath.cos(mpmath.pi * (k + P_HALF) / n) for k in range(n)]
    values = [f((b - a) / 2 * m + (a + b) / 2) for m in nodes]
    cheb = [2 * sum(v * mpmath.cos(mpmath.pi * j * (k + P_HALF) / n) for k, v in enumerate(values)) / n
            for j in range(n)]
    cheb[0] /= 2
    basis = [[mpmath.mpf(1)], [mpmath.mpf(0), mpmath.mpf(1)]]
    while len(basis) < n:
        new = [mpmath.mpf(0)] + [2 * v for v in basis[-1]]
        for i, v in enumerate(basis[-2]):
            new[i] -= v
        basis.append(new)
    powers = [mpmath.mpf(0)] * n
    for j in range(n):
        for i, v in enumerate(basis[j]):
            powers[i] += cheb[j] * v
    return powers


def erf_over_x(s):
    return mpmath.erf(mpmath.sqrt(s)) / mpmath.sqrt(s) if s > 0 else 2 / mpmath.sqrt(mpmath.pi)


def tail(t):
    z = (1 / t - 1) / P_HALF
    return mpmath.log(mpmath.erfc(z) / t) + z * z


def wrapped(name, coefficients):
    """`name = (...)`, the highest power first, in lines of at most 116 characters."""
    text = f"{name} = ({', '.join(repr(float(c)) for c in reversed(coefficients))})"
    return "\n".join(textwrap.wrap(text, 116, subsequent_indent="    ", break_on_hyphens=False))


def lgamma_over_e(e):
    return mpmath.loggamma(2 + e) / e if e != 0 else mpmath.digamma(2)


def erfinv_over_x(w):
    x = mpmath.sqrt(-mpmath.expm1(-w))
    return mpmath.erfinv(x) / x if x != 0 else mpmath.sqrt(mpmath.pi) / 2


def erfinv_over_x_of_root(s):
    return erfinv_over_x(s * s)


def main():
    for name, n_small, n_tail, underflow in (("F64", 12, 24, 28), ("F32", 6, 10, 10)):
        small = chebyshev_powers(erf_over_x, mpmath.mpf(0), mpmath.mpf(1), n_small)
        lo, hi = 1 / (1 + P_HALF * underflow), 1 / (1 + P_HALF * TAIL_FROM)
        big = chebyshev_powers(tail, lo, hi, n_tail)
        print(wrapped(f"{name}_SMALL", small))
        print(wrapped(f"{name}_TAIL", big))
        print(f"{name}_TAIL_T = ({float(lo)!r}, {float(hi)!r})")
    for name, central, pieces in (("F64", 6.25, ((24, 2.5, 4), (18, 4, 6.2))), ("F32", 5, ((10, 5 ** 0.5, 4.1),))):
        print(wrapped(f"{name}_ERFINV_CENTRAL", chebyshev_powers(erfinv_over_x, mpmath.mpf(0), mpmath.mpf(central),
                                                                  24 if name == "F64" else 10)))
        for i, (n, lo, hi) in enumerate(pieces):
            coefficients = chebyshev_powers(erfinv_over_x_of_root, mpmath.mpf(lo), mpmath.mpf(hi), n)
            print(wrapped(f"{name}_ERFINV_TAIL{i}", coefficients))
    print("# vector_lgamma.py")
    for name, n in (("F64", 22), ("F32", 10)):
        print(wrapped(f"{name}_NEAR_2", chebyshev_powers(lgamma_over_e, -P_HALF, P_HALF, n)))


if __name__ == "__main__":
    main()
