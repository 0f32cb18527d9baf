"""Loading the PyTorch goldens (tests/goldens/*.json, made by scripts/make_*_goldens.py) without torch."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

GOLDEN_DIR = Path(__file__).parent / "goldens"


@cache
def load(name: str) -> dict:
    return json.loads((GOLDEN_DIR / name).read_text())


def decode(value) -> np.ndarray:
    """A golden value (number or nested list, non-finite as "nan"/"inf"/"-inf") as a float64 array."""
    def fix(v):
        if isinstance(v, list):
            return [fix(x) for x in v]
        return float(v)

    return np.array(fix(value), dtype=np.float64)


def assert_close(actual, expected, *, rtol=1e-9, atol=1e-12, what=""):
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
