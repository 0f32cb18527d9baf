"""Generate tests/goldens/batch_norm.json: PyTorch 2.13's F.batch_norm forward in training mode (output, and the
running mean and variance it updates) and in evaluation mode, and the gradients of x, weight and bias for a
random grad_output, float32 and float64, inputs (N, C), (N, C, L) and (N, C, H, W), with weight and bias or
without, momentum 0.1 and 0.3.  torch's CPU kernels
(batch_norm_kernel.cpp: the statistics per channel, the channels-last form for (N, C) inputs, whose per-thread
buffers depend on the thread count recorded here; Normalization.cpp: the running statistics) fix the order of
every addition.  Values are stored as Python floats (float32 values exactly).
Dev-only: the test suite never imports torch.

    python scripts/make_batch_norm_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "batch_norm.json"
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def main() -> None:
    rng = np.random.default_rng(2131)
    cases = []
    shapes = [(8, 5), (32, 7), (2, 4), (2, 20), (2, 2049), (1, 3, 5), (4, 6, 10), (3, 4, 33), (16, 3, 4, 4),
              (2, 2, 5, 5), (40, 20), (5, 9, 7)]
    for shape in shapes:
        for dtype in ("float32", "float64"):
            k = len(cases)
            np_dtype = np.float32 if dtype == "float32" else np.float64
            c = shape[1]
            x = (rng.standard_normal(shape) * 3 + 1).astype(np_dtype)
            affine = k % 3 != 2
            weight = rng.standard_normal(c).astype(np_dtype) if affine else None
            bias = rng.standard_normal(c).astype(np_dtype) if affine else None
            running_mean = rng.standard_normal(c).astype(np_dtype)
            running_var = (rng.random(c) + 0.5).astype(np_dtype)
            momentum = (0.1, 0.3)[k % 2]
            training = k % 4 != 3
            as_t = (lambda a, t=DTYPES[dtype], g=False: None if a is None else torch.tensor(a, dtype=t,
                                                                                            requires_grad=g))
            rm, rv = as_t(running_mean), as_t(running_var)
            if training and shape[0] * int(np.prod(shape[2:])) <= 1:
                continue
            leaves = [as_t(x, g=True), as_t(weight, g=True), as_t(bias, g=True)]
            out = torch.nn.functional.batch_norm(leaves[0], rm, rv, leaves[1], leaves[2], training, momentum, 1e-5)
            grad_output = (rng.standard_normal(shape) * 2).astype(np_dtype)
            out.backward(torch.tensor(grad_output, dtype=DTYPES[dtype]))
            listed = (lambda a: None if a is None else a.reshape(-1).astype(np.float64).tolist())
            cases.append({"shape": list(shape), "dtype": dtype, "training": training, "momentum": momentum,
                          "x": listed(x), "weight": listed(weight), "bias": listed(bias),
                          "running_mean": listed(running_mean), "running_var": listed(running_var),
                          "out": out.detach().reshape(-1).double().tolist(), "new_running_mean": rm.double().tolist(),
                          "new_running_var": rv.double().tolist(), "grad_output": listed(grad_output),
                          "grads": [None if t is None else t.grad.reshape(-1).double().tolist() for t in leaves]})
    goldens = {"torch": torch.__version__, "threads": torch.get_num_threads(), "cases": cases}
    OUT.write_text(json.dumps(goldens, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
