"""The differential-fuzz findings of issue 28, through `gradcli eval --json` (and `--hessian`), against
PyTorch 2.13's values in tests/goldens/issue28_fuzz.json (scripts/make_issue28_fuzz_goldens.py): a slice of a
shape (x.shape[-1:] was refused), Hessians whose first-order pass handed a differentiable gradient to the
numpy unbroadcast (an internal error), linalg.norm(ord=1/inf) of an empty matrix (amax's error), and
cross_entropy over zero classes ('division by zero')."""

from __future__ import annotations

import json

import numpy as np
import pytest
from goldens import GOLDEN_DIR
from typer.testing import CliRunner

from gradcli import engine
from gradcli.cli.commands import app
from gradcli.engine import dtypes
from gradcli.engine.ops.losses import cross_entropy
from gradcli.engine.tensor import Tensor

GOLDEN = json.loads((GOLDEN_DIR / "issue28_fuzz.json").read_text())["cases"]
EVAL_CASES = [c for c in GOLDEN if "expr" in c]
runner = CliRunner()


def _value(values) -> str:
    array = np.array(values, dtype=np.float64)
    return f"zeros({','.join(map(str, array.shape))})" if array.size == 0 else json.dumps(values)


@pytest.mark.parametrize("case", EVAL_CASES, ids=[c["expr"] for c in EVAL_CASES])
def test_fuzz_finding_matches_torch(case):
    args = ["eval", case["expr"], *[f"{k}={_value(v)}" for k, v in case["leaves"].items()]]
    for k, v in case["consts"].items():
        args += ["--const", f"{k}={_value(v)}"]
    args += ["--json", "--no-check"] + (["--hessian"] if "hessian" in case else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    np.testing.assert_allclose(data["output"]["value"], case["output"], rtol=1e-12, atol=1e-14)
    for name, grad in case["grads"].items():
        got = np.array(data["tensors"][name]["grad"], dtype=np.float64)
        np.testing.assert_allclose(got, np.array(grad, dtype=np.float64).reshape(got.shape), rtol=1e-10,
                                   atol=1e-14, err_msg=name)
    for block, want in case.get("hessian", {}).items():
        np.testing.assert_allclose(np.array(data["hessian"][block], dtype=np.float64), np.array(want),
                                   rtol=1e-10, atol=1e-14, err_msg=block)


def test_cross_entropy_over_zero_classes():
    want = next(c for c in GOLDEN if "cross_entropy_zero_classes" in c)["cross_entropy_zero_classes"]
    x = Tensor(np.zeros((2, 0), np.float32), requires_grad=True)
    p = Tensor(np.zeros((2, 0), np.float32))
    got = {"mean": cross_entropy(x, p), "sum": cross_entropy(x, p, reduction="sum"),
           "smoothed": cross_entropy(x, p, label_smoothing=0.1)}
    for key, (value, grad_fn) in want.items():
        out = got[key]
        assert (np.isnan(out.item()) if value is None else out.item() == value), key
        assert out.grad_fn.name == grad_fn, key
    got["smoothed"].backward()
    assert x.grad.shape == (2, 0)


def test_a_shape_slice_is_a_size():
    x = engine.zeros(2, 3, 4, dtype=dtypes.float32)
    assert repr(x.shape[-1:]) == "torch.Size([4])" and repr(x.shape[:0]) == "torch.Size([])"
    assert x.shape[1] == 3 and type(x.shape[1]) is int
