"""How newcomers type math into `check` and `eval`: each input is either read as documented (README, "gradcli
check"; docs/check_explain.md, "Homework notation") and gets the right verdict, or refused with one line
`gradcli: error:`, a caret and a hint (exit 2) — never read another way in silence.

Every derivative below is derived by hand from the documented reading and typed unambiguously (explicit `*`,
brackets); next to it, where another reading is plausible, that reading's derivative must be rejected, so a
misreading cannot pass as right.
"""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.check import check_derivative

runner = CliRunner()

# typed function, its derivative under the documented reading, the derivative under the other reading (or None)
READ = [
    ("2x", "2", None),
    ("x^2", "2*x", None),
    ("x**2", "2*x", None),
    ("x²", "2*x", None),
    ("x³", "3*x^2", None),
    ("3x^2", "6*x", "36*x"),  # not (3x)^2
    ("sin x", "cos(x)", None),
    ("sinx", "cos(x)", None),
    ("sin^2(x)", "2*sin(x)*cos(x)", "cos(sin(x))*cos(x)"),  # sin(x)^2, not sin(sin(x))
    ("sin²x", "2*sin(x)*cos(x)", None),
    ("sin x^2", "2*x*cos(x^2)", "2*sin(x)*cos(x)"),  # sin(x^2), not sin(x)^2
    ("e^x", "exp(x)", None),
    ("e^-x^2", "-2*x*exp(-x^2)", None),
    ("e^2x", "exp(2)", "2*exp(2*x)"),  # documented: (e^2)·x, shown as `read as: e²·x`
    ("xe^x", "exp(x) + x*exp(x)", None),
    ("2^x", "2^x*ln(2)", None),
    ("ln x", "1/x", None),
    ("lnx", "1/x", None),
    ("ln|x|", "1/x", None),
    ("log(x)", "1/x", "1/(x*ln(10))"),  # log is ln (documented), not log10
    ("log x", "1/x", "1/(x*ln(10))"),
    ("log10(x)", "1/(x*ln(10))", "1/x"),
    ("lg x", "1/(x*ln(10))", "1/x"),
    ("log_2 x", "1/(x*ln(2))", None),
    ("sqrt x", "1/(2*sqrt(x))", None),
    ("sqrt 2x", "1/sqrt(2*x)", "sqrt(2)"),  # sqrt(2x), not sqrt(2)·x
    ("√x", "1/(2*sqrt(x))", None),
    ("|x|", "x/abs(x)", None),
    ("x|x|", "2*abs(x)", None),
    ("arctan(x)", "1/(1 + x^2)", None),
    ("atan(x)", "1/(1 + x^2)", None),
    ("tan^-1(x)", "1/(1 + x^2)", "-1/sin(x)^2"),  # arctan, not cot
    ("tan^-1 x", "1/(1 + x^2)", "-1/sin(x)^2"),
    ("sin^-1(x)", "1/sqrt(1 - x^2)", None),
    ("sec x", "sin(x)/cos(x)^2", None),
    ("sec^2 x", "2*sin(x)/cos(x)^3", None),
    ("1/2x", "1/2", "-1/(2*x^2)"),  # documented: Python's precedence, (1/2)·x, shown as `read as: (1/2)·x`
    ("x^2/3", "2*x/3", "2/(3*x^(1/3))"),  # x²/3 (textbooks print x^2/2 for x²/2)
    ("2×x", "2", None),
    ("x⋅x", "2*x", None),
    ("6÷x", "-6/x^2", None),
    ("−x^2", "-2*x", "2*x"),  # −(x²), not (−x)²
    ("πx", "pi", None),
    ("π x^2", "2*pi*x", None),
    ("e x", "e", None),
]


@pytest.mark.parametrize(("typed", "derivative", "other"), READ)
def test_read_as_documented_with_the_right_verdict(typed, derivative, other):
    report = check_derivative(typed, [derivative], wrt=["x"])
    assert report.results[0].verdict == "correct", typed
    if other is not None:
        report = check_derivative(typed, [other], wrt=["x"])
        assert report.results[0].verdict == "incorrect", typed


# typed function -> a word of the error: refused, one line, a caret under what was typed, a hint, exit 2
REFUSED = [
    ("x^1/2", "ambiguous"),  # was read as (x^1)/2 with no note: a newcomer means √x
    ("x^-1/2", "ambiguous"),  # was x^(-1)/2
    ("x^-3/2", "ambiguous"),
    ("e^1/x", "ambiguous"),  # was e/x
    ("x.5", "ambiguous"),  # was x·0.5
    ("(x+1).5", "ambiguous"),
    ("x^½", "unexpected character"),
    ("ℯ^x", "unexpected character"),
    ("x'", "unexpected character"),
    ("ln^-1 x", "ambiguous"),  # was ln(x)^-1: the inverse of ln is e^x (sin^-1 x stays arcsin, documented)
    ("exp^-1(x)", "ambiguous"),
    ("e^^x", "unexpected"),
    ("x^²", "unexpected"),
    ("sin^2", "needs an argument"),
    ("x)", "closing bracket"),
    ("sin(x", "never closed"),
    ("erf(x)", "not supported"),
]


@pytest.mark.parametrize(("typed", "word"), REFUSED)
def test_refused_with_one_line_a_caret_and_a_hint(typed, word):
    out = runner.invoke(app, ["check", typed, "--no-color"])
    assert out.exit_code == 2, out.output
    lines = out.stderr.splitlines()
    assert lines[0].startswith("gradcli: error: ") and word in lines[0]
    assert lines[1] == f"  {typed}" and set(lines[2].strip()) == {"^"}
    assert any(line.startswith("hint: ") for line in lines[3:]), out.stderr
    assert "Traceback" not in out.output


def test_the_hint_for_a_fraction_exponent_gives_both_spellings():
    out = runner.invoke(app, ["check", "x^1/2", "--no-color"])
    assert "x^1/2\n    ^^^\n" in out.stderr and "^(1/2)" in out.stderr


def test_spelled_right_the_fraction_exponent_is_the_root():
    assert check_derivative("x^(1/2)", ["1/(2*sqrt(x))"], wrt=["x"]).results[0].verdict == "correct"
    assert check_derivative("x^2/2", ["x"], wrt=["x"]).results[0].verdict == "correct"  # x²/2 still reads


def test_a_constant_function_is_an_error_not_an_empty_answer():
    # `check 5` printed nothing and exited 0 (an empty report: "correct": true in --json)
    out = runner.invoke(app, ["check", "5", "--no-color"])
    assert out.exit_code == 2 and out.stderr.startswith("gradcli: error: ") and "hint: --wrt x" in out.stderr
    out = runner.invoke(app, ["check", "5", "--wrt", "x", "--no-color"])
    assert out.exit_code == 0 and "= 0" in out.stdout


# eval: PyTorch's syntax (documented: ^ is power with power's precedence, e and pi are constants)
EVAL_READ = [
    ("x^2", 2 * 1.5),
    ("x**2", 2 * 1.5),
    ("e^x", math.exp(1.5)),
    ("exp(x)", math.exp(1.5)),
    ("log(x)", 1 / 1.5),  # natural
    ("atan(x)", 1 / (1 + 1.5**2)),
    ("arctan(x)", 1 / (1 + 1.5**2)),
    ("2*x^2", 4 * 1.5),
    ("1-x^2", -2 * 1.5),  # 1 - x², not (1 - x)²
    ("pi*x", math.pi),
    ("abs(x)", 1.0),
]


@pytest.mark.parametrize(("typed", "grad"), EVAL_READ)
def test_eval_reads_as_documented(typed, grad):
    out = runner.invoke(app, ["eval", typed, "x=1.5", "--json", "--no-check"])
    assert out.exit_code == 0, out.output


    assert json.loads(out.stdout)["tensors"]["x"]["grad"] == pytest.approx(grad, rel=1e-12)


EVAL_REFUSED = [
    ("2x", "2*x"), ("sin x", "sin(x)"), ("ln(x)", "log(x)"), ("sec(x)", "1/cos(x)"), ("x²", "x^2"),
    ("2×x", "2*x"), ("−x", "-x"), ("√x", "sqrt(x)"), ("|x|", "abs(x)"), ("sin^2(x)", "sin(x)"),
    ("π*x", "write pi"),  # the hint said "give values as NAME=VALUE, e.g. π=1.0"
    ("x·x", "write x*x"),  # Python reads x·x as one name; the hint said "e.g. x·x=1.0"
    ("x^1/2", "^(1/2)"),  # ^ is power with power's precedence: this was x/2 in silence (grad 0.5, not 0.25)
    ("x^-1/2", "^(-1/2)"),
    ("e^1/x", "^(1/x)"),
]


def test_eval_keeps_python_s_reading_of_double_stars_and_plain_quotients_of_powers():
    for typed, grad in (("x**1/2", 0.5), ("x^2/2", 1.5), ("x^-x/2", None)):
        out = runner.invoke(app, ["eval", typed, "x=1.5", "--json", "--no-check"])
        assert out.exit_code == 0, out.output
        if grad is not None:
            assert json.loads(out.stdout)["tensors"]["x"]["grad"] == pytest.approx(grad, rel=1e-12)


@pytest.mark.parametrize(("typed", "hint"), EVAL_REFUSED)
def test_eval_refuses_homework_notation_with_a_hint(typed, hint):
    out = runner.invoke(app, ["eval", typed, "x=1.5", "--no-color", "--no-check"])
    assert out.exit_code == 2, out.output
    lines = out.stderr.splitlines()
    assert lines[0].startswith("gradcli: error: ") and lines[1] == f"  {typed}" and "^" in lines[2]
    assert hint in out.stderr and "Traceback" not in out.output
