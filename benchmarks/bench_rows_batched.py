"""Rows with a reduction or with vector values, batched (issue 29, item 14), measured side by side.

1. 10,000 CSV rows of `(x.sin()*x + y).sum()` (a reduction of scalar rows) against the row-wise `x.sin()*x + y`
   on the same file (the target: near the row-wise speed);
2. 100,000 NDJSON rows of 3-vectors, `(x.sin()*x).sum()` (the issue: 33.7 s).
CPU seconds (user + sys of the child; wall time stretches on a shared machine) and wall seconds, medians.  With
--compare REV the same commands also run on a checkout of REV (a temporary git worktree), in the same run.

    python benchmarks/bench_rows_batched.py [--runs 3] [--ndjson-rows 100000] [--compare 72961ac]
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


def measure(root: Path, args: list[str], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "gradcli", "eval", *args], capture_output=True, cwd=root,
                              env={**os.environ, "PYTHONPATH": str(root)})
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"{args} failed: {done.stderr.decode()[:300]}")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--csv-rows", type=int, default=10_000)
    parser.add_argument("--ndjson-rows", type=int, default=100_000)
    parser.add_argument("--compare", metavar="REV")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        csv_in, nd_in = os.path.join(tmp, "in.csv"), os.path.join(tmp, "in.jsonl")
        with open(csv_in, "w") as f:
            f.write("x,y\n" + "".join(f"{a!r},{b!r}\n" for a, b in rng.normal(size=(args.csv_rows, 2)).tolist()))
        with open(nd_in, "w") as f:
            f.writelines(json.dumps({"x": v}) + "\n" for v in rng.normal(size=(args.ndjson_rows, 3)).tolist())
        commands = [("CSV rows, row-wise x.sin()*x + y", ["x.sin()*x + y", "--rows", csv_in, "-o",
                                                          os.path.join(tmp, "a.csv")]),
                    ("CSV rows, (x.sin()*x + y).sum()", ["(x.sin()*x + y).sum()", "--rows", csv_in, "-o",
                                                         os.path.join(tmp, "b.csv")]),
                    ("NDJSON 3-vectors, (x.sin()*x).sum()", ["(x.sin()*x).sum()", "--rows", nd_in, "-o",
                                                             os.path.join(tmp, "c.jsonl")])]
        roots = [("this tree", ROOT)]
        if args.compare:
            other = Path(tmp) / "before"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), args.compare],
                           check=True)
            roots.insert(0, (args.compare, other))
        for _name, root in roots:  # byte-compiled first: a fresh checkout would pay for it in its first run
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "gradcli")], check=True)
        try:
            print(f"{args.csv_rows:,} CSV rows, {args.ndjson_rows:,} NDJSON rows; medians of {args.runs}: wall / cpu s")
            for label, command in commands:
                cells = [f"{name}: {w:6.2f} / {c:6.2f}" for name, root in roots
                         for w, c in [measure(root, command, args.runs)]]
                print(f"{label:40s} " + "   ".join(cells))
        finally:
            if args.compare:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)


if __name__ == "__main__":
    main()
