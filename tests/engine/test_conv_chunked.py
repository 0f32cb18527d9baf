"""conv1d/conv2d whose gathered windows would exceed the size limit run piece by piece (a few images, or output
rows of one image, at a time): against the PyTorch 2.13 goldens of tests/goldens/ops.json with the size limit and
the piece size forced small, so every case is computed in pieces (docs_nn_conv2d is the full-size program)."""

from __future__ import annotations

import pytest
from goldens import assert_close, decode, load

from gradcli.engine import Tensor, dtypes
from gradcli.engine.ops import nn_functional
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

CASES = [c for c in load("ops.json")["cases"] if c["expr"].startswith(("F.conv1d", "F.conv2d"))]

pytestmark = pytest.mark.usefixtures("float64_mode")


def test_there_are_convolution_goldens():
    assert len(CASES) >= 6


@pytest.mark.parametrize("piece", [1, 40, 10**6])  # one output row, a few rows / images, everything at once
@pytest.mark.parametrize("case", CASES, ids=[c["id"] + " " + c["expr"] for c in CASES])
def test_pieces_give_torchs_values_and_gradients(case, piece, monkeypatch):
    monkeypatch.setattr(nn_functional, "CONV_CHUNK_ELEMENTS", piece)
    inputs = {n: Tensor(decode(v["value"]), requires_grad=True) for n, v in case["inputs"].items()}
    program = parse(case["expr"], known_variables=frozenset(inputs))
    monkeypatch.setattr(nn_functional, "gather_at_once", lambda elements: False)  # as when over the size limit
    out = evaluate(program, EngineBackend(inputs, dtypes.float64))
    assert_close(out.array, decode(case["output"]["value"]), what="output")
    out.backward(None if case["grad_output"] is None else Tensor(decode(case["grad_output"])))
    for name, expected in case["grads"].items():
        assert_close(inputs[name]._grad.array, decode(expected), what=f"{name}.grad")
