"""Products and distances: cross, linalg.cross, kron, tensordot, inner, addmm, dist, cdist.

kron, tensordot and inner are built from reshapes, a product and a final view, as torch builds them, so the
recorded grad_fn names are torch's; cross, addmm, dist and cdist are single nodes with derivatives.yaml's rules.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, state
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, TorchValueError
from gradcli.engine.ops import arith, sizes
from gradcli.engine.ops.aggregates import VectorNorm, kept_dims, ord_value
from gradcli.engine.ops.common import promote, val
from gradcli.engine.ops.linalg import matmul
from gradcli.engine.ops.nn_linear import Addmm
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import UnsafeView, permute, reshape
from gradcli.engine.random import fma64
from gradcli.engine.tensor import Tensor, wrap_dim

CROSS_DIM_WARNING = (
    "Using torch.cross without specifying the dim arg is deprecated.\n"
    "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
    "The default value of dim will change to agree with that of linalg.cross in a future release. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")


class Cross(Function):
    __slots__ = ()
    name = "LinalgCrossBackward0"
    saves = (0, 1)
    saves_when = {0: 1, 1: 0}

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """linalg_cross(self_t, other_p, dim) + linalg_cross(self_p, other_t, dim)."""
        (ta, tb, _), (a, b, d) = tangents, arrays
        left = None if ta is None else Cross.forward(object.__new__(Cross), ta, b, d)
        right = None if tb is None else Cross.forward(object.__new__(Cross), a, tb, d)
        return right if left is None else left if right is None else left + right

    @staticmethod
    def forward(ctx, a, b, d):
        ctx.aux = d
        return _np_cross(a, b, d)

    @staticmethod
    def backward(ctx, g, a, b):
        d = ctx.aux
        ga, gb = ctx.needs_input_grad[:2]
        return ((_cross(b, g, d) if ga else None), (_cross(g, a, d) if gb else None))


def _np_cross(a, b, d):
    """torch's CPU kernel: out_i = a_j * b_k - a_k * b_j with the first product fused (one rounding), so x × x
    is not always exactly 0, as in torch."""
    a, b = np.broadcast_arrays(*promote(a, b))
    parts = [np.take(a, i, axis=d) for i in range(3)], [np.take(b, i, axis=d) for i in range(3)]
    (a0, a1, a2), (b0, b1, b2) = parts
    out = [fma64(x, y, -(z * w)) for x, y, z, w in ((a1, b2, a2, b1), (a2, b0, a0, b2), (a0, b1, a1, b0))]
    return np.stack(out, axis=d).astype(np.result_type(a, b), copy=False)


def _cross(a, b, d):
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        return Cross.apply(a, b, d)
    return _np_cross(a, b, d)


def _check_cross(input, other, d, name):
    if input.ndim != other.ndim:
        raise TorchRuntimeError(f"{name}: inputs must have the same number of dimensions.")
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise TorchRuntimeError(f"{name}: inputs dimension {d - input.ndim if name == 'linalg.cross' else d} must "
                                f"have length 3. Got {input.shape[d]} and {other.shape[d]}")


@register("cross", sig="linalg.cross(input, other, *, dim=-1)", doc="cross product of 3-vectors along dim",
          category="linalg", linalg=True, result_shape=sizes.broadcast)
def linalg_cross(input, other, *, dim=-1):
    d = wrap_dim(dim, max(input.ndim, 1))
    _check_cross(input, other, d, "linalg.cross")
    return Cross.apply(input, other, d)


@register("cross", sig="cross(input, other, dim=None)", doc="cross product of 3-vectors along dim",
          category="linalg", result_shape=sizes.broadcast)
def cross(input, other, dim=None):
    if dim is None:
        state.warn(CROSS_DIM_WARNING, UserWarning, stacklevel=2)
        shape = np.broadcast_shapes(input.shape, other.shape)
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise TorchRuntimeError("no dimension of size 3 in input")
    d = wrap_dim(dim, max(input.ndim, 1))
    _check_cross(input, other, d, "linalg.cross")
    return Cross.apply(input, other, d)


def _tensor_only(value, position, name, op):
    if not isinstance(value, Tensor):
        raise TorchRuntimeError(f"{op}(): argument '{name}' (position {position}) must be Tensor, not "
                                f"{type(value).__name__}")


def _kron_shape(a, b):
    n = max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + a.shape, (1,) * (n - b.ndim) + b.shape
    return sa, sb, tuple(x * y for x, y in zip(sa, sb))


@register("kron", sig="kron(input, other)", doc="Kronecker product", category="linalg",
          result_shape=lambda input, other: _kron_shape(input, other)[2])
def kron(input, other):
    _tensor_only(input, 1, "input", "kron")
    _tensor_only(other, 2, "other", "kron")
    sa, sb, out = _kron_shape(input, other)
    # torch: a viewed as (a0, 1, a1, 1, ...) times b viewed as (1, b0, 1, b1, ...), then an unsafe view
    a = reshape(input, *[v for s in sa for v in (s, 1)])
    b = reshape(other, *[v for s in sb for v in (1, s)])
    return UnsafeView.apply(arith.mul(a, b), out)


def _tensordot_dims(a, b, dims):
    if isinstance(dims, Tensor):
        dims = dims.array.tolist()
    if isinstance(dims, (int, np.integer)):
        if dims < 0:
            raise TorchRuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.ndim, b.ndim):
            raise TorchRuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(a.ndim - dims, a.ndim)), list(range(dims))
    first, second = dims
    first = [first] if isinstance(first, int) else list(first)
    second = [second] if isinstance(second, int) else list(second)
    if len(first) != len(second):
        raise TorchRuntimeError("both dimension lists should have same length")
    return [wrap_dim(d, a.ndim) for d in first], [wrap_dim(d, b.ndim) for d in second]


def _tensordot_shape(a, b, dims=2, out=None):
    da, db = _tensordot_dims(a, b, dims)
    return tuple(a.shape[i] for i in range(a.ndim) if i not in da) + tuple(
        b.shape[i] for i in range(b.ndim) if i not in db)


def _inner_shape(input, other):
    return input.shape[:-1] + other.shape[:-1] if input.ndim and other.ndim else sizes.broadcast(input, other)


@register("tensordot", sig="tensordot(a, b, dims=2)", doc="sum over the given dims of a and b (dims: int or pair)",
          category="linalg", method=False, result_shape=_tensordot_shape)
def tensordot(a, b, dims=2, out=None):
    da, db = _tensordot_dims(a, b, dims)
    for x, y in zip(da, db):
        if a.shape[x] != b.shape[y]:
            raise TorchRuntimeError(f"contracted dimensions need to match, but first has size {a.shape[x]} in dim "
                                    f"{x} and second has size {b.shape[y]} in dim {y}")
    free_a = [i for i in range(a.ndim) if i not in da]
    free_b = [i for i in range(b.ndim) if i not in db]
    k = math.prod(a.shape[i] for i in da)
    m = math.prod(a.shape[i] for i in free_a)
    n = math.prod(b.shape[i] for i in free_b)
    sizes.check_size((m, n))
    left = reshape(permute(a, *(free_a + da)), m, k)
    right = reshape(permute(b, *(db + free_b)), k, n)
    return reshape(matmul(left, right), *([a.shape[i] for i in free_a] + [b.shape[i] for i in free_b]))


@register("inner", sig="inner(input, other)", doc="sum over the last dims of input and other", category="linalg",
          result_shape=_inner_shape)
def inner(input, other):
    if input.ndim == 0 or other.ndim == 0:
        return arith.mul(input, other)
    if input.shape[-1] != other.shape[-1]:
        raise TorchRuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                                f"[{', '.join(map(str, input.shape))}] and [{', '.join(map(str, other.shape))}]")
    return tensordot(input, other, ([-1], [-1]))


@register("addmm", sig="addmm(input, mat1, mat2, *, beta=1, alpha=1)", doc="beta * input + alpha * (mat1 @ mat2)",
          category="linalg", result_shape=lambda input, mat1, mat2, **k: sizes.matmul(mat1, mat2))
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return Addmm.apply(input, mat1, mat2, beta, alpha)


class DistNorm(VectorNorm):
    """torch.dist: the p-norm of input - other, one node."""

    __slots__ = ()
    name = "DistBackward0"


class CdistNorm(VectorNorm):
    """cdist's norm over the last dim of the pair differences; torch's _cdist_backward differs from
    vector_norm's rule at p = 0 (zeros, not None) and p = inf (every tied coordinate gets the whole
    gradient, not a share)."""

    __slots__ = ()
    name = "CdistBackward0"

    @staticmethod
    def forward(ctx, x, ord, dim, keepdim):  # noqa: A002 - torch's name
        if x.shape[-1] == 0:  # rows of no columns are at distance 0, whatever p (torch's cdist)
            ctx.aux = (ord, (x.ndim - 1,), keepdim, x.shape)
            return np.zeros(x.shape[:-1], dtype=x.dtype)
        return VectorNorm.forward(ctx, x, ord, dim, keepdim)

    @staticmethod
    def backward(ctx, g, x, norm):
        p, dims, keepdim, shape = ctx.aux
        if p == 0:
            return (dual.zeros_like(x),)
        if math.isinf(p):
            xv = val(x)
            g = kept_dims(g, dims, keepdim, shape)
            nv = val(kept_dims(norm, dims, keepdim, shape))
            return (dual.where(np.abs(xv) == nv, g * dual.np_sign(xv), 0.0),)
        return VectorNorm.backward(ctx, g, x, norm)


class EuclideanDist(Function):
    """torch's _euclidean_dist, cdist's matrix-product path for p = 2 on more than 25 rows: distances from
    [-2·x1, |x1|², 1]·[x2, 1, |x2|²]ᵀ, clamped at 0 (so a point's distance to itself can come out as a small
    positive number, and its gradient with it), with torch's _euclidean_dist_backward."""

    __slots__ = ()
    name = "EuclideanDistBackward0"
    saves = (0, 1)
    saves_output = True

    @staticmethod
    def forward(ctx, x1, x2):
        x1_norm = np.sum(x1 * x1, axis=-1, keepdims=True)
        x2_norm = np.sum(x2 * x2, axis=-1, keepdims=True)
        left = np.concatenate([x1 * -2, x1_norm, np.ones_like(x1_norm)], axis=-1)
        right = np.concatenate([x2, np.ones_like(x2_norm), x2_norm], axis=-1)
        return dual.np_sqrt(np.maximum(left @ np.swapaxes(right, -1, -2), 0))  # torch: clamp_min_(0).sqrt_()

    @staticmethod
    def backward(ctx, g, x1, x2, res):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate cdist's matrix-product path twice")
        with np.errstate(all="ignore"):
            ratio = np.where(res == 0, 0.0, g / res)  # torch's subgradient 0 where a distance is 0
        need1, need2 = ctx.needs_input_grad
        g1 = x1 * ratio.sum(-1, keepdims=True) - ratio @ x2 if need1 else None
        g2 = x2 * ratio.sum(-2)[..., None] - np.swapaxes(ratio, -1, -2) @ x1 if need2 else None
        return g1, g2


def _uses_mm(x1, x2, p, compute_mode):
    """torch's choice of the matrix-product path for cdist."""
    if p != 2 or compute_mode == "donot_use_mm_for_euclid_dist":
        return False
    if compute_mode == "use_mm_for_euclid_dist":
        return True
    if compute_mode not in (None, "use_mm_for_euclid_dist_if_necessary"):
        raise TorchValueError(f"{compute_mode} is not a valid value for compute_mode")
    return x1.shape[-2] > 25 or x2.shape[-2] > 25


@register("dist", sig="dist(input, other, p=2)", doc="p-norm of input - other", category="linalg")
def dist(input, other, p=2):
    return DistNorm.apply(arith.sub(input, other), ord_value(p), None, False)


def _cdist_shape(x1, x2, p=2.0, compute_mode=None):
    """What cdist allocates on the way: every pair's difference vector."""
    batch = tuple(np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
    return batch + (x1.shape[-2], x2.shape[-2], x1.shape[-1])


@register("cdist", sig="cdist(x1, x2, p=2.0, compute_mode=None)",
          doc="p-norm distance between each row of x1 and each row of x2", category="linalg", method=False,
          result_shape=_cdist_shape)
def cdist(x1, x2, p=2.0, compute_mode=None):
    if x1.ndim < 2 or x2.ndim < 2:
        raise TorchRuntimeError(f"cdist only supports at least 2D tensors, X{1 if x1.ndim < 2 else 2} got: "
                                f"{min(x1.ndim, x2.ndim)}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise TorchRuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: "
                                f"{x2.shape[-1]}")
    if p < 0:
        raise TorchRuntimeError("cdist only supports non-negative p values")
    if _uses_mm(x1, x2, p, compute_mode) and x1.shape[-1]:
        batch = tuple(np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
        d = EuclideanDist.apply(x1.expand(*batch, *x1.shape[-2:]), x2.expand(*batch, *x2.shape[-2:]))
        return d.view(*d.shape)  # torch reshapes the result: the last node is ViewBackward0
    diff = arith.sub(x1.unsqueeze(-2), x2.unsqueeze(-3))
    return CdistNorm.apply(diff, ord_value(p), -1, False)

