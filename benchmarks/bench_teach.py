"""Time of the teaching features, as ratios against a baseline measured in the same run (never asserted
in tests).

  python benchmarks/bench_teach.py

1. `gradcli steps F` and `gradcli check F --steps` on the step problems of tests/homework/test_steps.py: median wall
   time of one command, against `python -c "import numpy, sympy"` (what any sympy-using command pays).
2. `gradcli plot F --expect A` (terminal) and with `--png`: median wall time, same baseline.
3. In-process: the derivation (rules + textbook form) and the plot (sampling + text) per problem.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_steps import PROBLEMS  # noqa: E402

PLOTS = [("x^2 sin x", "2x cos x"), ("tan x", "sec(x)^2"), ("ln(x)", "1/x"), ("e^(-x^2)", "-2x e^(-x^2)"),
         ("sqrt(x^2+1)", "x/sqrt(x^2+1)"), ("arctan(x)", "1/(1+x^2)")]


def wall(cmd: list[str], repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, check=False, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    exe = [sys.executable, "-m", "gradcli"]
    baseline = wall([sys.executable, "-c", "import numpy, sympy"], 5)
    print(f"baseline python -c 'import numpy, sympy': {baseline * 1000:.0f} ms")
    sample = [text for text, _, _ in PROBLEMS][::3]
    steps = statistics.median(wall([*exe, "steps", text, "--wrt", "x"], 1) for text in sample)
    check = statistics.median(wall([*exe, "check", text, "--wrt", "x", "--steps"], 1) for text in sample)
    print(f"gradcli steps F            median {steps * 1000:.0f} ms  ({steps / baseline:.2f}x baseline, "
          f"{len(sample)} problems)")
    print(f"gradcli check F --steps    median {check * 1000:.0f} ms  ({check / baseline:.2f}x baseline)")
    plot = statistics.median(wall([*exe, "plot", f, "--expect", a, "--no-color"], 1) for f, a in PLOTS)
    print(f"gradcli plot F --expect A  median {plot * 1000:.0f} ms  ({plot / baseline:.2f}x baseline, "
          f"{len(PLOTS)} plots)")
    with tempfile.TemporaryDirectory() as tmp:
        png = statistics.median(wall([*exe, "plot", f, "--expect", a, "--no-color", "--png", f"{tmp}/p.png"], 1)
                                for f, a in PLOTS[:3])
    print(f"... with --png             median {png * 1000:.0f} ms  ({png / baseline:.2f}x baseline)")

    from gradcli.homework.plot import render_text
    from gradcli.homework.plot import sample as plot_sample
    from gradcli.homework.steps import derive_text

    per = []
    for text, _, _ in PROBLEMS:
        start = time.perf_counter()
        derive_text(text, "x")
        per.append(time.perf_counter() - start)
    print(f"in-process derivation: median {statistics.median(per) * 1000:.0f} ms, max {max(per) * 1000:.0f} ms "
          f"over {len(PROBLEMS)} problems")
    per = []
    for f, a in PLOTS:
        start = time.perf_counter()
        render_text(plot_sample(f, expect=a), width=80, height=22)
        per.append(time.perf_counter() - start)
    print(f"in-process plot: median {statistics.median(per) * 1000:.0f} ms, max {max(per) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
