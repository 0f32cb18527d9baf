"""LU factorisation as LAPACK's getrf computes it, for the places where numpy has none and a singular
matrix must give what torch's LU-based kernels give (the pivot torch names, signs, infinities)."""

from __future__ import annotations

import numpy as np


def lu_factor(a: np.ndarray):
    """LAPACK getrf's LU factorisation with partial pivoting (the first largest |pivot|; a zero column is
    left unscaled), one matrix of the batch at a time: (L\\U combined, row permutations, parities).
    numpy has no LU; a singular matrix needs the signs and infinities torch's LU-based kernels give."""
    n = a.shape[-1]
    lus = np.array(a, copy=True).reshape(-1, n, n)
    perms = np.tile(np.arange(n), (len(lus), 1))
    parities = np.ones(len(lus), dtype=a.dtype)
    for lu, perm, b in zip(lus, perms, range(len(lus))):
        for k in range(n):
            p = k + int(np.argmax(np.abs(lu[k:, k])))
            if lu[p, k] == 0:
                continue
            if p != k:
                lu[[k, p]] = lu[[p, k]]
                perm[[k, p]] = perm[[p, k]]
                parities[b] = -parities[b]
            lu[k + 1:, k] *= 1 / lu[k, k]
            lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lus.reshape(a.shape), perms.reshape(a.shape[:-1]), parities.reshape(a.shape[:-2])


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
