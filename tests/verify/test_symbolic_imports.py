"""sympy and rich are imported only on the paths that need them (DESIGN: `eval --no-check --json`
imports neither)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imported_modules(*args: str) -> set[str]:
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "gradcli", *args], capture_output=True,
                         text=True, cwd=ROOT, check=True)
    # each -X importtime line: "import time: self | cumulative | <indent>module"
    return {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}


def test_eval_no_check_json_imports_neither_sympy_nor_rich():
    modules = _imported_modules("eval", "(x**2).sum()", "x=[1,2,3]", "--no-check", "--json")
    assert "gradcli.calc.calculator" in modules  # the probe works
    assert not {m for m in modules if m.split(".")[0] in ("sympy", "rich")}


def test_the_default_eval_path_does_import_sympy():
    assert "sympy" in _imported_modules("eval", "(x**2).sum()", "x=[1,2,3]", "--json")


def test_too_large_inputs_skip_without_importing_sympy():
    assert "sympy" not in _imported_modules("eval", "(x**2).sum()", "x=randn(100)", "--json")


def test_the_cross_check_does_not_load_sympy_combinatorics():
    # sympy's first addition would import sympy.tensor.tensor and all of sympy.combinatorics (verify/sympy_startup)
    modules = _imported_modules("eval", "(sin(x) * y + x**2).sum()", "x=[1,2]", "y=3", "--json")
    assert "sympy" in modules and "gradcli.verify.symbolic" in modules  # the probe works
    assert not {m for m in modules if m.startswith(("sympy.combinatorics", "sympy.tensor.tensor"))}


def test_the_placeholder_gives_way_to_the_real_module():
    probe = ("import sympy as sp\n"
             "from gradcli.verify.sympy_startup import install_sympy_placeholder\n"
             "install_sympy_placeholder()\n"
             "x = sp.Symbol('x'); assert x + sp.sin(x) + 1 - x == sp.sin(x) + 1\n"
             "from sympy.tensor.tensor import TensorIndexType, tensor_indices, TensorHead\n"
             "L = TensorIndexType('L'); i = tensor_indices('i', L); A, B = TensorHead('A', [L]), TensorHead('B', [L])\n"
             "print(type(A(i) + B(i)).__name__)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "TensAdd", done.stderr


def test_numpy_random_only_when_a_value_asks_for_it():
    assert "numpy.random" not in _imported_modules("eval", "(x**2).sum()", "x=[1,2,3]", "--no-check", "--json")
    seeded = [subprocess.run([sys.executable, "-m", "gradcli", "eval", "x.sum()", "x=randn(3)", "--seed", "7",
                              "--no-check", "--json"], capture_output=True, text=True, cwd=ROOT).stdout
              for _ in range(2)]
    import json

    values = json.loads(seeded[0])["tensors"]["x"]["value"]
    # PyTorch's own draws (issue 18): torch.manual_seed(7); torch.randn(3, dtype=torch.float64), recorded
    assert seeded[0] == seeded[1] and values == [-0.1467950974849952, 0.7861412987235358, 0.9468216090039564]
