"""Rows with a reduction or with vector values, batched (issue 29, item 14), measured side by side.

1. 10,000 CSV rows of `(x.sin()*x + y).sum()` (a reduction of scalar rows) against the row-wise `x.sin()*x + y`
   on the same file (the target: a reduction at most 2x the row-wise expression);
2. 100,000 NDJSON rows of 3-vectors, `(x.sin()*x).sum()` (the issue: 33.7 s), against the row-wise `x.sin()*x`
   on 100,000 NDJSON rows of numbers (the target: about the same time, at most 1 s of CPU);
3. 5,000 NDJSON rows of 5-vectors, `(sin(x)*y).sum()` (bench_rows.py's per-row case);
4. 5,000 NDJSON rows of 300-vectors, `(x.sin()*x).sum(-1) / x.norm()`, and of 3x3 matrices with a shared W,
   `(W @ x @ y).softmax(0)[1].sum() + torch.logsumexp(x, 1).mean()` (dims, norms, products, indexing);
5. 5,000 NDJSON rows of 5-vectors, `(x.cumsum(0) * x[k]).sum() + torch.cat([x, x.flip(0)]).sum() +
   x[x > -100].sum()` with an integer constant k (running sums, joins, integer-tensor indices, masks).
CPU seconds (user + sys of the child; wall time stretches on a shared machine) and wall seconds, medians.  With
--compare REV the same commands also run on a checkout of REV (a temporary git worktree), with --before DIR on
an existing checkout, in the same run.

    python benchmarks/bench_rows_batched.py [--runs 3] [--ndjson-rows 100000] [--compare 72961ac | --before DIR]
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
    parser.add_argument("--before", metavar="DIR", help="an existing checkout to compare with")
    parser.add_argument("--vector-rows", type=int, default=5_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        csv_in, nd_in = os.path.join(tmp, "in.csv"), os.path.join(tmp, "in.jsonl")
        with open(csv_in, "w") as f:
            f.write("x,y\n" + "".join(f"{a!r},{b!r}\n" for a, b in rng.normal(size=(args.csv_rows, 2)).tolist()))
        with open(nd_in, "w") as f:
            f.writelines(json.dumps({"x": v}) + "\n" for v in rng.normal(size=(args.ndjson_rows, 3)).tolist())
        nd_numbers = os.path.join(tmp, "numbers.jsonl")
        with open(nd_numbers, "w") as f:
            f.writelines(json.dumps({"x": v}) + "\n" for v in rng.normal(size=args.ndjson_rows).tolist())
        nd5, nd300, nd33 = (os.path.join(tmp, f) for f in ("v5.jsonl", "v300.jsonl", "m33.jsonl"))
        with open(nd5, "w") as f:
            f.writelines(json.dumps({"x": a, "y": b}) + "\n"
                         for a, b in zip(rng.normal(size=(args.vector_rows, 5)).tolist(),
                                         rng.normal(size=(args.vector_rows, 5)).tolist()))
        with open(nd300, "w") as f:
            f.writelines(json.dumps({"x": v}) + "\n" for v in rng.normal(size=(args.vector_rows, 300)).tolist())
        with open(nd33, "w") as f:
            f.writelines(json.dumps({"x": a, "y": b}) + "\n"
                         for a, b in zip(rng.normal(size=(args.vector_rows, 3, 3)).tolist(),
                                         rng.normal(size=(args.vector_rows, 3, 3)).tolist()))
        more = [("NDJSON 5-vectors, (sin(x)*y).sum()", ["(sin(x)*y).sum()", "--rows", nd5, "-o",
                                                         os.path.join(tmp, "d.jsonl")]),
                ("NDJSON 300-vectors, sum(-1) / norm", ["(x.sin()*x).sum(-1) / x.norm()", "--rows", nd300, "-o",
                                                         os.path.join(tmp, "e.jsonl")]),
                ("NDJSON 3x3, W @ x @ y, softmax, lse",
                 ["(W @ x @ y).softmax(0)[1].sum() + torch.logsumexp(x, 1).mean()", "W=[[1,2,3],[0.5,-1,2],[0,1,-2]]",
                  "--rows", nd33, "-o", os.path.join(tmp, "f.jsonl")]),
                ("NDJSON 5-vectors, cumsum, cat, x[k], mask",
                 ["(x.cumsum(0) * x[k]).sum() + torch.cat([x, x.flip(0)]).sum() + x[x > -100].sum()",
                  "--const", "k=[4, 0, 2, 2, 1]", "--rows", nd5, "-o", os.path.join(tmp, "h.jsonl")])]
        commands = [("CSV rows, row-wise x.sin()*x + y", ["x.sin()*x + y", "--rows", csv_in, "-o",
                                                          os.path.join(tmp, "a.csv")]),
                    ("CSV rows, (x.sin()*x + y).sum()", ["(x.sin()*x + y).sum()", "--rows", csv_in, "-o",
                                                         os.path.join(tmp, "b.csv")]),
                    ("NDJSON numbers, row-wise x.sin()*x", ["x.sin()*x", "--rows", nd_numbers, "-o",
                                                            os.path.join(tmp, "g.jsonl")]),
                    ("NDJSON 3-vectors, (x.sin()*x).sum()", ["(x.sin()*x).sum()", "--rows", nd_in, "-o",
                                                             os.path.join(tmp, "c.jsonl")])] + more
        roots = [("this tree", ROOT)]
        if args.compare:
            other = Path(tmp) / "before"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), args.compare],
                           check=True)
            roots.insert(0, (args.compare, other))
        elif args.before:
            roots.insert(0, ("before", Path(args.before)))
        for _name, root in roots:  # byte-compiled first: a fresh checkout would pay for it in its first run
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "gradcli")], check=True)
        try:
            print(f"{args.csv_rows:,} CSV rows, {args.ndjson_rows:,} NDJSON rows; medians of {args.runs}: wall / cpu s")
            for label, command in commands:
                cells = [f"{name}: {w:6.2f} / {c:6.2f}" for name, root in roots
                         for w, c in [measure(root, command, args.runs)]]
                print(f"{label:40s} " + "   ".join(cells), flush=True)
        finally:
            if args.compare:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)


if __name__ == "__main__":
    main()
