"""softmax and log_softmax along a dim, stable at extreme inputs (shifted by the max, as torch's kernels)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels, sum_order
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops.common import as_float
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor, wrap_dim


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
    def jvp(ctx, tangents, arrays, out, params):
        """result * (self_t - logsumexp_jvp(self_p, self_t, {dim}, true))."""
        return out * (tangents[0] - logsumexp_jvp(arrays[0], tangents[0], ctx.aux))

    @staticmethod
    def kernel(x, d):
        if d == x.ndim - 1 and x.dtype in (np.float32, np.float64):
            # torch's _vec_softmax_lastdim: Vectorized::exp of x - max on every element, the sum in
            # vec::reduce_all's order, then a product by its reciprocal
            e = kernels.vector_exp(x - x.max(axis=d, keepdims=True))
            return e * (x.dtype.type(1) / sum_order.vec_reduce_all_sum(e)[..., None])
        if x.dtype in (np.float32, np.float64):
            return _softmax_over(x, d)
        e = kernels.exp(x - x.max(axis=d, keepdims=True))  # float16: through float32 in torch (opmath)
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
        if type(g) is np.ndarray and y.ndim and g.dtype == y.dtype and g.dtype in (np.float32, np.float64) \
                and 0 < y.shape[d] <= 64:
            # _vec_softmax_backward over another dim: sum += g * y in order along it, from 0, each step one fused
            # multiply-add (its build contracts them), then y * (g - sum)
            total = np.zeros(y.shape[:d] + y.shape[d + 1:], dtype=y.dtype)
            for i in range(y.shape[d]):
                total = kernels.fma(np.take(g, i, axis=d), np.take(y, i, axis=d), total)
            return (y * (g - np.expand_dims(total, d)),)
        return (y * (g - dual.sum(g * y, axis=d, keepdims=True)),)


class LogSoftmax(Softmax):
    __slots__ = ()
    name = "LogSoftmaxBackward0"

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """self_t - logsumexp_jvp(self_p, self_t, {dim}, true)."""
        return tangents[0] - logsumexp_jvp(arrays[0], tangents[0], ctx.aux)

    @staticmethod
    def kernel(x, d):
        shifted = x - x.max(axis=d, keepdims=True)
        if d == x.ndim - 1 and x.dtype in (np.float32, np.float64):
            # serial_vec_log_softmax_lastdim_range: the sum of Vectorized::exp in vec::reduce_all's order, its log
            # (the kernels' log: SLEEF's in torch, within the contract's ulps), then x - max - log(sum)
            total = sum_order.vec_reduce_all_sum(kernels.vector_exp(shifted))[..., None]
            return shifted - kernels.log(total)
        if x.dtype in (np.float32, np.float64):
            return _log_softmax_over(x, shifted, d)
        return shifted - kernels.log(kernels.exp(shifted).sum(axis=d, keepdims=True))

    @staticmethod
    def backward(ctx, g, y):
        d = ctx.aux if y.ndim else None
        if type(g) is np.ndarray and g.dtype in (np.float32, np.float64) and g.dtype == y.dtype:
            return (_log_softmax_backward(g, y, d),)
        return (g - dual.exp(y) * dual.sum(g, axis=d, keepdims=True),)


def logsumexp_jvp(x, t, d, keepdim=True):
    """torch's logsumexp_jvp over dim(s) d: sum(exp(x - amax(x)) * t) / sum(exp(x - amax(x))), on the engine's
    kernels (its exp, ATen's summation order)."""
    x, t = as_float(np.asarray(x)), np.asarray(t)
    scalar = x.ndim == 0
    if scalar:
        x, t, d = x.reshape(1), t.reshape(1), 0
    shifted = x - x.max(axis=d, keepdims=True) if x.size else x
    e = Tensor._make(kernels.exp(shifted), None)
    sumexp = dual.sum(e, axis=d, keepdims=keepdim).array
    jvp = dual.sum(Tensor._make(e.array * t, None), axis=d, keepdims=keepdim).array / sumexp
    return jvp.reshape(()) if scalar else jvp


def _lanes(dtype) -> int:
    return 16 if dtype == np.float32 else 8  # Vectorized<T>::size() in torch's AVX512 build


def _sum_along(e: np.ndarray, d: int) -> np.ndarray:
    """The sum over dim d in order, from 0 (torch's vertical sums over a dim that is not the last)."""
    if e.shape[d] > 64:  # a Python step per element of the dim: numpy's sum past that (its order differs)
        return e.sum(axis=d, keepdims=True)
    total = np.zeros(e.shape[:d] + e.shape[d + 1:], dtype=e.dtype)
    for i in range(e.shape[d]):
        total += np.take(e, i, axis=d)
    return np.expand_dims(total, d)


def _chunk_vector(shape: tuple, d: int, itemsize: int, lanes: int) -> np.ndarray:
    """The inner positions (dims after d) that _vec_logsoftmax / _vec_log_softmax_backward compute with
    Vectorized:: (True) rather than std:: (their chunk's tail), for the inner blocks of 128 KiB they work in."""
    inner = math.prod(shape[d + 1:])
    chunk = min(max(131072 // shape[d] // itemsize, lanes) // lanes * lanes, inner)
    position = np.arange(inner) % chunk
    size = np.minimum(chunk, inner - np.arange(inner) // chunk * chunk)
    return (position < size - size % lanes).reshape(shape[d + 1:])


def _softmax_over(x: np.ndarray, d: int) -> np.ndarray:
    """softmax over a dim that is not the last, as _vec_softmax computes it: for each inner position exp(x - max)
    (Vectorized::exp where a whole vector of inner positions fits in the row, std::exp on the row's tail), the
    sum in order along the dim, then a quotient (not a product by the reciprocal)."""
    shifted = x - x.max(axis=d, keepdims=True)
    if kernels.exact():
        inner = math.prod(x.shape[d + 1:])
        lanes = _lanes(x.dtype)
        vector = (np.arange(inner) < inner - inner % lanes).reshape(x.shape[d + 1:])
        e = np.where(vector, kernels.vector_exp(shifted), kernels.scalar_exp(shifted))
    else:
        e = kernels.exp(shifted)
    return e / _sum_along(e, d)


def _log_softmax_over(x: np.ndarray, shifted: np.ndarray, d: int) -> np.ndarray:
    """log_softmax over a dim that is not the last, as _vec_logsoftmax computes it: in inner chunks of 128 KiB,
    exp(x - max) (Vectorized::exp on the chunk's whole vectors, std::exp on its tail) summed in order along the
    dim, Vectorized::log of the sum (the kernels' log: within its ulp), then x - max - log(sum)."""
    if kernels.exact():
        vector = _chunk_vector(x.shape, d, x.itemsize, _lanes(x.dtype))
        e = np.where(vector, kernels.vector_exp(shifted), kernels.scalar_exp(shifted))
    else:
        e = kernels.exp(shifted)
    return shifted - kernels.log(_sum_along(e, d))


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
    e = np.where(vector, kernels.vector_exp(y), kernels.scalar_exp(y)) if kernels.exact() else kernels.exp(y)
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
        with np.errstate(over="ignore"):  # torch's glu kernel: Vectorized::exp, std::exp on the scalar lanes
            return a * (1 / (1 + kernels.inner_exp(-b, a, b)))

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
