"""Small float sums: gradcli's torch-order sum (gradcli.engine.sum_order.torch_sum) before and after, numpy's
own sum and torch's, per call in µs, measured side by side in one run (interleaved, best of many: the machine
may be shared; compare the ratios, not the absolute times).  Never asserted in tests.

    python benchmarks/bench_sum_small.py                 # "before" = sum_order.py at --base (git show)
    python benchmarks/bench_sum_small.py --base main     # any git ref holding gradcli/engine/sum_order.py
    python benchmarks/bench_sum_small.py --engine        # also m.sum(dim=1) through the engine's Tensor

torch is optional (imported only here, for measurement); its column is blank when it is not installed.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from gradcli.engine import sum_order  # noqa: E402

BASE = "23b7b19"  # main's HEAD before the compiled small-sum closures


def load_base(ref: str):
    """sum_order.py as it was at `ref`, imported as a separate module (its own caches)."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:gradcli/engine/sum_order.py"],
                          check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "sum_order_base.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("sum_order_base", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cases():
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        name = np.dtype(dtype).name
        for n in (5, 30, 1000):
            yield f"sum() of {n} {name}", rng.random(n).astype(dtype), (), False
        for shape in ((3, 8), (100, 5), (64, 10)):
            a = rng.random(shape).astype(dtype)
            for dim in (0, 1):
                yield f"{shape}.sum({dim}) {name}", a, (dim,), False
            yield f"{shape}.sum(1, keepdim) {name}", a, (1,), True
            yield f"{shape}.T.sum(0) {name}", a.T, (0,), False


def per_call(fns, number: int, repeat: int):
    """Best µs per call of each of fns, interleaved."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            best[i] = min(best[i], (time.perf_counter() - t0) / number * 1e6)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default=BASE, help="git ref of the 'before' sum_order.py (default %(default)s)")
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--engine", action="store_true", help="also time Tensor.sum through gradcli.engine")
    args = parser.parse_args()
    base = load_base(args.base)
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    print(f"{'case':32s} {'before':>8s} {'after':>8s} {'numpy':>8s} {'torch':>8s}  after/torch  (µs per call)")
    for name, a, dims, keepdim in cases():
        after, before = sum_order.torch_sum(a, dims, keepdim), base.torch_sum(a, dims, keepdim)
        assert np.asarray(after).tobytes() == np.asarray(before).tobytes(), name
        assert np.shape(after) == np.shape(before), name
        fns = [functools.partial(base.torch_sum, a, dims, keepdim), functools.partial(sum_order.torch_sum, a, dims,
               keepdim), functools.partial(a.sum, axis=dims or None, keepdims=keepdim)]
        if torch is not None:
            t = torch.from_numpy(np.ascontiguousarray(a.T)).T if not a.flags.c_contiguous else torch.from_numpy(a)
            fns.append(functools.partial(t.sum, dims, keepdim) if dims else t.sum)
        times = per_call(fns, args.number, args.repeat)
        ratio = f"{times[1] / times[3]:8.2f}" if torch is not None else ""
        cols = " ".join(f"{t:8.2f}" for t in times) + ("" if torch is not None else f" {'':>8s}")
        print(f"{name:32s} {cols}  {ratio}")
    if args.engine:
        engine_rows(base, torch, args)


def engine_rows(base, torch, args):
    """Tensor.sum through gradcli.engine, whose ops call sum_order.torch_sum: swapped in for "before"."""
    from gradcli import engine
    after_sum = sum_order.torch_sum
    m_np, x5_np = np.random.default_rng(1).random((3, 8)), np.random.default_rng(2).random(5)
    m, x5 = engine.tensor(m_np), engine.tensor(x5_np)

    def with_sum(fn, call):
        def timed():
            sum_order.torch_sum = fn
            try:
                return call()
            finally:
                sum_order.torch_sum = after_sum
        return timed
    rows = [("m.sum(dim=1), m (3,8) float64", functools.partial(m.sum, dim=1), "m"),
            ("x5.sum(), x5 (5,) float64", x5.sum, "x5")]
    for label, call, which in rows:
        before_t, after_t = per_call([with_sum(base.torch_sum, call), with_sum(after_sum, call)],
                                     args.number, args.repeat)
        torch_t = ""
        if torch is not None:
            tm, tx = torch.from_numpy(m_np), torch.from_numpy(x5_np)
            (t,) = per_call([functools.partial(tm.sum, dim=1) if which == "m" else tx.sum], args.number, args.repeat)
            torch_t = f"{t:.2f}"
        print(f"engine {label:30s} before {before_t:6.2f}  after {after_t:6.2f}  torch {torch_t}")

if __name__ == "__main__":
    main()
