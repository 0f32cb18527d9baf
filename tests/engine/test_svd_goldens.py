"""torch's SVD family (torch.svd, linalg.svd, svdvals, pinv, matrix_norm 2/-2/'nuc') and its gradients against
tests/goldens/svd.json.gz (scripts/make_svd_goldens.py, recorded from PyTorch 2.13): bit for bit through MKL's
?gesdd (skipped without the `mkl` package), and within a tolerance through numpy's LAPACK (GRADCLI_MKL=0, the
docs/deviations.md row): singular values, singular vectors up to their sign, gradients where numpy's signs are
torch's.  torch's errors (a NaN in the input, the largest of no singular values) are checked in both modes."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import defaultdict

import numpy as np
import pytest
from goldens import GOLDEN_DIR
from test_blas_goldens import values

from gradcli.engine import ops
from gradcli.engine.autograd import backward
from gradcli.engine.errors import EngineError
from gradcli.engine.kernels import mkl
from gradcli.engine.tensor import Tensor

GOLDENS = json.loads(gzip.decompress((GOLDEN_DIR / "svd.json.gz").read_bytes()))
GROUPS = defaultdict(list)
for _case in GOLDENS["cases"]:
    GROUPS[(_case["op"], _case["dtype"])].append(_case)

needs_mkl = pytest.mark.skipif(not mkl.available(), reason=f"MKL 2024.2 (torch 2.13's LAPACK) is not available: "
                               f"{mkl.why_not()}; numpy's LAPACK decomposes in other orders")


def digest(array) -> str:
    a = np.array(array, copy=True)
    if a.dtype.kind == "f":
        a[np.isnan(a)] = np.nan
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def matrix(case):
    """The recorded input, rebuilt exactly (the script's matrix())."""
    shape, dtype, rank = case["shape"], case["dtype"], case["rank"]
    salt = len(shape) * 7 + sum(shape) + (rank or 0)
    transposed = case["transposed"]
    stored = list(shape[:-2]) + ([shape[-1], shape[-2]] if transposed else [shape[-2], shape[-1]])
    base = values(stored, dtype, salt)
    a = np.swapaxes(base, -1, -2) if transposed else base
    if rank is not None:
        for i in range(rank, shape[-2]):
            a[..., i, :] = a[..., i % rank, :]
    if case["op"].startswith("cholesky"):
        a = a + np.swapaxes(a, -1, -2)
        idx = np.arange(shape[-1])
        a[..., idx, idx] = 16 * shape[-1] + 1
    if case["nan"]:
        a[(-1,) * (a.ndim - 2) + (0, 0)] = np.nan
    return a


def call(op, t):
    linalg = ops.LINALG
    if op == "svd":
        return tuple(ops.REGISTRY["svd"].fn(t))
    if op == "svd_full":
        return tuple(t.svd(some=False))
    if op == "svd_nouv":
        return tuple(ops.REGISTRY["svd"].fn(t, compute_uv=False))
    if op == "linalg_svd":
        return tuple(linalg["svd"].fn(t, full_matrices=False))
    if op == "linalg_svd_full":
        return tuple(linalg["svd"].fn(t))
    if op == "svdvals":
        return (linalg["svdvals"].fn(t),)
    if op.startswith("eigh"):
        return tuple(linalg["eigh"].fn(t, UPLO=op[-1]))
    if op.startswith("eigvalsh"):
        return (linalg["eigvalsh"].fn(t, UPLO=op[-1]),)
    if op.startswith("cholesky"):
        return (linalg["cholesky"].fn(t, upper=op.endswith("U")),)
    if op == "pinv":
        return (linalg["pinv"].fn(t),)
    if op == "pinvh":
        return (linalg["pinv"].fn(t, hermitian=True),)
    return (linalg["matrix_norm"].fn(t, ord={"norm2": 2, "norm-2": -2, "normnuc": "nuc"}[op]),)


def run(case):
    """(outputs, input tensor) after the case's backward, or the error's text."""
    t = Tensor(matrix(case), requires_grad=case["grads"] is not None)
    try:
        outs = call(case["op"], t)
    except (EngineError, RuntimeError, IndexError) as err:
        return f"{type(err).__name__}: {err}", t
    grads = case["grads"]
    if grads is not None and "grad_error" not in case:
        pick = [i for i, c in enumerate({3: "USV", 2: "LV"}.get(len(outs), "")) if c in grads] or [0]
        backward([outs[i] for i in pick],
                 [Tensor(values(list(outs[i].shape), case["dtype"], 99 + i)) for i in pick])
    return outs, t


def check_error(case, got):
    kind, _, message = case["error"].partition(": ")
    assert isinstance(got, str), f"{case['op']} {case['shape']}: torch raised {case['error']}"
    assert got.endswith(message), got


def bit_differences(case):
    outs, t = run(case)
    if "error" in case:
        check_error(case, outs)
        return []
    if isinstance(outs, str):
        return [outs]
    wrong = [f"output {i}" for i, (o, shape, want) in enumerate(zip(outs, case["out_shapes"], case["outs"]))
             if list(o.shape) != shape or digest(o.array) != want]
    # cholesky's backward is not torch's order yet (its triangular solves are numpy's: docs/deviations.md)
    if "grad" in case and not case["op"].startswith("cholesky") and (
            t.grad is None or digest(t.grad.array) != case["grad"]):
        wrong.append("grad")
    return wrong


@needs_mkl
@pytest.mark.parametrize("key", sorted(GROUPS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_svd_bit_for_bit(key):
    before = mkl.threads()
    failures = []
    try:
        mkl.set_threads(1)
        for case in GROUPS[key]:
            wrong = bit_differences(case)
            if wrong:
                failures.append((case["shape"], case["grads"], case["rank"], case["transposed"], wrong))
    finally:
        mkl.set_threads(before)
    assert not failures, f"{len(failures)} of {len(GROUPS[key])} differ from torch: {failures[:8]}"


# -- without MKL: numpy's LAPACK, within a tolerance ----------------------------------------------------------

TOLERANCE = {"float64": 1e-9, "float32": 2e-4}  # relative to the largest singular value (docs/deviations.md)
FACTORS = {"svd", "svd_full", "linalg_svd", "linalg_svd_full"}


@pytest.fixture
def without_mkl(monkeypatch):
    monkeypatch.setenv(mkl.ENV, "0")
    mkl.reset()
    yield
    monkeypatch.undo()
    mkl.reset()


def _signs(got_u, want_u, k):
    """+-1 per column making numpy's first k singular vectors torch's (sign of their dot product)."""
    dots = np.sum(got_u[..., :, :k] * want_u[..., :, :k], axis=-2)
    return np.where(dots < 0, -1.0, 1.0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_svd_within_tolerance_without_mkl(dtype, without_mkl):
    assert not mkl.available()
    compared = flipped = 0
    for key, group in GROUPS.items():
        if key[1] != dtype:
            continue
        for case in group:
            if "error" in case:
                check_error(case, run(case)[0])
                continue
            if "values" not in case or case["rank"] is not None or case["nan"]:
                continue
            outs, t = run(case)
            assert not isinstance(outs, str), outs
            want = [np.array(v, dtype=np.float64).reshape(s) for v, s in zip(case["values"], case["out_shapes"])]
            scale = max(1.0, float(np.max(np.abs(matrix(case)), initial=0.0)))
            tol = TOLERANCE[dtype] * scale
            label = (case["op"], case["shape"], case["grads"], case["transposed"])
            same_signs = True
            if case["op"] in FACTORS and case["op"] != "svd_nouv" and want[1].size:
                k = want[1].shape[-1]
                got_u, got_v = outs[0].array.astype(np.float64), outs[2].array.astype(np.float64)
                v_is_vh = case["op"].startswith("linalg")
                want_v = np.swapaxes(want[2], -1, -2) if v_is_vh else want[2]
                got_v = np.swapaxes(got_v, -1, -2) if v_is_vh else got_v
                signs = _signs(got_u, want[0], k)
                same_signs = bool(np.all(signs == 1))
                flipped += not same_signs
                np.testing.assert_allclose(got_u[..., :k] * signs[..., None, :], want[0][..., :k], atol=tol,
                                           err_msg=str(label))
                np.testing.assert_allclose(got_v[..., :k] * signs[..., None, :], want_v[..., :k], atol=tol,
                                           err_msg=str(label))
                np.testing.assert_allclose(outs[1].array, want[1], atol=tol, err_msg=str(label))
            elif case["op"].startswith("eigh") and want[0].size:  # eigenvectors up to their sign
                np.testing.assert_allclose(outs[0].array, want[0], atol=tol * 10, err_msg=str(label))
                got_v = outs[1].array.astype(np.float64)
                signs = _signs(got_v, want[1], want[1].shape[-1])
                same_signs = bool(np.all(signs == 1))
                flipped += not same_signs
                np.testing.assert_allclose(got_v * signs[..., None, :], want[1], atol=tol * 10, err_msg=str(label))
            else:
                for o, w in zip(outs, want):
                    np.testing.assert_allclose(o.array, w, atol=tol * 10, err_msg=str(label))
            if "grad_values" in case and (same_signs or set(case["grads"]) <= {"S", "L", ""}):
                grad = np.array(case["grad_values"], dtype=np.float64).reshape(case["shape"])
                gscale = max(1.0, float(np.max(np.abs(grad), initial=0.0)))
                np.testing.assert_allclose(t.grad.array, grad, atol=TOLERANCE[dtype] * 10 * gscale * scale,
                                           err_msg=str(label))
            compared += 1
    assert compared > 200 and flipped < compared // 4, (compared, flipped)
