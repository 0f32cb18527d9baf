"""Values with an error bound, for `check`'s numerical verdicts: a number is used only with the digits it
really has.

`bounded_function(tree, names)` evaluates a homework tree in mpmath at the current precision and returns a
`Bound` (value, error): a running error analysis, so a sum that cancels (e^x + 1 − e^x at x = 1000, the
derivative 1.3e−94 of a function of size 1.5) carries the error of its largest terms, not the size of its
result.  Each operation adds its own rounding (|result|·ε); a function g of an inexact argument a ± δ adds
max |g(a ± δ) − g(a)| (twice, for curvature), and an argument too inexact for that to be a fair estimate
(δ beyond 10⁻⁸ of its scale, or a neighbour outside the domain) gives an infinite error.

`derivative(fb, values, orders)` is a central difference of order n with a step h = 2^−(bits), evaluated at
a precision that keeps n·bits digits more than the step loses: its error is Σ|cₖ|·err(f(xₖ))/(2h)ⁿ, the
rounding of the stencil, plus the truncation (∝ h²), estimated by the same difference with step 2h.

`settle(compute, wanted_digits)` raises the precision (40, 80, 160, 320, 640 digits) until a comparison is
decided by values whose errors are small enough, or gives up: a verdict never rests on digits a value does
not have.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product

from gradcli.homework import reader
from gradcli.homework.reader import Undefined

LADDER = (40, 80, 160, 320, 640)  # working precisions tried, in decimal digits


@dataclass(frozen=True)
class Bound:
    """A value and a bound on its absolute error."""

    value: object  # mpf
    error: object  # mpf (may be inf)

    def __neg__(self):
        return Bound(-self.value, self.error)

    def _rounded(self, value, error):
        import mpmath

        return Bound(value, error + abs(value) * mpmath.mp.eps)

    def __add__(self, other):
        import mpmath

        other = _lift(other)
        if self.error == 0 and other.error == 0:  # exact operands: the result is exact when it fits
            return _exactly(mpmath.fadd(self.value, other.value, exact=True))
        return self._rounded(self.value + other.value, self.error + other.error)

    __radd__ = __add__

    def __sub__(self, other):
        import mpmath

        other = _lift(other)
        if self.error == 0 and other.error == 0:
            return _exactly(mpmath.fsub(self.value, other.value, exact=True))
        return self._rounded(self.value - other.value, self.error + other.error)

    def __rsub__(self, other):
        return _lift(other) - self

    def __mul__(self, other):
        import mpmath

        other = _lift(other)
        if self.error == 0 and other.error == 0:
            return _exactly(mpmath.fmul(self.value, other.value, exact=True))
        error = abs(self.value) * other.error + abs(other.value) * self.error + self.error * other.error
        return self._rounded(self.value * other.value, error)

    __rmul__ = __mul__

    def __truediv__(self, other):
        import mpmath

        other = _lift(other)
        if other.value == 0:
            if other.error == 0:
                raise Undefined("division by zero")
            return UNKNOWN()  # 1/(0 ± δ): its size is unknown, not undefined
        if other.error * 2 >= abs(other.value):
            return Bound(self.value / other.value, mpmath.inf)
        quotient = self.value / other.value
        if self.error == 0 and other.error == 0:
            exact = mpmath.fmul(quotient, other.value, exact=True) == self.value
            return Bound(quotient, 0 * quotient if exact else abs(quotient) * mpmath.mp.eps)
        return self._rounded(quotient, (self.error + abs(quotient) * other.error) / (abs(other.value) - other.error))

    def __rtruediv__(self, other):
        return _lift(other) / self

    def __pow__(self, n: int):
        result = Bound(self.value ** 0 if n == 0 else self.value, self.error if n else 0 * self.error)
        for _ in range(abs(n) - 1):
            result = result * self
        return 1 / result if n < 0 else result

    def digits(self) -> float:
        """How many significant digits the value has (inf when exact; 0 when none)."""
        import mpmath

        if self.error == 0:
            return math.inf
        if self.value == 0 or not mpmath.isfinite(self.error):
            return 0.0
        return max(0.0, float(-mpmath.log10(self.error / abs(self.value))))


def _exactly(exact) -> Bound:
    """An exact result rounded to the current precision, with error 0 when the rounding changed nothing."""
    import mpmath

    value = +exact
    return Bound(value, 0 * value if value == exact else abs(value) * mpmath.mp.eps)


def UNKNOWN() -> Bound:  # noqa: N802 - a constant made at the current precision
    """A value whose digits are all lost (0 ± ∞): what an inexact zero divides into, or a logarithm of one."""
    import mpmath

    return Bound(mpmath.mpf(0), mpmath.inf)


def _lift(x) -> Bound:
    import mpmath

    return x if isinstance(x, Bound) else Bound(mpmath.mpf(x), mpmath.mpf(0))


def bounded_function(tree: tuple, variables: list[str], exp_limit: float = math.inf):
    """A function of len(variables) exact mpmath numbers -> Bound of the real value of `tree` (the semantics
    of reader.real_function: odd roots of negatives are real, Undefined outside the domain).  exp_limit:
    e^u with |u| above it is Undefined (a checker finding points keeps it small, see real_function); a
    value beyond 2^4000 is unknown (0 ± ∞), never undefined."""
    index = {name: k for k, name in enumerate(variables)}
    compiled = _compile(tree, index)

    def function(*values) -> Bound:
        import mpmath

        previous, reader.EXP_LIMIT[0] = reader.EXP_LIMIT[0], exp_limit
        try:
            with mpmath.workprec(mpmath.mp.prec):
                return compiled(values)
        except (ZeroDivisionError, OverflowError, ValueError) as err:
            raise Undefined(str(err)) from None
        finally:
            reader.EXP_LIMIT[0] = previous

    return function


def _unary(fn, a: Bound) -> Bound:
    """g(a ± δ): the value, and the error from δ estimated by the secant on both sides (doubled)."""
    import mpmath

    if a.error == 0:
        try:
            value = fn(a.value)  # exact argument: Undefined here is the domain's
        except _Huge:
            return UNKNOWN()
        return Bound(value, abs(value) * mpmath.mp.eps * 4)
    try:
        value = fn(a.value)
    except (Undefined, _Huge, ZeroDivisionError, ValueError, OverflowError):
        if mpmath.isfinite(a.error) and _outside(fn, [a.value - a.error, a.value + a.error]):
            raise Undefined("outside the domain") from None  # ln(−1 ± δ): all of it
        return UNKNOWN()  # ln(0 ± δ): the true argument may be in the domain
    rounding = abs(value) * mpmath.mp.eps * 4
    scale = min(1, abs(a.value)) if a.value != 0 else 1
    if not mpmath.isfinite(a.error) or a.error > mpmath.mpf(10) ** -8 * scale:
        return Bound(value, mpmath.inf)
    try:
        spread = max(abs(fn(a.value + a.error) - value), abs(fn(a.value - a.error) - value))
    except (Undefined, _Huge, ZeroDivisionError, ValueError, OverflowError):
        return Bound(value, mpmath.inf)
    return Bound(value, 2 * spread + rounding)


def _outside(fn, corners) -> bool:
    """Whether fn is undefined at every corner of an argument's error interval (then at the value too: the
    domains here are unions of intervals, and an interval of width 2δ ≪ 1 inside a gap is all undefined)."""
    for corner in corners:
        try:
            fn(corner)
        except (Undefined, ZeroDivisionError, ValueError):
            continue
        except (_Huge, OverflowError):
            return False
        return False
    return True


def _binary(fn, a: Bound, b: Bound) -> Bound:
    import mpmath

    if a.error == 0 and b.error == 0:
        try:
            value = fn(a.value, b.value)
        except _Huge:
            return UNKNOWN()
        return Bound(value, abs(value) * mpmath.mp.eps * 4)
    try:
        value = fn(a.value, b.value)
    except (Undefined, _Huge, ZeroDivisionError, ValueError, OverflowError):
        if mpmath.isfinite(a.error) and mpmath.isfinite(b.error) and \
                _outside(lambda ab: fn(*ab), [(a.value + da * a.error, b.value + db * b.error)
                                              for da, db in product((-1, 1), repeat=2)]):
            raise Undefined("outside the domain") from None
        return UNKNOWN()
    rounding = abs(value) * mpmath.mp.eps * 4
    for side in (a, b):
        scale = min(1, abs(side.value)) if side.value != 0 else 1
        if not mpmath.isfinite(side.error) or side.error > mpmath.mpf(10) ** -8 * scale:
            return Bound(value, mpmath.inf)
    spread = 0
    try:
        for da, db in product((-1, 1), repeat=2):
            spread = max(spread, abs(fn(a.value + da * a.error, b.value + db * b.error) - value))
    except (Undefined, _Huge, ZeroDivisionError, ValueError, OverflowError):
        return Bound(value, mpmath.inf)
    return Bound(value, 2 * spread + rounding)


class _Huge(Exception):
    """A value beyond the magnitudes kept: its digits are unknown here, which is not "undefined"."""


def _real(value, mp):
    if isinstance(value, mp.mpc):
        if value.imag != 0:
            raise Undefined("not real")
        value = value.real
    if not mp.isfinite(value) or (value != 0 and mp.mag(value) > reader.MAX_MAGNITUDE):
        raise _Huge
    return value


def _exp(mp, x):
    if x > 2800:  # beyond 2^4000
        raise _Huge
    return reader.exp_value(mp, x)


def _power(mp, base, exponent):
    if base > 0 and exponent * mp.log(base) > 2750:
        raise _Huge
    return reader.power_value(mp, base, exponent)


def _compile(tree: tuple, index: dict):
    import mpmath

    mp = mpmath.mp
    real = _real
    kind = tree[0]
    if kind == "num":
        fraction = tree[1]
        exact = fraction.denominator & (fraction.denominator - 1) == 0  # a dyadic literal (0.5, 3) is exact

        def number(v):
            value = mp.mpf(fraction.numerator) / fraction.denominator
            return Bound(value, 0 * value if exact else abs(value) * mp.eps)

        return number
    if kind == "var":
        k = index[tree[1]]
        return lambda v: Bound(v[k], mp.zero)
    if kind == "const":
        return (lambda v: Bound(+mp.e, mp.e * mp.eps)) if tree[1] == "e" else (lambda v: Bound(+mp.pi, mp.pi * mp.eps))
    if kind == "neg":
        inner = _compile(tree[1], index)
        return lambda v: -inner(v)
    if kind == "call":
        fn = reader.MP_FUNCTIONS[tree[1]]
        args = [_compile(a, index) for a in tree[2]]
        if len(args) == 1:
            (a,) = args
            return lambda v: _unary(lambda x: real(fn(mp, x), mp), a(v))
        first, second = args
        return lambda v: _binary(lambda x, y: real(fn(mp, x, y), mp), first(v), second(v))
    a, b = _compile(tree[1], index), _compile(tree[2], index)
    if kind == "add":
        return lambda v: _checked(a(v) + b(v))
    if kind == "sub":
        return lambda v: _checked(a(v) - b(v))
    if kind == "mul":
        return lambda v: _checked(a(v) * b(v))
    if kind == "div":
        return lambda v: _checked(a(v) / b(v))
    if kind == "pow":
        fraction = reader.constant_fraction(tree[2])
        if tree[1] == ("const", "e"):
            return lambda v: _unary(lambda x: _exp(mp, x), b(v))
        if fraction is not None and fraction.denominator % 2 == 1 and fraction.denominator > 1:
            p, q = fraction.numerator, fraction.denominator

            def odd_root(x):
                exponent = mp.mpf(p) / q
                if x < 0:
                    return real((-1) ** (p % 2) * mp.power(-x, exponent), mp)
                if x == 0 and p < 0:
                    raise Undefined("division by zero")
                return real(mp.power(x, exponent), mp)

            return lambda v: _unary(odd_root, a(v))
        if fraction is not None and fraction.denominator == 1:
            n = int(fraction)

            def integer_power(x):
                if x == 0 and n < 0:
                    raise Undefined("division by zero")
                return real(x ** n, mp)

            def power_of(v):
                base = a(v)
                if base.error == 0 and abs(n) <= 16:  # x² at x = 1 is exactly 1: 1 − x² is exactly 0 there
                    if base.value == 0 and n < 0:
                        raise Undefined("division by zero")
                    result = Bound(mp.one, mp.zero)
                    for _ in range(abs(n)):
                        result = result * base
                    return _checked(1 / result if n < 0 else result)
                return _unary(integer_power, base)

            return power_of
        return lambda v: _binary(lambda x, y: _power(mp, x, y), a(v), b(v))
    raise AssertionError(kind)


def _checked(bound: Bound) -> Bound:
    """A sum, product or quotient beyond the magnitudes kept (|v| > 2^4000) has no digits to compare: unknown,
    not undefined (e^(x²) − e^(x²) + 2x is 2x)."""
    import mpmath

    if not mpmath.isfinite(bound.value) or (bound.value != 0 and mpmath.mag(bound.value) > reader.MAX_MAGNITUDE):
        return UNKNOWN()
    return bound


# -- derivatives --------------------------------------------------------------------------------------

def uses(tree: tuple, name: str) -> bool:
    """Whether the variable `name` occurs in the tree."""
    if tree[0] == "var":
        return tree[1] == name
    for part in tree[1:]:
        if isinstance(part, tuple):
            if part and isinstance(part[0], str):
                if uses(part, name):
                    return True
            elif any(uses(arg, name) for arg in part):
                return True
    return False


def derivative(fb, values: list, orders: tuple[int, ...]) -> Bound:
    """∂ⁿf/∂x₁^n₁…(values) by a central difference, with the error bound of its rounding (see the module's
    docstring), at about the current precision's digits.  Raises Undefined where f is undefined at a
    point of the stencil."""
    import mpmath

    n = sum(orders)
    digits = mpmath.mp.dps
    if n == 0:
        return fb(*values)
    step_digits = digits + 10
    with mpmath.workdps(digits + n * step_digits + 20):
        h = mpmath.ldexp(1, -int(step_digits * 3.33))
        axes = []
        for k in orders:
            axes.append([(j, (-1) ** ((k - j) // 2) * math.comb(k, (k + j) // 2)) for j in range(-k, k + 1, 2)])
        fine, fine_error = _difference(fb, values, axes, h, n)
        coarse, coarse_error = _difference(fb, values, axes, 2 * h, n)
        truncation = abs(fine - coarse)  # ≈ 3× the fine step's truncation error (it goes as h²)
        error = fine_error + coarse_error + truncation
    return Bound(+fine, error + abs(fine) * mpmath.mp.eps * 8)


def _difference(fb, values, axes, h, n):
    """The central difference of steps h, and the bound of its rounding: Σ|cₖ|·err(f(xₖ))/(2h)ⁿ."""
    import mpmath

    total, error = mpmath.mpf(0), mpmath.mpf(0)
    for combination in product(*axes):
        coefficient = 1
        shifted = list(values)
        for i, (j, c) in enumerate(combination):
            coefficient *= c
            if j:
                shifted[i] = values[i] + j * h
        bound = fb(*shifted)
        total += coefficient * bound.value
        error += abs(coefficient) * bound.error
    scale = (2 * h) ** n
    return total / scale, error / scale


__all__ = ["Bound", "LADDER", "bounded_function", "derivative", "uses"]
