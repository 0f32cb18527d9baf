"""Record what real Python + PyTorch prints for every snippet and example, as goldens for tests/run/test_run.py.

Each program runs in a subprocess under a small runner that executes it as a script and reports, on
stderr, in the exact form `gradcli run` uses:
  - each UserWarning and FutureWarning Python shows (once per line, Python's default filter):
        gradcli run: warning at line L
        UserWarning: <message>
  - an uncaught exception, after everything printed before it:
        gradcli run: error at line L
        <Type>: <message>
stdout goes to tests/snippets/expected/NAME.out, stderr (when not empty) to NAME.err; the exit status
is 1 exactly when an error line is present.  Object addresses (`at 0x7f...`) are normalised to `at 0x…`.
Output that is not reproducible (uninitialised memory, timing tables) is masked as tests/programs/masks.json
says for that program, so the golden is the same on every recording; the test masks gradcli's output alike.
Dev-only: needs torch; the test suite never imports it.

    python scripts/make_snippet_goldens.py [NAME_FILTER]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "tests" / "snippets"
EXPECTED = SNIPPETS / "expected"
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
# the profiler's C++ library logs its start and stop to stderr with a timestamp: not the program's output
KINETO_LOG = re.compile(r"^USDT:[^\n]*SyncActivityProfilerHandler[^\n]*\n", re.MULTILINE)

RUNNER = r"""
import runpy, sys, traceback, warnings

path = sys.argv[1]

def show(message, category, filename, lineno, file=None, line=None):
    if filename != path:  # raised inside torch: named at the program's line that called into torch
        lineno = [f for f in traceback.extract_stack() if f.filename == path][-1].lineno
    if issubclass(category, (UserWarning, FutureWarning)):  # the warnings Python's default filters show
        sys.stderr.write(f"gradcli run: warning at line {lineno}\n{category.__name__}: {message}\n")

warnings.showwarning = show
try:
    runpy.run_path(path, run_name="__main__")
except Exception as error:
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
    message = str(error)
    sys.stdout.flush()
    sys.stderr.write(f"gradcli run: error at line {frames[-1].lineno}\n")
    kind = type(error)  # named as Python's traceback names it: module-qualified unless a builtin
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    sys.stderr.write(f"{name}: {message}\n" if message else f"{name}\n")
    sys.exit(1)
"""


TUTORIALS = ROOT / "tests" / "programs"  # the tutorials' own programs (issue 18), expected output beside them


def programs() -> list[Path]:
    return sorted(SNIPPETS.glob("*.py")) + sorted((ROOT / "examples").glob("seed_*.py")) + \
        sorted(TUTORIALS.glob("*.py"))


MASKS = json.loads((TUTORIALS / "masks.json").read_text())


def mask(stem: str, text: str) -> str:
    """`text` with every masked field of program `stem` replaced by `<masked: why>` (tests/programs/masks.json)."""
    for field in MASKS.get(stem, []):
        marker = f"<masked: {field['why']}>" + ("\n" if field["pattern"].endswith("\\n") else "")
        text = re.sub(field["pattern"], lambda _, marker=marker: marker, text, count=field["count"])
    return text


def expected_dir(program: Path) -> Path:
    return TUTORIALS / "expected" if program.parent == TUTORIALS else EXPECTED


def record(program: Path) -> str:
    with tempfile.TemporaryDirectory() as scratch:  # what a program torch.saves lands here, not in the tree
        done = subprocess.run([sys.executable, "-c", RUNNER, str(program.resolve())], capture_output=True, text=True,
                              cwd=scratch, timeout=600)
    if done.returncode != ("gradcli run: error at line" in done.stderr):
        raise SystemExit(f"{program.name}: exit status {done.returncode} but stderr was:\n{done.stderr}")
    out = expected_dir(program) / f"{program.stem}.out"
    err = expected_dir(program) / f"{program.stem}.err"
    out.write_text(mask(program.stem, ADDRESS.sub(" at 0x…", done.stdout)))
    stderr = KINETO_LOG.sub("", done.stderr)
    if stderr:
        err.write_text(ADDRESS.sub(" at 0x…", stderr))
    else:
        err.unlink(missing_ok=True)
    return f"{program.name}: exit {done.returncode}"


def main() -> None:
    try:
        import torch  # noqa: F401 - only to fail early: without torch every golden would be an ImportError
    except ImportError:
        raise SystemExit("this script records PyTorch's output: run it with a Python that has torch") from None
    name_filter = sys.argv[1] if len(sys.argv) > 1 else ""
    EXPECTED.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=2) as pool:  # each run is mostly torch's import: two at a time
        for line in pool.map(record, [p for p in programs() if name_filter in p.name]):
            print(line)


if __name__ == "__main__":
    main()
