"""torch's summation order (gradcli.engine.sum_order) against numpy's own sum, as ratios measured side by side
in one run (interleaved, best of many: the machine may be shared).  Never asserted in tests.

    python benchmarks/bench_sum.py            # 10^6 and 10^7 elements, whole sums and sums over a dim
    python benchmarks/bench_sum.py --quick    # 10^6 only
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gradcli.engine.sum_order import torch_sum  # noqa: E402


def race(a, b, repeat: int):
    """Best times of a and b, alternated so both see the same load."""
    a(), b()
    ta, tb = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        a()
        t1 = time.perf_counter()
        b()
        t2 = time.perf_counter()
        ta.append(t1 - t0)
        tb.append(t2 - t1)
    return min(ta), min(tb)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    sizes = [10 ** 6] if args.quick else [10 ** 6, 10 ** 7]
    repeat = 15 if args.quick else 25
    rng = np.random.default_rng(0)
    print(f"{'case':<40}{'numpy':>11}{'torch order':>13}{'ratio':>8}")
    for dtype in ("float32", "float64"):
        for n in sizes:
            x = rng.standard_normal(n).astype(dtype)
            side = int(round(n ** 0.5))
            m = rng.standard_normal((side, side)).astype(dtype)
            cases = [(f"{dtype} sum() {n:.0e}", x, ()), (f"{dtype} ({side},{side}).sum(0)", m, (0,)),
                     (f"{dtype} ({side},{side}).sum(1)", m, (1,)), (f"{dtype} ({side},{side}).T.sum(0)", m.T, (0,))]
            for label, a, dims in cases:
                axis = dims or None
                t_np, t_us = race(lambda a=a, axis=axis: a.sum(axis=axis), lambda a=a, d=dims: torch_sum(a, d), repeat)
                print(f"{label:<40}{t_np * 1e3:>8.2f} ms{t_us * 1e3:>10.2f} ms{t_us / t_np:>7.2f}x")
    for shape, dims in [((5,), ()), ((100,), ()), ((3, 8), (1,)), ((100, 8), (0,))]:
        x = rng.standard_normal(shape).astype(np.float32)
        t_np, t_us = race(lambda x=x, d=dims: x.sum(axis=d or None), lambda x=x, d=dims: torch_sum(x, d), 2000)
        print(f"{'float32 ' + str(shape) + '.sum' + str(dims):<40}{t_np * 1e6:>8.2f} us{t_us * 1e6:>10.2f} us")


if __name__ == "__main__":
    main()
