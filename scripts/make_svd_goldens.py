"""Generate tests/goldens/svd.json.gz: PyTorch 2.13's float32/float64 SVD family on the CPU and its gradients, and
linalg.eigh / eigvalsh (UPLO 'L' and 'U', gradients on the eigenvalues, the eigenvectors and both) and
linalg.cholesky (lower and upper, on exactly built positive-definite matrices) and linalg.pinv(hermitian=True):
torch.svd (some=True/False, compute_uv=False), torch.linalg.svd (full_matrices=True/False), linalg.svdvals
(with and without a gradient: torch asks LAPACK for U and Vh only in the first case), linalg.pinv and
linalg.matrix_norm(ord=2, -2, 'nuc'), on square, tall, wide, 1xN, Nx1, batched and rank-deficient (repeated rows:
repeated zero singular values) matrices, contiguous and transposed; gradients for grad_outputs on S only, U only,
V only and all three at once.  Each output and gradient is recorded bit for bit (SHA-256 of its bytes, NaNs made
canonical first) and, for matrices of up to 64 elements, by value (the tolerance tests without MKL).  torch
computes with MKL's ?gesdd; gradcli calls the same routine when the `mkl` package is installed
(tests/engine/test_svd_goldens.py).  Inputs are scripts/make_blas_goldens.py's hash values.  Dev-only: the test
suite never imports torch.

    python scripts/make_svd_goldens.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import torch
from make_blas_goldens import values

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "svd.json.gz"
SHAPES = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 3), (3, 5), (1, 4), (4, 1), (7, 7), (10, 6), (6, 10), (16, 16),
          (17, 17), (33, 20), (20, 33), (2, 3, 3), (3, 4, 2), (2, 2, 5, 4), (3, 2, 5), (0, 3), (3, 0), (2, 0, 0)]
SQUARE = [(1, 1), (2, 2), (3, 3), (4, 4), (7, 7), (16, 16), (17, 17), (33, 33), (2, 3, 3), (2, 2, 5, 5), (0, 0)]
DEFICIENT = [(5, 5, 2), (6, 4, 1), (4, 6, 2), (3, 3, 1), (2, 4, 4, 2)]  # (..., m, n, rank): rows repeated
VALUE_LIMIT = 64


def digest(array) -> str:
    a = np.array(array, copy=True)
    if a.dtype.kind == "f":
        a[np.isnan(a)] = np.nan  # one NaN: their signs and payloads are not what is compared
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def matrix(shape, dtype, salt, rank=None, transposed=False, nan=False, spd=False):
    """Hash values (stored transposed when `transposed`); with `rank`, rows >= rank repeat the first rank rows."""
    stored = list(shape[:-2]) + ([shape[-1], shape[-2]] if transposed else [shape[-2], shape[-1]])
    base = values(stored, dtype, salt)
    a = np.swapaxes(base, -1, -2) if transposed else base
    if rank is not None:
        m = shape[-2]
        for i in range(rank, m):
            a[..., i, :] = a[..., i % rank, :]
    if spd:  # symmetric, diagonally dominant: positive-definite, built exactly
        a = a + np.swapaxes(a, -1, -2)
        idx = np.arange(shape[-1])
        a[..., idx, idx] = 16 * shape[-1] + 1
    if nan:  # a NaN in the last matrix of the batch
        a[(-1,) * (a.ndim - 2) + (0, 0)] = np.nan
    return a


def call(op, t):
    if op == "svd":
        return tuple(torch.svd(t))
    if op == "svd_full":
        return tuple(torch.svd(t, some=False))
    if op == "svd_nouv":
        return tuple(torch.svd(t, compute_uv=False))
    if op == "linalg_svd":
        return tuple(torch.linalg.svd(t, full_matrices=False))
    if op == "linalg_svd_full":
        return tuple(torch.linalg.svd(t))
    if op == "svdvals":
        return (torch.linalg.svdvals(t),)
    if op.startswith("eigh"):
        return tuple(torch.linalg.eigh(t, UPLO=op[-1]))
    if op.startswith("eigvalsh"):
        return (torch.linalg.eigvalsh(t, UPLO=op[-1]),)
    if op.startswith("cholesky"):
        return (torch.linalg.cholesky(t, upper=op.endswith("U")),)
    if op == "pinv":
        return (torch.linalg.pinv(t),)
    if op == "pinvh":
        return (torch.linalg.pinv(t, hermitian=True),)
    if op.startswith("norm"):
        ord_ = {"norm2": 2, "norm-2": -2, "normnuc": "nuc"}[op]
        return (torch.linalg.matrix_norm(t, ord=ord_),)
    raise ValueError(op)


def record(op, shape, dtype, grads, rank=None, transposed=False, nan=False):
    spd = op.startswith("cholesky")
    torch.set_num_threads(1)
    salt = len(shape) * 7 + sum(shape) + (rank or 0)
    a = matrix(shape, dtype, salt, rank, transposed, nan, spd)
    t = torch.from_numpy(a).requires_grad_(grads is not None)
    case = {"op": op, "dtype": dtype, "shape": list(shape), "rank": rank, "transposed": transposed, "nan": nan,
            "grads": grads}
    try:
        outs = call(op, t)
    except (RuntimeError, IndexError) as err:
        case["error"] = f"{type(err).__name__}: {err}"
        return case
    case["out_shapes"] = [list(o.shape) for o in outs]
    case["outs"] = [digest(o.detach().numpy()) for o in outs]
    small = a.size <= VALUE_LIMIT
    if small:
        case["input"] = a.astype(np.float64).tolist()
        case["values"] = [o.detach().numpy().astype(np.float64).tolist() for o in outs]
    if grads is not None:
        pick = [i for i, c in enumerate({3: "USV", 2: "LV"}.get(len(outs), "")) if c in grads] or [0]
        gouts = [torch.from_numpy(values(list(outs[i].shape), dtype, 99 + i)) for i in pick]
        try:
            torch.autograd.backward([outs[i] for i in pick], gouts)
        except RuntimeError as err:
            case["grad_error"] = str(err)
            return case
        case["grad"] = digest(t.grad.numpy())
        if small:
            case["grad_values"] = t.grad.numpy().astype(np.float64).tolist()
    return case


def cases():
    found = []
    for dtype in ("float32", "float64"):
        for shape in SHAPES:
            both = len(shape) == 2 and (shape[0] != shape[1] or shape in ((7, 7), (16, 16)))
            for transposed in (False, True) if both else (False,):
                for op in ("svd", "svd_full", "svd_nouv", "linalg_svd", "linalg_svd_full", "svdvals", "pinv",
                           "norm2", "norm-2", "normnuc"):
                    found.append(record(op, shape, dtype, None, transposed=transposed))
                for grads in ("S", "U", "V", "USV", "US", "SV"):
                    found.append(record("svd", shape, dtype, grads, transposed=transposed))
                    found.append(record("linalg_svd", shape, dtype, grads, transposed=transposed))
                for grads in ("S", "USV"):
                    found.append(record("linalg_svd_full", shape, dtype, grads, transposed=transposed))
                for op in ("svdvals", "pinv", "norm2", "norm-2", "normnuc"):
                    found.append(record(op, shape, dtype, "", transposed=transposed))
        for *shape, rank in DEFICIENT:
            shape = tuple(shape)
            for op in ("svd", "svdvals", "pinv"):
                found.append(record(op, shape, dtype, None, rank=rank))
            for grads in ("S", "U", "USV"):
                found.append(record("linalg_svd", shape, dtype, grads, rank=rank))
            for op in ("svdvals", "pinv", "normnuc"):
                found.append(record(op, shape, dtype, "", rank=rank))
        for shape in SQUARE:  # eigh/eigvalsh read one triangle: the input is not symmetric on purpose
            for uplo in "LU":
                for op in ("eigh", "eigvalsh"):
                    found.append(record(op + uplo, shape, dtype, None))
                for grads in ("L", "V", "LV"):
                    found.append(record("eigh" + uplo, shape, dtype, grads))
                found.append(record("eigvalsh" + uplo, shape, dtype, ""))
                found.append(record("cholesky" + uplo, shape, dtype, None))
                found.append(record("cholesky" + uplo, shape, dtype, ""))
            found.append(record("pinvh", shape, dtype, ""))
        for shape in ((3, 3), (2, 3, 3), (4, 2)):
            for op in ("svd", "svdvals"):
                found.append(record(op, shape, dtype, None, nan=True))
    return found


def main():
    found = cases()
    OUT.write_bytes(gzip.compress(json.dumps({"torch": torch.__version__, "cases": found}).encode(), mtime=0))
    print(f"{len(found)} cases -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
