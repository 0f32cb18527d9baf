"""PyTorch's conventions where they are easy to get wrong (issue 15 §4), replayed from
tests/goldens/conventions.json (recorded with PyTorch 2.13 by scripts/make_convention_goldens.py): gradients
at nan in max/min-like ops, sign(nan), clamp epsilons, variance without degrees of freedom, overflow-free
norms, empty tensors.  Where gradcli deliberately differs, the case is in docs/deviations.md instead."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.lang.evaluation import evaluate_expression
from gradcli.safety.errors import GradcliError

RECORDED = json.loads((Path(__file__).parents[1] / "goldens" / "conventions.json").read_text())
GOLDENS = RECORDED["cases"]


@pytest.mark.parametrize("case", GOLDENS, ids=[f"{c['expression']}-{list(c['values'].values())}" for c in GOLDENS])
def test_matches_pytorch(case):
    inputs = {name: np.array(v, dtype=np.float64) for name, v in case["values"].items()}
    if "error" in case:
        with pytest.raises(GradcliError) as info:
            evaluate_expression(case["expression"], inputs)
        assert info.value.message == case["error"]
        return
    grad_output = np.ones(case["shape"]) if case["shape"] else None
    result = evaluate_expression(case["expression"], inputs, grad_output=grad_output)
    assert result.error is None, result.error
    np.testing.assert_allclose(result.output, case["output"], rtol=1e-15, atol=0, equal_nan=True)
    assert list(np.shape(result.output)) == case["shape"]
    for name, expected in case["grads"].items():
        got = result.tensors[name].grad
        if expected is None:
            assert got is None, f"{name}.grad should stay None, as PyTorch leaves it"
        else:
            np.testing.assert_allclose(got, np.array(expected, dtype=np.float64).reshape(np.shape(got)),
                                       rtol=1e-15, atol=0, equal_nan=True, err_msg=f"{name}.grad")


@pytest.mark.parametrize("case", RECORDED["hessians"], ids=[f"{c['expression']}-{list(c['values'].values())}"
                                                           for c in RECORDED["hessians"]])
def test_second_derivatives_match_pytorch(case):
    """binary_cross_entropy's double backward (PyTorch's own formulas and eps), var/std without degrees of
    freedom."""
    from gradcli.calc.calculator import attach_derivatives

    inputs = {name: np.array(v, dtype=np.float64) for name, v in case["values"].items()}
    result = evaluate_expression(case["expression"], inputs)
    attach_derivatives(result, hessian=True)
    for key, rows in case["hessian"].items():
        got = result.extras["hessian"][key].reshape(len(rows), -1)
        np.testing.assert_allclose(got, np.array(rows, dtype=np.float64), rtol=1e-12, atol=0, equal_nan=True,
                                   err_msg=key)


# (expression, values, expected output, expected grads): the rows of docs/deviations.md, hand-derived
DEVIATIONS = [
    # d det(A)/dA = cofactor matrix: for [[a, b], [c, d]] it is [[d, -c], [-b, a]]
    ("torch.det(w)", {"w": [[1.0, 2.0], [2.0, 4.0]]}, 0.0, {"w": [[4.0, -2.0], [-2.0, 1.0]]}),
    # 0 ** v is constant on each side of 0: derivative 0 (value 1 at v = 0, inf below)
    ("(0 ** v).sum()", {"v": [0.0, 1.0, 2.0, -1.0]}, np.inf, {"v": [0.0, 0.0, 0.0, 0.0]}),
    # IEEE pow(-0, -0.5) = +inf; d/dw w^-0.5 = -0.5 w^-1.5 = -inf at both zeros
    ("w ** -0.5", {"w": [-0.0, 0.0]}, [np.inf, np.inf], {"w": [-np.inf, -np.inf]}),
]


@pytest.mark.parametrize("expression,values,output,grads", DEVIATIONS, ids=[d[0] for d in DEVIATIONS])
def test_documented_deviation(expression, values, output, grads):
    inputs = {name: np.array(v, dtype=np.float64) for name, v in values.items()}
    shape = np.shape(output)
    result = evaluate_expression(expression, inputs, grad_output=np.ones(shape) if shape else None)
    np.testing.assert_allclose(result.output, output, rtol=1e-15)
    for name, expected in grads.items():
        np.testing.assert_allclose(result.tensors[name].grad, expected, rtol=1e-15)


def test_zero_power_hessian_is_zero():
    from gradcli.calc.calculator import attach_derivatives

    result = evaluate_expression("(0 ** v).sum()", {"v": np.array([0.0, 1.0, 2.0, -1.0])})
    attach_derivatives(result, hessian=True)
    assert result.extras["hessian"]["v,v"].tolist() == [[0.0] * 4] * 4  # PyTorch: nan, nan, nan, inf on the diagonal
