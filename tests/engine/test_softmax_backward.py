"""log_softmax's backward as torch's CPU kernel computes it (SoftMaxKernel.cpp): g - exp(y) * sum(g) with the
subtraction fused into the product, the sum over the last dim in vec::reduce_all's order (16 float lanes folded
in a tree, 8 double lanes folded in order) and over other dims in order; exp by SLEEF over the last dim, by the C
library over other dims.  Goldens recorded by scripts/make_softmax_backward_goldens.py: torch's own y and g go in,
so the backward kernel is checked alone.  Before, numpy's sum and an unfused g - e * s differed from torch in
the last bit on most cases (e.g. F.cross_entropy with class weights: z.grad[0, 0] -0.22733257407602137, torch
-0.2273325740760214)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.engine import kernels
from gradcli.engine.ops.nn import _log_softmax_backward

GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "softmax_backward.json").read_text())


def _array(case, key):
    return np.array([float.fromhex(v) for v in case[key]], dtype=case["dtype"]).reshape(case["shape"])


@pytest.mark.parametrize("case", GOLDENS["cases"], ids=lambda c: f"{c['dtype']}-{c['shape']}-dim{c['dim']}")
def test_log_softmax_backward_is_torchs_to_the_bit(case):
    g, y, want = (_array(case, k) for k in ("g", "y", "grad"))
    with kernels.bits("torch"):
        got = _log_softmax_backward(g, y, case["dim"])
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes(), np.nonzero(got != want)


@pytest.mark.parametrize("case", GOLDENS["cases"], ids=lambda c: f"{c['dtype']}-{c['shape']}-dim{c['dim']}")
def test_fast_mode_is_within_a_few_ulps(case):
    g, y, want = (_array(case, k) for k in ("g", "y", "grad"))
    with kernels.bits("fast"):
        got = _log_softmax_backward(g, y, case["dim"])
    # the fast exp is numpy's, within an ulp or two; the error of g - e * s is relative to its terms' sizes
    terms = np.abs(g) + np.exp(y) * np.abs(g).sum(axis=case["dim"], keepdims=True)
    assert (np.abs(got - want) <= 4 * np.finfo(want.dtype).eps * terms).all()
