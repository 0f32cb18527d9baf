"""Generate tests/goldens/review2.json: PyTorch 2.13's results on the cases the second red-team review of the
engine found wrong (tests/engine/test_review2_goldens.py).  Dev-only: the test suite never imports torch.

- logsumexp (float64): its sum of exp(x - max) in ATen's order (numpy's np.sum differed by an ulp on about two
  cases in three over dims of 2-D/3-D tensors and their permuted/sliced views), with the gradient for a weighted
  sum of the result.

    python scripts/make_review2_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "review2.json"


def _listed(a: np.ndarray) -> list:
    return np.asarray(a, dtype=np.float64).reshape(-1).tolist()


def logsumexp_cases() -> list:
    rng = np.random.default_rng(2713)
    cases = []
    for it in range(40):
        nd = int(rng.integers(1, 4))
        shape = [int(s) for s in rng.integers(1, 13, nd)]
        a = rng.standard_normal(shape) * float(rng.choice([1, 10, 100]))
        if it % 5 == 0:
            a.reshape(-1)[rng.integers(0, a.size, 2)] = rng.choice([np.inf, -np.inf, np.nan], 2)
        perm = [int(p) for p in rng.permutation(nd)]
        step = 2 if it % 3 == 0 and a.transpose(perm).shape[0] > 2 else 1
        dim = int(rng.integers(0, nd))
        keepdim = bool(it % 2)
        t = torch.tensor(a).permute(perm)[::step].requires_grad_(True)
        out = torch.logsumexp(t, dim, keepdim)
        w = rng.standard_normal(out.shape)
        (out * torch.tensor(w)).sum().backward()
        cases.append({"a": _listed(a), "shape": shape, "perm": perm, "step": step, "dim": dim, "keepdim": keepdim,
                      "w": _listed(w), "out": _listed(out.detach().numpy()), "grad": _listed(t.grad.numpy())})
    return cases


def main() -> None:
    data = {"torch": torch.__version__, "logsumexp": logsumexp_cases()}
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{len(data['logsumexp'])} logsumexp cases -> {OUT}")


if __name__ == "__main__":
    main()
