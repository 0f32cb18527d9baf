"""sympy and rich are imported only on the paths that need them (DESIGN: `eval --no-check --json`
imports neither)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported_modules(*args: str) -> set[str]:
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "gradcli", *args], capture_output=True,
                         text=True, cwd=ROOT, check=True)
    # each -X importtime line: "import time: self | cumulative | <indent>module"
    return {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}


def test_eval_no_check_json_imports_neither_sympy_nor_rich():
    modules = _imported_modules("eval", "(x**2).sum()", "x=[1,2,3]", "--no-check", "--json")
    assert "gradcli.calc" in modules  # the probe works
    assert not {m for m in modules if m.split(".")[0] in ("sympy", "rich")}


def test_the_default_eval_path_does_import_sympy():
    assert "sympy" in _imported_modules("eval", "(x**2).sum()", "x=[1,2,3]", "--json")


def test_too_large_inputs_skip_without_importing_sympy():
    assert "sympy" not in _imported_modules("eval", "(x**2).sum()", "x=randn(100)", "--json")
