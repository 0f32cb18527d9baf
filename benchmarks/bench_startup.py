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


def walls(commands: dict, runs: int, env) -> dict:
    """Median wall time of each command; the commands take turns, so that a change in the machine's load
    during the run affects all of them alike (the ratios are what count)."""
    times = {name: [] for name in commands}
    for _ in range(runs):
        for name, (cmd, stdin_text) in commands.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, check=False, capture_output=True, env=env, input=stdin_text, text=True)
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(t) for name, t in times.items()}


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
    t = walls({
        "numpy": ([py, "-c", "import numpy"], None),
        "numpy+sympy": ([py, "-c", "import numpy, sympy"], None),
        "fast": ([*gradcli, "eval", "(x**2).sum()", "x=[1,2,3]", "--no-check", "--json"], None),
        "default": ([*gradcli, "eval", "(x**2).sum()", "x=[1,2,3]"], None),
    }, args.runs, env)
    print(f"python -c 'import numpy'               {t['numpy'] * 1e3:7.1f} ms")
    print(f"gradcli eval ... --no-check --json     {t['fast'] * 1e3:7.1f} ms   {t['fast'] / t['numpy']:.2f}x numpy")
    print(f"python -c 'import numpy, sympy'        {t['numpy+sympy'] * 1e3:7.1f} ms")
    print(f"gradcli eval ... (cross-check, table)  {t['default'] * 1e3:7.1f} ms   "
          f"{t['default'] / t['numpy+sympy']:.2f}x numpy+sympy")

    lines = ["x = [1, 2, 3]", "y = 0.5"]
    exprs = ["(x**2).sum()", "(sin(x) * y).sum()", "(x * exp(-y)).mean()", "tanh(x).sum() + y**2"]
    body = [exprs[i % len(exprs)] for i in range(args.lines)]
    runs = max(3, args.runs // 3)
    t = walls({"one": ([*gradcli, "repl"], "\n".join(lines + body[:1]) + "\n"),
               "many": ([*gradcli, "repl"], "\n".join(lines + body) + "\n")}, runs, env)
    per_line = (t["many"] - t["one"]) / (args.lines - 1)
    print(f"\nrepl, cross-check on (median of {runs} runs, piped stdin)")
    print(f"1 line                                 {t['one'] * 1e3:7.1f} ms")
    print(f"{args.lines} lines                              {t['many'] * 1e3:7.1f} ms")
    print(f"per line after the first               {per_line * 1e3:7.2f} ms")
    in_process(lines, body)


def in_process(lines, body):
    """The same session driven in this process: wall and CPU time of each line after the first, so that the
    machine's load (which the piped figure includes) can be told apart from gradcli's own work."""
    import io

    sys.path.insert(0, str(ROOT))
    from gradcli.calc.repl import Session, Settings
    from gradcli.cli.terminal import make_console

    out = io.StringIO()
    console = make_console("never")
    console.file = out
    session = Session(Settings(), console, stdout=out, stderr=out)
    for line in lines + body[:1]:
        session.handle(line)
    walls, cpus = [], []
    for line in body[1:]:
        w0, c0 = time.perf_counter(), time.process_time()
        session.handle(line)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    assert not session.failed and out.getvalue().count("agrees") == len(body)
    print(f"in-process, per line after the first   {statistics.median(walls) * 1e3:7.2f} ms wall (median), "
          f"{statistics.median(cpus) * 1e3:.2f} ms CPU, slowest {max(walls) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
