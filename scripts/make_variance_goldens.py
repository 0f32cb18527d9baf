"""Generate tests/goldens/variance_dims.json: PyTorch 2.13's var, std, var_mean and std_mean over dims (one or
several, keepdim or not, corrections 0/1/2), on float32 and float64 inputs, contiguous, permuted and sliced,
with the .grad of (out * w).sum().  Over dims with more than one output torch runs WelfordOps in double, each
output's elements one after another in TensorIterator's order (aten/src/ATen/native/cpu/ReduceOpsKernel.cpp,
std_var_kernel_impl; SharedReduceOps.h); var_mean/std_mean run it for a single output too (no
std_var_all_cpu).  Values are stored as Python floats (float32 values exactly).
Dev-only: the test suite never imports torch.

    python scripts/make_variance_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "variance_dims.json"
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def _view(t, layout):
    if layout == "permuted":
        return t.permute(*reversed(range(t.dim())))
    if layout == "sliced":
        return t[..., ::2]
    return t


def _case(rng, op, base_shape, layout, dims, correction, keepdim, dtype, scale):
    x = (rng.standard_normal(base_shape) * scale + scale / 3).astype(np.float32 if dtype == "float32" else
                                                                      np.float64)
    leaf = torch.tensor(x, dtype=DTYPES[dtype], requires_grad=True)
    t = _view(leaf, layout)
    out = getattr(torch, op)(t, dim=dims, correction=correction, keepdim=keepdim)
    parts = out if isinstance(out, tuple) else (out,)
    total = sum((p * torch.arange(1, p.numel() + 1, dtype=p.dtype).reshape(p.shape)).sum() * (i + 1)
                for i, p in enumerate(parts))
    total.backward()
    return {"op": op, "x": x.reshape(-1).astype(np.float64).tolist(), "shape": list(base_shape),
            "layout": layout, "dims": dims, "correction": correction, "keepdim": keepdim, "dtype": dtype,
            "out": [p.detach().reshape(-1).double().tolist() for p in parts],
            "out_shapes": [list(p.shape) for p in parts], "grad": leaf.grad.reshape(-1).double().tolist()}


def main() -> None:
    rng = np.random.default_rng(1327)
    cases = []
    shapes = [(5, 7), (3, 40), (40, 3), (4, 5, 6), (2, 3, 4, 5), (12, 40), (50, 2), (1, 9), (9, 1)]
    for shape in shapes:
        nd = len(shape)
        dim_choices = [d for d in range(nd)] + [-1] + ([(0, nd - 1)] if nd > 2 else []) + \
                      ([(1, 2)] if nd > 3 else [])
        for dims in dim_choices:
            for layout in ("contiguous", "permuted", "sliced"):
                k = len(cases)
                cases.append(_case(rng, ("var", "std", "var_mean", "std_mean")[k % 4], shape, layout, dims,
                                   (1, 0, 2)[k % 3], bool(k % 2), ("float32", "float64")[(k // 2) % 2],
                                   (1.0, 1e3, 1e-3)[k % 3]))
    # long reductions: var_mean's one output splits at::parallel_for's way over the threads (WelfordOps::combine);
    # inputs from a formula exact in float64, so the test rebuilds them instead of storing 10^5 values
    long = []
    for n, shape, dims in [(100_000, (100_000,), 0), (70_001, (70_001,), 0), (120_000, (3, 40_000), 1),
                           (90_000, (30_000, 3), 0)]:
        for dtype in ("float32", "float64"):
            for op in ("var_mean", "std_mean", "var", "std"):
                x = ((np.arange(n) * 7919) % 10007) / 10007 - 0.25
                t = torch.tensor(x.reshape(shape), dtype=DTYPES[dtype])
                out = getattr(torch, op)(t, dim=dims)
                parts = out if isinstance(out, tuple) else (out,)
                long.append({"op": op, "n": n, "shape": list(shape), "dims": dims, "dtype": dtype,
                             "out": [p.reshape(-1).double().tolist() for p in parts]})
    goldens = {"torch": torch.__version__, "threads": torch.get_num_threads(), "cases": cases, "long": long}
    OUT.write_text(json.dumps(goldens, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
