"""A leaf's .grad follows torch's gradient layout contract (torch/csrc/autograd/functions/accumulate_grad.h:
a dense, non-overlapping leaf's gradient has the leaf's strides, whatever layout the backward produced; any
other leaf's is contiguous), so that later reductions of .grad add in torch's order."""

from __future__ import annotations

import numpy as np

from gradcli import engine


def _order(a: np.ndarray) -> list:
    return sorted(range(a.ndim), key=lambda d: -a.strides[d])


def test_a_transposed_leafs_grad_is_transposed():
    x = engine.tensor(np.arange(12.0).reshape(3, 4)).t().requires_grad_()
    (x * 2).sum().backward()  # the backward hands a contiguous gradient
    assert _order(x.grad.numpy()) == _order(x.detach().numpy()) == [1, 0]
    np.testing.assert_array_equal(x.grad.numpy(), np.full((4, 3), 2.0))


def test_a_channels_last_leafs_grad_is_channels_last():
    x = engine.tensor(np.ones((2, 3, 4, 5), np.float32)).permute(0, 3, 1, 2).requires_grad_()
    (x * 3).sum().backward()
    assert _order(x.grad.numpy()) == [0, 2, 3, 1]
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 5, 3, 4), 3.0, np.float32))


def test_a_contiguous_leafs_grad_is_contiguous_even_from_a_transposed_gradient():
    x = engine.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    x.t().exp().sum().backward()
    assert x.grad.numpy().flags.c_contiguous


def test_a_strided_slice_leaf_gets_a_contiguous_grad():
    y = engine.tensor(np.arange(20.0).reshape(4, 5))[:, ::2].detach().requires_grad_()  # not dense
    (y * 1).sum().backward()
    assert y.grad.numpy().flags.c_contiguous
