"""Functions of square matrices: slogdet, logdet, cholesky, matrix_exp, matrix_power, multi_dot, svdvals,
matrix_norm.

Rules are torch's (FunctionsManual.cpp): slogdet's gradient is A^-T, cholesky's Murray's formula,
matrix_exp's the upper-right block of exp([[A^T, G], [0, A^T]]).  matrix_power, multi_dot and matrix_norm are
built from matmul, norms and amax/amin as torch builds them, so their grad_fn names are torch's.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from gradcli.engine import dual, kernels
from gradcli.engine.autograd import Function, GradMode
from gradcli.engine.errors import TorchLinAlgError, TorchNotImplementedError, TorchRuntimeError
from gradcli.engine.kernels import lapack
from gradcli.engine.ops.aggregates import amax, amin, vector_norm
from gradcli.engine.ops.common import binary_layout, val
from gradcli.engine.ops.convert import clone
from gradcli.engine.ops.elementwise import where
from gradcli.engine.ops.inplace import Copy
from gradcli.engine.ops.joint_node import JointBackward, OutputSlot, record
from gradcli.engine.ops.linalg import matmul
from gradcli.engine.ops.lu import inverse_by_lu, lu_factor, singular_by_lu, torch_lu
from gradcli.engine.ops.matrix_algebra import EXACT_LU, check_square, inverse, tril
from gradcli.engine.ops.reduction import sum as sum_op
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import view
from gradcli.engine.ops.svd import compute as svd_arrays
from gradcli.engine.ops.svd import named_result, svdvals
from gradcli.engine.sum_order import torch_sum
from gradcli.engine.tensor import Tensor, wrap_dim

# -- slogdet, logdet -----------------------------------------------------------------------------------------

def _slogdet_type(name):
    base = namedtuple(name, ["sign", "logabsdet"])

    def __repr__(self):
        return f"torch.return_types.{name}(\nsign={self.sign!r},\nlogabsdet={self.logabsdet!r})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__})


LinalgSlogdetResult = _slogdet_type("linalg_slogdet")
SlogdetResult = _slogdet_type("slogdet")


def _torch_slogdet(a: np.ndarray):
    """(sign, log|det|) as torch computes them from the LU of Aᵀ: the permutation's sign times the signs of
    U's diagonal, and the sum (ATen's order) of log|u_ii|; an exact zero pivot gives ±0 and -inf.  Beyond
    16x16, where MKL's blocked LU is not reproduced, numpy's values outside the zero-pivot case."""
    if a.shape[-1] <= EXACT_LU or lapack.available(a):  # MKL's own getrf, when installed
        lus, _, parity = torch_lu(a)
        diagonal = np.diagonal(lus, axis1=-2, axis2=-1)
        sign = parity * np.prod(np.sign(diagonal), axis=-1)
        with np.errstate(divide="ignore"):
            logabs = torch_sum(kernels.log(np.abs(diagonal)), (-1,))
        return np.asarray(sign, dtype=a.dtype), np.asarray(logabs, dtype=a.dtype)
    sign, logabs = np.linalg.slogdet(a)
    singular = singular_by_lu(np.swapaxes(a, -1, -2))
    if np.any(singular):
        lus, _, parity = lu_factor(np.swapaxes(a, -1, -2))
        lu_sign = parity * np.prod(np.sign(np.diagonal(lus, axis1=-2, axis2=-1)), axis=-1)
        sign = np.where(singular, lu_sign, sign)
        logabs = np.where(singular, -np.inf, logabs)
    return sign.astype(a.dtype, copy=False), logabs.astype(a.dtype, copy=False)


class LogAbsDet(Function):
    __slots__ = ()
    name = "LinalgSlogdetBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, a):
        check_square(a, "slogdet")
        return _torch_slogdet(a)[1]

    @staticmethod
    def backward(ctx, g, a):
        # d log|det A| / dA = A^-T
        if isinstance(g, np.generic):  # a 0-d gradient may come as a numpy scalar
            g = np.asarray(g)
        if type(g) is np.ndarray and type(a) is np.ndarray:
            exact = lapack.diagonal_gradient(a, g)  # torch's lu_solve on slogdet's LU, when MKL is installed
            if exact is not None:
                return (exact,)
        g = dual.reshape(g, np.shape(val(g)) + (1, 1)) if np.ndim(val(g)) else g
        if isinstance(a, Tensor):
            return (g * dual.swap_last(dual.inverse(a)),)
        singular = singular_by_lu(np.swapaxes(a, -1, -2))
        if not np.any(singular):
            return (g * np.swapaxes(np.linalg.inv(a), -1, -2),)
        # torch solves with the LU of Aᵀ: a singular matrix gives its infinities and nans, not an error
        return (g * inverse_by_lu(np.swapaxes(a, -1, -2)),)


class SignOfDet(Function):
    """slogdet's sign output: part of the same node in torch, with no gradient of its own (a real sign)."""

    __slots__ = ()
    name = "LinalgSlogdetBackward0"

    @staticmethod
    def forward(ctx, a):
        check_square(a, "slogdet")
        return _torch_slogdet(a)[0]

    @staticmethod
    def backward(ctx, g):
        return (None,)


def _slogdet(A, result):
    return result(SignOfDet.apply(A), LogAbsDet.apply(A))


@register("slogdet", sig="linalg.slogdet(A)", doc="(sign, log|det A|) of a (batch of) square matrix",
          category="linalg", linalg=True)
def linalg_slogdet(A):
    return _slogdet(A, LinalgSlogdetResult)


@register("slogdet", sig="slogdet(input)", doc="(sign, log|det A|) of a (batch of) square matrix", category="linalg")
def slogdet(input):
    return _slogdet(input, SlogdetResult)


@register("logdet", sig="logdet(input)", doc="log det A (nan where det A < 0)", category="linalg")
def logdet(input):
    check_square(input.array, "slogdet")
    sign, logabsdet = linalg_slogdet(input)
    return where(Tensor._make(sign.array == -1, None), math.nan, logabsdet)


# -- cholesky ------------------------------------------------------------------------------------------------

def _tril(x, k=0):
    return tril(x, k) if isinstance(x, Tensor) else np.tril(x, k)


class Cholesky(Function):
    __slots__ = ()
    name = "LinalgCholeskyExBackward0"
    saves_output = True

    @staticmethod
    def forward(ctx, a, upper):
        check_square(a, "cholesky")
        ctx.aux = upper
        got = lapack.potrf(a, upper) if a.size else None  # MKL's potrf as torch calls it (torch's bits)
        if got is not None:
            factor, info = got
            failing = np.flatnonzero(info.reshape(-1))
            if failing.size:
                prefix = f"(Batch element {int(failing[0])}): " if a.ndim > 2 else ""
                raise TorchLinAlgError(
                    f"linalg.cholesky: {prefix}The factorization could not be completed because the input is not "
                    f"positive-definite (the leading minor of order {int(info.reshape(-1)[failing[0]])} is not "
                    "positive-definite).")
            return factor
        try:
            low = np.linalg.cholesky(a)
        except np.linalg.LinAlgError:
            batch, order = _failing_minor(a)
            prefix = f"(Batch element {batch}): " if a.ndim > 2 else ""
            raise TorchLinAlgError(
                f"linalg.cholesky: {prefix}The factorization could not be completed because the input is not "
                f"positive-definite (the leading minor of order {order} is not positive-definite).") from None
        return np.swapaxes(low, -1, -2).copy() if upper else low

    @staticmethod
    def backward(ctx, g, out):
        upper = ctx.aux
        low, gl = (dual.swap_last(out), dual.swap_last(g)) if upper else (out, g)
        # Murray (2016), as torch's cholesky_backward: A^-H Phi(L^H gL) L^-1 with Phi the lower triangle and
        # half the diagonal, symmetrised
        phi = _tril(dual.matmul(dual.swap_last(low), gl))
        phi = (phi + dual.swap_last(_tril(phi, -1))) * 0.5
        left = dual.solve(dual.swap_last(low), phi)  # L^-H phi
        return (dual.swap_last(dual.solve(dual.swap_last(low), dual.swap_last(left))),)  # (L^-H left^H)^H


def _failing_minor(a):
    """(batch element, order) of the first leading minor that is not positive-definite."""
    for b, m in enumerate(a.reshape(-1, a.shape[-2], a.shape[-1])):
        for k in range(1, m.shape[0] + 1):
            try:
                np.linalg.cholesky(m[:k, :k])
            except np.linalg.LinAlgError:
                return b, k
    return 0, a.shape[-1]


@register("cholesky", sig="linalg.cholesky(A, *, upper=False)", doc="L with A = L L^T (A symmetric positive-definite)",
          category="linalg", linalg=True)
def cholesky(A, *, upper=False, out=None):
    return Cholesky.apply(A, bool(upper))


# -- matrix_exp ----------------------------------------------------------------------------------------------

_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def _expm(a: np.ndarray) -> np.ndarray:
    """exp of one square matrix: scaling and squaring with the degree-13 Pade approximant (Higham 2005)."""
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    norm = np.max(np.sum(np.abs(a), axis=0))
    s = max(0, int(math.ceil(math.log2(norm / _THETA13)))) if norm > _THETA13 else 0
    a = a / (2.0 ** s)
    b = _PADE13
    eye = np.eye(n, dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return r


class MatrixExp(Function):
    __slots__ = ()
    name = "LinalgMatrixExpBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, a):
        check_square(a, "matrix_exp")
        flat = a.reshape(-1, a.shape[-2], a.shape[-1])
        with np.errstate(all="ignore"):
            out = np.stack([_expm(m) for m in flat]) if len(flat) else flat.copy()
        return out.reshape(a.shape).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, a):
        # the Frechet derivative's adjoint: the upper-right block of exp([[A^T, G], [0, A^T]])
        n = np.shape(val(a))[-1]
        at = dual.swap_last(a)
        zeros = np.zeros(np.shape(val(a)), dtype=val(a).dtype)
        block = dual.cat([dual.cat([at, g], -1), dual.cat([zeros, at], -1)], -2)
        big = MatrixExp.apply(block) if isinstance(block, Tensor) else MatrixExp.forward(None, block)
        return (big[..., :n, n:],)


@register("matrix_exp", sig="matrix_exp(A)", doc="the matrix exponential e^A", category="linalg")
def matrix_exp(A):
    return MatrixExp.apply(A)


register("matrix_exp", sig="linalg.matrix_exp(A)", doc="the matrix exponential e^A", category="linalg",
         linalg=True)(matrix_exp)


# -- matrix_power, multi_dot -----------------------------------------------------------------------------------

@register("matrix_power", sig="linalg.matrix_power(A, n)", doc="A @ A @ ... (n times; n < 0: of the inverse)",
          category="linalg", linalg=True)
def matrix_power(A, n):
    check_square(A.array, "matrix_power")
    n = int(n)
    if n == 0:  # torch: a copy of the identity written over a clone of A (so A gets a zero gradient)
        eye = np.broadcast_to(np.eye(A.shape[-1], dtype=A.array.dtype), A.shape)
        return Copy.apply(clone(A), eye)
    if n == -1:
        return inverse(A)  # torch: the inverse itself, no clone (grad_fn LinalgInvExBackward0)
    if n < 0:
        A, n = inverse(A), -n
    if n == 1:
        return clone(A)
    if n == 2:
        return matmul(A, A)
    if n == 3:
        return matmul(matmul(A, A), A)
    z = result = None
    while n > 0:  # torch's binary decomposition of n
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result


register("matrix_power", sig="matrix_power(input, n)", doc="A @ A @ ... (n times; n < 0: of the inverse)",
         category="linalg")(matrix_power)


def _chain_order(dims):
    """The classic matrix-chain dynamic programme (torch's multi_dot for more than three matrices)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(tensors, split, i, j):
    if i == j:
        return tensors[i]
    k = split[i][j]
    return matmul(_chain(tensors, split, i, k), _chain(tensors, split, k + 1, j))


def _multi_dot_shape(tensors, *, out=None):
    first, last = tensors[0].shape, tensors[-1].shape
    return first[:1] + last[-1:] if len(first) == 2 and len(last) == 2 else (first[0] if first else 1,) + last[-1:]


@register("multi_dot", sig="linalg.multi_dot(tensors)", doc="a chain of matrix products, in the cheapest order",
          category="linalg", linalg=True, result_shape=_multi_dot_shape)
def multi_dot(tensors, *, out=None):
    tensors = list(tensors)
    if len(tensors) < 2:
        raise TorchRuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_vector, last_vector = tensors[0].ndim == 1, tensors[-1].ndim == 1
    for i, t in enumerate(tensors):
        wanted = 1 if (i == 0 and first_vector) or (i == len(tensors) - 1 and last_vector) else 2
        if t.ndim not in (wanted, 2):
            raise TorchRuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    if first_vector:
        tensors[0] = tensors[0].unsqueeze(0)
    if last_vector:
        tensors[-1] = tensors[-1].unsqueeze(-1)
    for i in range(len(tensors) - 1):
        if tensors[i].shape[1] != tensors[i + 1].shape[0]:
            raise TorchRuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes [{', '.join(map(str, tensors[i].shape))}] and "
                f"[{', '.join(map(str, tensors[i + 1].shape))}] cannot be multiplied")
    dims = [t.shape[0] for t in tensors] + [tensors[-1].shape[1]]
    if len(tensors) == 3:
        a, b, c = dims[0], dims[1], dims[2]
        d = dims[3]
        left_first = a * b * c + a * c * d < b * c * d + a * b * d
        result = matmul(matmul(tensors[0], tensors[1]), tensors[2]) if left_first else \
            matmul(tensors[0], matmul(tensors[1], tensors[2]))
    else:
        result = _chain(tensors, _chain_order(dims), 0, len(tensors) - 1)
    shape = ([] if first_vector else [dims[0]]) + ([] if last_vector else [dims[-1]])
    return view(result, *shape)


# -- singular values and matrix norms --------------------------------------------------------------------------

@register("matrix_norm", sig="linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False)",
          doc="a matrix norm: 'fro', 'nuc', 1, -1, 2, -2, inf, -inf", category="linalg", linalg=True)
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    if A.ndim < 2:
        raise TorchRuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise TorchRuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if len(dim) != 2:
        raise TorchRuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = (wrap_dim(int(d), A.ndim) for d in dim)
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim)
    if ord == "nuc" or abs(ord) == 2:
        moved = A.permute(*[i for i in range(A.ndim) if i not in (d0, d1)], d0, d1)
        values = svdvals(moved)
        if ord == "nuc":
            out = sum_op(values, -1)
        else:
            out = _largest_or_smallest(values, -1, False, ord > 0)
        if keepdim:
            out = out.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
        return out
    if ord not in (1, -1, math.inf, -math.inf):
        raise TorchRuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if math.isinf(ord):
        d0, d1 = d1, d0
    # the 1-norm of each column (row for inf) over d0, then the largest (smallest) over d1
    inner = vector_norm(A, 1, d0, keepdim)
    if not keepdim and d0 < d1:
        d1 -= 1
    return _largest_or_smallest(inner, d1, keepdim, ord > 0)


def _largest_or_smallest(x, dim, keepdim, largest):
    """amax/amin over `dim`, except that torch 2.13's matrix norms give the largest of no value as 0, a
    constant (amin's error stays): linalg.norm(torch.zeros(3, 0), ord=1) is tensor(0.)."""
    d = wrap_dim(dim, x.ndim)
    if largest and x.shape[d] == 0:
        shape = x.shape[:d] + ((1,) if keepdim else ()) + x.shape[d + 1:]
        return Tensor._make(np.zeros(shape, x.array.dtype), None)
    return (amax if largest else amin)(x, dim, keepdim)  # as given: its error names -1 for the 2-norms



# -- eigh, qr, pinv: first derivatives (torch's formulas); a second derivative is refused ---------------------

def _first_order_only(g, name):
    if isinstance(g, Tensor):
        raise TorchNotImplementedError(f"gradcli does not differentiate linalg.{name} twice (create_graph=True)")


EighResult = named_result("linalg_eigh", ["eigenvalues", "eigenvectors"])
QrResult = named_result("linalg_qr", ["Q", "R"])


def eigh_arrays(a: np.ndarray, uplo: str, compute_v: bool):
    """torch's _linalg_eigh(A, UPLO, compute_v) on an array: (eigenvalues, eigenvectors column-major or None).
    MKL's ?syevd as ATen calls it when installed (torch's bits), numpy's LAPACK otherwise (?syevd as well)."""
    check_square(a, "eigh")
    if not isinstance(uplo, str) or uplo.upper() not in ("L", "U"):
        raise TorchRuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {uplo}")
    upper = uplo.upper() == "U"
    if a.size == 0:
        return np.zeros(a.shape[:-1], dtype=a.dtype), (np.swapaxes(np.zeros(a.shape, a.dtype), -1, -2)
                                                          if compute_v else None)
    got = lapack.syevd(a, upper, compute_v)
    if got is None:
        values, vectors = np.linalg.eigh(a, UPLO="U" if upper else "L")
        vectors = np.swapaxes(np.array(np.swapaxes(vectors, -1, -2), order="C"), -1, -2) if compute_v else None
        return values.astype(a.dtype, copy=False), vectors
    values, vectors, info = got
    failing = np.flatnonzero(info.reshape(-1))
    if failing.size:
        code = int(info.reshape(-1)[failing[0]])
        where = "" if a.ndim == 2 else f": (Batch element {int(failing[0])})"
        raise TorchLinAlgError(f"linalg.eigh{where}: The algorithm failed to converge because the input matrix is "
                               f"ill-conditioned or has too many repeated eigenvalues (error code: {code}).")
    return values, vectors


def eigh_backward(g_l, g_v, values, vectors):
    """torch's linalg_eig_backward for a symmetric matrix (is_hermitian), in its order of operations."""
    mm = dual.np_matmul
    v_h = np.swapaxes(vectors, -1, -2)
    if g_v is None:  # eigvalsh: V diag(gL) Vᴴ
        scaled = vectors * g_l[..., None, :]
        return mm(binary_layout(scaled, vectors, g_l[..., None, :]), v_h)
    vhgv = mm(v_h, g_v)
    diff = binary_layout(vhgv - np.swapaxes(vhgv, -1, -2), vhgv, np.swapaxes(vhgv, -1, -2))
    vhgv = binary_layout(vhgv.dtype.type(0.5) * diff, diff)
    econj = values[..., None, :] - values[..., :, None]
    idx = np.arange(values.shape[-1])
    econj[..., idx, idx] = 1
    ret = binary_layout(vhgv / econj, vhgv, econj)
    if g_l is not None:
        ret[..., idx, idx] = g_l
    return mm(vectors, mm(ret, v_h))


class EighBackward(JointBackward):
    """linalg.eigh's node: eigenvalues and eigenvectors share it (gA = V·(skew(Vᵀ·gV)/E, diag gL)·Vᵀ)."""

    __slots__ = ()
    name = "LinalgEighBackward0"
    short = "LinalgEigh"
    what = "linalg.eigh"

    @staticmethod
    def rule(grads, arrays, params):
        return eigh_backward(grads[0], grads[1], *arrays)


class EighOutput(OutputSlot):
    __slots__ = ()
    name = "LinalgEighBackward0"


def _eigh_outputs(A, uplo, compute_v, wanted):
    values, vectors = eigh_arrays(A.array, uplo, compute_v)
    if not compute_v:
        return Tensor._make(values, None), None
    return record(EighBackward, EighOutput, A, (values, vectors), None, wanted)


@register("eigh", sig="linalg.eigh(A, UPLO='L')", doc="(eigenvalues ascending, eigenvectors) of a symmetric matrix",
          category="linalg", linalg=True)
def eigh(A, UPLO="L"):  # noqa: N803 - torch's name
    return EighResult(*_eigh_outputs(A, UPLO, True, (0, 1)))


@register("eigvalsh", sig="linalg.eigvalsh(A, UPLO='L')", doc="the eigenvalues of a symmetric matrix, ascending",
          category="linalg", linalg=True)
def eigvalsh(A, UPLO="L"):  # noqa: N803 - torch's name
    # torch computes the eigenvectors (jobz 'V') only when A needs a gradient
    return _eigh_outputs(A, UPLO, A.requires_grad and GradMode.enabled, (0,))[0]


def _copyltu(m):
    """The lower triangle mirrored to the upper one (M's symmetric part built from its lower triangle)."""
    low = np.tril(m, -1)
    return low + np.swapaxes(low, -1, -2) + np.eye(m.shape[-1]) * np.diagonal(m, axis1=-2, axis2=-1)[..., None, :]


def _solve_right_lower(b: np.ndarray, lower: np.ndarray) -> np.ndarray:
    """X with X·L = B for a lower triangular L, column by column from the last as BLAS trsm does (its signed
    zeros included: torch's solve_triangular(..., left=False))."""
    x = np.array(b, dtype=np.result_type(b, lower), copy=True)
    for j in range(lower.shape[-1] - 1, -1, -1):
        x[..., j] = (x[..., j] - np.einsum("...ik,...k->...i", x[..., j + 1:], lower[..., j + 1:, j])) \
            / lower[..., j, j, None]
    return x


class Qr(Function):
    """A = Q·R (reduced).  For m >= n: gA = (gQ + Q·copyltu(M))·R⁻ᵀ with M = R·gRᵀ - gQᵀ·Q; wide
    matrices as torch's linalg_qr_backward (below)."""

    __slots__ = ()
    name = "LinalgQrBackward0"

    @staticmethod
    def forward(ctx, a, part):
        if a.ndim < 2:
            raise TorchRuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
        q, r = np.linalg.qr(a, mode="reduced")
        ctx.aux = (q, r, part)
        return (q if part == 0 else r).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        _first_order_only(g, "qr")
        q, r, part = ctx.aux
        t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731 - the transpose, short in the formulas below
        g_q = g if part == 0 else np.zeros_like(q)
        g_r = g if part == 1 else np.zeros_like(r)
        rows, cols = q.shape[-2], r.shape[-1]
        if rows >= cols:
            m = r @ t(g_r) - t(g_q) @ q
            b = g_q + q @ _copyltu(m)
            return (t(np.linalg.solve(r, t(b))).astype(g.dtype, copy=False),)  # b·R⁻ᵀ (float32 in, float32 out)
        # wide (torch's linalg_qr_backward, m < n): with M = gR·Rᵀ - Qᵀ·gQ and R₁ the leading square of R,
        # gA = [Q·tril(-M + Mᵀ)·R₁⁻ᵀ | 0] + Q·gR
        m = g_r @ t(r) - t(q) @ g_q
        lead = _solve_right_lower(q @ np.tril(t(m) - m), t(r[..., :rows]))
        zeros = np.zeros(lead.shape[:-1] + (cols - rows,), dtype=lead.dtype)
        g_a = np.concatenate([lead, zeros], axis=-1)
        g_a = g_a + q @ g_r if part == 1 else g_a  # no 0 added for Q's part: -0. stays, as in torch
        return (g_a.astype(g.dtype, copy=False),)


@register("qr", sig="linalg.qr(A, mode='reduced')", doc="(Q, R) with A = Q·R, Q orthonormal columns, R upper",
          category="linalg", linalg=True)
def qr(A, mode="reduced"):
    if mode != "reduced":
        raise TorchRuntimeError(f"gradcli: linalg.qr supports mode='reduced' only, not '{mode}'")
    return QrResult(Qr.apply(A, 0), Qr.apply(A, 1))


class Pinv(Function):
    """The Moore-Penrose pseudo-inverse (by the SVD, small singular values cut as torch's default rtol);
    the rule is torch's pinv_backward."""

    __slots__ = ()
    name = "LinalgPinvBackward0"
    saves = (0,)
    saves_output = True

    @staticmethod
    def forward(ctx, a, atol, rtol, hermitian):
        if a.ndim < 2:
            raise TorchRuntimeError("linalg.pinv(A): The input tensor A must have at least 2 dimensions.")
        if rtol is None:  # torch: eps * max(m, n), or 0 when only a positive atol is given
            rtol = 0.0 if atol is not None and atol > 0 else max(a.shape[-2:]) * np.finfo(a.dtype).eps
        atol = 0.0 if atol is None else atol
        if hermitian:
            # torch reads the lower triangle only (eigh with UPLO='L') and inverts the eigenvalues kept:
            # tol = max(atol, rtol * amax(|w|)) in float64, matmul(V * where(|w| > tol, 1/w, 0), V.mH)
            w, v = eigh_arrays(a, "L", True)
            w_abs = np.abs(w)
            with np.errstate(divide="ignore"):
                if a.size == 0:
                    inv = np.reciprocal(w)
                else:
                    tol = np.maximum(np.float64(atol),
                                     np.float64(rtol) * np.max(w_abs, axis=-1, keepdims=True).astype(np.float64))
                    inv = np.where(w_abs > tol, np.reciprocal(w), w.dtype.type(0))
            scaled = binary_layout(v * inv[..., None, :], v, inv[..., None, :])
            return dual.np_matmul(scaled, np.swapaxes(v, -1, -2))
        # torch: U, S, V = input.svd(); tol = max(atol, rtol * S[..., :1]) (float64: atol and rtol are 1-element
        # double tensors there); matmul(V * where(S > tol, 1/S, 0), U.mH)
        u, sv, vh = svd_arrays(a, False, True)
        with np.errstate(divide="ignore"):
            if a.size == 0:
                inv = np.reciprocal(sv)
            else:
                tol = np.maximum(np.float64(atol), np.float64(rtol) * sv[..., :1].astype(np.float64))
                inv = np.where(sv > tol, np.reciprocal(sv), sv.dtype.type(0))
        v = np.swapaxes(vh, -1, -2)
        scaled = binary_layout(v * inv[..., None, :], v, inv[..., None, :])
        return dual.np_matmul(scaled, np.swapaxes(u, -1, -2))

    @staticmethod
    def backward(ctx, g, a, pinv):
        _first_order_only(g, "pinv")
        return pinv_backward(g, val(a), val(pinv)), None, None, None


def pinv_backward(g, a, pinv):
    """torch's pinv_backward: the gradient for A of a gradient g of pinv(A), in its order of operations (its
    products through MKL as ATen calls them, when installed; its elementwise results in TensorIterator's
    layouts, which decide how the next product reads them)."""
    t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731 - mH of a real matrix: a transposed view
    mm = dual.np_matmul

    def sub(x, y):
        return binary_layout(x - y, x, y)

    def add(x, y):
        return binary_layout(x + y, x, y)

    pinv_h, g_h = t(pinv), t(g)
    m, n = a.shape[-2:]
    if m <= n:
        k = mm(g_h, pinv)
        k_pinv_h = mm(k, pinv_h)
        first = t(mm(pinv, k))
        total = add(binary_layout(-first, first), k_pinv_h)
        total = sub(total, mm(mm(a, pinv), k_pinv_h))
        return add(total, mm(mm(pinv_h, pinv), sub(g_h, mm(k, a))))
    k = mm(pinv, g_h)
    pinv_h_k = mm(pinv_h, k)
    first = t(mm(k, pinv))
    total = add(binary_layout(-first, first), mm(mm(sub(g_h, mm(a, k)), pinv), pinv_h))
    total = add(total, pinv_h_k)
    return sub(total, mm(mm(pinv_h_k, pinv), a))


@register("pinv", sig="linalg.pinv(A, *, atol=None, rtol=None, hermitian=False)",
          doc="the Moore-Penrose pseudo-inverse", category="linalg", linalg=True)
def pinv(A, *, atol=None, rtol=None, hermitian=False):
    tols = [t.item() if isinstance(t, Tensor) else t for t in (atol, rtol)]
    if any(t is not None and np.ndim(t) for t in tols):
        raise TorchRuntimeError("gradcli: linalg.pinv takes atol and rtol as numbers (or 0-d tensors)")
    return Pinv.apply(A, *[None if t is None else float(t) for t in tols], bool(hermitian))


LstsqResult = named_result("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])


def _np_pinv(a):
    return np.linalg.pinv(a, rcond=max(a.shape[-2:]) * np.finfo(a.dtype).eps)


class Lstsq(Function):
    """The least-squares solution X of A·X ≈ B (as pinv(A)·B), with torch's linalg_lstsq_backward:
    gA = pinv_backward(gX·Bᵀ), gB = pinv(A)ᵀ·gX.  Part 1 is the residuals output, empty with the default
    CPU driver (gelsy), as in torch."""

    __slots__ = ()
    name = "LinalgLstsqBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, a, b, part):
        if a.ndim < 2:
            raise TorchRuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
        vector = b.ndim == a.ndim - 1
        ctx.aux = (part, vector)
        if part == 1:
            return np.empty((0,), dtype=a.dtype)
        matrix = b[..., None] if vector else b
        if matrix.shape[-2] != a.shape[-2]:
            raise TorchRuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
        x = _np_pinv(a) @ matrix
        return (x[..., 0] if vector else x).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, a, b):
        _first_order_only(g, "lstsq")
        part, vector = ctx.aux
        if part == 1:
            return None, None
        gx = g[..., None] if vector else g
        bm = b[..., None] if vector else b
        pinv = _np_pinv(a)
        need_a, need_b = ctx.needs_input_grad[:2]
        ga = pinv_backward(gx @ np.swapaxes(bm, -1, -2), a, pinv) if need_a else None
        gb = np.swapaxes(pinv, -1, -2) @ gx if need_b else None
        if gb is not None and vector:
            gb = gb[..., 0]
        return ga, gb


def _lstsq_shape(A, B, *args, **kwargs):
    vector = B.ndim == A.ndim - 1
    return tuple(A.shape[:-2]) + (A.shape[-1],) + (() if vector else tuple(B.shape[-1:]))


@register("lstsq", sig="linalg.lstsq(A, B)", doc="(solution, residuals, rank, singular_values) of min ‖A·X - B‖",
          category="linalg", linalg=True, result_shape=_lstsq_shape)
def lstsq(A, B, rcond=None, *, driver=None):
    if driver not in (None, "gelsy"):
        raise TorchRuntimeError(f"gradcli: linalg.lstsq supports the default driver (gelsy) only, not {driver}")
    rank = np.linalg.matrix_rank(A.array) if A.array.ndim == 2 else np.array(
        [np.linalg.matrix_rank(m) for m in A.array.reshape(-1, *A.shape[-2:])]).reshape(A.shape[:-2])
    return LstsqResult(Lstsq.apply(A, B, 0), Lstsq.apply(A, B, 1), Tensor._make(np.asarray(rank, np.int64), None),
                       Tensor._make(np.empty((0,), dtype=A.array.dtype), None))
