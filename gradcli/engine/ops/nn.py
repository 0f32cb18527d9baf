"""softmax and log_softmax along a dim, stable at extreme inputs (shifted by the max, as torch's kernels)."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual, kernels, sum_order
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
    torch_edges = (0,)  # the input; dim is a parameter

    @staticmethod
    def kernel(x, d):
        if d == x.ndim - 1 and x.dtype in (np.float32, np.float64):
            # torch's _vec_softmax_lastdim: Vectorized::exp of x - max on every element, the sum in
            # vec::reduce_all's order, then a product by its reciprocal
            e = kernels.vector_exp(x - x.max(axis=d, keepdims=True))
            return e * (x.dtype.type(1) / sum_order.vec_reduce_all_sum(e)[..., None])
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
        if type(g) is np.ndarray and y.ndim and d == y.ndim - 1 and g.dtype == y.dtype \
                and g.dtype in (np.float32, np.float64) and g.size:
            # _vec_host_softmax_backward_lastdim: (g - sum(g * y)) * y, the sum in map2_reduce_all's order
            return ((g - sum_order.vec_reduce_all_dot(g, y)[..., None]) * y,)
        return (y * (g - dual.sum(g * y, axis=d, keepdims=True)),)


class LogSoftmax(Softmax):
    __slots__ = ()
    name = "LogSoftmaxBackward0"

    @staticmethod
    def kernel(x, d):
        shifted = x - x.max(axis=d, keepdims=True)
        if d == x.ndim - 1 and x.dtype in (np.float32, np.float64):
            # serial_vec_log_softmax_lastdim_range: the sum of Vectorized::exp in vec::reduce_all's order, its log
            # (the kernels' log: SLEEF's in torch, within the contract's ulps), then x - max - log(sum)
            total = sum_order.vec_reduce_all_sum(kernels.vector_exp(shifted))[..., None]
            return shifted - kernels.log(total)
        return shifted - np.log(np.exp(shifted).sum(axis=d, keepdims=True))

    @staticmethod
    def backward(ctx, g, y):
        d = ctx.aux if y.ndim else None
        if type(g) is np.ndarray and g.dtype in (np.float32, np.float64) and g.dtype == y.dtype:
            return (_log_softmax_backward(g, y, d),)
        return (g - dual.exp(y) * dual.sum(g, axis=d, keepdims=True),)


def _log_softmax_backward(g: np.ndarray, y: np.ndarray, dim) -> np.ndarray:
    """g - exp(y) * sum(g) as torch's CPU kernel computes it (SoftMaxKernel.cpp), the subtraction fused with the
    product (its build contracts them: one rounding).  Over the last dim: the sum in vec::reduce_all's order and
    Vectorized::exp (SLEEF) on every element.  Over another dim: the sum in order along it, from 0, and for each
    inner position Vectorized::exp on the whole vectors of its chunk, std::exp on the chunk's tail.  The exp is
    the kernels' (numpy's in the fast mode)."""
    if g.size == 0:
        return np.array(g)
    if y.ndim == 0 or dim is None or dim % y.ndim == y.ndim - 1:
        total = g if y.ndim == 0 else sum_order.vec_reduce_all_sum(g)[..., None]
        return np.asarray(kernels.fma(-kernels.vector_exp(y), total, g), dtype=g.dtype)
    dim %= y.ndim
    total = np.zeros(g.shape[:dim] + g.shape[dim + 1:], dtype=g.dtype)
    for i in range(g.shape[dim]):
        total += np.take(g, i, axis=dim)
    total = np.expand_dims(total, dim)
    inner = int(np.prod(y.shape[dim + 1:]))
    lanes = 16 if y.dtype == np.float32 else 8
    chunk = min(max(131072 // y.shape[dim] // y.itemsize, lanes) // lanes * lanes, inner)
    position = np.arange(inner) % chunk
    size = np.minimum(chunk, inner - np.arange(inner) // chunk * chunk)
    vector = (position < size - size % lanes).reshape(y.shape[dim + 1:])
    e = np.where(vector, kernels.vector_exp(y), kernels.scalar_exp(y)) if kernels.exact() else np.exp(y)
    return np.asarray(kernels.fma(-e, total, g), dtype=g.dtype)


@register("softmax", sig="softmax(input, dim)", doc="exp(x) / sum(exp(x)) along dim", category="nn",
          functional=True)
def softmax(input, dim=None, *, dtype=None):
    return Softmax.apply(input, dim)


@register("log_softmax", sig="log_softmax(input, dim)", doc="log of softmax along dim, computed stably",
          category="nn", functional=True)
def log_softmax(input, dim=None, *, dtype=None):
    return LogSoftmax.apply(input, dim)


@register("softmin", sig="softmin(input, dim)", doc="softmax(-input) along dim", category="nn", torch=False,
          method=False, functional=True)
def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return Softmax.apply(-input, dim)


@register("softsign", sig="softsign(input)", doc="input / (1 + |input|)", category="activation", torch=False,
          method=False, functional=True)
def softsign(input):
    return input / (input.abs() + 1)


class Glu(Function):
    """Gated linear unit: the first half of `dim` times the sigmoid of the second half."""

    __slots__ = ()
    name = "GluBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, x, dim):
        x = as_float(x)
        if x.ndim == 0:
            raise TorchRuntimeError("glu does not support scalars because halving size must be even")
        d = wrap_dim(dim, x.ndim)
        if x.shape[d] % 2:
            raise TorchRuntimeError(f"Halving dimension must be even, but dimension {d} is size {x.shape[d]}")
        ctx.aux = d
        a, b = np.split(x, 2, axis=d)
        with np.errstate(over="ignore"):
            return a * (1 / (1 + np.exp(-b)))

    @staticmethod
    def backward(ctx, g, x):
        d = ctx.aux
        half = x.shape[d] // 2
        first = (slice(None),) * d + (slice(0, half),)
        second = (slice(None),) * d + (slice(half, None),)
        a, b = x[first], x[second]
        s = dual.sigmoid(b)
        return (dual.cat([g * s, g * a * s * (1 - s)], d),)


@register("glu", sig="glu(input, dim=-1)", doc="a * sigmoid(b), a and b the two halves of input along dim",
          category="nn", torch=False, method=False, functional=True)
def glu(input, dim=-1):
    return Glu.apply(input, dim)
