"""var/std/var_mean/std_mean over dims in torch's order (WelfordOps in double, each output's elements in
TensorIterator's order), bit for bit against PyTorch 2.13 (tests/goldens/variance_dims.json, recorded by
scripts/make_variance_goldens.py), on the compiled loop and on its numpy form."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import engine
from gradcli.engine import kernels
from gradcli.engine.kernels import native
from gradcli.engine.ops import aggregates
from gradcli.engine.ops.registry import REGISTRY

GOLDENS = json.loads((Path(__file__).parent.parent / "goldens" / "variance_dims.json").read_text())
CASES = GOLDENS["cases"]
DTYPES = {"float32": np.float32, "float64": np.float64}


def _run(case):
    x = np.array(case["x"], dtype=DTYPES[case["dtype"]]).reshape(case["shape"])
    leaf = engine.tensor(x, requires_grad=True)
    t = leaf
    if case["layout"] == "permuted":
        t = t.permute(*reversed(range(t.dim())))
    elif case["layout"] == "sliced":
        t = t[..., ::2]
    dims = tuple(case["dims"]) if isinstance(case["dims"], list) else case["dims"]
    out = REGISTRY[case["op"]].fn(t, dim=dims, correction=case["correction"], keepdim=case["keepdim"])
    parts = out if isinstance(out, tuple) else (out,)
    total = None
    for i, p in enumerate(parts):
        w = engine.arange(1, p.numel() + 1, dtype=p.dtype).reshape(p.shape)
        term = (p * w).sum() * (i + 1)
        total = term if total is None else total + term
    total.backward()
    return parts, leaf.grad


def _bits(values, dtype):
    """The bits, nan's sign aside (JSON keeps no sign of nan; torch prints every nan as nan)."""
    a = np.asarray(values, dtype=np.float64).astype(dtype)
    return np.where(np.isnan(a), np.nan, a).astype(dtype).view(f"u{np.dtype(dtype).itemsize}")


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['op']}-{c['dtype']}-{c['shape']}-{c['layout']}-{c['dims']}")
def test_variance_over_dims_is_torchs_to_the_bit(case):
    dtype = DTYPES[case["dtype"]]
    parts, grad = _run(case)
    for part, want, shape in zip(parts, case["out"], case["out_shapes"]):
        assert list(part.shape) == shape
        np.testing.assert_array_equal(_bits(part.detach().numpy().reshape(-1), dtype), _bits(want, dtype))
    np.testing.assert_array_equal(_bits(grad.numpy().reshape(-1), dtype), _bits(case["grad"], dtype))


@pytest.mark.parametrize("case", GOLDENS["long"], ids=lambda c: f"{c['op']}-{c['dtype']}-{c['shape']}")
def test_long_reductions_split_over_threads_as_torch_does(case, monkeypatch):
    # var_mean's one output over >= GRAIN_SIZE elements: one range per thread, combined (the goldens' count)
    monkeypatch.setattr(kernels, "THREADS", GOLDENS["threads"])
    dtype = DTYPES[case["dtype"]]
    x = ((np.arange(case["n"]) * 7919) % 10007) / 10007 - 0.25
    out = REGISTRY[case["op"]].fn(engine.tensor(x.reshape(case["shape"]).astype(dtype)), dim=case["dims"])
    parts = out if isinstance(out, tuple) else (out,)
    for part, want in zip(parts, case["out"]):
        np.testing.assert_array_equal(_bits(part.numpy().reshape(-1), dtype), _bits(want, dtype))


def test_the_numpy_welford_is_the_compiled_one(monkeypatch):
    if native.welford() is None:
        pytest.skip("the compiled library is not built")
    rng = np.random.default_rng(5)
    for dtype in (np.float32, np.float64):
        rows = (rng.standard_normal((7, 301)) * 1e3).astype(dtype)
        for view in (rows, rows[:, ::3], rows.T.copy().T, rows[::2]):
            compiled = native.welford()(view)
            reference = aggregates.welford_reference(view)
            for a, b in zip(compiled, reference):
                np.testing.assert_array_equal(a.view(np.uint64), b.view(np.uint64))


def test_goldens_pass_on_the_numpy_path(monkeypatch):
    monkeypatch.setattr(native, "welford", lambda: None)
    for case in CASES[::7]:
        test_variance_over_dims_is_torchs_to_the_bit(case)
