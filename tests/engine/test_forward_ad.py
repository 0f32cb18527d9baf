"""Forward-mode AD (engine/forward_ad.py) against torch 2.13: the tangents of tests/forward_ad_cases.py recorded
by scripts/make_forward_ad_goldens.py (bit for bit, or within the ulps the cases file states), and torch's
error texts for make_dual outside a level, a tangent of another size, nested levels."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from forward_ad_cases import CASES, ULPS

from gradcli.engine import forward_ad
from gradcli.engine.errors import TorchRuntimeError, TorchValueError
from gradcli.engine.tensor import Tensor
from gradcli.run import api, run_source

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "forward_ad.json").read_text())
TORCH = api.modules()["torch"]
T = SimpleNamespace(**TORCH.members)
T.nn = SimpleNamespace(functional=SimpleNamespace(**api.modules()["torch.nn.functional"].members))


def _array(hexes, shape, dtype):
    return np.array([float.fromhex(h) for h in hexes], dtype=np.float64).astype(dtype).reshape(shape)


def _ulps(a, b):
    a, b = np.asarray(a), np.asarray(b)
    spacing = np.spacing(np.maximum(np.abs(a), np.abs(b)).astype(a.dtype))
    return np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)) / spacing.astype(np.float64), initial=0)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_tangent_is_torchs(name, dtype):
    np_dtype = np.float64 if dtype == "float64" else np.float32
    inputs = GOLDEN["inputs"][dtype]
    values = {k: _array(v, inputs["shapes"][k], np_dtype) for k, v in inputs["values"].items()}
    tangents = {k: _array(v, inputs["shapes"][k], np_dtype) for k, v in inputs["tangents"].items()}
    case = GOLDEN["cases"][name][dtype]
    with forward_ad.dual_level():
        duals = {k: forward_ad.make_dual(Tensor(values[k]), Tensor(tangents[k])) for k in tangents}
        result = CASES[name](T, duals["x"], duals["y"], duals["w"], Tensor(values["b"]))
        primal, tangent = forward_ad.unpack_dual(result)
    assert tangent is not None
    expected = _array(case["tangent"], tuple(case["shape"]), np_dtype)
    assert tangent.array.shape == expected.shape and tangent.array.dtype == np_dtype
    bound = ULPS.get(name, 0)
    if bound == 0:
        np.testing.assert_array_equal(tangent.array, expected)
    else:
        assert _ulps(tangent.array, expected) <= bound


def test_tangent_kept_when_layouts_match_copied_when_not():
    x, t = Tensor(np.ones((2, 3))), Tensor(np.arange(6.0).reshape(2, 3))
    with forward_ad.dual_level():
        assert forward_ad.unpack_dual(forward_ad.make_dual(x, t)).tangent is t
        other = Tensor(np.arange(6.0).reshape(3, 2)).T  # a transposed layout: torch copies it
        kept = forward_ad.unpack_dual(forward_ad.make_dual(x, other)).tangent
        assert kept is not other and kept.array.tolist() == other.array.tolist()
        dual = forward_ad.make_dual(x, t)
    assert forward_ad.unpack_dual(dual).tangent is None  # the level is closed
    assert forward_ad.unpack_dual(x).tangent is None and forward_ad.unpack_dual(3) == (3, None)


def test_torchs_error_texts():
    x = Tensor(np.ones(3))
    with pytest.raises(TorchRuntimeError, match=r"^Trying to create a dual Tensor for forward AD but no level "
                                                r"exists, make sure to enter_dual_level\(\) first\.$"):
        forward_ad.make_dual(x, x)
    with forward_ad.dual_level():
        with pytest.raises(TorchRuntimeError, match="^Nested forward mode AD is not supported at the moment$"):
            with forward_ad.dual_level():
                pass
        with pytest.raises(TorchRuntimeError, match=r"Tensor is of size \[3\] while the given forward gradient "
                                                    r"is of size \[4\]\.$"):
            forward_ad.make_dual(x, Tensor(np.ones(4)))
        with pytest.raises(TorchValueError, match="^Expected tangent to be floating point or complex, but got: "
                                                  "torch.int64$"):
            forward_ad.make_dual(x, Tensor(np.arange(3)))


def test_an_op_without_a_formula_is_refused_never_a_zero_tangent():
    with forward_ad.dual_level():
        dual = forward_ad.make_dual(Tensor(np.ones(3)), Tensor(np.ones(3)))
        with pytest.raises(forward_ad.NoForwardFormula, match="cummax"):
            T.cummax(dual, 0)


def run(source):
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "prog.py", stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_custom_function_jvp_and_func_jvp_in_a_program():
    # the values: d/dx exp(x) . t = exp(x) * t; x**2 + y**2 -> 2 x tx + 2 y ty (hand derivation)
    code, out, err = run(
        "import torch\nimport torch.autograd.forward_ad as fwAD\nimport functorch as ft\n"
        "class Fn(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
        "        ctx.result = torch.exp(x)\n        return ctx.result\n"
        "    @staticmethod\n    def jvp(ctx, g):\n        out = g * ctx.result\n        del ctx.result\n"
        "        return out\n"
        "x = torch.tensor([0.0, 1.0], dtype=torch.double)\n"
        "with fwAD.dual_level():\n    print(fwAD.unpack_dual(Fn.apply(fwAD.make_dual(x, torch.ones(2, "
        "dtype=torch.double)))).tangent)\n"
        "p, t = ft.jvp(lambda a, b: a ** 2 + b ** 2, (torch.tensor([1.0, 2.0]), torch.tensor([3.0])), "
        "(torch.tensor([1.0, 1.0]), torch.tensor([2.0])))\nprint(p, t)\n"
        "m = torch.nn.Linear(2, 1)\nfunc, params, buffers = ft.make_functional_with_buffers(m)\n"
        "print(len(params), buffers)\n")
    assert (code, err) == (0, "")
    assert out == ("tensor([1.0000, 2.7183], dtype=torch.float64)\n"
                   "tensor([10., 13.]) tensor([14., 16.])\n2 ()\n")
