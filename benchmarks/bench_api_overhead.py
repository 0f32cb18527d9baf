"""What bounding an API call costs, measured side by side in one run: a small `grad` and a compiled function
over 10,000 rows in-process (the cost model and budget of engine/state.py), and the same calls in a forked
worker process answering through a pipe (what the command line's supervision costs).  docs/api.md quotes it.

    python benchmarks/bench_api_overhead.py
"""

from __future__ import annotations

import os
import pickle
import statistics
import time

import numpy as np

import gradcli


def median_seconds(fn, n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_a_worker(fn):
    """fn() in a forked child; its result pickled back through a pipe."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.write(w, pickle.dumps(fn()))
        os._exit(0)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 1 << 16):
        chunks.append(chunk)
    os.close(r)
    os.waitpid(pid, 0)
    return pickle.loads(b"".join(chunks))


def main() -> None:
    f = gradcli.compile("sin(x)*y**2 + exp(-x*y)")
    columns = {"x": np.linspace(0, 1, 10_000), "y": np.linspace(1, 2, 10_000)}

    def small():
        return gradcli.grad("(x**2).sum()", x=[1, 2, 3], check=False)

    def rows():
        return f(**columns)

    small(), rows()
    results = {
        "grad, small": (median_seconds(small, 300), median_seconds(lambda: in_a_worker(small), 50)),
        "compile, 10k rows": (median_seconds(rows, 50), median_seconds(lambda: in_a_worker(rows), 20)),
    }
    print(f"{'call':20} {'in-process':>12} {'worker':>12} {'ratio':>8}")
    for name, (inside, worker) in results.items():
        print(f"{name:20} {inside * 1e3:9.3f} ms {worker * 1e3:9.3f} ms {worker / inside:7.1f}x")


if __name__ == "__main__":
    main()
