"""Generate tests/goldens/kernel_ties.json: which operand PyTorch 2.13's CPU maximum/minimum return on a tie of
-0.0 and 0.0, element by element, for shapes, broadcasts, layouts and sizes that take its vectorised loop, its
element-by-element tail and its split between threads (gradcli.engine.kernels emulates that split).  The first
operand is all -0.0, the second all 0.0, so an output's sign bit says which one torch returned; the golden is
the sign bits in order, run-length coded.
Dev-only: the test suite never imports torch.

    python scripts/make_kernel_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "kernel_ties.json"
BINARY = {"maximum": torch.maximum, "minimum": torch.minimum,
          "clamp_min": lambda x, bound: torch.clamp(x, min=bound),
          "clamp_max": lambda x, bound: torch.clamp(x, max=bound)}
# number bounds and relu return the input itself on a tie, in every lane
UNARY = {"relu": torch.relu, "clamp_min_number": lambda x: torch.clamp(x, min=0.0),
         "clamp_max_number": lambda x: torch.clamp(-x, max=-0.0),
         "hardtanh": lambda x: torch.nn.functional.hardtanh(x, 0.0, 1.0)}

SHAPES = [(1,), (3,), (7,), (8,), (9,), (15,), (16,), (17,), (33,), (3, 12), (12, 3), (2, 3, 20), (5, 1),
          (1, 13), (32768,), (32769,), (40000,), (65541,), (100003,), (300, 301)]


def partners(shape):
    yield shape
    yield shape[-1:]
    yield ()
    if len(shape) > 1:
        yield (1,) + shape[1:]
        yield shape[:-1] + (1,)


def layout(arr, transposed):
    # the same values stored column-major: a tensor torch (and gradcli) see through a transpose
    return np.ascontiguousarray(arr.swapaxes(-1, -2)).swapaxes(-1, -2) if transposed and arr.ndim >= 2 else arr


def run_lengths(bits):
    out, prev, count = [], False, 0
    for b in bits:
        if b == prev:
            count += 1
        else:
            out.append(count)
            prev, count = b, 1
    out.append(count)
    return out


def main():
    cases = []
    for dtype in ("float64", "float32"):
        for shape in SHAPES:
            for other in partners(shape):
                for transposed in (False, True):
                    a = layout(np.full(shape, -0.0, dtype=dtype), transposed)
                    b = np.zeros(other, dtype=dtype)
                    for op, fn in BINARY.items():
                        if op.startswith("clamp") and other == ():
                            continue  # a 0-d bound is a number to gradcli's language: UNARY's cases
                        for swap in (False, True):
                            x, y = (layout(np.zeros(shape, dtype=dtype), transposed),
                                    np.full(other, -0.0, dtype=dtype)) if swap else (a, b)
                            r = fn(torch.from_numpy(x), torch.from_numpy(y))
                            cases.append({"op": op, "dtype": dtype, "shape": list(shape), "other": list(other),
                                          "transposed": transposed, "swap": swap,
                                          "signbit": run_lengths(torch.signbit(r).flatten().tolist())})
    unary = []
    for dtype in ("float64", "float32"):
        for n in (1, 7, 9, 17, 40000):
            for op, fn in UNARY.items():
                r = fn(torch.full((n,), -0.0, dtype=getattr(torch, dtype)))
                unary.append({"op": op, "dtype": dtype, "n": n, "signbit": run_lengths(torch.signbit(r).tolist())})
    OUT.write_text(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                               "cases": cases, "unary": unary}, separators=(",", ":")) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
