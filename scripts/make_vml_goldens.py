"""Generate tests/goldens/vml.json.gz: PyTorch 2.13's float32/float64 exp, sqrt, sin, cos, log, log10, log2, tan,
tanh, acos, atan, erf and erfc - MKL's vector math in torch's CPU build - bit for bit (SHA-256 of the bytes) on
random arguments over each function's range and on special ones (signed zeros, subnormals, the overflow and
underflow edges, huge values, inf, nan), as whole tensors and as 1-7 elements.  With the `mkl` package installed
gradcli's --bits torch calls the same functions (tests/engine/test_vml_goldens.py, skipped without MKL).  The
arguments are rebuilt by the test from the same seed.  Dev-only: the test suite never imports torch.

    python scripts/make_vml_goldens.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "vml.json.gz"
# name: (torch function, the range of the random arguments)
FUNCTIONS = {"exp": (-100, 100), "sqrt": (0, 1e4), "sin": (-1e4, 1e4), "cos": (-1e4, 1e4), "log": (0, 1e4),
             "log10": (0, 1e4), "log2": (0, 1e4), "tan": (-10, 10), "tanh": (-20, 20), "acos": (-1, 1),
             "atan": (-100, 100), "erf": (-6, 6), "erfc": (-6, 30)}
SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310, -1e-310, 1e-40, -1e-40, 88.7, 89.0, 709.0,
           710.0, -745.0, -104.0, 1e30, -1e30, 0.5, 2.0, 3.14159, 1e4, 1e5, 1e22, 1e300, 0.99999, -0.99999]
COUNT = 20000


def arguments(name, dtype):
    low, high = FUNCTIONS[name]
    rng = np.random.default_rng(sorted(FUNCTIONS).index(name) * 2 + (dtype == "float64"))
    with np.errstate(over="ignore"):
        return np.concatenate([rng.uniform(low, high, COUNT), np.array(SPECIAL)]).astype(dtype)


def digest(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def main():
    torch.set_num_threads(1)
    cases = []
    for name in FUNCTIONS:
        for dtype in ("float32", "float64"):
            x = arguments(name, dtype)
            fn = getattr(torch, name)
            whole = fn(torch.from_numpy(x)).numpy()
            short = [digest(fn(torch.from_numpy(x[-n:].copy())).numpy()) for n in range(1, 8)]
            cases.append({"name": name, "dtype": dtype, "whole": digest(whole), "short": short})
    OUT.write_bytes(gzip.compress(json.dumps({"torch": torch.__version__, "cases": cases}).encode(), mtime=0))
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
