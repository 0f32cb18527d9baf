"""The sympy cross-check of `gradcli eval`: the SympyBackend, the verdicts, the formulas, the CLI line.

Expectations are calculus facts (d/dx x² = 2x ...) and PyTorch's documented conventions at kinks, never
numbers the code under test produced.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.calc.calculator import attach_checks
from gradcli.cli.commands import app
from gradcli.lang.evaluation import evaluate_expression
from gradcli.verify.symbolic import cross_check

GOLDENS = json.loads((Path(__file__).parents[1] / "goldens" / "ops.json").read_text())
CORE = [c for c in GOLDENS["cases"] if c["tier"] == "core"]
runner = CliRunner()


def _value(v):
    if isinstance(v, list):
        return [_value(e) for e in v]
    return float(v) if isinstance(v, str) else v


def _result(expr, grad_output=None, consts=None, **inputs):
    return evaluate_expression(expr, {k: np.array(v, dtype=np.float64) for k, v in inputs.items()},
                               {k: np.array(v, dtype=np.float64) for k, v in (consts or {}).items()},
                               grad_output=None if grad_output is None else np.array(grad_output, dtype=np.float64))


def _expected_core_verdict(case) -> str:
    # At a kink PyTorch picks a value by convention (relu'(0) = 0, |x|'(0) = 0, clamp's bounds count as
    # inside, tied maxima share the gradient); sqrt's derivative at 0 is infinite on both sides.
    at_kink = ("/edge" in case["id"] or "/ties" in case["id"]) and case["op"] in ("abs", "relu", "clamp", "max", "min")
    return "convention" if at_kink else "agrees"


@pytest.mark.parametrize("case", CORE, ids=[c["id"] for c in CORE])
def test_sympy_agrees_with_autograd_on_every_core_golden_case(case):
    inputs = {k: _value(v["value"]) for k, v in case["inputs"].items()}
    result = _result(case["expr"], grad_output=None if case["grad_output"] is None else _value(case["grad_output"]),
                     **inputs)
    check = cross_check(result, timeout=30)
    assert check["status"] == _expected_core_verdict(case), check.get("reason")


# -- verdicts ----------------------------------------------------------------------------------------

def test_agrees_reports_the_largest_difference_and_the_formula():
    check = cross_check(_result("(x**2).sum()", x=[1.0, 2.0, 3.0]), timeout=30)
    assert check["status"] == "agrees"
    assert check["max_abs_diff"] == 0.0  # 2x is exact in floating point
    assert check["formulas"] == {"x": ["2*x_0", "2*x_1", "2*x_2"]}
    assert check["patterns"]["x"] == {"symbol": "x_i", "formula": "2*x_i"}


def test_disagrees_names_the_tensor_the_element_and_both_values():
    result = _result("(x**2).sum()", x=[1.0, 2.0, 3.0])
    result.tensors["x"].grad = np.array([2.0, 4.5, 6.0])  # a wrong autograd answer for x[1]; d/dx x² = 2x = 4
    check = cross_check(result, timeout=30)
    assert check["status"] == "disagrees"
    assert check["mismatches"] == [{"tensor": "x", "index": [1], "autograd": 4.5, "sympy": 4.0}]
    assert check["reason"] == "x[1]: autograd 4.5, sympy 4"


def test_a_point_outside_the_real_domain_is_pytorchs_convention_not_a_bug():
    # logit(2) = log(2 / (1 - 2)) is not real; PyTorch's LogitBackward gives nan outside [0, 1], while sympy's
    # formula 1 / (x (1 - x)) evaluates to -1/2 there
    check = cross_check(_result("torch.logit(x).sum()", x=[2.0, 0.5]), timeout=30)
    assert check["status"] == "convention"
    assert check["kinks"][0]["index"] == [0] and math.isnan(check["kinks"][0]["autograd"])
    assert check["kinks"][0]["sympy"] == -0.5
    assert "outside the expression's real domain" in check["reason"]


def test_a_nan_gradient_where_the_expression_is_real_is_still_a_disagreement():
    result = _result("torch.logit(x).sum()", x=[0.2, 0.5])
    result.tensors["x"].grad = np.array([math.nan, 4.0])  # a wrong answer: logit'(0.2) = 1 / (0.2 * 0.8) = 6.25
    check = cross_check(result, timeout=30)
    assert check["status"] == "disagrees" and check["mismatches"][0]["index"] == [0]


def test_relu_at_zero_is_pytorchs_convention():
    # relu'(0): PyTorch uses 0; sympy's Heaviside(0) is 1/2
    check = cross_check(_result("x.relu().sum()", x=[-1.0, 0.0, 2.0]), timeout=30)
    assert check["status"] == "convention"
    assert check["kinks"] == [{"tensor": "x", "index": [1], "autograd": 0.0, "sympy": 0.5}]
    assert check["kink_ops"] == ["relu"] and check["convention"] == "PyTorch"
    assert "x[1]" in check["reason"] and "PyTorch" in check["reason"]


def test_abs_at_zero_is_a_convention_even_where_sympy_agrees():
    # |x|'(0) is undefined; PyTorch uses sign(0) = 0, and so does sympy's sign(0)
    check = cross_check(_result("x.abs().sum()", x=[0.0, -2.0]), timeout=30)
    assert check["status"] == "convention"
    assert check["kinks"] == [{"tensor": "x", "index": [0], "autograd": 0.0, "sympy": 0.0}]
    assert "sympy gives the same" in check["reason"]


def test_tied_maxima_share_the_gradient_in_pytorch():
    # three tied maxima: PyTorch gives each 1/3; sympy's Heaviside(0) gives each 1/2
    check = cross_check(_result("x.max()", x=[2.0, 2.0, 2.0]), timeout=30)
    assert check["status"] == "convention"
    assert {(k["autograd"], k["sympy"]) for k in check["kinks"]} == {(1 / 3, 0.5)}


def test_away_from_the_kink_relu_agrees():
    assert cross_check(_result("x.relu().sum()", x=[-1.0, 0.5, 2.0]), timeout=30)["status"] == "agrees"


def test_skipped_for_an_op_without_symbolic_form():
    check = cross_check(_result("torch.floor(x).sum() + x.sum()", x=[0.5, 1.5]), timeout=30)
    assert check == {"status": "skipped", "reason": "no symbolic form for floor"}


def test_skipped_when_out_of_time():
    check = cross_check(_result("torch.softmax(x, dim=1).sum(dim=0).prod()", x=np.arange(12.0).reshape(3, 4) / 7),
                        timeout=0.001)
    assert check["status"] == "skipped" and "longer than 0.001 s" in check["reason"]


def test_too_large_inputs_are_skipped_unless_forced():
    result = _result("(x**2).sum()", x=np.arange(100.0))
    attach_checks(result, check=None, check_limit=64)
    assert result.extras["symbolic"]["status"] == "skipped"
    assert "100 input elements" in result.extras["symbolic"]["reason"]
    forced = _result("(x**2).sum()", x=np.arange(100.0))
    attach_checks(forced, check=True, check_limit=64)
    assert forced.extras["symbolic"]["status"] == "agrees"


def test_float32_uses_a_looser_tolerance():
    result = evaluate_expression("(x.sin() * x.exp()).sum()", {"x": np.array([0.3, 1.7], dtype=np.float32)},
                                 dtype=__import__("gradcli.engine", fromlist=["dtypes"]).dtypes.float32)
    check = cross_check(result, timeout=30, dtype_name="float32")
    assert check["status"] == "agrees" and check["rtol"] > 1e-6


# -- formulas ----------------------------------------------------------------------------------------

def test_scalar_formula_is_the_product_rule():
    check = cross_check(_result("x**2 * torch.sin(x)", x=1.5), timeout=30)
    assert check["formulas"]["x"] == ["x**2*cos(x) + 2*x*sin(x)"]


def test_pattern_with_broadcasting_and_grad_output():
    # out_ij = x_ij * y_j, backward(g): dL/dx_ij = g_ij * y_j
    result = _result("x * y", grad_output=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], x=np.ones((2, 3)), y=[1.0, 2.0, 3.0])
    check = cross_check(result, timeout=30)
    assert check["grad_output_symbol"] == "g"
    assert check["patterns"]["x"] == {"symbol": "x_i_j", "formula": "g_i_j*y_j"}
    assert "y" not in check["patterns"]  # dL/dy_j = g_0j x_0j + g_1j x_1j: one formula, but not per element alike


def test_no_pattern_when_elements_differ():
    check = cross_check(_result("torch.softmax(x, 0)[0]", x=[1.0, 2.0, 3.0]), timeout=30)
    assert check["status"] == "agrees" and check["patterns"] == {}
    assert len(check["formulas"]["x"]) == 3


def test_constants_stay_symbols_in_formulas():
    check = cross_check(_result("w * x + c", consts={"c": 4.0}, w=3.0, x=2.0), timeout=30)
    assert check["formulas"] == {"w": ["x"], "x": ["w"]}


def test_latex_formulas():
    check = cross_check(_result("(x**2).sum()", x=[1.0, 2.0]), timeout=30, latex=True)
    assert check["latex"]["patterns"]["x"] == {"symbol": "x_{i}", "formula": "2 x_{i}"}


def test_nonfinite_derivative_on_both_sides_agrees():
    # d/dx sqrt(x) = 1/(2 sqrt(x)) is infinite at 0 for PyTorch and for sympy
    assert cross_check(_result("x.sqrt().sum()", x=[0.0, 4.0]), timeout=30)["status"] == "agrees"


# -- the command line --------------------------------------------------------------------------------

def test_eval_prints_the_sympy_line():
    out = runner.invoke(app, ["eval", "(x**2).sum()", "x=[1,2,3]", "--no-color"])
    assert out.exit_code == 0
    assert "sympy   ∂/∂x_i = 2·x_i   agrees (max |Δ| = 0)" in out.stdout


def test_eval_json_has_the_symbolic_key():
    out = runner.invoke(app, ["eval", "(x**2).sum()", "x=[1,2,3]", "--json"])
    symbolic = json.loads(out.stdout)["symbolic"]
    assert symbolic["status"] == "agrees" and symbolic["formulas"] == {"x": ["2*x_0", "2*x_1", "2*x_2"]}


def test_eval_no_check_has_no_symbolic_key():
    out = runner.invoke(app, ["eval", "(x**2).sum()", "x=[1,2,3]", "--json", "--no-check"])
    assert "symbolic" not in json.loads(out.stdout)


def test_eval_latex_line():
    out = runner.invoke(app, ["eval", "x**2", "x=3", "--latex", "--no-color"])
    assert r"\frac{\partial L}{\partial x} = 2 x" in out.stdout


def test_a_disagreement_exits_1_unless_no_strict(monkeypatch):
    from gradcli.calc import calculator

    real = calculator.evaluate_expression

    def wrong_gradient(*args, **kwargs):
        result = real(*args, **kwargs)
        result.tensors["x"].grad = result.tensors["x"].grad + 1.0
        return result

    monkeypatch.setattr(calculator, "evaluate_expression", wrong_gradient)
    # issue 15: a disagreement is a gradcli bug, exit 1 by default (it was 0 unless --strict)
    assert runner.invoke(app, ["eval", "x**2", "x=3", "--json", "--no-strict"]).exit_code == 0
    strict = runner.invoke(app, ["eval", "x**2", "x=3", "--json"])
    assert strict.exit_code == 1
    assert json.loads(strict.stdout)["symbolic"]["status"] == "disagrees"
    assert "autograd and sympy disagree on x: 7 vs 6 — this is a gradcli bug" in strict.stderr


def test_convention_is_not_a_failure_under_strict():
    out = runner.invoke(app, ["eval", "x.relu()", "x=0", "--strict", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["symbolic"]["status"] == "convention"


def test_json_stays_strict_with_infinite_values():
    out = runner.invoke(app, ["eval", "x.sqrt().sum()", "x=[0,4]", "--json"])
    obj = json.loads(out.stdout)
    assert obj["symbolic"]["status"] == "agrees" and obj["tensors"]["x"]["grad"][0] == "inf"
    assert not math.isnan(obj["symbolic"]["max_abs_diff"])
