"""Finite-difference gradients (gradcli.verify.numeric) and `eval --gradcheck`."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.calc.calculator import attach_checks
from gradcli.cli.commands import app
from gradcli.lang.evaluation import evaluate_expression
from gradcli.lang.parser import parse
from gradcli.verify.numeric import ATOL, EPS, RTOL, finite_difference_grads, gradcheck

runner = CliRunner()


@pytest.mark.parametrize("expr, inputs, expected", [
    ("(x**3).sum()", {"x": [1.0, 2.0]}, {"x": [3.0, 12.0]}),  # 3x²
    ("torch.sin(x) * y", {"x": 0.0, "y": 2.0}, {"x": 2.0, "y": 0.0}),  # y cos x, sin x
    ("(W @ v).sum()", {"W": [[1.0, 2.0], [3.0, 4.0]], "v": [5.0, 6.0]},
     {"W": [[5.0, 6.0], [5.0, 6.0]], "v": [4.0, 6.0]}),  # column sums of W, v in every row
    ("torch.log(x).mean()", {"x": [1.0, 4.0]}, {"x": [0.5, 0.125]}),  # 1/(n x)
])
def test_central_differences_match_calculus(expr, inputs, expected):
    grads = finite_difference_grads(parse(expr), {k: np.array(v) for k, v in inputs.items()})
    for name, value in expected.items():
        np.testing.assert_allclose(grads[name], value, atol=1e-6)


def test_grad_output_weights_the_outputs():
    # L = sum(g * x²) -> dL/dx = 2 g x
    grads = finite_difference_grads(parse("x**2"), {"x": np.array([1.0, 3.0])}, grad_output=np.array([1.0, -2.0]))
    np.testing.assert_allclose(grads["x"], [2.0, -12.0], atol=1e-6)


def test_constants_are_held_fixed():
    grads = finite_difference_grads(parse("x * c"), {"x": np.array(2.0)}, {"c": np.array(5.0)})
    assert set(grads) == {"x"} and math.isclose(grads["x"], 5.0, abs_tol=1e-6)


def test_gradcheck_agrees_with_torch_defaults():
    report = gradcheck(evaluate_expression("(x.tanh() * x).sum()", {"x": np.array([0.3, -1.2])}), timeout=10)
    assert report["status"] == "agrees"
    assert (report["eps"], report["atol"], report["rtol"]) == (1e-6, 1e-5, 1e-3) == (EPS, ATOL, RTOL)
    assert report["max_abs_diff"] < 1e-8


def test_gradcheck_calls_a_kink_a_convention_like_the_sympy_check():
    # relu at 0: central differences see (0 + eps)/(2 eps) = 1/2, but the one-sided slopes are 0 (left) and
    # 1 (right), and PyTorch's 0 is one of the slopes in between: a convention, not a wrong gradient
    report = gradcheck(evaluate_expression("x.relu()", {"x": np.array(0.0)}), timeout=10)
    assert report["status"] == "convention" and report["convention"] == "PyTorch"
    kink = report["kinks"][0]
    assert kink["autograd"] == 0.0 and math.isclose(kink["numeric"], 0.5, rel_tol=1e-6)
    assert kink["left"] == 0.0 and math.isclose(kink["right"], 1.0, rel_tol=1e-6)
    assert "kink" in report["reason"]


def test_gradcheck_still_disagrees_with_a_wrong_gradient():
    smooth = evaluate_expression("x**2", {"x": np.array(3.0)})
    smooth.tensors["x"].grad = np.array(7.0)  # d(x^2)/dx at 3 is 6
    report = gradcheck(smooth, timeout=10)
    assert report["status"] == "disagrees" and math.isclose(report["mismatches"][0]["numeric"], 6.0, rel_tol=1e-6)
    kinked = evaluate_expression("x.relu()", {"x": np.array(0.0)})
    kinked.tensors["x"].grad = np.array(5.0)  # outside the slopes [0, 1]: no convention makes it right
    assert gradcheck(kinked, timeout=10)["status"] == "disagrees"


def test_gradcheck_skips_infinite_gradients():
    report = gradcheck(evaluate_expression("x.sqrt().sum()", {"x": np.array([0.0, 4.0])}), timeout=10)
    assert report["status"] == "agrees"  # x[0]'s infinite gradient has no finite difference to compare


def test_attach_checks_numeric_without_sympy_check():
    result = evaluate_expression("x**2", {"x": np.array(3.0)})
    attach_checks(result, check=False, gradcheck=True)
    assert "symbolic" not in result.extras and result.extras["numeric"]["status"] == "agrees"


def test_eval_gradcheck_json():
    out = runner.invoke(app, ["eval", "(x**2).sum()", "x=[1,2]", "--gradcheck", "--no-check", "--json"])
    numeric = json.loads(out.stdout)["numeric"]
    assert numeric["status"] == "agrees" and numeric["eps"] == 1e-6
    np.testing.assert_allclose(numeric["grads"]["x"], [2.0, 4.0], atol=1e-6)


def test_eval_gradcheck_line_and_strict():
    out = runner.invoke(app, ["eval", "x.relu()", "x=0", "--gradcheck", "--no-check", "--no-color", "--strict"])
    assert "numeric convention" in out.stdout and out.exit_code == 0  # a kink is not a failure


def test_strict_fails_on_non_finite_gradients():
    # d sqrt(x)/dx = 1 / (2 sqrt(x)) is inf at 0
    args = ["eval", "x.sqrt().sum()", "x=[0,4]", "--no-check", "--no-color"]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, [*args, "--strict"]).exit_code == 1
    assert runner.invoke(app, ["eval", "x.sqrt().sum()", "x=[1,4]", "--no-check", "--strict"]).exit_code == 0


@pytest.mark.parametrize("expr", ["F.dropout(x, 0.5).sum()", "torch.rrelu(x, 0.1, 0.3, True).sum()",
                                  "(x * torch.randn(3)).sum()"])
def test_random_draws_are_not_judged_by_finite_differences(expr):
    # each evaluation of the differences draws another dropout mask / slope / normal: comparing them with the
    # gradient of the draw autograd saw would call a right gradient wrong (dropout was "disagrees ... this is a
    # gradcli bug", exit 1)
    report = gradcheck(evaluate_expression(expr, {"x": np.array([-1.0, 2.0, -3.0])}), timeout=10)
    assert report["status"] == "skipped" and "draws random numbers" in report["reason"]
    out = runner.invoke(app, ["eval", expr, "x=[-1.0, 2.0, -3.0]", "--seed", "0", "--no-color"])
    assert out.exit_code == 0 and "disagree" not in out.stdout + out.stderr
