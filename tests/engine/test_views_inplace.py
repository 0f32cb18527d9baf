"""In-place ops on views (x[0].exp_(), x.t().add_(1), x.view(4).mul_(3), l[1:].copy_(y) ...) rewrite the base's
history as PyTorch's do (CopySlices for the base, AsStridedBackward0 for its views).  Gradients and second
derivatives are checked against central finite differences of the forward values and against hand derivations,
never against gradients gradcli computed another way; tests/snippets/124-129 compare the printed forms, grad_fn
names and errors with PyTorch."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from goldens import decode, load

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops.activations import celu, elu, leaky_relu, selu
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

pytestmark = pytest.mark.usefixtures("float64_mode")

X0 = np.array([[0.3, -0.7, 1.1], [0.5, 0.9, -1.3]])


def _weights(shape):
    """Fixed, distinct weights, so the loss sees every element differently."""
    return engine.tensor(np.arange(1, int(np.prod(shape)) + 1, dtype=np.float64).reshape(shape) / 7 + 0.25)


# Each program maps a 2x3 tensor to a scalar, modifying a view of an intermediate in place.
def exp_row(x):
    h = x * 2
    h[0].exp_()
    return (h * _weights(h.shape)).sum()


def view_mul(x):
    h = x * 1
    h.view(6)[1::2].mul_(h.view(6)[::2] + 3)
    return (h * h * _weights(h.shape)).sum()


def t_add(x):
    h = x.sin()
    h.t().add_(x.t() * x.t())  # another input requiring grad flows through CopySlices too
    return (h * _weights(h.shape)).sum()


def column_sigmoid(x):
    h = x * x
    h[:, 1].sigmoid_()
    return (h * _weights(h.shape)).sum()


def copy_into_zeros(x):
    buffer = engine.zeros(4, 3)
    buffer[1:3].copy_(x.tanh())
    buffer[0] = x[1] * x[0]
    return (buffer * buffer * _weights(buffer.shape)).sum()


def view_of_view(x):
    h = x * 3
    row = h[1]
    row[1:].mul_(row[:2] - x[0, :2])  # the view of a view rewrites h's history
    return (h.exp() * _weights(h.shape)).sum()


def base_changed_then_view_used(x):
    h = x + 1
    v = h[:, 0]
    h.mul_(x)  # v now reads h's new history (AsStridedBackward0)
    return (v * v).sum() + (h * _weights(h.shape)).sum()


def sibling_views(x):
    h = x * 1
    a = h[0]
    b = h[:, 2]
    a.pow_(2)  # changes b[0] too
    return (b * b).sum() + a.sum()


def setitem_loop(x):
    h = x * 1
    for i in range(2):
        h[i] = h[i] * (i + 2) + x[1 - i]
    h[0, 1] += h[1, 2]
    h[:, 0] *= h[:, 1].exp()  # (h[:, 1] itself would be saved, then changed: torch refuses that backward)
    return (h * _weights(h.shape)).sum()


def advanced_setitem(x):
    h = x.cos()
    h[engine.tensor([[True, False, True], [False, True, False]])] = x[0] * 2
    h[engine.tensor([1, 0])] = h[engine.tensor([0, 1])] * 3
    return (h * h * _weights(h.shape)).sum()


def masked_index_scatter(x):
    h = x * 1
    h[0].masked_fill_(engine.tensor([False, True, False]), 0.5)
    h[:, 2].index_add_(0, engine.tensor([1, 1]), x[0, :2] * x[1, :2])
    h[1].scatter_(0, engine.tensor([0]), x[0, 2:] * 4)
    return (h * h * _weights(h.shape)).sum()


def expanded_view_regenerated(x):
    h = x[0] * 1
    wide = h.expand(4, 3)  # four rows seeing the same three elements
    h.mul_(x[1])
    return (wide * _weights(wide.shape)).sum()


def diagonal_and_friends(x):
    h = x * 1
    h.unsqueeze(0).permute(2, 0, 1)[1].squeeze(0).mul_(x[:, 1])
    h.movedim(0, 1).reshape(6)[4:].neg_()
    torch_diagonal = h[:, 1:].diagonal()
    torch_diagonal.mul_(torch_diagonal + 1)
    return (h * h * _weights(h.shape)).sum()


# An in-place activation on a view saves its result (torch's LeakyReluBackward1 ...): it must be the last write to
# its base (any later one fails backward, as torch's does).
def inplace_elu(x):
    h = x * 1.5
    h[1].mul_(x[0])
    elu(h[0, :2], inplace=True)
    return (h * h * _weights(h.shape)).sum()


def inplace_leaky_relu(x):
    h = x.exp() - 1.5
    leaky_relu(h.t()[1:], 0.2, inplace=True)
    return (h * h * _weights(h.shape)).sum()


def inplace_celu(x):
    h = x * x - 0.5
    celu(h[:, 2], 0.5, inplace=True)
    return (h * h * _weights(h.shape)).sum()


def inplace_selu(x):
    h = x.sin()
    selu(h.view(6)[::2], inplace=True)
    return (h * h * _weights(h.shape)).sum()


PROGRAMS = [inplace_elu, inplace_leaky_relu, inplace_celu, inplace_selu, exp_row, view_mul, t_add, column_sigmoid,
            copy_into_zeros, view_of_view, base_changed_then_view_used, sibling_views, setitem_loop, advanced_setitem,
            masked_index_scatter, expanded_view_regenerated, diagonal_and_friends]


def _value(program, array) -> float:
    with engine.no_grad():
        return float(program(engine.tensor(array)).item())


def _numeric_gradient(program, array, h=1e-6):
    grad = np.zeros_like(array)
    for i in np.ndindex(array.shape):
        step = np.zeros_like(array)
        step[i] = h
        grad[i] = (_value(program, array + step) - _value(program, array - step)) / (2 * h)
    return grad


def _numeric_hessian(program, array, h=1e-4):
    n = array.size
    hessian = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            ei = np.zeros(n)
            ej = np.zeros(n)
            ei[i] = h
            ej[j] = h
            ei, ej = ei.reshape(array.shape), ej.reshape(array.shape)
            hessian[i, j] = (_value(program, array + ei + ej) - _value(program, array + ei - ej)
                             - _value(program, array - ei + ej) + _value(program, array - ei - ej)) / (4 * h * h)
    return hessian


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_gradient_matches_finite_differences(program):
    x = engine.tensor(X0, requires_grad=True)
    program(x).backward()
    np.testing.assert_allclose(x.grad.array, _numeric_gradient(program, X0), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_second_derivatives_through_copyslices_match_finite_differences(program):
    x = engine.tensor(X0, requires_grad=True)
    (g,) = engine.grad(program(x), x, create_graph=True)
    flat = g.reshape(-1)
    rows = [engine.grad(flat[i], x, retain_graph=True, allow_unused=True)[0] for i in range(flat.shape[0])]
    hessian = np.stack([np.zeros(X0.size) if r is None else r.array.reshape(-1) for r in rows])
    np.testing.assert_allclose(hessian, _numeric_hessian(program, X0), rtol=1e-4, atol=1e-5)


def test_exp_of_a_row_by_hand():
    """The issue's example: h = 2x, h[0].exp_(), h.sum(): d/dx[0] = 2 e^(2x[0]), d/dx[1] = 2."""
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x * 2
    h[0].exp_()
    assert h.grad_fn.name == "CopySlices"
    h.sum().backward()
    expected = np.array([[2 * np.exp(2.0), 2 * np.exp(4.0)], [2.0, 2.0]])
    np.testing.assert_allclose(x.grad.array, expected, rtol=1e-12)


def test_copy_into_a_buffer_by_hand():
    """l = zeros(3); l[1:].copy_(y * y): dl.sum()/dy = 2y, and l's history starts there."""
    y = engine.tensor([0.5, -2.0], requires_grad=True)
    buffer = engine.zeros(3)
    buffer[1:].copy_(y * y)
    assert buffer.requires_grad and buffer.grad_fn.name == "CopySlices"
    (buffer * engine.tensor([5.0, 7.0, 11.0])).sum().backward()
    np.testing.assert_allclose(y.grad.array, [7 * 2 * 0.5, 11 * 2 * -2.0])


def test_a_view_reads_its_base_after_the_base_changed():
    """v = h[0]; h.mul_(3): v is 3h[0], so d(v.sum())/dx = 3 * 2 on row 0 (torch: AsStridedBackward0)."""
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    h = x * 2
    v = h[0]
    h.mul_(3)
    assert v.grad_fn.name == "AsStridedBackward0"
    v.sum().backward()
    np.testing.assert_allclose(x.grad.array, [[6.0, 6.0], [0.0, 0.0]])


def test_views_share_the_version_counter():
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]])
    v = x[0]
    w = v.t()[1:]
    d = x.detach()
    assert v._version is x._version and w._version is x._version and d._version is x._version
    assert v._base is x and w._base is x and x._base is None and d._base is None
    w.add_(1)
    assert x._version[0] == 1
    x.data.mul_(2)  # .data is not a view: its own counter, as torch's
    assert x._version[0] == 1
    assert x.tolist() == [[2.0, 6.0], [6.0, 8.0]]


def test_a_saved_view_fails_backward_once_its_base_changed():
    x = engine.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 1
    v = h[:2]
    y = v * v
    h.mul_(2)
    with pytest.raises(TorchRuntimeError, match="which is output 0 of AsStrided, is at version 1; expected version 0"):
        y.sum().backward()


def test_forbidden_views():
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with pytest.raises(TorchRuntimeError, match="^a view of a leaf Variable that requires grad"):
        x[0].mul_(2)
    h = x * 2
    a, b = h.unbind()
    with pytest.raises(TorchRuntimeError, match="^Output 1 of Unbind is a view and is being modified inplace. This"):
        b.mul_(2)
    with engine.no_grad():
        v = h[0]
    with pytest.raises(TorchRuntimeError, match="^A view was created in no_grad mode and is being modified inplace"):
        v.add_(1)
    h.mul_(2)  # a and v may no longer be used in a graph: torch raises when their grad_fn is read
    assert a.grad_fn.name == "Invalid"
    with pytest.raises(TorchRuntimeError, match="^Output 0 of Unbind is a view and its base or another view"):
        a * 2
    with engine.no_grad():
        assert (a * 2).tolist() == [8.0, 16.0]


def test_views_made_under_no_grad_get_no_gradient():
    """torch: such a view requires grad (its base does) but has no gradient accumulator of its own."""
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    with engine.no_grad():
        v = h[:1]
    assert v.requires_grad and v.is_leaf
    (v * 3).sum().backward()
    assert v._grad is None and x.grad is None


def test_bases_and_views_are_freed_without_the_cycle_collector():
    """CopySlices holds the view's region, not the base (as torch's holds a TensorGeometry): a base whose history
    is CopySlices, and its views, go as soon as the program drops them, however large they are."""
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    gc.disable()
    try:
        for write in ("view", "base", "both"):
            h = x * 2
            v = h[0]
            if write == "view":
                v.exp_()
            if write == "both":
                v.mul_(x[1])
            if write in ("base", "both"):
                h[1] = x[0] * 5
                h.mul_(3)
            (h.sum() + v.sum()).backward()
            refs = weakref.ref(h), weakref.ref(v)
            del h, v
            assert all(ref() is None for ref in refs), write
    finally:
        gc.enable()


def test_a_base_keeps_weak_references_to_its_views_only():
    x = engine.zeros(100)
    for i in range(1000):
        x[i % 100] = i
    assert len(x._views) < 64  # dead views are dropped as the list grows
    assert x.tolist()[:3] == [900.0, 901.0, 902.0]


def test_zero_dimensional_views_share_memory():
    """x[0], x.select(0, 0), x.unbind() and iteration of a 1-D tensor give 0-d views (numpy gives scalars)."""
    x = engine.tensor([1.0, 2.0, 3.0])
    pieces = [x[0], x.select(0, 1), x.unbind()[2], next(iter(x)), x[..., 1], x.narrow(0, 2, 1)[0]]
    for piece in pieces:
        assert piece._base is x and np.shares_memory(piece.array, x.array)
    x.mul_(10)
    assert [p.item() for p in pieces] == [10.0, 20.0, 30.0, 10.0, 20.0, 30.0]


ALIASING_GOLDENS = load("ops.json")["cases"]


def test_an_op_result_shares_its_input_memory_only_as_a_view():
    """Every op whose result shares memory with an input records it as a view of that input (so an in-place
    op on the result rewrites the input's history); any other aliasing would let an in-place op change an
    input behind autograd's back.  Checked on every op golden."""
    offenders = []
    for case in ALIASING_GOLDENS:
        inputs = {n: Tensor(decode(v["value"]), requires_grad=True) for n, v in case["inputs"].items()}
        consts = {n: Tensor(decode(v["value"])) for n, v in case.get("const", {}).items()}
        try:
            program = parse(case["expr"], known_variables=frozenset(inputs) | frozenset(consts))
            out = evaluate(program, EngineBackend({**inputs, **consts}, dtypes.float64))
        except Exception:  # noqa: BLE001 - cases that expect an error have nothing to alias
            continue
        for result in out if isinstance(out, (tuple, list)) else [out]:
            if not isinstance(result, Tensor):
                continue
            for source in [*inputs.values(), *consts.values()]:
                if result is not source and np.shares_memory(result.array, source.array) \
                        and result._base is not source:
                    offenders.append(case["expr"])
    assert not offenders


def test_in_place_view_ops_change_the_tensor_itself():
    # recorded from torch 2.13: b.unsqueeze_(0) -> [1, 2, 3], strides (6, 3, 1), version 1, same memory; c.t_() ->
    # strides (1, 3); a leaf that requires grad is torch's in-place error
    def stride(t):
        return tuple(s // t.array.itemsize for s in t.array.strides)

    b = Tensor(np.ones((2, 3), dtype=np.float32))
    view = b[0]
    assert b.unsqueeze_(0) is b and tuple(b.shape) == (1, 2, 3) and stride(b) == (6, 3, 1) and b._version[0] == 1
    b.array[0, 0, 0] = 5.0
    assert view.array[0] == 5.0 and tuple(view.shape) == (3,)
    c = Tensor(np.ones((2, 3), dtype=np.float32))
    c.t_()
    assert stride(c) == (1, 3)
    c.transpose_(0, 1)
    assert stride(c) == (3, 1)
    d = Tensor(np.ones((2, 1, 3)))
    d.squeeze_(1)
    assert tuple(d.shape) == (2, 3)
    with pytest.raises(TorchRuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        Tensor(np.ones(2), requires_grad=True).unsqueeze_(0)
