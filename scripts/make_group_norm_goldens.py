"""Generate tests/goldens/group_norm.json.gz: PyTorch 2.13's F.group_norm forward (values, and native_group_norm's
mean and rstd) and backward (the gradients of x, weight and bias for a random grad_output) on contiguous
and channels-last float32 and float64 inputs of 2 to 5 dims, with weight and bias, either, or neither (a bias
without a weight: torch's backward raises, its text recorded).  torch's CPU kernels
(group_norm_kernel.cpp: RowwiseMoments per (n, group), or the channels-last kernels' column sums, then the
backward's per-(n, c) sums ds and db, the per-group weighted sums, dgamma and dbeta over n) fix the order of
every addition;
gradcli/engine/kernels/moments.py emulates them.  Arrays are stored as base64 of their bytes (little-endian,
in the case's dtype).
Dev-only: the test suite never imports torch.

    python scripts/make_group_norm_goldens.py
"""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "group_norm.json.gz"
DTYPES = {"float64": torch.float64, "float32": torch.float32}
SHAPES = [((4, 6, 10, 10), 1), ((3, 6, 10, 10), 3), ((4, 6, 7, 5), 6), ((2, 32, 5, 5), 4), ((2, 24, 9, 1), 2),
          ((2, 40, 13, 3), 5), ((2, 16, 3, 8), 1), ((2, 64, 4, 4), 8), ((2, 12), 3), ((4, 10, 17), 5),
          ((2, 8, 3, 2, 5), 2), ((1, 48, 33), 4), ((3, 4, 2, 2), 4), ((2, 36, 6, 6), 3), ((1, 4, 300), 1)]
# channels-last inputs (torch's other kernels): below and above the pixel counts where they change strategy (1024
# forward, 2048 backward), 4-D and 5-D; the larger ones split rows between threads (the count is recorded)
CHANNELS_LAST = [((3, 16, 5, 7), 4), ((2, 6, 10, 10), 3), ((2, 40, 7, 3), 5), ((2, 8, 3, 4, 5), 2),
                 ((2, 24, 2, 2), 1), ((1, 4, 32, 32), 2), ((1, 4, 46, 46), 2)]


def main() -> None:
    rng = np.random.default_rng(2131)
    cases = []
    for (shape, groups), layout in [(c, "contiguous") for c in SHAPES] + [(c, "channels_last") for c in CHANNELS_LAST]:
        for dtype in ("float32", "float64"):
            affine = ("both", "none", "weight", "bias")[len(cases) % 4]
            eps = (1e-5, 1e-3)[(len(cases) // 4) % 2]
            np_dtype = np.float32 if dtype == "float32" else np.float64
            x = (rng.standard_normal(shape) * 3 + 1).astype(np_dtype)
            if layout == "channels_last":  # x's memory in channels-last order (the values are x's)
                x = np.moveaxis(np.ascontiguousarray(np.moveaxis(x, 1, -1)), -1, 1)
            channels = shape[1]
            weight = rng.standard_normal(channels).astype(np_dtype) if affine in ("both", "weight") else None
            bias = rng.standard_normal(channels).astype(np_dtype) if affine in ("both", "bias") else None
            as_t = (lambda a, t=DTYPES[dtype]: None if a is None else torch.tensor(a, dtype=t, requires_grad=True))
            leaves = [as_t(x), as_t(weight), as_t(bias)]
            if layout == "channels_last":
                leaves[0] = torch.tensor(np.moveaxis(x, 1, -1), dtype=DTYPES[dtype]).movedim(-1, 1).requires_grad_()
                assert leaves[0].is_contiguous(memory_format=torch.channels_last if len(shape) == 4 else
                                               torch.channels_last_3d)
            image = int(np.prod(shape[2:]))
            detached = [None if t is None else t.detach() for t in leaves]
            out, mean, rstd = torch.native_group_norm(*detached, shape[0], channels, image, groups, eps)
            functional = torch.nn.functional.group_norm(leaves[0], groups, leaves[1], leaves[2], eps)
            assert torch.equal(out, functional)
            assert functional.stride() == leaves[0].stride()  # the result in the input's layout
            grad_output = (rng.standard_normal(shape) * 2).astype(np_dtype)
            error = None
            try:
                functional.backward(torch.tensor(grad_output, dtype=DTYPES[dtype]))
            except RuntimeError as exc:  # a bias without a weight: torch's backward fails ("tensor does not have
                error = str(exc)  # a device")
            listed = (lambda a: None if a is None else base64.b64encode(np.ascontiguousarray(a).tobytes()).decode())
            # (values in the logical (N, C, ...) order whatever the layout)
            grads = [None if t is None or t.grad is None else listed(t.grad.numpy()) for t in leaves]
            if leaves[0].grad is not None:
                assert leaves[0].grad.stride() == leaves[0].stride()
            cases.append({"shape": list(shape), "groups": groups, "dtype": dtype, "eps": eps, "layout": layout,
                          "x": listed(x), "weight": listed(weight), "bias": listed(bias),
                          "out": listed(out.detach().numpy()), "mean": listed(mean.numpy()),
                          "rstd": listed(rstd.numpy()), "grad_output": listed(grad_output),
                          "grads": grads, "error": error})
    OUT.write_bytes(gzip.compress((json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                                               "cases": cases},
                                              separators=(",", ":")) + "\n").encode(), mtime=0))
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
