"""Normalisation layers, forward + backward, against PyTorch (one thread) and numpy's formula, in one run.

  python benchmarks/bench_norms.py                        # every case
  python benchmarks/bench_norms.py --baseline /tmp/old    # also an older gradcli, interleaved case by case
  python benchmarks/bench_norms.py --cases batch_norm --repeat 9

Each case is one call of the op on inputs requiring grad, then `.backward(dy)` (gradcli's engine; torch with
torch.set_num_threads(1)); numpy's column is the forward and the input/weight/bias gradients written by hand
in the input's dtype, reusing the forward's intermediates, as a numpy user writes them.  Times are the best of
--repeat runs of the process's CPU time; ratio = gradcli / max(numpy, torch), the contract's bound being 2.0.
With --baseline DIR a worker process importing the gradcli in DIR times the same case between the others, so
before and after are measured side by side under the same load.  Never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # one thread each, before numpy loads
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

# name -> (shape, normalised axes for the statistics, channel axis of weight/bias or None for layer_norm's
# trailing weight)
CASES = {
    "batch_norm": ((64, 16, 28, 28), (0, 2, 3)),
    "batch_norm_rows": ((4096, 256), (0,)),
    "layer_norm": ((1000, 1000), (1,)),
    "group_norm": ((32, 64, 28, 28), None),
}
GROUPS = 8
EPS = 1e-5


def inputs(name: str, dtype):
    rng = np.random.default_rng(0)
    shape = CASES[name][0]
    x = rng.standard_normal(shape).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    features = shape[1] if name != "layer_norm" else shape[-1]
    w = rng.standard_normal(features).astype(dtype)
    b = rng.standard_normal(features).astype(dtype)
    return x, dy, w, b


def best_of(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def gradcli_call(name: str, dtype):
    from gradcli import engine as E
    from gradcli.engine.ops import nn_functional as F

    x0, dy0, w0, b0 = inputs(name, dtype)
    dy = E.Tensor(dy0)

    def run():
        x, w, b = (E.Tensor(a, requires_grad=True) for a in (x0, w0, b0))
        if name.startswith("batch_norm"):
            out = F.batch_norm(x, None, None, w, b, training=True)
        elif name == "layer_norm":
            out = F.layer_norm(x, (x0.shape[-1],), w, b)
        else:
            out = F.group_norm(x, GROUPS, w, b)
        out.backward(dy)
    return run


def torch_call(name: str, dtype):
    import torch
    torch.set_num_threads(1)
    x0, dy0, w0, b0 = inputs(name, dtype)
    dy = torch.from_numpy(dy0)

    def run():
        x, w, b = (torch.from_numpy(a).requires_grad_() for a in (x0, w0, b0))
        if name.startswith("batch_norm"):
            out = torch.nn.functional.batch_norm(x, None, None, w, b, training=True)
        elif name == "layer_norm":
            out = torch.nn.functional.layer_norm(x, (x0.shape[-1],), w, b)
        else:
            out = torch.nn.functional.group_norm(x, GROUPS, w, b)
        out.backward(dy)
    return run


def numpy_call(name: str, dtype):
    """The forward and the three gradients by hand: xhat = (x - mean) * rstd over the normalised axes,
    dx = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = dy * w (per feature)."""
    x0, dy0, w0, b0 = inputs(name, dtype)
    shape = x0.shape
    if name == "group_norm":
        view = (shape[0], GROUPS, -1)
        feature_shape, stat_axes, feature_axes = (1, shape[1], 1, 1), (2,), (0, 2, 3)
    elif name == "layer_norm":
        view, feature_shape, stat_axes, feature_axes = shape, (1, shape[1]), (1,), (0,)
    else:
        view, stat_axes = shape, CASES[name][1]
        feature_shape = (1, shape[1]) + (1,) * (len(shape) - 2)
        feature_axes = stat_axes
    w, b = w0.reshape(feature_shape), b0.reshape(feature_shape)

    def run():
        xv = x0.reshape(view)
        mean = xv.mean(axis=stat_axes, keepdims=True)
        centred = xv - mean
        rstd = 1 / np.sqrt((centred * centred).mean(axis=stat_axes, keepdims=True) + dtype(EPS))
        xhat = (centred * rstd).reshape(shape)
        _ = xhat * w + b
        g = (dy0 * w).reshape(view)
        xh = xhat.reshape(view)
        dx = rstd * (g - g.mean(axis=stat_axes, keepdims=True) - xh * (g * xh).mean(axis=stat_axes, keepdims=True))
        _ = dx.reshape(shape), (dy0 * xhat).sum(axis=feature_axes), dy0.sum(axis=feature_axes)
    return run


def worker(directory: str, name: str, dtype: str, repeat: int) -> float:
    code = (f"import sys; sys.path.insert(0, {directory!r}); sys.path.insert(1, {str(Path(__file__).parent)!r}); "
            f"import numpy as np, bench_norms as b; "
            f"print(b.best_of(b.gradcli_call({name!r}, np.{dtype}), {repeat}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=directory, env={**os.environ, "PYTHONPATH": directory})
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", help="a directory holding another gradcli checkout, timed side by side")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import torch  # noqa: F401
        have_torch = True
    except ImportError:
        have_torch = False
    names = [n.strip() for n in args.cases.split(",") if n.strip()] or list(CASES)
    rows = []
    for name in names:
        for dtype in (np.float32, np.float64):
            row = {"case": name, "shape": CASES[name][0], "dtype": dtype.__name__,
                   "gradcli_ms": 1e3 * best_of(gradcli_call(name, dtype), args.repeat),
                   "numpy_ms": 1e3 * best_of(numpy_call(name, dtype), args.repeat)}
            if have_torch:
                row["torch_ms"] = 1e3 * best_of(torch_call(name, dtype), args.repeat)
            if args.baseline:
                row["baseline_ms"] = 1e3 * worker(args.baseline, name, dtype.__name__, args.repeat)
            row["ratio"] = row["gradcli_ms"] / max(row["numpy_ms"], row.get("torch_ms", 0.0))
            rows.append(row)
            if not args.json:
                extra = "".join(f"  {key[:-3]} {row[key]:7.2f}" for key in ("torch_ms", "baseline_ms") if key in row)
                print(f"{name:16} {dtype.__name__:8} gradcli {row['gradcli_ms']:7.2f}  numpy {row['numpy_ms']:7.2f}"
                      f"{extra}  ms   ratio {row['ratio']:.2f}", flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
