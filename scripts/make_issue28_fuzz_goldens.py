"""Generate tests/goldens/issue28_fuzz.json: PyTorch 2.13's output, gradients and Hessian blocks (float64) for
the differential-fuzz findings of issue 28 that `gradcli eval` got wrong or failed on: a slice of a shape,
Hessians whose first-order pass handed a differentiable gradient to the numpy unbroadcast ("internal error:
'DType' object has no attribute 'kind'"), linalg.norm(ord=1/inf) of empty matrices, and cross_entropy over
zero classes.  Replayed through the CLI (`eval --json`, `--hessian`) by tests/engine/test_issue28_fuzz.py.
Dev-only: the test suite never imports torch.

    python scripts/make_issue28_fuzz_goldens.py
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: N812 - torch's name
from torch.autograd.functional import hessian

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "issue28_fuzz.json"

# (expression, {leaf: values}, {const: values}, record the Hessian)
CASES = [
    ("F.layer_norm(x, x.shape[-1:], w, b).sum()", {"x": [[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]]},
     {"w": [0.5, -1.0, 2.0], "b": [0.1, 0.2, 0.3]}, False),
    ("(x.reshape(x.shape[::-1]) * y).sum()", {"x": [[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]],
                                             "y": [[1.0, -1.0], [2.0, 0.5], [3.0, 0.25]]}, {}, False),
    ("torch.atan(torch.diag(a).mean(dim=-1)[None]).mean()", {"a": [[1.0, 2.0], [3.0, 4.0]]}, {}, True),
    ("torch.norm(torch.diagonal(q, offset=-1), p='fro')", {"q": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0],
                                                                 [7.0, 8.0, 9.5]]}, {}, True),
    ("torch.true_divide(x, torch.logsumexp(x * y, dim=0)).sum()", {"x": [1.0, 2.0, 3.0], "y": [0.5, 1.0, 2.0]},
     {}, True),
    ("torch.lerp(a @ y, torch.movedim(s, 0, -1), torch.diagonal(q, offset=1, dim1=1, dim2=-2)).sum()",
     {"a": [[1.0, 2.0], [3.0, 4.0]], "y": [[1.0, 0.5], [2.0, 1.0]], "s": [[0.1, 0.2], [0.3, 0.4]],
      "q": [[[[0.1 * (i + 2 * j + 3 * k + 5 * m) for m in range(2)] for k in range(3)] for j in range(3)]
            for i in range(2)]}, {}, True),
    ("torch.linalg.norm(x, ord=1) + torch.linalg.norm(x, ord=torch.inf)", {"x": [[0.0] * 0] * 3}, {}, False),
    ("torch.linalg.norm(x, ord=1) + torch.linalg.norm(x, ord=-torch.inf)", {"x": [[0.0] * 0] * 3}, {}, False),
]


def main():
    env = {"torch": torch, "F": F}
    entries = []
    for expr, leaves, consts, want_hessian in CASES:
        tensors = {k: torch.tensor(v, dtype=torch.float64, requires_grad=True) for k, v in leaves.items()}
        values = {k: torch.tensor(v, dtype=torch.float64) for k, v in consts.items()}
        out = eval(expr, env, {**tensors, **values})  # noqa: S307 - dev script, our own expressions
        out.backward()
        entry = {"expr": expr, "leaves": leaves, "consts": consts, "output": out.item(),
                 "grads": {k: t.grad.tolist() for k, t in tensors.items()}}
        if want_hessian:
            names = list(tensors)

            def f(*args, names=names, expr=expr, values=values):
                return eval(expr, env, {**dict(zip(names, args)), **values})  # noqa: S307

            blocks = hessian(f, tuple(t.detach() for t in tensors.values()))
            entry["hessian"] = {f"{a},{b}": blocks[i][j].tolist() for i, a in enumerate(names)
                                for j, b in enumerate(names)}
        entries.append(entry)
    # cross_entropy over zero classes (probabilities): torch's label_smoothing / 0 is inf; the mean of an
    # empty input is -(sum).fill_(nan) (NegBackward0)
    x = torch.zeros(2, 0, requires_grad=True)
    p = torch.zeros(2, 0)
    ce = {"mean": F.cross_entropy(x, p), "sum": F.cross_entropy(x, p, reduction="sum"),
          "smoothed": F.cross_entropy(x, p, label_smoothing=0.1)}
    entries.append({"cross_entropy_zero_classes": {k: [None if math.isnan(v.item()) else v.item(),
                                                       type(v.grad_fn).__name__] for k, v in ce.items()}})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} cases to {OUT}")


if __name__ == "__main__":
    main()
