"""Issue 19 §1: "✓ correct" only with sympy's proof that answer − derivative is 0; an answer whose numbers agree
to 34+ digits but that is not exactly the derivative (10⁻⁴⁰ added, a constant kept to 38-40 digits, e^(−1000)
added) is wrong; numbers that agree without a proof are "agrees (not proven)", exit code 3."""

from __future__ import annotations

import json

import pytest
import sympy as sp
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.check import check_derivative

runner = CliRunner()
PI_38 = "3.1415926535897932384626433832795028842"  # π = 3.14159265358979323846264338327950288419…
LOG10E_40 = "0.4342944819032518276511289189166050822944"  # 1/ln 10 = 0.43429448190325182765112891891660508229439…


def result_of(function, answer):
    (result,) = check_derivative(function, [answer]).results
    return result


@pytest.mark.parametrize("function, answer", [
    ("x^2", "2x + 10^-40"), ("x^2", "2x(1 + 10^-38)"), ("x^2", "2x + e^(-1000)"),
    ("sin(x)", f"{PI_38} cos(x)/π"), ("log10(x)", f"{LOG10E_40}/x"), ("π x", f"{PI_38}"),
])
def test_an_answer_equal_to_many_digits_but_not_exactly_is_incorrect(function, answer):
    result = result_of(function, answer)
    assert result.verdict == "incorrect", result.reason


@pytest.mark.parametrize("function, answer, constant", [
    ("sin(x)", f"{PI_38} cos(x)/π", f"π exactly, not {PI_38}"), ("log10(x)", f"{LOG10E_40}/x", "1/ln(10) exactly"),
])
def test_a_long_decimal_gets_the_write_it_exactly_hint(function, answer, constant):
    assert constant in result_of(function, answer).hint


@pytest.mark.parametrize("function, answer", [
    ("x^2", "2x"), ("sin(x)^2", "sin(2x)"), ("x^2/4", "0.5x"), ("ln(x^2 + 1)", "2x/(x^2 + 1)"),
])
def test_a_correct_answer_is_proven(function, answer):
    result = result_of(function, answer)
    # the truth, independently of gradcli: sympy's derivative of the hand translation equals the answer
    x = sp.Symbol("x", real=True)
    truth = {"x^2": 2 * x, "sin(x)^2": sp.sin(2 * x), "x^2/4": x / 2, "ln(x^2 + 1)": 2 * x / (x**2 + 1)}[function]
    assert sp.simplify(sp.diff(sp.sympify(function.replace("^", "**").replace("ln", "log"), {"x": x}), x) - truth) == 0
    assert result.verdict == "correct" and result.proven is True


def test_numbers_without_a_proof_agree_with_exit_code_3(monkeypatch):
    # sympy that cannot simplify anything: sin(2x) against 2 sin(x) cos(x) then has no proof
    monkeypatch.setattr(sp, "simplify", lambda expr, *a, **k: expr)
    out = runner.invoke(app, ["check", "sin(x)^2", "--expect", "sin(2x)"])
    assert out.exit_code == 3, out.stdout
    assert "agrees at 40 points (not proven)" in out.stdout
    out = runner.invoke(app, ["check", "sin(x)^2", "--expect", "sin(2x)", "--json"])
    data = json.loads(out.stdout)
    assert out.exit_code == 3 and data["results"][0]["proven"] is False


def test_json_says_proven():
    out = runner.invoke(app, ["check", "x^3", "--expect", "3x^2", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["results"][0]["proven"] is True


@pytest.mark.parametrize("function, answer, truth", [
    ("e^(-800) x^2", "e^(-800)x", "incorrect"), ("e^(-800) x^2", "2e^(-800)x", "correct"),
    ("e^(800) sin x", "e^800 sin x", "incorrect"), ("e^(800) sin x", "e^800 cos x", "correct"),
])
def test_values_beyond_floats_are_decided(function, answer, truth):
    result = result_of(function, answer)
    assert result.verdict == truth, result.reason
    if truth == "incorrect":
        # at x = 1: e^(-800)·1 against 2·e^(-800)·1, and e^800 sin 1 against e^800 cos 1 (cos 1 = 0.5403...)
        assert result.counterexample["point"] == {"x": 1.0}
        assert result.counterexample["derivative"] != result.counterexample["expected"]


def test_the_reason_is_the_true_one_for_a_narrow_bump():
    # e^(-10000(x - 0.37)²) is defined everywhere (tiny far from 0.37): the answer is not "undefined"
    result = result_of("x^2", "2x + e^(-10000(x - 0.37)^2)")
    assert result.verdict == "incorrect" and "undefined" not in result.reason


def test_the_api_says_agrees_without_a_proof(monkeypatch):
    import gradcli

    assert gradcli.check("x^2", "2x").verdict == "correct"
    monkeypatch.setattr(sp, "simplify", lambda expr, *a, **k: expr)
    assert gradcli.check("sin(x)^2", "sin(2x)").verdict == "agrees"
