"""More reductions: prod, amax/amin, std/var, norm, logsumexp, cumsum/cumprod.

As in reduction.py, rules hand back the gradient at the reduced shape (reduced dims kept as 1) where the
engine can broadcast it.  Tie and zero conventions are torch's (FunctionsManual.cpp): amax/amin share the
gradient between tied extrema, the inf-norm too; prod and cumprod are exact when inputs contain zeros.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels, sum_order
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError
from gradcli.engine.kernels import native
from gradcli.engine.ops.common import as_float, keepdim_shape, norm_dims, val
from gradcli.engine.ops.nn import logsumexp_jvp
from gradcli.engine.ops.registry import LINALG, register
from gradcli.engine.tensor import Tensor, wrap_dim


def kept_dims(g, dims, keepdim, in_shape):
    """Re-insert reduced dims as size 1, so `g` broadcasts against the input."""
    if not keepdim and dims and len(in_shape):
        g = dual.reshape(g, keepdim_shape(in_shape, dims))
    return g


def reduce_dims(dim, ndim):
    """torch's dim argument for the reductions that take a list: None or () mean every dim."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return tuple(range(ndim))
    return norm_dims(dim, ndim)


def _narrow(x, dim, start, length):
    key = (slice(None),) * dim + (slice(start, start + length),)
    return x[key]


# -- prod -------------------------------------------------------------------------------------------------

def _ones_like_slice(x, dim):
    shape = list(np.shape(val(x)))
    shape[dim] = 1
    return np.ones(shape, dtype=val(x).dtype)


def _prod_of_others(x, dim):
    """prod over `dim` of every element but the one at each position (exact with zeros), torch's
    prod_safe_zeros_backward: exclusive cumprods from the left and from the right."""
    n = np.shape(val(x))[dim]
    if n == 1:
        return np.ones_like(val(x))
    ones = _ones_like_slice(x, dim)
    left = dual.cumprod(dual.cat([ones, _narrow(x, dim, 0, n - 1)], dim), dim)
    right_rev = dual.cumprod(dual.cat([ones, dual.flip(_narrow(x, dim, 1, n - 1), (dim,))], dim), dim)
    return left * dual.flip(right_rev, (dim,))


class Prod(Function):
    __slots__ = ()
    name = "ProdBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        x = as_float(x) if x.dtype.kind == "b" else x
        if dim is None:
            ctx.aux = None
            return np.asarray(np.prod(x))
        d = wrap_dim(dim, x.ndim)
        ctx.aux = (d, keepdim)
        if x.ndim == 0:
            return x.copy()
        return np.prod(x, axis=d, keepdims=keepdim)

    @staticmethod
    def backward(ctx, g, x, out):
        xv = val(x)
        if xv.ndim == 0:
            return (g,)
        if ctx.aux is None:  # over every element: flatten, as torch does
            if not (xv == 0).any():
                return (g * (out / x),)
            flat = dual.reshape(x, (xv.size,))
            return (g * dual.reshape(_prod_of_others(flat, 0), xv.shape),)
        d, keepdim = ctx.aux
        g = kept_dims(g, (d,), keepdim, xv.shape)
        out = kept_dims(out, (d,), keepdim, xv.shape)
        if not (xv == 0).any():
            return (g * (out / x),)
        return (g * _prod_of_others(x, d),)


class ProdDim(Prod):
    __slots__ = ()
    name = "ProdBackward1"


@register("prod", sig="prod(input, dim=None, keepdim=False)", doc="product of all elements, or over dim",
          category="reduction")
def prod(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return Prod.apply(input, None, False)
    return ProdDim.apply(input, int(dim), keepdim)


# -- amax / amin ------------------------------------------------------------------------------------------

class Amax(Function):
    __slots__ = ()
    name = "AmaxBackward0"
    largest = True
    saves = (0,)  # torch saves self and result: an in-place edit of either (abs_() of the result) makes
    saves_output = True  # backward raise, as torch's version counter does

    @classmethod
    def forward(cls, ctx, x, dim, keepdim):
        dims = reduce_dims(dim, x.ndim)
        empty = [d for d in dims if x.shape[d] == 0]
        if empty:
            given = dim if isinstance(dim, (int, np.integer)) else \
                next(d for d in dim if wrap_dim(d, x.ndim) == empty[0])  # as the user wrote it: -1 stays -1
            raise TorchIndexError(f"{'amax' if cls.largest else 'amin'}(): Expected reduction dim {given} to "
                                  "have non-zero size.")
        if x.size == 0 and not dims:
            raise TorchRuntimeError(f"{'amax' if cls.largest else 'amin'}(): Expected reduction dim to be "
                                    "specified for input.numel() == 0.")
        fn = np.max if cls.largest else np.min
        kept = fn(x, axis=dims, keepdims=True) if x.ndim else x.copy()  # a new tensor, never x itself
        ctx.aux = (dims, keepdim, x.shape)  # the mask of the extrema is found in backward, when it is needed
        return kept if keepdim or not x.ndim else np.squeeze(kept, axis=dims)

    @staticmethod
    def backward(ctx, g, x, result):
        dims, keepdim, shape = ctx.aux
        xv, kept = val(x), val(result)
        if xv.ndim and not keepdim:
            kept = np.reshape(kept, keepdim_shape(shape, dims))
        mask = xv == kept  # a nan maximum matches nothing: torch's grad / 0 * mask makes every gradient nan
        count = np.sum(mask, axis=dims if xv.ndim else None, keepdims=True).astype(xv.dtype)
        mask = mask.astype(xv.dtype)
        g = kept_dims(g, dims, keepdim, shape)
        return (g / count * mask,)  # torch: scale_grad_by_count(grad, result == self)


class Amin(Amax):
    __slots__ = ()
    name = "AminBackward0"
    largest = False


@register("amax", sig="amax(input, dim=(), keepdim=False)",
          doc="largest value over dims (ties share the gradient evenly)", category="reduction")
def amax(input, dim=(), keepdim=False):
    return Amax.apply(input, dim, keepdim)


@register("amin", sig="amin(input, dim=(), keepdim=False)",
          doc="smallest value over dims (ties share the gradient evenly)", category="reduction")
def amin(input, dim=(), keepdim=False):
    return Amin.apply(input, dim, keepdim)


# -- var / std --------------------------------------------------------------------------------------------

def var_args(dim, unbiased, correction):
    if isinstance(dim, bool):  # x.var(False): the old `unbiased` positional form
        unbiased, dim = dim, None
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    return dim, float(correction)


def var_forward(ctx, x, dim, correction, keepdim, one_pass=False):
    """The variance over `dim` in double for float32 input.  `one_pass`: var_mean/std_mean's kernel, Welford's
    for a one-element result too (torch's std_var_all_cpu serves var and std only)."""
    if x.dtype.kind != "f":
        raise TorchRuntimeError("std and var only support floating point and complex dtypes")
    dims = reduce_dims(dim, x.ndim)
    n = 1
    for d in dims:
        n *= x.shape[d]
    if not x.ndim:
        n = 1
    ctx.aux = (dims, keepdim, x.shape, n, correction, dim is None or not x.ndim)
    axis = dims if x.ndim else None
    if x.size == n and n and x.dtype.kind == "f" and x.dtype.itemsize >= 4 and not one_pass:
        with np.errstate(all="ignore"):
            whole = _var_all(x, correction)
        if whole is not None:  # the kept dims (all of size 1 here) stay, as torch keeps them
            shape = (1,) * x.ndim if keepdim else tuple(s for d, s in enumerate(x.shape) if d not in dims)
            return np.full(shape, whole)  # in double: std rounds its square root once, as torch
    if x.ndim and n and (x.size > n or one_pass) and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        with np.errstate(all="ignore"):
            _, m2 = welford(x, dims)
            divisor = n - correction if n > correction else 0.0
            shape = keepdim_shape(x.shape, dims) if keepdim else tuple(
                s for d, s in enumerate(x.shape) if d not in dims)
            return (m2 / divisor).reshape(shape)
    with np.errstate(all="ignore"):
        mean = np.sum(x, axis=axis, keepdims=True) / n  # np.mean's own sum; no warning when empty
        if x.dtype == np.float32:
            # torch's CPU kernels keep a float32 variance (and its square root) in double, the caller rounds
            # once: Welford in double in general; for a one-element result (std_var_all_cpu) squares of the
            # deviations from the float32 mean, summed in double
            wide = x.astype(np.float64)
            mean = mean.astype(np.float64) if x.size == n else np.sum(wide, axis=axis, keepdims=True) / n
            centred = np.subtract(wide, mean, out=wide)  # the copy in double is this call's own: in place
        else:
            centred = x - mean
        centred *= centred  # the same products, without another array of the input's size
        return np.sum(centred, axis=axis, keepdims=keepdim) / max(n - correction, 0)


def _var_backward(ctx, g, x):
    dims, keepdim, shape, n, correction, full = ctx.aux
    g = kept_dims(g, dims, keepdim, shape)
    axis = dims if len(shape) else None
    if type(x) is np.ndarray and x.ndim and x.dtype.kind == "f":
        # torch's var_backward: self.mean(dim, keepdim=True), its CPU mean being sum(...).div_(n) in its order
        mean = sum_order.torch_sum(x, tuple(dims), True) / x.dtype.type(n)
    else:
        mean = dual.sum(x, axis=axis, keepdims=True) / n
    if full and n - correction <= 0:
        # torch's var_backward with no dim and no degrees of freedom: 2 / dof is infinite, so nan where an
        # element equals the mean (inf * 0) and inf elsewhere, whatever the sign of (x - mean)
        return g * np.where(val(x) == val(mean), np.nan, np.inf).astype(val(x).dtype)
    coef = 2.0 / (n - correction) if n != correction else math.inf  # inf * 0 = nan, as torch
    return coef * g * (x - mean)


class Var(Function):
    __slots__ = ()
    name = "VarBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        return var_forward(ctx, x, dim, correction, keepdim).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, x):
        with np.errstate(all="ignore"):
            return (_var_backward(ctx, g, x),)


class Std(Function):
    __slots__ = ()
    name = "StdBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        return np.sqrt(var_forward(ctx, x, dim, correction, keepdim)).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, x, out):
        with np.errstate(all="ignore"):
            grad_var = dual.where(val(out) == 0, 0.0, g / (out * 2))
            return (_var_backward(ctx, grad_var, x),)


@register("var", sig="var(input, dim=None, *, correction=1, keepdim=False)",
          doc="variance (correction=1: unbiased; unbiased=False: correction=0)", category="reduction")
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction = var_args(dim, unbiased, correction)
    return Var.apply(input, dim, correction, keepdim)


@register("std", sig="std(input, dim=None, *, correction=1, keepdim=False)",
          doc="standard deviation (correction=1: unbiased; unbiased=False: correction=0)", category="reduction")
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction = var_args(dim, unbiased, correction)
    return Std.apply(input, dim, correction, keepdim)


# -- vector norms -----------------------------------------------------------------------------------------

def ord_value(p) -> float:
    if isinstance(p, str):
        if p == "fro":
            return 2.0
        raise TorchRuntimeError(f"norm with p='{p}' is not supported by gradcli (only numbers and 'fro')")
    return float(p)


class VectorNorm(Function):
    __slots__ = ()
    name = "LinalgVectorNormBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, x, ord, dim, keepdim):  # noqa: A002 - torch's name
        if x.dtype.kind != "f":
            raise TorchRuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. "
                                    f"Got {_dtype_title(x)}")
        dims = reduce_dims(dim, x.ndim)
        ctx.aux = (ord, dims, keepdim, x.shape)
        axis = dims if x.ndim else None
        if ord == 2 and x.size > 1 and x.ndim:  # |x|**2 is x*x: no pass for abs
            with np.errstate(all="ignore"):
                if math.prod(x.shape[d] for d in dims) != 1:
                    whole = len(dims) == x.ndim
                    if whole and x.dtype.type in (np.float32, np.float64) and x.flags.c_contiguous and \
                            kernels.exact():
                        out = _torch_two_norm(x.reshape(-1))
                        return out.reshape((1,) * x.ndim) if keepdim else out
                    if whole and x.dtype.char in "fd" and x.flags.c_contiguous:
                        # the fast mode's norm of a whole tensor: one pass, the sum of squares as a dot product
                        # (within a few ulps of the exact norm; torch's 8 float32 lanes are 150 ulps from it on
                        # 10**6 normal values); x * x and a pairwise sum were two passes, 2.3x torch's time
                        flat = x.reshape(-1)
                        out = np.sqrt(np.dot(flat, flat))
                        return out.reshape((1,) * x.ndim) if keepdim else out
                    return np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdim))
        a = np.abs(x)
        with np.errstate(all="ignore"):
            if ord == 0:
                return np.sum(a != 0, axis=axis, keepdims=keepdim).astype(x.dtype)
            if math.isinf(ord) and (a.size == 0 or any(x.shape[d] == 0 for d in dims)):
                where = (f"on the dimension {dim if isinstance(dim, int) else next(d for d in dims if not x.shape[d])}"
                         "because this dimension is empty and" if dim is not None and x.ndim else
                         "on an empty tensor because")  # torch's text, its missing space included
                raise TorchRuntimeError(f"linalg.vector_norm cannot compute the {'-' if ord < 0 else ''}inf norm "
                                        f"{where} the operation does not have an identity")
            if ord == math.inf:
                return np.max(a, axis=axis, keepdims=keepdim)
            if ord == -math.inf:
                return np.min(a, axis=axis, keepdims=keepdim)
            if math.prod(x.shape[d] for d in dims) == 1 and ord != 0:
                # one element per result: torch returns |x| without raising it to ord (no overflow), for any ord
                return a if keepdim or not x.ndim else np.squeeze(a, axis=dims)
            if x.dtype.type in (np.float32, np.float64) and ord != 2:
                return _norm_in_order(a, ord, dims, keepdim)
            if ord == 1:
                return np.sum(a, axis=axis, keepdims=keepdim)
            if ord == 2:
                return np.sqrt(np.sum(a * a, axis=axis, keepdims=keepdim))
            return np.power(np.sum(np.power(a, ord), axis=axis, keepdims=keepdim), 1.0 / ord)

    @staticmethod
    def backward(ctx, g, x, norm):
        p, dims, keepdim, shape = ctx.aux
        xv = val(x)
        g = kept_dims(g, dims, keepdim, shape)
        norm = kept_dims(norm, dims, keepdim, shape)
        nv = val(norm)
        with np.errstate(all="ignore"):
            if p == 0:
                return (None,)  # torch: the count of non-zeros has no gradient (.grad stays None)
            sgn = dual.np_sign(xv)
            if p == 1:  # self.sgn() * grad: under create_graph sgn is a node of its own (the result requires grad)
                return (g * (dual.sign(x) if isinstance(x, Tensor) else sgn),)
            if p == 2:
                return (g * dual.where(nv == 0, 0.0, x / norm),)
            if math.isinf(p):  # self.sgn() * ((grad / mask.sum(dim, true)) * mask), mask: |x| == norm or nan
                a = np.abs(xv)
                mask = (a == nv) | np.isnan(a)
                count = np.sum(mask, axis=dims if xv.ndim else None, keepdims=True).astype(xv.dtype)
                return ((dual.sign(x) if isinstance(x, Tensor) else sgn) * ((g / count) * mask.astype(xv.dtype)),)
            if p < 1:
                scaled = dual.where(xv == 0, 0.0, sgn * dual.pow(dual.abs(x), p - 1))
                return (scaled * g * dual.pow(norm, 1 - p),)
            if p < 2:
                scaled = sgn * dual.pow(dual.abs(x), p - 1)
            else:
                scaled = x * dual.pow(dual.abs(x), p - 2)
            scale = dual.where(nv == 0, 0.0, g / dual.pow(norm, p - 1))
            return (scaled * scale,)


def _torch_two_norm(x: np.ndarray) -> np.ndarray:
    """torch's 2-norm of a whole contiguous float32/float64 tensor (flattened), to the bit: ATen's norm_cpu
    accumulates in one vector register (AVX2: 8 floats, 4 doubles), adding each block's squares lane by lane in
    order, then the lanes left to right, then the tail's squares one by one (float64: fused), then sqrt (checked
    against torch 2.13 on every length to 300 and up to 10**5, both dtypes: tests/engine/test_vector_norm_order.py).
    Norms over a dim take another order in torch (their short rows' tails fused multiply-adds, not always): those
    keep numpy's sum."""
    lanes = 32 // x.itemsize
    length = x.size
    n = length - length % lanes
    with np.errstate(all="ignore"):
        blocks = x[:n].reshape(n // lanes, lanes)
        # a reduction over a dim that is not the innermost adds in order (numpy's pairwise sum is the innermost's)
        acc = np.add.reduce(blocks * blocks, axis=0) if n else np.zeros(lanes, x.dtype)
        total = acc[0].copy()
        for j in range(1, lanes):
            total += acc[j]
        fused = x.dtype == np.float64  # the double kernel's tail is compiled into fused multiply-adds, the float's
        for j in range(n, length):     # not (checked on every length to 300: float64 length 43 tells them apart)
            total = kernels.fma(x[j], x[j], total)[()] if fused else total + x[j] * x[j]
        return np.sqrt(total)


def _norm_in_order(a: np.ndarray, p: float, dims: tuple, keepdim: bool) -> np.ndarray:
    """linalg.vector_norm of |x| = `a` for p other than 0, 2 and +-inf, as ATen's binary_kernel_reduce runs
    NormOneOps / NormOps: per result, acc = 0 then acc + |x|**p element by element (std::pow, in the input's
    dtype) in TensorIterator's order (the reduced dims innermost, the smallest stride fastest), then acc**(1/p); a
    reduction of everything to one value of at least GRAIN_SIZE elements is split among the threads
    (parallel_for's chunks, each from 0) and their partial sums added in thread order."""
    dtype = a.dtype.type
    kept = [d for d in range(a.ndim) if d not in dims]
    order = sorted(dims, key=lambda d: -abs(a.strides[d]))  # outermost first: the last varies fastest
    rows = np.transpose(a, kept + order).reshape(math.prod(a.shape[d] for d in kept),
                                                 math.prod(a.shape[d] for d in order))
    terms = rows if p == 1 else kernels.pow_scalar_loop(rows, p)
    n = terms.shape[1]
    if n == 0:
        acc = np.zeros(terms.shape[0], dtype)
    elif terms.shape[0] == 1 and n >= kernels.GRAIN_SIZE and kernels.THREADS > 1:
        count = min(kernels.THREADS, -(-n // kernels.GRAIN_SIZE))
        chunk = -(-n // count)
        total = dtype(0)
        for start in range(0, n, chunk):
            total = dtype(total + np.add.accumulate(terms[0, start:start + chunk])[-1])
        acc = np.array([total], dtype)
    else:
        acc = np.add.accumulate(terms, axis=1)[:, -1]  # (numpy's accumulate adds in order, unlike its sum)
    if p != 1:
        acc = kernels.pow_scalar_loop(acc, dtype(1) / dtype(p))  # compat_pow(acc, acc_t(1.0) / norm_)
    shape = tuple(1 if d in dims else a.shape[d] for d in range(a.ndim)) if keepdim else \
        tuple(a.shape[d] for d in kept)
    return acc.reshape(shape)


def _dtype_title(x) -> str:
    return {"i": "Long", "b": "Bool", "u": "Byte"}.get(x.dtype.kind, str(x.dtype))


def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    return VectorNorm.apply(input, ord_value(ord), dim, keepdim)


register("vector_norm", sig="linalg.vector_norm(input, ord=2, dim=None, keepdim=False)",
         doc="vector p-norm over dims (all dims by default)", category="reduction", linalg=True,
         method=False)(vector_norm)


@register("norm", sig="norm(input, p='fro', dim=None, keepdim=False)",
          doc="vector p-norm (p = number, inf or 'fro') over all elements or dim; 'nuc': the nuclear norm",
          category="reduction")
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    if isinstance(p, str) and (p != "fro" or not (dim is None or isinstance(dim, int) or len(dim) <= 2)):
        # torch/functional.py: a matrix norm over dim (all dims by default); 'fro' over more than two dims too
        # (matrix_norm's own error)
        dims = list(range(input.ndim)) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
        return LINALG["matrix_norm"].fn(input, p, dims, keepdim)
    return VectorNorm.apply(input, ord_value(2.0 if p is None else p), dim, keepdim)


# -- logsumexp --------------------------------------------------------------------------------------------

class LogSumExp(Function):
    __slots__ = ()
    name = "LogsumexpBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """logsumexp_jvp(self_p, self_t, dim, keepdim)."""
        dims, keepdim, _ = ctx.aux
        return logsumexp_jvp(arrays[0], tangents[0], dims, keepdim)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        x = as_float(x)
        dims = reduce_dims(dim, x.ndim)
        ctx.aux = (dims, keepdim, x.shape)
        if x.ndim == 0:
            return x.copy()
        with np.errstate(all="ignore"):
            m = np.max(x, axis=dims, keepdims=True, initial=-np.inf)  # an empty dim: log(0) = -inf, as torch
            m = np.where(np.isinf(m), 0.0, m)  # an infinite max would give inf - inf
            # torch's (x - max).exp_(), sum, log_(): one temporary, exponentiated in place; the sum is at::sum's
            # (ATen's order: numpy's pairwise/columnwise order differed by an ulp, float64 [3,-inf,2,0,1,2])
            e = kernels.exp_(x - m)
            total = sum_order.torch_sum(e, dims, True) if e.size else None
            if total is None:  # half, bfloat16, empty: numpy's
                total = np.sum(e, axis=dims, keepdims=True)
            out = kernels.log(total) + m
        return out if keepdim else np.squeeze(out, axis=dims)

    @staticmethod
    def backward(ctx, g, x, out):
        dims, keepdim, shape = ctx.aux  # (a 0-d input too: grad * exp(x - result), nan at +-inf, as torch's)
        g = kept_dims(g, dims, keepdim, shape)
        out = kept_dims(out, dims, keepdim, shape)
        if type(x) is np.ndarray and type(g) is np.ndarray and x.dtype.kind == "f":
            # torch's grad * (self - result).exp(), in one temporary: fresh memory costs as much as the exp
            t = kernels.exp_(np.asarray(np.subtract(x, out, dtype=np.result_type(x, out))))  # (0-d: an array)
            if np.result_type(g, t) == t.dtype and np.broadcast_shapes(g.shape, t.shape) == t.shape:
                return (np.multiply(g, t, out=t),)
            return (g * t,)
        return (g * dual.exp(x - out),)


@register("logsumexp", sig="logsumexp(input, dim, keepdim=False)", doc="log(sum(exp(input))) over dim, stably",
          category="reduction")
def logsumexp(input, dim, keepdim=False):
    return LogSumExp.apply(input, dim, keepdim)


# -- cumulative -------------------------------------------------------------------------------------------

class CumSum(Function):
    """Running sum along dim; CumProd shares this forward with another kernel."""

    __slots__ = ()
    jvp = LINEAR
    name = "CumsumBackward0"
    kernel = staticmethod(np.cumsum)

    @staticmethod
    def forward(ctx, x, dim):
        if x.dtype.kind in "bui":
            x = x.astype(np.int64)
        d = wrap_dim(dim, x.ndim)
        ctx.aux = d
        return x.copy() if x.ndim == 0 else dual.running(ctx.kernel, x, d)

    @staticmethod
    def backward(ctx, g):
        d = ctx.aux
        if g.ndim == 0:
            return (g,)
        return (dual.flip(dual.cumsum(dual.flip(g, (d,)), d), (d,)),)


@register("cumsum", sig="cumsum(input, dim)", doc="running sum along dim", category="reduction")
def cumsum(input, dim, *, dtype=None):
    return CumSum.apply(input, dim)


class CumProd(CumSum):
    __slots__ = ()
    name = "CumprodBackward0"
    kernel = staticmethod(np.cumprod)
    saves = (0,)
    saves_output = True

    @staticmethod
    def backward(ctx, g, x, out):
        d = ctx.aux
        xv = val(x)
        if xv.size <= 1 or xv.shape[d] == 1:
            return (g,)
        if not (xv == 0).any():
            w = g * out
            return (dual.flip(dual.cumsum(dual.flip(w, (d,)), d), (d,)) / x,)
        # With zeros, torch's formula: for each k, sum_j>=k g_j * prod_{i<=j, i!=k} x_i, built from
        # the output before k and cumulative products after k (differentiable, exact).
        n = xv.shape[d]
        ones = _ones_like_slice(x, d)
        pieces = []
        for k in range(n):
            if k == 0:
                omitted = dual.cat([ones, dual.cumprod(_narrow(x, d, 1, n - 1), d)], d)
            elif k == n - 1:
                omitted = _narrow(out, d, k - 1, 1)
            else:
                before = _narrow(out, d, k - 1, 1)
                omitted = dual.cat([before, before * dual.cumprod(_narrow(x, d, k + 1, n - k - 1), d)], d)
            pieces.append(dual.sum(_narrow(g, d, k, n - k) * omitted, axis=d, keepdims=True))
        return (dual.cat(pieces, d),)


@register("cumprod", sig="cumprod(input, dim)", doc="running product along dim (exact with zeros)",
          category="reduction")
def cumprod(input, dim, *, dtype=None):
    return CumProd.apply(input, dim)


def welford(x: np.ndarray, dims) -> tuple[np.ndarray, np.ndarray]:
    """torch's std_var_kernel over `dims` when the result has more than one element: WelfordOps in double,
    each output's elements one after another in TensorIterator's order (binary_kernel_reduce never splits
    them then: foreach_reduced_elt hands each thread whole outputs).  (mean, m2) per output, in the output's
    row-major order."""
    if any(s < 0 for s in x.strides):
        x = np.ascontiguousarray(x)  # torch's flip is a copy: row-major
    ndim, item = x.ndim, x.itemsize
    kept = [d for d in range(ndim) if d not in dims]
    out_strides, run = [0] * ndim, 1
    for d in reversed(kept):
        out_strides[d] = run
        run *= x.shape[d]
    perm = kernels.loops.reorder_dimensions(range(ndim - 1, -1, -1), x.shape,
                                            (out_strides, [s // item for s in x.strides]), reduction=True)
    inner_last = [d for d in reversed(perm) if d in dims]  # the reduced dims, outermost first
    k = math.prod(x.shape[d] for d in dims)
    rows = np.transpose(x, kept + inner_last).reshape(-1, k)
    reduce = native.welford() or welford_reference
    if rows.shape[0] > 1 or k < kernels.GRAIN_SIZE or kernels.THREADS == 1:
        return reduce(rows)
    # one output (var_mean's): at::parallel_for's ranges, one per thread, each reduced from the start, then
    # WelfordOps::combine in thread order
    chunk = -(-k // min(kernels.THREADS, -(-k // kernels.GRAIN_SIZE)))
    mean, m2, count = 0.0, 0.0, 0.0
    for begin in range(0, k, chunk):
        (b_mean,), (b_m2,) = reduce(rows[:, begin:begin + chunk])
        b_count = float(min(chunk, k - begin))
        if count == 0:
            mean, m2, count = float(b_mean), float(b_m2), b_count
            continue
        delta = float(b_mean) - mean
        new_count = count + b_count
        nb_over_n = b_count / new_count
        mean, m2, count = mean + delta * nb_over_n, m2 + float(b_m2) + delta * delta * count * nb_over_n, new_count
    return np.array([mean]), np.array([m2])


def welford_reference(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """WelfordOps::reduce along each row in double, the rows side by side (numpy's form of the compiled
    loop: one pass per column, fine for the short reductions it meets without a compiler)."""
    mean = np.zeros(rows.shape[0])
    m2 = np.zeros(rows.shape[0])
    for i in range(rows.shape[1]):
        value = rows[:, i].astype(np.float64)
        delta = value - mean
        mean = mean + delta / float(i + 1)
        m2 = m2 + delta * (value - mean)
    return mean, m2


def _sequential(values: np.ndarray) -> float:
    """values summed one after another from 0.0 (a C loop's `s += v`), not numpy's pairwise sum."""
    return float(np.cumsum(values)[-1]) if values.size else 0.0


def _var_all(x: np.ndarray, correction: float):
    """torch's std_var_all_cpu (the variance when the result has one element), in double: the mean as
    self.mean() gives it (torch's sum order, in x's dtype), then the squared deviations summed in
    TensorIterator's order (memory order, its dims coalesced) by at::parallel_reduce: split into one range per
    thread over GRAIN_SIZE elements, each range summed loop call by loop call (serial_for_each's 2-D steps:
    a partial row, whole rows, a partial row), each call's sum from 0.0 added to the range's.  None where
    the layout is not one this covers (the caller's general path then)."""
    n = x.size
    if any(s < 0 for s in x.strides):
        x = np.ascontiguousarray(x)  # torch's flip is a copy: row-major
    dims = sorted((d for d in range(x.ndim) if x.shape[d] > 1), key=lambda d: x.strides[d])
    shape, strides = [], []
    for d in dims:  # coalesce, fastest dim first
        if shape and strides[-1] * shape[-1] == x.strides[d]:
            shape[-1] *= x.shape[d]
        else:
            shape.append(x.shape[d])
            strides.append(x.strides[d])
    if len(shape) > 2:
        return None
    mean = float(sum_order.torch_sum(x, (), False) / x.dtype.type(n))
    ordered = np.lib.stride_tricks.as_strided(x, tuple(reversed(shape)), tuple(reversed(strides))).reshape(-1) \
        if shape else x.reshape(-1)
    compiled = native.squared_deviations()
    if compiled is None:
        dev = ordered.astype(np.float64) - mean
        dev *= dev
    threads = min(kernels.THREADS, -(-n // kernels.GRAIN_SIZE)) if n > kernels.GRAIN_SIZE else 1
    chunk = -(-n // threads)
    row = shape[0] if len(shape) == 2 else n
    total = 0.0
    for begin in range(0, n, chunk):
        end, offset, part = min(n, begin + chunk), begin, 0.0
        while offset < end:
            if offset % row:
                step = min(row - offset % row, end - offset)
            else:
                step = max((end - offset) // row, 1) * row if end - offset >= row else end - offset
            part += compiled(ordered[offset:offset + step], mean) if compiled is not None \
                else _sequential(dev[offset:offset + step])
            offset += step
        total += part
    return np.float64(total) / np.float64(max(0.0, n - correction))  # inf or nan without degrees of freedom, as torch
