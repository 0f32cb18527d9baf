"""Linear algebra beyond matmul: mm mv dot bmm outer einsum trace det inverse diag diagonal tril triu and
torch.linalg's norm det inv solve vector_norm matmul diagonal.

grad_fn names follow torch's decompositions (outer ends in MulBackward0, einsum in a view, permute or
sum, diag of a matrix in DiagonalBackward0_copy ...).  Backward rules are written with these same ops
(matmul, inverse, solve, diagonal, einsum), so every one of them differentiates again.
"""

from __future__ import annotations

import math
from itertools import product as _cartesian

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import LINEAR, Function
from gradcli.engine.errors import TorchLinAlgError, TorchRuntimeError
from gradcli.engine.kernels import lapack
from gradcli.engine.ops import arith, shape, sizes
from gradcli.engine.ops.aggregates import Amax, Amin, VectorNorm, ord_value
from gradcli.engine.ops.common import promote, val
from gradcli.engine.ops.elementwise import abs as _abs
from gradcli.engine.ops.join_split import stack
from gradcli.engine.ops.linalg import Dot, MatMul, Mv, matmul
from gradcli.engine.ops.lu import det_from_lu, singular_where, torch_lu
from gradcli.engine.ops.reduction import sum as _sum
from gradcli.engine.ops.registry import LINALG, register
from gradcli.engine.ops.views import ViewFunction
from gradcli.engine.tensor import Tensor, wrap_dim


def _shape_str(s):
    return "x".join(str(d) for d in s)


# -- mm, mv, dot, bmm, outer -----------------------------------------------------------------------------

class Bmm(MatMul):
    __slots__ = ()
    name = "BmmBackward0"


@register("mm", sig="mm(input, mat2)", doc="matrix product of two 2-D tensors", category="linalg",
          result_shape=sizes.matmul)
def mm(input, mat2):
    if input.ndim != 2:
        raise TorchRuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise TorchRuntimeError("mat2 must be a matrix")
    return MatMul.apply(input, mat2)


@register("mv", sig="mv(input, vec)", doc="matrix-vector product", category="linalg")
def mv(input, vec):
    if input.ndim != 2 or vec.ndim != 1:
        raise TorchRuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    return Mv.apply(input, vec)


@register("dot", sig="dot(input, tensor)", doc="inner product of two 1-D tensors", category="linalg")
def dot(input, tensor):
    if input.ndim != 1 or tensor.ndim != 1:
        raise TorchRuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    return Dot.apply(input, tensor)


@register("bmm", sig="bmm(input, mat2)", doc="batched matrix product of two 3-D tensors", category="linalg",
          result_shape=sizes.matmul)
def bmm(input, mat2):
    if input.ndim != 3:
        raise TorchRuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise TorchRuntimeError("batch2 must be a 3D tensor")
    if input.shape[0] != mat2.shape[0]:
        raise TorchRuntimeError(f"batch1 and batch2 must have same number of batches, got {input.shape[0]} and "
                                f"{mat2.shape[0]}")
    return Bmm.apply(input, mat2)


@register("outer", sig="outer(input, vec2)", doc="outer product of two 1-D tensors", category="linalg",
          aliases=("ger",), result_shape=sizes.outer)
def outer(input, vec2):
    if input.ndim != 1 or vec2.ndim != 1:
        raise TorchRuntimeError(f"outer: Expected 1-D argument self, but got {input.ndim}-D")
    return arith.mul(shape.reshape(input, input.shape[0], 1), vec2)  # torch: self.reshape({n, 1}) * vec2


# -- einsum -----------------------------------------------------------------------------------------------

class EinsumCore(Function):
    """A product of operands with distinct letters each, summed over the letters not in the output.
    Its gradient for one operand is again such a product (of the gradient and the other operands)."""

    __slots__ = ()
    name = "EinsumBackward0"  # always wrapped: torch's einsum ends in a view (or a mul, see _einsum_class)

    @classmethod
    def jvp(cls, ctx, tangents, arrays, out, params):
        """Linear in each operand: the sum over operands with a tangent of the product with that operand's
        tangent in its place (torch differentiates the products einsum decomposes into: the same terms, within
        a few ulps of its order)."""
        total = None
        for i, t in enumerate(tangents):
            if t is not None:
                term = cls.forward(object.__new__(cls), *arrays[:i], t, *arrays[i + 1:], **params)
                total = term if total is None else total + term
        return total

    @staticmethod
    def forward(ctx, *arrays, letters, out):
        arrays = [np.asarray(a) for a in arrays]
        dtype = np.result_type(*arrays)
        ctx.aux = (letters, out, [a.shape for a in arrays])
        spec = ",".join(letters) + "->" + out
        try:
            return np.asarray(np.einsum(spec, *arrays, optimize=len(arrays) > 2), dtype=dtype)
        except ValueError as err:
            raise TorchRuntimeError(f"einsum(): {err}") from None

    @staticmethod
    def backward(ctx, g, *operands):
        letters, out, shapes = ctx.aux
        grads = []
        for i, need in enumerate(ctx.needs_input_grad):
            if not need:
                grads.append(None)
                continue
            others = [operands[j] for j in range(len(letters)) if j != i]
            other_letters = [letters[j] for j in range(len(letters)) if j != i]
            present = set(out).union(*other_letters)
            kept = "".join(c for c in letters[i] if c in present)
            gi = einsum_core([g, *others], [out, *other_letters], kept)
            if kept != letters[i]:  # letters only this operand had were summed: the gradient is broadcast
                sizes = dict(zip(letters[i], shapes[i]))
                gi = dual.reshape(gi, tuple(sizes[c] if c in kept else 1 for c in letters[i]))
                gi = dual.expand(gi, shapes[i])
            grads.append(gi)
        return tuple(grads)


_EINSUM_CLASSES: dict = {}


def _einsum_class(n_operands, contracted):
    """The node class for n operands (it saves all of them); with nothing to sum torch ends in a mul."""
    key = (n_operands, contracted)
    cls = _EINSUM_CLASSES.get(key)
    if cls is None:
        cls = type("Einsum", (EinsumCore,), {"__slots__": (), "saves": tuple(range(n_operands)),
                                             "name": "EinsumBackward0" if contracted else "MulBackward0"})
        _EINSUM_CLASSES[key] = cls
    return cls


def einsum_core(operands, letters, out):
    if not any(isinstance(o, Tensor) for o in operands):
        spec = ",".join(letters) + "->" + out
        return np.einsum(spec, *operands, optimize=len(operands) > 2)
    operands = [o if isinstance(o, Tensor) else Tensor._make(np.asarray(o), None) for o in operands]
    contracted = bool(set("".join(letters)) - set(out))
    return _einsum_class(len(operands), contracted).apply(*operands, letters=tuple(letters), out=out)


def _parse_einsum(equation, operands):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
        explicit = True
    else:
        lhs, out, explicit = eq, None, False
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise TorchRuntimeError("einsum(): more operands were provided than specified in the equation"
                                if len(operands) > len(terms) else
                                "einsum(): fewer operands were provided than specified in the equation")
    used = set(c for c in eq if c.isalpha())
    spare = (c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used)
    ell_letters = ""
    if "..." in eq:
        n_ell = max(op.ndim - (len(t) - 3) for t, op in zip(terms, operands) if "..." in t)
        ell_letters = "".join(next(spare) for _ in range(max(n_ell, 0)))
    expanded = []
    for t, op in zip(terms, operands):
        if "..." in t:
            k = op.ndim - (len(t) - 3)
            t = t.replace("...", ell_letters[len(ell_letters) - k:] if k else "")
        for c in t:
            if not c.isalpha():
                raise TorchRuntimeError(f"einsum(): invalid subscript given at index {eq.index(c)} in the "
                                        "equation string, subscripts must be in [a-zA-Z]")
        if len(t) != op.ndim:
            raise TorchRuntimeError(f"einsum(): the number of subscripts in the equation ({len(t)}) does not "
                                    f"match the number of dimensions ({op.ndim}) for operand {len(expanded)}"
                                    + ("" if "..." in t else " and no ellipsis was given"))
        expanded.append(t)
    if explicit:
        out = out.replace("...", ell_letters)
    else:
        counts = {}
        for t in expanded:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell_letters + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell_letters))
    return expanded, out


def _take_diagonals(op, letters):
    """Repeated letters within one operand select a diagonal (as torch does, the diagonal goes last)."""
    while True:
        repeated = next((c for c in letters if letters.count(c) > 1), None)
        if repeated is None:
            return op, letters
        i = letters.index(repeated)
        j = letters.index(repeated, i + 1)
        op = diagonal(op, 0, i, j)
        letters = letters[:i] + letters[i + 1:j] + letters[j + 1:] + repeated


def _einsum_shape(equation, *operands):
    """einsum's result: each output letter's size, as its operands give it (size 1 broadcasts)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    terms, out = _parse_einsum(equation, operands)
    sizes_of = {}
    for op, t in zip(operands, terms):
        for c, s in zip(t, op.shape):
            sizes_of[c] = max(sizes_of.get(c, 1), s)
    return tuple(sizes_of[c] for c in out)


@register("einsum", sig="einsum(equation, *operands)", doc="Einstein summation, e.g. einsum('ij,jk->ik', a, b)",
          category="linalg", method=False, result_shape=_einsum_shape)
def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TorchRuntimeError("einsum(): the equation must be a string")
    if not operands:
        raise TorchRuntimeError("einsum(): must provide at least one operand")
    terms, out = _parse_einsum(equation, operands)
    prepared = []
    for op, t in zip(operands, terms):
        op, t = _take_diagonals(op, t)
        prepared.append((op, t))
    contracted = "".join(dict.fromkeys(c for _, t in prepared for c in t if c not in out))
    if len(prepared) == 1:
        op, t = prepared[0]
        order = out + "".join(c for c in t if c not in out)
        result = shape.permute(op, *[t.index(c) for c in order])
        if contracted:
            result = _sum(result, tuple(range(len(out), len(order))))
        return result
    sizes = {}
    for op, t in prepared:
        for c, s in zip(t, op.shape):
            if sizes.setdefault(c, s) != s and s != 1 and sizes[c] != 1:
                raise TorchRuntimeError(f"einsum(): operands do not broadcast with remapped shapes (original->"
                                        f"remapped): dimension {c} has sizes {sizes[c]} and {s}")
            sizes[c] = max(sizes[c], s)
    # size-1 dims broadcast (as with ...): expand them, so every operand agrees on every letter's size
    ops = [op if tuple(op.shape) == tuple(sizes[c] for c in t) else shape.expand(op, *(sizes[c] for c in t))
           for op, t in prepared]
    letters = [t for _, t in prepared]
    result = einsum_core(ops, letters, out)
    if contracted:
        result = shape.view(result, tuple(result.shape))
    return result


# -- trace, diag, diagonal, tril, triu -------------------------------------------------------------------

class Trace(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "TraceBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.ndim != 2:
            raise TorchRuntimeError("trace: expected a matrix, but got tensor with dim " + str(x.ndim))
        return np.asarray(np.trace(x))

    @staticmethod
    def backward(ctx, g):
        n, m = ctx.in_shapes[0]
        return (g * np.eye(n, m, dtype=val(g).dtype),)


@register("trace", sig="trace(input)", doc="sum of the main diagonal of a matrix", category="linalg")
def trace(input):
    return Trace.apply(input)


def _diag_scatter_np(g, offset, d1, d2, in_shape):
    out = np.zeros(in_shape, dtype=g.dtype)
    n1, n2 = in_shape[d1], in_shape[d2]
    if offset >= 0:
        length = max(min(n1, n2 - offset), 0)
        rows, cols = np.arange(length), np.arange(length) + offset
    else:
        length = max(min(n1 + offset, n2), 0)
        rows, cols = np.arange(length) - offset, np.arange(length)
    # a writable view with the two diagonal dims last, where np.diagonal puts the diagonal
    np.moveaxis(out, (d1, d2), (-2, -1))[..., rows, cols] = g
    return out


def _diagonal_of(ctx, x, offset, dim1, dim2):
    if x.ndim < 2:
        raise TorchRuntimeError(f"diagonal dimensions requires ndim larger than 1, but got ndim {x.ndim}")
    d1, d2 = wrap_dim(dim1, x.ndim), wrap_dim(dim2, x.ndim)
    if d1 == d2:
        raise TorchRuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    ctx.aux = (offset, d1, d2, x.shape)
    return np.diagonal(x, offset, d1, d2)  # a read-only view


class DiagonalCopy(Function):
    """torch.diag of a matrix: its diagonal, copied."""

    __slots__ = ()
    jvp = LINEAR
    name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        return _diagonal_of(ctx, x, offset, dim1, dim2).copy()

    @staticmethod
    def backward(ctx, g):
        return (diagonal_scatter_zeros(g, *ctx.aux),)


class Diagonal(ViewFunction, DiagonalCopy):
    """torch.diagonal: a view of the diagonal, writable as torch's is."""

    __slots__ = ()
    name = "DiagonalBackward0"

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        out = _diagonal_of(ctx, x, offset, dim1, dim2)
        if x.flags.writeable:
            out.flags.writeable = True
        return out


class DiagonalScatter(Function):
    """zeros(shape) with `g` on a diagonal: the backward of diagonal, itself differentiable."""

    __slots__ = ()
    name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, g, offset, d1, d2, in_shape):
        ctx.aux = (offset, d1, d2)
        return _diag_scatter_np(g, offset, d1, d2, in_shape)

    @staticmethod
    def backward(ctx, gg):
        offset, d1, d2 = ctx.aux
        return (diagonal(gg, offset, d1, d2),)


def diagonal_scatter_zeros(g, offset, d1, d2, in_shape):
    if isinstance(g, Tensor):
        return DiagonalScatter.apply(g, offset, d1, d2, in_shape)
    return _diag_scatter_np(np.asarray(g), offset, d1, d2, in_shape)


@register("diagonal", sig="diagonal(input, offset=0, dim1=0, dim2=1)",
          doc="a diagonal of input (over dim1, dim2) as the last dim", category="linalg")
def diagonal(input, offset=0, dim1=0, dim2=1):
    return Diagonal.apply(input, int(offset), int(dim1), int(dim2))


def _linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return Diagonal.apply(A, int(offset), int(dim1), int(dim2))


register("diagonal", sig="linalg.diagonal(A, *, offset=0, dim1=-2, dim2=-1)",
         doc="a diagonal over the last two dims", category="linalg", linalg=True, method=False)(_linalg_diagonal)


class DiagEmbed(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, v, offset):
        ctx.aux = offset
        return np.diag(v, offset)

    @staticmethod
    def backward(ctx, g):
        offset = ctx.aux
        if isinstance(g, Tensor):
            return (diagonal(g, offset, 0, 1),)
        return (np.diagonal(g, offset, 0, 1),)


@register("diag", sig="diag(input, diagonal=0)",
          doc="vector -> matrix with it on a diagonal; matrix -> that diagonal as a vector", category="linalg",
          result_shape=sizes.diag)
def diag(input, diagonal=0):  # noqa: A002 - torch's name shadows the function below on purpose
    if input.ndim == 1:
        return DiagEmbed.apply(input, int(diagonal))
    if input.ndim == 2:
        return DiagonalCopy.apply(input, int(diagonal), 0, 1)
    raise TorchRuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.ndim}D")


class Tril(Function):
    __slots__ = ()
    jvp = LINEAR
    name = "TrilBackward0"
    upper = False

    @classmethod
    def forward(cls, ctx, x, k):
        if x.ndim < 2:
            raise TorchRuntimeError(f"{'triu' if cls.upper else 'tril'}: input tensor must have at least 2 "
                                    "dimensions")
        ctx.aux = k
        return np.triu(x, k) if cls.upper else np.tril(x, k)

    @classmethod
    def backward(cls, ctx, g):
        k = ctx.aux
        if isinstance(g, Tensor):
            return (cls.apply(g, k),)
        return (np.triu(g, k) if cls.upper else np.tril(g, k),)


class Triu(Tril):
    __slots__ = ()
    name = "TriuBackward0"
    upper = True


@register("tril", sig="tril(input, diagonal=0)", doc="lower triangle (on and below the diagonal-th diagonal)",
          category="linalg")
def tril(input, diagonal=0):
    return Tril.apply(input, int(diagonal))


@register("triu", sig="triu(input, diagonal=0)", doc="upper triangle (on and above the diagonal-th diagonal)",
          category="linalg")
def triu(input, diagonal=0):
    return Triu.apply(input, int(diagonal))


# -- det, inverse, solve ----------------------------------------------------------------------------------

def check_square(x, name):
    if x.ndim < 2:
        raise TorchRuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if x.shape[-1] != x.shape[-2]:
        raise TorchRuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                                f"{x.shape[-2]} by {x.shape[-1]} matrices")
    if x.dtype.kind != "f":
        raise TorchRuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. Got Long")


def _cofactors(a):
    """The cofactor matrix (adjugate transposed) of each matrix in a batch, for singular matrices."""
    n = a.shape[-1]
    if n == 1:
        return dual.reshape(a * 0.0 + 1.0, a.shape) if isinstance(a, Tensor) else np.ones_like(a)
    av = val(a)
    out = np.zeros_like(av) if not isinstance(a, Tensor) else None
    entries = []
    for i, j in _cartesian(range(n), range(n)):
        rows = np.array([r for r in range(n) if r != i])
        cols = np.array([c for c in range(n) if c != j])
        sign = -1.0 if (i + j) % 2 else 1.0
        if isinstance(a, Tensor):
            minor = a[(..., rows[:, None], cols[None, :])]
            entries.append(det(minor) * sign)
        else:
            out[..., i, j] = sign * np.linalg.det(av[..., rows[:, None], cols[None, :]])
    if out is not None:
        return out

    return shape.reshape(stack(entries, -1), *a.shape)


EXACT_LU = 16  # lu_factor is MKL's LU bit for bit up to 16x16; beyond, MKL blocks its updates


class Det(Function):
    __slots__ = ()
    name = "LinalgDetBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, a):
        check_square(a, "det")
        if a.shape[-1] <= EXACT_LU or lapack.available(a):  # torch's formula on MKL's LU (numpy's det goes
            # through exp(Σ log|u_ii|))
            return np.asarray(det_from_lu(*torch_lu(a)[::2]), dtype=a.dtype)
        det = np.asarray(np.linalg.det(a))
        if np.any(det == 0):  # torch's det of a singular matrix: the LU's product, so -0. after an odd pivot
            det = np.where(det == 0, det_from_lu(*torch_lu(a)[::2]), det)
        return det

    @staticmethod
    def backward(ctx, g, a, d):
        if isinstance(g, np.generic):  # a 0-d gradient may come as a numpy scalar
            g = np.asarray(g)
        if type(g) is np.ndarray and type(a) is np.ndarray and type(d) is np.ndarray:
            if a.shape[-1] == 1 and lapack.available(a):  # measured: torch's gradient of a 1x1 det is grad itself
                return (np.array(np.broadcast_to(np.asarray(g, dtype=a.dtype)[..., None, None], a.shape)),)
            exact = lapack.diagonal_gradient(a, d * g)  # torch's lu_solve on det's LU, when MKL is installed
            if exact is not None:
                return (exact,)
        gd = dual.reshape(g * d, g.shape + (1, 1)) if g.shape else g * d
        if np.all(val(d) != 0) and np.all(np.isfinite(val(d))):
            try:
                return (gd * dual.swap_last(dual.inverse(a)),)
            except np.linalg.LinAlgError:
                pass
        # singular: d det / dA is the cofactor matrix
        gg = dual.reshape(g, g.shape + (1, 1)) if g.shape else g
        return (gg * _cofactors(a),)


@register("det", sig="det(input)", doc="determinant of a (batch of) square matrix", category="linalg")
def det(input):
    return Det.apply(input)


register("det", sig="linalg.det(A)", doc="determinant of a (batch of) square matrix", category="linalg",
         linalg=True, method=False)(det)


class Inverse(Function):
    __slots__ = ()
    name = "LinalgInvExBackward0"
    saves_output = True

    @staticmethod
    def forward(ctx, a):
        check_square(a, "inv")
        exact = lapack.inverse(a)  # MKL's getrf + getrs, as torch's linalg_inv_ex calls them, when installed
        if exact is not None and not np.any(exact[1]):
            return exact[0]
        try:
            return np.linalg.inv(a)
        except np.linalg.LinAlgError:
            prefix, pivot = singular_where(a)
            raise TorchLinAlgError(f"linalg.inv: {prefix}The diagonal element {pivot} is zero, the inversion could "
                                   "not be completed because the input matrix is singular.") from None

    @staticmethod
    def backward(ctx, g, inv):
        inv_t = dual.swap_last(inv)
        return (-dual.matmul(inv_t, dual.matmul(g, inv_t)),)


@register("inverse", sig="inverse(input)", doc="inverse of a (batch of) square matrix", category="linalg")
def inverse(input):
    return Inverse.apply(input)


register("inv", sig="linalg.inv(A)", doc="inverse of a (batch of) square matrix", category="linalg",
         linalg=True, method=False)(inverse)


def _is_vector_rhs(a_shape, b_shape):
    return len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and tuple(b_shape) == tuple(a_shape[:-1]))


class Solve(Function):
    __slots__ = ()
    name = "LinalgSolveExBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, a, b):
        check_square(a, "solve")
        a, b = promote(a, b)
        vector = _is_vector_rhs(a.shape, b.shape)
        ctx.aux = vector
        bm = b[..., None] if vector else b
        if a.shape[-1] != bm.shape[-2]:
            raise TorchRuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
                                    f"({_shape_str(a.shape[-2:])} and {_shape_str(bm.shape[-2:])})")
        try:
            batch = np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
            exact = lapack.solve(a, bm)  # MKL's getrf + getrs as torch's linalg_solve_ex calls them, when installed
            if exact is not None and not np.any(exact[1]):
                return exact[0][..., 0] if vector else exact[0]
            x = np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(bm, batch + bm.shape[-2:]))
        except np.linalg.LinAlgError:
            prefix, _ = singular_where(a)  # torch names a batch element only when A itself is batched
            raise TorchLinAlgError(f"torch.linalg.solve: {prefix}The solver failed because the input matrix is "
                                   "singular.") from None
        return x[..., 0] if vector else x

    @staticmethod
    def backward(ctx, g, a, x):
        vector = ctx.aux
        if isinstance(g, np.generic):  # a 0-d gradient may come as a numpy scalar
            g = np.asarray(g)
        if type(g) is np.ndarray and type(a) is np.ndarray and type(x) is np.ndarray:
            # linalg_solve_backward without a graph: gB = lu_solve(LU, gX, adjoint), gA = -gB @ Xᴴ (MKL's)
            got = lapack.lu_solve(a, g[..., None] if vector else g, False, "C")
            if got is not None and not np.any(got[1]):
                gb = got[0]
                need_a, need_b = ctx.needs_input_grad
                ga = None
                if need_a:
                    xm = x[..., None] if vector else x
                    ga = -dual.np_matmul(gb, np.swapaxes(xm, -1, -2))
                return ga, ((gb[..., 0] if vector else gb) if need_b else None)
        gm = dual.reshape(g, g.shape + (1,)) if vector else g
        xm = dual.reshape(x, x.shape + (1,)) if vector else x
        gb = dual.solve(dual.swap_last(a), gm)
        need_a, need_b = ctx.needs_input_grad
        ga = -dual.matmul(gb, dual.swap_last(xm)) if need_a else None
        if need_b and vector:
            gb = dual.reshape(gb, gb.shape[:-1])
        return ga, (gb if need_b else None)


def linalg_solve(A, B, *, left=True):
    if not left:
        raise TorchRuntimeError("linalg.solve with left=False is not supported by gradcli")
    return Solve.apply(A, B)


def linalg_solve_matrix(A, B):
    """solve with B a (batch of) matrix, as the backward rules call it."""
    return Solve.apply(A, B)


register("solve", sig="linalg.solve(A, B)", doc="X with A @ X = B (B a vector or a matrix)", category="linalg",
         linalg=True, method=False, result_shape=sizes.solve)(linalg_solve)

register("matmul", sig="linalg.matmul(input, other)", doc="matrix product, as torch.matmul", category="linalg",
         linalg=True, method=False, result_shape=sizes.matmul)(matmul)


# -- linalg.norm ------------------------------------------------------------------------------------------

def _matrix_norm(A, ord, dims, keepdim):  # noqa: A002 - torch's name

    d0, d1 = (wrap_dim(d, A.ndim) for d in dims)
    if ord == "fro":
        return VectorNorm.apply(A, 2.0, (d0, d1), keepdim)
    if ord in ("nuc", 2, -2, 2.0, -2.0):  # torch: linalg_matrix_norm, through the singular values
        return LINALG["matrix_norm"].fn(A, ord, (d0, d1), keepdim)
    o = float(ord)
    if abs(o) == 1:  # max (min) column sum
        red, other = d0, d1
    elif math.isinf(o):  # max (min) row sum
        red, other = d1, d0
    else:
        raise TorchRuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    summed = _sum(_abs(A), red, keepdim)
    if not keepdim and other > red:
        other -= 1
    if o > 0 and summed.shape[other] == 0:  # torch 2.13: the max over no column is 0, a constant (amin raises)
        shape = summed.shape[:other] + ((1,) if keepdim else ()) + summed.shape[other + 1:]
        return Tensor._make(np.zeros(shape, summed.array.dtype), None)
    return (Amax if o > 0 else Amin).apply(summed, other, keepdim)


def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    if dim is not None and not isinstance(dim, (tuple, list)):
        dim = (int(dim),)
    if ord is None:
        return VectorNorm.apply(A, 2.0, dim, keepdim)
    if dim is None and A.ndim == 2 or (dim is not None and len(dim) == 2):
        return _matrix_norm(A, ord, dim if dim is not None else (-2, -1), keepdim)
    if A.ndim != 1 and dim is None:
        raise TorchRuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                                f"Got {A.ndim}D.")
    return VectorNorm.apply(A, ord_value(ord), dim, keepdim)


register("norm", sig="linalg.norm(A, ord=None, dim=None, keepdim=False)",
         doc="vector norm, or matrix norm ('fro', 'nuc', 2, -2, 1, inf, -1, -inf) for 2-D input with ord",
         category="linalg", linalg=True, method=False)(linalg_norm)
