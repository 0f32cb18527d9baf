"""torch's summation order (gradcli.engine.sum_order) against numpy's own sum and PyTorch on one thread, as
ratios measured side by side in one run (interleaved, best of many: the machine may be shared).  Never
asserted in tests.

    python benchmarks/bench_sum.py                       # 10^6 elements: every case, float32 and float64
    python benchmarks/bench_sum.py --quick               # fewer repeats
    python benchmarks/bench_sum.py --baseline /tmp/base  # also an older checkout's sum_order, in the same run

Each case goes through the engine (`ops.sum` / `ops.mean` on a Tensor, what an expression costs); `ratio` is
gradcli's time over the slower of numpy's and PyTorch's (the project allows 2x).  `--baseline DIR` loads
DIR/gradcli/engine/sum_order.py and times the same engine with its torch_sum swapped in (the ops call
sum_order.torch_sum at run time), so before and after share the run.  PyTorch's column needs torch installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli import engine as E  # noqa: E402
from gradcli.engine import sum_order  # noqa: E402
from gradcli.engine.kernels import native  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except ImportError:  # PyTorch is optional: its column is left empty
    torch = None

CURRENT = sum_order.torch_sum


def load_baseline(root: str):
    """The torch_sum of another checkout's sum_order.py (it imports this checkout's gradcli.engine.kernels,
    whose THREADS and GRAIN_SIZE it reads)."""
    path = Path(root) / "gradcli" / "engine" / "sum_order.py"
    spec = importlib.util.spec_from_file_location("sum_order_baseline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.torch_sum


def race(fns: dict, repeat: int) -> dict:
    """Best time of each function, called in turn so that all see the same load."""
    for fn in fns.values():
        fn()
    times = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: min(ts) for name, ts in times.items()}


def with_sum(impl, fn):
    """fn run with the engine's sum_order.torch_sum set to impl."""
    def run():
        sum_order.torch_sum = impl
        try:
            return fn()
        finally:
            sum_order.torch_sum = CURRENT
    return run


def cases(dtype: str):
    """(label, numpy fn, torch fn or None, gradcli fn) for every case at 10^6 elements."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(10 ** 6).astype(dtype)
    m = rng.standard_normal((1000, 1000)).astype(dtype)
    c = rng.standard_normal((100, 100, 100)).astype(dtype)
    out = []
    for op in ("sum", "mean"):
        out.append((f"{op}()", x, op, None))
        for d in (0, 1):
            out.append((f"(1000,1000).{op}({d})", m, op, d))
        out.append((f"(1000,1000).T.{op}(0)", m.T, op, 0))
        for d in (0, 1, 2):
            out.append((f"(100,100,100).{op}({d})", c, op, d))
        out.append((f"(100,100,100).{op}((0,2))", c, op, (0, 2)))
    result = []
    for label, a, op, dim in out:
        np_fn = (lambda a=a, op=op, dim=dim: getattr(a, op)(axis=dim))
        t = torch.from_numpy(a) if torch is not None else None
        pt_fn = None if t is None else (lambda t=t, op=op, dim=dim: getattr(t, op)() if dim is None
                                        else getattr(t, op)(dim=dim))
        g = E.Tensor(a)
        gc_fn = (lambda g=g, op=op, dim=dim: getattr(E.ops, op)(g) if dim is None else getattr(E.ops, op)(g, dim=dim))
        result.append((f"{dtype} {label}", np_fn, pt_fn, gc_fn))
    # (x**2).sum(), forward and backward, against numpy with the gradient written by hand
    gx = E.Tensor(x, requires_grad=True)

    def gc_square():
        gx.grad = None
        E.ops.sum(gx ** 2).backward()

    def np_square():
        return (x ** 2).sum(), 2.0 * x
    pt_square = None
    if torch is not None:
        tx = torch.from_numpy(x.copy()).requires_grad_()

        def pt_square():
            tx.grad = None
            (tx ** 2).sum().backward()
    result.append((f"{dtype} (x**2).sum() fwd+bwd", np_square, pt_square, gc_square))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--baseline", metavar="DIR", help="a checkout whose sum_order to time beside this one")
    args = parser.parse_args()
    repeat = 15 if args.quick else 40
    base = load_baseline(args.baseline) if args.baseline else None
    print(f"10^6 elements, best of {repeat}, ms; ratio = gradcli / the slower of numpy and torch (1 thread)")
    state = "off (GRADCLI_NATIVE=0)" if not native.ENABLED else "on" if native.sum_kernels() else "not built"
    print(f"compiled kernels (gradcli/engine/kernels/native_sum.c): {state}")
    head = f"{'case':<42}{'numpy':>8}{'torch':>8}"
    head += f"{'before':>8}{'ratio':>7}" if base else ""
    print(head + f"{'gradcli':>9}{'ratio':>7}")
    worst = 0.0
    for dtype in ("float32", "float64"):
        for label, np_fn, pt_fn, gc_fn in cases(dtype):
            fns = {"numpy": np_fn, "gradcli": gc_fn}
            if pt_fn is not None:
                fns["torch"] = pt_fn
            if base is not None:
                fns["before"] = with_sum(base, gc_fn)
            t = race(fns, repeat)
            ref = max(t["numpy"], t.get("torch", 0.0))
            line = f"{label:<42}{t['numpy'] * 1e3:>8.3f}"
            line += f"{t['torch'] * 1e3:>8.3f}" if "torch" in t else f"{'-':>8}"
            if base is not None:
                line += f"{t['before'] * 1e3:>8.3f}{t['before'] / ref:>6.2f}x"
            line += f"{t['gradcli'] * 1e3:>9.3f}{t['gradcli'] / ref:>6.2f}x"
            worst = max(worst, t["gradcli"] / ref)
            print(line, flush=True)
    print(f"worst ratio: {worst:.2f}x")
    rng = np.random.default_rng(1)
    print("small sums (per-call overhead), us:")
    for shape, dims in [((5,), ()), ((100,), ()), ((3, 8), (1,)), ((100, 8), (0,))]:
        x = rng.standard_normal(shape).astype(np.float32)
        fns = {"numpy": lambda x=x, d=dims: x.sum(axis=d or None), "gradcli": lambda x=x, d=dims: CURRENT(x, d)}
        if base is not None:
            fns["before"] = lambda x=x, d=dims: base(x, d)
        t = race(fns, 2000)
        line = f"  float32 {str(shape)}.sum{dims}: numpy {t['numpy'] * 1e6:.2f}"
        line += f", before {t['before'] * 1e6:.2f}" if base is not None else ""
        print(line + f", gradcli {t['gradcli'] * 1e6:.2f}")


if __name__ == "__main__":
    main()
