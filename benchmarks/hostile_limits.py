"""Before/after table of the hostile cases of tests/hostile_cases.py: wall time, peak resident memory, exit code.

    python benchmarks/hostile_limits.py [--before DIR] [--before-python PYTHON] [--only SUBSTRING]

"after" is this checkout; "before" is another checkout of gradcli (e.g. the original main branch) run with its
own interpreter from its own directory.  Each run is capped by the measuring wrapper: address space 8 GiB,
120 s wall time (the original code would otherwise ask for 18.6 GiB or run for minutes).  Each case runs once:
the machine is shared, so read the numbers as orders of magnitude.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

from hostile_cases import CASES, LONG_STATEMENT, interrupt, measure  # noqa: E402


def _cell(result: dict) -> str:
    first = (result["stderr"].strip().splitlines() or [""])[0][:70].replace("|", "/")
    return f"{result['seconds']:.1f} s, {result['peak_mb']:.0f} MB, exit {result['exit_code']}: {first}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="directory of the original checkout")
    parser.add_argument("--before-python", help="its Python (default: DIR/.venv/bin/python)")
    parser.add_argument("--only", help="run the cases whose name contains this")
    args = parser.parse_args()
    after_dir = os.path.join(HERE, "..")
    before_python = args.before_python or (args.before and os.path.join(args.before, ".venv", "bin", "python"))
    print("| case | before | after |")
    print("|---|---|---|")
    for case in CASES:
        if args.only and args.only not in case.name:
            continue
        before = "—"
        if args.before:
            before = _cell(measure(case, before_python, cwd=args.before, before=True))
        after = measure(case, sys.executable, cwd=after_dir)
        print(f"| {case.name} | {before} | {_cell(after)} |", flush=True)
    if not args.only or "Ctrl-C" in args.only:
        argv = ("run", "{dir}/long.py")
        files = {"long.py": LONG_STATEMENT}
        row = []
        for python, cwd in ((before_python, args.before), (sys.executable, after_dir)):
            if python is None:
                row.append("—")
                continue
            r = interrupt(argv, python, cwd=cwd, after=2.0, files=files)
            row.append(f"ended {r['seconds']:.1f} s after SIGINT, exit {r['exit_code']}")
        print(f"| Ctrl-C inside one numpy call (run) | {row[0]} | {row[1]} |")


if __name__ == "__main__":
    main()
