"""det and slogdet as PyTorch 2.13 computes them (tests/goldens/det.json, scripts/make_det_goldens.py): from
MKL's LU of Aᵀ (A for a transposed view), reproduced bit for bit up to 16x16 by gradcli/engine/ops/lu.py.
float32 log|det| goes through the float32 log kernel, which the kernel contract bounds (docs/deviations.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from gradcli.engine import Tensor
from gradcli.engine.ops.matrix_algebra import det
from gradcli.engine.ops.matrix_functions import linalg_slogdet
from gradcli.engine.ops.shape import transpose

CASES = json.loads((Path(__file__).resolve().parent.parent / "goldens" / "det.json").read_text())["cases"]


def _matrix(case) -> Tensor:
    a = Tensor(np.array(case["a"], dtype=case["dtype"]).reshape(case["shape"]))
    return transpose(a, -1, -2) if case["kind"] == "transposed" else a


@pytest.mark.parametrize("case", CASES, ids=[f"{c['dtype']}-{c['shape'][-1]}-{c['kind']}" for c in CASES])
def test_det_and_slogdet_as_torch(case):
    a = _matrix(case)
    np.testing.assert_array_equal(det(a).array.reshape(-1), np.array(case["det"], dtype=case["dtype"]))
    sign, logabs = linalg_slogdet(a)
    np.testing.assert_array_equal(sign.array.reshape(-1), np.array(case["sign"], dtype=case["dtype"]))
    expected = np.array(case["logabs"], dtype=case["dtype"])
    if case["dtype"] == "float64":
        np.testing.assert_array_equal(logabs.array.reshape(-1), expected)
    else:  # each log|u_ii| within the float32 log kernel's ulps, summed over n terms
        n = case["shape"][-1]
        ulps = np.abs(logabs.array.reshape(-1).astype(np.float64) - expected) / np.spacing(np.abs(expected) + 1.0)
        assert np.all((ulps <= 2 * n) | (expected == -math.inf))


def test_numpy_det_would_differ_on_most_of_them():
    # the goldens carry their weight: numpy's exp(sum(log)) det differs from torch's on most float64 cases
    differ = sum(not np.array_equal(np.linalg.det(_matrix(c).array).reshape(-1), np.array(c["det"]))
                 for c in CASES if c["dtype"] == "float64" and c["shape"][-1] > 2)
    assert differ >= 10
