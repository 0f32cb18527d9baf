"""`gradcli check`: homework notation, and derivative pairs from a first calculus course with their
known verdicts (counterexample values computed by hand from the formulas)."""

from __future__ import annotations

import json
import math

import mpmath
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.check import check_derivative
from gradcli.homework.reader import read_homework
from gradcli.safety.errors import GradcliError

runner = CliRunner()


# -- homework notation -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, read_as", [
    ("x^2", "x²"),
    ("2x", "2·x"),
    ("3(x+1)", "3·(x + 1)"),
    ("(x+1)(x-1)", "(x + 1)·(x − 1)"),
    ("x sin(x)", "x·sin(x)"),
    ("x^2y", "x²·y"),
    ("2e^x", "2·e^x"),
    ("ln x", "ln(x)"),
    ("x ln x", "x·ln(x)"),
    ("arcsin(x)", "arcsin(x)"),
    ("arctan(2x)", "arctan(2·x)"),
    ("sin^2(x)", "sin(x)²"),
    ("sin^-1(x)", "arcsin(x)"),
    ("sec^2(x)", "sec(x)²"),
    ("cot x", "cot(x)"),
    ("sin(x)cos(x)", "sin(x)·cos(x)"),
    ("x²·e^x", "x²·e^x"),
    ("t^2 + 3t", "t² + 3·t"),
    ("x^2 + xy", "x² + x·y"),
    ("xe^x", "x·e^x"),
    ("wx", "w·x"),
    ("sinx", "sin(x)"),
    ("xsinx", "x·sin(x)"),
    ("sin 2x", "sin(2·x)"),
    ("sin x y", "sin(x)·y"),
    ("sin x^2", "sin(x²)"),
    ("cos x e^(sin x)", "cos(x)·e^(sin(x))"),
    ("sin^2 x", "sin(x)²"),
    ("|x|", "|x|"),
    ("ln|x|", "ln(|x|)"),
    ("||x| - 1|", "||x| − 1|"),
    ("log_2(x)", "log_2(x)"),
    ("log(x, 3)", "log_3(x)"),
    ("log10(x)", "log_10(x)"),
    ("log x", "ln(x)"),
    ("σ(x)", "σ(x)"),
    ("sigmoid(wx + b)", "σ(w·x + b)"),
    ("max(0, x)", "max(0, x)"),
    ("1/2x", "(1/2)·x"),
    ("e^-x", "e^(−x)"),
    ("-x^2", "−x²"),
    ("√x", "√(x)"),
    ("sech x tanh x", "sech(x)·tanh(x)"),
    ("θ sin θ", "θ·sin(θ)"),
    ("sin 2πx", "sin(2·π·x)"),  # π typed together with 2 and x: one term, as sin 2pix (was sin(2)·π·x)
    ("cos πt", "cos(π·t)"),
    ("sin 2 π x", "sin(2)·π·x"),  # spaced as typed: like sin 2 x
    ("x1^2 + x2", "x1² + x2"),  # a letter and digits is one variable, as x_1 (was x·1² + x·2)
    ("w1x1 + b", "w1·x1 + b"),
    ("x1.5", "x·1.5"), ("e2x", "e·2·x"),
    ("3x³⁻¹", "3·x^(3 − 1)"),  # a run of superscripts is one exponent (was 3·x³ − 1)
    ("e⁻ˣ", "e^(−x)"), ("x⁻²", "x^(−2)"), ("sin⁻¹x", "arcsin(x)"), ("x²y", "x²·y"),
])
def test_homework_notation_reads_as(text, read_as):
    assert read_homework(text).read_as == read_as


@pytest.mark.parametrize("text, shown", [
    ("x^2 + xy", True), ("xe^x", True), ("sinx", True), ("sin 2x", True), ("sin x y", True), ("e^2x", True),
    ("1/2x", True), ("log x", True), ("sin^2 x", True),
    ("x^2 + x*y", False), ("x^2 sin(x)", False), ("2x + 1", False), ("ln x", False), ("x sin x", False),
])
def test_read_as_is_shown_when_the_reading_is_not_literal(text, shown):
    assert read_homework(text).reinterpreted is shown


def test_declared_variables_keep_their_letters_together():
    assert read_homework("rate^2 t", variables=["rate"]).variables == ["rate", "t"]
    assert read_homework("rate").read_as == "r·a·t·e"


@pytest.mark.parametrize("text, span", [
    ("x^2 + $", (6, 7)),  # the $ itself, in the student's text
    ("3x^2 + sin(2x", (10, 11)),  # the unclosed bracket
    ("foo(x) + 1", (0, 3)),  # an unknown function is never a product of variables
    ("erf(x)", (0, 3)),  # a known but unsupported function
])
def test_errors_point_into_the_original_text(text, span):
    with pytest.raises(GradcliError) as info:
        read_homework(text)
    assert info.value.source == text
    assert info.value.span == span


# -- derivative pairs from a calculus course ---------------------------------------------------------

CORRECT = [
    ("x^2 sin(x)", "2x sin(x) + x^2 cos(x)"),  # product rule
    ("x^3 - 4x + 7", "3x^2 - 4"),  # power rule
    ("(x^2+1)/(x-1)", "(2x(x-1) - (x^2+1))/(x-1)^2"),  # quotient rule
    ("sin(x^2)", "2x cos(x^2)"),  # chain rule
    ("e^(3x)", "3e^(3x)"),
    ("ln(x^2+1)", "2x/(x^2+1)"),
    ("arctan(x)", "1/(1+x^2)"),
    ("arcsin(2x)", "2/sqrt(1-4x^2)"),
    ("x e^x", "e^x (x+1)"),
    ("sqrt(1+x^2)", "x/sqrt(1+x^2)"),
    ("tan(x)", "sec^2(x)"),
    ("ln(sin x)", "cot x"),
    ("x^x", "x^x (ln x + 1)"),
    ("2^x", "2^x ln 2"),
    ("cos(3x)^2", "-6 sin(3x) cos(3x)"),
    ("(x+1)(x-1)", "2x"),
    ("e^x sin x", "e^x (sin x + cos x)"),
    ("1/(1+e^(-x))", "e^(-x)/(1+e^(-x))^2"),
]


@pytest.mark.parametrize("function, derivative", CORRECT)
def test_correct_derivatives(function, derivative):
    report = check_derivative(function, [(None, derivative)])
    (result,) = report.results
    assert result.verdict == "correct", result.reason
    assert result.decided_by in ("sympy", "numbers and sympy") and result.proven is True
    assert result.counterexample is None
    assert report.exit_code == 0


# (function, wrong answer, the first round point where they differ, the answer there, the derivative there)
INCORRECT = [
    # forgot the product rule: 2x cos x; at x = 1: 2cos1 vs 2sin1 + cos1
    ("x^2 sin(x)", "2x cos(x)", 1.0, 2 * math.cos(1), 2 * math.sin(1) + math.cos(1)),
    # quotient rule with + : at x = 2: (2*2*1 + 5)/1 = 9 vs (4 - 5)/1 = -1
    ("(x^2+1)/(x-1)", "(2x(x-1) + (x^2+1))/(x-1)^2", 2.0, 9.0, -1.0),
    # forgot the inner derivative: cos(x²) vs 2x cos(x²); at x = 1
    ("sin(x^2)", "cos(x^2)", 1.0, math.cos(1), 2 * math.cos(1)),
    ("e^(3x)", "e^(3x)", 1.0, math.exp(3), 3 * math.exp(3)),
    ("ln(x^2+1)", "1/(x^2+1)", 1.0, 0.5, 1.0),
    # 1/(1-x²) is undefined at x = 1, where the derivative 1/2 is defined: that is the counterexample
    ("arctan(x)", "1/(1-x^2)", 1.0, None, 1 / 2),
    ("x^3", "3x^3", 2.0, 24.0, 12.0),  # equal at x = 1 (3 = 3): the counterexample is x = 2
    ("sqrt(x)", "1/sqrt(x)", 1.0, 1.0, 0.5),
    ("2^x", "x 2^(x-1)", 1.0, 1.0, 2 * math.log(2)),  # the power rule does not apply to a^x
    ("arcsin(x)", "1/sqrt(1+x^2)", 0.5, 1 / math.sqrt(1.25), 1 / math.sqrt(0.75)),  # arcsin lives in [-1, 1]
    ("cos(x)", "sin(x)", 1.0, math.sin(1), -math.sin(1)),  # the sign
    ("x^3 + 5", "3x^2 + 5", 1.0, 8.0, 3.0),  # the constant's derivative is 0
    ("ln(x)", "1/x^2", 2.0, 0.25, 0.5),  # equal at x = 1
]


@pytest.mark.parametrize("function, answer, x, answer_value, derivative_value", INCORRECT)
def test_incorrect_derivatives_come_with_a_counterexample(function, answer, x, answer_value, derivative_value):
    report = check_derivative(function, [(None, answer)])
    (result,) = report.results
    assert result.verdict == "incorrect"
    assert report.exit_code == 1
    example = result.counterexample
    assert example["point"] == {"x": x}
    assert example["expected"] == answer_value if answer_value is None else \
        math.isclose(example["expected"], answer_value, rel_tol=1e-9)
    assert math.isclose(example["derivative"], derivative_value, rel_tol=1e-9)


@pytest.mark.parametrize("answer, difference", [("e^x + 10^-20", lambda e: mpmath.mpf(10) ** -20),
                                                ("e^x*(1 + 10^-12)", lambda e: e * mpmath.mpf(10) ** -12)])
def test_a_counterexample_shows_the_digits_that_differ_and_no_rounding_hint(answer, difference):
    """'your answer gives 2.718282, the derivative is 2.718282' showed nothing; and the answer holds no
    rounded constant, so no hint about one."""
    out = runner.invoke(app, ["check", "e^x", "--expect", answer, "--timeout", "60", "--no-color"])
    assert out.exit_code == 1
    line = next(line for line in out.stdout.splitlines() if line.startswith("  at x = 1:"))
    yours, ours = line.split("your answer gives ")[1].split(", the derivative is ")
    assert yours != ours
    with mpmath.workdps(60):  # independently: e and e + the difference, to the digits shown
        e = mpmath.e
        assert abs(mpmath.mpf(ours) - e) <= mpmath.mpf(10) ** (-len(ours) + 3)
        assert abs(mpmath.mpf(yours) - (e + difference(e))) <= \
            mpmath.mpf(10) ** (-len(yours) + 3)
        assert mpmath.mpf(yours) - mpmath.mpf(ours) > 0
    assert "hint" not in out.stdout


def test_a_rounded_constant_still_gets_its_hint():
    out = runner.invoke(app, ["check", "10^x", "--expect", "2.302585·10^x", "--no-color", "--timeout", "60"])
    assert out.exit_code == 1 and "hint: agrees to 7 significant digits: write ln(10) exactly, not 2.302585" in \
        out.stdout


def test_a_constant_difference_is_incorrect():
    (result,) = check_derivative("x^3 + 5", [(None, "3x^2 + 5")]).results
    assert result.verdict == "incorrect" and result.counterexample["point"] == {"x": 1.0}


def test_sympy_decides_when_no_point_of_the_domain_is_found(monkeypatch):
    from gradcli.homework import check as homework_check

    monkeypatch.setattr(homework_check._Comparer, "candidates", lambda self, extra=(): iter(()))
    monkeypatch.setattr(homework_check._Comparer, "_narrow_candidates", lambda self, found, extra=(): iter(()))
    (right,) = check_derivative("x^3 + 5", [(None, "3x^2")]).results
    (wrong,) = check_derivative("x^3 + 5", [(None, "3x^2 + 5")]).results
    assert (right.verdict, right.decided_by) == ("correct", "sympy")
    assert (wrong.verdict, wrong.decided_by) == ("incorrect", "sympy") and "constant -5" in wrong.reason


def test_a_proof_by_cases_when_sympy_cannot_simplify():
    # sign(x) and x/|x| are the same function for x != 0, which sympy's simplify does not see: on x > 0 and
    # on x < 0 separately (as a student argues) the difference is 0
    (result,) = check_derivative("abs(x)", [(None, "x/abs(x)")]).results
    assert result.verdict == "correct" and result.proven is True and "each part of the domain" in result.reason
    assert result.points >= 10


def test_partial_derivatives_of_two_variables():
    report = check_derivative("x^2 y + y^3", [("x", "2xy"), ("y", "x^2 + 3y^2")])
    assert [(r.wrt, r.verdict) for r in report.results] == [(("x",), "correct"), (("y",), "correct")]
    wrong = check_derivative("x^2 y + y^3", [("y", "x^2 + 3y")])
    assert wrong.results[0].verdict == "incorrect"


def test_second_derivative():
    assert check_derivative("1/x", [(None, "2/x^3")], order=2).results[0].verdict == "correct"
    assert check_derivative("sin(x)", [(None, "cos(x)")], order=2).results[0].verdict == "incorrect"


def test_values_at_a_point():
    report = check_derivative("x^2 sin(x)", [(None, "2x sin(x) + x^2 cos(x)")], at={"x": 0.0})
    assert report.at == {"point": {"x": 0.0}, "function": 0.0}
    assert report.results[0].at == {"derivative": 0.0, "expected": 0.0}


def test_derivative_without_an_answer():
    (result,) = check_derivative("x^3", []).results
    assert result.verdict == "computed" and str(result.derivative) == "3*x**2"


def test_several_variables_need_a_name():
    with pytest.raises(GradcliError, match="say which derivative"):
        check_derivative("x y", [(None, "y")])


# -- the command line --------------------------------------------------------------------------------

def test_cli_correct():
    out = runner.invoke(app, ["check", "x**2*sin(x)", "--wrt", "x", "--expect", "2*x*sin(x) + x**2*cos(x)",
                              "--no-color"])
    assert out.exit_code == 0
    # the function and the answer echoed as typed (issue 11), not sympy's rewrite of them
    assert out.stdout.splitlines()[0] == "✓ correct: d/dx [x²·sin(x)] = 2·x·sin(x) + x²·cos(x)"


def test_cli_incorrect_shows_the_counterexample():
    out = runner.invoke(app, ["check", "x^2 sin x", "--expect", "2x cos x", "--no-color"])
    assert out.exit_code == 1
    assert "✗ incorrect" in out.stdout
    assert "the derivative is x·(x·cos(x) + 2·sin(x))" in out.stdout  # the textbook form (issue 11)
    assert "at x = 1: your answer gives 1.080605, the derivative is 2.223244" in out.stdout


def test_cli_the_derivative_as_second_argument():
    # what a newcomer types first: `gradcli check F DERIVATIVE` (it was "unexpected extra argument", exit 2)
    right = runner.invoke(app, ["check", "x**3", "3*x**2", "--no-color"])
    assert right.exit_code == 0 and right.stdout.startswith("✓ correct: d/dx [x³] = 3·x²")
    wrong = runner.invoke(app, ["check", "x^2 sin x", "2x cos x", "--no-color"])
    assert wrong.exit_code == 1
    assert "at x = 1: your answer gives 1.080605, the derivative is 2.223244" in wrong.stdout
    both = runner.invoke(app, ["check", "x^3", "3x^2", "--expect", "3x^2"])
    assert both.exit_code == 2 and "two answers to check" in both.output


def test_cli_named_partials_and_at():
    out = runner.invoke(app, ["check", "x^2 y", "--expect", "x=2xy", "--expect", "y=x^2", "--at", "x=1,y=2",
                              "--json"])
    data = json.loads(out.stdout)
    assert out.exit_code == 0 and data["correct"]
    assert [r["at"] for r in data["results"]] == [{"derivative": 4.0, "expected": 4.0},
                                                  {"derivative": 1.0, "expected": 1.0}]


def test_cli_parse_error_exit_2_with_caret():
    out = runner.invoke(app, ["check", "x^2 + sin(2x", "--expect", "2x"])
    assert out.exit_code == 2
    assert "x^2 + sin(2x\n" in out.stderr and "         ^" in out.stderr


def test_counterexample_at_a_point_where_both_values_are_floats():
    """(x+1)^5000 overflows floats almost everywhere: the counterexample is taken where it does not
    (at x = -2: the answer 5000 (x+1)^4998 is 5000, the derivative 5000 (x+1)^4999 is -5000)."""
    from gradcli.homework.check import check_derivative

    report = check_derivative("(x+1)^5000", ["5000*(x+1)^4998"])
    result = report.to_dict()["results"][0]
    assert result["verdict"] == "incorrect"
    example = result["counterexample"]
    x = example["point"]["x"]
    assert example["expected"] == 5000 * (x + 1) ** 4998 and example["derivative"] == 5000 * (x + 1) ** 4999
    assert abs(example["expected"]) < float("inf") and abs(example["derivative"]) < float("inf")
