"""Generate tests/goldens/blas.json.gz: PyTorch 2.13's float32/float64 matrix products and their gradients, bit
for bit (SHA-256 of the bytes): mm, matmul (dot, mv, vector @ matrix, folded and batched, broadcast), bmm (the
small-loop and MKL-batch paths), mv, dot, addmm (beta/alpha), F.linear (2-D and 3-D inputs), each operand in
every memory layout (contiguous, transposed views, permuted batches, a strided slice that ATen copies), with
size-1 and empty dims, with and without requires_grad (matmul folds when the smaller operand needs a gradient),
under 1 and 2 threads (MKL splits some products differently: the test sets gradcli's MKL to the recorded count).
Inputs are the deterministic hash values of scripts/make_sum_order_goldens.py, rebuilt exactly by the test
(tests/engine/test_blas_goldens.py, skipped without MKL).  Dev-only: the test suite never imports torch.

    python scripts/make_blas_goldens.py
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import random
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "blas.json.gz"


def values(shape, dtype: str, salt: int = 0) -> np.ndarray:
    """Mixed signs and magnitudes from a hash of the index (the test rebuilds them exactly)."""
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


def operand(spec, dtype, salt):
    """spec: {"shape": logical shape, "perm": how it is stored (a permutation of its dims), "step": a slice
    step on its last dim}; returns the base array and the torch view."""
    shape, perm, step = spec["shape"], spec["perm"], spec.get("step", 1)
    if spec.get("expand"):  # one value seen at every position (stride 0), as expand() makes it
        return torch.from_numpy(values([1] * len(shape), dtype, salt)).expand(*shape)
    stored = [shape[i] for i in perm]
    stored[-1] *= step
    base = values(stored, dtype, salt)
    t = torch.from_numpy(base)
    if step != 1:
        t = t[..., ::step]
    inverse = list(np.argsort(perm))
    return t.permute(*inverse)


def call(op, ts, params):
    if op == "mm":
        return torch.mm(*ts)
    if op == "matmul":
        return torch.matmul(*ts)
    if op == "bmm":
        return torch.bmm(*ts)
    if op == "mv":
        return torch.mv(*ts)
    if op == "dot":
        return torch.dot(*ts)
    if op == "addmm":
        return torch.addmm(ts[2], ts[0], ts[1], beta=params.get("beta", 1), alpha=params.get("alpha", 1))
    if op == "linear":
        return F.linear(ts[0], ts[1], ts[2] if len(ts) > 2 else None)
    raise ValueError(op)


def record(op, specs, dtype, needs, threads, params=None):
    params = params or {}
    torch.set_num_threads(threads)
    ts = []
    for i, (spec, need) in enumerate(zip(specs, needs)):
        t = operand(spec, dtype, salt=17 * i + len(spec["shape"]) + sum(spec["shape"]))
        ts.append(t.requires_grad_(need) if need else t)
    out = call(op, ts, params)
    case = {"op": op, "dtype": dtype, "specs": specs, "needs": needs, "threads": threads, "params": params,
            "out_shape": list(out.shape), "out": digest(out.detach().numpy())}
    if any(needs):
        g = torch.from_numpy(values(list(out.shape), dtype, 99))
        out.backward(g)
        case["grads"] = [digest(t.grad.numpy()) if need else None for t, need in zip(ts, needs)]
    return case


def perms(ndim):
    return [list(p) for p in itertools.permutations(range(ndim))]


def spec(shape, perm=None, step=1):
    return {"shape": list(shape), "perm": list(perm if perm is not None else range(len(shape))), "step": step}


def layouts(shape, rng, count=None):
    """Every permutation of the dims (2-D: contiguous and transposed), plus one strided slice."""
    out = [spec(shape, p) for p in perms(len(shape))]
    if count is not None and len(out) > count:
        out = rng.sample(out, count)
    if len(shape) >= 1 and shape[-1] > 0:
        out.append(spec(shape, step=2))
    return out


def cases():
    rng = random.Random(0)
    found = []
    mm_shapes = [(5, 7, 3), (64, 100, 10), (64, 1000, 100), (1, 50, 30), (30, 50, 1), (1, 1, 1), (7, 1, 9),
                 (100, 300, 1), (3, 2000, 4), (200, 3, 1), (1, 500, 1), (33, 65, 17), (0, 4, 3), (4, 0, 3),
                 (4, 3, 0), (2, 2, 2), (129, 17, 65), (300, 200, 150)]
    mm_shapes += [(rng.randint(1, 80), rng.randint(1, 80), rng.randint(1, 80)) for _ in range(10)]
    for dtype in ("float32", "float64"):
        for m, k, n in mm_shapes:
            for la, lb in itertools.product(layouts((m, k), rng), layouts((k, n), rng)):
                found.append(record("mm", [la, lb], dtype, [True, True], 1))
            found.append(record("mm", [spec((m, k)), spec((k, n))], dtype, [True, True], 2))
            found.append(record("addmm", [spec((m, k)), spec((k, n)), spec((n,))], dtype, [True, True, True], 1))
            found.append(record("addmm", [spec((m, k), (1, 0)), spec((k, n), (1, 0)), spec((m, n))], dtype,
                                [True, True, True], 1, {"beta": 0.5, "alpha": 2.0}))
            found.append(record("linear", [spec((m, k)), spec((n, k)), spec((n,))], dtype, [True, True, True], 1))
            found.append(record("linear", [spec((m, k), (1, 0)), spec((n, k)), spec((n,))], dtype,
                                [True, True, False], 1))
            found.append(record("linear", [spec((2, m, k)), spec((n, k)), spec((n,))], dtype, [True, True, True],
                                1))
            found.append(record("linear", [spec((m, k)), spec((n, k))], dtype, [False, True], 1))
        for m, k in [(5, 7), (100, 300), (1, 40), (40, 1), (3, 1000), (64, 64), (0, 3), (3, 0)]:
            for la in layouts((m, k), rng):
                found.append(record("mv", [la, spec((k,))], dtype, [True, True], 1))
                found.append(record("matmul", [la, spec((k,))], dtype, [True, True], 1))
                found.append(record("matmul", [spec((k,)), spec((k, m), la["perm"], la["step"])], dtype,
                                    [True, True], 1))
            found.append(record("mv", [spec((m, k)), spec((k,), step=3)], dtype, [True, True], 1))
            # a vector of stride 0: ATen's own gemv loop, not BLAS
            found.append(record("mv", [spec((m, k)), dict(spec((k,)), expand=True)], dtype, [True, False], 1))
            found.append(record("mv", [spec((k, m), (1, 0)), dict(spec((m,)), expand=True)], dtype, [True, False],
                                1))
        for k in (0, 1, 2, 3, 5, 17, 1000, 4097):
            found.append(record("dot", [spec((k,)), spec((k,))], dtype, [True, True], 1))
            found.append(record("dot", [spec((k,), step=2), spec((k,))], dtype, [True, False], 1))
        bmm_shapes = [(4, 5, 7, 3), (3, 20, 30, 10), (2, 1, 50, 40), (5, 8, 8, 8), (1, 30, 40, 20), (6, 7, 7, 7),
                      (2, 9, 3, 14), (3, 1, 1, 1), (0, 3, 4, 5), (2, 0, 3, 4), (2, 3, 0, 4), (8, 64, 10, 100)]
        for b, m, k, n in bmm_shapes:
            for la, lb in itertools.product(layouts((b, m, k), rng, 4), layouts((b, k, n), rng, 4)):
                found.append(record("bmm", [la, lb], dtype, [True, True], 1))
            found.append(record("bmm", [spec((b, m, k)), spec((b, k, n))], dtype, [True, True], 2))
        batched = [((4, 30, 20), (20, 10)), ((20,), (4, 20, 10)), ((4, 30, 20), (20,)), ((3, 1, 30, 20), (5, 20, 10)),
                   ((30, 20), (4, 20, 10)), ((2, 3, 30, 20), (2, 3, 20, 1)), ((2, 3, 5, 4), (4,)),
                   ((5, 4), (2, 3, 4, 6)), ((1, 1, 30, 20), (20, 10)), ((2, 1, 5, 4), (3, 4, 6)), ((0, 5, 4), (4, 6)),
                   ((6, 10, 100), (100, 64)), ((4, 3, 2), (4, 2, 3))]
        for sa, sb in batched:
            for na, nb in [(True, True), (True, False), (False, True)]:
                for pa in ([None, list(range(len(sa)))[::-1]] if len(sa) >= 3 else [None]):
                    a = spec(sa, pa) if pa is None else spec(sa, list(range(len(sa) - 2)) + [len(sa) - 1, len(sa) - 2])
                    found.append(record("matmul", [a, spec(sb)], dtype, [na, nb], 1))
    return found


def main():
    found = cases()
    OUT.write_bytes(gzip.compress(json.dumps({"torch": torch.__version__, "cases": found}).encode(), mtime=0))
    print(f"{len(found)} cases -> {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
