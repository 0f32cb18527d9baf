"""Record torch 2.13's softmax and log_softmax (SoftMaxKernel.cpp) for tests/engine/test_softmax_backward.py:
tests/goldens/softmax_backward.json holds, per case, the function, shape, dim, dtype, and x, the incoming
gradient g, torch's output y and torch's x.grad as float.hex strings.  The test feeds torch's y and g to
gradcli's backward, so it checks the backward kernel alone (its sum order, exp, fused multiply-add), and x to
the forward.

    pip install torch==2.13.0 && python scripts/make_softmax_backward_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parents[1] / "tests" / "goldens" / "softmax_backward.json"
SHAPES = [((4, 3), -1), ((4, 3), 0), ((2, 7), -1), ((2, 8), -1), ((3, 9), 1), ((2, 16), -1), ((2, 17), -1),
          ((3, 33), -1), ((2, 100), -1), ((2, 1000), -1), ((5, 4), 0), ((3, 9, 5), 1), ((6, 33, 2), 1),
          ((2, 3, 40), 2), ((2, 3, 40), 0), ((7,), 0), ((1, 1), -1)]


def main() -> None:
    torch.set_num_threads(1)
    rng = np.random.default_rng(2026)
    cases = []
    for dtype in ("float32", "float64"):
        for function in ("log_softmax", "softmax"):
            for shape, dim in SHAPES:
                x = rng.standard_normal(shape).astype(dtype)
                g = (rng.standard_normal(shape) * rng.choice([1.0, 0.1, 3.0])).astype(dtype)
                xt = torch.tensor(x, requires_grad=True)
                y = getattr(torch, function)(xt, dim)
                y.backward(torch.tensor(g))
                arrays = (("x", x), ("g", g), ("y", y.detach().numpy()), ("grad", xt.grad.numpy()))
                cases.append({"function": function, "shape": list(shape), "dim": dim, "dtype": dtype,
                              **{k: [float(v).hex() for v in a.ravel()] for k, a in arrays}})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
