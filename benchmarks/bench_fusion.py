"""What fusing elementwise chains would buy (issue 27 §4), as ratios measured in the same run.

  python benchmarks/bench_fusion.py [--n 10000000] [--rounds 3]

Forward + backward of `(x.sin() * x.exp()).mean()` on n float64 elements, CPU time, best of the rounds
(interleaved, so load affects every column alike):
  gradcli          the engine as it runs today (one numpy pass per op, whole arrays)
  numpy            the same formula by hand, whole arrays (the engine's own floor without fusion)
  numpy, blocked   the same formula by hand in blocks of 2**14 elements with out= buffers: what a fused
                   evaluator built on numpy's ufuncs would cost (the gradient's elements are the same values
                   as the whole-array formula's; the mean's ATen summation order is not part of it)
  numpy+MKL, blocked  the blocked formula with MKL's vector math (vmdSin, vmdExp, vmdCos through ctypes, as
                   `--bits torch` calls them) for the three functions, when the mkl package is installed: numpy's
                   float64 sin and cos cost 5x torch's (MKL's) and bound every numpy column from below
  torch            PyTorch 1 thread, when installed
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli.engine import Tensor  # noqa: E402

try:
    import torch
except ImportError:  # optional: its column is skipped
    torch = None

BLOCK = 1 << 14


def gradcli(x0: np.ndarray) -> np.ndarray:
    x = Tensor(x0, requires_grad=True)
    (x.sin() * x.exp()).mean().backward()
    return x.grad.array


def numpy_whole(x0: np.ndarray) -> np.ndarray:
    s, e = np.sin(x0), np.exp(x0)
    (s * e).mean()
    g = 1.0 / len(x0)
    return (g * e) * np.cos(x0) + (g * s) * e


def numpy_blocked(x0: np.ndarray) -> np.ndarray:
    n = len(x0)
    out = np.empty(n)
    s, e, c, t = (np.empty(BLOCK) for _ in range(4))
    g = 1.0 / n
    total = 0.0
    for i in range(0, n, BLOCK):
        xs = x0[i:i + BLOCK]
        m = len(xs)
        sb, eb, cb, tb = s[:m], e[:m], c[:m], t[:m]
        np.sin(xs, out=sb)
        np.exp(xs, out=eb)
        np.multiply(sb, eb, out=tb)
        total += tb.sum()  # stands in for the forward's reduction
        np.cos(xs, out=cb)
        np.multiply(eb, g, out=tb)
        np.multiply(tb, cb, out=cb)
        np.multiply(sb, g, out=sb)
        np.multiply(sb, eb, out=sb)
        np.add(cb, sb, out=out[i:i + m])
    return out


def mkl_blocked(x0: np.ndarray) -> np.ndarray:
    from gradcli.engine.kernels import mkl

    n = len(x0)
    out = np.empty(n)
    t = np.empty(BLOCK)
    g = 1.0 / n
    total = 0.0
    for i in range(0, n, BLOCK):
        xs = x0[i:i + BLOCK]
        m = len(xs)
        tb = t[:m]
        sb, eb, cb = mkl.vml("Sin", xs), mkl.vml("Exp", xs), mkl.vml("Cos", xs)
        np.multiply(sb, eb, out=tb)
        total += tb.sum()
        np.multiply(eb, g, out=tb)
        np.multiply(tb, cb, out=cb)
        np.multiply(sb, g, out=sb)
        np.multiply(sb, eb, out=sb)
        np.add(cb, sb, out=out[i:i + m])
    return out


def torch_run(x0: np.ndarray) -> np.ndarray:
    x = torch.tensor(x0, requires_grad=True)
    (x.sin() * x.exp()).mean().backward()
    return x.grad.numpy()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10 ** 7)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    x0 = np.random.default_rng(0).standard_normal(args.n)
    runs = {"gradcli": gradcli, "numpy": numpy_whole, "numpy, blocked": numpy_blocked}
    from gradcli.engine.kernels import mkl

    if mkl.available():
        runs["numpy+MKL, blocked"] = mkl_blocked
    if torch is not None:
        torch.set_num_threads(1)
        runs["torch (1 thread)"] = torch_run
    assert np.array_equal(numpy_whole(x0), numpy_blocked(x0)), "blocking changed a gradient element"
    best = {name: float("inf") for name in runs}
    for _ in range(args.rounds):
        for name, fn in runs.items():
            start = time.process_time()
            fn(x0)
            best[name] = min(best[name], time.process_time() - start)
    print(f"(x.sin() * x.exp()).mean(), forward + backward, n = {args.n:,}, CPU time, best of {args.rounds}")
    for name, seconds in best.items():
        print(f"  {name:18} {seconds * 1000:8.0f} ms   {seconds / best['gradcli']:5.2f}x gradcli")


if __name__ == "__main__":
    main()
