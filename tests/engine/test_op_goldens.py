"""Every op against PyTorch 2.13 goldens (tests/goldens/ops.json): value, grad_fn name, first and second
derivatives, evaluated through gradcli's own parser on float64 tensors."""

from __future__ import annotations

import numpy as np
import pytest
from goldens import assert_close, decode, load

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse

# F.kl_div's reduction='mean' warns as torch does; its goldens cover that reduction on purpose
pytestmark = pytest.mark.filterwarnings("ignore:reduction. 'mean' divides the total loss")

GOLDEN = load("ops.json")
TIERS = ("core", "full")
CASES = [c for c in GOLDEN["cases"] if c["tier"] in TIERS]


pytestmark = pytest.mark.usefixtures("float64_mode")


def _build(case):
    inputs = {n: Tensor(decode(v["value"]), requires_grad=True) for n, v in case["inputs"].items()}
    consts = {n: Tensor(decode(v["value"])) for n, v in case.get("const", {}).items()}
    # the case's names are variables even where they spell an op (a const called `t`)
    program = parse(case["expr"], known_variables=frozenset(inputs) | frozenset(consts))
    out = evaluate(program, EngineBackend({**inputs, **consts}, dtypes.float64))
    return inputs, out


def _grad_output(case, out):
    if case["grad_output"] is None:
        return None
    return Tensor(decode(case["grad_output"]))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] + " " + c["expr"] for c in CASES])
def test_value_grad_fn_and_gradients(case):
    inputs, out = _build(case)
    assert_close(out.array, decode(case["output"]["value"]), what="output")
    assert (out.grad_fn.name if out.grad_fn is not None else None) == case["grad_fn"]
    out.backward(_grad_output(case, out))
    for name, expected in case["grads"].items():
        grad = inputs[name]._grad
        if expected is None:
            assert grad is None, f"{name}.grad should be None"
        else:
            assert grad is not None, f"{name}.grad is None"
            assert_close(grad.array, decode(expected), what=f"{name}.grad")


SECOND = [c for c in CASES if "grad2" in c]


@pytest.mark.parametrize("case", SECOND, ids=[c["id"] + " " + c["expr"] for c in SECOND])
def test_second_derivatives(case):
    inputs, out = _build(case)
    names = list(inputs)
    tensors = [inputs[n] for n in names]
    firsts = engine.grad(out, tensors, grad_outputs=_grad_output(case, out), create_graph=True, allow_unused=True)
    weights = case["grad2_weights"]
    total = None
    for name, g in zip(names, firsts):
        if g is None or not g.requires_grad:
            continue
        term = (g * Tensor(decode(weights[name]))).sum()
        total = term if total is None else total + term
    seconds = [None] * len(names) if total is None else engine.grad(total, tensors, allow_unused=True)
    for name, g2 in zip(names, seconds):
        expected = case["grad2"][name]
        shape = inputs[name].array.shape
        # torch records null where the first gradient had no graph: the second derivative is zero
        want = np.zeros(shape) if expected is None else decode(expected)
        got = np.zeros(shape) if g2 is None else g2.array
        assert_close(got, want, rtol=1e-8, atol=1e-10, what=f"d2/d{name}")


HESSIANS = GOLDEN["hessians"]


@pytest.mark.parametrize("case", HESSIANS, ids=[h["id"] + " " + h["expr"] for h in HESSIANS])
def test_hessian_goldens(case):
    """Full Hessian blocks against torch.autograd.functional.hessian, by differentiating the create_graph
    gradient (gradcli.engine.functional.hessian, what `eval --hessian` uses)."""
    from gradcli.engine import functional

    inputs, out = _build(case)
    assert_close(out.array, decode(case["output"]["value"]), what="output")
    names = list(inputs)
    blocks = functional.hessian(out, [inputs[n] for n in names])
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            assert_close(blocks[i, j], decode(case["hessian"][f"{a},{b}"]), rtol=1e-8, atol=1e-10,
                         what=f"hessian {a},{b}")


# -- coverage: every op gradcli lists has a golden case ---------------------------------------------------

# Categories outside the calculator's differentiable op set: they make tensors (creation), compare them
# (bool results, no gradient), modify them in place (`gradcli run`'s business) or convert dtypes.
# no-gradient: floor_divide, whose PyTorch values are goldens in test_hostile_safety.py (no .grad to compare)
# random (dropout) and method (contiguous, view_as, masked_fill ...): golden programs recorded from PyTorch in
# tests/snippets (110_argmax_argsort_dropout, 111_tensor_methods), values and gradients printed.
UNCOVERED_CATEGORIES = {"creation", "comparison", "inplace", "conversion", "no-gradient", "random", "method"}
_OPERATOR_OPS = {"Add": "add", "Sub": "sub", "Mult": "mul", "Div": "div", "Pow": "pow", "MatMult": "matmul",
                 "USub": "neg"}


def _names_used(expr: str) -> set[str]:
    """Every op name an expression spells: calls (torch.X, F.X, torch.linalg.X as linalg.X, x.X()) and operators."""
    import ast

    used = set()
    for node in ast.walk(ast.parse(expr, mode="eval")):
        if isinstance(node, ast.Call):
            func, parts = node.func, []
            while isinstance(func, ast.Attribute):
                parts.append(func.attr)
                func = func.value
            if isinstance(func, ast.Name):
                parts.append(func.id)
            parts.reverse()
            if parts[:2] == ["torch", "linalg"]:
                used.add("linalg." + parts[-1])
            else:
                used.add(parts[-1])
        elif isinstance(node, (ast.BinOp, ast.UnaryOp)) and type(node.op).__name__ in _OPERATOR_OPS:
            used.add(_OPERATOR_OPS[type(node.op).__name__])
    return used


def test_every_listed_op_has_a_golden_case():
    from gradcli.engine.ops import LINALG, REGISTRY

    used = set()
    for case in GOLDEN["cases"] + GOLDEN["hessians"]:
        used |= _names_used(case["expr"])
    listed = {n for n, s in REGISTRY.items() if s.category not in UNCOVERED_CATEGORIES}
    listed |= {"linalg." + n for n, s in LINALG.items() if s.category not in UNCOVERED_CATEGORIES}
    missing = sorted(listed - used)
    assert not missing, f"ops without a golden case (add them to scripts/make_op_goldens.py): {missing}"


def test_golden_op_list_matches_the_cases():
    ops = {c["op"] for c in GOLDEN["cases"]}
    assert set(GOLDEN["ops"]["full"]) == ops
    assert set(GOLDEN["ops"]["core"]) <= ops
