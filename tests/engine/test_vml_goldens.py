"""torch's exp, sqrt, sin, cos, log, log10, log2, tan, tanh, acos, atan, erf and erfc (MKL's vector math) under
--bits torch, bit for bit, against tests/goldens/vml.json.gz (scripts/make_vml_goldens.py): 20,000 random and
28 special arguments per function and dtype, and the last 1-7 of them alone.  Needs the `mkl` package (torch
2.13's MKL 2024.2); without it --bits torch keeps the emulations (exp, sqrt, float32 sin/cos: their own goldens)
and the rest is within the ulps of docs/deviations.md, so the test is skipped."""

from __future__ import annotations

import gzip
import hashlib
import json

import numpy as np
import pytest
from goldens import GOLDEN_DIR

from gradcli.engine import kernels
from gradcli.engine.kernels import mkl

GOLDENS = json.loads(gzip.decompress((GOLDEN_DIR / "vml.json.gz").read_bytes()))["cases"]
FUNCTIONS = {"exp": (-100, 100), "sqrt": (0, 1e4), "sin": (-1e4, 1e4), "cos": (-1e4, 1e4), "log": (0, 1e4),
             "log10": (0, 1e4), "log2": (0, 1e4), "tan": (-10, 10), "tanh": (-20, 20), "acos": (-1, 1),
             "atan": (-100, 100), "erf": (-6, 6), "erfc": (-6, 30)}
SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310, -1e-310, 1e-40, -1e-40, 88.7, 89.0, 709.0,
           710.0, -745.0, -104.0, 1e30, -1e30, 0.5, 2.0, 3.14159, 1e4, 1e5, 1e22, 1e300, 0.99999, -0.99999]


def arguments(name, dtype):
    """The generator script's arguments."""
    low, high = FUNCTIONS[name]
    rng = np.random.default_rng(sorted(FUNCTIONS).index(name) * 2 + (dtype == "float64"))
    with np.errstate(over="ignore"):
        return np.concatenate([rng.uniform(low, high, 20000), np.array(SPECIAL)]).astype(dtype)


def digest(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


@pytest.mark.skipif(not mkl.available(), reason=f"MKL 2024.2 (torch 2.13's vector math) is not available: "
                    f"{mkl.why_not()}; --bits torch keeps its emulations")
@pytest.mark.parametrize("case", GOLDENS, ids=lambda c: f"{c['name']}-{c['dtype']}")
def test_vector_math_bit_for_bit_in_torch_mode(case):
    x = arguments(case["name"], case["dtype"])
    fn = getattr(kernels, case["name"])
    with kernels.bits("torch"), np.errstate(all="ignore"):
        assert digest(fn(x)) == case["whole"]
        assert [digest(fn(x[-n:])) for n in range(1, 8)] == case["short"]
