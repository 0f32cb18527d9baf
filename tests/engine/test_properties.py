"""Property test: random expressions over the core ops, random in-domain inputs; the engine's gradients
agree with central finite differences (HIPS autograd's check_grads, in random directions)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

# Smooth building blocks; each keeps its argument inside the op's domain (log and sqrt of u*u + 1, division
# by v*v + 1, exp of a tanh) so any composition is differentiable everywhere.
UNARY = [
    "torch.exp(torch.tanh({}))", "torch.log({0}*{0} + 1)", "torch.sin({})", "{}.cos()", "torch.tanh({})",
    "torch.sigmoid({0})", "torch.sqrt({0}*{0} + 1)", "-{}", "(({})**2)", "(({})**3)", "torch.tan(0.5*torch.tanh({}))",
    "F.softmax({}, dim=-1)", "torch.log_softmax({}, -1)", "{}.exp().log()",
]
BINARY = ["({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} / ({1}*{1} + 1))",
          "torch.pow({0}*{0} + 1, torch.tanh({1}))"]
REDUCE = ["{}.sum()", "{}.mean()", "torch.sum({}, dim=-1)", "{}.mean(dim=0, keepdim=True)"]

leaves = st.sampled_from(["x", "y"])


def _combine(children):
    unary = st.builds(lambda f, a: f.format(a), st.sampled_from(UNARY), children)
    binary = st.builds(lambda f, a, b: f.format(a, b), st.sampled_from(BINARY), children, children)
    return unary | binary


expressions = st.recursive(leaves, _combine, max_leaves=6)
shapes = st.sampled_from([(), (3,), (2, 3)])


def _evaluate(expr, values):
    tensors = {n: Tensor(np.array(v, dtype=np.float64), requires_grad=True) for n, v in values.items()}
    out = evaluate(parse(expr), EngineBackend(tensors, dtypes.float64))
    return tensors, out


def _scalar(expr, values, weights):
    """<weights, f(values)>: a scalar whose gradient is the vector-Jacobian product of f."""
    with engine.no_grad():
        _, out = _evaluate(expr, values)
    return float(np.sum(out.array * weights))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expr=expressions, reduce=st.sampled_from([None, *REDUCE]), shape=shapes, seed=st.integers(0, 2**31 - 1))
def test_gradients_match_central_differences(expr, reduce, shape, seed):
    if reduce is not None and not (shape == () and "dim" in reduce):
        expr = reduce.format("(" + expr + ")")
    rng = np.random.default_rng(seed)
    values = {"x": rng.uniform(-1.5, 1.5, shape), "y": rng.uniform(-1.5, 1.5, shape)}
    tensors, out = _evaluate(expr, values)
    weights = rng.standard_normal(out.array.shape)
    out.backward(Tensor(weights))
    h = 1e-6
    for name, tensor in tensors.items():
        grad = np.zeros(shape) if tensor._grad is None else tensor._grad.array
        direction = rng.standard_normal(shape)
        plus = {**values, name: values[name] + h * direction}
        minus = {**values, name: values[name] - h * direction}
        numeric = (_scalar(expr, plus, weights) - _scalar(expr, minus, weights)) / (2 * h)
        analytic = float(np.sum(grad * direction))
        assert np.isclose(analytic, numeric, rtol=1e-5, atol=1e-6), (expr, name, analytic, numeric)


KINKED = ["torch.relu({})", "{}.abs()", "torch.clamp({}, -0.5, 0.5)", "torch.max({})", "{}.min()"]


@settings(max_examples=60, deadline=None)
@given(op=st.sampled_from(KINKED), outer=st.sampled_from(UNARY), shape=shapes, seed=st.integers(0, 2**31 - 1))
def test_kinked_ops_match_central_differences_away_from_kinks(op, outer, shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.5, 1.5, shape)
    # keep clear of the kinks (0 and +-0.5) and of ties, where finite differences are meaningless
    x = np.where(np.abs(np.abs(x) - 0.5) < 0.05, x + 0.1, x)
    x = np.where(np.abs(x) < 0.05, 0.3, x)
    x = x + np.arange(x.size).reshape(shape) * 1e-3
    expr = "(" + outer.format(op.format("x")) + ").sum()"
    tensors, out = _evaluate(expr, {"x": x})
    out.backward()
    grad = tensors["x"]._grad.array
    h = 1e-6
    for i in np.ndindex(*shape):
        e = np.zeros(shape)
        e[i] = h
        numeric = (_scalar(expr, {"x": x + e}, 1.0) - _scalar(expr, {"x": x - e}, 1.0)) / (2 * h)
        assert np.isclose(grad[i], numeric, rtol=1e-5, atol=1e-6), (expr, i)


@settings(max_examples=40, deadline=None)
@given(shape_pair=st.sampled_from([((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 2)),
                                   ((2, 2, 3), (3, 2)), ((2, 2, 3), (2, 3, 2))]),
       seed=st.integers(0, 2**31 - 1))
def test_matmul_matches_central_differences(shape_pair, seed):
    rng = np.random.default_rng(seed)
    values = {"x": rng.standard_normal(shape_pair[0]), "y": rng.standard_normal(shape_pair[1])}
    expr = "torch.tanh(x @ y).sum()"
    tensors, out = _evaluate(expr, values)
    out.backward()
    h = 1e-6
    for name, tensor in tensors.items():
        direction = rng.standard_normal(values[name].shape)
        plus = {**values, name: values[name] + h * direction}
        minus = {**values, name: values[name] - h * direction}
        numeric = (_scalar(expr, plus, 1.0) - _scalar(expr, minus, 1.0)) / (2 * h)
        assert np.isclose(np.sum(tensor._grad.array * direction), numeric, rtol=1e-5, atol=1e-6)
