"""Start-up cost of `gradcli run` against real PyTorch, measured in one run on the same machine.

Times, as the median of several runs each, the wall time of
    python -m gradcli run examples/seed_1.py
    python examples/seed_1.py            (real PyTorch; skipped with a message when torch is absent)
and prints both and their ratio.  For a snippet this small, both are almost all start-up.

    python benchmarks/bench_run_startup.py [--runs 5] [--program examples/seed_1.py]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def median_seconds(command: list[str], runs: int) -> tuple[float, str]:
    times, output = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True)
        times.append(time.perf_counter() - start)
        output = done.stdout
    return statistics.median(times), output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--program", default="examples/seed_1.py")
    args = parser.parse_args()

    gradcli, gradcli_out = median_seconds([sys.executable, "-m", "gradcli", "run", args.program], args.runs)
    print(f"gradcli run {args.program}: {gradcli * 1000:7.1f} ms (median of {args.runs})")
    if importlib.util.find_spec("torch") is None:
        print("torch is not installed: skipping the PyTorch side")
        return
    torch, torch_out = median_seconds([sys.executable, args.program], args.runs)
    print(f"python {args.program} (torch):  {torch * 1000:7.1f} ms (median of {args.runs})")
    print(f"ratio torch / gradcli: {torch / gradcli:.1f}x; same output: {gradcli_out == torch_out}")


if __name__ == "__main__":
    main()
