"""The engine's .grad semantics through the Python API, against hand-derived values and PyTorch's rules
(the seeds' examples, accumulation, None grads, errors)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gradcli import engine as E
from gradcli.engine import Tensor
from gradcli.engine.autograd import sum_to_shape
from gradcli.engine.errors import TorchRuntimeError


def t(values, rg=True):
    return E.tensor(values, dtype=E.dtypes.float64, requires_grad=rg)


def test_seed_sum_of_squares():
    x = t([1.0, 2.0, 3.0])
    loss = (x ** 2).sum()
    assert loss.item() == 14.0
    loss.backward()
    np.testing.assert_array_equal(x.grad.array, [2.0, 4.0, 6.0])  # d/dx_i x_i^2 = 2 x_i


def test_seed_linear_and_const_has_no_grad():
    x, w, b = t(2.0), t(3.0), t(1.0)
    z = E.tensor(4.0)
    y = w * x + b
    assert y.item() == 7.0
    y.backward()
    assert (x.grad.item(), w.grad.item(), b.grad.item()) == (3.0, 2.0, 1.0)
    assert z.grad is None and not z.requires_grad


def test_seed_square_scalar():
    x = t(2.0)
    (x ** 2).backward()
    assert x.grad.item() == 4.0
    assert x.grad.shape == x.shape


def test_grad_is_none_before_backward_and_shape_matches_after():
    x = t([[1.0, 2.0], [3.0, 4.0]])
    assert x.grad is None
    (x * 3).sum().backward()
    assert x.grad.shape == (2, 2)
    np.testing.assert_array_equal(x.grad.array, np.full((2, 2), 3.0))


def test_accumulation_and_zero_():
    x = t([1.0, 2.0])
    (x ** 2).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [2.0, 4.0])
    (x ** 2).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [4.0, 8.0])  # accumulated, not replaced
    held = x.grad
    x.grad.zero_()
    (2 * x).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [2.0, 2.0])
    assert held is x.grad  # accumulation is in place, as in torch


def test_shared_gradient_arrays_are_not_aliased_between_leaves():
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    (a + b).sum().backward()
    a.grad.zero_()
    np.testing.assert_array_equal(b.grad.array, [1.0, 1.0])


def test_non_leaf_grad_is_none_with_warning_unless_retained():
    x = t([1.0, 2.0])
    y = x * 2
    z = y * 3
    y.retain_grad()
    z.sum().backward()
    np.testing.assert_array_equal(y.grad.array, [3.0, 3.0])
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert z.grad is None
    assert y.is_leaf is False and x.is_leaf is True


def test_no_grad_and_detach():
    x = t([1.0, 2.0])
    with E.no_grad():
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad
    d = x.detach()
    assert not d.requires_grad and d.array is x.array
    z = (x * d).sum()  # d is a constant: dz/dx = d
    z.backward()
    np.testing.assert_array_equal(x.grad.array, [1.0, 2.0])


def test_requires_grad_false_tensor_in_graph_gets_no_grad():
    x, c = t([1.0, 2.0]), t([5.0, 6.0], rg=False)
    (x * c).sum().backward()
    assert c.grad is None
    np.testing.assert_array_equal(x.grad.array, [5.0, 6.0])


def test_implicit_gradient_only_for_scalars():
    x = t([1.0, 2.0])
    with pytest.raises(TorchRuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()


def test_explicit_gradient_for_non_scalar_output():
    x = t([1.0, 2.0, 3.0])
    (x ** 2).backward(E.tensor([1.0, 0.5, 0.0], dtype=E.dtypes.float64))
    np.testing.assert_array_equal(x.grad.array, [2.0, 2.0, 0.0])  # 2 x_i * v_i


def test_backward_without_grad_fn():
    with pytest.raises(TorchRuntimeError, match="element 0 of tensors does not require grad"):
        (t([1.0], rg=False) * 2).sum().backward()


def test_second_backward_needs_retain_graph():
    x = t([1.0, 2.0])
    loss = (x * x).sum()
    loss.backward(retain_graph=True)
    loss.backward()  # allowed once more thanks to retain_graph
    np.testing.assert_array_equal(x.grad.array, [4.0, 8.0])
    with pytest.raises(TorchRuntimeError, match="Trying to backward through the graph a second time"):
        loss.backward()


def test_second_backward_without_saved_tensors_is_allowed_as_in_torch():
    x = t([1.0, 2.0])
    s = (x + 1).sum()
    s.backward()
    s.backward()
    np.testing.assert_array_equal(x.grad.array, [2.0, 2.0])


def test_long_chain_backpropagates_iteratively():
    x = t([1.0, 2.0, 3.0])
    y = x
    for _ in range(100_000):
        y = y + 1.0
    y.sum().backward()  # no RecursionError
    np.testing.assert_array_equal(x.grad.array, [1.0, 1.0, 1.0])


def test_broadcasting_gradients_are_summed_to_each_input_shape():
    a = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = t([10.0, 20.0, 30.0])
    c = t(2.0)
    (a * b + c).sum().backward()
    np.testing.assert_array_equal(a.grad.array, [[10.0, 20.0, 30.0]] * 2)
    np.testing.assert_array_equal(b.grad.array, [5.0, 7.0, 9.0])  # column sums of a
    assert c.grad.item() == 6.0  # one per output element


def test_scalar_grad_of_sum_broadcast_through_add():
    # (x (3,) + y (2,3)).sum(): x receives 2 per element (the sum over the broadcast rows)
    x, y = t([1.0, 2.0, 3.0]), t(np.ones((2, 3)))
    (x + y).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(y.grad.array, np.ones((2, 3)))


@pytest.mark.parametrize("shape,target,expected", [
    ((2, 3), (3,), [2.0, 2.0, 2.0]),
    ((2, 3), (1, 3), [[2.0, 2.0, 2.0]]),
    ((2, 3), (2, 1), [[3.0], [3.0]]),
    ((2, 3), (), 6.0),
    ((4, 2, 3), (2, 1), [[12.0], [12.0]]),
    ((3,), (3,), [1.0, 1.0, 1.0]),
])
def test_sum_to_shape(shape, target, expected):
    np.testing.assert_array_equal(sum_to_shape(np.ones(shape), target), expected)


def test_max_full_reduction_splits_ties_evenly():
    x = t([1.0, 3.0, 3.0])
    x.max().backward()
    np.testing.assert_array_equal(x.grad.array, [0.0, 0.5, 0.5])


def test_max_with_dim_returns_values_and_indices():
    x = t([[1.0, 5.0, 2.0], [7.0, 0.0, 7.0]])
    values, indices = x.max(dim=1)
    np.testing.assert_array_equal(values.array, [5.0, 7.0])
    np.testing.assert_array_equal(indices.array, [1, 0])  # first of a tie, as torch
    values.sum().backward()
    np.testing.assert_array_equal(x.grad.array, [[0, 1, 0], [1, 0, 0]])


@pytest.mark.parametrize("op,expected", [("abs", 0.0), ("relu", 0.0), ("sqrt", np.inf)])
def test_values_at_non_differentiable_points_follow_torch(op, expected):
    x = t(0.0)
    getattr(x, op)().backward()
    assert x.grad.item() == expected


def test_clamp_passes_gradient_at_the_bounds():
    x = t([-1.0, 0.0, 0.5, 1.0, 2.0])
    x.clamp(0.0, 1.0).sum().backward()
    np.testing.assert_array_equal(x.grad.array, [0.0, 1.0, 1.0, 1.0, 0.0])


def test_create_graph_gives_second_derivatives():
    x = t(2.0)
    y = x ** 3
    (g,) = E.grad(y, x, create_graph=True)
    assert g.item() == 12.0  # 3x^2
    (h,) = E.grad(g, x)
    assert h.item() == 12.0  # 6x


def test_create_graph_hessian_of_quadratic_form():
    A = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = t([0.5, -1.0])
    y = x @ E.tensor(A, dtype=E.dtypes.float64) @ x
    (g,) = E.grad(y, x, create_graph=True)
    rows = [E.grad(g[i], x, retain_graph=True)[0].array for i in range(2)]
    np.testing.assert_allclose(np.stack(rows), A + A.T)


def test_first_order_backward_does_not_build_a_graph():
    x = t([1.0, 2.0])
    (x.sin() * x).sum().backward()
    assert x.grad.grad_fn is None and not x.grad.requires_grad


def test_autograd_grad_does_not_touch_dot_grad_and_reports_unused():
    x, y = t([1.0, 2.0]), t([3.0])
    out = (x * 2).sum()
    with pytest.raises(TorchRuntimeError, match="appears to not have been used"):
        E.grad(out, [x, y], retain_graph=True)
    gx, gy = E.grad(out, [x, y], allow_unused=True)
    np.testing.assert_array_equal(gx.array, [2.0, 2.0])
    assert gy is None and x.grad is None


def test_leaf_inplace_is_refused_but_allowed_under_no_grad():
    x = t([1.0, 2.0])
    with pytest.raises(TorchRuntimeError, match="leaf Variable that requires grad"):
        x.add_(1.0)
    with E.no_grad():
        x.add_(1.0)
    np.testing.assert_array_equal(x.array, [2.0, 3.0])


def test_version_counter_detects_modified_saved_tensor():
    x = t([1.0, 2.0])
    y = x.exp()
    z = y.sum()
    y.add_(1.0)
    with pytest.raises(TorchRuntimeError, match="modified by an inplace operation"):
        z.backward()


def test_item_tolist_requires_grad_():
    x = E.tensor([1.0, 2.0])
    assert x.tolist() == [1.0, 2.0]
    with pytest.raises(TorchRuntimeError, match="2 elements cannot be converted to Scalar"):
        x.item()
    x.requires_grad_()
    assert x.requires_grad and x.is_leaf
    with pytest.raises(TorchRuntimeError, match="only Tensors of floating point"):
        E.tensor([1, 2]).requires_grad_()


def test_float32_gradients_stay_float32():
    x = E.tensor([1.0, 2.0], requires_grad=True)
    (x * 0.5).sum().backward()
    assert x.grad.dtype is E.dtypes.float32


def test_int_tensor_promotion_follows_torch():
    i = E.tensor([1, 2])
    assert (i * 2.5).dtype is E.get_default_dtype()  # torch: int64 * float -> default float, not float64
    assert (i / 2).dtype is E.get_default_dtype()
    assert (i * 2).dtype is E.dtypes.int64


def test_warning_free_first_order_path():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = t([0.0, 1.0])
        x.sqrt().sum().backward()
    assert np.isinf(x.grad.array[0])


def test_tensor_repr_matches_torch_format():
    x = E.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert repr(x) == "tensor([1., 2., 3.], requires_grad=True)"
    assert repr((x * 2).sum()) == "tensor(12., grad_fn=<SumBackward0>)"


def test_tensor_constructor_accepts_tensor_data():
    x = Tensor(np.array([1.0]))
    assert Tensor(x).array is x.array


def test_a_chain_of_small_ops_leaves_few_objects_for_the_garbage_collector():
    """Issue 27: every object a graph node keeps is work for the garbage collector, whose collections (one every
    700 new objects) cost a chain of small ops 0.6-0.8 us an op when each node kept 6.75 of them.  Nodes share
    their needs/shape tuples: the node, its edges and (for a saving op) its saved values are what is left."""
    import gc

    x = E.tensor([0.1, 0.2, 0.3], dtype=E.dtypes.float64, requires_grad=True)

    def chain(n):
        y = x
        for _ in range(n // 4):
            y = (y * 0.5 + 0.1).tanh() - 0.01
        return y

    from gradcli.engine.autograd import EdgeChecks

    chain(40)  # the shape tables filled
    enabled, checks = gc.isenabled(), EdgeChecks.enabled
    EdgeChecks.enabled = False  # the default path (the suite's dtype checks keep one more tuple a node)
    gc.collect()
    gc.disable()
    try:
        before = gc.get_count()[0]
        y = chain(400)
        after = gc.get_count()[0]
    finally:
        EdgeChecks.enabled = checks
        if enabled:
            gc.enable()
    per_op = (after - before) / 400
    assert per_op <= 3.0, per_op
    y.sum().backward()  # and the graph still differentiates: the chain rule by hand
    np.testing.assert_allclose(x.grad.array, _chain_grad(), rtol=1e-12)


def _chain_grad():
    """d/dx of the 100 steps y -> tanh(0.5 y + 0.1) - 0.01: the product of 0.5 (1 - tanh^2) at each step."""
    values = [np.array([0.1, 0.2, 0.3])]
    for _ in range(100):
        values.append(np.tanh(values[-1] * 0.5 + 0.1) - 0.01)
    grad = np.ones(3)
    for v in reversed(values[:-1]):
        t = np.tanh(v * 0.5 + 0.1)
        grad = grad * 0.5 * (1 - t * t)
    return grad
