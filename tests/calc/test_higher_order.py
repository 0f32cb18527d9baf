"""Hessians, Jacobians and n-th derivatives (`eval --hessian / --jacobian / --order N`) against hand-derived
results, through the engine (gradcli.engine.functional), the calculator (calc.attach_derivatives) and the CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli import engine
from gradcli.calc.calculator import attach_derivatives
from gradcli.cli.commands import app
from gradcli.engine import Tensor, functional
from gradcli.lang.evaluation import evaluate_expression
from gradcli.safety.errors import EvalError


def t(values):
    return Tensor(np.array(values, dtype=np.float64), requires_grad=True)


pytestmark = pytest.mark.usefixtures("float64_mode")


# -- engine ---------------------------------------------------------------------------------------------

def test_hessian_of_quadratic_form_is_a_plus_a_transpose():
    a = np.array([[1.0, 2.0, 0.5], [-1.0, 3.0, 0.0], [4.0, 0.0, -2.0]])
    x = t([0.3, -1.2, 2.0])
    blocks = functional.hessian(x @ Tensor(a) @ x, [x])
    np.testing.assert_allclose(blocks[0, 0], a + a.T, rtol=0, atol=1e-12)


def test_hessian_of_sum_of_cubes_is_diag_6x():
    values = np.array([1.0, -2.0, 0.5, 3.0])
    x = t(values)
    blocks = functional.hessian((x ** 3).sum(), [x])
    np.testing.assert_allclose(blocks[0, 0], np.diag(6 * values), rtol=1e-12, atol=0)


def test_hessian_of_squared_dot_product_has_all_four_blocks():
    # f = (x.y)^2: d2f/dx2 = 2 y y^T, d2f/dy2 = 2 x x^T, d2f/dxdy = 2 (x.y) I + 2 y x^T
    xv, yv = np.array([1.0, 2.0, -1.0]), np.array([0.5, -1.0, 3.0])
    x, y = t(xv), t(yv)
    blocks = functional.hessian((x * y).sum() ** 2, [x, y])
    s = xv @ yv
    np.testing.assert_allclose(blocks[0, 0], 2 * np.outer(yv, yv), atol=1e-12)
    np.testing.assert_allclose(blocks[1, 1], 2 * np.outer(xv, xv), atol=1e-12)
    np.testing.assert_allclose(blocks[0, 1], 2 * s * np.eye(3) + 2 * np.outer(yv, xv), atol=1e-12)
    np.testing.assert_allclose(blocks[1, 0], blocks[0, 1].T, atol=1e-12)


def test_hessian_blocks_have_input_shapes_and_unused_inputs_give_zeros():
    x, w, unused = t([[1.0, 2.0], [3.0, 4.0]]), t([0.5, -0.5]), t(2.0)
    blocks = functional.hessian(((x @ w) ** 2).sum(), [x, w, unused])
    assert blocks[0, 1].shape == (2, 2, 2) and blocks[1, 0].shape == (2, 2, 2) and blocks[2, 2].shape == ()
    assert not blocks[2, 0].any() and not blocks[0, 2].any()
    # a linear function has a zero Hessian (its gradient has no graph)
    assert not functional.hessian((x * 3).sum(), [x])[0, 0].any()


def test_hessian_needs_a_scalar_output():
    x = t([1.0, 2.0])
    with pytest.raises(ValueError):
        functional.hessian(x * 2, [x])


def test_jacobian_of_elementwise_product_is_diag():
    xv, yv = np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 4.0])
    x, y = t(xv), t(yv)
    jx, jy = functional.jacobian(x * y, [x, y])
    np.testing.assert_array_equal(jx, np.diag(yv))
    np.testing.assert_array_equal(jy, np.diag(xv))


def test_jacobian_of_matrix_vector_product_is_the_matrix():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = t([1.0, -1.0, 2.0])
    (j,) = functional.jacobian(Tensor(a) @ x, [x])
    np.testing.assert_array_equal(j, a)


def test_jacobian_shape_is_output_shape_plus_input_shape():
    x = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (j,) = functional.jacobian(x.sum(dim=1), [x])
    assert j.shape == (2, 2, 3)
    np.testing.assert_array_equal(j, [[[1, 1, 1], [0, 0, 0]], [[0, 0, 0], [1, 1, 1]]])
    other = t([1.0, 2.0])
    assert not functional.jacobian(x.sum(dim=1), [other])[0].any()  # not an input of the output: zeros


def test_jacobian_of_softmax_matches_the_closed_form():
    x = t([1.0, 2.0, 0.5])
    (j,) = functional.jacobian(engine.ops.softmax(x, 0), [x])
    s = np.exp(x.array) / np.exp(x.array).sum()
    np.testing.assert_allclose(j, np.diag(s) - np.outer(s, s), atol=1e-15)


@pytest.mark.parametrize("value", [0.3, -1.7, 2.5])
def test_fourth_derivative_of_sin_is_sin(value):
    x = t(value)
    d1, d2, d3, d4 = functional.nth_derivative(engine.ops.sin(x), x, 4)
    assert d1 == pytest.approx(math.cos(value), abs=1e-15)
    assert d2 == pytest.approx(-math.sin(value), abs=1e-15)
    assert d3 == pytest.approx(-math.cos(value), abs=1e-15)
    assert d4 == pytest.approx(math.sin(value), abs=1e-15)


def test_nth_derivative_of_a_polynomial_ends_in_zeros():
    x = t(2.0)
    values = functional.nth_derivative(x ** 3, x, 5)
    assert [float(v) for v in values] == [12.0, 12.0, 6.0, 0.0, 0.0]


def test_nth_derivative_of_exp_and_log():
    x = t(0.7)
    assert [float(v) for v in functional.nth_derivative(engine.ops.exp(2 * x), x, 3)] == pytest.approx(
        [2 * math.exp(1.4), 4 * math.exp(1.4), 8 * math.exp(1.4)], rel=1e-14)
    # d^n/dx^n log x = (-1)^(n-1) (n-1)! / x^n
    expected = [(-1) ** (n - 1) * math.factorial(n - 1) / 0.7 ** n for n in range(1, 7)]
    assert [float(v) for v in functional.nth_derivative(engine.ops.log(x), x, 6)] == pytest.approx(expected,
                                                                                                    rel=1e-12)


# -- calculator -----------------------------------------------------------------------------------------

def test_attach_hessian_keys_and_shapes():
    result = evaluate_expression("(x ** 2 * y).sum() + (w ** 2).sum()", {"x": np.array([1.0, 2.0]),
                                                                        "y": np.array(3.0), "w": np.ones((2, 2))})
    attach_derivatives(result, hessian=True)
    hess = result.extras["hessian"]
    assert list(hess) == ["x,x", "x,y", "x,w", "y,x", "y,y", "y,w", "w,x", "w,y", "w,w"]
    np.testing.assert_array_equal(hess["x,x"], 6 * np.eye(2))
    np.testing.assert_array_equal(hess["x,y"], [2.0, 4.0])
    assert hess["w,w"].shape == (2, 2, 2, 2) and hess["y,y"].shape == ()


def test_attach_hessian_rejects_non_scalar_output():
    result = evaluate_expression("x * 2", {"x": np.array([1.0, 2.0])}, grad_output=np.ones(2))
    with pytest.raises(EvalError, match="scalar output"):
        attach_derivatives(result, hessian=True)


def test_attach_jacobian_of_non_scalar_output_clears_the_backward_error():
    result = evaluate_expression("x * y", {"x": np.array([1.0, 2.0]), "y": np.array([3.0, 4.0])})
    assert result.error is not None  # backward() needs a gradient for a non-scalar output
    attach_derivatives(result, jacobian=True)
    assert result.error is None and any("--grad-output" in w for w in result.warnings)
    np.testing.assert_array_equal(result.extras["jacobian"]["x"], np.diag([3.0, 4.0]))


def test_attach_order_needs_one_scalar_input():
    result = evaluate_expression("(x * y).sum()", {"x": np.array([1.0, 2.0]), "y": np.array([3.0, 4.0])})
    with pytest.raises(EvalError, match="one scalar input"):
        attach_derivatives(result, order=2)
    result = evaluate_expression("torch.sin(x) * c", {"x": np.array(0.5)}, {"c": np.array(2.0)})
    attach_derivatives(result, order=4)
    assert result.extras["derivatives"]["values"][3] == pytest.approx(2 * math.sin(0.5), abs=1e-15)


def test_hessian_size_is_limited():
    from gradcli.safety.limits import Limits

    result = evaluate_expression("(x ** 2).sum()", {"x": np.ones(100)})
    with pytest.raises(EvalError, match="limit"):
        attach_derivatives(result, hessian=True, limits=Limits(max_elements=1000))


# -- command line ---------------------------------------------------------------------------------------

runner = CliRunner()


def _json(args):
    res = runner.invoke(app, ["eval", *args, "--json", "--no-check"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_cli_hessian_json():
    out = _json(["x @ A @ x", "x=[1,2,3]", "-c", "A=[[1,2,0],[0,1,0],[3,0,1]]", "--hessian"])
    assert out["hessian"] == {"x,x": [[2.0, 2.0, 3.0], [2.0, 2.0, 0.0], [3.0, 0.0, 2.0]]}


def test_cli_jacobian_json_for_non_scalar_output():
    out = _json(["x * y", "x=[1,2]", "y=[3,4]", "--jacobian"])
    assert out["jacobian"] == {"x": [[3.0, 0.0], [0.0, 4.0]], "y": [[1.0, 0.0], [0.0, 2.0]]}
    assert out["tensors"]["x"]["grad"] is None


def test_cli_order_json_and_table():
    out = _json(["torch.sin(x)", "x=0.5", "--order", "4"])
    assert out["derivatives"]["order"] == 4
    assert out["derivatives"]["values"][3] == pytest.approx(math.sin(0.5), abs=1e-15)
    assert out["derivatives"]["value"] == out["derivatives"]["values"][3]
    res = runner.invoke(app, ["eval", "torch.sin(x)", "x=0.5", "--order", "2", "--no-check", "--no-color"])
    assert res.exit_code == 0 and "derivatives" in res.stdout and "-0.479426" in res.stdout


@pytest.mark.parametrize("args, title", [(["x**3", "x=2", "--order", "3"], "derivatives  dⁿout/dxⁿ"),
                                         (["x**2", "x=1", "--hessian"], "hessian  ∂²out/∂a∂b"),
                                         (["x*2", "x=1", "--jacobian"], "jacobian  ∂out/∂x")])
@pytest.mark.parametrize("width", [40, 80, 200])
def test_cli_derivative_table_titles_are_one_line_at_every_width(args, title, width):
    """A rich table's title wraps at the table's own width, which is that of its narrow columns."""
    res = runner.invoke(app, ["eval", *args, "--no-check", "--no-color", "--width", str(width)])
    assert res.exit_code == 0 and title in res.stdout.splitlines(), res.stdout


def test_cli_hessian_table_and_errors():
    res = runner.invoke(app, ["eval", "(x**3).sum()", "x=[1,2]", "--hessian", "--no-check", "--no-color"])
    assert res.exit_code == 0 and "hessian" in res.stdout and "x,x" in res.stdout and "12." in res.stdout
    res = runner.invoke(app, ["eval", "x * 2", "x=[1,2]", "--hessian", "--no-check"])
    assert res.exit_code == 2 and "scalar output" in res.stderr
