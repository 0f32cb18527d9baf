"""Differential check of gradcli.engine.sum_order.torch_sum against torch's own CPU sum, bit for bit, over random
shapes, layouts (transposed, sliced, broadcast-expanded), dims, keepdim, float32/float64 and both thread
counts the plan distinguishes.  Needs torch (measurement only: never imported by gradcli or default tests).

    python scripts/check_sum_order_vs_torch.py [--cases 3000] [--seed 0]

Each case is run twice (the second call goes through the closure compiled for its layout).  Exits 1 on the
first mismatch, printing the case.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli.engine import kernels, sum_order  # noqa: E402


def random_case(rng):
    ndim = int(rng.integers(1, 4))
    big = rng.random() < 0.15
    shape = tuple(int(rng.integers(1, 400 if big and ndim == 1 else 70 if ndim < 3 else 12)) for _ in range(ndim))
    dtype = np.float32 if rng.random() < 0.5 else np.float64
    scale = 10.0 ** rng.integers(-3, 8, size=shape)
    a = ((rng.standard_normal(shape) * scale) + rng.standard_normal(shape)).astype(dtype)
    layout = rng.integers(0, 5)
    if layout == 1 and ndim > 1:
        a = np.ascontiguousarray(a.T).T  # F order
    elif layout == 2:
        a = a[tuple(slice(None, None, int(rng.integers(1, 3))) for _ in range(ndim))]
    elif layout == 3 and ndim > 1:
        a = np.swapaxes(np.ascontiguousarray(np.swapaxes(a, 0, -1)), 0, -1)
    elif layout == 4 and ndim > 1:  # broadcast: a 0-stride dim (sum_to's gradients can be expanded views)
        d = int(rng.integers(0, ndim))
        a = np.broadcast_to(np.take(a, [0], axis=d), shape)
    if rng.random() < 0.3:
        dims = ()
    else:
        k = int(rng.integers(1, a.ndim + 1))
        dims = tuple(sorted(int(d) for d in rng.choice(a.ndim, size=k, replace=False)))
    return a, dims, bool(rng.random() < 0.3)


def torch_view(torch, a: np.ndarray):
    """A torch tensor over a's memory with a's strides (a is C-contiguous or a view of a C-contiguous base)."""
    if a.flags.c_contiguous:
        return torch.from_numpy(a)
    base = a
    while not (base.flags.c_contiguous and base.flags.owndata):  # a's memory: the array owning it
        base = base.base
    offset = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
    flat = torch.from_numpy(base.reshape(-1))
    return torch.as_strided(flat, a.shape, tuple(s // a.itemsize for s in a.strides), offset)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import torch
    rng = np.random.default_rng(args.seed)
    threads = kernels.THREADS
    torch.set_num_threads(threads)
    for i in range(args.cases):
        a, dims, keepdim = random_case(rng)
        t = torch_view(torch, a)
        expected = (t.sum(dims, keepdim) if dims else (t.sum() if not keepdim else t.sum(tuple(range(a.ndim)), True)))
        expected = expected.numpy()
        for attempt in range(2):
            got = np.asarray(sum_order.torch_sum(a, dims, keepdim))
            if got.shape != expected.shape or got.tobytes() != expected.tobytes():
                print(f"MISMATCH case {i} (call {attempt + 1}): shape {a.shape} strides {a.strides} {a.dtype} "
                      f"dims {dims} keepdim {keepdim}\n got {got!r}\n torch {expected!r}")
                return 1
    print(f"{args.cases} cases bit-exact against torch {torch.__version__} (threads {threads})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
