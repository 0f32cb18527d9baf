"""Answers as a textbook writes them: choose the most readable of several equivalent sympy forms and
print it in a course's notation (ln, arcsin, e^x, sec²(x), √, decimals as decimals), as text or LaTeX.

    ln((x+1)/(x-1))  ->  -2/(x² - 1)        (sympy's raw derivative: (x - 1)·(1/(x - 1) - ...)/(x + 1))
    cot x            ->  -csc²(x)
    3.14159 cos(3.14159x) -> -9.8695877281·sin(3.14159x)

The readability measure counts the operations of the printed form (sec²(x) is one function and one
power; a negative exponent is a division), plus penalties for fractions left uncombined, functions the
problem never mentioned (cosh in a sigmoid's derivative) and long numbers.  Candidates come from
sympy's simplify, factor, together, cancel, trigsimp ... each within what is left of a time budget.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.latex import LatexPrinter

from gradcli.homework.notation import SUPERSCRIPT as _SUPERSCRIPT
from gradcli.homework.notation import echo  # noqa: F401 - part of this module's interface
from gradcli.homework.reading import report_function, result_answer
from gradcli.verify.sympy_forms import SymbolicTimeout, cpu_bounded

DEFAULT_BUDGET = 2.0  # seconds of CPU time for the whole candidate search
RECIPROCAL_NAMES = ("tan", "sec", "csc", "cot")  # an input using one of these gets sec/csc/cot/tan answers
_DECIMAL = re.compile(r"(?<![\w.])(\d+\.\d+|\.\d+)")


@dataclass(frozen=True)
class Style:
    """How the course writes things, read from what the student typed."""

    reciprocal_trig: bool = False  # sec, csc, cot (and tan from sin/cos) in answers
    decimals: bool = False  # numbers as decimals (the input had a decimal literal)
    sigma: bool = False  # the logistic function written σ / sigmoid: derivatives keep σ


def style_for(*texts: str | None) -> Style:
    """The style of a problem, from the texts the student typed (function, answer)."""
    words = set(re.findall(r"[A-Za-z]+", " ".join(t for t in texts if t)))
    return Style(reciprocal_trig=bool(words & set(RECIPROCAL_NAMES)),
                 decimals=any(_DECIMAL.search(t) for t in texts if t),
                 sigma=bool(words & {"sigmoid", "sigma", "expit"}) or any("σ" in t for t in texts if t))


# -- the course's functions ---------------------------------------------------------------------------

_TRIG = {sp.sin: "s", sp.cos: "c", sp.tan: "t", sp.sec: "C", sp.csc: "S", sp.cot: "T"}


def course_functions(expr, style: Style):
    """The same expression with the functions a course uses: in a problem about tan/sec/csc/cot, products
    of powers of sin, cos, tan ... of one argument regrouped as tan, cot, sec, csc (sin/cos² -> sec·tan)."""
    if not style.reciprocal_trig or not isinstance(expr, sp.Basic):
        return expr

    def regroup(node):
        if not (node.is_Mul or node.is_Pow or isinstance(node, (sp.sin, sp.cos, sp.tan, sp.sec, sp.csc, sp.cot))):
            return node
        exponents: dict = {}  # argument -> [power of sin, power of cos]
        rest = []
        for factor in sp.Mul.make_args(node):
            base, power = factor.as_base_exp()
            kind = _TRIG.get(type(base))
            if kind is None or not power.is_Integer:
                rest.append(factor)
                continue
            sin_cos = exponents.setdefault(base.args[0], [0, 0])
            s, c = {"s": (1, 0), "c": (0, 1), "t": (1, -1), "C": (0, -1), "S": (-1, 0), "T": (-1, 1)}[kind]
            sin_cos[0] += s * int(power)
            sin_cos[1] += c * int(power)
        if not exponents:
            return node
        for arg, (s, c) in exponents.items():
            if s > 0 > c:
                k = min(s, -c)
                rest.append(sp.tan(arg) ** k)
                s, c = s - k, c + k
            elif c > 0 > s:
                k = min(c, -s)
                rest.append(sp.cot(arg) ** k)
                s, c = s + k, c - k
            for power, positive, negative in ((s, sp.sin, sp.csc), (c, sp.cos, sp.sec)):
                if power:
                    rest.append(positive(arg) ** power if power > 0 else negative(arg) ** -power)
        return sp.Mul(*rest, evaluate=False) if len(rest) > 1 else rest[0]

    return _bottom_up(expr, regroup)


def _bottom_up(expr, fn):
    if expr.args and not isinstance(expr, sp.Derivative):
        expr = expr.func(*[_bottom_up(a, fn) for a in expr.args])
    return fn(expr)


class sigma(sp.Function):  # noqa: N801 - printed σ
    """The logistic sigmoid σ(u) = 1/(1 + e^(-u)) kept as one function, so that gradients read as a course
    writes them: σ'(u) = σ(u)·(1 - σ(u)), and binary cross-entropy's ∂L/∂w = x·(σ(w·x + b) - y)."""

    def fdiff(self, argindex=1):
        return sigma(self.args[0]) * (1 - sigma(self.args[0]))

    def _latex(self, printer):
        return rf"\sigma\left({printer._print(self.args[0])}\right)"

    def _eval_rewrite_as_exp(self, arg, **kwargs):
        return 1 / (1 + sp.exp(-arg))

    def _eval_evalf(self, prec):
        return (1 / (1 + sp.exp(-self.args[0])))._eval_evalf(prec)


class modulus(sp.Function):  # noqa: N801 - printed |u|
    """|u| kept as one function in the steps: sympy's Abs turns |x|³ into x²·|x| for a real x before a rule
    could see it; this one waits for the rule d/dx|u| = u/|u|·d/dx[u]."""

    def fdiff(self, argindex=1):
        return self.args[0] / modulus(self.args[0])

    def _eval_rewrite_as_Abs(self, arg, **kwargs):
        return sp.Abs(arg)

    def _eval_evalf(self, prec):
        return sp.Abs(self.args[0])._eval_evalf(prec)

    def _eval_is_real(self):
        return self.args[0].is_real


def with_sigma(expr):
    """1/(1 + e^(-u)) written σ(u) (and 1/(e^(-u) + 1), the same after sympy's ordering)."""
    if not isinstance(expr, sp.Basic):
        return expr

    def replace(node):
        if node.is_Pow and node.exp.is_Integer and node.exp < 0 and node.base.is_Add and len(node.base.args) == 2:
            one, other = sorted(node.base.args, key=lambda a: a != 1)
            if one == 1 and isinstance(other, sp.exp):
                v = other.args[0]
                if v.could_extract_minus_sign():
                    return sigma(-v) ** -node.exp  # 1/(1 + e^(-u)) = σ(u)
                return (1 - sigma(v)) ** -node.exp  # 1/(1 + e^u) = 1 - σ(u)
        if node.is_Mul:  # e^(-u)·σ(u) = 1 - σ(u),  e^u·(1 - σ(u)) = σ(u)
            factors = list(node.args)
            for k, f in enumerate(factors):
                if not isinstance(f, sp.exp):
                    continue
                u = f.args[0]
                for partner, becomes in ((sigma(-u), 1 - sigma(-u)), (1 - sigma(u), sigma(u))):
                    j = next((j for j, g in enumerate(factors) if g.as_base_exp()[0] == partner), None)
                    if j is not None:
                        base, power = factors[j].as_base_exp()
                        factors[j] = base ** (power - 1)
                        factors[k] = becomes
                        return sp.Mul(*factors)
        return node

    return _bottom_up(expr, replace)


# -- readability ---------------------------------------------------------------------------------------

def readability_cost(expr, known_functions: frozenset = frozenset()) -> float:
    """Operations of the printed form, plus penalties: uncombined fractions, functions not in
    `known_functions` (the problem's own), long numbers.  Lower reads better."""
    cost = float(sp.count_ops(expr))
    for node in sp.preorder_traversal(expr):
        if node.is_Add:
            fractions = sum(1 for term in node.args if sp.fraction(term)[1] != 1)
            cost += max(0, fractions - 1)
        elif node.is_Rational and not node.is_Integer:
            cost += max(0, len(str(node.p)) + len(str(node.q)) - 4) / 2
        elif node.is_Integer:
            cost += max(0, len(str(node)) - 3) / 2
        elif isinstance(node, sp.Function) and known_functions and type(node) not in known_functions:
            cost += 6
        if node.is_Mul:  # x^e/x: one base both above and below the line
            powers = [f.as_base_exp() for f in node.args]
            cost += 2 * sum(1 for b, e in powers if e.is_negative and any(
                b2 == b and e2.is_positive for b2, e2 in powers))
    return cost


def _functions(*exprs) -> frozenset:
    found = set()
    for e in exprs:
        if isinstance(e, sp.Basic):
            found |= {type(f) for f in e.atoms(sp.Function)}
    return frozenset(found)


def plain_derivative(expr):
    """sympy's derivative without its own spellings: sign(u) as u/|u|, a Piecewise's branch on a single point
    (Piecewise((0, Eq(x, 0)), (1/x, True)) is 1/x where it is differentiable) dropped, and powers of u over
    |u| reduced (u²/|u| = |u|), so ln|x| gives 1/x and |x|³ gives 3x|x|."""
    if not isinstance(expr, sp.Basic):
        return expr
    expr = expr.replace(sp.sign, lambda u: u / sp.Abs(u))

    def drop_points(node):
        if not isinstance(node, sp.Piecewise):
            return node
        pieces = [(e, c) for e, c in node.args if not isinstance(c, sp.Eq)]
        if len(pieces) == 1 and pieces[0][1] == sp.true:
            return pieces[0][0]
        return sp.Piecewise(*pieces) if pieces and len(pieces) < len(node.args) else node

    return _abs_powers(_bottom_up(expr, drop_points))


def _abs_powers(expr):
    """u^q·|u|^p with q and p of opposite signs: move 2 at a time between them (u² = |u|² for real u)."""
    def reduce(node):
        if not node.is_Mul:
            return node
        powers = dict(node.as_powers_dict())
        changed = False
        for base in list(powers):
            if not isinstance(base, sp.Abs):
                continue
            u = base.args[0]
            p, q = powers[base], powers.get(u, sp.Integer(0))
            if not (p.is_Integer and q.is_Integer):
                continue
            while (q >= 2 and p < 0) or (q <= -2 and p > 0):
                step = 2 if q > 0 else -2
                q, p = q - step, p + step
                changed = True
            powers[base], powers[u] = p, q
        if not changed:
            return node
        return sp.Mul(*(b ** e for b, e in powers.items() if e != 0))

    return _bottom_up(expr, reduce)


def _split_roots(expr):
    """√(a/b) as √a/√b once a/b is one fraction: x²·√(1 - 1/x²) reads |x|·√(x² - 1)."""
    def split(node):
        if node.is_Pow and node.exp in (sp.Rational(1, 2), sp.Rational(-1, 2)) and node.base.is_Add:
            num, den = sp.fraction(sp.together(node.base))
            if den != 1:
                root = sp.sqrt(num) / sp.sqrt(den)
                return root if node.exp > 0 else 1 / root
        return node

    return _abs_powers(_bottom_up(expr, split))


def _positive_denominators(expr, wanted):
    """-1/(sin(x) - 1) as 1/(1 - sin(x)): a leading minus moved into a sum in a denominator, when the sum it
    becomes is one the problem itself has (`wanted(sum)`)."""
    def flip(node):
        if node.is_Mul and node.could_extract_minus_sign():
            for f in node.args:
                base, power = f.as_base_exp()
                if power.is_Integer and power < 0 and power % 2 and base.is_Add and wanted(-base):
                    rest = [g for g in node.args if g is not f]
                    return -sp.Mul(*rest) * (-base) ** power
        return node

    return _bottom_up(expr, flip)


def _candidates():
    """(name, transformation) in order of preference when two forms cost the same."""
    return [
        ("as computed", lambda e: e),
        ("factor", sp.factor),
        ("cancel", sp.cancel),
        ("together", sp.together),
        ("simplify", sp.simplify),
        ("trigsimp", sp.trigsimp),
        ("factor(simplify)", lambda e: sp.factor(sp.simplify(e))),
        ("expand_log", lambda e: sp.expand_log(e, force=True)),
        ("expand", sp.expand),
        ("powsimp", sp.powsimp),
        ("split roots", _split_roots),
    ]


def operations(expr) -> int:
    """How much there is to read: sympy's operation count, a fraction left inside a fraction counting twice."""
    return sp.count_ops(expr) + 2 * _fractions_in_sums(expr)


def _fractions_in_sums(expr) -> int:
    """Sums holding a fraction inside a fraction's numerator or denominator: (cos(x) - sin(x)/x)/x, which a
    textbook writes as one fraction."""
    count = 0
    for node in sp.preorder_traversal(expr):
        if node.is_Add and any(sp.fraction(term)[1] != 1 for term in node.args):
            parents = [p for p in sp.preorder_traversal(expr) if node in p.args and (p.is_Pow or p.is_Mul)]
            count += any(sp.fraction(p)[1] != 1 for p in parents)
    return count


def textbook_form(expr, style: Style = Style(), *, function=None, budget: float = DEFAULT_BUDGET):
    """The most readable equivalent form of `expr` (already in the course's functions), by
    `readability_cost`; each candidate within what is left of `budget` seconds of CPU time.  A candidate that brings in
    a function neither the problem nor the derivative has (cosh in the derivative of arctan(e^x)) is not
    shown; σ stays σ in a problem written with it."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return course_functions(expr, style)
    if style.sigma:
        expr = with_sigma(expr)
    expr = plain_derivative(expr.replace(modulus, sp.Abs))
    known = _functions(course_functions(function, style) if function is not None else None, expr)
    if style.reciprocal_trig:
        known |= {sp.sin, sp.cos, sp.tan, sp.sec, sp.csc, sp.cot}
    allowed = known | {sp.Abs}
    if allowed & {sp.sin, sp.cos, sp.tan, sp.sec, sp.csc, sp.cot}:  # sin/cos regrouped: tan, sec ... are standard
        allowed |= {sp.sin, sp.cos, sp.tan, sp.sec, sp.csc, sp.cot}
    best, best_cost = None, None
    deadline = time.process_time() + budget  # CPU time: a busy machine does not cut the search short
    seen = set()
    for _, transform in _candidates():
        remaining = deadline - time.process_time()
        if remaining <= 0:
            break
        try:
            candidate = cpu_bounded(remaining, transform, expr)
        except SymbolicTimeout:
            break
        except Exception:  # noqa: BLE001 - a sympy transformation that fails is just not a candidate
            continue
        if candidate in seen or candidate.has(sp.nan, sp.zoo):
            continue
        seen.add(candidate)
        candidate = plain_derivative(candidate)
        flipped = _positive_denominators(candidate, lambda d: function is not None and function.has(d))
        if flipped != candidate:  # -1/(sin(x) - 1) also as 1/(1 - sin(x)); the cost decides
            seen.add(flipped)
        shown_forms = [course_functions(candidate, style)] + ([course_functions(flipped, style)]
                                                              if flipped != candidate else [])
        if not style.reciprocal_trig:  # cos(x)/sin(x) collapses to cot(x) even where the problem had no cot
            shown_forms.append(course_functions(candidate, Style(reciprocal_trig=True, decimals=style.decimals)))
        for shown in shown_forms:
            if best is not None and not _functions(shown) <= allowed | _functions(best):
                continue  # a function the problem does not use (cosh, sinh ...)
            # fewest operations first (a fraction left inside a fraction counts as two), the penalties break ties
            cost = (operations(shown), readability_cost(shown, known))
            if best_cost is None or cost < best_cost:
                best, best_cost = shown, cost
    return best if best is not None else course_functions(expr, style)


# -- printing -------------------------------------------------------------------------------------------

_NAMES = {"log": "ln", "asin": "arcsin", "acos": "arccos", "atan": "arctan", "acot": "arccot",
          "asec": "arcsec", "acsc": "arccsc", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh",
          "Heaviside": "H", "sign": "sgn", "sigma": "σ"}
_ADD, _MUL, _POW, _ATOM = 1, 2, 3, 4


class TextbookPrinter:
    """One-line text as a course writes it: 2x·sin(x), x², sin²(x), e^(2x), √(x² + 1), -2/(x² - 1)."""

    def __init__(self, style: Style = Style()):
        self.style = style

    def text(self, expr) -> str:
        return self._print(sp.sympify(expr))[0]

    # each returns (text, precedence)
    def _print(self, e):
        if isinstance(e, sp.Derivative):
            inner = self._print(e.expr)[0]
            wrt = ", ".join(str(v) for v, _ in e.variable_count)
            return f"d/d{wrt}[{inner}]", _ATOM
        if e.is_Add:
            return self._add(e), _ADD
        if e.is_Mul:
            return self._mul(e)
        if e.is_Pow:
            return self._pow(e)
        if isinstance(e, sp.exp):
            return "e^" + self._wrap(e.args[0], _ATOM), _POW
        if isinstance(e, (sp.Abs, modulus)):
            return f"|{self.text(e.args[0])}|", _ATOM
        if isinstance(e, (sp.Function, sp.FunctionClass)) or e.is_Function:
            return self._function(e, ""), _ATOM
        if e.is_Number:
            return self._number(e)
        if e is sp.pi:
            return "π", _ATOM
        if e is sp.E:
            return "e", _ATOM
        if e.is_Symbol:
            return e.name, _ATOM
        if isinstance(e, sp.Equality):
            return f"{self.text(e.lhs)} = {self.text(e.rhs)}", 0
        return sp.sstr(e), _ATOM

    def _wrap(self, e, level: int) -> str:
        text, precedence = self._print(e)
        return f"({text})" if precedence < level else text

    def _function(self, e, power: str) -> str:
        name = getattr(e.func, "__name__", str(e.func))
        name = _NAMES.get(name, name)
        return f"{name}{power}(" + ", ".join(self.text(a) for a in e.args) + ")"

    def _number(self, e):
        if e.is_Integer:
            return str(e), (_ATOM if e >= 0 else _ADD)
        if e.is_Float:
            text = _float_text(float(e))
            return text, (_ATOM if not text.startswith("-") else _ADD)
        if e.is_Rational:
            decimal = self._decimal(e)
            if decimal is not None:
                return decimal, (_ATOM if not decimal.startswith("-") else _ADD)
            return f"{e.p}/{e.q}", _MUL
        return sp.sstr(e), _ATOM

    def _decimal(self, r) -> str | None:
        """A rational as the decimal the student would have typed, in decimal style (or when its
        denominator is too large for a fraction to read well)."""
        q = int(r.q)
        while q % 2 == 0:
            q //= 2
        while q % 5 == 0:
            q //= 5
        if q == 1 and (self.style.decimals or r.q > 1000):
            return _exact_decimal(Fraction(int(r.p), int(r.q)))
        if r.q > 1000 and self.style.decimals:
            return _float_text(float(r))
        return None

    def _add(self, e) -> str:
        terms = sorted(e.as_ordered_terms(), key=_degree, reverse=True)  # w·x + b, not b + w·x
        if terms[0].could_extract_minus_sign():  # lead with a positive term: 3x² - 2x⁴, not -2x⁴ + 3x²
            positive = next((t for t in terms if not t.could_extract_minus_sign()), None)
            if positive is not None:
                terms.remove(positive)
                terms.insert(0, positive)
        text = self._print(terms[0])[0]
        for term in terms[1:]:
            if term.could_extract_minus_sign():
                text += " - " + self._wrap(-term, _MUL)
            else:
                text += " + " + self._wrap(term, _ADD + 1)
        return text

    def _mul(self, e):
        if e.could_extract_minus_sign():
            inner = -e
            text, precedence = self._print(inner)
            return "-" + (f"({text})" if precedence <= _ADD else text), _ADD
        coefficient, factors = e.as_coeff_mul()
        numerator, denominator = [], []
        for f in factors:
            base, power = f.as_base_exp()
            if power.is_number and power.is_negative and not isinstance(f, sp.exp):
                denominator.append(base ** -power)
            else:
                numerator.append(f)
        if coefficient != 1:
            if coefficient.is_Rational and not coefficient.is_Integer and self._decimal(coefficient) is None:
                if coefficient.p != 1:
                    numerator.insert(0, sp.Integer(coefficient.p))
                denominator.insert(0, sp.Integer(coefficient.q))
            else:
                numerator.insert(0, coefficient)
        if len(numerator) == 1 and len(denominator) == 1 and numerator[0].is_Add and denominator[0].is_Add and \
                numerator[0].could_extract_minus_sign() and denominator[0].could_extract_minus_sign():
            numerator, denominator = [-numerator[0]], [-denominator[0]]  # (3x² + y)/(cos(y) - x)
        elif len(numerator) == 1 and numerator[0].is_Add and denominator and \
                all(t.could_extract_minus_sign() for t in numerator[0].args):
            text, _ = self._mul(sp.Mul(-numerator[0], *[d ** -1 for d in denominator], evaluate=False))
            return "-" + text, _ADD  # -(2x + y)/(x + 2y), not (-2x - y)/(x + 2y)
        numerator.sort(key=_factor_rank)
        denominator.sort(key=_factor_rank)
        top = self._product(numerator) if numerator else "1"
        if not denominator:
            return top, _MUL
        bottom = f"({self._product(denominator)})" if len(denominator) > 1 else self._wrap(denominator[0], _POW)
        return f"{top}/{bottom}", _MUL

    def _product(self, factors) -> str:
        text = ""
        for k, f in enumerate(factors):
            piece = self._wrap(f, _MUL + 1) if not f.is_Number else self._number(f)[0]
            if k == 0:
                text = piece
            elif factors[k - 1].is_Number and _juxtaposes(f):
                text += piece  # 2x, 3x²
            else:
                text += "·" + piece
        return text

    def _pow(self, e):
        base, power = e.args
        if power.is_Rational and power.is_negative:
            return "1/" + self._wrap(base ** -power, _POW), _MUL
        if power == sp.Rational(1, 2):
            return "√" + self._wrap(base, _ATOM), _POW
        if power == sp.Rational(1, 3):
            return "∛" + self._wrap(base, _ATOM), _POW
        if power.is_Integer:
            sup = str(power).translate(_SUPERSCRIPT)
            if isinstance(base, sp.Function) and not isinstance(base, (sp.exp, sp.Abs, modulus, AppliedUndef)) \
                    and base.args:
                return self._function(base, sup), _POW  # sin²(x)
            return self._wrap(base, _ATOM) + sup, _POW
        return self._wrap(base, _ATOM) + "^" + self._wrap(power, _ATOM), _POW


def _juxtaposes(f) -> bool:
    """A factor written right after a number without a dot: a variable or its power, e^u (2x, 3x², 2e^x)."""
    base = f.as_base_exp()[0] if f.is_Pow and f.exp.is_Integer and f.exp > 0 else f
    return (base.is_Symbol and "/" not in base.name) or isinstance(f, (sp.exp, AppliedUndef))


def _degree(term) -> int:
    """Total degree of a term in its variables (functions count 0), for ordering a sum."""
    degree = 0
    for factor in sp.Mul.make_args(term):
        base, power = factor.as_base_exp()
        if base.is_Symbol and power.is_Integer and power > 0:
            degree += int(power)
    return degree


def _factor_rank(f) -> int:
    """Textbook order of factors (stable within a rank): 2, x², e^x, sec(x)·tan(x), (x + 1)."""
    base = f.as_base_exp()[0]
    if f.is_Number or f.is_NumberSymbol:
        return 0
    if base.is_Symbol:
        return 1 if "/" not in base.name else 6  # a rate dy/dx goes after y: 2y·dy/dx
    if f.is_Add:
        return 5 if f.has(sigma) else 2  # x·(x + 1), (3x² - 2x⁴)·e^(-x²), (1 - y)·ln(u); σ(u)·(1 - σ(u))
    if isinstance(f, sp.exp) or (f.is_Pow and base.is_Number):
        return 3
    if isinstance(base, sp.Function):
        return 4 if isinstance(base, (sp.sec, sp.csc, sigma)) else 5  # sec(x)·tan(x), csc(x)·cot(x)
    return 7


def _float_text(value: float) -> str:
    text = repr(value)
    if "e" in text or "inf" in text or "nan" in text:
        return text
    return text[:-2] if text.endswith(".0") else text


def _exact_decimal(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = ""
    while rest and len(digits) < 40:
        rest *= 10
        digit, rest = divmod(rest, value.denominator)
        digits += str(digit)
    return f"{sign}{whole}" + (f".{digits}" if digits else "")


class _Latex(LatexPrinter):
    """sympy's LaTeX with ln, arcsin, decimals as the student typed them and d/dx[...] for steps."""

    def __init__(self, style: Style):
        super().__init__({"ln_notation": True, "inv_trig_style": "full"})
        self.course_style = style

    def _print_Rational(self, expr):
        decimal = TextbookPrinter(self.course_style)._decimal(expr)
        return decimal if decimal is not None else super()._print_Rational(expr)

    def _print_Symbol(self, expr, style=None):
        if "/" in expr.name:  # a rate dy/dx (implicit differentiation)
            top, bottom = expr.name.split("/", 1)
            return rf"\frac{{{top}}}{{{bottom}}}"
        return super()._print_Symbol(expr)

    def _print_Float(self, expr):
        return _float_text(float(expr))

    def _print_Derivative(self, expr):
        wrt = " ".join(self._print(v) for v, _ in expr.variable_count)
        return rf"\frac{{d}}{{d{wrt}}}\left[{self._print(expr.expr)}\right]"


def _decimals_as_floats(expr, style: Style):
    """Rationals shown as decimals (so LaTeX does not pull their denominators into a fraction)."""
    printer = TextbookPrinter(style)
    reps = {}
    for r in expr.atoms(sp.Rational):
        if not r.is_Integer and printer._decimal(r) is not None:
            reps[r] = sp.Float(printer._decimal(r), max(15, len(str(r.p)) + 2))
    return expr.xreplace(reps) if reps else expr


def to_text(expr, style: Style = Style()) -> str:
    return TextbookPrinter(style).text(expr)


def to_latex(expr, style: Style = Style()) -> str:
    expr = sp.sympify(expr)
    return _Latex(style).doprint(_decimals_as_floats(expr, style))


# -- check's answer key ---------------------------------------------------------------------------------

def annotate_check(report, data: dict, *, latex: bool = False, display: bool = True,
                   budget: float = DEFAULT_BUDGET) -> dict:
    """The textbook forms in `check`'s data.  Each result gets "textbook" (and "textbook_latex"): the most
    readable form of the derivative, computed when it is printed (no answer given, or a wrong one).
    `display` (the table, not --json): the fields the renderer prints become the course's forms: the
    derivative in textbook form, the function and the answer as typed (or all in LaTeX)."""
    import sympy as sp

    texts = [report.function_text, *(r.expected_text for r in report.results)]
    style = style_for(*texts)
    symbols = {name: sp.Symbol(name, real=True) for name in report.variables}
    function = report_function(report, symbols)
    if display and "parsed" in data:  # a renderer that prints sympy's reading of the function
        data["parsed"] = to_latex(course_functions(function, style), style) if latex and function is not None \
            else echo(report.function_text)
    if latex and display and report.hessian is not None:
        data["hessian_latex"] = [[None if e is None else to_latex(e, style) for e in row] for row in report.hessian]
    for result, row in zip(report.results, data["results"]):
        answer = result_answer(result, symbols)
        if display and "expected_parsed" in row and result.expected_text is not None:
            row["expected_parsed"] = to_latex(course_functions(answer, style), style) \
                if latex and answer is not None else echo(result.expected_text)
        if result.derivative is None or result.verdict == "correct":
            if display and result.verdict == "correct" and result.expected_text is not None and "parsed" in data:
                row["derivative"] = row["expected_parsed"]  # the answer as the student typed it
            continue
        form = textbook_form(result.derivative, style, function=function, budget=budget)
        row["textbook"], row["textbook_latex"] = to_text(form, style), to_latex(form, style)
        if display:
            row["derivative"] = row["textbook_latex"] if latex else row["textbook"]
    return data
