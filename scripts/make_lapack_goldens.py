"""Generate tests/goldens/lapack.json.gz: PyTorch 2.13's float32/float64 det, slogdet, linalg.inv and
linalg.solve (vector and matrix right-hand sides, batched, broadcast) and their gradients, bit for bit (SHA-256
of the bytes), for sizes 1-100 with contiguous and transposed inputs.  torch computes them with MKL's getrf and
getrs; gradcli calls the same routines when the `mkl` package is installed (gradcli/engine/kernels/lapack.py;
tests/engine/test_lapack_goldens.py, skipped without MKL).  Inputs are scripts/make_blas_goldens.py's hash
values.  Dev-only: the test suite never imports torch.

    python scripts/make_lapack_goldens.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import torch
from make_blas_goldens import digest, operand, spec, values

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "lapack.json.gz"
SIZES = [1, 2, 3, 4, 5, 8, 15, 16, 17, 24, 31, 32, 33, 48, 64, 65, 100]


def call(op, ts):
    if op == "det":
        return (torch.linalg.det(ts[0]),)
    if op == "slogdet":
        return tuple(torch.linalg.slogdet(ts[0]))
    if op == "inv":
        return (torch.linalg.inv(ts[0]),)
    if op == "solve":
        return (torch.linalg.solve(ts[0], ts[1]),)
    raise ValueError(op)


def record(op, specs, dtype, needs):
    torch.set_num_threads(1)
    ts = []
    for i, (sp, need) in enumerate(zip(specs, needs)):
        t = operand(sp, dtype, salt=31 * i + len(sp["shape"]) + sum(sp["shape"]))
        ts.append(t.requires_grad_(need) if need else t)
    outs = call(op, ts)
    case = {"op": op, "dtype": dtype, "specs": specs, "needs": needs,
            "out_shapes": [list(o.shape) for o in outs], "outs": [digest(o.detach().numpy()) for o in outs]}
    out = outs[-1]  # slogdet: the gradient flows through logabsdet
    if any(needs):
        out.backward(torch.from_numpy(values(list(out.shape), dtype, 99)))
        case["grads"] = [digest(t.grad.numpy()) if need else None for t, need in zip(ts, needs)]
    return case


def cases():
    found = []
    for dtype in ("float32", "float64"):
        for n in SIZES:
            for perm in ([0, 1], [1, 0]):
                for op in ("det", "slogdet", "inv"):
                    found.append(record(op, [spec((n, n), perm)], dtype, [True]))
                found.append(record("solve", [spec((n, n), perm), spec((n,))], dtype, [True, True]))
                found.append(record("solve", [spec((n, n), perm), spec((n, 3))], dtype, [True, True]))
            for op in ("det", "slogdet", "inv"):
                found.append(record(op, [spec((3, n, n))], dtype, [True]))
                found.append(record(op, [spec((3, n, n), [0, 2, 1])], dtype, [True]))
            found.append(record("solve", [spec((2, n, n)), spec((2, n, 4))], dtype, [True, True]))
            found.append(record("solve", [spec((n, n)), spec((3, n, 2))], dtype, [False, True]))
    return found


def main():
    found = cases()
    OUT.write_bytes(gzip.compress(json.dumps({"torch": torch.__version__, "cases": found}).encode(), mtime=0))
    print(f"{len(found)} cases -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
