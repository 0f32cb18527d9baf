"""Proofs that an expression of one real variable is 0 wherever a function is defined, region by region.

`check` proves a student's answer by showing answer − derivative = 0.  sympy's `simplify` works for every
complex value of a real symbol, so it cannot use what the domain says: √((1 − x)/(1 + x))·(1 + x) =
√(1 − x²) only for −1 < x ≤ 1, |x² − 10⁻⁶| = x² − 10⁻⁶ only for |x| ≥ 10⁻³.  Here the real line is cut at
every point where something in the expression (or in the function) changes its nature — a zero of the
argument of |u|, sign(u), H(u), of a radicand, of a logarithm's argument, of a denominator, u = ±1 for
arcsin u and arccos u, and 0 — computed exactly (the arguments must be rational functions of x with roots
sympy writes in radicals).  On each open region between two cuts every such argument keeps one sign, which is
read exactly at a dyadic point of the region (a float, so the numbers can look there too).  A region where
the function is not real is outside the domain; on every other region:

- |u|, sign(u), H(u) become ±u, ±1, 0/1 by that sign;
- x becomes a parametrisation of the region by a positive t (a + t, b − t, (a + b·t)/(1 + t)), so every
  factor that keeps its sign there is visibly positive or negative to sympy, which then simplifies the
  square roots (√(1/t) = 1/√t);
- what is left is shown to be 0 by cancel, simplify, or simplify of its exp form; failing that, when it holds
  an inverse trigonometric or hyperbolic function (arctan(1/x) + arctan(x) = π/2 on x > 0), by derivative
  and point: it is continuous on the region (every place where it could jump or have a pole is a cut), its
  derivative is shown to be 0 there as above, and its value at one point of the region is exactly 0.

Every step is an identity on the region, so 0 on every region of the domain is a proof; anything else is
"not proven" (`RegionProof.proven` False), never a guess.  The regions are also handed back, so the caller
can compare the numbers at each region's point (a wrong answer differing only on −10⁻³ < x < 10⁻³).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

_INVERSE = (sp.asin, sp.acos, sp.atan, sp.acot, sp.asinh, sp.acosh, sp.atanh, sp.acoth, sp.asec, sp.acsc)
_KINKS = (sp.Abs, sp.sign, sp.Heaviside)
_SMOOTH = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.tanh, sp.sech, sp.atan, sp.asinh, sp.erf, sp.erfc)
_POLE_AT_ZERO = (sp.coth, sp.csch, sp.acot, sp.log)
_UNIT_RANGE = (sp.asin, sp.acos, sp.atanh, sp.acoth, sp.asec, sp.acsc)
MAX_CUTS = 24
MAX_REGIONS = 25


class Unsupported(Exception):
    """The expression holds something whose cuts cannot be found exactly (tan x, |cos x|, a root of degree 5)."""


@dataclass
class Region:
    left: object  # a sympy number, or -oo
    right: object  # a sympy number, or oo
    point: object  # a dyadic sympy Rational strictly inside

    def parametrised(self, t):
        """x as a function of t > 0 running over the region."""
        a, b = self.left, self.right
        if a == -sp.oo and b == sp.oo:
            raise ValueError("the whole line is cut at 0")
        if a == -sp.oo:
            return b - t
        if b == sp.oo:
            return a + t
        return (a + b * t) / (1 + t)

    def contains(self, value) -> bool:
        return bool((self.left == -sp.oo or value > self.left) and (self.right == sp.oo or value < self.right))


@dataclass
class RegionProof:
    proven: bool
    regions: list = field(default_factory=list)  # the regions of the domain (the function real there)
    failed: Region | None = None  # the first region where no proof was found
    how: str = ""


def cut_arguments(expr, x) -> list:
    """The expressions whose zeros cut the line for `expr` (see the module); Unsupported when one of its
    functions has cuts that are not zeros of a rational function of x."""
    found = []
    for node in sp.preorder_traversal(expr):
        if not node.has(x) or node.is_Symbol or node.is_Number:
            continue
        if node.is_Add or node.is_Mul:
            continue
        if node.is_Pow:
            base, exponent = node.args
            if exponent.has(x):
                found.append(base)  # b^e = exp(e·ln b)
            elif not (exponent.is_Integer and exponent >= 0):
                found.append(base)  # a pole, or a root whose radicand's sign matters
            continue
        if isinstance(node, (*_KINKS, sp.DiracDelta)):  # δ(u): 0 wherever u ≠ 0 (sign's derivative)
            found.append(node.args[0])
        elif isinstance(node, (sp.Max, sp.Min)):
            found += [a - b for k, a in enumerate(node.args) for b in node.args[k + 1:]]
        elif isinstance(node, _UNIT_RANGE):
            u = node.args[0]
            found += [u - 1, u + 1] + ([u] if isinstance(node, (sp.asec, sp.acsc, sp.acoth)) else [])
        elif isinstance(node, sp.acosh):
            found += [node.args[0] - 1, node.args[0] + 1]
        elif isinstance(node, _POLE_AT_ZERO):
            found.append(node.args[0])
        elif isinstance(node, _SMOOTH):
            continue
        else:
            raise Unsupported(type(node).__name__)
    return found


def cuts(exprs, x) -> list:
    """The sorted exact real points where the line is cut for all of `exprs` (0 always among them)."""
    points = {sp.Integer(0)}
    for expr in exprs:
        for argument in cut_arguments(expr, x):
            points.update(zeros_and_poles(argument, x))
            if len(points) > MAX_CUTS:
                raise Unsupported("too many cuts")
    return sorted(points, key=lambda p: float(p))


def zeros_and_poles(u, x, depth: int = 0) -> set:
    """Every real point where `u` is 0 or has a pole (a superset), exactly; Unsupported when they cannot be
    found that way.  A product by its factors, a power by its base, |v| and sign(v) by v, exp by nothing, a
    sum holding |v| by each sign of v (it is one of those sums on each side of v's zeros)."""
    if depth > 6:
        raise Unsupported("too deep")
    u = sp.factor_terms(sp.together(u))
    if not u.has(x):
        return set()
    numerator, denominator = sp.fraction(u)
    if denominator.has(x):
        return zeros_and_poles(numerator, x, depth + 1) | zeros_and_poles(denominator, x, depth + 1)
    if u.is_Mul:
        return set().union(*(zeros_and_poles(factor, x, depth + 1) for factor in u.args))
    if u.is_Pow:
        return zeros_and_poles(u.args[0], x, depth + 1)
    if isinstance(u, (sp.Abs, sp.sign)):
        return zeros_and_poles(u.args[0], x, depth + 1)
    if isinstance(u, sp.exp):
        return set()
    kinks = [k for k in u.atoms(sp.Abs, sp.sign) if k.has(x)]
    if kinks:
        if len(kinks) > 3:
            raise Unsupported("too many kinks in one argument")
        found = set()
        for k in kinks:
            found |= zeros_and_poles(k.args[0], x, depth + 1)
        for signs in _sign_choices(len(kinks)):
            replaced = {k: s * k.args[0] if isinstance(k, sp.Abs) else sp.Integer(s) for k, s in zip(kinks, signs)}
            found |= zeros_and_poles(u.xreplace(replaced), x, depth + 1)
        return found
    try:
        poly = sp.Poly(u, x)
    except sp.PolynomialError:
        return _solved(u, x)
    if poly.is_zero:
        return set()
    if not all(c.is_real for c in poly.coeffs()):
        raise Unsupported("coefficients")
    try:
        roots = poly.real_roots()
    except (NotImplementedError, sp.PolynomialError, sp.DomainError) as err:
        raise Unsupported(str(err)) from None
    if any(r.has(sp.CRootOf) for r in roots):
        raise Unsupported("a root sympy cannot write in radicals")
    return set(roots)


def _solved(u, x) -> set:
    """The real zeros of a sum that is not a polynomial (x/√(x² + 1) − 1, √(x + 2) − x, e^x − 2) by sympy's
    solveset, when it gives them as a finite set of numbers."""
    found = sp.solveset(u, x, sp.S.Reals)
    if not isinstance(found, (sp.FiniteSet, type(sp.S.EmptySet))):
        raise Unsupported(f"the zeros of {u}")
    if any(not p.is_real or p.has(sp.CRootOf) for p in found):
        raise Unsupported(f"the zeros of {u}")
    return set(found)


def _sign_choices(n: int):
    if n == 0:
        yield ()
        return
    for rest in _sign_choices(n - 1):
        yield (*rest, 1)
        yield (*rest, -1)


def dyadic_inside(left, right):
    """The plainest dyadic rational strictly between left and right (either may be infinite): an integer if
    one fits, else a half, a quarter ..."""
    if left == -sp.oo:
        return sp.ceiling(right) - 1
    if right == sp.oo:
        return sp.floor(left) + 1
    for k in range(0, 80):
        scale = sp.Integer(2) ** k
        candidate = (sp.floor(left * scale) + 1) / scale
        if candidate < right:
            return candidate
    raise Unsupported("a region too narrow for a dyadic point")


def regions(exprs, x) -> list[Region]:
    points = cuts(exprs, x)
    bounds = [-sp.oo, *points, sp.oo]
    found = [Region(a, b, dyadic_inside(a, b)) for a, b in zip(bounds, bounds[1:])]
    if len(found) > MAX_REGIONS:
        raise Unsupported("too many regions")
    return found


def real_at(expr, x, value) -> bool | None:
    """Whether `expr` is real and finite at x = value (exact): True, False, or None when sympy cannot tell."""
    at = expr.subs(x, value)
    if at.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return False
    if at.is_extended_real is True:
        return bool(at.is_finite is not False)
    if at.is_extended_real is False:
        return False
    try:
        number = sp.N(at, 30, strict=True)
    except Exception:  # noqa: BLE001 - cannot evaluate: cannot tell
        return None
    real, imaginary = number.as_real_imag()
    if abs(imaginary) > sp.Float(10) ** -20 * (1 + abs(real)):
        return False
    return None


def defined_at(function, x, value) -> bool:
    """Whether `function` is defined at x = value as a real function: every step of it is real there, not
    only the whole (√x + 1/√x is i − i = 0 at x = −1, a number sympy calls real, where nothing is defined).
    A step sympy cannot tell about counts as defined."""
    steps = [node for node in sp.preorder_traversal(function) if node.has(x) and not node.is_Symbol]
    return all(real_at(step, x, value) is not False for step in steps)


def unfold_kinks(expr, x, value):
    """`expr` with |u|, sign(u), H(u), δ(u) replaced by their values on the region holding x = value."""
    replaced = {}
    for node in expr.atoms(*_KINKS):
        sign = sp.sign(node.args[0].subs(x, value))
        if sign not in (1, -1):
            raise Unsupported("a kink's sign at the region's point")
        u = node.args[0]
        replaced[node] = sign * u if isinstance(node, sp.Abs) else sign if isinstance(node, sp.sign) else \
            sp.Integer(1 if sign > 0 else 0)
    for node in expr.atoms(sp.DiracDelta):  # δ(u) and its derivatives are 0 where u ≠ 0
        if sp.sign(node.args[0].subs(x, value)) not in (1, -1):
            raise Unsupported("a delta's argument at the region's point")
        replaced[node] = sp.Integer(0)
    for node in expr.atoms(sp.Max, sp.Min):
        values = [a.subs(x, value) for a in node.args]
        pick = max if isinstance(node, sp.Max) else min
        replaced[node] = node.args[values.index(pick(values))]
    return expr.xreplace(replaced) if replaced else expr


def _factored_radicands(expr):
    return expr.replace(lambda e: e.is_Pow and e.exp.is_Rational and not e.exp.is_Integer and e.base.is_Add,
                        lambda e: sp.factor(e.base) ** e.exp)


def _principal_is_real(expr, x, value) -> bool:
    """Whether every fractional power in `expr` has a positive base at x = value, so on the region sympy's
    principal roots are the real ones the reader means (∛ of a negative number, u^(2/3)): a proof about
    principal roots where they are complex would be about other functions."""
    for node in expr.atoms(sp.Pow):
        if node.has(x) and not node.exp.is_Integer:
            if sp.sign(node.base.subs(x, value)) != 1:
                return False
    return True


def _is_zero(expr) -> bool:
    if expr == 0:
        return True
    together = sp.cancel(sp.together(_factored_radicands(expr)))
    if together == 0:
        return True
    if sp.simplify(together) == 0:
        return True
    return expr.has(sp.sinh, sp.cosh, sp.tanh, sp.sech, sp.csch, sp.coth) and \
        sp.simplify(expr.rewrite(sp.exp)) == 0


def _zero_on(expr, x, region: Region, t) -> bool:
    """expr (kinks unfolded) is 0 on the region, as an identity in t > 0."""
    if expr == 0:
        return True
    return _is_zero(expr.subs(x, region.parametrised(t)))


PLAIN_POINTS = (0, 1, -1, sp.Rational(1, 2), -sp.Rational(1, 2), 2, -2, 3, -3, sp.sqrt(3), -sp.sqrt(3),
                1 / sp.sqrt(3), -1 / sp.sqrt(3), sp.sqrt(2), -sp.sqrt(2), 1 / sp.sqrt(2), -1 / sp.sqrt(2))


def _by_derivative_and_point(expr, x, region: Region, t) -> bool:
    """expr is continuous on the region (every possible jump or pole is a cut), its derivative is 0 there and
    its value at one point of the region is exactly 0: then it is 0 on the whole region."""
    if not expr.has(*_INVERSE):
        return False
    if not _zero_on(unfold_kinks(sp.diff(expr, x), x, region.point), x, region, t):
        return False
    for value in (*PLAIN_POINTS, region.point):
        if not region.contains(value):
            continue
        at = expr.subs(x, value)
        if at == 0 or sp.simplify(at) == 0:
            return True
    return False


def zero_on_domain(difference, function, x, also=()) -> RegionProof:
    """Prove `difference` (answer − derivative) is 0 on every region where `function` is real.  Unsupported
    when the cuts cannot be found exactly.  `also`: more expressions whose cuts cut the line (the answer's
    parts, which sympy may have cancelled in the difference), left out when their cuts cannot be found."""
    try:
        found = regions([difference, function, *also], x)
    except Unsupported:
        if not also:
            raise
        found = regions([difference, function], x)
    t = sp.Symbol("t", positive=True)
    inside = []
    for region in found:
        if not defined_at(function, x, region.point):
            continue  # the function is not real anywhere on the region: no derivative there
        inside.append(region)
    result = RegionProof(True, inside)
    for region in inside:
        unfolded = unfold_kinks(difference, x, region.point)
        if not _principal_is_real(unfolded, x, region.point):
            result.proven, result.failed = False, region
            return result
        if _zero_on(unfolded, x, region, t):
            continue
        if _by_derivative_and_point(unfolded, x, region, t):
            result.how = "where it holds an inverse function: its derivative is 0 there and its value at a point is 0"
            continue
        result.proven, result.failed = False, region
        return result
    result.proven = bool(inside)
    return result


__all__ = ["Region", "RegionProof", "Unsupported", "cuts", "defined_at", "dyadic_inside", "real_at", "regions",
           "unfold_kinks", "zero_on_domain"]
