"""softmax and log_softmax along a dim, stable at extreme inputs (shifted by the max, as torch's kernels)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops.common import as_float
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import wrap_dim


def _softmax_dim(x, dim):
    if dim is None:
        raise TorchRuntimeError("softmax(): argument 'dim' must be specified")  # torch warns and guesses
    return wrap_dim(dim, x.ndim) if x.ndim else 0


class Softmax(Function):
    __slots__ = ()
    name = "SoftmaxBackward0"
    saves_output = True

    @staticmethod
    def kernel(x, d):
        e = np.exp(x - x.max(axis=d, keepdims=True))
        return e / e.sum(axis=d, keepdims=True)

    @staticmethod
    def forward(ctx, x, dim):
        x = as_float(x)
        d = _softmax_dim(x, dim)
        ctx.aux = d
        if x.size == 0:  # torch: an empty result (numpy's max has no identity for an empty dim)
            return np.empty_like(x)
        if x.ndim == 0:  # softmax of one value is 1, log_softmax 0
            return ctx.kernel(x.reshape(1), 0).reshape(())
        return ctx.kernel(x, d)

    @staticmethod
    def backward(ctx, g, y):
        d = ctx.aux if y.ndim else None
        return (y * (g - dual.sum(g * y, axis=d, keepdims=True)),)


class LogSoftmax(Softmax):
    __slots__ = ()
    name = "LogSoftmaxBackward0"

    @staticmethod
    def kernel(x, d):
        shifted = x - x.max(axis=d, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(axis=d, keepdims=True))

    @staticmethod
    def backward(ctx, g, y):
        d = ctx.aux if y.ndim else None
        return (g - dual.exp(y) * dual.sum(g, axis=d, keepdims=True),)


@register("softmax", sig="softmax(input, dim)", doc="exp(x) / sum(exp(x)) along dim", category="nn",
          functional=True)
def softmax(input, dim=None, *, dtype=None):
    return Softmax.apply(input, dim)


@register("log_softmax", sig="log_softmax(input, dim)", doc="log of softmax along dim, computed stably",
          category="nn", functional=True)
def log_softmax(input, dim=None, *, dtype=None):
    return LogSoftmax.apply(input, dim)
