"""Generate tests/goldens/sum_order.json.gz: PyTorch 2.13's float32/float64 sum, mean and nansum, bit for bit
(SHA-256 of the output's bytes), over every length 1..300, the powers of two +-1 up to 2**16, the thread-split
boundaries, 10**5 and large lengths up to 2**21 + 17 (every level of the cascade, several slabs of moved
rows); over every dim, pair of dims and all dims of 2-D and 3-D tensors in every memory layout (each
permutation of a contiguous tensor), with and without keepdim, up to 10**6 elements; with 1, 2, 3 and 4
threads where the input has 32768 elements or more (ATen splits the work there; the test sets gradcli's
thread count to the recorded one); mean's float32 gradient; and the examples of issue 28 (randn rows summed
over each dim).
The values are a deterministic hash of the index with mixed signs and magnitudes (2**-12 .. 2**11), rebuilt
exactly by the test.  Dev-only: the test suite never imports torch.

    python scripts/make_sum_order_goldens.py
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "sum_order.json.gz"

LENGTHS = sorted(set(range(1, 301)) | {2 ** k + d for k in range(9, 17) for d in (-1, 0, 1)}
                 | {32767, 32768, 32769, 40000, 65535, 65537, 99999, 100000})
SHAPES_2D = [(3, 8), (8, 3), (5, 16), (16, 5), (100, 9), (100, 8), (9, 100), (33, 65), (257, 129), (1000, 40),
             (40, 1000), (7, 5000), (5000, 7), (2, 40000), (40000, 2), (300, 200)]
SHAPES_3D = [(2, 3, 4), (5, 7, 9), (4, 1, 9), (16, 17, 33), (64, 65, 9), (3, 200, 100), (100, 3, 200), (50, 30, 40),
             (17, 33, 129)]
# the sizes where gradcli moves rows through a cache-sized buffer in several slabs, and the cascade's upper
# levels fill: 4096 blocks of 16 rows (2**21 float32 elements per thread) reach its last level
LARGE_LENGTHS = [131073, 10 ** 6, 10 ** 6 + 3, 2 ** 21 + 17]
LARGE_SHAPES = [(1000, 1000), (10000, 100), (100, 10000), (100, 100, 100), (64, 100, 160)]


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
    exponent = ((h >> np.uint64(3)) % np.uint64(24)).astype(np.float64) - 12
    return (sign * mantissa * 2.0 ** exponent).astype(dtype).reshape(shape)


def digest(t: torch.Tensor) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


def layouts(ndim):
    return list(itertools.permutations(range(ndim)))


def dimsets(ndim):
    return [c for k in range(1, ndim + 1) for c in itertools.combinations(range(ndim), k)]


def record(cases, base, perm, dims, keepdim, ops, threads):
    t = torch.from_numpy(base).permute(perm)
    for op in ops:
        fn = {"sum": torch.sum, "mean": torch.mean, "nansum": torch.nansum}[op]
        out = fn(t) if dims is None else fn(t, dim=dims, keepdim=keepdim)
        cases.append({"op": op, "dtype": str(base.dtype), "shape": list(base.shape), "perm": list(perm),
                      "dims": None if dims is None else list(dims), "keepdim": keepdim, "threads": threads,
                      "out_shape": list(out.shape), "out": digest(out)})


def main():
    default_threads = torch.get_num_threads()
    cases = []
    for dtype in ("float32", "float64"):
        for n in LENGTHS:
            base = values((n,), dtype, n)
            record(cases, base, (0,), None, False, ("sum", "mean"), default_threads)
        for n in (32768, 40000, 65537, 100000):
            for threads in (1, 4):
                torch.set_num_threads(threads)
                record(cases, values((n,), dtype, n), (0,), None, False, ("sum",), threads)
        torch.set_num_threads(default_threads)
        for n in LARGE_LENGTHS:
            base = values((n,), dtype, n)
            record(cases, base, (0,), None, False, ("sum", "mean"), default_threads)
            for threads in (1, 3, 4):
                torch.set_num_threads(threads)
                record(cases, base, (0,), None, False, ("sum",), threads)
            torch.set_num_threads(default_threads)
        for shape in LARGE_SHAPES:
            base = values(shape, dtype, sum(shape))
            for perm in layouts(len(shape)):
                for i, dims in enumerate(dimsets(len(shape))):
                    record(cases, base, perm, dims, i % 2 == 1, ("sum", "mean"), default_threads)
                    torch.set_num_threads(1)
                    record(cases, base, perm, dims, False, ("sum",), 1)
                    torch.set_num_threads(default_threads)
                record(cases, base, perm, None, False, ("sum",), default_threads)
        for shape in SHAPES_2D + SHAPES_3D:
            base = values(shape, dtype, sum(shape))
            for perm in layouts(len(shape)):
                for i, dims in enumerate(dimsets(len(shape))):
                    record(cases, base, perm, dims, i % 2 == 1, ("sum", "mean"), default_threads)
                record(cases, base, perm, None, False, ("sum",), default_threads)
        for shape in [(300, 200), (40000, 2), (64, 65, 9), (50, 30, 40)]:  # other thread counts split otherwise
            base = values(shape, dtype, sum(shape))
            for threads in (1, 3, 4):
                torch.set_num_threads(threads)
                for perm in layouts(len(shape)):
                    for dims in [None] + dimsets(len(shape)):
                        record(cases, base, perm, dims, False, ("sum",), threads)
            torch.set_num_threads(default_threads)
        # nansum: the sum kernel reading nan as 0
        for shape in [(37,), (1000,), (40000,), (9, 100), (16, 17, 33)]:
            base = values(shape, dtype, 5)
            base.reshape(-1)[::7] = np.nan
            for perm in layouts(len(shape)):
                for dims in [None] + dimsets(len(shape)):
                    record(cases, base, perm, dims, False, ("nansum",), default_threads)
    # mean's float32 gradient: grad_output / numel (over the reduced dims), one division per element
    grads = []
    for shape, dims in [((5,), None), ((1000,), None), ((3, 8), (1,)), ((100, 9), (0,)), ((7, 5, 3), (0, 2)),
                        ((3, 7), (0, 1))]:
        for dtype in ("float32", "float64"):
            t = torch.from_numpy(values(shape, dtype, 3)).requires_grad_()
            out = t.mean() if dims is None else t.mean(dim=dims)
            g = torch.from_numpy(values(tuple(out.shape), dtype, 4))
            out.backward(g)
            grads.append({"dtype": dtype, "shape": list(shape), "dims": dims and list(dims),
                          "grad": digest(t.grad)})
    # issue 28's examples: rows from torch's generator summed over each dim (float32)
    examples = []
    for seed in range(20):
        for rows, width in [(3, w) for w in range(5, 17)] + [(100, 8), (100, 9), (100, 33)]:
            torch.manual_seed(seed)
            x = torch.randn(rows, width)
            examples.append({"seed": seed, "shape": [rows, width], "sum0": x.sum(dim=0).tolist(),
                             "sum1": x.sum(dim=1).tolist(), "sum": x.sum().item(), "mean": x.mean().item()})
        torch.manual_seed(seed)
        x = torch.randn(5)
        examples.append({"seed": seed, "shape": [5], "sum": x.sum().item(), "mean": x.mean().item()})
    data = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(),
            "cases": cases, "mean_grads": grads, "examples": examples}
    OUT.write_bytes(gzip.compress((json.dumps(data) + "\n").encode(), mtime=0))
    print(f"wrote {len(cases)} cases, {len(grads)} gradients, {len(examples)} examples to {OUT}")


if __name__ == "__main__":
    main()
