"""Survey: the first-order gradient under `create_graph=True`, gradcli against torch 2.13, for every op case of
tests/goldens/ops.json (every differentiable op of the registry has one there).

For each case a small program runs under torch and under `gradcli run`: it computes the gradients of the case's
expression with create_graph=True and prints, per input, whether the gradient requires grad and its grad_fn's
name, then the double backward of a weighted sum of those gradients (its values, or the error torch raises when
no gradient requires grad).  Prints every case whose lines differ (numbers compared to 1e-9 relative).
A red-team tool, not a test: it imports torch.

    .venv/bin/python scripts/survey_create_graph.py [OP_FILTER]
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def program(case: dict) -> str:
    lines = ["import math", "import torch", "import torch.nn.functional as F", "torch.manual_seed(0)"]
    names = list(case["inputs"])
    for name, spec in case["inputs"].items():
        lines.append(f"{name} = torch.tensor({spec['value']!r}, dtype=torch.float64, requires_grad=True)")
    for name, spec in case["const"].items():
        lines.append(f"{name} = torch.tensor({spec['value']!r}, dtype=torch.float64)")
    lines.append(f"out = {case['expr']}")
    go = case.get("grad_output")
    lines.append("go = torch.ones_like(out)" if go is None else f"go = torch.tensor({go!r}, dtype=torch.float64)")
    lines += [
        f"ins = [{', '.join(names)}]",
        "gs = torch.autograd.grad(out, ins, grad_outputs=go, create_graph=True, allow_unused=True)",
        "for g in gs:",
        "    print('None' if g is None else (g.requires_grad, None if g.grad_fn is None else g.grad_fn.name()))",
        "total = None",
        "for g in gs:",
        "    if g is not None:",
        "        w = torch.linspace(0.3, 1.7, g.numel(), dtype=torch.float64).reshape(g.shape)",
        "        total = (g * w).sum() if total is None else total + (g * w).sum()",
        "try:",
        "    g2 = torch.autograd.grad(total, ins, allow_unused=True)",
        "    for g in g2:",
        "        print('None' if g is None else (g + torch.zeros(g.shape, dtype=g.dtype)).tolist())",
        "except RuntimeError as e:",
        "    print('RuntimeError', str(e).splitlines()[0])",
    ]
    return "\n".join(lines) + "\n"


def run_torch(source: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, "prog.py", "exec"), {"__name__": "__main__"})
        except Exception as e:  # noqa: BLE001
            print("ERROR", type(e).__name__, str(e).splitlines()[0] if str(e) else "")
    return out.getvalue()


def run_gradcli(source: str) -> str:
    from gradcli.run import run_source
    out, err = io.StringIO(), io.StringIO()
    run_source(source, "prog.py", stdout=out, stderr=err)
    text = out.getvalue()
    if err.getvalue():
        lines = err.getvalue().strip().splitlines()
        text += "ERROR " + lines[-1] + "\n"
    return text


NUMBER = re.compile(r"-?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+|nan|inf|\d+)")


def same(a: str, b: str) -> bool:
    if a == b:
        return True
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    if NUMBER.sub("#", a) != NUMBER.sub("#", b) or len(na) != len(nb):
        return False
    for p, q in zip(na, nb):
        p, q = float(p), float(q)
        if not (p == q or (math.isnan(p) and math.isnan(q)) or abs(p - q) <= 1e-9 * max(abs(p), abs(q), 1e-300)):
            return False
    return True


def main() -> int:
    import torch  # noqa: F401
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    cases = json.loads((ROOT / "tests" / "goldens" / "ops.json").read_text())["cases"]
    bad = 0
    seen = 0
    for case in cases:
        if pattern and not re.search(pattern, case["op"]):
            continue
        seen += 1
        source = program(case)
        t, g = run_torch(source), run_gradcli(source)
        if not same(t, g):
            bad += 1
            print(f"--- {case['id']}: {case['expr']}")
            for lt, lg in zip(t.splitlines() + [""] * 9, g.splitlines() + [""] * 9):
                if not same(lt, lg):
                    print(f"   torch   {lt[:200]}\n   gradcli {lg[:200]}")
            sys.stdout.flush()
    print(f"{bad} of {seen} cases differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
