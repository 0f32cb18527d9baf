"""F.layer_norm's forward and backward as torch's CPU kernels compute them (RowwiseMoments' order and fused
steps, rstd, the fused affine step; the backward's vectorised reductions, fused steps and per-thread buffers),
bit for bit against PyTorch 2.13 (tests/goldens/layer_norm.json, recorded by
scripts/make_layer_norm_goldens.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import engine
from gradcli.engine import kernels
from gradcli.engine.kernels.moments import rowwise_moments
from gradcli.engine.ops.nn_functional import layer_norm

GOLDENS = json.loads((Path(__file__).parent.parent / "goldens" / "layer_norm.json").read_text())
CASES = GOLDENS["cases"]
DTYPES = {"float32": np.float32, "float64": np.float64}


def _bits(values, dtype):
    return np.asarray(values, dtype=np.float64).astype(dtype).view(f"u{np.dtype(dtype).itemsize}")


def _array(values, shape, dtype):
    return None if values is None else np.array(values, dtype=dtype).reshape(shape)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['dtype']}-{c['shape']}-{c['normalized_shape']}")
def test_layer_norm_forward_and_backward_are_torchs_to_the_bit(case, monkeypatch):
    monkeypatch.setattr(kernels, "THREADS", GOLDENS["threads"])  # weight's and bias's gradients depend on it
    dtype = DTYPES[case["dtype"]]
    leaves = [None if a is None else engine.tensor(a, requires_grad=True) for a in (
        _array(case["x"], case["shape"], dtype), _array(case["weight"], case["normalized_shape"], dtype),
        _array(case["bias"], case["normalized_shape"], dtype))]
    out = layer_norm(leaves[0], case["normalized_shape"], leaves[1], leaves[2], case["eps"])
    np.testing.assert_array_equal(_bits(out.detach().numpy().reshape(-1), dtype), _bits(case["out"], dtype))
    out.backward(engine.tensor(_array(case["grad_output"], case["shape"], dtype)))
    for leaf, want in zip(leaves, case["grads"]):
        if leaf is not None:
            np.testing.assert_array_equal(_bits(leaf.grad.numpy().reshape(-1), dtype), _bits(want, dtype))


@pytest.mark.parametrize("case", CASES[::3], ids=lambda c: f"{c['dtype']}-{c['shape']}")
def test_rowwise_moments_are_torchs_mean_and_rstd(case):
    dtype = DTYPES[case["dtype"]]
    n = int(np.prod(case["normalized_shape"]))
    rows = np.array(case["x"], dtype=dtype).reshape(-1, n)
    mean, var = rowwise_moments(rows)
    rstd = dtype(1) / np.sqrt(var + dtype(case["eps"]))
    np.testing.assert_array_equal(_bits(mean, dtype), _bits(case["mean"], dtype))
    np.testing.assert_array_equal(_bits(rstd, dtype), _bits(case["rstd"], dtype))


@pytest.mark.parametrize(("dtype", "torch_bytes"), [
    (np.float32, "23c49c3f0000000000000000"),
    (np.float64, "d78753728498f33f00000000000000000000000000000000")])
def test_a_weight_of_minus_zero_gives_plus_zero_as_torch(dtype, torch_bytes):
    # torch's loop adds the (absent) bias's 0 after the weight: (+x) * -0.0 + 0 is +0, not the product's -0
    # (torch 2.13: F.layer_norm(tensor([[1., 2., 3.]]), (3,), tensor([-1., 0., -0.])), its bytes)
    out = layer_norm(engine.tensor(np.array([[1.0, 2.0, 3.0]], dtype=dtype)), (3,),
                     engine.tensor(np.array([-1.0, 0.0, -0.0], dtype=dtype)))
    assert out.numpy().tobytes().hex() == torch_bytes


def test_the_compiled_moments_are_the_numpy_ones():
    from gradcli.engine.kernels import moments, native
    if native.rowwise_moments() is None:
        pytest.skip("the compiled library is not built")
    rng = np.random.default_rng(11)
    for size in (1, 3, 8, 9, 17, 128, 136, 255, 264, 520, 2049, 8200):
        for dtype in (np.float32, np.float64):
            rows = (rng.standard_normal((5, size)) * 7 - 2).astype(dtype)
            compiled = native.rowwise_moments()(rows)
            reference = moments.rowwise_moments_reference(rows)
            for a, b in zip(compiled, reference):
                np.testing.assert_array_equal(_bits(a, dtype), _bits(b, dtype))


def test_the_compiled_output_step_is_the_numpy_one(monkeypatch):
    from gradcli.engine.kernels import moments, native
    if native.layer_norm_affine() is None:
        pytest.skip("the compiled library is not built")
    rng = np.random.default_rng(12)
    for dtype in (np.float32, np.float64):
        rows = (rng.standard_normal((4, 37)) * 3).astype(dtype)
        mean, var = moments.rowwise_moments(rows)
        rstd = dtype(1) / np.sqrt(var + dtype(1e-5))
        weight = rng.standard_normal(37).astype(dtype)
        weight[::5] = -0.0
        bias = rng.standard_normal(37).astype(dtype)
        for w, b in ((weight, bias), (weight, None), (None, bias), (None, None)):
            compiled = moments.layer_norm_output(rows, mean, rstd, w, b)
            monkeypatch.setattr(native, "layer_norm_affine", lambda: None)
            reference = moments.layer_norm_output(rows, mean, rstd, w, b)
            monkeypatch.undo()
            np.testing.assert_array_equal(_bits(compiled, dtype), _bits(reference, dtype))


def test_goldens_pass_on_the_numpy_path(monkeypatch):
    from gradcli.engine.kernels import native
    monkeypatch.setattr(native, "rowwise_moments", lambda: None)
    monkeypatch.setattr(native, "layer_norm_affine", lambda: None)
    for case in CASES[::4]:
        test_layer_norm_forward_and_backward_are_torchs_to_the_bit(case, monkeypatch)


def test_backward_goldens_pass_without_the_compiled_buffers(monkeypatch):
    from gradcli.engine.kernels import native
    monkeypatch.setattr(native, "layer_norm_buffers", lambda: None)
    for case in CASES[1::4]:
        test_layer_norm_forward_and_backward_are_torchs_to_the_bit(case, monkeypatch)


def test_long_rows_add_their_vectors_one_after_another():
    # rows of more than 512 vectors take a running sum along each lane: the same additions as the loop
    from gradcli.engine.kernels import moments
    rng = np.random.default_rng(14)
    for dtype, lanes in ((np.float32, 8), (np.float64, 4)):
        a = (rng.standard_normal((3, lanes * 600 + 3)) * 1e3).astype(dtype)
        full = a.shape[1] - a.shape[1] % lanes
        acc = a[:, :lanes].copy()
        for start in range(lanes, full, lanes):
            acc = acc + a[:, start:start + lanes]
        acc[:, :a.shape[1] - full] += a[:, full:]
        got = moments._reduce_all(lambda s, e, a=a: a[:, s:e], a.shape[1], lanes)
        np.testing.assert_array_equal(_bits(got, dtype), _bits(moments._fold(acc), dtype))
