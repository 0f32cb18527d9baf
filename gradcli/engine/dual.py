"""Operations that work on numpy arrays *and* on Tensors, for writing backward rules once.

In the first-order backward pass the rules receive numpy arrays and these calls are plain numpy; with
``create_graph=True`` they receive Tensors and the same calls record a differentiable graph.
"""

from __future__ import annotations

import numpy as np

from .tensor import Tensor


def _is_t(*values) -> bool:
    return any(isinstance(v, Tensor) for v in values)


def _ops():
    from . import ops

    return ops


def sum_to(g, shape):
    """Sum `g` down to `shape` (the shape it was broadcast from)."""
    if not isinstance(g, Tensor):
        from .autograd import sum_to_shape

        return sum_to_shape(g, shape)
    lead = g.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and g.shape[i + lead] != 1)
    if dims:
        g = _ops().sum(g, dim=dims, keepdim=True)
    return _ops().reshape(g, shape) if lead else g


def expand(g, shape):
    if isinstance(g, Tensor):
        return _ops().expand(g, shape)
    return np.broadcast_to(g, shape)


def reshape(g, shape):
    return _ops().reshape(g, shape) if isinstance(g, Tensor) else g.reshape(shape)


def sum(g, axis=None, keepdims=False):  # noqa: A001 - mirrors numpy's name on purpose
    if isinstance(g, Tensor):
        return _ops().sum(g, dim=axis, keepdim=keepdims)
    return np.sum(g, axis=axis, keepdims=keepdims)


def swap_last(g):
    """Swap the last two dims (a matrix transpose, batched)."""
    if isinstance(g, Tensor):
        return _ops().transpose(g, -1, -2)
    return np.swapaxes(g, -1, -2)


def matmul(a, b):
    if _is_t(a, b):
        return _ops().matmul(a, b)
    return np.matmul(a, b)


def where(mask, a, b):
    """Elementwise choice with a constant boolean mask."""
    if _is_t(a, b):
        return _ops().where(mask, a, b)
    return np.where(mask, a, b)


def _unary(name, np_fn):
    def fn(x):
        if isinstance(x, Tensor):
            return getattr(_ops(), name)(x)
        return np_fn(x)

    fn.__name__ = name
    return fn


exp = _unary("exp", np.exp)
log = _unary("log", np.log)
sin = _unary("sin", np.sin)
cos = _unary("cos", np.cos)
sqrt = _unary("sqrt", np.sqrt)
sign = _unary("sign", np.sign)
tanh = _unary("tanh", np.tanh)


def pow(x, exponent):  # noqa: A001 - mirrors Python's name on purpose
    if isinstance(x, Tensor) or isinstance(exponent, Tensor):
        return _ops().pow(x, exponent)
    return np.power(x, exponent)
