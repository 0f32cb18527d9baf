"""Operations that work on numpy arrays *and* on Tensors, for writing backward rules once.

In the first-order backward pass the rules receive numpy arrays and these calls are plain numpy; with
``create_graph=True`` they receive Tensors and the same calls record a differentiable graph.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import kernels, sum_order
from gradcli.engine.kernels import blas, native
from gradcli.engine.kernels import float32 as float32_kernels
from gradcli.engine.tensor import Tensor


def _is_t(*values) -> bool:
    return any(isinstance(v, Tensor) for v in values)


_TENSOR_OPS = None  # the ops package, bound by it at import (it imports this module, not the reverse)


def bind_tensor_ops(ops) -> None:
    """Called once by gradcli.engine.ops: the op functions these helpers call on Tensors."""
    global _TENSOR_OPS
    _TENSOR_OPS = ops


def _ops():
    return _TENSOR_OPS


def sum_to_shape(array: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum `array` over the leading and size-1 dims that broadcasting added, giving `shape`."""
    if isinstance(array, Tensor):  # a rule's differentiable gradient on a first-order pass (--hessian's)
        return sum_to(array, shape)
    lead = array.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and array.shape[i + lead] != 1)
    if axes:
        total = sum_order.torch_sum(array, axes, True)  # torch's sum_to: tensor.sum(dims, keepdim=True)
        array = array.sum(axis=axes, keepdims=True) if total is None else total
    if lead:
        array = array.reshape(shape)
    return array


def sum_to(g, shape):
    """Sum `g` down to `shape` (the shape it was broadcast from)."""
    if not isinstance(g, Tensor):
        return sum_to_shape(g, shape)
    if not shape and g.ndim:
        return _ops().sum(g)  # at::sum_to's shortcut for a 0-d target: sum() (SumBackward0), no view
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
    return np_matmul(a, b)


def np_matmul(a, b, fold=False):
    """torch's matmul through MKL as ATen calls it, when MKL is installed (kernels.blas; `fold`: the smaller
    operand requires grad, see blas.should_fold); else numpy's matmul, except that an inner dimension of 1 is a
    plain product per entry: PyTorch's kernels keep its signed zeros (-1.5 * 0.0 = -0.0) where numpy's sum,
    which starts at +0.0, loses them."""
    if a.ndim and b.ndim:
        out = blas.matmul(a, b, fold)
        if out is not None:
            return out
    if a.ndim > 1 and b.ndim > 1 and a.shape[-1] == 1:
        return np.multiply(a, b)
    exact = float32_kernels.matmul(a, b)  # torch's (MKL's) summation order, where it is established
    return np.matmul(a, b) if exact is None else exact


def where(mask, a, b):
    """Elementwise choice with a constant boolean mask."""
    if _is_t(a, b):
        return _ops().where(mask, a, b)
    return np.where(mask, a, b)


def _op(name):
    """The op function `name` (exported by ops, else from the registry)."""
    ops = _ops()
    fn = getattr(ops, name, None)
    return fn if fn is not None else ops.REGISTRY[name].fn


def _unary(name, np_fn):
    def fn(x):
        if isinstance(x, Tensor):
            return _op(name)(x)
        return np_fn(x)

    fn.__name__ = name
    return fn


def zeros_like(g):
    """torch's zeros_like(grad) in a backward rule: 0 even where grad is inf or nan (g * 0 would be nan), and
    not part of any graph."""
    if isinstance(g, Tensor):
        return Tensor._make(np.zeros(g.array.shape, dtype=g.array.dtype), None)
    g = np.asarray(g)
    return np.zeros(g.shape, dtype=g.dtype)


def np_sign(x):
    """PyTorch's sign: (0 < x) - (x < 0), so sign(nan) is 0 (numpy's is nan); bools are their own sign."""
    x = np.asarray(x)
    if x.dtype == bool:
        return x.copy()
    if x.dtype.kind == "f" and x.ndim:  # numpy's sign (+0.0 at -0.0, as torch's), its nan made 0: 2 passes, not 5
        out = np.sign(x)
        nan = np.isnan(out)
        if nan.any():
            out[nan] = 0
        return out
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)


# the kernels (gradcli/engine/kernels/: torch's bits or numpy's, as the mode asks) under the names the rules use
np_exp, np_log, np_sin, np_cos, np_sqrt, np_tanh = kernels.exp, kernels.log, kernels.sin, kernels.cos, kernels.sqrt, \
    kernels.tanh
np_sinh, np_cosh, np_rsqrt, np_sigmoid = kernels.sinh, kernels.cosh, kernels.rsqrt, kernels.sigmoid
np_kernel_exp = kernels.inner_exp

exp = _unary("exp", np_exp)
log = _unary("log", np_log)
sin = _unary("sin", np_sin)
cos = _unary("cos", np_cos)
sqrt = _unary("sqrt", np_sqrt)
sign = _unary("sign", np_sign)
tanh = _unary("tanh", np_tanh)


def pow(x, exponent):  # noqa: A001 - mirrors Python's name on purpose
    if isinstance(x, Tensor) or isinstance(exponent, Tensor):
        return _ops().pow(x, exponent)
    return np_pow_scalar(x, exponent)


def np_pow_scalar(x: np.ndarray, exponent):
    """x ** number as torch's CPU kernel computes it: the exponents it special-cases by multiplication, square
    root or reciprocal (x**3 is x*x*x, rounded twice; numpy's power rounds once), std::pow otherwise."""
    if x.dtype.kind == "f" and np.ndim(exponent) == 0:
        if exponent == 2:
            return x * x
        if exponent == 3:
            return x * x * x
        if exponent == -2:
            return 1 / (x * x)
        if exponent == 0.5:
            return np_sqrt(x)
        if exponent == -0.5:  # (-0.0) ** -0.5 stays IEEE's +inf, a documented deviation (docs/deviations.md)
            return np.where(x == 0, np.inf, np_rsqrt(x)).astype(x.dtype, copy=False)
        if exponent == -1:
            return 1 / x
    return np_pow(x, exponent)


def np_pow(x: np.ndarray, y):
    """x ** y elementwise (x or y an array, the other maybe a number); float32 as torch's float32 pow
    (kernels.pow): a number base is a float32 operand of torch's loop, a number exponent is not."""
    if type(x) in (int, float) and getattr(y, "dtype", None) == np.float32:
        x = np.asarray(x, dtype=np.float32)  # torch's pow(number, tensor) wraps the number as a 0-d tensor
    return kernels.pow(x, y)


# -- more elementwise functions, for the rules of the full op set ----------------------------------------

def one_minus_square(y):
    """1 - y * y as torch's tanh_backward kernel computes it (one fused multiply-add).  On Tensors (create_graph)
    torch's TanhBackward0 still runs that kernel: the differentiable 1 - y * y plus the constant that makes its
    value the kernel's (the two differ by a few ulps, so the constant and the sum are exact), derivative -2y."""
    if not isinstance(y, Tensor):
        return kernels.one_minus_square(y)
    plain = 1 - y * y
    exact = kernels.one_minus_square(y.array)
    if np.array_equal(exact, plain.array):
        return plain
    return plain + Tensor(np.asarray(exact - plain.array, dtype=plain.array.dtype))


def np_stable_sigmoid(x):
    """e / (1 + e) with e = exp(-|x|): the form torch's logsigmoid and softplus backward kernels use."""
    e = kernels.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


np_erf = kernels.erf  # numpy has none: the kernel layer's (the C library's with --bits torch)
np_erfc = kernels.erfc


sinh = _unary("sinh", np_sinh)
cosh = _unary("cosh", np_cosh)
expm1 = _unary("expm1", kernels.expm1)
log1p = _unary("log1p", kernels.log1p)
abs = _unary("abs", np.abs)  # noqa: A001 - mirrors numpy's name on purpose
sigmoid = _unary("sigmoid", np_sigmoid)
stable_sigmoid = _unary("sigmoid", np_stable_sigmoid)  # on Tensors (create_graph) the sigmoid op
erf = _unary("erf", np_erf)
rsqrt = _unary("rsqrt", np_rsqrt)


def softplus(x, beta=1.0, threshold=20.0):
    if isinstance(x, Tensor):
        return _ops().softplus(x, beta=beta, threshold=threshold)
    return np_softplus(x, beta, threshold)


def running(kernel, x: np.ndarray, axis: int) -> np.ndarray:
    """np.cumsum / np.cumprod as torch's CPU kernel computes them: a float32 running total kept in double
    (at::acc_type<float>), each element rounded once; a sum starting at +0.0; C-contiguous.  By the compiled kernels
    (kernels/native_sum.c) from CUM_MIN elements on, when they are built."""
    if x.size >= native.CUM_MIN and (kernel is np.cumsum or kernel is np.cumprod):
        out = native.cumulative(x, axis, kernel is np.cumprod)
        if out is not None:
            return out
    if x.dtype == np.float32:
        out = kernel(x, axis=axis, dtype=np.float64).astype(np.float32)
    else:
        out = kernel(x, axis=axis)
    # torch's running sum starts at +0.0, so a leading -0.0 is 0.0 (numpy copies it); in place (the result is
    # this call's own), not a new array
    if kernel is np.cumsum and out.dtype.kind == "f":
        out = np.add(out, 0.0, out=out) if out.ndim else out + 0.0
    # torch's result is a fresh contiguous tensor whatever the input's layout (numpy's follows the input's): a
    # later sum of it adds in that layout's order
    return out if out.ndim == 0 or out.flags.c_contiguous else out.copy(order="C")


def cumsum(g, dim):
    if isinstance(g, Tensor):
        return _ops().cumsum(g, dim)
    return running(np.cumsum, g, dim)


def cumprod(g, dim):
    if isinstance(g, Tensor):
        return _ops().cumprod(g, dim)
    return running(np.cumprod, g, dim)


def flip(g, dims):
    if isinstance(g, Tensor):
        return _ops().flip(g, dims)
    return np.flip(g, axis=dims)


def cat(values, dim):
    if _is_t(*values):
        ops = _ops()
        return ops.cat([v if isinstance(v, Tensor) else Tensor._make(np.asarray(v), None) for v in values], dim)
    return np.concatenate(values, axis=dim)


def inverse(a):
    return _ops().inverse(a) if isinstance(a, Tensor) else np.linalg.inv(a)


def solve(a, b):
    """a^-1 b for a batch of matrices b (not vectors)."""
    if _is_t(a, b):
        return _ops().linalg_solve_matrix(a, b)
    return np.linalg.solve(a, b)


def logsigmoid(x):
    if isinstance(x, Tensor):
        return _ops().logsigmoid(x)
    return np_logsigmoid(x)


def np_logsigmoid(x):
    # torch's log_sigmoid kernel: min(x, 0) - log1p(exp(-|x|)), Vectorized:: on every element (its tail a
    # partial vector): SLEEF's exp (kernels.vector_exp), log1p within the contract's ulps
    return np.minimum(x, 0) - kernels.log1p(kernels.vector_exp(-np.abs(x)))


def np_softplus(x, beta=1.0, threshold=20.0):
    with np.errstate(over="ignore"):
        bx = x * beta
        # torch's softplus kernel: log1p(exp(x * beta)) / beta, SLEEF's lanes and std:: on the scalar ones
        return np.where(bx > threshold, x, kernels.inner("log1p", kernels.inner("exp", bx, x), x) / beta)
