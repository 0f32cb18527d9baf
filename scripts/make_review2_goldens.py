"""Generate tests/goldens/review2.json: PyTorch 2.13's results on the cases the second red-team review of the
engine found wrong (tests/engine/test_review2_goldens.py).  Dev-only: the test suite never imports torch.

- logsumexp (float64): its sum of exp(x - max) in ATen's order (numpy's np.sum differed by an ulp on about two
  cases in three over dims of 2-D/3-D tensors and their permuted/sliced views), with the gradient for a weighted
  sum of the result.
- add/sub with alpha: alpha * other in the result dtype, fused with the add as torch's vectorised kernel
  (add(float64 x, 0.001, alpha=2) was computed with 0.001 * 2 in float32), and torch.sub(number, tensor, alpha=)
  (alpha was ignored: value and gradient wrong).  Lengths of whole vectors (16, 32, 64 elements) only: below two
  vectors torch's scalar loop rounds some elements twice, which gradcli does not model.
- a / b differentiated twice (float64): DivBackward0 builds other's term before self's, and the second derivative
  sums its terms in that nodes' order (the reverse gave an ulp on about 1 program in 20 of the review's fuzz).

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


def alpha_cases() -> list:
    rng = np.random.default_rng(2714)
    cases = []
    for dtype in ("float32", "float64"):
        for n in (16, 32, 64):
            for other_kind in ("tensor", "number"):
                for op in ("add", "sub"):
                    alpha = float(rng.choice([0.1, -0.7, 3.3, 1 / 3, 1e-3]))
                    a = rng.standard_normal(n).astype(dtype)
                    b = rng.standard_normal(n).astype(dtype)
                    other = torch.tensor(b) if other_kind == "tensor" else float(b[0])
                    out = getattr(torch, op)(torch.tensor(a), other, alpha=alpha)
                    listed = _listed(b) if other_kind == "tensor" else float(b[0])
                    cases.append({"op": op, "dtype": dtype, "a": _listed(a), "other": listed, "alpha": alpha,
                                  "out": _listed(out.numpy())})
    return cases


def rsub_alpha_cases() -> list:
    cases = []
    for number, alpha, values in ((-1, 0.5, [0.7, 1.5]), (2.5, 3, [0.1, -4.0, 2.0]), (0.001, -0.25, [1.0])):
        b = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        out = torch.sub(number, b, alpha=alpha)
        (out * out).sum().backward()
        cases.append({"number": number, "alpha": alpha, "b": values, "out": out.tolist(), "grad": b.grad.tolist()})
    return cases


def div_double_backward_cases() -> list:
    rng = np.random.default_rng(2715)
    cases = []
    shapes = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 2)), ((3, 1, 1), (2, 1)), ((2, 3), ())]
    for it in range(48):
        sa, sb = shapes[it % len(shapes)]
        a = rng.standard_normal(sa)
        b = rng.standard_normal(sb)
        ta = torch.tensor(a, requires_grad=True)
        tb = torch.tensor(b, requires_grad=True)
        first = (ta * 2.0 + tb) if it % 3 == 1 else (ta ** 2 + tb) if it % 3 == 2 else ta
        d = first / tb
        ga, gb = torch.autograd.grad(d.sum(), (ta, tb), create_graph=True)
        ha, hb = torch.autograd.grad(ga.sum() + gb.sum(), (ta, tb))
        cases.append({"a": _listed(a), "sa": list(sa), "b": _listed(b), "sb": list(sb), "first": it % 3,
                      "ga": _listed(ga.detach().numpy()), "gb": _listed(gb.detach().numpy()),
                      "ha": _listed(ha.numpy()), "hb": _listed(hb.numpy())})
    return cases


def main() -> None:
    data = {"torch": torch.__version__, "logsumexp": logsumexp_cases(), "alpha": alpha_cases(),
            "rsub_alpha": rsub_alpha_cases(), "div_double_backward": div_double_backward_cases()}
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{len(data['logsumexp'])} logsumexp cases -> {OUT}")


if __name__ == "__main__":
    main()
