"""The backward pass runs in PyTorch's engine's order (issue 15 §4): ready nodes by creation order, the last
created first, with storing a completed leaf gradient and PyTorch's error nodes ahead of everything.  It shows
when a backward fails part-way (floor_divide has no derivative): the leaves PyTorch had already filled are
filled.  Expected .grad values recorded from PyTorch 2.13 (x = [1.5, 2.5], y = [2, 3], w = [1, 1])."""

from __future__ import annotations

import pytest

from gradcli import engine as E
from gradcli.engine.errors import TorchRuntimeError

CASES = [  # expression, then x.grad, y.grad, w.grad as PyTorch leaves them after the error
    ("((y // 2) + x * 2).sum()", None, None, None),
    ("((y // 2) * w + x * 2).sum()", [2.0, 2.0], None, None),
    ("(x * 2).sum() + (y // 2).sum()", None, None, None),
    ("(y // 2).sum() + (x * 2).sum()", [2.0, 2.0], None, None),
    ("(y * (x // 2)).sum()", None, [0.0, 1.0], None),
    ("((x // 2) * y).sum()", None, None, None),
    ("(x.sin() + (y // 2)).sum() + w.sum()", None, None, [1.0, 1.0]),
    ("w.sum() + (x.sin() + (y // 2)).sum()", None, None, None),
]


@pytest.mark.parametrize("expression,x_grad,y_grad,w_grad", CASES, ids=[c[0] for c in CASES])
def test_failing_backward_leaves_what_pytorch_filled(expression, x_grad, y_grad, w_grad):
    x = E.tensor([1.5, 2.5], requires_grad=True)
    y = E.tensor([2.0, 3.0], requires_grad=True)
    w = E.tensor([1.0, 1.0], requires_grad=True)
    z = eval(expression, {"x": x, "y": y, "w": w})  # noqa: S307 - the fixed expressions above
    with pytest.raises(TorchRuntimeError, match="derivative for aten::floor_divide is not implemented"):
        z.backward()
    for tensor, expected in ((x, x_grad), (y, y_grad), (w, w_grad)):
        assert (None if tensor.grad is None else tensor.grad.array.tolist()) == expected


def test_order_is_by_creation_not_by_edge():
    """Two branches meeting at one node: the branch created last runs first, so its leaf is stored first."""
    order = []
    x = E.tensor([1.0], requires_grad=True)
    a = x * 2  # created first
    b = x.sin()  # created last: its node runs first
    from gradcli.engine.autograd import run_backward

    out = (a + b).sum()
    run_backward([out], [E.ones_like(out).array], retain_graph=False, create_graph=False,
                 observer=lambda node, grad: order.append(node.name))
    assert order == ["SumBackward0", "AddBackward0", "SinBackward0", "MulBackward0"]
