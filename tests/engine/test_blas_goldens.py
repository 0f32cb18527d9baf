"""torch's float32/float64 matrix products and their gradients through MKL, bit for bit, against
tests/goldens/blas.json.gz (scripts/make_blas_goldens.py): mm, matmul in all its forms (dot, mv, vector @ matrix,
folded, batched, broadcast), bmm (ATen's small loop and MKL's batch), mv, dot, addmm, F.linear, every operand
layout (transposed and permuted views, strided slices), size-1 and empty dims, 1 and 2 threads.  Needs the `mkl`
package (torch 2.13's MKL 2024.2: `pip install 'gradcli[mkl]'`); numpy's BLAS sums in other orders, so the
test is skipped without it, and checks that numpy's products do differ on most of these cases."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import defaultdict

import numpy as np
import pytest
from goldens import GOLDEN_DIR

from gradcli.engine import ops
from gradcli.engine.autograd import backward
from gradcli.engine.kernels import blas, mkl
from gradcli.engine.tensor import Tensor

GOLDENS = json.loads(gzip.decompress((GOLDEN_DIR / "blas.json.gz").read_bytes()))
GROUPS = defaultdict(list)
for _case in GOLDENS["cases"]:
    GROUPS[(_case["op"], _case["dtype"])].append(_case)

needs_mkl = pytest.mark.skipif(not mkl.available(), reason=f"MKL 2024.2 (torch 2.13's BLAS) is not available: "
                               f"{mkl.why_not()}; numpy's BLAS sums products in other orders")


def values(shape, dtype: str, salt: int = 0) -> np.ndarray:
    """The generator script's deterministic values (scripts/make_blas_goldens.py)."""
    n = int(np.prod(shape))
    with np.errstate(over="ignore"):
        h = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(salt * 7919 + 1)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    mantissa = 1.0 + (h >> np.uint64(12)).astype(np.float64) / 2.0 ** 52
    sign = np.where(h & np.uint64(1), -1.0, 1.0)
    exponent = ((h >> np.uint64(3)) % np.uint64(6)).astype(np.float64) - 3
    return (sign * mantissa * 2.0 ** exponent).astype(dtype).reshape(shape)


def digest(array) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def operand(spec, dtype, salt, need):
    shape, perm, step = spec["shape"], spec["perm"], spec.get("step", 1)
    if spec.get("expand"):  # one value seen at every position (stride 0)
        return Tensor(np.broadcast_to(values([1] * len(shape), dtype, salt), shape), requires_grad=need)
    stored = [shape[i] for i in perm]
    stored[-1] *= step
    base = values(stored, dtype, salt)
    if step != 1:
        base = base[..., ::step]
    return Tensor(base.transpose(list(np.argsort(perm))), requires_grad=need)


def call(op, ts, params):
    if op == "addmm":
        return ops.REGISTRY["addmm"].fn(ts[2], ts[0], ts[1], beta=params.get("beta", 1), alpha=params.get("alpha", 1))
    if op == "linear":
        return ops.REGISTRY["linear"].fn(ts[0], ts[1], ts[2] if len(ts) > 2 else None)
    return ops.REGISTRY[op].fn(*ts)


def run(case):
    ts = [operand(spec, case["dtype"], 17 * i + len(spec["shape"]) + sum(spec["shape"]), need)
          for i, (spec, need) in enumerate(zip(case["specs"], case["needs"]))]
    out = call(case["op"], ts, case["params"])
    wrong = []
    if list(out.shape) != case["out_shape"] or digest(out.array) != case["out"]:
        wrong.append("value")
    if "grads" in case:
        backward(out, Tensor(values(case["out_shape"], case["dtype"], 99)))
        for i, (t, want) in enumerate(zip(ts, case["grads"])):
            if want is not None and (t.grad is None or digest(t.grad.array) != want):
                wrong.append(f"grad {i}")
    return wrong


@needs_mkl
@pytest.mark.parametrize("key", sorted(GROUPS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_products_bit_for_bit(key):
    before = mkl.threads()
    failures = []
    try:
        for case in GROUPS[key]:
            mkl.set_threads(case["threads"])
            wrong = run(case)
            if wrong:
                failures.append(([s["shape"] for s in case["specs"]], [s["perm"] for s in case["specs"]],
                                 [s.get("step", 1) for s in case["specs"]], case["needs"], case["threads"], wrong))
    finally:
        mkl.set_threads(before)
    assert not failures, f"{len(failures)} of {len(GROUPS[key])} differ from torch: {failures[:6]}"


def test_numpy_products_differ_from_torch_on_most_goldens(monkeypatch):
    """The goldens discriminate: without MKL (numpy's BLAS) most products of long sums miss them."""
    monkeypatch.setattr(blas, "_char", lambda *arrays: None)
    differ = total = 0
    for dtype in ("float32", "float64"):
        for case in GROUPS[("mm", dtype)]:
            m, k = case["specs"][0]["shape"]
            if k < 64 or min(m, case["specs"][1]["shape"][1]) < 8 or case["threads"] != 1:
                continue
            total += 1
            differ += "value" in run(case)
    assert total > 50 and differ > 0.7 * total, (differ, total)  # measured: 96 of 126


def test_disabled_by_the_environment(monkeypatch):
    """GRADCLI_MKL=0: MKL is neither loaded nor used, and says why."""
    monkeypatch.setenv("GRADCLI_MKL", "0")
    saved = dict(mkl._state)
    mkl.reset()
    try:
        assert not mkl.available()
        assert "GRADCLI_MKL=0" in mkl.why_not()
        a = np.ones((3, 4), np.float32)
        assert blas.mm(a, a.T) is None
    finally:
        mkl._state.clear()
        mkl._state.update(saved)


@pytest.mark.parametrize(("expression", "loaded"), [("(x ** 2).sum()", False), ("x @ x", True)])
def test_mkl_is_loaded_by_the_first_product_not_at_start_up(expression, loaded):
    """The ~0.1 s load happens on the first product only: gradcli's start-up and an eval with no matrix product
    leave the library out of the process (and a product brings it in, when it is installed)."""
    import subprocess
    import sys

    code = ("import sys\n"
            "import gradcli.cli.main\n"  # the command line's start-up
            "import gradcli\n"
            "from gradcli.engine.kernels import mkl\n"
            f"gradcli.grad({expression!r}, x=[1.0, 2.0, 3.0], check=False)\n"
            "maps = open('/proc/self/maps').read() if sys.platform == 'linux' else ''\n"
            "print('LOADED' if mkl.loaded() or 'libmkl' in maps else 'NOT LOADED')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert out.strip().splitlines()[-1] == ("LOADED" if loaded and mkl.available() else "NOT LOADED"), out


def test_linear_backward_without_mkl_computes_both_gradients(monkeypatch):
    """Without MKL the column-major branch of mm_backward has no product to transpose: F.linear's backward then
    takes the numpy path (it raised AttributeError on None.T for an input that requires grad).  Gradients of
    (x @ w.T + b).sum(): x's rows are w's column sums, w's rows are x's column sums, b's are the row count."""
    monkeypatch.setenv("GRADCLI_MKL", "0")
    saved = dict(mkl._state)
    mkl.reset()
    try:
        x = Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3), requires_grad=True)
        w = Tensor(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32), requires_grad=True)
        b = Tensor(np.zeros(2, dtype=np.float32), requires_grad=True)
        backward([ops.REGISTRY["linear"].fn(x, w, b).sum()], None)
        assert x.grad.array.tolist() == [[[5.0, 7.0, 9.0]] * 2] * 2
        assert w.grad.array.tolist() == [[18.0, 22.0, 26.0]] * 2
        assert b.grad.array.tolist() == [4.0, 4.0]
    finally:
        mkl._state.clear()
        mkl._state.update(saved)
