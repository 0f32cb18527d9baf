"""Class indices and index tensors as `gradcli eval --const` types them (issue 29, item 1), against
tests/goldens/class_indices.json, recorded with PyTorch 2.13 by scripts/make_class_index_goldens.py: the
constant's text goes through the command line's reader, so `t=[0]` is int64 as torch.tensor([0]) is."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.calc.calculator import calculate
from gradcli.io.inputs import LazyGenerator, read_values
from gradcli.safety.errors import GradcliError
from gradcli.safety.limits import Limits

RECORDED = json.loads((Path(__file__).parents[1] / "goldens" / "class_indices.json").read_text())["cases"]


def _run(case):
    values = read_values([f"{n}={v}" for n, v in case["values"].items()],
                         [f"{n}={text}" for n, text in case["consts"].items()], [], None,
                         dtype=np.dtype("float64"), limits=Limits(), rng=LazyGenerator(0))
    return values, calculate(case["expression"], values.inputs, values.consts, check=False)


@pytest.mark.parametrize("case", RECORDED, ids=lambda c: f"{c['expression']} {c['consts']}")
def test_class_index_case_matches_torch(case):
    if "error" in case:
        with pytest.raises(GradcliError) as info:
            values, result = _run(case)
            if result.error is not None:  # an error of backward (none expected here)
                raise AssertionError(result.error)
        assert info.value.message == case["error"]
        return
    values, result = _run(case)
    assert result.error is None
    for name, dtype in case["const_dtypes"].items():
        assert values.consts[name].dtype == np.dtype(dtype), name
    assert result.output.dtype == np.dtype(case["dtype"])
    np.testing.assert_allclose(result.output, case["output"], rtol=1e-13, atol=1e-15)
    for name, grad in case["grads"].items():
        np.testing.assert_allclose(result.tensors[name].grad, grad, rtol=1e-13, atol=1e-15)
