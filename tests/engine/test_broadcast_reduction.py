"""Issue 15: a broadcast operand whose shape equals the keepdim shape of a following reduction must get its
gradient summed over the broadcast dims.  Expected values are hand-derived: d/dw sum(v + w) counts how many
output elements each w element reached (its broadcast multiplicity), scaled by the reduction's weights."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli import engine as E
from gradcli.cli.commands import app
from gradcli.engine.autograd import EdgeChecks, Function
from gradcli.engine.errors import GradientShapeError
from gradcli.lang.evaluation import evaluate_expression

V = [0.0, -1.0, -2.0, 2.0]
M = [[-1.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0]]

# (expression, v, w, shape of the output (None: a scalar), hand-derived w.grad for a grad_output of ones)
CASES = [
    ("(v + w).sum()", V, [1.0], None, [4.0]),
    ("(v - w).sum()", V, [1.0], None, [-4.0]),
    ("(v * w).sum()", V, [2.0], None, [sum(V)]),
    ("(v / w).sum()", V, [2.0], None, [-sum(V) / 4.0]),
    ("(v + w).mean()", V, [1.0], None, [1.0]),
    ("(v + w).sum()", V, 1.0, None, 4.0),
    ("(v + w).sum()", M, [[1.0]], None, [[12.0]]),
    ("(v + w).sum()", V, [[[1.0]]], None, [[[4.0]]]),  # leading dims added by w
    ("(v + w).sum(dim=0)", M, [[1.0, 1.0, 1.0, 1.0]], (4,), [[3.0, 3.0, 3.0, 3.0]]),
    ("(v + w).sum(dim=0)", M, [1.0, 1.0, 1.0, 1.0], (4,), [3.0, 3.0, 3.0, 3.0]),
    ("(v + w).sum(dim=1, keepdim=True)", M, [[1.0], [1.0], [1.0]], (3, 1), [[4.0], [4.0], [4.0]]),
    ("(v + w).mean(dim=0, keepdim=True)", M, [[1.0, 2.0, 3.0, 4.0]], (1, 4), [[1.0, 1.0, 1.0, 1.0]]),
    ("(v - w).mean(dim=1)", M, [[1.0], [1.0], [1.0]], (3,), [[-1.0], [-1.0], [-1.0]]),
    ("torch.where(v > 0, v, w).sum()", V, [1.0], None, [3.0]),  # three of the four elements take w
    ("torch.lerp(v, w, 0.25).sum()", V, [1.0], None, [1.0]),  # four elements, weight 0.25 each
    ("torch.clamp(v, min=w).sum()", V, [0.5], None, [3.0]),  # three elements are below 0.5
    ("(v + w).amax()", V, [1.0], None, [1.0]),
    ("((v + w) ** 2).sum()", V, [1.0], None, [2.0 * (sum(V) + 4.0)]),
]
IDS = [f"{c[0]}-w{np.shape(c[2])}-v{np.shape(c[1])}" for c in CASES]


def t(values):
    return E.tensor(values, dtype=E.dtypes.float64, requires_grad=True)


def _args(expr, v, w, out_shape):
    args = ["eval", expr, f"v={json.dumps(v)}", f"w={json.dumps(w)}", "--json", "--no-check"]
    if out_shape is not None:
        args += ["--grad-output", json.dumps(np.ones(out_shape).tolist())]
    return args


@pytest.mark.parametrize("expr,v,w,out_shape,expected", CASES, ids=IDS)
def test_calculator_broadcast_then_reduce(expr, v, w, out_shape, expected):
    """Text -> graph -> backward, as `gradcli eval` runs it."""
    grad_output = None if out_shape is None else np.ones(out_shape)
    result = evaluate_expression(expr, {"v": np.array(v), "w": np.array(w)}, grad_output=grad_output)
    grad = result.tensors["w"].grad
    assert grad.shape == np.shape(w)
    np.testing.assert_allclose(grad, expected)


@pytest.mark.parametrize("expr,v,w,out_shape,expected", CASES, ids=IDS)
def test_cli_and_hessian_broadcast_then_reduce(expr, v, w, out_shape, expected):
    """The same gradients from the command, first order and through the dual-mode rules of --hessian."""
    first = CliRunner().invoke(app, _args(expr, v, w, out_shape))
    assert first.exit_code == 0, first.output
    np.testing.assert_allclose(json.loads(first.stdout)["tensors"]["w"]["grad"], expected)
    if out_shape is None:
        second = CliRunner().invoke(app, [*_args(expr, v, w, out_shape), "--hessian"])
        assert second.exit_code == 0, second.output
        np.testing.assert_allclose(json.loads(second.stdout)["tensors"]["w"]["grad"], expected)


def test_engine_broadcast_then_reduce_create_graph():
    v = E.tensor(V, dtype=E.dtypes.float64, requires_grad=True)
    w = E.tensor([1.0], dtype=E.dtypes.float64, requires_grad=True)
    (gw,) = E.autograd.grad((v + w).sum(), w, create_graph=True)
    assert gw.shape == w.shape and gw.array.tolist() == [4.0]


def _cli_json(*args):
    result = CliRunner().invoke(app, ["eval", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_eval_issue_example_sum():
    data = _cli_json("(v + w).sum()", "v=[0,-1,-2,2]", "w=[1]")
    assert data["tensors"]["w"]["grad"] == [4.0]  # PyTorch: tensor([4.])
    assert data["tensors"]["v"]["grad"] == [1.0, 1.0, 1.0, 1.0]


def test_eval_issue_example_bias():
    data = _cli_json("(X @ W + b).sum(dim=0)", "X=[[1,2],[3,4],[5,6]]", "W=[[1,0],[0,1]]", "b=[[0.5,0.5]]",
                     "--grad-output", "[1,1]")
    assert data["tensors"]["b"]["grad"] == [[3.0, 3.0]]  # three rows reached each bias: PyTorch [[3., 3.]]
    assert data["tensors"]["W"]["grad"] == [[9.0, 9.0], [12.0, 12.0]]  # column sums of X


def test_eval_hessian_of_broadcast_sum():
    # d/dw sum((v + w)^2) = 2 * sum(v + w); d2/dw2 = 2 * 4 = 8
    data = _cli_json("((v + w)**2).sum()", "v=[0,-1,-2,2]", "w=[1]", "--hessian")
    assert data["tensors"]["w"]["grad"] == [2.0 * (sum(V) + 4.0)]
    assert data["hessian"]["w,w"] == [[8.0]]  # d2/dw2 sum((v + w)^2) = 2 * 4
    assert data["hessian"]["v,w"] == [[2.0]] * 4


def test_rows_broadcast_then_reduce(tmp_path):
    data = tmp_path / "rows.ndjson"
    data.write_text('{"v": [0, -1, -2, 2], "w": [1]}\n{"v": [1, 1, 1], "w": [5]}\n')
    result = CliRunner().invoke(app, ["eval", "(v + w).sum()", "--rows", str(data), "--format", "ndjson"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert [r["grad_w"] if "grad_w" in r else r["grads"]["w"] for r in rows] == [[4.0], [3.0]]


def test_run_broadcast_then_reduce(tmp_path):
    program = tmp_path / "p.py"
    program.write_text("import torch\nv = torch.tensor([0., -1., -2., 2.], requires_grad=True)\n"
                       "b = torch.tensor([1.], requires_grad=True)\n(v + b).sum().backward()\nprint(b.grad)\n")
    result = CliRunner().invoke(app, ["run", str(program)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "tensor([4.])"


class _BadRule(Function):
    """A deliberately broken op: its backward hands a (2,)-shaped gradient to a (3,)-shaped input."""

    name = "BadRuleBackward0"

    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, g):
        return (np.ones(2),)


class _WrongDtype(Function):
    name = "WrongDtypeBackward0"

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return (np.asarray(g, dtype=np.float32) * 2,)


def test_invariant_wrong_shape_is_an_engine_error():
    x = t([1.0, 2.0, 3.0])
    with pytest.raises(GradientShapeError, match="BadRuleBackward0 returned a gradient of shape \\(2,\\)"):
        _BadRule.apply(x).backward()


def test_invariant_wrong_dtype_is_an_engine_error_when_checked():
    assert EdgeChecks.enabled  # tests/conftest.py turns the check on for the whole suite
    x = t([1.0, 2.0, 3.0])
    with pytest.raises(GradientShapeError, match="dtype float32 for its input 0 of dtype float64"):
        _WrongDtype.apply(x).sum().backward()
