"""Latency of `gradcli check` against `python -c "import numpy, sympy"`, measured in one run.

A check needs sympy, so importing numpy and sympy is the floor no check can beat; the ratio says how much a
check costs on top of it.  For each problem below, runs `python -m gradcli check ...` several times and takes
the median; prints each median, the median over problems, the baseline and the ratio.

    python benchmarks/bench_check.py [--runs 5]

`--corpus` times `check_derivative` in-process on the corpora (tests/corpus/*.jsonl), two checks at once
(two worker processes, as on a 2-core machine with one other job), and prints the median and maximum wall
and CPU time per check.  With `--before DIR` (a directory holding an older `gradcli` package, e.g. made by
`git archive <commit> gradcli | tar -x -C DIR`), the two workers are the old and the new code running the
same checks side by side, so their figures share the machine's load:

    python benchmarks/bench_check.py --corpus [--before /tmp/old] [--limit 200]
"""

from __future__ import annotations

import argparse
import json
import os
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


def corpus_problems(limit: int | None) -> list[dict]:
    problems = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.jsonl")):
        problems += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return problems[:limit] if limit else problems


def worker(part: int, parts: int, limit: int | None) -> None:
    """Time each check of this part of the corpora; one JSON line per check on stdout."""
    from gradcli.homework.check import check_derivative
    from gradcli.safety.errors import GradcliError

    for k, problem in enumerate(corpus_problems(limit)):
        if k % parts != part:
            continue
        wrt = problem.get("wrt") or None
        order = problem.get("order", 1) if not wrt or len(wrt) <= 1 else 1
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            report = check_derivative(problem["function"], [problem["answer"]], wrt=wrt, order=order,
                                      variables=problem.get("var") or (), dependent=problem.get("dependent"),
                                      formulas="needed")
            verdict = report.results[0].verdict
        except GradcliError as err:
            verdict = f"error: {err.message}"
        print(json.dumps({"k": k, "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                          "verdict": verdict}), flush=True)


def corpus(before: str | None, limit: int | None) -> None:
    runs = [("before", before, 0, 1), ("after", str(ROOT), 0, 1)] if before else \
        [("after", str(ROOT), 0, 2), ("after", str(ROOT), 1, 2)]
    processes = []
    for _, path, part, parts in runs:
        env = {**os.environ, "PYTHONPATH": path}
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", f"{part}/{parts}"]
        if limit:
            command += ["--limit", str(limit)]
        processes.append(subprocess.Popen(command, env=env, cwd=path, stdout=subprocess.PIPE, text=True))
    results: dict[str, list[dict]] = {}
    for (label, *_), process in zip(runs, processes):
        out, _ = process.communicate()
        results.setdefault(label, []).extend(json.loads(line) for line in out.splitlines() if line.strip())
    print(f"{'':8} {'checks':>7} {'median wall':>12} {'max wall':>9} {'median cpu':>11} {'max cpu':>8}")
    for label, rows in results.items():
        wall, cpu = [r["wall"] for r in rows], [r["cpu"] for r in rows]
        print(f"{label:8} {len(rows):7d} {statistics.median(wall):11.3f}s {max(wall):8.2f}s "
              f"{statistics.median(cpu):10.3f}s {max(cpu):7.2f}s")
        slowest = max(rows, key=lambda r: r["wall"])
        print(f"{'':8} slowest: #{slowest['k']} ({slowest['wall']:.2f} s wall, {slowest['cpu']:.2f} s cpu)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", action="store_true", help="time the corpora in-process, two checks at once")
    parser.add_argument("--before", help="a directory holding an older gradcli package, run side by side")
    parser.add_argument("--limit", type=int, help="only the first N problems of the corpora")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        part, parts = (int(n) for n in args.worker.split("/"))
        worker(part, parts, args.limit)
        return
    if args.corpus:
        corpus(args.before, args.limit)
        return

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
