"""F.interpolate and F.bilinear against torch 2.13, bit for bit: outputs and input gradients of every mode on 3-D,
4-D and 5-D inputs (sizes, integer and other scale factors, align_corners, recompute_scale_factor, float32 and
float64, both of ATen's 2-D kernels, channels-last inputs), F.bilinear's output and gradients, and torch's error
texts (tests/goldens/upsample.json.gz, scripts/make_upsample_goldens.py)."""

from __future__ import annotations

import gzip
import hashlib
import json

import numpy as np
import pytest
from goldens import GOLDEN_DIR

from gradcli.engine.errors import EngineError
from gradcli.engine.kernels import mkl
from gradcli.engine.ops.registry import REGISTRY
from gradcli.engine.tensor import Tensor

GOLDENS = json.loads(gzip.decompress((GOLDEN_DIR / "upsample.json.gz").read_bytes()))
interpolate = REGISTRY["interpolate"].fn
bilinear = REGISTRY["bilinear"].fn


def values(shape, dtype: str, salt: int = 0) -> np.ndarray:
    """The golden script's deterministic values (scripts/make_upsample_goldens.py)."""
    n = int(np.prod(shape))
    with np.errstate(over="ignore"):
        h = np.arange(n, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(salt * 7919 + 1)
        h ^= h >> np.uint64(31)
        h *= np.uint64(0x94D049BB133111EB)
        h ^= h >> np.uint64(29)
    mantissa = 1.0 + (h >> np.uint64(12)).astype(np.float64) / 2.0 ** 52
    sign = np.where(h & np.uint64(1), -1.0, 1.0)
    exponent = ((h >> np.uint64(3)) % np.uint64(6)).astype(np.float64) - 3
    return (sign * mantissa * 2.0 ** exponent).astype(dtype).reshape(shape)


def digest(array) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def leaf(array) -> Tensor:
    t = Tensor._make(array, None)
    t.requires_grad_()
    return t


def kwargs_of(case):
    kwargs = dict(case["kwargs"])
    if isinstance(kwargs.get("size"), list):
        kwargs["size"] = tuple(kwargs["size"])
    if isinstance(kwargs.get("scale_factor"), list):
        kwargs["scale_factor"] = tuple(kwargs["scale_factor"])
    return kwargs


def case_id(case):
    return f"{case['dtype']}-{case['shape']}-{case['layout']}-" + ",".join(f"{k}={v}" for k, v in
                                                                           sorted(case["kwargs"].items()))


def _check(got: np.ndarray, want: dict, what: str):
    assert list(got.shape) == want["shape"], what
    assert digest(got) == want["sha256"], f"{what}: {got.ravel()[:4].tolist()} for torch's {want['head']}"


@pytest.mark.parametrize("case", GOLDENS["interpolate"], ids=case_id)
def test_interpolate_and_its_gradient_are_torchs_bits(case):
    array = values(case["shape"], case["dtype"])
    if case["layout"] == "channels_last":  # the same values stored with the channels innermost
        order = (0, 2, 3, 1) if array.ndim == 4 else (0, 2, 3, 4, 1)
        array = np.ascontiguousarray(array.transpose(order)).transpose(np.argsort(order))
    x = leaf(array)
    y = interpolate(x, **kwargs_of(case))
    _check(y.array, case["output"], "output")
    assert y.grad_fn.name == case["grad_fn"]
    y.backward(Tensor._make(values(y.shape, case["dtype"], 1), None))
    _check(x.grad.array, case["grad"], "input gradient")


def test_the_goldens_cover_both_2d_kernels_and_every_mode():
    modes = {c["kwargs"]["mode"] for c in GOLDENS["interpolate"]}
    assert modes == {"nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area"}
    big = [c for c in GOLDENS["interpolate"] if c["kwargs"].get("size") == [70, 64]]
    assert {c["kwargs"]["mode"] for c in big} >= {"bilinear", "nearest", "bicubic"}
    assert any(c["layout"] == "channels_last" for c in GOLDENS["interpolate"])
    assert any(isinstance(c["kwargs"].get("scale_factor"), float) and c["kwargs"]["scale_factor"] % 1
               for c in GOLDENS["interpolate"])


def _bilinear_inputs(case):
    dt = case["dtype"]
    x1, x2 = leaf(values(case["shape1"], dt, 2)), leaf(values(case["shape2"], dt, 3))
    w = leaf(values((case["out"], case["shape1"][-1], case["shape2"][-1]), dt, 4))
    b = leaf(values((case["out"],), dt, 5)) if case["bias"] else None
    return x1, x2, w, b


@pytest.mark.skipif(not mkl.available(), reason="torch's bmm through MKL 2024.2 (gradcli[mkl]) is needed for its bits")
@pytest.mark.parametrize("case", GOLDENS["bilinear"],
                         ids=lambda c: f"{c['dtype']}-{c['shape1']}-{c['shape2']}-{c['out']}-bias{c['bias']}")
def test_bilinear_and_its_gradients_are_torchs(case):
    x1, x2, w, b = _bilinear_inputs(case)
    y = bilinear(x1, x2, w, b)
    _check(y.array, case["output"], "output")
    assert y.grad_fn.name == case["grad_fn"]
    y.backward(Tensor._make(values(y.shape, case["dtype"], 6), None))
    for name, t in (("input1", x1), ("input2", x2), ("weight", w), ("bias", b)):
        if t is not None:
            _check(t.grad.array, case["grads"][name], f"{name} gradient")


def _error_id(case):
    return f"{case['op']}-{case.get('shape', case.get('shapes'))}-{case.get('kwargs', '')}"


@pytest.mark.parametrize("case", GOLDENS["errors"], ids=_error_id)
def test_wrong_calls_raise_torchs_error(case):
    if case["op"] == "interpolate":
        kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
        x = Tensor._make(np.ones(case["shape"], case["dtype"]), None)
        call = lambda: interpolate(x, **kwargs)  # noqa: E731
    else:
        shapes = case["shapes"]
        tensors = [None if s is None else Tensor._make(np.ones(s, np.float32), None) for s in shapes]
        call = lambda: bilinear(*tensors)  # noqa: E731
    with pytest.raises(EngineError) as info:
        call()
    assert info.value.torch_type == case["type"]
    assert str(info.value) == case["message"]
