"""Compare gradcli's PyTorch-style printing with goldens recorded from real PyTorch.

The goldens come from scripts/make_repr_goldens.py; this test does not need torch.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from gradcli.engine.tensor_str import Size, format_python_value, format_tensor

GOLDENS = json.loads((Path(__file__).parents[1] / "goldens" / "repr_goldens.json").read_text())
SPECIAL_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "-0.0": -0.0}


def decode_float(value: float | str) -> float:
    return SPECIAL_FLOATS[value] if isinstance(value, str) else value


def build_array(case: dict) -> np.ndarray:
    dtype = np.dtype(case["dtype"])
    if "arange_scale" in case:
        numel = math.prod(case["shape"])
        flat = (np.arange(numel, dtype=np.float64) * case["arange_scale"]).astype(dtype)
    elif dtype.kind == "f":
        flat = np.array([decode_float(value) for value in case["values"]], dtype=dtype)
    else:
        flat = np.array(case["values"], dtype=dtype)
    return flat.reshape(case["shape"])


@pytest.mark.parametrize("case", GOLDENS["tensor_cases"], ids=lambda case: case["name"])
def test_format_tensor_matches_torch(case: dict) -> None:
    text = format_tensor(
        build_array(case),
        default_dtype=case["default_dtype"],
        requires_grad=case["requires_grad"],
        grad_fn=case["grad_fn"],
    )
    assert text == case["expected"]


class TensorStub:
    """Stands in for a torch.Tensor inside Python containers."""

    def __init__(self, case: dict) -> None:
        self.case = case


def repr_stub(stub: TensorStub) -> str:
    return format_tensor(
        build_array(stub.case), requires_grad=stub.case["requires_grad"], grad_fn=stub.case["grad_fn"]
    )


def decode_python_value(encoded: dict):
    ((tag, payload),) = encoded.items()
    decoders = {
        "none": lambda _: None,
        "bool": bool,
        "int": int,
        "float": decode_float,
        "str": str,
        "size": lambda dims: Size(dims),
        "tensor": TensorStub,
        "list": lambda items: [decode_python_value(item) for item in items],
        "tuple": lambda items: tuple(decode_python_value(item) for item in items),
        "dict": lambda pairs: {decode_python_value(k): decode_python_value(v) for k, v in pairs},
    }
    return decoders[tag](payload)


@pytest.mark.parametrize("case", GOLDENS["python_value_cases"], ids=lambda case: case["name"])
def test_format_python_value_matches_print(case: dict) -> None:
    value = decode_python_value(case["value"])
    assert format_python_value(value, repr_tensor=repr_stub) == case["expected"]


def test_numpy_array_in_container_defaults_to_format_tensor() -> None:
    value = [np.array([1.0, 2.5], dtype=np.float32), np.float64(0.1)]
    assert format_python_value(value) == "[tensor([1.0000, 2.5000]), 0.1]"


def test_unsupported_dtype_is_rejected() -> None:
    with pytest.raises(ValueError, match="complex64"):
        format_tensor(np.zeros(2, dtype=np.complex64))
