"""How long `gradcli eval` takes to give its answer and its verdict (issue 29, item 2), measured side by side.

Each command runs several times; the medians of wall time and of CPU time (user + sys of the child: the steadier
number on a shared machine) are printed, with the ratio to `eval ... --no-check` of the same expression (the
autograd answer alone).  With --compare REV, the same commands also run on a checkout of REV (a git worktree
made in a temporary directory, with this interpreter), so before and after are measured in one run.

    python benchmarks/bench_first_answer.py [--runs 5] [--compare HEAD~3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = [
    ("eval (x**2).sum()", ["eval", "(x**2).sum()", "x=[1,2,3]"]),
    ("eval softmax", ["eval", "(W@x).softmax(0).log().sum()", "W=randn(7,8)", "x=randn(8)"]),
    ("eval det", ["eval", "torch.linalg.det(A)", "A=randn(5,5)"]),
    ("check product rule", ["check", "x^2 sin(x)", "--wrt", "x", "--expect", "2x sin(x) + x^2 cos(x)",
                            "--timeout", "120"]),
]


def measure(root: Path, args: list[str], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    env = {**os.environ, "PYTHONPATH": str(root)}
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "gradcli", *args, "--no-color"], capture_output=True, text=True,
                              cwd=root, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{args} failed ({done.returncode}): {done.stderr}")
    return statistics.median(walls), statistics.median(cpus)


def rows(root: Path, runs: int) -> list[tuple[str, tuple, tuple]]:
    out = []
    for label, args in COMMANDS:
        full = measure(root, args, runs)
        bare = measure(root, [*args, "--no-check"], runs) if args[0] == "eval" else None
        out.append((label, full, bare))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", metavar="REV", help="also measure a checkout of REV, interleaved")
    args = parser.parse_args()
    roots = [("this tree", ROOT)]
    with tempfile.TemporaryDirectory() as tmp:
        if args.compare:
            other = Path(tmp) / "before"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(other), args.compare],
                           check=True)
            roots.insert(0, (args.compare, other))
        for _name, root in roots:  # byte-compiled first: a fresh checkout would pay for it in its first run
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "gradcli")], check=True)
        try:
            results = {name: rows(root, args.runs) for name, root in roots}
        finally:
            if args.compare:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)
    print(f"medians of {args.runs} runs: wall / cpu seconds (the answer alone: --no-check)")
    for i, (label, _) in enumerate(COMMANDS):
        cells = []
        for name, _root in roots:
            _, full, bare = results[name][i]
            text = f"{name}: {full[0]:5.2f} / {full[1]:5.2f}"
            if bare:
                text += f" (--no-check {bare[0]:4.2f} / {bare[1]:4.2f})"
            cells.append(text)
        print(f"{label:20s} " + "   ".join(cells))


if __name__ == "__main__":
    main()
