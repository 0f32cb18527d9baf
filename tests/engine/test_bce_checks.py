"""binary_cross_entropy's range checks as torch 2.13's kernel makes them (Loss.cpp): each element in turn, its
input then its target, `(v >= 0) && (v <= 1)` - so nan fails and the first failing element names which.  Before,
gradcli checked the input only (nan passing) and computed a loss for targets outside [0, 1]; torch's messages
below were recorded with torch.nn.functional.binary_cross_entropy on these tensors."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine import Tensor, dtypes
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops.registry import REGISTRY
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

NAN = float("nan")


@pytest.mark.parametrize(("x", "t", "which"), [
    ([NAN], [0.5], "input"),
    ([0.5], [NAN], "target"),
    ([0.5], [1.5], "target"),
    ([0.5, 2.0], [1.5, 0.5], "target"),  # the first element's target fails before the second's input
    ([2.0, 0.5], [0.5, 1.5], "input"),
    ([0.5, 0.5], [0.5, -1.0], "target"),
])
def test_out_of_range_input_or_target_is_torchs_error(x, t, which):
    bce = REGISTRY["binary_cross_entropy"].fn
    with pytest.raises(TorchRuntimeError, match=f"^all elements of {which} should be between 0 and 1$"):
        bce(Tensor(np.array(x), requires_grad=True), Tensor(np.array(t)))


def test_the_bounds_themselves_are_allowed():
    inputs = {"x": Tensor(np.array([0.0, 1.0, 0.5]), requires_grad=True), "t": Tensor(np.array([0.0, 1.0, 1.0]))}
    program = parse("F.binary_cross_entropy(x, t, reduction='none')", known_variables=frozenset(inputs))
    out = evaluate(program, EngineBackend(inputs, dtypes.float64)).array
    assert out.tolist() == [0.0, 0.0, np.log(2.0)]  # -(0 * max(log 0, -100) + 1 * log1p(-0)) = 0, ...
