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

from gradcli.engine import forward_ad, kernels
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
    with kernels.bits("torch"), forward_ad.dual_level():  # the kernels gradcli run computes with
        duals = {k: forward_ad.make_dual(Tensor(values[k]), Tensor(tangents[k])) for k in tangents}
        result = CASES[name](T, duals["x"], duals["y"], duals["w"], Tensor(values["b"]))
        primal, tangent = forward_ad.unpack_dual(result)
    assert tangent is not None
    expected = _array(case["tangent"], tuple(case["shape"]), np.dtype(case["dtype"]))
    assert tangent.array.shape == expected.shape and tangent.array.dtype == expected.dtype
    assert primal.array.dtype == expected.dtype
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


def test_in_place_ops_update_the_tangent_in_place():
    # hand derivation: (3 * [1, 2]) has tangent 3 * [1, 1]; ones + d has d's tangent; a row of a zero base set
    # from d carries d's tangent there and zeros elsewhere
    t = Tensor(np.ones(2))
    with forward_ad.dual_level():
        d = forward_ad.make_dual(Tensor(np.array([1.0, 2.0])), t)
        d.mul_(3)
        assert forward_ad.unpack_dual(d).tangent is t and t.array.tolist() == [3.0, 3.0]
        x = Tensor(np.ones(2))
        x.add_(d)
        assert forward_ad.unpack_dual(x).tangent.array.tolist() == [3.0, 3.0]
        base = Tensor(np.zeros((2, 2)))
        base[1] = d
        assert forward_ad.unpack_dual(base).tangent.array.tolist() == [[0.0, 0.0], [3.0, 3.0]]
        d.zero_()
        assert t.array.tolist() == [0.0, 0.0]


def test_backward_through_dual_ops_inside_the_level_is_refused():
    x = Tensor(np.array([0.5, 1.0]), requires_grad=True)
    with forward_ad.dual_level():
        y = (forward_ad.make_dual(x, Tensor(np.ones(2))) ** 3).sum()
        with pytest.raises(forward_ad.NoForwardFormula, match="forward-over-reverse"):
            y.backward()
    y2 = (x ** 3).sum()  # outside a level nothing is refused
    y2.backward()
    assert x.grad.array.tolist() == [0.75, 3.0]


def test_an_op_around_its_formula_is_refused(monkeypatch):
    # an op that computes on the arrays and builds a fresh tensor (as a composite op might) loses the tangent:
    # the registry's check names it instead of handing back a tensor without one
    from gradcli.engine.ops import registry

    @registry.register("fwad_test_bypass", sig="fwad_test_bypass(input)", doc="test only", category="test",
                       method=False)
    def bypass(input):
        return Tensor(input.array * 2)

    try:
        with forward_ad.dual_level():
            dual = forward_ad.make_dual(Tensor(np.ones(2)), Tensor(np.ones(2)))
            with pytest.raises(forward_ad.NoForwardFormula, match="fwad_test_bypass"):
                bypass(dual)
            assert bypass(Tensor(np.ones(2))).array.tolist() == [2.0, 2.0]  # no dual input: no check
    finally:
        registry.REGISTRY.pop("fwad_test_bypass", None)


def test_func_jvp_of_grad_falls_back_to_reverse_mode():
    # jvp(grad(sum(sin))) = -sin(x) * t (hand derivation), which forward mode refuses (forward-over-reverse)
    code, out, err = run(
        "import torch\nfrom torch.func import jvp, grad\n"
        "x = torch.tensor([0.5, -1.0], dtype=torch.float64)\nt = torch.tensor([1.0, 2.0], dtype=torch.float64)\n"
        "print(jvp(grad(lambda a: a.sin().sum()), (x,), (t,))[1].tolist())\n")
    assert (code, err) == (0, "")
    np.testing.assert_allclose(json.loads(out), -np.sin([0.5, -1.0]) * np.array([1.0, 2.0]), rtol=1e-15)


def test_a_program_reaching_an_op_without_a_formula_is_refused():
    code, out, err = run("import torch\nimport torch.autograd.forward_ad as fwAD\nwith fwAD.dual_level():\n"
                         "    d = fwAD.make_dual(torch.ones(3), torch.ones(3))\n    v = torch.cummax(d, 0)\n")
    assert code == 2 and err.startswith("gradcli run does not support forward-mode AD through cummax")


def test_enter_and_exit_dual_level_as_torch():
    # expected: what torch 2.13 prints for this program (run by hand)
    code, out, err = run("import torch\nimport torch.autograd.forward_ad as fwAD\nlvl = fwAD.enter_dual_level()\n"
                         "print(lvl)\nd = fwAD.make_dual(torch.ones(2), torch.ones(2))\nprint(d * 3)\n"
                         "fwAD.exit_dual_level()\nprint(fwAD.unpack_dual(d).tangent)\n"
                         "try:\n    fwAD.exit_dual_level()\nexcept RuntimeError as e:\n    print(e)\n")
    assert (code, err) == (0, "")
    assert out == ("0\ntensor([3., 3.], tangent=tensor([3., 3.]))\nNone\nDual level must be a positive number.\n")
