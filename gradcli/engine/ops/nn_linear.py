"""torch.nn.functional's linear, normalize and cosine_similarity, composed from ops exactly as torch composes
them (so values, gradients and grad_fn names agree), plus clamp_min/clamp_max and xlogy."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual, kernels
from gradcli.engine.autograd import ELEMENT_WISE, Function, no_grad
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.kernels import blas
from gradcli.engine.kernels import float32 as float32_kernels
from gradcli.engine.ops import arith, shape, sizes
from gradcli.engine.ops.aggregates import VectorNorm, norm
from gradcli.engine.ops.common import c_name, dtype_title, mixed_floats, promote, val
from gradcli.engine.ops.convert import clone
from gradcli.engine.ops.linalg import matmul
from gradcli.engine.ops.reduction import sum as _sum
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor, wrap_dim

# -- clamp_min, clamp_max, xlogy ----------------------------------------------------------------------------


class ClampMin(Function):
    __slots__ = ()
    jvp = ELEMENT_WISE
    name = "ClampMinBackward0"
    saves = (0,)
    uniform_grad_ok = True
    upper = False

    @classmethod
    def forward(cls, ctx, x, bound):
        ctx.aux = bound
        with np.errstate(invalid="ignore"):
            out = np.minimum(x, bound) if cls.upper else np.maximum(x, bound)
        return out.astype(x.dtype, copy=False) if x.dtype.kind == "f" else out

    @classmethod
    def backward(cls, ctx, g, x):
        xv = val(x)
        return (dual.where(xv <= ctx.aux if cls.upper else xv >= ctx.aux, g, 0.0),)


class ClampMax(ClampMin):
    __slots__ = ()
    name = "ClampMaxBackward0"
    upper = True


class ClampMinTensor(Function):
    """clamp_min with a tensor bound: the bound gets the gradient where it wins (strictly)."""

    __slots__ = ()
    name = "ClampMinBackward1"
    saves = (0, 1)
    uniform_grad_ok = True
    upper = False

    @classmethod
    def forward(cls, ctx, x, bound):
        x, bound = promote(x, bound)
        with np.errstate(invalid="ignore"):
            return np.minimum(x, bound) if cls.upper else np.maximum(x, bound)

    @classmethod
    def backward(cls, ctx, g, x, bound):
        xv, bv = val(x), val(bound)
        need_x, need_b = ctx.needs_input_grad
        keep = xv <= bv if cls.upper else xv >= bv
        return (dual.where(keep, g, 0.0) if need_x else None), (dual.where(keep, 0.0, g) if need_b else None)


class ClampMaxTensor(ClampMinTensor):
    __slots__ = ()
    name = "ClampMaxBackward1"
    upper = True


@register("clamp_min", sig="clamp_min(input, min)", doc="max(input, min) (gradient 1 at the bound)",
          category="elementwise", result_shape=sizes.broadcast)
def clamp_min(input, min):  # noqa: A002 - torch's name
    if isinstance(min, Tensor):
        return ClampMinTensor.apply(input, min)
    return ClampMin.apply(input, float(min))


@register("clamp_max", sig="clamp_max(input, max)", doc="min(input, max) (gradient 1 at the bound)",
          category="elementwise", result_shape=sizes.broadcast)
def clamp_max(input, max):  # noqa: A002 - torch's name
    if isinstance(max, Tensor):
        return ClampMaxTensor.apply(input, max)
    return ClampMax.apply(input, float(max))


def _np_xlogy(x, y):
    with np.errstate(all="ignore"):
        # torch's xlogy kernel: a scalar loop, x * std::log(y)
        return np.where((x == 0) & ~np.isnan(y), 0.0, x * kernels.scalar("log", y))


class Xlogy(Function):
    __slots__ = ()
    name = "XlogyBackward0"
    saves = (0, 1)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, y):
        x, y = promote(x, y)
        if np.result_type(x, y).kind != "f":
            x, y = np.asarray(x, dtype=np.float32), np.asarray(y, dtype=np.float32)
        return np.asarray(_np_xlogy(x, y), dtype=np.result_type(x, y))

    @staticmethod
    def backward(ctx, g, x, y):
        gx_need, gy_need = ctx.needs_input_grad
        gx = gy = None
        with np.errstate(all="ignore"):
            if gx_need:
                # torch: xlogy(grad, other), masked to 0 where self == 0 and other <= 0; xlogy(0, nan) is nan
                xv, yv, gv = val(x), val(y), val(g)
                # (xlogy's kernel: std::log, kernels.scalar; on Tensors the differentiable log)
                # (a number `other` is wrapped in grad's dtype, as at::xlogy(grad, other) computes)
                log_y = dual.log(y) if isinstance(y, Tensor) else kernels.scalar("log", np.dtype(gv.dtype).type(y))
                gx = dual.where(((xv == 0) & (yv <= 0)) | ((gv == 0) & ~np.isnan(yv)), 0.0, g * log_y)
            if gy_need:
                gy = g * x / y
        return gx, gy


@register("xlogy", sig="xlogy(input, other)", doc="input * log(other), 0 where input is 0", category="elementwise",
          result_shape=sizes.broadcast)
def xlogy(input, other):
    # derivatives.yaml's overloads: xlogy.Scalar_Self is XlogyBackward1, xlogy.Scalar_Other XlogyBackward2
    if not isinstance(other, Tensor):
        return XlogyScalarOther.apply(input, other)
    if not isinstance(input, Tensor):
        return XlogyScalarSelf.apply(input, other)
    return Xlogy.apply(input, other)


class XlogyScalarSelf(Xlogy):
    __slots__ = ()
    name = "XlogyBackward1"


class XlogyScalarOther(Xlogy):
    """derivatives.yaml: xlogy(grad, other), masked to 0 where self == 0 unless other > 0: Xlogy's rule."""

    __slots__ = ()
    name = "XlogyBackward2"


# -- linear ---------------------------------------------------------------------------------------------------

class Addmm(Function):
    """beta * input + alpha * (mat1 @ mat2), as torch's addmm (linear's bias + input @ weight.T)."""

    __slots__ = ()
    name = "AddmmBackward0"
    saves = (1, 2)
    saves_when = {1: 2, 2: 1}

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """maybe_multiply(self_t, beta) + maybe_multiply(mat1_t.mm(mat2_p), alpha)
        + maybe_multiply(mat1_p.mm(mat2_t), alpha), the undefined terms left out."""
        beta, alpha = ctx.aux
        (tb, t1, t2), (_, mat1, mat2) = tangents[:3], arrays[:3]
        terms = [None if tb is None else (tb * beta if beta != 1 else tb)]
        for t, (a, b) in ((t1, (t1, mat2)), (t2, (mat1, t2))):
            if t is not None:
                product = dual.np_matmul(a, b)
                terms.append(product * alpha if alpha != 1 else product)
        total = None
        for term in terms:
            if term is not None:
                total = term if total is None else total + term
        return total

    @staticmethod
    def forward(ctx, bias, mat1, mat2, beta=1, alpha=1):
        if mat1.ndim != 2 or mat2.ndim != 2:
            bad = mat1 if mat1.ndim != 2 else mat2
            raise TorchRuntimeError(f"{'mat1' if bad is mat1 else 'mat2'} must be a matrix, got {bad.ndim}-D tensor")
        if mat1.shape[1] != mat2.shape[0]:
            raise TorchRuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x{mat1.shape[1]} "
                                    f"and {mat2.shape[0]}x{mat2.shape[1]})")
        if mixed_floats(mat1, mat2):
            raise TorchRuntimeError(f"expected m1 and m2 to have the same dtype, but got: {c_name(mat1)} != "
                                    f"{c_name(mat2)}")
        if mixed_floats(bias, mat2):
            raise TorchRuntimeError(f"self and mat2 must have the same dtype, but got {dtype_title(bias.dtype)} and "
                                    f"{dtype_title(mat2.dtype)}")
        try:
            np.broadcast_shapes(np.shape(bias), (mat1.shape[0], mat2.shape[1]))
        except ValueError:
            raise TorchRuntimeError(f"The expanded size of the tensor ({mat2.shape[1]}) must match the existing "
                                    f"size ({np.shape(bias)[-1]}) at non-singleton dimension 1.") from None
        ctx.aux = (beta, alpha)
        if type(bias) is np.ndarray and bias.dtype == mat1.dtype:
            exact = blas.addmm(bias, mat1, mat2, beta, alpha)  # MKL's ?gemm as ATen calls it, when installed
            if exact is not None:
                return exact
        if beta == 1 and alpha == 1:
            exact = float32_kernels.addmm(bias, mat1, mat2)  # MKL's order, where it is established
            if exact is not None and exact.dtype == mat1.dtype:
                return exact
        bias, prod = promote(bias, np.matmul(mat1, mat2))
        if alpha != 1:
            prod = prod * alpha
        if beta == 0:  # torch: beta = 0 ignores input (nan included)
            return np.broadcast_to(prod, prod.shape).copy()
        return (bias * beta if beta != 1 else bias) + prod

    @staticmethod
    def backward(ctx, g, mat1, mat2):
        beta, alpha = ctx.aux
        gb, g1, g2 = ctx.needs_input_grad[:3]
        scaled = g * alpha if alpha != 1 else g
        if type(g) is np.ndarray and type(mat1) is np.ndarray and type(mat2) is np.ndarray and (g1 or g2):
            # mm_mat1_backward / mm_mat2_backward (maybe_multiply: grad * alpha after the product)
            grads = blas.mm_backward(g, mat1, mat2, g1, g2)
            if (grads[0] is not None or not g1) and (grads[1] is not None or not g2):
                return (((g * beta if beta != 1 else g) if gb else None),
                        *(None if x is None else (x * alpha if alpha != 1 else x) for x in grads))
        return (((g * beta if beta != 1 else g) if gb else None),
                (dual.matmul(scaled, dual.swap_last(mat2)) if g1 else None),
                (dual.matmul(dual.swap_last(mat1), scaled) if g2 else None))


@register("linear", sig="linear(input, weight, bias=None)", doc="input @ weight.T + bias", category="nn",
          torch=False, method=False, functional=True, result_shape=sizes.linear)
def linear(input, weight, bias=None):
    if input.shape[-1] != weight.shape[-1]:
        rows = 1
        for s in input.shape[:-1]:
            rows *= s
        raise TorchRuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{input.shape[-1]} and "
                                f"{weight.shape[-1]}x{weight.shape[0] if weight.ndim > 1 else 1})")
    if bias is not None and input.ndim == 2:
        return Addmm.apply(bias, input, shape.t(weight))
    if bias is not None and bias.ndim == 1 and input.ndim >= 1 and input.array.flags.c_contiguous:
        # torch's _flatten_nd_linear: view to 2-D, addmm, view back
        rows = 1
        for s in input.shape[:-1]:
            rows *= s
        flat = shape.reshape(input, rows, input.shape[-1])  # (not -1: ambiguous when the last dim is 0)
        out = Addmm.apply(bias, flat, shape.t(weight))
        return shape.view(out, *input.shape[:-1], out.shape[-1])
    out = matmul(input, shape.t(weight))
    if bias is not None:
        out = arith.add(out, bias)
    return out


# -- normalize, cosine_similarity -------------------------------------------------------------------------

@register("normalize", sig="normalize(input, p=2.0, dim=1, eps=1e-12)", doc="input / max(norm over dim, eps)",
          category="nn", torch=False, method=False, functional=True)
def normalize(input, p=2.0, dim=1, eps=1e-12):
    denom = clamp_min(norm(input, float(p), dim, True), eps)
    return arith.div(input, shape.expand(denom, *input.shape))


@register("cosine_similarity", sig="cosine_similarity(x1, x2, dim=1, eps=1e-8)",
          doc="cosine of the angle between x1 and x2 along dim", category="nn", method=False, functional=True,
          result_shape=sizes.broadcast)
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    if x1.shape != x2.shape:
        try:
            common = np.broadcast_shapes(x1.shape, x2.shape)
        except ValueError:
            raise TorchRuntimeError(f"The size of tensor a ({x1.shape[-1]}) must match the size of tensor b "
                                    f"({x2.shape[-1]}) at non-singleton dimension {max(x1.ndim, x2.ndim) - 1}") \
                from None
        x1 = x1 if x1.shape == common else shape.expand(x1, *common)
        x2 = x2 if x2.shape == common else shape.expand(x2, *common)
    d = wrap_dim(dim, x1.ndim)
    # torch divides each side by its (cloned) norm, clamped to eps outside the graph
    n1 = clone(VectorNorm.apply(x1, 2.0, (d,), True))
    n2 = clone(VectorNorm.apply(x2, 2.0, (d,), True))
    with no_grad():
        np.maximum(n1.array, eps, out=n1.array)
        np.maximum(n2.array, eps, out=n2.array)
    return _sum(arith.mul(arith.div(x1, n1), arith.div(x2, n2)), d)
