"""Every op against PyTorch 2.13 goldens (tests/goldens/ops.json): value, grad_fn name, first and second
derivatives, evaluated through gradcli's own parser on float64 tensors."""

from __future__ import annotations

import numpy as np
import pytest
from goldens import assert_close, decode, load

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

GOLDEN = load("ops.json")
TIERS = ("core",)
CASES = [c for c in GOLDEN["cases"] if c["tier"] in TIERS]


@pytest.fixture(autouse=True)
def float64_mode():
    previous = engine.get_default_dtype()
    engine.set_default_dtype(dtypes.float64)
    yield
    engine.set_default_dtype(previous)


def _build(case):
    inputs = {n: Tensor(decode(v["value"]), requires_grad=True) for n, v in case["inputs"].items()}
    consts = {n: Tensor(decode(v["value"])) for n, v in case.get("const", {}).items()}
    out = evaluate(parse(case["expr"]), EngineBackend({**inputs, **consts}, dtypes.float64))
    return inputs, out


def _grad_output(case, out):
    if case["grad_output"] is None:
        return None
    return Tensor(decode(case["grad_output"]))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] + " " + c["expr"] for c in CASES])
def test_value_grad_fn_and_gradients(case):
    inputs, out = _build(case)
    assert_close(out.array, decode(case["output"]["value"]), what="output")
    assert (out.grad_fn.name if out.grad_fn is not None else None) == case["grad_fn"]
    out.backward(_grad_output(case, out))
    for name, expected in case["grads"].items():
        grad = inputs[name]._grad
        if expected is None:
            assert grad is None, f"{name}.grad should be None"
        else:
            assert grad is not None, f"{name}.grad is None"
            assert_close(grad.array, decode(expected), what=f"{name}.grad")


SECOND = [c for c in CASES if "grad2" in c]


@pytest.mark.parametrize("case", SECOND, ids=[c["id"] + " " + c["expr"] for c in SECOND])
def test_second_derivatives(case):
    inputs, out = _build(case)
    names = list(inputs)
    tensors = [inputs[n] for n in names]
    firsts = engine.grad(out, tensors, grad_outputs=_grad_output(case, out), create_graph=True, allow_unused=True)
    weights = case["grad2_weights"]
    total = None
    for name, g in zip(names, firsts):
        if g is None or not g.requires_grad:
            continue
        term = (g * Tensor(decode(weights[name]))).sum()
        total = term if total is None else total + term
    seconds = [None] * len(names) if total is None else engine.grad(total, tensors, allow_unused=True)
    for name, g2 in zip(names, seconds):
        expected = case["grad2"][name]
        shape = inputs[name].array.shape
        # torch records null where the first gradient had no graph: the second derivative is zero
        want = np.zeros(shape) if expected is None else decode(expected)
        got = np.zeros(shape) if g2 is None else g2.array
        assert_close(got, want, rtol=1e-8, atol=1e-10, what=f"d2/d{name}")
