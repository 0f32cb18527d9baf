"""Generate tests/goldens/accumulation.json: PyTorch 2.13's float32 running sums/products (and their gradients)
and variances/standard deviations, bit for bit.  Torch keeps these float32 totals in double on the CPU
(at::acc_type<float>, WelfordOps<float, double>) and rounds once; a float32 total drifts by several ulps,
which an ill-conditioned expression (logsumexp of nearly equal running sums) turns into a visibly different
gradient.  Dev-only: the test suite never imports torch.

    python scripts/make_accumulation_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "accumulation.json"
EXPRESSIONS = ["torch.cumsum(a, dim={d})", "torch.cumprod(a / 1000, dim={d})", "a.var(dim={d})", "a.var()",
               "a.std(dim={d})", "a.std(dim={d}, unbiased=False)"]


def main():
    rng = np.random.default_rng(20261125)
    cases = []
    for _ in range(20):
        shape = tuple(int(n) for n in rng.integers(1, 20, size=rng.integers(1, 3)))
        scale, shift = rng.choice([1.0, 100.0, 1e4]), rng.choice([0.0, 1000.0, -5e4])
        a = (rng.standard_normal(shape) * scale + shift).astype(np.float32)
        d = int(rng.integers(0, len(shape)))
        for template in EXPRESSIONS:
            expr = template.format(d=d)
            t = torch.from_numpy(a).requires_grad_()
            out = eval(expr, {"torch": torch, "a": t})  # noqa: S307 - dev script, our own expressions
            g = rng.standard_normal(tuple(out.shape)).astype(np.float32)
            out.backward(torch.from_numpy(g))
            cases.append({"expr": expr, "shape": list(shape), "a": a.ravel().tolist(),
                          "grad_output": g.ravel().tolist(),
                          "out_shape": list(out.shape), "output": out.detach().numpy().ravel().tolist(),
                          "grad": t.grad.numpy().ravel().tolist()})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, allow_nan=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
