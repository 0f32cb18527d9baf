"""Step-by-step derivatives (issue 11): every derivation ends in an expression equal to sympy's derivative
of a hand-written translation of the problem, each rule of the table is used and right on its own, and
the commands print the rules."""

from __future__ import annotations

import random

import pytest
import sympy as sp
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework import steps, textbook
from gradcli.safety.errors import GradcliError

runner = CliRunner()
x, y = sp.symbols("x y", real=True)

# (homework text, the same function by hand, sample interval) -- together they use every rule
PROBLEMS = [
    ("x^2 sin x", x ** 2 * sp.sin(x), (-3, 3)),
    ("3x^4 - 2x + 7", 3 * x ** 4 - 2 * x + 7, (-3, 3)),
    ("ln((x+1)/(x-1))", sp.log((x + 1) / (x - 1)), (1.5, 5)),
    ("(x^2+1)/(x-1)", (x ** 2 + 1) / (x - 1), (1.5, 5)),
    ("cot x", sp.cot(x), (0.2, 1.4)),
    ("tan(3x)", sp.tan(3 * x), (-0.4, 0.4)),
    ("sec(x^2)", sp.sec(x ** 2), (-1, 1)),
    ("csc(2x) + cos(x)", sp.csc(2 * x) + sp.cos(x), (0.2, 1.4)),
    ("x^x", x ** x, (0.5, 3)),
    ("2^(x^2)", 2 ** (x ** 2), (-2, 2)),
    ("e^(2x) arcsin(x)", sp.exp(2 * x) * sp.asin(x), (-0.9, 0.9)),
    ("arccos(x^2)", sp.acos(x ** 2), (-0.9, 0.9)),
    ("arctan(1/x)", sp.atan(1 / x), (0.3, 3)),
    ("sqrt(x^2+1)", sp.sqrt(x ** 2 + 1), (-3, 3)),
    ("3.14159 cos(3.14159x)", sp.Rational(314159, 100000) * sp.cos(sp.Rational(314159, 100000) * x), (-3, 3)),
    ("sinh(x) cosh(2x) tanh(x)", sp.sinh(x) * sp.cosh(2 * x) * sp.tanh(x), (-2, 2)),
    ("arcsinh(x) + arctanh(x/2) + arccosh(x+2)", sp.asinh(x) + sp.atanh(x / 2) + sp.acosh(x + 2), (-0.9, 0.9)),
    ("abs(x^3 - 1)", sp.Abs(x ** 3 - 1), (-2, 0.9)),
    ("1/(1+e^(-x))", 1 / (1 + sp.exp(-x)), (-3, 3)),
    ("ln(sec x + tan x)", sp.log(sp.sec(x) + sp.tan(x)), (-1.2, 1.2)),
    ("x^3 e^(-x^2) ln(x)", x ** 3 * sp.exp(-x ** 2) * sp.log(x), (0.3, 3)),
    ("(2x+1)^5 (x-3)^2", (2 * x + 1) ** 5 * (x - 3) ** 2, (-2, 2)),
    ("sin(cos(tan(x)))", sp.sin(sp.cos(sp.tan(x))), (-1.2, 1.2)),
    ("log10(x^2 + 1)", sp.log(x ** 2 + 1, 10), (-3, 3)),
    ("x / sqrt(1 - x^2)", x / sp.sqrt(1 - x ** 2), (-0.9, 0.9)),
    ("x^2 + 7", x ** 2 + 7, (-1, 1)),
    ("1/cosh(x) + 1/sinh(2x)", 1 / sp.cosh(x) + 1 / sp.sinh(2 * x), (0.3, 2)),
    ("sigmoid(3x) + |x|^3", 1 / (1 + sp.exp(-3 * x)) + sp.Abs(x) ** 3, (-2, 2)),
]


def _equal(got, want, interval) -> bool:
    if sp.simplify(got - want) == 0:
        return True
    rng = random.Random(3)
    for _ in range(12):
        point = rng.uniform(*interval)
        a, b = complex(got.evalf(30, subs={x: point})), complex(want.evalf(30, subs={x: point}))
        if abs(a - b) > 1e-10 * max(1.0, abs(b)):
            return False
    return True


@pytest.mark.parametrize("text, hand, interval", PROBLEMS, ids=[p[0] for p in PROBLEMS])
def test_steps_end_in_sympys_derivative(text, hand, interval):
    derivation = steps.derive_text(text, "x")
    assert not derivation.result.has(sp.Derivative)
    want = sp.diff(hand, x)
    assert _equal(derivation.result, want, interval)  # the last rule's result
    assert _equal(derivation.answer, want, interval)  # and its simplified form


def test_every_rule_is_used_by_the_problems():
    used = set()
    for text, _, _ in PROBLEMS:
        for step in steps.derive_text(text, "x").steps:
            used.add(step.rule.removeprefix("chain rule, "))
    names = {rule.name for rule in steps.RULES} - {"d/dx[x] = 1", "constant rule", "implicit differentiation",
                                                     "derivative of arccot", "derivative of arcsec",
                                                     "derivative of arccsc", "derivative of sech",
                                                     "derivative of csch", "derivative of coth",
                                                     "derivative of arcsech", "derivative of arccsch",
                                                     "derivative of arccoth"}
    assert names <= used, names - used


@pytest.mark.parametrize("rule", [r for r in steps.RULES if r.name.startswith("derivative of")],
                         ids=lambda r: r.name)
def test_each_function_rule_is_the_chain_rule_of_sympys_derivative(rule):
    # f(u) with u = x²/3 + 1/2, which keeps every function's argument in its domain near x = 0.5
    u = x ** 2 / 3 + sp.Rational(1, 2)
    cls = next(c for c in (sp.sin, sp.cos, sp.tan, sp.sec, sp.csc, sp.cot, sp.asin, sp.acos, sp.atan, sp.acot,
                           sp.asec, sp.acsc, sp.sinh, sp.cosh, sp.tanh, sp.asinh, sp.acosh, sp.atanh, sp.Abs,
                           sp.sech, sp.csch, sp.coth, sp.asech, sp.acsch, sp.acoth, textbook.sigma, textbook.modulus)
               if rule.applies(c(u - 1), x))
    arg = u + 1 if cls in (sp.asec, sp.acsc, sp.acosh, sp.acoth) else \
        u - 1 if cls in (sp.Abs, textbook.modulus) else \
        u / 2 if cls is sp.asech else u
    expr = cls(arg)
    got = rule.derive(expr, x, lambda v: sp.diff(v, x))
    for point in (0.3, 0.5, 0.7):
        assert abs(complex(got.evalf(30, subs={x: point})) - complex(sp.diff(expr, x).evalf(30, subs={x: point}))) \
            < 1e-12


def test_product_rule_steps_read_like_a_worked_example():
    rows = steps.lines(steps.derive_text("x^2 sin x"))
    assert rows[0] == ("d/dx[x²·sin(x)]", "")
    assert [rule for _, rule in rows[1:]] == ["product rule", "derivative of sin", "power rule", "simplify"]
    assert rows[-2][0] == "= x²·cos(x) + 2x·sin(x)"


def test_chain_rule_is_named():
    rules = [s.rule for s in steps.derive_text("sin(cos(tan(x)))").steps]
    assert rules == ["chain rule, derivative of sin", "chain rule, derivative of cos", "derivative of tan"]


def test_implicit_differentiation():
    # x² + y² = 25: 2x + 2y·y' = 0, y' = -x/y
    derivation = steps.derive_text("x^2 + y^2 = 25", "x")
    assert derivation.implicit and "implicit differentiation" in [s.rule for s in derivation.steps]
    assert sp.simplify(derivation.answer - (-x / y)) == 0
    # x³ + x·y = sin(y): y' = -F_x/F_y with F = x³ + x·y - sin(y), by sympy's partials
    F = x ** 3 + x * y - sp.sin(y)
    derivation = steps.derive_text("x^3 + x*y = sin(y)", "x")
    assert sp.simplify(derivation.answer - (-sp.diff(F, x) / sp.diff(F, y))) == 0


def test_errors():
    with pytest.raises(GradcliError, match="say which variable"):
        steps.derive_text("x*y")
    with pytest.raises(GradcliError, match="has no variable z"):
        steps.derive_text("x^2", "z")


def test_cli_steps_and_latex():
    out = runner.invoke(app, ["steps", "ln((x+1)/(x-1))", "--no-color"])
    assert out.exit_code == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "d/dx[ln((x + 1)/(x - 1))]"
    assert "chain rule, logarithm rule" in lines[1] and "quotient rule" in lines[2]
    assert lines[-1].startswith("= -2/(x² - 1)") and lines[-1].endswith("simplify")
    latex = runner.invoke(app, ["steps", "x^2 + y^2 = 25", "--latex"]).stdout.splitlines()
    assert latex[0] == r"\begin{aligned}" and latex[-1] == r"\end{aligned}"
    assert r"\Rightarrow \frac{dy}{dx} = - \frac{x}{y}" in latex[-2]


def test_cli_check_steps():
    out = runner.invoke(app, ["check", "tan(3x)", "--expect", "3sec^2(3x)", "--steps", "--no-color"])
    assert out.exit_code == 0
    assert "chain rule, derivative of tan" in out.stdout
    assert "= 3·sec²(3x)" in out.stdout or "= 3sec²(3x)" in out.stdout


# -- every problem of the homework corpus (issue 10's tests/corpus/homework.jsonl, when it is there) -------

CORPUS = __import__("pathlib").Path(__file__).parents[1] / "corpus" / "homework.jsonl"


def _corpus_functions():
    import json

    if not CORPUS.exists():
        return []
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    seen, problems = set(), []
    for row in rows:
        wrt = row.get("wrt") or []
        key = (row["function"], tuple(wrt), row.get("order", 1), row.get("dependent"))
        if key in seen or len(set(wrt)) > 1 or row.get("partial"):
            continue
        seen.add(key)
        problems.append(row)
    return problems


@pytest.mark.skipif(not CORPUS.exists(), reason="the homework corpus (issue 10) is not in this tree")
def test_steps_agree_with_sympy_on_every_corpus_problem():
    from gradcli.homework.reading import read_function

    failures, derived = [], 0
    for row in _corpus_functions():
        text, wrt = row["function"], (row.get("wrt") or [None])[0]
        try:
            function = read_function(text, known=tuple(row.get("var") or ()), allow_equation=True)
        except GradcliError:
            continue  # notation the reader refuses is check's business, not the steps'
        wrt = wrt or next((v for v in function.variables if v != row.get("dependent")), None)
        if wrt is None:
            continue
        x_ = sp.Symbol(wrt, real=True)
        try:
            if function.sides is not None:
                derivation = steps.derive_text(text, wrt, dependent=row.get("dependent") or "y")
                y_ = sp.Symbol(row.get("dependent") or "y", real=True)
                want = -sp.diff(function.expr, x_) / sp.diff(function.expr, y_)
                got = derivation.answer
            else:
                current = function.expr
                for _ in range(row.get("order", 1)):
                    derivation = steps.derive(current, x_)
                    current = derivation.result
                got, want = current, sp.diff(function.expr, x_, row.get("order", 1))
        except steps.NoRule:
            continue  # max/min/relu/sign have no textbook rule: the steps say so
        derived += 1
        difference = sp.simplify(got - want)
        if difference != 0:
            symbols = sorted(difference.free_symbols, key=str)
            values = [complex(difference.evalf(30, subs=dict(zip(symbols, point)))) for point in
                      ([0.37 + 0.11 * k for k in range(len(symbols))], [1.3 - 0.2 * k for k in range(len(symbols))])]
            if any(abs(v) > 1e-9 for v in values if v == v):
                failures.append((text, wrt, str(got), str(want)))
    assert derived > 0 and not failures, failures[:5]
