"""Generate tests/goldens/unstable_order.json: PyTorch 2.13's topk and sort (stable=False, the default) on
inputs with tied values, and topk with sorted=False, where the indices (and so the positions the gradient goes
back to) are decided by libstdc++'s unstable nth_element / partial_sort / sort inside ATen's CPU kernels
(TopKImpl.h, SortingKernel.cpp), not by a stable order.

Each case: the op, the input (float64, float32, int64 or bool; some with nans), k, dim, largest/descending,
sorted/stable -> torch's indices, and for floating inputs the .grad of x after (values * w).sum() with
w = 1, 2, 3, ... along dim.
Dev-only: the test suite never imports torch.

    python scripts/make_topk_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "unstable_order.json"
DTYPES = {"float64": torch.float64, "float32": torch.float32, "int64": torch.int64, "bool": torch.bool}


def _case(rng, shape, k, dim, largest, sorted_, dtype, levels, nans, op="topk"):
    x = rng.integers(0, levels, shape).astype(np.float64)
    if nans:
        x.reshape(-1)[rng.integers(0, x.size, nans)] = np.nan
    t = torch.tensor(x, dtype=DTYPES[dtype])
    case = {"op": op, "x": [None if v != v else v for v in x.reshape(-1).tolist()], "shape": list(shape),
            "dtype": dtype, "k": k, "dim": dim, "largest": largest, "sorted": sorted_}
    floating = dtype.startswith("float")
    if floating:
        t.requires_grad_(True)
    if op == "topk":
        values, indices = torch.topk(t, k, dim=dim, largest=largest, sorted=sorted_)
    else:  # sort: `largest` is descending, `sorted` is stable
        values, indices = torch.sort(t, dim=dim, descending=largest, stable=sorted_)
    case["indices"] = indices.reshape(-1).tolist()
    if floating:
        w_shape = [1] * len(shape)
        w_shape[dim] = k
        w = torch.arange(1, k + 1, dtype=t.dtype).reshape(w_shape)
        (values * w).sum().backward()
        case["grad"] = t.grad.reshape(-1).tolist()
    return case


def main() -> None:
    rng = np.random.default_rng(2813)
    cases = []
    for n in [2, 3, 4, 5, 7, 8, 16, 17, 33, 64, 65, 129, 200]:
        for k in sorted({1, 2, n // 2, n - 1, n, n // 64, n // 64 + 1} - {0}):
            for largest in (True, False):
                for sorted_ in (True, False):
                    dtype = ("float64", "float32", "int64")[len(cases) % 3]
                    nans = 2 if dtype != "int64" and len(cases) % 5 == 0 else 0
                    cases.append(_case(rng, (n,), k, 0, largest, sorted_, dtype, 3 + len(cases) % 4, nans))
    for shape, dim in [((4, 90), 1), ((90, 4), 0), ((3, 5, 70), 2), ((3, 70, 5), 1), ((6, 9), -1)]:
        for k in (1, 2, 5):
            for sorted_ in (True, False):
                cases.append(_case(rng, shape, k, dim, True, sorted_, "float32", 4, 0))
                cases.append(_case(rng, shape, k, dim, False, sorted_, "float64", 3, 1))
    for n in [16, 17, 18, 40, 100, 300]:
        for descending in (False, True):
            for stable in (False, True):
                for dtype in ("float64", "float32", "int64", "bool"):
                    nans = 2 if dtype.startswith("float") and n % 2 == 0 else 0
                    cases.append(_case(rng, (n,), n, 0, descending, stable, dtype, 3, nans, op="sort"))
    for shape, dim in [((5, 40), 1), ((40, 5), 0), ((2, 30, 3), 1)]:
        for descending in (False, True):
            cases.append(_case(rng, shape, shape[dim], dim, descending, False, "float32", 3, 0, op="sort"))
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
