"""Record tests/goldens/vector_norm_order.json: torch 2.13's linalg.vector_norm for every ord of interest
(1, 3, 0.5, 1.5, -1, -2 and, as a check, 0, 2, inf, -inf) in float32 and float64, bit for bit, on lengths 1 to
10**5 (every length to 80, the vector and GRAIN_SIZE boundaries, 10**5) and over every dim set of 2-D and 3-D
tensors (keepdim both ways, and transposed views), for tests/engine/test_vector_norm_order.py.  The inputs
are made by an integer formula (`values`), reproducible without torch or numpy's generators.
Dev-only: needs torch (its default thread count on this machine, 2: a whole sum of >= 32768 elements is split
among the threads, as gradcli's kernels.THREADS assumes).

    python scripts/make_vector_norm_goldens.py
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "vector_norm_order.json"
ORDS = [1, 3, 0.5, 1.5, -1, -2, 0, 2, math.inf, -math.inf]
LENGTHS = sorted(set(range(1, 81)) | {127, 128, 129, 255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096, 4097,
                                      10000, 32767, 32768, 32769, 40000, 65535, 65536, 65537, 98304, 100000})
SHAPES = [(3, 5), (7, 33), (129, 17), (2, 3, 4), (5, 40, 9), (300, 200), (64, 1, 700), (4, 9, 1000)]


def values(shape, seed: int, dtype) -> np.ndarray:
    """Deterministic values in [-2, 2) from Knuth's multiplicative hash of the element index (exact in float64)."""
    n = math.prod(shape)
    i = np.arange(n, dtype=np.uint64) + np.uint64(seed * 1000003)
    h = (i * np.uint64(2654435761)) % np.uint64(2**32)
    x = h.astype(np.float64) / 2**32 * 4 - 2
    x[::7] *= 1e-3  # some small magnitudes too
    return x.astype(dtype).reshape(shape)


def digest(t: torch.Tensor) -> dict:
    """The result's shape, its first values' bits and the sha256 of all its bytes (the goldens stay small)."""
    a = np.ascontiguousarray(t.detach().numpy())
    return {"out_shape": list(a.shape), "head": bits(t)[:4], "sha256": hashlib.sha256(a.tobytes()).hexdigest()}


def bits(t: torch.Tensor) -> list:
    a = t.detach().numpy()
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64).reshape(-1).tolist()


def main():
    torch.set_num_threads(2)
    lengths, dims_cases = [], []
    for dtype in ("float32", "float64"):
        for n in LENGTHS:
            x = torch.from_numpy(values((n,), n, dtype))
            lengths.append({"dtype": dtype, "n": n, "bits": {str(o): bits(torch.linalg.vector_norm(x, o))[0]
                                                             for o in ORDS}})
        for si, shape in enumerate(SHAPES):
            x = torch.from_numpy(values(shape, 17 + si, dtype))
            nd = len(shape)
            for perm in (None, tuple(reversed(range(nd)))):
                v = x if perm is None else x.permute(perm)
                for dims in [c for r in range(1, nd + 1) for c in itertools.combinations(range(nd), r)]:
                    for o in (1, 3, 0.5, -1, 1.5):
                        for keep in (False, True):
                            dims_cases.append({"dtype": dtype, "shape": list(shape), "seed": 17 + si,
                                               "perm": None if perm is None else list(perm), "dims": list(dims),
                                               "ord": o, "keepdim": keep,
                                               **digest(torch.linalg.vector_norm(v, o, dims, keep))})
    OUT.write_text(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "lengths": lengths,
                               "dims": dims_cases}, separators=(",", ":")) + "\n")
    print(f"wrote {len(lengths)} lengths and {len(dims_cases)} dim cases to {OUT}")


if __name__ == "__main__":
    main()
