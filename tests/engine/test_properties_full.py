"""Property tests for the full op set: random inputs in each op's domain; the engine's first derivatives
agree with central finite differences (a random-direction vector-Jacobian product, as HIPS autograd's
check_grads), and its second derivatives (differentiating the create_graph gradient) agree with central
differences of the first derivatives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

ANY = (-2.0, 2.0)
POS = (0.2, 3.0)
UNIT = (-0.9, 0.9)
GT1 = (1.2, 3.0)
PROB = (0.05, 0.95)
NEG = (-3.0, -0.1)


def _far(*points, margin=1e-3):
    """A check that values stay `margin` away from kinks (finite differences straddling one are meaningless)."""
    return lambda v: all(np.min(np.abs(v["x"] - p)) > margin for p in points)


def _no_ties(v, margin=1e-3):
    flat = np.sort(np.abs(v["x"]).ravel())
    return flat.size < 2 or np.min(np.diff(flat)) > margin


# (expression, {name: (shape, domain)}, constraint or None).  Const tensors are named c, d.
OPS = [
    ("torch.exp2(x)", {"x": ((2, 3), ANY)}, None),
    ("x.expm1()", {"x": ((3,), ANY)}, None),
    ("torch.log2(x) + x.log10()", {"x": ((3,), POS)}, None),
    ("torch.log1p(x)", {"x": ((3,), (-0.5, 2.0))}, None),
    ("torch.asin(x) + torch.acos(x) * x", {"x": ((3,), UNIT)}, None),
    ("torch.atan(x)", {"x": ((2, 3), ANY)}, None),
    ("torch.atan2(x, y)", {"x": ((2, 3), POS), "y": ((3,), ANY)}, None),
    ("torch.sinh(x) * torch.cosh(x)", {"x": ((3,), ANY)}, None),
    ("torch.asinh(x) + torch.acosh(y) + torch.atanh(z)", {"x": ((3,), ANY), "y": ((3,), GT1), "z": ((3,), UNIT)},
     None),
    ("F.logsigmoid(x)", {"x": ((2, 3), (-5.0, 5.0))}, None),
    ("F.softplus(x, beta=2, threshold=3.0)", {"x": ((2, 3), ANY)}, _far(1.5)),
    ("F.leaky_relu(x, 0.2)", {"x": ((4,), ANY)}, _far(0.0)),
    ("F.elu(x, alpha=0.7) + F.selu(x)", {"x": ((4,), ANY)}, _far(0.0)),
    ("F.gelu(x) * F.gelu(x, approximate='tanh')", {"x": ((4,), ANY)}, None),
    ("F.silu(x) + F.mish(x)", {"x": ((4,), (-4.0, 4.0))}, None),
    ("F.hardtanh(x, -0.5, 1.0)", {"x": ((4,), ANY)}, _far(-0.5, 1.0)),
    ("torch.rsqrt(x) + torch.square(x)", {"x": ((3,), POS)}, None),
    ("torch.erf(x) * torch.erfc(x)", {"x": ((3,), ANY)}, None),
    ("torch.clamp(x, min=y, max=z)", {"x": ((2, 3), ANY), "y": ((3,), (-1.5, -0.5)), "z": ((3,), (0.5, 1.5))},
     lambda v: np.min(np.abs(v["x"] - v["y"])) > 1e-3 and np.min(np.abs(v["x"] - v["z"])) > 1e-3),
    ("torch.maximum(x, y) + torch.minimum(x, y) ** 2", {"x": ((2, 3), ANY), "y": ((2, 3), ANY)},
     lambda v: np.min(np.abs(v["x"] - v["y"])) > 1e-3),
    ("torch.lerp(x, y, 0.3) + torch.lerp(x, y, w) ** 2", {"x": ((3,), ANY), "y": ((3,), ANY), "w": ((3,), ANY)},
     None),
    ("x.prod() + torch.prod(x, 1).sum()", {"x": ((2, 3), ANY)}, None),
    ("torch.amax(x, 1) + x.amin()", {"x": ((2, 3), ANY)}, _no_ties),
    ("x.std() + torch.var(x, 0, unbiased=False).sum()", {"x": ((3, 2), ANY)}, None),
    ("torch.norm(x) + torch.norm(x, p=1) + torch.norm(x, p=3, dim=1).sum()", {"x": ((2, 3), ANY)}, _far(0.0)),
    ("torch.norm(x, p=math.inf)", {"x": ((2, 3), ANY)}, lambda v: _no_ties(v) and _far(0.0)(v)),
    ("torch.logsumexp(x, 1)", {"x": ((2, 3), (-5.0, 5.0))}, None),
    ("torch.cumsum(x, 0) * torch.cumprod(x, 1)", {"x": ((2, 3), ANY)}, None),
    ("torch.mm(x, y) + torch.mv(x, z).unsqueeze(1)", {"x": ((2, 3), ANY), "y": ((3, 1), ANY), "z": ((3,), ANY)},
     None),
    ("torch.dot(x, y) * torch.outer(x, y)", {"x": ((3,), ANY), "y": ((3,), ANY)}, None),
    ("torch.bmm(x, y)", {"x": ((2, 2, 3), ANY), "y": ((2, 3, 2), ANY)}, None),
    ("torch.einsum('ij,jk->ik', x, y) + torch.einsum('ii', z)", {"x": ((2, 3), ANY), "y": ((3, 2), ANY),
                                                                "z": ((2, 2), ANY)}, None),
    ("torch.einsum('bij,bj->bi', x, y) ** 2", {"x": ((2, 2, 3), ANY), "y": ((2, 3), ANY)}, None),
    ("torch.trace(x) + torch.diag(x).sum() + torch.diag(y, 1).sum()", {"x": ((3, 3), ANY), "y": ((2,), ANY)},
     None),
    ("torch.diagonal(x, 1) ** 2", {"x": ((3, 4), ANY)}, None),
    ("torch.tril(x) ** 2 + torch.triu(x, 1) ** 3", {"x": ((3, 3), ANY)}, None),
    ("torch.det(x)", {"x": ((3, 3), ANY)}, None),
    ("torch.linalg.det(x + 3 * torch.eye(3))", {"x": ((2, 3, 3), UNIT)}, None),
    ("torch.inverse(x + 3 * torch.eye(2)) + torch.linalg.inv(x + 4 * torch.eye(2))", {"x": ((2, 2), UNIT)}, None),
    ("torch.linalg.solve(x + 3 * torch.eye(3), y)", {"x": ((3, 3), UNIT), "y": ((3,), ANY)}, None),
    ("torch.linalg.solve(x + 3 * torch.eye(2), y)", {"x": ((2, 2, 2), UNIT), "y": ((2, 2), ANY)}, None),
    ("torch.linalg.norm(x) + torch.linalg.norm(x, dim=0).sum()", {"x": ((2, 3), ANY)}, _far(0.0)),
    ("torch.flatten(x) ** 2 + x.repeat(2, 1).sum(0).repeat(2)", {"x": ((2, 3), ANY)}, None),
    ("torch.cat([x, y ** 2], 1).sum(0) * torch.stack([x, x], 0).sum()", {"x": ((2, 3), ANY), "y": ((2, 1), ANY)},
     None),
    ("torch.split(x, 2, 1)[1] * torch.chunk(x, 3, 1)[0]", {"x": ((2, 3), ANY)}, None),
    ("torch.flip(x, (0, 1)) * torch.roll(x, 1, 1)", {"x": ((2, 3), ANY)}, None),
    ("torch.gather(x, 1, torch.tensor([[0, 2, 2], [1, 0, 1]])) * x.index_select(0, torch.tensor([1, 1]))",
     {"x": ((2, 3), ANY)}, None),
    ("x.expand_as(y) * y", {"x": ((3,), ANY), "y": ((2, 3), ANY)}, None),
    ("F.mse_loss(x, y) + F.l1_loss(x, y)", {"x": ((2, 3), ANY), "y": ((2, 3), ANY)},
     lambda v: np.min(np.abs(v["x"] - v["y"])) > 1e-3),
    ("F.smooth_l1_loss(x, y, beta=0.5) + F.huber_loss(x, y, delta=0.7)", {"x": ((2, 3), ANY), "y": ((2, 3), ANY)},
     lambda v: all(np.min(np.abs(np.abs(v["x"] - v["y"]) - k)) > 1e-3 for k in (0.5, 0.7))),
    ("F.cross_entropy(x, torch.tensor([2, 0]), label_smoothing=0.1)", {"x": ((2, 3), ANY)}, None),
    ("F.cross_entropy(x, y)", {"x": ((2, 3), ANY), "y": ((2, 3), PROB)}, None),
    ("F.nll_loss(F.log_softmax(x, 1), torch.tensor([1, 2]), reduction='sum')", {"x": ((2, 3), ANY)}, None),
    ("F.binary_cross_entropy(x, y)", {"x": ((2, 3), PROB), "y": ((2, 3), PROB)}, None),
    ("F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([0.5, 2.0, 1.0]))",
     {"x": ((2, 3), ANY), "y": ((2, 3), PROB)}, None),
    ("F.kl_div(x, y, reduction='batchmean') + F.kl_div(x, z, reduction='sum', log_target=True)",
     {"x": ((2, 3), NEG), "y": ((2, 3), PROB), "z": ((2, 3), NEG)}, None),
    ("F.cosine_similarity(x, y) + F.normalize(x, dim=0).sum()", {"x": ((2, 3), ANY), "y": ((2, 3), ANY)},
     None),
    ("F.linear(x, w, b)", {"x": ((2, 3), ANY), "w": ((4, 3), ANY), "b": ((4,), ANY)}, None),
    ("torch.xlogy(x, y)", {"x": ((3,), ANY), "y": ((3,), POS)}, None),
]

# The second-derivative check skips ops whose first derivative is piecewise constant in some input (a
# finite difference of it is 0 where autograd is 0 too, so nothing is learnt) but keeps the smooth ones.
SMOOTH = [case for case in OPS if case[2] is None]


def _evaluate(expr, values, requires_grad=True):
    tensors = {n: Tensor(np.array(v, dtype=np.float64), requires_grad=requires_grad) for n, v in values.items()}
    program = parse(expr, known_variables=frozenset(tensors))
    return tensors, evaluate(program, EngineBackend(tensors, dtypes.float64))


def _sample(spec, rng):
    return {n: rng.uniform(lo, hi, shape) for n, (shape, (lo, hi)) in spec.items()}


pytestmark = pytest.mark.usefixtures("float64_mode")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(OPS), seed=st.integers(0, 2**31 - 1))
def test_first_derivatives_match_central_differences(case, seed):
    expr, spec, ok = case
    rng = np.random.default_rng(seed)
    values = _sample(spec, rng)
    assume(ok is None or ok(values))
    tensors, out = _evaluate(expr, values)
    weights = rng.standard_normal(out.array.shape)
    out.backward(Tensor(weights))
    h = 1e-6
    for name, tensor in tensors.items():
        grad = np.zeros(values[name].shape) if tensor._grad is None else tensor._grad.array
        direction = rng.standard_normal(values[name].shape)
        with engine.no_grad():
            plus = _evaluate(expr, {**values, name: values[name] + h * direction}, False)[1].array
            minus = _evaluate(expr, {**values, name: values[name] - h * direction}, False)[1].array
        numeric = float(np.sum((plus - minus) * weights)) / (2 * h)
        analytic = float(np.sum(grad * direction))
        assert np.isclose(analytic, numeric, rtol=1e-5, atol=1e-6), (expr, name, analytic, numeric)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(SMOOTH), seed=st.integers(0, 2**31 - 1))
def test_second_derivatives_match_central_differences_of_gradients(case, seed):
    expr, spec, _ = case
    rng = np.random.default_rng(seed)
    values = _sample(spec, rng)
    names = list(spec)
    _, out = _evaluate(expr, values)
    weights = rng.standard_normal(out.array.shape)
    a, b = names[rng.integers(len(names))], names[rng.integers(len(names))]
    u = rng.standard_normal(values[a].shape)  # weights on the gradient w.r.t. a
    v = rng.standard_normal(values[b].shape)  # direction of the change in b
    # autograd: d/db <u, grad_a <weights, f>> by differentiating the create_graph gradient
    tensors, out = _evaluate(expr, values)
    (g,) = engine.grad(out, [tensors[a]], grad_outputs=Tensor(weights), create_graph=True, allow_unused=True)
    if g is None or not g.requires_grad:
        analytic = 0.0
    else:
        (g2,) = engine.grad((g * Tensor(u)).sum(), [tensors[b]], allow_unused=True)
        analytic = 0.0 if g2 is None else float(np.sum(g2.array * v))
    h = 1e-5

    def grad_a(shifted):
        tensors, out = _evaluate(expr, shifted)
        (ga,) = engine.grad(out, [tensors[a]], grad_outputs=Tensor(weights), allow_unused=True)
        return np.zeros(values[a].shape) if ga is None else ga.array

    numeric = float(np.sum((grad_a({**values, b: values[b] + h * v}) - grad_a({**values, b: values[b] - h * v}))
                           * u)) / (2 * h)
    assert np.isclose(analytic, numeric, rtol=1e-4, atol=1e-5), (expr, a, b, analytic, numeric)
