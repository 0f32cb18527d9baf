"""The singular value decomposition as torch 2.13 computes it on the CPU: torch.svd, torch.linalg.svd,
Tensor.svd and linalg.svdvals, and their gradient.

Forward (aten/src/ATen/native/BatchLinearAlgebra.cpp, _linalg_svd_out; BatchLinearAlgebraKernel.cpp,
apply_svd): LAPACK's ?gesdd on a column-major copy of each matrix, jobz 'A' (full_matrices), 'S' or 'N'
(singular values only: svdvals of a tensor that needs no gradient), U and Vh column-major; MKL's own routine
when it is installed (kernels.lapack.gesdd: torch's bits), numpy's (also ?gesdd, from its own LAPACK) otherwise.
An empty matrix gives identity U/Vh with full_matrices, as torch's shortcut does; a NaN is torch's
"contained non-finite values" error.  torch.svd is linalg.svd(A, full_matrices=not some) with V = Vh.mH (a
transposed view: its grad_fn is TransposeBackward0).

Backward: torch's svd_backward (torch/csrc/autograd/FunctionsManual.cpp) in its order of operations, with
gU/gVh narrowed to the first min(m, n) columns/rows under full_matrices (derivatives.yaml).  A gradient that
does not reach U or Vh is *undefined* there, not zero, and takes other branches (svdvals': U·(gS·Vh)), so the
three outputs share one node (SvdBackward; each output's own node hands its gradient on to it:
ops/joint_node.py).  Repeated singular values give inf/nan in the gradient of U/Vh, as in torch (E_ij = 0).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import GradMode
from gradcli.engine.errors import TorchLinAlgError, TorchNotImplementedError, TorchRuntimeError
from gradcli.engine.kernels import lapack
from gradcli.engine.ops.common import binary_layout, dtype_title
from gradcli.engine.ops.joint_node import JointBackward, OutputSlot, record
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import transpose
from gradcli.engine.ops.sizes import shape_of
from gradcli.engine.tensor import Tensor


def named_result(name, fields):
    """A torch.return_types namedtuple printed as torch prints it."""
    base = namedtuple(name, fields)

    def __repr__(self):
        return f"torch.return_types.{name}(\n" + ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields) + ")"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__})


SvdResult = named_result("svd", ["U", "S", "V"])
LinalgSvdResult = named_result("linalg_svd", ["U", "S", "Vh"])

_NAMES = {np.dtype(np.float16): "Half"}


def _check_input(a: np.ndarray, name: str = "linalg.svd") -> None:
    if a.ndim < 2:
        raise TorchRuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a.dtype.kind != "f":
        raise TorchRuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                                f"Got {dtype_title(a.dtype)}")
    if a.dtype.itemsize < 4:
        raise TorchNotImplementedError(f'"linalg_svd_cpu" not implemented for \'{dtype_title(a.dtype)}\'')


def _column_major(x: np.ndarray) -> np.ndarray:
    """x in torch's layout for LAPACK's outputs: each matrix column-major."""
    return np.swapaxes(np.array(np.swapaxes(x, -1, -2), order="C"), -1, -2)


def _numpy_svd(a: np.ndarray, full_matrices: bool, compute_uv: bool):
    """numpy's LAPACK (?gesdd too, in its own build): (U, S, Vh, info) as lapack.gesdd gives them; info -4 for a
    matrix holding a NaN (LAPACK 3.10's answer, torch's error), a matrix numpy cannot decompose gives NaNs."""
    m, n = a.shape[-2:]
    flat = a.reshape((-1, m, n))
    info = np.where(np.isnan(flat).any(axis=(-2, -1)), -4, 0).astype(np.int32)
    k = min(m, n)
    u_cols, vh_rows = (m, n) if full_matrices else (k, k)
    us = np.zeros((flat.shape[0], m, u_cols), dtype=a.dtype)
    ss = np.zeros((flat.shape[0], k), dtype=a.dtype)
    vhs = np.zeros((flat.shape[0], vh_rows, n), dtype=a.dtype)
    for i, matrix in enumerate(flat):
        try:
            if compute_uv:
                us[i], ss[i], vhs[i] = np.linalg.svd(matrix, full_matrices=full_matrices)
            else:
                ss[i] = np.linalg.svd(matrix, compute_uv=False)
        except np.linalg.LinAlgError:
            us[i], ss[i], vhs[i] = np.nan, np.nan, np.nan
    batch = a.shape[:-2]
    s = ss.reshape(batch + (k,))
    if not compute_uv:
        return None, s, None, info.reshape(batch)
    return (_column_major(us.reshape(batch + (m, u_cols))), s, _column_major(vhs.reshape(batch + (vh_rows, n))),
            info.reshape(batch))


def compute(a: np.ndarray, full_matrices: bool, compute_uv: bool):
    """torch's _linalg_svd(A, full_matrices, compute_uv) on an array: (U, S, Vh) (U and Vh None without
    compute_uv), U and Vh column-major; torch's errors."""
    _check_input(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    if a.size == 0:  # torch's shortcut: no LAPACK call; identity U / Vh for full matrices
        s = np.zeros(batch + (k,), dtype=a.dtype)
        if not compute_uv:
            return None, s, None
        u_cols, vh_rows = (m, n) if full_matrices else (k, k)
        u = _column_major(np.zeros(batch + (m, u_cols), dtype=a.dtype))
        vh = _column_major(np.zeros(batch + (vh_rows, n), dtype=a.dtype))
        if full_matrices:
            u[..., np.arange(m), np.arange(m)] = 1
            vh[..., np.arange(n), np.arange(n)] = 1
        return u, s, vh
    got = lapack.gesdd(a, full_matrices, compute_uv)
    if got is None:
        got = _numpy_svd(a, full_matrices, compute_uv)
    u, s, vh, info = got
    _check_errors(info, a.ndim == 2)
    return u, s, vh


def _check_errors(info: np.ndarray, is_matrix: bool) -> None:
    """at::_linalg_check_errors(info, "linalg.svd", is_matrix): the first failing matrix's info."""
    flat = np.asarray(info).reshape(-1)
    failing = np.flatnonzero(flat)
    if not failing.size:
        return
    first = int(failing[0])
    code = int(flat[first])
    where = "" if is_matrix else f": (Batch element {first})"
    if code == -4:
        raise TorchLinAlgError(f"linalg.svd{where}: The algorithm failed to converge because the input matrix "
                               "contained non-finite values.")
    if code < 0:  # pragma: no cover - an argument LAPACK refused: a bug in the call, as torch asserts
        raise TorchRuntimeError(f"linalg.svd{where}: Argument {-code} has illegal value. Most certainly there is a "
                                "bug in the implementation calling the backend library.")
    raise TorchLinAlgError(f"linalg.svd{where}: The algorithm failed to converge because the input matrix is "
                           f"ill-conditioned or has too many repeated singular values (error code: {code}).")


# -- the gradient ------------------------------------------------------------------------------------------

def _t(x):
    return np.swapaxes(x, -1, -2)


def _mm(a, b):
    return dual.np_matmul(a, b)  # at::matmul: MKL's products as ATen calls them, when installed


def _ew(out, *operands):
    """An elementwise result in the layout TensorIterator gives it (the operands' order decides)."""
    return binary_layout(out, *operands)


def _diag_embed(d: np.ndarray) -> np.ndarray:
    out = np.zeros(d.shape + d.shape[-1:], dtype=d.dtype)
    idx = np.arange(d.shape[-1])
    out[..., idx, idx] = d
    return out


def svd_backward(g_u, g_s, g_vh, u, s, vh):
    """torch's svd_backward on arrays (None: an undefined gradient), in its order of operations; U and Vh are
    the reduced factors."""
    if g_s is None and g_u is None and g_vh is None:
        return None
    m, n = u.shape[-2], vh.shape[-1]
    if g_u is None and g_vh is None:  # svdvals: gA = U diag(gS) Vh
        if m >= n:
            scaled = g_s[..., :, None] * vh
            return _mm(u, _ew(scaled, g_s[..., :, None], vh))
        scaled = u * g_s[..., None, :]
        return _mm(_ew(scaled, u, g_s[..., None, :]), vh)

    def skew(x):
        return _ew(x - _t(x), x, _t(x))

    uhgu = skew(_mm(_t(u), g_u)) if g_u is not None else None
    vhgv = skew(_mm(vh, _t(g_vh))) if g_vh is not None else None
    s_row, s_col = s[..., None, :], s[..., :, None]
    s2 = s * s
    e = s2[..., None, :] - s2[..., :, None]
    idx = np.arange(s.shape[-1])
    e[..., idx, idx] = 1
    if g_u is not None and g_vh is not None:
        left = _ew(uhgu * s_row, uhgu, s_row)
        right = _ew(s_col * vhgv, s_col, vhgv)
        ret = _ew(left + right, left, right)
        ret = _ew(ret / e, ret, e)
    elif g_u is not None:
        ret = _ew(uhgu / e, uhgu, e)
        ret = _ew(ret * s_row, ret, s_row)
    else:
        ret = _ew(vhgv / e, vhgv, e)
        ret = _ew(s_col * ret, s_col, ret)
    if g_s is not None:
        diag = _diag_embed(g_s)
        ret = _ew(ret + diag, ret, diag)
    if m > n and g_u is not None:
        ga = _mm(u, ret)
        g_u_s = _ew(g_u / s_row, g_u, s_row)
        total = _ew(ga + g_u_s, ga, g_u_s)
        proj = _mm(u, _mm(_t(u), g_u_s))
        ga = _mm(_ew(total - proj, total, proj), vh)
    elif m < n and g_vh is not None:
        ga = _mm(ret, vh)
        s_g_vh = _ew(g_vh / s_col, g_vh, s_col)
        total = _ew(ga + s_g_vh, ga, s_g_vh)
        proj = _mm(_mm(s_g_vh, _t(vh)), vh)
        ga = _mm(u, _ew(total - proj, total, proj))
    else:
        ga = _mm(u, _mm(ret, vh)) if m >= n else _mm(_mm(u, ret), vh)
    return ga


class SvdBackward(JointBackward):
    """The SVD's node: torch's svd_backward from its outputs' gradients (params: full_matrices)."""

    __slots__ = ()
    name = "LinalgSvdBackward0"
    short = "LinalgSvd"
    what = "linalg.svd"

    @staticmethod
    def rule(grads, arrays, full):
        u, s, vh = arrays
        g_u, g_s, g_vh = grads
        if full:  # derivatives.yaml: narrowed to the reduced factors
            k = s.shape[-1]
            u, vh = u[..., :k], vh[..., :k, :]
            g_u = None if g_u is None else g_u[..., :k]
            g_vh = None if g_vh is None else g_vh[..., :k, :]
        return svd_backward(g_u, g_s, g_vh, u, s, vh)


class SvdOutput(OutputSlot):
    __slots__ = ()
    name = "LinalgSvdBackward0"


def linalg_svd_outputs(A: Tensor, full_matrices: bool, compute_uv: bool, wanted=(0, 1, 2)):
    """torch's _linalg_svd on a Tensor: (U, S, Vh) Tensors (U, Vh None without compute_uv), recorded for
    autograd when A needs a gradient (`wanted`: the outputs the caller hands on, the others get no node)."""
    u, s, vh = compute(A.array, full_matrices, compute_uv)
    if not compute_uv:
        return tuple(None if x is None else Tensor._make(x, None) for x in (u, s, vh))
    return record(SvdBackward, SvdOutput, A, (u, s, vh), bool(full_matrices), wanted)


def _full_shape(A):
    """The largest factor of a full SVD: (max(m, n), max(m, n)) matrices (U or Vh)."""
    shape = tuple(shape_of(A))
    big = max(shape[-2:])
    return shape[:-2] + (big, big)


def _linalg_svd_shape(A, full_matrices=True, *args, **kwargs):
    return _full_shape(A) if full_matrices else None


def _svd_shape(input, some=True, compute_uv=True):  # noqa: A002 - torch's name
    return _full_shape(input) if not some or not compute_uv else None  # compute_uv=False: (m, m), (n, n) zeros


@register("svd", sig="linalg.svd(A, full_matrices=True)", doc="(U, S, Vh) with A = U diag(S) Vh",
          category="linalg", linalg=True, result_shape=_linalg_svd_shape)
def linalg_svd(A, full_matrices=True, *, driver=None):
    if driver is not None:
        raise TorchRuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs "
                                "with cuSOLVER backend.")
    return LinalgSvdResult(*linalg_svd_outputs(A, bool(full_matrices), True))


@register("svd", sig="svd(input, some=True, compute_uv=True)", doc="(U, S, V) with A = U diag(S) Vᵀ",
          category="linalg", result_shape=_svd_shape)
def svd(input, some=True, compute_uv=True):  # noqa: A002 - torch's name
    if input.ndim < 2:
        raise TorchRuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input.ndim} "
                                "dimensions instead")
    if compute_uv:
        u, s, vh = linalg_svd_outputs(input, not some, True)
        return SvdResult(u, s, transpose(vh, -2, -1))
    s = svdvals(input)
    m, n = input.shape[-2:]
    batch = tuple(input.shape[:-2])
    u = Tensor._make(np.zeros(batch + (m, m), dtype=input.array.dtype), None)
    vh = Tensor._make(np.zeros(batch + (n, n), dtype=input.array.dtype), None)
    return SvdResult(u, s, transpose(vh, -2, -1))


@register("svdvals", sig="linalg.svdvals(A)", doc="the singular values, largest first", category="linalg",
          linalg=True)
def svdvals(A):
    # torch computes U and Vh (jobz 'S') only when A needs a gradient: their singular values can differ in the
    # last bits from jobz 'N''s
    needs = A.requires_grad and GradMode.enabled
    return linalg_svd_outputs(A, False, needs, wanted=(1,))[1]
