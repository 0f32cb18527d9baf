"""LU factorisation as LAPACK's getrf computes it, for the places where numpy has none and a singular
matrix must give what torch's LU-based kernels give (the pivot torch names, signs, infinities)."""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import lapack


def lu_factor(a: np.ndarray):
    """getrf's LU factorisation with partial pivoting (the first largest |pivot|; a zero column is left
    unscaled), one matrix of the batch at a time, as the MKL inside torch computes it up to 16x16 (bit for bit,
    measured): right-looking rank-1 updates, each column of multipliers scaled by the pivot's reciprocal -
    except the last one of a matrix up to 4x4, which is divided.  (L\\U combined, row permutations, parities).
    numpy has no LU; torch's det, slogdet and singular matrices need this one."""
    n = a.shape[-1]
    lus = np.array(a, copy=True).reshape(-1, n, n)
    perms = np.tile(np.arange(n), (len(lus), 1))
    parities = np.ones(len(lus), dtype=a.dtype)
    batch = np.arange(len(lus))
    for k in range(n):  # one step for the whole batch; each matrix its own pivot
        p = k + np.argmax(np.abs(lus[:, k:, k]), axis=1)
        live = lus[batch, p, k] != 0
        swap = batch[live & (p != k)]
        if len(swap):
            ps = p[swap]
            lus[swap, k], lus[swap, ps] = lus[swap, ps], lus[swap, k].copy()
            perms[swap, k], perms[swap, ps] = perms[swap, ps], perms[swap, k].copy()
            parities[swap] = -parities[swap]
        if k + 1 == n or not live.any():
            continue
        m = batch[live]
        pivots = lus[m, k, k][:, None]
        if n <= 4 and k == n - 2:  # MKL's small-matrix kernel divides the last multiplier
            lus[m, k + 1:, k] = lus[m, k + 1:, k] / pivots
        else:
            lus[m, k + 1:, k] = lus[m, k + 1:, k] * (1 / pivots)
        lus[m, k + 1:, k + 1:] = lus[m, k + 1:, k + 1:] - lus[m, k + 1:, k][:, :, None] * lus[m, k, k + 1:][:, None, :]
    return lus.reshape(a.shape), perms.reshape(a.shape[:-1]), parities.reshape(a.shape[:-2])


def torch_lu(a: np.ndarray):
    """lu_factor of the matrix torch's det and slogdet factor: Aᵀ when A is contiguous (its column-major
    storage, so LAPACK needs no copy), A itself otherwise (BatchLinearAlgebra.cpp, _linalg_det_out).  MKL's own
    getrf when MKL is installed (any size), else lu_factor (MKL's bits up to 16x16)."""
    exact = lapack.lu(a)
    if exact is not None:
        return exact
    return lu_factor(np.swapaxes(a, -1, -2) if a.flags.c_contiguous else a)


def det_from_lu(lus: np.ndarray, parities: np.ndarray) -> np.ndarray:
    """torch's det from the LU: the product of U's diagonal, left to right, times the permutation's sign."""
    diagonal = np.diagonal(lus, axis1=-2, axis2=-1)
    prod = np.ones(lus.shape[:-2], dtype=lus.dtype)
    for k in range(diagonal.shape[-1]):
        prod = prod * diagonal[..., k]
    return parities * prod


def singular_where(a: np.ndarray) -> tuple[str, int]:
    """For a singular (batch of) matrix: torch's "(Batch element b): " prefix ('' unbatched) and the 1-based
    position of the first zero on U's diagonal (getrf's info), for torch's error messages."""
    lus, _, _ = lu_factor(a)
    n = a.shape[-1]
    zero = np.diagonal(lus.reshape(-1, n, n), axis1=-2, axis2=-1) == 0
    batch = int(np.argmax(zero.any(axis=-1)))
    prefix = f"(Batch element {batch}): " if a.ndim > 2 else ""
    return prefix, int(np.argmax(zero[batch])) + 1


def singular_by_lu(a: np.ndarray) -> np.ndarray:
    """Over the batch: whether getrf's LU of `a` has an exact zero pivot.  The LU runs only where the matrix
    is ill-conditioned (cond > 1e12, or not finite); a well-conditioned one has no zero pivot."""
    with np.errstate(all="ignore"):
        cond = np.linalg.cond(a) if a.shape[-1] else np.zeros(a.shape[:-2])
    suspect = ~(cond < 1e12)
    singular = np.zeros(a.shape[:-2], dtype=bool)
    if np.any(suspect):
        lus, _, _ = lu_factor(a[suspect])
        singular[suspect] = (np.diagonal(lus, axis1=-2, axis2=-1) == 0).any(axis=-1)
    return singular


def inverse_by_lu(a: np.ndarray) -> np.ndarray:
    """a⁻¹ by getrf + getrs (P·a = L·U; a⁻¹ = U⁻¹·L⁻¹·P), one matrix at a time: a singular matrix gives the
    infinities and nans of the divisions by its zero pivot, as torch's LU-based solves do."""
    n = a.shape[-1]
    lus, perms, _ = lu_factor(a)
    out = np.empty((lus.size // (n * n) if n else 0, n, n), dtype=a.dtype)
    with np.errstate(all="ignore"):
        for lu, perm, y in zip(lus.reshape(-1, n, n), perms.reshape(-1, n), out):
            y[...] = np.eye(n, dtype=a.dtype)[perm]  # P
            for i in range(n):  # L·z = P: unit lower triangular
                y[i] -= lu[i, :i] @ y[:i]
            for i in range(n - 1, -1, -1):  # U·x = z
                y[i] = (y[i] - lu[i, i + 1:] @ y[i + 1:]) / lu[i, i]
    return out.reshape(a.shape)
