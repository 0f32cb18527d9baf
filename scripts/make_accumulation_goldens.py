"""Generate tests/goldens/accumulation.json: PyTorch 2.13's float32 running sums/products (and their gradients)
and variances/standard deviations, bit for bit; and ("exact") whole sums and means, linspace, arange, and powers by
multiplication with their gradients.  Torch keeps these float32 totals in double on the CPU
(at::acc_type<float>, WelfordOps<float, double>) and rounds once; a float32 total drifts by several ulps,
which an ill-conditioned expression (logsumexp of nearly equal running sums) turns into a visibly different
gradient.  Dev-only: the test suite never imports torch.

    python scripts/make_accumulation_goldens.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "accumulation.json"
EXPRESSIONS = ["torch.cumsum(a, dim={d})", "torch.cumprod(a / 1000, dim={d})", "a.var(dim={d})", "a.var()",
               "a.std(dim={d})", "a.std(dim={d}, unbiased=False)"]


def pattern(n: int, dtype: str, salt: int = 1) -> np.ndarray:
    """Deterministic values of mixed sign and size (no generator: the test rebuilds them exactly)."""
    i = np.arange(n, dtype=np.float64)
    return (((i * (7919 + salt)) % 1000 - 500) / 37 * (1 + (i % 3) * 500)).astype(dtype)


def digest(t: torch.Tensor) -> str:
    return hashlib.sha256(np.ascontiguousarray(t.detach().numpy()).tobytes()).hexdigest()


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
    # whole-tensor sums and means (torch's cascade over vectors of 8 floats / 4 doubles), linspace, and the
    # powers torch computes by multiplication, with their gradients: bit for bit, as SHA-256 of the bytes
    exact = []
    for dtype in ("float32", "float64"):
        dt = getattr(torch, dtype)
        for n in (5, 8, 9, 31, 32, 33, 100, 257, 1000, 2000, 4099, 32767):
            a = torch.from_numpy(pattern(n, dtype))
            exact.append({"what": "sum", "dtype": dtype, "n": n, "out": digest(a.sum())})
            exact.append({"what": "mean", "dtype": dtype, "n": n, "out": digest(a.mean())})
        for start, end, steps in ((-3.141592653589793, 3.141592653589793, 2000), (0, 1, 7), (-3.7, 11.2, 37),
                                  (2, -5, 33), (0, 1, 1000)):
            exact.append({"what": "linspace", "dtype": dtype, "args": [start, end, steps],
                          "out": digest(torch.linspace(start, end, steps, dtype=dt))})
        for start, end, step in ((-8.0, 8.0, 0.1), (0, 3, 0.1), (-3.3, 260.0, 0.013), (5.0, -2.0, -0.07),
                                 (0.5, 7, 1), (-1, 1, 1 / 3), (1e-3, 0.2, 1e-3), (-20.25, 20.0, 0.25)):
            exact.append({"what": "arange", "dtype": dtype, "args": [start, end, step],
                          "out": digest(torch.arange(start, end, step, dtype=dt))})
        for exponent in (2, 3, -1):  # -2, -0.5: the gradient calls std::pow (vectorised: SLEEF), not matched
            t = torch.from_numpy(pattern(301, dtype)).requires_grad_()
            out = t ** exponent
            out.backward(torch.from_numpy(pattern(301, dtype, 3)))
            exact.append({"what": "pow", "dtype": dtype, "exponent": exponent, "n": 301, "out": digest(out),
                          "grad": digest(t.grad)})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases, "exact": exact}, allow_nan=True) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
