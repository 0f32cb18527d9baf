"""F.group_norm's forward (output, native_group_norm's mean and rstd) and backward (the gradients of x, weight and
bias) as torch's CPU kernels compute them (group_norm_kernel.cpp: RowwiseMoments per (n, group), rstd in double,
the fused affine step; the backward's per-(n, c) sums, per-group weighted sums, dgamma and dbeta over n), bit for
bit against PyTorch 2.13 (tests/goldens/group_norm.json.gz, recorded by scripts/make_group_norm_goldens.py)."""

from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import engine
from gradcli.engine import kernels
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.kernels import moments
from gradcli.engine.ops.nn_functional import group_norm

GOLDENS = json.loads(gzip.decompress((Path(__file__).parent.parent / "goldens" / "group_norm.json.gz").read_bytes()))
DTYPES = {"float32": np.float32, "float64": np.float64}


def _array(text, dtype, shape=(-1,)):
    return None if text is None else np.frombuffer(base64.b64decode(text), dtype=dtype).reshape(shape)


def _bits(a):
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(f"u{a.itemsize}")


def _id(case):
    affine = "w" * (case["weight"] is not None) + "b" * (case["bias"] is not None)
    return f"{case['dtype']}-{case['shape']}-g{case['groups']}-{affine or 'plain'}-{case['layout']}"


def _strides_order(a):
    return sorted(range(a.ndim), key=lambda d: -a.strides[d])


@pytest.mark.parametrize("case", GOLDENS["cases"], ids=_id)
def test_group_norm_forward_and_backward_are_torchs_to_the_bit(case, monkeypatch):
    monkeypatch.setattr(kernels, "THREADS", GOLDENS["threads"])  # the channels-last kernels split rows by it
    dtype = DTYPES[case["dtype"]]
    c = case["shape"][1]
    arrays = [_array(case["x"], dtype, case["shape"]).copy(), _array(case["weight"], dtype, (c,)),
              _array(case["bias"], dtype, (c,))]
    channels_last = case.get("layout") == "channels_last"
    leaves = [None if a is None else engine.tensor(a, requires_grad=True) for a in arrays]
    if channels_last:  # x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2), as a program makes it
        order = (0,) + tuple(range(2, len(case["shape"]))) + (1,)
        memory = engine.tensor(np.ascontiguousarray(arrays[0].transpose(order)))
        leaves[0] = memory.permute(*np.argsort(order).tolist()).requires_grad_()
        arrays[0] = leaves[0].detach().numpy()
        assert moments.is_channels_last(arrays[0].shape, [st // arrays[0].itemsize for st in arrays[0].strides])
    out = group_norm(leaves[0], case["groups"], leaves[1], leaves[2], case["eps"])
    np.testing.assert_array_equal(_bits(out.detach().numpy()), _bits(_array(case["out"], dtype)))
    if channels_last:  # the result, and x's gradient, in x's layout (their later sums add in its order)
        assert _strides_order(out.detach().numpy()) == _strides_order(arrays[0])
    grad_output = engine.tensor(_array(case["grad_output"], dtype, case["shape"]).copy())
    if case["error"] is not None:
        with pytest.raises(TorchRuntimeError, match=case["error"]):
            out.backward(grad_output)
        return
    out.backward(grad_output)
    for leaf, want in zip(leaves, case["grads"]):
        if leaf is not None:
            np.testing.assert_array_equal(_bits(leaf.grad.numpy()), _bits(_array(want, dtype)))
    if channels_last:
        assert _strides_order(leaves[0].grad.numpy()) == _strides_order(arrays[0])


@pytest.mark.parametrize("case", [c for c in GOLDENS["cases"] if c["layout"] == "contiguous"][::3], ids=_id)
def test_group_norm_statistics_are_torchs_mean_and_rstd(case):
    dtype = DTYPES[case["dtype"]]
    shape = case["shape"]
    x = _array(case["x"], dtype, (shape[0], shape[1], -1))
    _, mean, rstd = moments.group_norm_forward(x, None, None, case["groups"], case["eps"])
    np.testing.assert_array_equal(_bits(mean), _bits(_array(case["mean"], dtype)))
    np.testing.assert_array_equal(_bits(rstd), _bits(_array(case["rstd"], dtype)))


def test_goldens_pass_on_the_numpy_path(monkeypatch):
    """Without the compiled kernels (GRADCLI_NATIVE=0): the numpy RowwiseMoments, sums and fused multiply-adds."""
    from gradcli.engine.kernels import native
    for name in ("rowwise_moments", "fma", "group_norm"):
        monkeypatch.setattr(native, name, lambda: None)
    for case in GOLDENS["cases"][::4]:
        test_group_norm_forward_and_backward_are_torchs_to_the_bit(case, monkeypatch)


def test_the_docs_example_weight_gradient_is_torchs():
    """nn.GroupNorm(1, 6)'s weight gradient in its documentation's example (issue 28's corpus): torch sums ds and
    db per (n, c) first; summing dy * xhat over (n, H*W) gave 1429.0275 for torch's 1429.0276."""
    golden = next(c for c in GOLDENS["cases"] if c["shape"] == [4, 6, 10, 10] and c["weight"] is not None)
    dtype = DTYPES[golden["dtype"]]
    x = engine.tensor(_array(golden["x"], dtype, golden["shape"]).copy(), requires_grad=True)
    w = engine.tensor(_array(golden["weight"], dtype).copy(), requires_grad=True)
    b = None if golden["bias"] is None else engine.tensor(_array(golden["bias"], dtype).copy(), requires_grad=True)
    group_norm(x, golden["groups"], w, b, golden["eps"]).backward(
        engine.tensor(_array(golden["grad_output"], dtype, golden["shape"]).copy()))
    np.testing.assert_array_equal(_bits(w.grad.numpy()), _bits(_array(golden["grads"][1], dtype)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 6, 1), (3, 8, 7), (2, 12, 8), (2, 4, 37), (1, 16, 200)])
def test_the_compiled_kernels_compute_the_numpy_forms_bits(dtype, shape, monkeypatch):
    """native_math.c's GROUP_NORM against moments.py's numpy forms, bit for bit, on random and special values
    (zeros, infinities, nan, huge and tiny numbers)."""
    from gradcli.engine.kernels import native
    if native.group_norm() is None:
        pytest.skip("the compiled kernels are not built")
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 3).astype(dtype)
    dy = rng.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    flat[::11] = 0
    flat[5::29] = dtype(1e30)
    dy.reshape(-1)[3::31] = dtype(1e-30)
    weight, bias = rng.standard_normal(shape[1]).astype(dtype), rng.standard_normal(shape[1]).astype(dtype)
    groups = 2 if shape[1] % 2 == 0 else 1
    with np.errstate(all="ignore"):
        compiled = moments.group_norm_forward(x, weight, bias, groups, 1e-5)
        compiled_back = moments.group_norm_backward(dy, x, compiled[1], compiled[2], weight, groups, True, True, True)
        monkeypatch.setattr(native, "group_norm", lambda: None)
        reference = moments.group_norm_forward(x, weight, bias, groups, 1e-5)
        reference_back = moments.group_norm_backward(dy, x, reference[1], reference[2], weight, groups, True, True,
                                                     True)
    for got, want in zip(compiled + compiled_back, reference + reference_back):
        np.testing.assert_array_equal(_bits(got), _bits(want))
