"""softmax and log_softmax as torch's CPU kernels compute them. log_softmax's backward (SoftMaxKernel.cpp): g -
exp(y) * sum(g) with the subtraction fused into the product, the sum over the last dim in vec::reduce_all's order
(16 float lanes folded in a tree, 8 double lanes folded in order) and over other dims in order; exp by SLEEF over
the last dim, by the C library over other dims. softmax's backward over the last dim: (g - sum(g * y)) * y with
the sum in vec::map2_reduce_all's order (its float32 tail fused). The forwards over the last dim: Vectorized::exp,
the sum in reduce_all's order, softmax a product by the sum's reciprocal. Goldens recorded by
scripts/make_softmax_backward_goldens.py: torch's own y and g go in, so the backward kernel is checked alone.
Before, numpy's sum and an unfused g - e * s differed from torch in the last bit on most cases (e.g.
F.cross_entropy with class weights: z.grad[0, 0] -0.22733257407602137, torch -0.2273325740760214)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.engine import kernels
from gradcli.engine.ops.nn import LogSoftmax, Softmax, _log_softmax_backward

GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "softmax_backward.json").read_text())


def _array(case, key):
    return np.array([float.fromhex(v) for v in case[key]], dtype=case["dtype"]).reshape(case["shape"])


LOG = [c for c in GOLDENS["cases"] if c["function"] == "log_softmax"]
SOFT = [c for c in GOLDENS["cases"] if c["function"] == "softmax"]


def _name(case):
    return f"{case['dtype']}-{case['shape']}-dim{case['dim']}"


class _Ctx:
    def __init__(self, dim, ndim):
        self.aux = dim % ndim


@pytest.mark.parametrize("case", LOG, ids=_name)
def test_log_softmax_backward_is_torchs_to_the_bit(case):
    g, y, want = (_array(case, k) for k in ("g", "y", "grad"))
    with kernels.bits("torch"):
        got = _log_softmax_backward(g, y, case["dim"])
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes(), np.nonzero(got != want)


@pytest.mark.parametrize("case", LOG, ids=_name)
def test_fast_mode_is_within_a_few_ulps(case):
    g, y, want = (_array(case, k) for k in ("g", "y", "grad"))
    with kernels.bits("fast"):
        got = _log_softmax_backward(g, y, case["dim"])
    # the fast exp is numpy's, within an ulp or two; the error of g - e * s is relative to its terms' sizes
    terms = np.abs(g) + np.exp(y) * np.abs(g).sum(axis=case["dim"], keepdims=True)
    assert (np.abs(got - want) <= 4 * np.finfo(want.dtype).eps * terms).all()


@pytest.mark.parametrize("bits", ["torch", "fast"])
@pytest.mark.parametrize("case", [c for c in SOFT if c["dim"] % len(c["shape"]) == len(c["shape"]) - 1], ids=_name)
def test_softmax_backward_over_the_last_dim_is_torchs_in_both_modes(case, bits):
    g, y, want = (_array(case, k) for k in ("g", "y", "grad"))
    with kernels.bits(bits):
        (got,) = Softmax.backward(_Ctx(case["dim"], len(case["shape"])), g, y)
    assert got.tobytes() == want.tobytes(), np.nonzero(got != want)


@pytest.mark.parametrize("case", [c for c in GOLDENS["cases"] if c["dim"] % len(c["shape"]) == len(c["shape"]) - 1],
                         ids=lambda c: c["function"] + "-" + _name(c))
def test_forward_over_the_last_dim_with_torchs_bits(case):
    """softmax to the bit; log_softmax to the bit but for the log of the sum (SLEEF's log, within an ulp)."""
    x, want = _array(case, "x"), _array(case, "y")
    kind = Softmax if case["function"] == "softmax" else LogSoftmax
    with kernels.bits("torch"):
        got = kind.kernel(x, len(case["shape"]) - 1)
    if kind is Softmax:
        assert got.tobytes() == want.tobytes()
    else:
        assert (np.abs(got - want) <= np.spacing(np.abs(want)) * 2).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(3, 40), (2, 9000), (20000,), (5, 3, 700)])
def test_long_and_short_rows_add_their_vectors_in_order(dtype, shape):
    """vec::reduce_all's lanes: each lane adds the row's vectors one after another, whichever way gradcli lays
    the work out (a step per vector for short rows, a running sum along each lane for long ones)."""
    from gradcli.engine import sum_order

    lanes = 16 if dtype == np.float32 else 8
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)).astype(dtype)
    full = shape[-1] - shape[-1] % lanes
    reference = np.array(x[..., :lanes])
    for start in range(lanes, full, lanes):
        reference += x[..., start:start + lanes]
    assert sum_order._lane_sums(x[..., :full], lanes).tobytes() == reference.tobytes()
