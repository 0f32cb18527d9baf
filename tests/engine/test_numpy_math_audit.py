"""No module of the engine outside the kernel subpackage uses numpy's transcendental ufuncs (issue 27): a result
torch computes with a vendor library (MKL's vector math, SLEEF's lanes, the C library) comes from the kernel
layer's entry point for that function (gradcli/engine/kernels/__init__.py), which chooses the fast kernel or
torch's bits (--bits torch) in one place, so eval, --rows, the REPL, the API and `run` get the contract's
numbers.  The modules are parsed, not imported: a call, a reference (`fn = np.sqrt`) and `from numpy import
exp` all count.  ALLOWED names the few exceptions, each with the reason torch's value is numpy's there."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "gradcli" / "engine"

UFUNCS = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2", "sin", "cos", "tan",
    "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "sqrt",
    "cbrt", "power", "float_power", "hypot",
})

_SQRT = ("IEEE's correctly rounded square root: torch's std::sqrt in scalar code and Vectorized::sqrt are the "
         "instruction, which np.sqrt is too (only torch.sqrt itself goes through MKL's vector math)")
ALLOWED = {
    ("ops/aggregates.py", "sqrt"): "std/norm: the square root of a reduction's result, " + _SQRT,
    ("ops/aggregates.py", "power"): "p-norms: the reduction's std::pow, the C library's pow, which numpy's float64 "
                                    "power calls",
    ("ops/nn_functional.py", "sqrt"): "batch/layer norm statistics: 1 / std::sqrt(var + eps), " + _SQRT,
    ("ops/summaries.py", "sqrt"): "std_mean: std::sqrt of WelfordOps' variance in double, " + _SQRT,
    ("optim.py", "sqrt"): "the fused=True optimisers: Vectorized::sqrt, " + _SQRT,
    ("creation.py", "power"): "logspace: std::pow of the base in double, the C library's pow (numpy's float64 "
                              "power)",
    ("random.py", "sqrt"): "normal_'s Box-Muller, " + _SQRT,
    ("random.py", "sin"): "normal_'s Box-Muller in double, bit for bit against tests/goldens/rng.json",
    ("random.py", "cos"): "normal_'s Box-Muller in double, bit for bit against tests/goldens/rng.json",
    ("ops/special.py", "tan"): "digamma's reflection in the fast mode (--bits torch calls the C library's tan)",
    ("ops/special.py", "exp"): "erfinv's Newton steps with --bits torch: gradcli's own refinement of its guess, "
                               "not a value torch takes from a library",
    ("ops/special.py", "log"): "erfinv's initial guess, as above",
    ("ops/special.py", "sqrt"): "erfinv's initial guess, as above",
}


def _uses(path: Path):
    """(line, name) of every numpy ufunc of UFUNCS the module names: np.<name>, numpy.<name>, from-imports."""
    tree = ast.parse(path.read_text(), filename=str(path))
    aliases = {"numpy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update(a.asname or a.name for a in node.names if a.name == "numpy")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases \
                and node.attr in UFUNCS:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom) and node.module == "numpy":
            found.extend((node.lineno, a.name) for a in node.names if a.name in UFUNCS)
    return found


def _engine_modules():
    for path in sorted(ENGINE.rglob("*.py")):
        relative = path.relative_to(ENGINE).as_posix()
        if not relative.startswith("kernels/"):
            yield relative, path


def test_no_engine_module_outside_kernels_uses_numpys_transcendental_ufuncs():
    offending = [f"gradcli/engine/{rel}:{line}: np.{name}" for rel, path in _engine_modules()
                 for line, name in _uses(path) if (rel, name) not in ALLOWED]
    assert not offending, "call the kernel layer's entry point (gradcli.engine.kernels) instead:\n" + \
        "\n".join(offending)


def test_every_allowed_entry_is_still_used_and_has_a_reason():
    used = {(rel, name) for rel, path in _engine_modules() for _, name in _uses(path)}
    stale = [key for key in ALLOWED if key not in used]
    assert not stale, f"remove these from ALLOWED: {stale}"
    assert all(len(reason) > 20 for reason in ALLOWED.values())


def test_the_audit_finds_what_it_looks_for(tmp_path):
    """The parser sees calls, references, aliases and from-imports (so the first test cannot pass vacuously)."""
    module = tmp_path / "m.py"
    module.write_text("import numpy as xp\nfrom numpy import tanh\nf = xp.sqrt\ny = xp.exp(1.0) + xp.abs(-1)\n")
    assert sorted(_uses(module)) == [(2, "tanh"), (3, "sqrt"), (4, "exp")]
