"""Generate tests/goldens/conventions.json: PyTorch 2.13's values where its conventions are easy to get
wrong (issue 15 §4): gradients at nan in max/min-like ops, sign(nan), torch's clamp epsilons, variance
without degrees of freedom, overflow-free norms, empty tensors.  Each case is an expression of the
calculator (float64 tensors that require grad; --grad-output ones for a non-scalar output), recorded with
torch as output, every input's .grad (None where torch leaves it None) or the error's message.
Dev-only: the test suite never imports torch.

    python scripts/make_convention_goldens.py
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "conventions.json"
NAN, INF = math.nan, math.inf

CASES = [
    # gradients at nan inputs
    ("w.amax()", {"w": [1.0, NAN, 2.0]}),
    ("w.amin()", {"w": [1.0, NAN, 2.0]}),
    ("w.amax(dim=1)", {"w": [[1.0, NAN], [3.0, 2.0]]}),
    ("w.max()", {"w": [1.0, NAN, 2.0]}),
    ("w.min()", {"w": [1.0, NAN, 2.0]}),
    ("torch.maximum(w, v).sum()", {"w": [1.0, NAN, 2.0, 3.0], "v": [0.0, 1.0, NAN, 3.0]}),
    ("torch.minimum(w, v).sum()", {"w": [1.0, NAN, 2.0, 3.0], "v": [0.0, 1.0, NAN, 3.0]}),
    ("torch.relu(w).sum()", {"w": [1.0, NAN, -2.0, 0.0]}),
    ("torch.nn.functional.l1_loss(w, v)", {"w": [1.0, NAN, 2.0], "v": [0.0, 1.0, 3.0]}),
    ("w.abs().sum()", {"w": [1.0, NAN, -2.0, 0.0]}),
    ("torch.sign(w)", {"w": [1.0, NAN, -2.0, 0.0]}),
    ("torch.nn.functional.smooth_l1_loss(w, v, beta=0.5)", {"w": [1.0, NAN, 2.0], "v": [0.0, 1.0, 3.0]}),
    # epsilons and overflow
    ("torch.nn.functional.binary_cross_entropy(p, t)", {"p": [0.0, 1.0, 0.5, 1e-7], "t": [1.0, 0.0, 1.0, 0.3]}),
    ("torch.nn.functional.binary_cross_entropy(p, t, reduction='sum')", {"p": [0.2, 0.7], "t": [1.0, 0.25]}),
    ("torch.nn.functional.cosine_similarity(a, b, dim=0)", {"a": [-1.0], "b": [3e200]}),
    ("torch.nn.functional.cosine_similarity(a, b, dim=1)", {"a": [[-1.0], [2.0]], "b": [[3e200], [1e-300]]}),
    ("torch.linalg.vector_norm(y, ord=0)", {"y": [1.0, -1.0, 0.0]}),
    ("torch.linalg.vector_norm(y, ord=3, dim=0)", {"y": [[1e200, -2.0]]}),
    # variance without degrees of freedom
    ("w.var(correction=2)", {"w": [1.0, 2.0]}),
    ("w.std(correction=2)", {"w": [1.0, 2.0]}),
    ("w.var(correction=5)", {"w": [1.0, 2.0, 4.0]}),
    ("w.var(correction=3)", {"w": [2.0, 2.0, 2.0]}),
    ("w.var()", {"w": [3.0]}),
    ("w.std()", {"w": [3.0]}),
    ("w.var(dim=0, correction=2)", {"w": [1.0, 2.0]}),
    # empty tensors
    ("torch.softmax(w, dim=1)", {"w": [[], []]}),
    ("torch.log_softmax(w, dim=0)", {"w": []}),
    ("torch.logsumexp(w, dim=1)", {"w": [[], []]}),
    ("torch.logsumexp(w, dim=0)", {"w": []}),
    ("w.amax(dim=1)", {"w": [[], []]}),
    ("w.amin(dim=0)", {"w": []}),
    ("torch.nn.functional.mse_loss(w, v)", {"w": [], "v": []}),
    ("torch.nn.functional.smooth_l1_loss(w, v)", {"w": [], "v": []}),
    ("torch.nn.functional.huber_loss(w, v)", {"w": [], "v": []}),
    ("torch.nn.functional.binary_cross_entropy(w, v)", {"w": [], "v": []}),
    ("w.chunk(3)[2]", {"w": []}),
    ("w.mean()", {"w": []}),
    ("w.sum()", {"w": []}),
    ("w.prod()", {"w": []}),
]


# second derivatives where PyTorch uses its own double-backward formulas (or conventions)
HESSIANS = [
    ("torch.nn.functional.binary_cross_entropy(p, t)", {"p": [0.2, 0.7, 1e-13], "t": [1.0, 0.25, 0.5]}),
    ("torch.nn.functional.binary_cross_entropy(p, t)", {"p": [0.0, 1.0], "t": [1.0, 0.0]}),
    ("torch.nn.functional.binary_cross_entropy(p * q, t, reduction='sum')",
     {"p": [0.3, 0.9], "q": [0.5, 0.7], "t": [0.5, 0.0]}),
    ("w.var(correction=2)", {"w": [1.0, 2.0]}),
    ("w.std(correction=2)", {"w": [1.0, 2.0]}),
    ("w.var()", {"w": [3.0]}),
    ("w.var(correction=3)", {"w": [1.0, 2.0, 4.0]}),
]


def hessian(expression: str, values: dict) -> dict:
    leaves = {name: torch.tensor(v, dtype=torch.float64, requires_grad=True) for name, v in values.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = eval(expression, {"torch": torch, "F": F}, dict(leaves))  # noqa: S307 - the fixed list above
        grads = torch.autograd.grad(out, list(leaves.values()), create_graph=True, allow_unused=True)
        blocks = {}
        for (a, ta), g in zip(leaves.items(), grads):
            for b, tb in leaves.items():
                rows = []
                for k in range(ta.numel()):
                    h = None if g is None or not g.requires_grad else \
                        torch.autograd.grad(g.reshape(-1)[k], tb, retain_graph=True, allow_unused=True)[0]
                    rows.append([0.0] * tb.numel() if h is None else h.reshape(-1).tolist())
                blocks[f"{a},{b}"] = rows
    return {"expression": expression, "values": values, "hessian": blocks}


def record(expression: str, values: dict) -> dict:
    env = {name: torch.tensor(v, dtype=torch.float64, requires_grad=True) for name, v in values.items()}
    leaves = dict(env)
    env.update(torch=torch, F=F)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(expression, {"__builtins__": {}}, env)  # noqa: S307 - a fixed, trusted list
            out.backward(torch.ones_like(out))
    except Exception as err:  # noqa: BLE001 - the error is the golden
        return {"error": str(err).split("\n")[0]}
    return {"output": out.detach().tolist(), "shape": list(out.shape),
            "grads": {n: None if t.grad is None else t.grad.tolist() for n, t in leaves.items()}}


def main() -> None:
    cases = [{"expression": e, "values": v, **record(e, v)} for e, v in CASES]
    lines = ",\n".join("  " + json.dumps(case) for case in cases)  # one case a line: readable diffs
    hessians = ",\n".join("  " + json.dumps(hessian(e, v)) for e, v in HESSIANS)
    OUT.write_text(f'{{"torch": "{torch.__version__}", "cases": [\n{lines}\n],\n"hessians": [\n{hessians}\n]}}\n')
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
