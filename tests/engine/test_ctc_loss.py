"""F.ctc_loss as torch's CPU kernel computes it (LossCTC.cpp: the log-alpha and log-beta recursions and the
gradient, with their log-sum-exp order and the C library's exp and log), bit for bit against PyTorch 2.13 under
--bits torch (tests/goldens/ctc_loss.json.gz, recorded by scripts/make_ctc_loss_goldens.py): losses, gradients and
grad_fn over a grid of T, C, N, S, blank, reductions, zero_infinity, dtypes, padded and concatenated targets,
lengths as tuples and tensors, unbatched inputs and the infinite/empty cases; and torch's error texts."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import engine
from gradcli.engine import kernels
from gradcli.engine.errors import EngineError, TorchRuntimeError
from gradcli.engine.ops.registry import REGISTRY

GOLDENS = json.loads(gzip.decompress((Path(__file__).parent.parent / "goldens" / "ctc_loss.json.gz").read_bytes()))
DTYPES = {"float32": np.float32, "float64": np.float64}
ctc_loss = REGISTRY["ctc_loss"].fn


def _array(text, dtype, shape=(-1,)):
    return np.frombuffer(base64.b64decode(text), dtype=dtype).reshape(shape)


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(f"u{a.itemsize}")


def _id(case):
    return (f"{case['dtype']}-T{case['T']}-C{case['C']}-N{case['N']}-{case['reduction']}-b{case['blank']}-"
            f"{case['layout']}-{case['lengths_as']}{'-zinf' if case['zero_infinity'] else ''}"
            f"{'-unbatched' if case['unbatched'] else ''}")


def _run(case):
    dtype = DTYPES[case["dtype"]]
    shape = (case["T"], case["C"]) if case["unbatched"] else (case["T"], case["N"], case["C"])
    log_probs = engine.tensor(_array(case["log_probs"], dtype, shape).copy(), requires_grad=True)
    targets = engine.tensor(np.array(case["targets"], dtype=np.int64))
    il, tl = case["input_lengths"], case["target_lengths"]
    if case["lengths_as"] == "tensor":
        il, tl = engine.tensor(np.array(il, np.int64)), engine.tensor(np.array(tl, np.int64))
        if case["unbatched"]:
            il, tl = engine.tensor(np.array(case["input_lengths"][0])), engine.tensor(
                np.array(case["target_lengths"][0]))
    else:
        il, tl = tuple(il), tuple(tl)
    loss = ctc_loss(log_probs, targets, il, tl, blank=case["blank"], reduction=case["reduction"],
                    zero_infinity=case["zero_infinity"])
    loss.backward(engine.tensor(_array(case["grad_output"], dtype, tuple(case["loss_shape"])).copy()))
    return loss, log_probs


@pytest.mark.parametrize("case", GOLDENS["cases"], ids=_id)
def test_ctc_loss_and_its_gradient_are_torchs_to_the_bit(case):
    dtype = DTYPES[case["dtype"]]
    with kernels.bits("torch"):
        loss, log_probs = _run(case)
    assert list(loss.shape) == case["loss_shape"]
    assert type(loss.grad_fn).__name__ == case["grad_fn"] or loss.grad_fn.name == case["grad_fn"]
    np.testing.assert_array_equal(_bits(loss.detach().numpy()), _bits(_array(case["loss"], dtype)))
    np.testing.assert_array_equal(_bits(log_probs.grad.numpy()), _bits(_array(case["grad"], dtype)))


@pytest.mark.parametrize("case", GOLDENS["cases"][::7], ids=_id)
def test_the_fast_mode_is_within_a_few_ulps(case):
    """Without --bits torch: numpy's exp and log in the recursions (docs/deviations.md)."""
    dtype = DTYPES[case["dtype"]]
    with kernels.bits("fast"):
        loss, log_probs = _run(case)
    want_loss, want_grad = _array(case["loss"], dtype), _array(case["grad"], dtype)
    got = loss.detach().numpy().reshape(-1)
    tolerance = 64 * np.finfo(dtype).eps
    np.testing.assert_allclose(got, want_loss, rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(log_probs.grad.numpy().reshape(-1), want_grad, rtol=1e3 * tolerance,
                               atol=1e3 * tolerance)


@pytest.mark.parametrize("error", GOLDENS["errors"], ids=lambda e: e["message"][:60])
def test_ctc_loss_raises_torchs_errors(error):
    log_probs = engine.tensor(np.zeros(error["shape"], dtype=error["dtype"]))
    targets = engine.tensor(np.array(error["targets"], dtype=np.int64))
    lengths = []
    for value, default in ((error["input_lengths"], [5, 4]), (error["target_lengths"], [2, 2])):
        if isinstance(value, str):
            lengths.append(engine.tensor(np.array(default, np.float32 if value.endswith("float") else np.int64)))
        else:
            lengths.append(tuple(value))
    with pytest.raises(EngineError) as caught:
        ctc_loss(log_probs, targets, *lengths, **error["kwargs"])
    assert str(caught.value) == error["message"]
    assert error["type"] in {c.__name__ for c in type(caught.value).__mro__}


def test_a_target_outside_the_classes_is_refused_not_read_out_of_bounds():
    """torch reads log_probs[t][target] without a bound check (its result is whatever memory holds)."""
    log_probs = engine.tensor(np.zeros((5, 2, 4), np.float32))
    with pytest.raises(TorchRuntimeError, match="target 7 is outside the classes 0..3"):
        ctc_loss(log_probs, engine.tensor(np.array([[1, 7], [3, 3]])), (5, 4), (2, 2))


def test_the_recursions_tables_are_sized_before_they_are_made():
    """log_alpha has one value per sample, step and state: long targets make it larger than any input."""
    from gradcli.engine.errors import LimitExceeded
    from gradcli.engine.ops import sizes
    log_probs = engine.tensor(np.zeros((50, 2, 4), np.float32))
    targets = engine.tensor(np.ones((2, 40), np.int64))
    saved = sizes.SizeLimit.max_elements
    sizes.SizeLimit.max_elements = 5000  # log_alpha: 2 x 50 x 81 = 8,100
    try:
        with pytest.raises(LimitExceeded, match=r"ctc_loss\(\) would create a tensor of shape \(2, 50, 81\)"):
            ctc_loss(log_probs, targets, (50, 50), (40, 40))
    finally:
        sizes.SizeLimit.max_elements = saved
