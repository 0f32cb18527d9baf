"""Start-up of `gradcli eval` and per-line latency of `gradcli repl`, as ratios measured in one run.

1. `gradcli eval "(x**2).sum()" x=[1,2,3] --no-check --json` against `python -c "import numpy"`
   (target <= 1.6x).
2. `gradcli eval "(x**2).sum()" x=[1,2,3]` (table + sympy cross-check, the default path) against
   `python -c "import numpy, sympy"` (target <= 1.25x).
3. `gradcli repl` fed N small lines with the cross-check on, through a pipe: (time(N lines) - time(1 line)) / (N-1)
   is the latency of one line after the first (target <= 30 ms).

Bytecode is compiled first, as after `pip install`.  Medians of several runs; nothing here is asserted.

    python benchmarks/bench_startup.py [--runs 9] [--lines 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def wall(cmd, runs, env, stdin_text=None):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=False, capture_output=True, env=env, input=stdin_text, text=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--lines", type=int, default=200)
    args = parser.parse_args()
    # An installed package has its .pyc files; PYTHONDONTWRITEBYTECODE would make every run recompile.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "NO_COLOR")}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "gradcli")], check=True, env=env)
    py = sys.executable
    gradcli = [py, "-m", "gradcli"]
    print(f"start-up (median of {args.runs} runs, bytecode compiled)")
    numpy_only = wall([py, "-c", "import numpy"], args.runs, env)
    numpy_sympy = wall([py, "-c", "import numpy, sympy"], args.runs, env)
    fast = wall([*gradcli, "eval", "(x**2).sum()", "x=[1,2,3]", "--no-check", "--json"], args.runs, env)
    default = wall([*gradcli, "eval", "(x**2).sum()", "x=[1,2,3]"], args.runs, env)
    print(f"python -c 'import numpy'               {numpy_only * 1e3:7.1f} ms")
    print(f"gradcli eval ... --no-check --json     {fast * 1e3:7.1f} ms   {fast / numpy_only:.2f}x numpy")
    print(f"python -c 'import numpy, sympy'        {numpy_sympy * 1e3:7.1f} ms")
    print(f"gradcli eval ... (cross-check, table)  {default * 1e3:7.1f} ms   {default / numpy_sympy:.2f}x numpy+sympy")

    lines = ["x = [1, 2, 3]", "y = 0.5"]
    exprs = ["(x**2).sum()", "(sin(x) * y).sum()", "(x * exp(-y)).mean()", "tanh(x).sum() + y**2"]
    body = [exprs[i % len(exprs)] for i in range(args.lines)]
    one = "\n".join(lines + body[:1]) + "\n"
    many = "\n".join(lines + body) + "\n"
    repl = [*gradcli, "repl"]
    runs = max(3, args.runs // 3)
    t_one = wall(repl, runs, env, one)
    t_many = wall(repl, runs, env, many)
    per_line = (t_many - t_one) / (args.lines - 1)
    print(f"\nrepl, cross-check on (median of {runs} runs, piped stdin)")
    print(f"1 line                                 {t_one * 1e3:7.1f} ms")
    print(f"{args.lines} lines                              {t_many * 1e3:7.1f} ms")
    print(f"per line after the first               {per_line * 1e3:7.2f} ms")


if __name__ == "__main__":
    main()
