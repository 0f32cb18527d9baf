"""torch's det, slogdet, linalg.inv and linalg.solve and their gradients through MKL's getrf/getrs, bit for bit,
against tests/goldens/lapack.json.gz (scripts/make_lapack_goldens.py): sizes 1-100 (MKL blocks its LU beyond
16x16, where gradcli's own LU stops being exact), contiguous, transposed and batched inputs, vector and matrix
right-hand sides.  Needs the `mkl` package (torch 2.13's MKL 2024.2); skipped without it."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict

import pytest
from goldens import GOLDEN_DIR
from test_blas_goldens import digest, operand, values

from gradcli.engine import ops
from gradcli.engine.autograd import backward
from gradcli.engine.kernels import mkl
from gradcli.engine.tensor import Tensor

GOLDENS = json.loads(gzip.decompress((GOLDEN_DIR / "lapack.json.gz").read_bytes()))
GROUPS = defaultdict(list)
for _case in GOLDENS["cases"]:
    GROUPS[(_case["op"], _case["dtype"])].append(_case)

needs_mkl = pytest.mark.skipif(not mkl.available(), reason=f"MKL 2024.2 (torch 2.13's LAPACK) is not available: "
                               f"{mkl.why_not()}; numpy's LAPACK factors and solves in other orders")


def call(op, ts):
    if op == "det":
        return (ops.LINALG["det"].fn(ts[0]),)
    if op == "slogdet":
        return tuple(ops.LINALG["slogdet"].fn(ts[0]))
    if op == "inv":
        return (ops.inverse(ts[0]),)
    return (ops.LINALG["solve"].fn(ts[0], ts[1]),)


def run(case):
    ts = [operand(sp, case["dtype"], 31 * i + len(sp["shape"]) + sum(sp["shape"]), need)
          for i, (sp, need) in enumerate(zip(case["specs"], case["needs"]))]
    outs = call(case["op"], ts)
    wrong = [f"output {i}" for i, (o, shape, want) in enumerate(zip(outs, case["out_shapes"], case["outs"]))
             if list(o.shape) != shape or digest(o.array) != want]
    if case["op"] == "slogdet" and case["dtype"] == "float32" and len(case["specs"][0]["shape"]) > 2:
        # float32 logabsdet of a batch: log|u_ii| through torch's float32 log kernel, not gradcli's (the float32
        # log row of docs/deviations.md; the same without MKL) - the LU itself is checked by sign and gradient
        wrong = [w for w in wrong if w != "output 1"]
    if "grads" in case:
        out = outs[-1]
        backward(out, Tensor(values(list(out.shape), case["dtype"], 99)))
        wrong += [f"grad {i}" for i, (t, want) in enumerate(zip(ts, case["grads"]))
                  if want is not None and (t.grad is None or digest(t.grad.array) != want)]
    return wrong


@needs_mkl
@pytest.mark.parametrize("key", sorted(GROUPS), ids=lambda k: f"{k[0]}-{k[1]}")
def test_lapack_bit_for_bit(key):
    before = mkl.threads()
    failures = []
    try:
        mkl.set_threads(1)
        for case in GROUPS[key]:
            wrong = run(case)
            if wrong:
                failures.append(([s["shape"] for s in case["specs"]], [s["perm"] for s in case["specs"]], wrong))
    finally:
        mkl.set_threads(before)
    assert not failures, f"{len(failures)} of {len(GROUPS[key])} differ from torch: {failures[:8]}"
