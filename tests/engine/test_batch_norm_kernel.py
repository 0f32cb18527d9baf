"""F.batch_norm's forward (training: output, running mean and variance; evaluation: output) and backward (the
gradients of x, weight and bias) as torch's CPU kernels compute them, bit for bit against PyTorch 2.13
(tests/goldens/batch_norm.json, recorded by scripts/make_batch_norm_goldens.py with the thread count it records:
the (N, C) statistics depend on it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import engine
from gradcli.engine import kernels
from gradcli.engine.ops.nn_functional import batch_norm

GOLDENS = json.loads((Path(__file__).parent.parent / "goldens" / "batch_norm.json").read_text())
DTYPES = {"float32": np.float32, "float64": np.float64}


def _bits(values, dtype):
    return np.asarray(values, dtype=np.float64).astype(dtype).view(f"u{np.dtype(dtype).itemsize}")


def _tensor(values, shape, dtype):
    return None if values is None else engine.tensor(np.array(values, dtype=dtype).reshape(shape))


@pytest.mark.parametrize("case", GOLDENS["cases"],
                         ids=lambda c: f"{c['dtype']}-{c['shape']}-{'train' if c['training'] else 'eval'}")
def test_batch_norm_forward_is_torchs_to_the_bit(case, monkeypatch):
    monkeypatch.setattr(kernels, "THREADS", GOLDENS["threads"])
    dtype = DTYPES[case["dtype"]]
    c = case["shape"][1]
    running_mean = _tensor(case["running_mean"], (c,), dtype)
    running_var = _tensor(case["running_var"], (c,), dtype)
    leaves = [_tensor(case["x"], case["shape"], dtype), _tensor(case["weight"], (c,), dtype),
              _tensor(case["bias"], (c,), dtype)]
    for leaf in leaves:
        if leaf is not None:
            leaf.requires_grad_(True)
    out = batch_norm(leaves[0], running_mean, running_var, leaves[1], leaves[2], case["training"],
                     case["momentum"], 1e-5)
    np.testing.assert_array_equal(_bits(out.detach().numpy().reshape(-1), dtype), _bits(case["out"], dtype))
    np.testing.assert_array_equal(_bits(running_mean.numpy(), dtype), _bits(case["new_running_mean"], dtype))
    np.testing.assert_array_equal(_bits(running_var.numpy(), dtype), _bits(case["new_running_var"], dtype))
    out.backward(_tensor(case["grad_output"], case["shape"], dtype))
    for leaf, want in zip(leaves, case["grads"]):
        if leaf is not None:
            np.testing.assert_array_equal(_bits(leaf.grad.numpy().reshape(-1), dtype), _bits(want, dtype))


def test_goldens_pass_on_the_numpy_path(monkeypatch):
    from gradcli.engine.kernels import native
    monkeypatch.setattr(native, "batch_norm", lambda: None)
    for case in GOLDENS["cases"][::3]:
        test_batch_norm_forward_is_torchs_to_the_bit(case, monkeypatch)


def test_the_compiled_statistics_are_the_numpy_ones():
    from gradcli.engine.kernels import moments, native
    if native.batch_norm() is None:
        pytest.skip("the compiled library is not built")
    rng = np.random.default_rng(13)
    for shape in ((7, 3, 5), (33, 6), (2, 4, 3, 3), (100, 17)):
        for dtype in (np.float32, np.float64):
            x = (rng.standard_normal(shape) * 5 + 2).astype(dtype)
            for threads in (1, 2, 3):
                compiled = moments.batch_norm_statistics(x, threads)
                reference = moments.batch_norm_statistics_reference(x, threads)
                for a, b in zip(compiled[:2], reference[:2]):
                    np.testing.assert_array_equal(_bits(a, dtype), _bits(b, dtype))


def test_the_compiled_backward_sums_are_the_numpy_ones():
    from gradcli.engine.kernels import moments, native
    if native.batch_norm() is None:
        pytest.skip("the compiled library is not built")
    rng = np.random.default_rng(15)
    for shape in ((7, 3, 5), (33, 6), (2, 4, 3, 3), (100, 17), (3, 2, 20)):
        for dtype in (np.float32, np.float64):
            x = (rng.standard_normal(shape) * 5 + 2).astype(dtype)
            dy = rng.standard_normal(shape).astype(dtype)
            mean = x.mean(axis=tuple(d for d in range(x.ndim) if d != 1)).astype(dtype)
            for threads in (1, 2, 3):
                rows, channels = shape[0], shape[1]
                compiled = native.batch_norm()["sums"](x.reshape(rows, channels, -1), dy.reshape(rows, channels, -1),
                                                       mean, threads)
                reference = moments._batch_norm_sums(x, dy, mean, threads)
                for a, b in zip(compiled, reference):
                    np.testing.assert_array_equal(_bits(np.asarray(a).astype(b.dtype), b.dtype), _bits(b, b.dtype))
