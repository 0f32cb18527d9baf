"""The PyTorch tutorials' own programs (tests/programs/): `gradcli run prog.py` beside `python prog.py` with
PyTorch, since a learner will compare; and whether each prints exactly what PyTorch printed (the recorded
output in tests/programs/expected/, addresses aside).

Wall time, median of a few runs, the two commands taking turns.  PyTorch's column is skipped when torch is
not installed.  Nothing here is asserted.

    python benchmarks/bench_tutorials.py [--runs 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "programs"
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def wall(argv: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=PROGRAMS)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    has_torch = importlib.util.find_spec("torch") is not None
    print(f"{'program':40} {'same as PyTorch':>16} {'gradcli s':>10} {'PyTorch s':>10} {'ratio':>6}")
    for program in sorted(PROGRAMS.glob("*.py")):
        expected = (PROGRAMS / "expected" / f"{program.stem}.out").read_text()
        ours, theirs = [], []
        out = ""
        for _ in range(runs):
            seconds, out = wall([sys.executable, "-m", "gradcli", "run", program.name])
            ours.append(seconds)
            if has_torch:
                theirs.append(wall([sys.executable, program.name])[0])
        got, want = ADDRESS.sub(" at 0x…", out).splitlines(), expected.splitlines()
        same = sum(a == b for a, b in zip(got, want))
        ours_s = statistics.median(ours)
        theirs_s = statistics.median(theirs) if theirs else float("nan")
        print(f"{program.stem:40} {f'{same}/{len(want)} lines':>16} {ours_s:10.2f} {theirs_s:10.2f} "
              f"{ours_s / theirs_s:6.2f}")


if __name__ == "__main__":
    main()
