"""Latency of `gradcli check` against `python -c "import numpy, sympy"`, measured in one run.

A check needs sympy, so importing numpy and sympy is the floor no check can beat; the ratio says how much a
check costs on top of it.  For each problem below, runs `python -m gradcli check ...` several times and takes
the median; prints each median, the median over problems, the baseline and the ratio.

    python benchmarks/bench_check.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Typical homework checks: correct and incorrect, one and several variables, higher order.
PROBLEMS = [
    ["x^2 sin(x)", "--wrt", "x", "--expect", "2x sin(x) + x^2 cos(x)"],
    ["x^2 sin x", "--expect", "2x cos x"],
    ["ln(x^2+1)", "--expect", "2x/(x^2+1)"],
    ["e^(3x) cos(2x)", "--expect", "e^(3x)(3cos(2x) - 2sin(2x))"],
    ["arctan(x)", "--expect", "1/(1-x^2)"],
    ["x^2 y + y^3", "--expect", "x=2x*y", "--expect", "y=x^2 + 3y^2"],
    ["1/x", "--order", "2", "--expect", "2/x^3"],
    ["sqrt(1+x^2)", "--expect", "x/sqrt(1+x^2)"],
]


def median_seconds(command: list[str], runs: int, ok_codes=(0, 1)) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if done.returncode not in ok_codes:
            raise SystemExit(f"{command} failed ({done.returncode}): {done.stderr}")
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    baseline = median_seconds([sys.executable, "-c", "import numpy, sympy"], args.runs)
    print(f"python -c 'import numpy, sympy': {baseline * 1000:7.1f} ms (median of {args.runs})")
    medians = []
    for problem in PROBLEMS:
        seconds = median_seconds([sys.executable, "-m", "gradcli", "check", *problem, "--no-color"], args.runs)
        medians.append(seconds)
        print(f"{seconds * 1000:7.1f} ms  {seconds / baseline:5.2f}x  gradcli check {' '.join(problem)}")
    overall = statistics.median(medians)
    print(f"median check: {overall * 1000:7.1f} ms; ratio to the import baseline: {overall / baseline:.2f}x")


if __name__ == "__main__":
    main()
