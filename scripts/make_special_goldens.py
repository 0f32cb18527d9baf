"""Record tests/goldens/special_functions.json: torch.special's functions gradcli adds (xlog1py with its scalar
forms, entr, ndtr, multigammaln), their values, gradients and second derivatives (create_graph) in float32 and
float64 on points that reach every branch (0, negatives, -1, nan, inf), for tests/engine/test_special_functions.py.
Dev-only: needs torch.

    python scripts/make_special_goldens.py
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "special_functions.json"
X = [0.5, -0.3, 0.0, 2.0, 1e-8, 7.25, -1.0, 3.0, 0.125, 40.0, -2.5, 1.0]
Y = [0.2, -0.5, 3.0, -1.0, 1e-9, 0.75, -1.0, -1.5, 12.0, 0.0, 1e-3, -0.999]
SPECIALS = [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e-300, 5e-324]
MV = [3.5, 1.25, 2.0, 10.0, 0.75, 6.125]

CASES = [
    ("xlog1py", "tt", lambda x, y: torch.special.xlog1py(x, y), X + SPECIALS, Y + [1.0, 1.0] + SPECIALS[2:]),
    ("xlog1py", "st", lambda x, y: torch.special.xlog1py(2.5, y), None, Y),
    ("xlog1py", "ts", lambda x, y: torch.special.xlog1py(x, -0.5), X, None),
    ("entr", "t", lambda x, y: torch.special.entr(x), X + SPECIALS, None),
    ("ndtr", "t", lambda x, y: torch.special.ndtr(x), X + [-10.0, 10.0, -40.0] + SPECIALS, None),
    ("multigammaln1", "t", lambda x, y: torch.special.multigammaln(x, 1), MV, None),
    ("multigammaln3", "t", lambda x, y: torch.special.multigammaln(x, 3), MV, None),
    ("multigammaln5", "t", lambda x, y: torch.special.multigammaln(x, 5), [v + 2 for v in MV], None),
]


def enc(t):
    return [v if math.isfinite(v) else str(v) for v in t.double().reshape(-1).tolist()] if t is not None else None


def main():
    cases = []
    for name, form, f, xs, ys in CASES:
        for dtype in (torch.float32, torch.float64):
            x = torch.tensor(xs, dtype=dtype, requires_grad=True) if xs is not None else None
            y = torch.tensor(ys, dtype=dtype, requires_grad=True) if ys is not None else None
            out = f(x, y)
            ins = [t for t in (x, y) if t is not None]
            w = torch.linspace(0.5, 1.5, out.numel(), dtype=dtype).reshape(out.shape)
            grads = torch.autograd.grad((out * w).sum(), ins, create_graph=True)
            total = sum((g * torch.linspace(-1.0, 1.0, g.numel(), dtype=dtype)).sum() for g in grads)
            try:
                second = [enc(s) for s in torch.autograd.grad(total, ins, allow_unused=True)]
            except RuntimeError as error:  # no gradient requires grad (xlog1py(x, number): linear in x)
                second = str(error)
            cases.append({"name": name, "form": form, "dtype": str(dtype).removeprefix("torch."), "x": xs, "y": ys,
                          "out": enc(out.detach()), "grad_fn": out.grad_fn.name(),
                          "grads": [enc(g.detach()) for g in grads], "second": second,
                          "grad_grad_fn": [None if g.grad_fn is None else g.grad_fn.name() for g in grads]})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=0) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
