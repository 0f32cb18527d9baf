"""A derivative worked out step by step, naming the rule at each step, as a textbook example shows it:

    d/dx[x²·sin(x)]
    = d/dx[x²]·sin(x) + x²·d/dx[sin(x)]        product rule
    = 2x·sin(x) + x²·d/dx[sin(x)]              power rule
    = 2x·sin(x) + x²·cos(x)                    derivative of sin

A rule-based differentiator over the sympy tree of the parsed function: each rule is one entry of
`RULES` (a test and the replacement, the unevaluated d/dx[u] of the parts left as sympy Derivatives
for later steps).  Each step rewrites the leftmost outermost d/dx[...] of the whole expression; the
derivatives of constants and of x itself are folded into the step that made them.  Implicit
differentiation: in an equation, the dependent variable (y) is a function of x, d/dx[y] = dy/dx, and the
last step solves for dy/dx.  The final expression is proven against sympy.diff by the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from gradcli.homework.reader import to_sympy
from gradcli.homework.reading import read_function, report_function, result_wrt_order
from gradcli.homework.textbook import (
    Style,
    TextbookPrinter,
    course_functions,
    modulus,
    sigma,
    style_for,
    textbook_form,
    to_latex,
    to_text,
    with_sigma,
)
from gradcli.safety.errors import GradcliError
from gradcli.safety.limits import Limits
from gradcli.verify.sympy_forms import SymbolicTimeout, cpu_bounded

MAX_STEPS = 80
PLAIN = Style()


@dataclass
class Step:
    expression: object  # the whole derivative after this step (sympy, may hold Derivatives still to do)
    rule: str  # its name: "product rule"
    formula: str  # the rule in symbols: "d/dx[u·v] = d/dx[u]·v + u·d/dx[v]"


@dataclass
class Derivation:
    function_text: str
    wrt: str
    start: object  # d/dx[f] (or d/dx[F] = d/dx[G] for an equation)
    steps: list[Step] = field(default_factory=list)
    result: object = None  # the expression after the last rule (no derivative left)
    answer: object = None  # its textbook form
    style: Style = Style()
    function: object = None  # f as a sympy expression (F - G for an equation)
    implicit: bool = False
    note: str | None = None


@dataclass(frozen=True)
class Rule:
    name: str
    formula: str
    applies: Callable  # (u, x) -> bool
    derive: Callable  # (u, x, D) -> the derivative of u, D(v) the unevaluated d/dx[v]


def _depends(u, x) -> bool:
    return u.has(x)


def _constant_factors(u, x):
    factors = sp.Mul.make_args(u)
    return [f for f in factors if not _depends(f, x)], [f for f in factors if _depends(f, x)]


def _denominator(u):
    """(numerator, denominator) of a product: the factors with a negative numeric exponent below."""
    top, bottom = [], []
    for f in sp.Mul.make_args(u):
        base, power = f.as_base_exp()
        if power.is_number and power.is_negative and not isinstance(f, sp.exp):
            bottom.append(base ** -power)
        else:
            top.append(f)
    return sp.Mul(*top), sp.Mul(*bottom)


def _is_quotient(u, x) -> bool:
    if not u.is_Mul or _constant_factors(u, x)[0]:
        return False
    top, bottom = _denominator(u)
    return bottom != 1 and _depends(top, x) and _depends(bottom, x)


def _function_rule(cls, name: str, outer: Callable, formula: str) -> Rule:
    """d/dx[f(u)] = f'(u)·d/dx[u]: the derivative of f when u is x, the chain rule otherwise."""
    def derive(u, x, d):
        inner = u.args[0]
        return outer(inner) * d(inner)

    return Rule(name, formula, lambda u, x: isinstance(u, cls), derive)


def _chain_name(rule: Rule, u, x) -> str:
    """The rule's name as a step shows it: a function of something other than x is the chain rule."""
    if rule.name.startswith(("derivative of", "exponential rule", "logarithm rule", "power rule")) and \
            u.args and _chain_argument(u) != x:
        return f"chain rule, {rule.name}"
    return rule.name


def _chain_argument(u):
    if u.is_Pow:
        return u.base if not u.base.is_number else u.exp
    return u.args[0]


RULES: list[Rule] = [
    Rule("constant rule", "d/dx[c] = 0", lambda u, x: not _depends(u, x), lambda u, x, d: sp.Integer(0)),
    Rule("d/dx[x] = 1", "d/dx[x] = 1", lambda u, x: u == x, lambda u, x, d: sp.Integer(1)),
    Rule("sum rule", "d/dx[u + v] = d/dx[u] + d/dx[v]", lambda u, x: u.is_Add,
         lambda u, x, d: sp.Add(*[d(t) for t in u.args])),
    Rule("constant multiple rule", "d/dx[c·u] = c·d/dx[u]",
         lambda u, x: u.is_Mul and bool(_constant_factors(u, x)[0]),
         lambda u, x, d: sp.Mul(*_constant_factors(u, x)[0]) * d(sp.Mul(*_constant_factors(u, x)[1]))),
    Rule("quotient rule", "d/dx[u/v] = (d/dx[u]·v - u·d/dx[v])/v²", _is_quotient,
         lambda u, x, d: (lambda n, m: (d(n) * m - n * d(m)) / m ** 2)(*_denominator(u))),
    Rule("product rule", "d/dx[u·v] = d/dx[u]·v + u·d/dx[v]", lambda u, x: u.is_Mul,
         lambda u, x, d: (lambda first, rest: d(first) * rest + first * d(rest))(
             u.args[0], sp.Mul(*u.args[1:]))),
    Rule("power rule", "d/dx[uⁿ] = n·uⁿ⁻¹·d/dx[u]", lambda u, x: u.is_Pow and not _depends(u.exp, x),
         lambda u, x, d: u.exp * u.base ** (u.exp - 1) * d(u.base)),
    Rule("exponential rule", "d/dx[aᵘ] = aᵘ·ln(a)·d/dx[u]", lambda u, x: u.is_Pow and not _depends(u.base, x),
         lambda u, x, d: u * sp.log(u.base) * d(u.exp)),
    Rule("logarithmic differentiation", "d/dx[uᵛ] = uᵛ·d/dx[v·ln(u)]", lambda u, x: u.is_Pow,
         lambda u, x, d: u * d(u.exp * sp.log(u.base))),
    _function_rule(sigma, "derivative of σ", lambda v: sigma(v) * (1 - sigma(v)),
                   "d/dx[σ(u)] = σ(u)·(1 - σ(u))·d/dx[u]"),
    _function_rule(sp.exp, "exponential rule", sp.exp, "d/dx[e^u] = e^u·d/dx[u]"),
    _function_rule(sp.log, "logarithm rule", lambda v: 1 / v, "d/dx[ln(u)] = d/dx[u]/u"),
    _function_rule(sp.sin, "derivative of sin", sp.cos, "d/dx[sin(u)] = cos(u)·d/dx[u]"),
    _function_rule(sp.cos, "derivative of cos", lambda v: -sp.sin(v), "d/dx[cos(u)] = -sin(u)·d/dx[u]"),
    _function_rule(sp.tan, "derivative of tan", lambda v: sp.sec(v) ** 2, "d/dx[tan(u)] = sec²(u)·d/dx[u]"),
    _function_rule(sp.sec, "derivative of sec", lambda v: sp.sec(v) * sp.tan(v),
                   "d/dx[sec(u)] = sec(u)·tan(u)·d/dx[u]"),
    _function_rule(sp.csc, "derivative of csc", lambda v: -sp.csc(v) * sp.cot(v),
                   "d/dx[csc(u)] = -csc(u)·cot(u)·d/dx[u]"),
    _function_rule(sp.cot, "derivative of cot", lambda v: -sp.csc(v) ** 2, "d/dx[cot(u)] = -csc²(u)·d/dx[u]"),
    _function_rule(sp.asin, "derivative of arcsin", lambda v: 1 / sp.sqrt(1 - v ** 2),
                   "d/dx[arcsin(u)] = d/dx[u]/√(1 - u²)"),
    _function_rule(sp.acos, "derivative of arccos", lambda v: -1 / sp.sqrt(1 - v ** 2),
                   "d/dx[arccos(u)] = -d/dx[u]/√(1 - u²)"),
    _function_rule(sp.atan, "derivative of arctan", lambda v: 1 / (1 + v ** 2),
                   "d/dx[arctan(u)] = d/dx[u]/(1 + u²)"),
    _function_rule(sp.acot, "derivative of arccot", lambda v: -1 / (1 + v ** 2),
                   "d/dx[arccot(u)] = -d/dx[u]/(1 + u²)"),
    _function_rule(sp.asec, "derivative of arcsec", lambda v: 1 / (sp.Abs(v) * sp.sqrt(v ** 2 - 1)),
                   "d/dx[arcsec(u)] = d/dx[u]/(|u|·√(u² - 1))"),
    _function_rule(sp.acsc, "derivative of arccsc", lambda v: -1 / (sp.Abs(v) * sp.sqrt(v ** 2 - 1)),
                   "d/dx[arccsc(u)] = -d/dx[u]/(|u|·√(u² - 1))"),
    _function_rule(sp.sinh, "derivative of sinh", sp.cosh, "d/dx[sinh(u)] = cosh(u)·d/dx[u]"),
    _function_rule(sp.cosh, "derivative of cosh", sp.sinh, "d/dx[cosh(u)] = sinh(u)·d/dx[u]"),
    _function_rule(sp.tanh, "derivative of tanh", lambda v: 1 - sp.tanh(v) ** 2,
                   "d/dx[tanh(u)] = (1 - tanh²(u))·d/dx[u]"),
    _function_rule(sp.asinh, "derivative of arcsinh", lambda v: 1 / sp.sqrt(v ** 2 + 1),
                   "d/dx[arcsinh(u)] = d/dx[u]/√(u² + 1)"),
    _function_rule(sp.acosh, "derivative of arccosh", lambda v: 1 / sp.sqrt(v ** 2 - 1),
                   "d/dx[arccosh(u)] = d/dx[u]/√(u² - 1)"),
    _function_rule(sp.atanh, "derivative of arctanh", lambda v: 1 / (1 - v ** 2),
                   "d/dx[arctanh(u)] = d/dx[u]/(1 - u²)"),
    _function_rule(sp.sech, "derivative of sech", lambda v: -sp.sech(v) * sp.tanh(v),
                   "d/dx[sech(u)] = -sech(u)·tanh(u)·d/dx[u]"),
    _function_rule(sp.csch, "derivative of csch", lambda v: -sp.csch(v) * sp.coth(v),
                   "d/dx[csch(u)] = -csch(u)·coth(u)·d/dx[u]"),
    _function_rule(sp.coth, "derivative of coth", lambda v: 1 - sp.coth(v) ** 2,
                   "d/dx[coth(u)] = (1 - coth²(u))·d/dx[u]"),
    _function_rule(sp.asech, "derivative of arcsech", lambda v: -1 / (v * sp.sqrt(1 - v ** 2)),
                   "d/dx[arcsech(u)] = -d/dx[u]/(u·√(1 - u²))"),
    _function_rule(sp.acsch, "derivative of arccsch", lambda v: -1 / (sp.Abs(v) * sp.sqrt(1 + v ** 2)),
                   "d/dx[arccsch(u)] = -d/dx[u]/(|u|·√(1 + u²))"),
    _function_rule(sp.acoth, "derivative of arccoth", lambda v: 1 / (1 - v ** 2),
                   "d/dx[arccoth(u)] = d/dx[u]/(1 - u²)"),
    _function_rule(sp.Abs, "derivative of |u|", lambda v: v / sp.Abs(v), "d/dx[|u|] = u/|u|·d/dx[u]"),
    _function_rule(modulus, "derivative of |u|", lambda v: v / modulus(v), "d/dx[|u|] = u/|u|·d/dx[u]"),
    Rule("implicit differentiation", "d/dx[y] = dy/dx (y is a function of x)",
         lambda u, x: isinstance(u, sp.core.function.AppliedUndef) and u.args == (x,),
         lambda u, x, d: _rate_symbol(u.func.__name__, x)),
]


def _rate_symbol(name: str, x) -> sp.Symbol:
    return sp.Symbol(f"d{name}/d{x}", real=True)


class NoRule(GradcliError):
    pass


def _rule_for(u, x) -> Rule:
    for rule in RULES:
        if rule.applies(u, x):
            return rule
    raise NoRule(f"no differentiation rule for {to_text(u)}",
                 hint="gradcli check prints the derivative without steps")


def _derivative_of(u, x):
    """Unevaluated d/dx[u], except for a constant (0) and x itself (1), which need no step of their own."""
    if not _depends(u, x):
        return sp.Integer(0)
    if u == x:
        return sp.Integer(1)
    return sp.Derivative(u, x, evaluate=False)


def _next_derivative(expr):
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Derivative):
            return node
    return None


def derive(function, x, *, function_text: str = "", style: Style = PLAIN, budget: float = 2.0,
           equation: tuple | None = None) -> Derivation:
    """The step-by-step derivative of `function` (sympy) by the rule table.  `equation`: (lhs, rhs) with
    the dependent variable already a function of x, for implicit differentiation."""
    if equation is not None:
        lhs, rhs = (course_functions(side, style) for side in equation)
        current = sp.Eq(sp.Derivative(lhs, x, evaluate=False), sp.Derivative(rhs, x, evaluate=False),
                        evaluate=False)
    else:
        function = course_functions(function, style)
        if style.sigma:  # σ written by the student stays σ, with its own rule
            function = with_sigma(function)
        current = _derivative_of(function, x)
    derivation = Derivation(function_text, str(x), current, style=style, function=function,
                            implicit=equation is not None)
    while True:
        node = _next_derivative(current)
        if node is None:
            break
        if len(derivation.steps) >= MAX_STEPS:
            raise GradcliError(f"more than {MAX_STEPS} steps: too long to show step by step",
                               hint="gradcli check prints the derivative without steps")
        u = node.expr
        rule = _rule_for(u, x)
        replacement = rule.derive(u, x, lambda v: _derivative_of(v, x))
        current = current.xreplace({node: replacement})
        derivation.steps.append(Step(current, _chain_name(rule, u, x), rule.formula))
    derivation.result = current
    if equation is not None:
        derivation.answer = _solve_implicit(derivation, x)
    else:
        derivation.answer = textbook_form(current, style, function=function, budget=budget)
    return derivation


def _solve_implicit(derivation: Derivation, x):
    """dy/dx from the differentiated equation (linear in dy/dx), in the textbook form."""
    equation = derivation.result
    rates = [s for s in equation.free_symbols if s.name.startswith("d") and s.name.endswith(f"/d{x}")]
    if len(rates) != 1:
        raise GradcliError("the equation does not involve the dependent variable: nothing to solve for")
    rate = rates[0]
    try:
        solutions = cpu_bounded(5.0, sp.solve, sp.Eq(equation.lhs, equation.rhs), rate)
    except SymbolicTimeout:
        solutions = []
    if len(solutions) != 1:
        raise GradcliError(f"sympy could not solve the differentiated equation for {rate.name}")
    plain = {f: sp.Symbol(f.func.__name__, real=True) for f in equation.atoms(sp.core.function.AppliedUndef)}
    answer = textbook_form(solutions[0].xreplace(plain), derivation.style)
    derivation.steps.append(Step(sp.Eq(rate, answer, evaluate=False), f"solve for {rate.name}", ""))
    return answer


# -- from the student's text --------------------------------------------------------------------------

def derive_text(text: str, wrt: str | None = None, *, dependent: str = "y", limits: Limits | None = None,
                budget: float = 2.0) -> Derivation:
    """Parse homework notation (an equation F = G for implicit differentiation) and derive it."""
    function = read_function(text, allow_equation=True, limits=limits)
    style = style_for(text)
    variables = function.variables
    symbols = {name: function.symbol(name) for name in variables}
    if wrt is None:
        independent = [v for v in variables if not (function.sides and v == dependent)]
        if len(independent) != 1:
            raise GradcliError(f"the function depends on {', '.join(variables) or 'no variable'}: say which "
                               "variable to differentiate by", hint="--wrt x")
        wrt = independent[0]
    if not wrt.strip():
        raise GradcliError("--wrt has an empty variable name", hint="name the variable, e.g. --wrt x")
    if wrt not in symbols:
        raise GradcliError(f"--wrt {wrt}: the function has no variable {wrt}",
                           hint=f"its variables: {', '.join(variables)}")
    x = symbols[wrt]
    if function.sides is not None:
        if dependent not in symbols:
            raise GradcliError(f"the equation has no {dependent} to differentiate implicitly",
                               hint="name the dependent variable with --dependent")
        y_of_x = sp.Function(dependent)(x)
        lhs, rhs = (side.xreplace({symbols[dependent]: y_of_x}) for side in function.sides)
        derivation = derive(None, x, function_text=text, style=style, budget=budget, equation=(lhs, rhs))
        derivation.function = function.expr
        return derivation
    expr = _with_modulus(text, symbols) or function.expr
    return derive(expr, x, function_text=text, style=style, budget=budget)


def _with_modulus(text: str, symbols: dict):
    """The function with |u| as one function (sympy's Abs would restate |x|³ as x²·|x| before any rule saw
    it), or None when it has no |u| or cannot be read so."""
    try:
        function = read_function(text)
    except GradcliError:
        return None
    if function.tree is None or "'abs'" not in repr(function.tree):
        return None
    return to_sympy(function.tree, {**symbols, **{v: symbols.get(v, function.symbol(v)) for v in function.variables}},
                    {"abs": lambda sp_, u: modulus(u)})


# -- printing -----------------------------------------------------------------------------------------

def lines(derivation: Derivation, *, latex: bool = False) -> list[tuple[str, str]]:
    """(formula, rule) per line: the start, each step, the simplified answer."""
    style = derivation.style

    def show(expr):
        return _latex(expr, style) if latex else _text(expr, style)

    out = [(show(derivation.start), "")]
    for k, step in enumerate(derivation.steps):
        if isinstance(step.expression, sp.Eq):  # implicit: each line an equation, the last one solved
            solved = derivation.implicit and k == len(derivation.steps) - 1
            arrow = ("\\Rightarrow " if latex else "⇒ ") if solved else ""
            out.append((arrow + show(step.expression), step.rule))
        else:
            out.append(("= " + show(step.expression), step.rule))
    if not derivation.implicit:
        final = show(derivation.answer)
        if final != out[-1][0].removeprefix("= "):
            out.append(("= " + final, "simplify"))
    return out


def _text(expr, style) -> str:
    return _ImplicitPrinter(style).text(expr)


def _latex(expr, style) -> str:
    plain = {f: sp.Symbol(f.func.__name__) for f in expr.atoms(sp.core.function.AppliedUndef)}
    return to_latex(expr.xreplace(plain) if plain else expr, style)


class _ImplicitPrinter(TextbookPrinter):
    """y(x) printed as y."""

    def _print(self, e):
        if isinstance(e, sp.core.function.AppliedUndef):
            return e.func.__name__, 4
        return super()._print(e)


def print_derivation(derivation: Derivation, console, *, latex: bool = False) -> None:
    from rich.text import Text

    rows = lines(derivation, latex=latex)
    if latex:
        console.print(Text("\\begin{aligned}"))
        for k, (formula, rule) in enumerate(rows):
            body = formula.removeprefix("= ")
            prefix = "&= " if formula.startswith("= ") else "& "
            comment = f" && \\text{{{rule}}}" if rule else ""
            end = " \\\\" if k < len(rows) - 1 else ""
            console.print(Text(f"  {prefix}{body}{comment}{end}"))
        console.print(Text("\\end{aligned}"))
        return
    from gradcli.render.wrap import wrap_text

    width = min(max(len(f) for f, _ in rows) + 3, 90)
    fits = all(len(f.ljust(width)) + len(r or "") <= console.width for f, r in rows)
    for formula, rule in rows:
        if fits:  # the rules in a column to the right
            line = Text(formula.ljust(width) if rule else formula)
            if rule:
                line.append(rule, style="dim")
            console.print(line, soft_wrap=True)
            continue
        # narrow: each formula wrapped at its operators, its rule on the line below
        for part in wrap_text(formula, console.width, 4):
            console.print(part, soft_wrap=True)
        if rule:
            for part in wrap_text(Text("    " + rule, style="dim"), console.width, 6):
                console.print(part, soft_wrap=True)


def print_check_steps(report, console, *, latex: bool = False) -> None:
    """`check --steps`: the derivation of each derivative the check computed (the N-th derivative as N
    derivations in a row; mixed partials are not shown step by step)."""
    from rich.text import Text

    style = style_for(report.function_text, *(r.expected_text for r in report.results))
    symbols = {name: sp.Symbol(name, real=True) for name in report.variables}
    function = report_function(report, symbols)
    if function is not None and function.has(sp.Abs):  # |u|ⁿ kept whole for the rules, as `steps` does
        function = _with_modulus(report.function_text, symbols) or function
    note = "% " if latex else ""  # --latex: every line LaTeX, the prose as comments
    if function is None or getattr(report, "implicit", None):
        console.print(Text(note + "steps: see gradcli steps (this derivative has no step-by-step form here)",
                           style="yellow"))
        return
    for result in report.results:
        wrt_order = result_wrt_order(result)
        if wrt_order is None:
            console.print(Text(note + "steps: mixed partial derivatives are not shown step by step", style="yellow"))
            continue
        wrt, order = wrt_order
        x = symbols.get(wrt) or sp.Symbol(wrt, real=True)
        current = function
        for k in range(order):
            console.print(Text(f"{note}steps, {'derivative ' + str(k + 1) if order > 1 else 'd/d' + wrt}:",
                               style="bold"))
            derivation = derive(current, x, function_text=report.function_text, style=style)
            print_derivation(derivation, console, latex=latex)
            current = derivation.answer
