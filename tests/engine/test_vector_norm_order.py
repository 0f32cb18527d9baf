"""linalg.vector_norm for ord other than 2 in ATen's reduction order (binary_kernel_reduce with NormOneOps /
NormOps: serial in TensorIterator's order, std::pow per element, the thread split of a whole reduction), bit
for bit against torch 2.13 (tests/goldens/vector_norm_order.json, scripts/make_vector_norm_goldens.py): lengths
1 to 10**5 and every dim set of 2-D and 3-D tensors, plain and transposed, float32 and float64."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from goldens import load

from gradcli import engine
from gradcli.engine import dtypes, kernels
from gradcli.engine.ops import LINALG

GOLDEN = load("vector_norm_order.json")


@pytest.fixture(autouse=True)
def torchs_thread_count(monkeypatch):
    """The goldens' thread count (a whole reduction of >= 32768 elements is split between threads)."""
    monkeypatch.setattr(kernels, "THREADS", GOLDEN["threads"])


def values(shape, seed, dtype):
    """The goldens' inputs (the script's formula, repeated here: the script imports torch)."""
    n = math.prod(shape)
    i = np.arange(n, dtype=np.uint64) + np.uint64(seed * 1000003)
    h = (i * np.uint64(2654435761)) % np.uint64(2**32)
    x = h.astype(np.float64) / 2**32 * 4 - 2
    x[::7] *= 1e-3
    return x.astype(dtype).reshape(shape)


def _norm(x, ord, dim=None, keepdim=False, perm=None):  # noqa: A002 - torch's name
    t = engine.tensor(x, dtype=dtypes.float32 if x.dtype == np.float32 else dtypes.float64)
    if perm is not None:
        t = t.permute(*perm)
    with kernels.bits("torch"):
        return LINALG["vector_norm"].fn(t, ord=ord, dim=dim, keepdim=keepdim).array


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64).reshape(-1).tolist()


@pytest.mark.parametrize("case", GOLDEN["lengths"], ids=[f"{c['dtype']}-{c['n']}" for c in GOLDEN["lengths"]])
def test_whole_vector_norm_bit_for_bit(case):
    x = values((case["n"],), case["n"], case["dtype"])
    wrong = {}
    for ord_text, expected in case["bits"].items():
        got = _bits(_norm(x, float(ord_text)))[0]
        if got != expected:
            wrong[ord_text] = (got, expected)
    assert not wrong


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vector_norm_over_dims_bit_for_bit(dtype):
    cache, wrong = {}, []
    for case in (c for c in GOLDEN["dims"] if c["dtype"] == dtype):
        key = (tuple(case["shape"]), case["seed"])
        if key not in cache:
            cache[key] = values(key[0], key[1], dtype)
        out = np.ascontiguousarray(_norm(cache[key], case["ord"], tuple(case["dims"]), case["keepdim"],
                                         case["perm"]))
        if list(out.shape) != case["out_shape"] or hashlib.sha256(out.tobytes()).hexdigest() != case["sha256"]:
            wrong.append((case["shape"], case["perm"], case["dims"], case["ord"], case["keepdim"],
                          _bits(out)[:4], case["head"]))
    assert not wrong, wrong[:5]
