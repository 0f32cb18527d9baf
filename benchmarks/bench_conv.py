"""The convolutions of torch.nn's documented examples: gradcli against PyTorch, as ratios measured in one run.

  python benchmarks/bench_conv.py [--rounds 3] [--rows conv2d,conv3d,...] [--forward-only]

Each row is a documented layer (torch/nn/modules/conv.py's docstrings) on its documented input, float32: the
forward pass, then backward of the output's sum (input, weight and bias gradients) unless --forward-only.  CPU
time of the whole call (every thread counted), best of the rounds, the columns interleaved so that load affects
them alike; torch's column when torch is installed.  For a before/after comparison of gradcli itself run the
script from both trees, alternately, and compare the ratios to torch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli.engine import Tensor  # noqa: E402
from gradcli.engine.ops import nn_functional as F  # noqa: E402

try:
    import torch
except ImportError:  # optional: its column is skipped
    torch = None

# name: (functional, input shape, weight shape, keyword arguments)
ROWS = {
    "conv2d": ("conv2d", (20, 16, 50, 100), (33, 16, 3, 5), {"stride": (2, 1), "padding": (4, 2),
                                                            "dilation": (3, 1)}),
    "conv3d": ("conv3d", (20, 16, 10, 50, 100), (33, 16, 3, 5, 2), {"stride": (2, 1, 1), "padding": (4, 2, 0)}),
    "conv3d batch 4": ("conv3d", (4, 16, 10, 50, 100), (33, 16, 3, 5, 2), {"stride": (2, 1, 1),
                                                                          "padding": (4, 2, 0)}),
    "conv_transpose1d": ("conv_transpose1d", (20, 16, 50), (16, 33, 3), {"stride": 2}),
    "conv_transpose2d": ("conv_transpose2d", (20, 16, 50, 100), (16, 33, 3, 5), {"stride": (2, 1),
                                                                                "padding": (4, 2)}),
    "conv3d float64": ("conv3d", (4, 16, 10, 50, 100), (33, 16, 3, 5, 2), {"stride": (2, 1, 1),
                                                                          "padding": (4, 2, 0)}),
}


def run_gradcli(op, x, w, b, kwargs, backward):
    xt, wt, bt = (Tensor(a, requires_grad=True) for a in (x, w, b))
    out = getattr(F, op)(xt, wt, bt, **kwargs)
    if backward:
        out.sum().backward()


def run_torch(op, x, w, b, kwargs, backward):
    xt, wt, bt = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    out = getattr(torch.nn.functional, op)(xt, wt, bt, **kwargs)
    if backward:
        out.sum().backward()


def cpu(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--forward-only", action="store_true")
    args = parser.parse_args()
    print(f"{'row':18s} {'gradcli s':>10s} {'torch s':>10s} {'ratio':>7s}")
    for name in args.rows.split(","):
        op, x_shape, w_shape, kwargs = ROWS[name]
        dtype = np.float64 if "float64" in name else np.float32
        gen = np.random.default_rng(0)
        x = gen.standard_normal(x_shape).astype(dtype)
        w = (gen.standard_normal(w_shape) * 0.1).astype(dtype)
        b = gen.standard_normal(w_shape[1] if "transpose" in op else w_shape[0]).astype(dtype)
        best_g = best_t = float("inf")
        for _ in range(args.rounds):
            best_g = min(best_g, cpu(run_gradcli, op, x, w, b, kwargs, not args.forward_only))
            if torch is not None:
                best_t = min(best_t, cpu(run_torch, op, x, w, b, kwargs, not args.forward_only))
        ratio = f"{best_g / best_t:7.2f}" if torch is not None else "      -"
        print(f"{name:18s} {best_g:10.2f} {best_t if torch is not None else float('nan'):10.2f} {ratio}",
              flush=True)


if __name__ == "__main__":
    main()
