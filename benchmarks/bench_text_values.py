"""Reading a value file, as ratios against baselines measured in the same run (never asserted in tests).

  python benchmarks/bench_text_values.py              # 10^7 numbers (~95 MB of text)
  python benchmarks/bench_text_values.py --numbers 1000000

Each reader runs in its own child process, which reports its time and its peak memory growth:
  gradcli  parse_value("@values.txt")  strict text through numpy's C reader
  loadtxt  np.loadtxt on the same file  (the C reader alone: the floor for strict text)
  npy      parse_value("@values.npy")   the same array as .npy (the floor for any file)
Time is shown as a ratio to loadtxt, memory as a multiple of the final array's bytes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import resource, sys, time
sys.path.insert(0, {root!r})
import numpy as np
from gradcli.io.inputs import parse_value
from gradcli.safety.limits import Limits
kind, path = sys.argv[1], sys.argv[2]
before = int(open("/proc/self/statm").read().split()[1]) * resource.getpagesize() // 1024  # resident now, kB
start = time.perf_counter()
if kind == "loadtxt":
    array = np.loadtxt(path, ndmin=2)
else:
    array = parse_value("@" + path, dtype=np.dtype("float64"), rng=np.random.default_rng(0), limits=Limits())
seconds = time.perf_counter() - start
print(seconds, array.nbytes, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


def measure(kind: str, path: Path) -> tuple[float, int, int]:
    done = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), kind, str(path)],
                          capture_output=True, text=True, check=True)
    seconds, nbytes, growth = done.stdout.split()
    return float(seconds), int(nbytes), int(growth)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--numbers", type=int, default=10_000_000)
    args = parser.parse_args()
    array = np.random.default_rng(0).standard_normal((args.numbers // 10, 10))
    with tempfile.TemporaryDirectory() as tmp:
        text, npy = Path(tmp) / "values.txt", Path(tmp) / "values.npy"
        np.savetxt(text, array, fmt="%.6f")
        np.save(npy, array)
        print(f"{args.numbers:,} numbers, {text.stat().st_size / 1e6:.0f} MB of text")
        baseline = measure("loadtxt", text)[0]
        for kind, path in (("gradcli", text), ("loadtxt", text), ("npy", npy)):
            seconds, nbytes, growth = measure(kind, path)
            print(f"  {kind:8s} {seconds:7.2f} s  {seconds / baseline:5.2f}x loadtxt   "
                  f"peak growth {growth / 1e6:7.0f} MB = {growth / nbytes:4.1f}x the array")


if __name__ == "__main__":
    main()
