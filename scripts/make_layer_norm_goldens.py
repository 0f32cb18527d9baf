"""Generate tests/goldens/layer_norm.json: PyTorch 2.13's F.layer_norm forward (values, and native_layer_norm's
mean and rstd) and backward (the gradients of x, weight and bias for a random grad_output; weight's and
bias's depend on the thread count, recorded) on float32 and float64 rows of 1 to 2049 elements, normalised
over the last one or two dims,
with weight and bias, either, or neither, and eps 1e-5 or 1e-3.  torch's CPU kernel (layer_norm_kernel.cpp,
moments_utils.h' RowwiseMoments) fixes the order of every addition; gradcli/engine/kernels/moments.py emulates
it.  Values are stored as Python floats (float32 values exactly).
Dev-only: the test suite never imports torch.

    python scripts/make_layer_norm_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "layer_norm.json"
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def main() -> None:
    rng = np.random.default_rng(2130)
    cases = []
    shapes = [((3, 1), 1), ((2, 5), 1), ((4, 8), 1), ((3, 17), 1), ((2, 100), 1), ((2, 129), 1), ((2, 255), 1),
              ((2, 264), 1), ((1, 520), 1), ((1, 2049), 1), ((2, 3, 4), 2), ((2, 6, 45), 2), ((5, 2, 3, 7), 1)]
    for shape, k in shapes:
        for dtype in ("float32", "float64"):
            affine = ("both", "weight", "bias", "none")[(len(cases) // 2 + len(cases)) % 4]
            eps = (1e-5, 1e-3)[(len(cases) // 4) % 2]
            np_dtype = np.float32 if dtype == "float32" else np.float64
            x = (rng.standard_normal(shape) * 4 + 2).astype(np_dtype)
            normalized = shape[-k:]
            weight = rng.standard_normal(normalized).astype(np_dtype) if affine in ("both", "weight") else None
            bias = rng.standard_normal(normalized).astype(np_dtype) if affine in ("both", "bias") else None
            as_t = (lambda a, t=DTYPES[dtype]: None if a is None else torch.tensor(a, dtype=t, requires_grad=True))
            out, mean, rstd = torch.native_layer_norm(as_t(x), list(normalized), as_t(weight), as_t(bias), eps)
            leaves = [as_t(x), as_t(weight), as_t(bias)]
            functional = torch.nn.functional.layer_norm(leaves[0], normalized, leaves[1], leaves[2], eps)
            assert torch.equal(out, functional)
            grad_output = (rng.standard_normal(shape) * 2).astype(np_dtype)
            functional.backward(torch.tensor(grad_output, dtype=DTYPES[dtype]))
            listed = (lambda a: None if a is None else a.reshape(-1).astype(np.float64).tolist())
            grads = [None if t is None else t.grad.reshape(-1).double().tolist() for t in leaves]
            cases.append({"shape": list(shape), "normalized_shape": list(normalized), "dtype": dtype, "eps": eps,
                          "x": listed(x), "weight": listed(weight), "bias": listed(bias),
                          "out": out.reshape(-1).double().tolist(), "mean": mean.reshape(-1).double().tolist(),
                          "rstd": rstd.reshape(-1).double().tolist(), "grad_output": listed(grad_output),
                          "grads": grads})
    goldens = {"torch": torch.__version__, "threads": torch.get_num_threads(), "cases": cases}
    OUT.write_text(json.dumps(goldens, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
