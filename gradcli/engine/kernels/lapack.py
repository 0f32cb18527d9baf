"""torch's LU-based linear algebra through MKL's LAPACK, as ATen calls it (when MKL is installed).

aten/src/ATen/native/BatchLinearAlgebra.cpp: linalg_lu_factor_ex runs ?getrf on each matrix in column-major
storage; det and slogdet factor Aᵀ when A is contiguous (its own memory is then column-major Aᵀ: no copy) and A
otherwise; linalg_solve_ex (and linalg_inv_ex, a solve against the identity) factors A (measured: A itself,
whatever its layout) and solves with ?getrs('N') on a column-major copy of B, so its result is column-major.  MKL's
blocked LU (beyond 16x16) and its solves have no simpler description: they are called, not reproduced.
Functions return None when MKL is not available or the dtype is not float32/float64."""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import mkl

_CHARS = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}


def _char(a):
    char = _CHARS.get(a.dtype)
    return char if char is not None and mkl.available() else None


def available(a) -> bool:
    """Whether MKL's LAPACK computes for arrays like `a`."""
    return _char(a) is not None


def getrf_batch(m: np.ndarray):
    """?getrf of each matrix M of the batch `m` (column-major, as LAPACK stores it): (buffer, ipiv, info) where
    buffer[..., j, i] is entry (i, j) of L\\U (the C-order memory of a column-major matrix), ipiv 1-based."""
    char = _char(m)
    if char is None:
        return None
    n = m.shape[-1]
    buf = np.array(np.swapaxes(m, -1, -2), order="C", copy=True)  # column-major M
    flat = buf.reshape(-1, n, n)
    ipiv = np.zeros((flat.shape[0], n), dtype=np.int32)
    info = np.zeros(flat.shape[0], dtype=np.int64)
    if n:
        for i in range(flat.shape[0]):
            info[i] = mkl.getrf(char, n, n, flat[i].ctypes.data, n, ipiv[i].ctypes.data)
    return buf, ipiv.reshape(m.shape[:-1]), info.reshape(m.shape[:-2])


def torch_factor_of(a: np.ndarray) -> tuple[np.ndarray, bool]:
    """The matrix torch's det, slogdet and solve factor: Aᵀ when A is contiguous, else A; and whether it is Aᵀ."""
    if a.flags.c_contiguous:
        return np.swapaxes(a, -1, -2), True
    return a, False


def lu(a: np.ndarray):
    """(L\\U, row permutation, parity) of the matrix torch factors for det/slogdet (lu.torch_lu's format:
    row-major L\\U of that matrix); None without MKL."""
    m, _ = torch_factor_of(a)
    got = getrf_batch(m)
    if got is None:
        return None
    buf, ipiv, _ = got
    n = a.shape[-1]
    lus = np.swapaxes(buf, -1, -2)
    swaps = ipiv.reshape(-1, n) - 1
    perms = np.tile(np.arange(n), (swaps.shape[0], 1))
    for k in range(n):
        p = swaps[:, k]
        rows = np.arange(swaps.shape[0])
        perms[rows, k], perms[rows, p] = perms[rows, p], perms[rows, k].copy()
    parities = np.where((swaps != np.arange(n)).sum(axis=-1) % 2 == 1, -1, 1).astype(a.dtype)
    return lus, perms.reshape(a.shape[:-1]), parities.reshape(a.shape[:-2])


def lu_solve(a: np.ndarray, b: np.ndarray, factor_transpose: bool, trans: str):
    """getrs(trans) on the LU of Aᵀ (factor_transpose and A contiguous) or of A, against B (..., n, k) broadcast
    against A: (X column-major, info of each A); None without MKL."""
    char = _char(a)
    if char is None or b.dtype != a.dtype:
        return None
    m, transposed = torch_factor_of(a) if factor_transpose else (a, False)
    buf, ipiv, info = getrf_batch(m)
    n = a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    k = b.shape[-1]
    out = np.array(np.swapaxes(np.broadcast_to(b, batch + b.shape[-2:]), -1, -2), order="C", copy=True)
    if n and k and not np.any(info):
        flat_out = out.reshape(-1, k, n)
        flat_lu = np.broadcast_to(buf, batch + (n, n)).reshape(-1, n, n)
        flat_piv = np.broadcast_to(ipiv, batch + (n,)).reshape(-1, n)
        for i in range(flat_out.shape[0]):
            lu_i = np.ascontiguousarray(flat_lu[i])
            piv_i = np.ascontiguousarray(flat_piv[i])
            mkl.getrs(char, trans, n, k, lu_i.ctypes.data, n, piv_i.ctypes.data, flat_out[i].ctypes.data, n)
    return np.swapaxes(out, -1, -2), info


def diagonal_gradient(a: np.ndarray, d: np.ndarray):
    """det's and slogdet's gradient d·A⁻ᵀ as torch computes it without a graph: linalg_lu_solve on the LU their
    forward made (of Aᵀ when A is contiguous: then M X = d·I, else Mᴴ X = d·I) against diag_embed(d); None
    without MKL or for a singular A (torch's SVD path there)."""
    if _char(a) is None:
        return None
    n = a.shape[-1]
    rhs = np.zeros(a.shape, dtype=a.dtype)
    idx = np.arange(n)
    rhs[..., idx, idx] = np.asarray(d, dtype=a.dtype)[..., None]
    got = lu_solve(a, rhs, True, "N" if a.flags.c_contiguous else "C")
    if got is None or np.any(got[1]):
        return None
    return got[0]


def solve(a: np.ndarray, b: np.ndarray, factor_transpose: bool = False):
    """torch.linalg.solve_ex(A, B) for a matrix B (..., n, k) broadcast against A: (X, info of each A) with X
    column-major, as torch returns it; None without MKL.  Measured: torch 2.13 factors A itself, whatever its
    layout (factor_transpose=True: the LU of Aᵀ and getrs('C'), as ATen's source describes use_A_T)."""
    transposed = factor_transpose and a.flags.c_contiguous
    return lu_solve(a, b, factor_transpose, "C" if transposed else "N")


def inverse(a: np.ndarray):
    """torch.linalg.inv_ex(A): a solve against the identity, column-major; (X, info); None without MKL.  Measured:
    torch factors A itself here, whatever its layout (its inv of a contiguous A is that of A's F-ordered copy)."""
    n = a.shape[-1]
    eye = np.broadcast_to(np.eye(n, dtype=a.dtype), a.shape)
    return solve(a, eye)


def _work_size(wkopt, dtype) -> int:
    """lapack_work_to_int: the workspace size LAPACK's query wrote, rounded up when the float misses an integer."""
    value = float(wkopt)
    size = int(value)
    if size != value:
        size = int(np.nextafter(dtype.type(value), dtype.type(np.inf)))
    return size


def gesdd(a: np.ndarray, full_matrices: bool, compute_uv: bool):
    """torch's _linalg_svd on the CPU (BatchLinearAlgebraKernel.cpp, apply_svd): ?gesdd on a column-major copy
    of each matrix of the batch, jobz 'A' (full_matrices), 'S' or 'N' (not compute_uv), one workspace query for
    the batch, U and Vh written column-major.  Returns (U, S, Vh, info) with U and Vh in that layout (views of
    column-major buffers, as torch's own outputs; None, None without compute_uv) and info per matrix; None
    without MKL.  An empty A is the caller's (torch never calls LAPACK for it)."""
    char = _char(a)
    if char is None:
        return None
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    count = int(np.prod(batch, dtype=np.int64))
    jobz = ("A" if full_matrices else "S") if compute_uv else "N"
    work_a = np.array(np.swapaxes(a, -1, -2), order="C", copy=True).reshape(count, n, m)  # column-major A
    s = np.zeros((count, k), dtype=a.dtype)
    u_cols, vh_rows = (m, n) if full_matrices else (k, k)
    if compute_uv:
        u = np.zeros((count, u_cols, m), dtype=a.dtype)  # column-major (m, u_cols) matrices
        vh = np.zeros((count, n, vh_rows), dtype=a.dtype)  # column-major (vh_rows, n)
        ldu, ldvh = max(m, 1), max(vh_rows, 1)
    else:
        u = vh = np.zeros((1, 1, 1), dtype=a.dtype)
        ldu = ldvh = 1
    lda = max(m, 1)
    iwork = np.zeros(max(8 * k, 1), dtype=np.int32)
    info = np.zeros(count, dtype=np.int32)
    wkopt = np.zeros(1, dtype=a.dtype)
    mkl.gesdd(char, jobz, m, n, work_a[0].ctypes.data, lda, s[0].ctypes.data, u[0].ctypes.data, ldu,
              vh[0].ctypes.data, ldvh, wkopt.ctypes.data, -1, iwork.ctypes.data)
    lwork = _work_size(wkopt[0], a.dtype)
    work = np.zeros(max(lwork, 1), dtype=a.dtype)
    for i in range(count):
        info[i] = mkl.gesdd(char, jobz, m, n, work_a[i].ctypes.data, lda, s[i].ctypes.data,
                            u[i if compute_uv else 0].ctypes.data, ldu, vh[i if compute_uv else 0].ctypes.data,
                            ldvh, work.ctypes.data, lwork, iwork.ctypes.data)
    s = s.reshape(batch + (k,))
    info = info.reshape(batch)
    if not compute_uv:
        return None, s, None, info
    u = np.swapaxes(u.reshape(batch + (u_cols, m)), -1, -2)
    vh = np.swapaxes(vh.reshape(batch + (n, vh_rows)), -1, -2)
    return u, s, vh, info


def syevd(a: np.ndarray, upper: bool, compute_v: bool):
    """torch's _linalg_eigh on the CPU (apply_lapack_eigh): ?syevd on a column-major copy of each matrix, jobz 'V'
    or 'N', uplo from UPLO, one workspace query for the batch (lwork and liwork at least 1), stopping at the first
    matrix whose info is not 0.  Returns (eigenvalues, eigenvectors column-major or None, info); None without
    MKL.  An empty A is the caller's."""
    char = _char(a)
    if char is None:
        return None
    n = a.shape[-1]
    batch = a.shape[:-2]
    count = int(np.prod(batch, dtype=np.int64))
    vectors = np.array(np.swapaxes(a, -1, -2), order="C", copy=True).reshape(count, n, n)  # column-major A
    w = np.zeros((count, n), dtype=a.dtype)
    info = np.zeros(count, dtype=np.int32)
    jobz, uplo, lda = ("V" if compute_v else "N"), ("U" if upper else "L"), max(1, n)
    work_query = np.zeros(1, dtype=a.dtype)
    iwork_query = np.zeros(1, dtype=np.int32)
    mkl.syevd(char, jobz, uplo, n, vectors[0].ctypes.data, lda, w[0].ctypes.data, work_query.ctypes.data, -1,
              iwork_query.ctypes.data, -1)
    lwork = max(1, int(work_query[0]))
    liwork = max(1, int(iwork_query[0]))
    work = np.zeros(lwork, dtype=a.dtype)
    iwork = np.zeros(liwork, dtype=np.int32)
    for i in range(count):
        info[i] = mkl.syevd(char, jobz, uplo, n, vectors[i].ctypes.data, lda, w[i].ctypes.data, work.ctypes.data,
                            lwork, iwork.ctypes.data, liwork)
        if info[i]:
            break
    values = w.reshape(batch + (n,))
    if not compute_v:
        return values, None, info.reshape(batch)
    return values, np.swapaxes(vectors.reshape(batch + (n, n)), -1, -2), info.reshape(batch)


def potrf(a: np.ndarray, upper: bool):
    """torch's linalg_cholesky_ex on the CPU: the lower (upper) triangle of A copied into a column-major result
    (tril_out/triu_out), then ?potrf('L'/'U') on each matrix.  Returns (factor column-major, info per matrix);
    None without MKL."""
    char = _char(a)
    if char is None:
        return None
    n = a.shape[-1]
    tri = np.triu(a) if upper else np.tril(a)
    buf = np.array(np.swapaxes(tri, -1, -2), order="C", copy=True)  # column-major
    flat = buf.reshape(-1, n, n)
    info = np.zeros(flat.shape[0], dtype=np.int32)
    if n:
        for i in range(flat.shape[0]):
            info[i] = mkl.potrf(char, "U" if upper else "L", n, flat[i].ctypes.data, max(1, n))
    return np.swapaxes(buf, -1, -2), info.reshape(a.shape[:-2])
