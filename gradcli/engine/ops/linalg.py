"""matmul in all its torch forms: dot, matrix-vector, vector-matrix, matrix-matrix, batched."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.kernels import blas
from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import c_name, check_size, dtype_title, mixed_floats, promote
from gradcli.engine.ops.registry import register


def _shape_str(shape):
    return "x".join(str(s) for s in shape)


class MatMul(Function):
    __slots__ = ()
    name = "MmBackward0"
    saves = (0, 1)

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """mm(self_t, other_p) + mm(self_p, other_t) (mm, mv, dot, bmm: the products matmul decomposes into)."""
        (ta, tb), (a, b) = tangents[:2], arrays[:2]
        fold = params.get("fold", arrays[2] if len(arrays) > 2 else False)
        left = None if ta is None else dual.np_matmul(ta, b, fold)
        right = None if tb is None else dual.np_matmul(a, tb, fold)
        return right if left is None else left if right is None else left + right

    @staticmethod
    def forward(ctx, a, b, fold=False):
        if mixed_floats(a, b):
            raise TorchRuntimeError(_mixed_message(a, b))
        a, b = promote(a, b)
        if a.ndim == 0 or b.ndim == 0:
            raise TorchRuntimeError(
                f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D")
        k_a = a.shape[-1]
        k_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
        if k_a != k_b:
            if a.ndim == 1 and b.ndim == 1:
                n, m = a.shape[0], b.shape[0]
                raise TorchRuntimeError(
                    f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number of "
                    f"elements, but got {n} and {m} elements respectively")
            if a.ndim == 2 and b.ndim == 1:
                raise TorchRuntimeError(
                    f"size mismatch, got input ({a.shape[0]}), mat ({_shape_str(a.shape)}), vec ({b.shape[0]})")
            left = a.shape if a.ndim > 1 else (1, a.shape[0])
            right = b.shape if b.ndim > 1 else (b.shape[0], 1)
            raise TorchRuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({left[-2]}x{left[-1]} and {right[-2]}x{right[-1]})")
        if a.ndim > 2 or b.ndim > 2:
            try:
                batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2] if b.ndim > 1 else ())
            except ValueError:
                raise TorchRuntimeError("matmul: batch dimensions cannot be broadcast") from None
            check_size(batch + ((a.shape[-2] if a.ndim > 1 else 1), (b.shape[-1] if b.ndim > 1 else 1)))
        else:
            check_size(((a.shape[0] if a.ndim > 1 else 1), (b.shape[-1] if b.ndim > 1 else 1)))
        if fold:
            ctx.aux = fold
        elif ctx.name == "BmmBackward0":  # torch.bmm: on the operands as they are (matmul reshapes them first)
            out = blas.bmm(a, b)
            if out is not None:
                return out
        return dual.np_matmul(a, b, fold)

    @staticmethod
    def backward(ctx, g, a, b):
        if isinstance(g, np.generic):  # a 0-d gradient may come as a numpy scalar
            g = np.asarray(g)
        if type(g) is np.ndarray and type(a) is np.ndarray and type(b) is np.ndarray:
            # torch's formulas on the nodes its matmul decomposes into (MKL's products, when installed)
            if ctx.name == "BmmBackward0":
                grads = blas.bmm_backward(g, a, b, *ctx.needs_input_grad[:2])
            else:
                grads = blas.matmul_backward(g, a, b, *ctx.needs_input_grad[:2], fold_grad=bool(ctx.aux))
            if grads is not None:
                return grads
        ga = gb = None
        a_vec, b_vec = a.ndim == 1, b.ndim == 1
        # Lift vectors to matrices so one formula serves every case; the engine sums batch dims away.
        a2 = dual.reshape(a, (1, a.shape[0])) if a_vec else a
        b2 = dual.reshape(b, (b.shape[0], 1)) if b_vec else b
        g_shape = g.shape
        if a_vec and b_vec:
            g2 = dual.reshape(g, (1, 1))
        elif a_vec:
            g2 = dual.reshape(g, g_shape[:-1] + (1, g_shape[-1]))
        elif b_vec:
            g2 = dual.reshape(g, g_shape + (1,))
        else:
            g2 = g
        if ctx.needs_input_grad[0]:
            ga = dual.matmul(g2, dual.swap_last(b2))
            if a_vec:
                ga = dual.reshape(dual.sum_to(ga, (1, a.shape[0])) if ga.ndim > 2 else ga, (a.shape[0],))
        if ctx.needs_input_grad[1]:
            gb = dual.matmul(dual.swap_last(a2), g2)
            if b_vec:
                gb = dual.reshape(dual.sum_to(gb, (b.shape[0], 1)) if gb.ndim > 2 else gb, (b.shape[0],))
        return ga, gb


def _mixed_message(a, b) -> str:
    """torch's error for float operands of different precision, from the kernel matmul decomposes into."""
    if a.ndim == 1 and b.ndim == 1:
        return (f"dot : expected both vectors to have same dtype, but found {dtype_title(a.dtype)} and "
                f"{dtype_title(b.dtype)}")
    if a.ndim == 2 and b.ndim == 1:
        return (f"addmv input tensors must have the same dtype, but got {dtype_title(b.dtype)}, "
                f"{dtype_title(a.dtype)}, and {dtype_title(b.dtype)}")
    if b.ndim <= 2:
        return f"expected m1 and m2 to have the same dtype, but got: {c_name(a)} != {c_name(b)}"
    return f"expected scalar type {dtype_title(a.dtype)} but found {dtype_title(b.dtype)}"


def _named(name):
    return type(name.replace("Backward0", ""), (MatMul,), {"__slots__": (), "name": name})


Mv, UnsafeViewMM, SqueezeMM, CloneMM = (_named(n) for n in (
    "MvBackward0", "UnsafeViewBackward0", "SqueezeBackward4", "CloneBackward0"))


class Dot(MatMul):
    __slots__ = ()
    name = "DotBackward0"

    @staticmethod
    def backward(ctx, g, a, b):
        if isinstance(g, Tensor):  # create_graph: derivatives.yaml's grad * tensor, grad * self (MulBackward0 nodes)
            return (g * b if ctx.needs_input_grad[0] else None), (g * a if ctx.needs_input_grad[1] else None)
        return MatMul.backward(ctx, g, a, b)


def _matmul_class(a_shape, b_shape):
    """The node torch's matmul ends in: it decomposes into dot/mv/mm/bmm plus views, and a batched
    operand whose batch dims are all 1 is folded like a matrix."""
    a_ndim, b_ndim = len(a_shape), len(b_shape)
    if a_ndim <= 2 and b_ndim <= 2:
        return {(1, 1): Dot, (2, 1): Mv, (1, 2): SqueezeMM, (2, 2): MatMul}.get((a_ndim, b_ndim), MatMul)

    def effective(shape):
        return 2 if len(shape) >= 3 and all(s == 1 for s in shape[:-2]) else len(shape)

    if effective(a_shape) == 2 and effective(b_shape) >= 3:
        return CloneMM  # computed as (b.mT @ a.mT).mT.contiguous()
    return UnsafeViewMM


@register("matmul", sig="matmul(input, other)", doc="matrix product (dot, mv, mm, batched), also `@`",
          category="linalg", result_shape=sizes.matmul)
def matmul(input, other):
    a_shape, b_shape = np.shape(getattr(input, "array", input)), np.shape(getattr(other, "array", other))
    cls = _matmul_class(a_shape, b_shape)
    if (len(a_shape) >= 3 and len(b_shape) <= 2) or (len(b_shape) >= 3 and len(a_shape) <= 2):
        # ATen's should_fold: the smaller operand requiring grad folds the larger one whatever its strides
        smaller = other if len(a_shape) >= len(b_shape) else input
        if getattr(smaller, "requires_grad", False):
            return cls.apply(input, other, fold=True)
    return cls.apply(input, other)


def _rmatmul(self, other):
    return matmul(other, self)


from gradcli.engine.tensor import Tensor  # noqa: E402

Tensor.__matmul__ = matmul
Tensor.__rmatmul__ = _rmatmul
