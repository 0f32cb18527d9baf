"""F.group_norm forward and backward through the engine (torch's CPU kernels: gradcli/engine/kernels/moments.py)
against PyTorch on one thread and against the formula in numpy (the mean, variance and normalisation over each
group, and the usual backward formula), as ratios measured side by side in one run (interleaved, best of
several: the machine may be shared).  Never asserted in tests.

    python benchmarks/bench_group_norm.py            # (32, 64, 28, 28), 32 groups, float32 and float64
    python benchmarks/bench_group_norm.py --quick

`ratio` is gradcli's time over the slower of numpy's formula and PyTorch's (the project allows 2x).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli import engine as E  # noqa: E402
from gradcli.engine.ops.registry import REGISTRY  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except ImportError:  # PyTorch is optional: its column is left empty
    torch = None


def race(fns: dict, repeat: int) -> dict:
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def numpy_formula(x, w, b, gy, groups, eps=1e-5):
    n, c = x.shape[:2]
    xg = x.reshape(n, groups, -1)
    mean = xg.mean(axis=2, keepdims=True)
    var = xg.var(axis=2, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    xhat = ((xg - mean) * rstd).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    y = xhat * w.reshape(shape) + b.reshape(shape)
    axes = (0,) + tuple(range(2, x.ndim))
    dw = (gy * xhat).sum(axis=axes)
    db = gy.sum(axis=axes)
    gxhat = (gy * w.reshape(shape)).reshape(n, groups, -1)
    xh = xhat.reshape(n, groups, -1)
    dx = rstd * (gxhat - gxhat.mean(axis=2, keepdims=True) - xh * (gxhat * xh).mean(axis=2, keepdims=True))
    return y, dx.reshape(x.shape), dw, db


def contenders(x, w, b, gy, groups: int) -> dict:
    """The three ways to run one forward and backward, as functions of no argument."""
    group_norm = REGISTRY["group_norm"].fn

    def engine_run():
        leaves = [E.tensor(a, requires_grad=True) for a in (x, w, b)]
        group_norm(leaves[0], groups, leaves[1], leaves[2]).backward(E.tensor(gy))

    fns = {"gradcli": engine_run, "numpy": lambda: numpy_formula(x, w, b, gy, groups)}
    if torch is not None:
        tx, tw, tb, tgy = (torch.tensor(a) for a in (x, w, b, gy))

        def torch_run():
            leaves = [t.clone().requires_grad_() for t in (tx, tw, tb)]
            torch.nn.functional.group_norm(leaves[0], groups, leaves[1], leaves[2]).backward(tgy)

        fns["torch"] = torch_run
    return fns


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--shape", default="32,64,28,28")
    parser.add_argument("--groups", type=int, default=32)
    args = parser.parse_args()
    shape = tuple(int(s) for s in args.shape.split(","))
    repeat = 3 if args.quick else 7
    rng = np.random.default_rng(0)
    print(f"group_norm {shape}, {args.groups} groups, forward + backward, best of {repeat} (seconds)")
    print(f"{'dtype':8} {'gradcli':>9} {'numpy':>9} {'torch':>9} {'ratio':>7}")
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal(shape).astype(dtype)
        w = rng.standard_normal(shape[1]).astype(dtype)
        b = rng.standard_normal(shape[1]).astype(dtype)
        gy = rng.standard_normal(shape).astype(dtype)
        best = race(contenders(x, w, b, gy, args.groups), repeat)
        slower = max(best["numpy"], best.get("torch", 0.0))
        torch_text = f"{best['torch']:9.4f}" if "torch" in best else f"{'-':>9}"
        print(f"{np.dtype(dtype).name:8} {best['gradcli']:9.4f} {best['numpy']:9.4f} {torch_text} "
              f"{best['gradcli'] / slower:7.2f}")


if __name__ == "__main__":
    main()
