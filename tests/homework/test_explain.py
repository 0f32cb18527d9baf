"""`gradcli explain`: the graph's per-node values and incoming gradients, checked against hand-derived
numbers, the chain rule steps, DOT and the command."""

from __future__ import annotations

import json
import math
import shutil
import subprocess

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.explain import explain
from gradcli.render.explain_render import to_dot
from gradcli.safety.errors import GradcliError

runner = CliRunner()


def _explain(expr, **inputs):
    return explain(expr, {k: np.array(v, dtype=np.float64) for k, v in inputs.items()})


def test_sum_of_product_and_sine():
    # L = x*y + sin(x) at x=2, y=3: every node under the + receives dL/d(node) = 1;
    # dL/dx = y + cos(x) = 3 + cos 2, dL/dy = x = 2
    e = _explain("x*y + sin(x)", x=2.0, y=3.0)
    L, mul, sin = e.node("L"), e.node("u1"), e.node("u2")
    assert (L.grad_fn, mul.grad_fn, sin.grad_fn) == ("AddBackward0", "MulBackward0", "SinBackward0")
    assert L.grad == 1.0 and mul.grad == 1.0 and sin.grad == 1.0
    assert mul.value == 6.0 and math.isclose(sin.value, math.sin(2.0))
    assert math.isclose(e.node("x").grad, 3.0 + math.cos(2.0)) and e.node("y").grad == 2.0
    assert [(slot, e.nodes[i].label) for slot, i in L.children] == [("a", "u1"), ("b", "u2")]
    assert mul.rule == "∂(a·b)/∂a = b, ∂(a·b)/∂b = a"


def test_sigmoid_of_an_affine_function():
    # z = w*x + b = 0.5*2 - 1 = 0, sigmoid(0) = 1/2, sigmoid'(0) = 1/4:
    # dL/dz = 1/4 flows into + and *, dL/dw = x/4 = 0.5, dL/dx = w/4 = 0.125, dL/db = 1/4
    e = _explain("torch.sigmoid(w*x + b)", w=0.5, x=2.0, b=-1.0)
    assert e.node("L").value == 0.5 and e.node("L").grad == 1.0
    assert e.node("u2").grad_fn == "AddBackward0" and e.node("u2").value == 0.0 and e.node("u2").grad == 0.25
    assert e.node("u1").grad_fn == "MulBackward0" and e.node("u1").grad == 0.25
    assert (e.node("w").grad, e.node("x").grad, e.node("b").grad) == (0.5, 0.125, 0.25)


def test_sum_of_squares_broadcasts_the_gradient():
    # L = sum(x²): the scalar gradient 1 reaches every element of x², then 2x reaches x
    e = _explain("(x**2).sum()", x=[1.0, 2.0, 3.0])
    assert e.node("L").grad_fn == "SumBackward0"
    pow_node = e.node("u1")
    np.testing.assert_array_equal(pow_node.value, [1.0, 4.0, 9.0])
    np.testing.assert_array_equal(pow_node.grad, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(e.node("x").grad, [2.0, 4.0, 6.0])
    assert e.steps == [] and "scalar" in e.note


def test_a_value_used_twice_gets_the_sum_of_its_gradients():
    # L = u*u with u = x + 1 at x = 2: dL/du = 2u = 6, dL/dx = 6
    e = _explain("(x + 1) * (x + 1)", x=2.0)
    first, second = e.node("u1"), e.node("u2")  # two separate additions
    assert first.grad == 3.0 and second.grad == 3.0  # each factor receives the other one (3)
    assert e.node("x").grad == 6.0


def test_chain_rule_steps_for_the_product_rule():
    # L = u1*u2, u1 = x², u2 = sin x at x = 1.5:
    # dL/du1 = u2 = sin 1.5, dL/du2 = u1 = 2.25, dL/dx = sin(1.5)*2*1.5 + 2.25*cos(1.5)
    e = _explain("x**2 * torch.sin(x)", x=1.5)
    assert [(name, local, formula) for name, local, formula, _ in e.forward] == [
        ("u1", "x**2", "x**2"), ("u2", "sin(x)", "sin(x)"), ("L", "u1*u2", "x**2*sin(x)")]
    steps = {s.target: s for s in e.steps}
    assert list(steps) == ["u2", "u1", "x"]
    assert steps["u1"].formula == "sin(x)" and math.isclose(steps["u1"].value, math.sin(1.5))
    assert steps["u2"].formula == "x**2" and steps["u2"].value == 2.25
    x = steps["x"]
    assert [(t.parent, t.local) for t in x.terms] == [("u1", "2*x"), ("u2", "cos(x)")]
    assert x.formula == "x**2*cos(x) + 2*x*sin(x)"
    assert math.isclose(x.value, 3 * math.sin(1.5) + 2.25 * math.cos(1.5))
    assert x.value == e.grads["x"]  # the number eval prints


def test_chain_rule_through_a_nested_function():
    # L = log(u1), u1 = 1 + exp(x) at x = 0: dL/du1 = 1/u1 = 1/2, du1/dx = exp(0) = 1, dL/dx = 1/2
    e = _explain("torch.log(1 + torch.exp(x))", x=0.0)
    steps = {s.target: s for s in e.steps}
    assert steps["x"].value == 0.5
    assert e.node("L").grad_fn == "LogBackward0" and e.node("u2").grad == 0.5


def test_constants_are_not_graph_inputs():
    e = explain("c * x", {"x": np.array(2.0)}, {"c": np.array(5.0)})
    assert [n.label for n in e.nodes] == ["L", "x"]
    assert e.grads["x"] == 5.0 and e.steps[0].formula == "c"


def test_non_scalar_output_needs_grad_output():
    with pytest.raises(GradcliError, match="scalar outputs"):
        _explain("x * 2", x=[1.0, 2.0])
    e = explain("x * 2", {"x": np.array([1.0, 2.0])}, grad_output=np.array([1.0, 3.0]))
    np.testing.assert_array_equal(e.grads["x"], [2.0, 6.0])


def test_dot_output():
    dot = to_dot(_explain("x*y + sin(x)", x=2.0, y=3.0))
    assert dot.startswith("digraph gradcli {") and dot.endswith("}")
    assert dot.count("[label=") == 5 + 5  # five nodes, five edges (x feeds two nodes)
    assert 'n0 [label="L = a + b\\nAddBackward0\\nshape ()\\nvalue 6.909297\\ngrad 1"];' in dot
    assert 'n2 -> n1 [label="a"];' in dot


def test_cli_tree_and_chain_rule():
    out = runner.invoke(app, ["explain", "x**2 * sin(x)", "x=1.5", "--no-color"])
    assert out.exit_code == 0
    # operands named by the values themselves, not slots a/b (issue 11)
    assert "L = u₁ · u₂  MulBackward0  shape ()  value 2.244364  grad 1" in out.stdout
    assert "∂L/∂x = ∂L/∂u₁·∂u₁/∂x + ∂L/∂u₂·∂u₂/∂x" in out.stdout
    assert out.stdout.rstrip().endswith("= 3.151644")


def test_cli_json_and_dot():
    data = json.loads(runner.invoke(app, ["explain", "x*y", "x=2", "y=3", "--json"]).stdout)
    assert data["nodes"][0]["grad_fn"] == "MulBackward0" and data["grads"] == {"x": 3.0, "y": 2.0}
    dot = runner.invoke(app, ["explain", "x*y", "x=2", "y=3", "--dot"]).stdout
    assert "digraph" in dot and "MulBackward0" in dot


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_reads_the_dot():
    dot = to_dot(_explain("torch.softmax(W @ v, 0)[0]", W=[[1.0, 2.0], [3.0, 4.0]], v=[0.5, -1.0]))
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=True).stdout
    assert "<svg" in svg and "SoftmaxBackward0" in svg


def test_explain_without_values_points_to_steps():
    result = CliRunner().invoke(app, ["explain", "sin(x^2)"])
    assert result.exit_code == 2
    assert "no value given for x" in result.output and "gradcli steps 'sin(x^2)'" in result.output


def test_the_svds_shared_node_is_explained():
    # the nuclear norm's gradient: d(sum of singular values)/dA = U·Vᵀ; for the diagonal A = diag(3, 2) that is
    # the identity (U = V = I), exactly; the node U, S and Vh share shows no gradient of its own (it was a crash)
    e = _explain("torch.linalg.svd(x).S.sum()", x=[[3.0, 0.0], [0.0, 2.0]])
    np.testing.assert_allclose(e.node("x").grad, [[1.0, 0.0], [0.0, 1.0]], atol=1e-15)
    assert e.node("u1").grad_fn == "LinalgSvdBackward0"
    np.testing.assert_array_equal(e.node("u1").value, [3.0, 2.0])
