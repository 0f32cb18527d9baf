"""Rows mode against one single evaluation, measured in the same run on the same machine.

1. 200,000 two-variable CSV rows of an elementwise expression, read, evaluated, differentiated and written
   to CSV (`gradcli eval EXPR --rows in.csv -o out.csv`, the vectorised path), against ONE
   `gradcli eval EXPR x=.. y=.. --no-check` process (the target: <= 4x; aim: >= 100,000 rows/s end to end).
2. NDJSON rows of 5-vectors, `(sin(x)*y).sum()`: a reduction of vector rows, one batched pass per chunk of
   rows (calc/batching.py; a per-row loop before issue 29's item 14): rows/s end to end, and per row after
   start-up (the target: >= 2,000 rows/s).

    python benchmarks/bench_rows.py [--rows 200000] [--ndjson-rows 5000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EXPRESSION = "sin(x)*y**2 + exp(-x*y)"
LOOP_EXPRESSION = "(sin(x)*y).sum()"


def wall(command: list[str], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + sys) of `command`.  CPU time is the steadier number on
    a shared machine, where other processes stretch the wall time."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def report(label: str, rows: int, t: tuple, base: tuple) -> None:
    for kind, value, ref in (("wall", t[0], base[0]), ("cpu ", t[1], base[1])):
        print(f"   {label} {kind} {value * 1000:7.0f} ms = {value / ref:5.2f}x one evaluation; "
              f"{rows / value:10,.0f} rows/s end to end, {rows / max(value - ref, 1e-9):10,.0f} after start-up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--ndjson-rows", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "gradcli")], check=True)
    gradcli = [sys.executable, "-m", "gradcli", "eval"]
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        csv_in, csv_out = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
        xy = rng.normal(size=(args.rows, 2))
        with open(csv_in, "w") as f:
            f.write("x,y\n" + "".join(f"{a!r},{b!r}\n" for a, b in xy.tolist()))
        single = wall([*gradcli, EXPRESSION, "x=0.5", "y=-1.25", "--no-check"], args.runs * 3)
        rows = wall([*gradcli, EXPRESSION, "--rows", csv_in, "-o", csv_out], args.runs)
        with open(csv_out) as f:
            written = sum(1 for _ in f) - 1
        assert written == args.rows, f"{written} rows written, {args.rows} expected"

        nd_in = os.path.join(tmp, "in.jsonl")
        with open(nd_in, "w") as f:
            for _ in range(args.ndjson_rows):
                f.write(json.dumps({"x": rng.normal(size=5).tolist(), "y": rng.normal(size=5).tolist()}) + "\n")
        loop = wall([*gradcli, LOOP_EXPRESSION, "--rows", nd_in, "-o", os.path.join(tmp, "out.jsonl")], args.runs)
        single_loop = wall([*gradcli, LOOP_EXPRESSION, "x=[1,2,3,4,5]", "y=[1,2,3,4,5]", "--no-check", "--json"],
                           args.runs * 3)

    print(f"1. {args.rows:,} CSV rows of `{EXPRESSION}` -> CSV (vectorised), median of {args.runs}")
    print(f"   one `gradcli eval EXPR x=.. y=.. --no-check`: wall {single[0] * 1000:.0f} ms, "
          f"cpu {single[1] * 1000:.0f} ms")
    report("--rows in.csv -o out.csv:", args.rows, rows, single)
    print(f"2. {args.ndjson_rows:,} NDJSON rows of 5-vectors, `{LOOP_EXPRESSION}` (batched)")
    print(f"   one `gradcli eval EXPR x=[..] y=[..] --no-check --json`: wall {single_loop[0] * 1000:.0f} ms, "
          f"cpu {single_loop[1] * 1000:.0f} ms")
    report("--rows in.jsonl -o out.jsonl:", args.ndjson_rows, loop, single_loop)


if __name__ == "__main__":
    main()
