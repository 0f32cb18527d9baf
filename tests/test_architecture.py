"""The architecture of docs/architecture.md, checked rather than hoped for.

1. `lint-imports` keeps the import-linter contracts of pyproject.toml: layers point down, no import circles
   in any package, private modules stay in their package.
2. No private name (`_name`) is imported from another module: what is shared has a public name.
3. A function-local import loads late only what start-up must not pay for: a heavy third-party module
   (sympy, rich ...), or a gradcli module that loads one its own module does not (numpy counts here: `check`
   never loads it).  Any other import sits at the top of its module, where the import graph sees it.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "gradcli"

# Loaded late for start-up time (each costs 10-300 ms) or because importing it changes the process.
LAZY_THIRD_PARTY = {
    "sympy", "mpmath", "rich", "plotext", "matplotlib", "orjson",  # heavy, needed by some commands only
    "typer", "click",  # completion and help internals, loaded only by `completion` and usage errors
    "readline",  # importing it changes how input() reads the terminal: only an interactive repl wants it
    "ctypes",  # ~5 ms, only to ask Linux for the parent-death signal
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def _imports(module: str) -> list[tuple[ast.AST, str, list[str], bool]]:
    """(node, imported module, names, at the top?) for every import statement of `module`."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(), str(path))
    top = set(map(id, tree.body))
    for node in tree.body:  # `if TYPE_CHECKING:` / try-except blocks at the top count as the top
        if isinstance(node, (ast.If, ast.Try)):
            top.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node, alias.name, [], id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, path, node)
            names = [alias.name for alias in node.names]
            found.append((node, target, names, id(node) in top))
    return found


def _gradcli_targets(target: str, names: list[str]) -> list[str]:
    """The gradcli modules an import statement loads (`from gradcli.x import y` may name a module y)."""
    if target != "gradcli" and not target.startswith("gradcli."):
        return []
    return [f"{target}.{n}" if f"{target}.{n}" in MODULES else target for n in names or [""]]


HEAVY = LAZY_THIRD_PARTY | {"numpy"}  # numpy: ~60 ms, which `check` and `--help` never pay
# gradcli modules that are slow to import themselves: loaded late by the commands that need them only on a path
# (eval loads the homework reader, ~90 ms of tables, only to spell a homework-notation expression it refused)
HEAVY_GRADCLI = {"gradcli.homework.reader"}


_VISITING: set = set()


@cache
def _heavy_loads(module: str) -> frozenset:
    """The HEAVY modules that importing `module` loads through its top-level imports."""
    _VISITING.add(module)
    found = set()
    for _node, target, names, at_top in _imports(module):
        if not at_top:
            continue
        if target.split(".")[0] in HEAVY:
            found.add(target.split(".")[0])
        found |= HEAVY_GRADCLI.intersection(_gradcli_targets(target, names))
        loaded = _gradcli_targets(target, names)
        if target.startswith("gradcli.") and target.count(".") > 1:  # importing a.b.c runs a.b's __init__
            loaded.append(target.rsplit(".", 1)[0])
        for m in loaded:
            if m in MODULES and m not in _VISITING:
                found |= _heavy_loads(m)
    _VISITING.discard(module)
    return frozenset(found)


def _loads_heavy(module: str) -> bool:
    return bool(_heavy_loads(module) & LAZY_THIRD_PARTY)


def test_import_contracts_are_kept():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.fail("lint-imports is missing: pip install -e '.[test]'")
    done = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_private_name_is_imported_from_another_module():
    found = [f"{MODULES[m].relative_to(ROOT)}:{node.lineno}: {target} import {name}"
             for m in MODULES for node, target, names, _ in _imports(m)
             for name in names if name.startswith("_") and not name.startswith("__") and target != m]
    assert not found, "\n".join(found)


def test_function_local_imports_load_only_what_start_up_must_not_pay_for():
    found = []
    for m in MODULES:
        for node, target, names, at_top in _imports(m):
            if at_top or target.split(".")[0] in LAZY_THIRD_PARTY:
                continue
            inner = _gradcli_targets(target, names)
            if inner and all(_heavy_loads(t) - _heavy_loads(m) for t in inner):
                continue
            if m == "gradcli" and inner == ["gradcli.api"]:
                continue  # PEP 562: `import gradcli` (every command) does not load the Python API
            found.append(f"{MODULES[m].relative_to(ROOT)}:{node.lineno}: import of {target} {names}")
    assert not found, "\n".join(found)


def test_the_probe_sees_what_it_checks():
    # the checks above are only as good as the import table: it must see both kinds of import
    kinds = {at_top for m in MODULES for *_, at_top in _imports(m)}
    assert kinds == {True, False}
    assert _loads_heavy("gradcli.render.table")  # imports rich at its top
    assert not _loads_heavy("gradcli.engine.tensor")
