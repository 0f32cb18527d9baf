"""Hostile and careless input: no silent wrong answers, clear errors, PyTorch fidelity (issue 8).

Expected values are worked out by hand (or are PyTorch's, noted where so), never taken from the code under test.
"""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from gradcli.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -- user bindings shadow the constants pi, e, nan, inf (as in Python) --------------------------------

@pytest.mark.parametrize("name", ["pi", "e", "nan", "inf"])
@pytest.mark.parametrize("as_const", [False, True])
def test_a_tensor_named_like_a_constant_shadows_it(name, as_const):
    # x + 2*NAME at x=1, NAME=100: output 201, d/dx = 1, d/dNAME = 2 (hand-derived)
    given = ["--const", f"{name}=100"] if as_const else [f"{name}=100"]
    obj = run_json("eval", f"x + 2*{name}", "x=1", *given)
    assert obj["output"]["value"] == 201.0
    assert obj["tensors"]["x"]["grad"] == 1.0
    assert obj["tensors"][name]["grad"] == (None if as_const else 2.0)
    # the sympy cross-check differentiates by the tensor's symbol, not by the constant
    assert obj["symbolic"]["status"] == "agrees"
    if not as_const:
        assert obj["symbolic"]["formulas"][name] == ["2"]


def test_shadowed_constant_in_the_table_and_in_explain():
    result = run("eval", "x+pi", "x=1", "pi=100", "--no-color")
    assert result.exit_code == 0
    assert "101.0" in result.stdout and "4.14159" not in result.stdout
    explained = run("explain", "x*pi", "x=1", "pi=100", "--json")
    assert explained.exit_code == 0, explained.output
    obj = json.loads(explained.stdout)
    assert obj["output"] == 100.0 and obj["grads"] == {"x": 100.0, "pi": 1.0}


def test_unshadowed_constants_still_work():
    obj = run_json("eval", "x*pi + e", "x=1")
    assert obj["output"]["value"] == pytest.approx(math.pi + math.e)
    assert obj["tensors"]["x"]["grad"] == pytest.approx(math.pi)


@pytest.mark.parametrize("expression, name, message", [
    ("sin(x)", "sin", "'sin' is a tensor you gave (sin=...), so it cannot be called"),
    ("torch.sin(x)", "torch", "'torch' is a tensor you gave (torch=...) and also the namespace of torch.sin"),
    ("F.relu(x)", "F", "'F' is a tensor you gave (F=...) and also the namespace of F.relu"),
    ("x*math.pi", "math", "'math' is a tensor you gave (math=...) and also the namespace of math.pi"),
])
def test_a_tensor_named_like_a_function_or_namespace_is_never_silently_ignored(expression, name, message):
    result = run("eval", expression, "x=1", f"{name}=3")
    assert result.exit_code == 2
    assert f"gradcli: error: {message}" in result.stderr
    assert "internal error" not in result.stderr


def test_a_tensor_named_like_a_function_works_as_a_value():
    obj = run_json("eval", "sin*x + torch", "x=2", "sin=3", "torch=5")
    assert obj["output"]["value"] == 11.0
    assert obj["tensors"]["x"]["grad"] == 3.0 and obj["tensors"]["sin"]["grad"] == 2.0
    assert obj["tensors"]["torch"]["grad"] == 1.0


@pytest.mark.parametrize("name, message", [
    ("True", "'True' is a Python keyword and cannot name a tensor"),
    ("lambda", "'lambda' is a Python keyword and cannot name a tensor"),
    ("\uff58", "the tensor name '\uff58' is read as 'x' in an expression"),  # fullwidth x: NFKC gives x
])
def test_names_an_expression_cannot_refer_to_are_refused(name, message):
    result = run("eval", "y+1", "y=1", f"{name}=5")
    assert result.exit_code == 2
    assert f"gradcli: error: {message}" in result.stderr


def test_fullwidth_name_cannot_silently_pick_another_tensor():
    # Python reads the expression's fullwidth x as x: with x=1 and fullwidth-x=100 given, never answer 1
    result = run("eval", "\uff58", "x=1", "\uff58=100")
    assert result.exit_code == 2
    assert "is read as 'x'" in result.stderr


@pytest.mark.parametrize("name", ["u1", "L"])
def test_explain_refuses_input_names_that_collide_with_its_step_names(name):
    result = run("explain", f"sin(x*{name})", "x=1", f"{name}=2")
    assert result.exit_code == 2
    assert f"gradcli: error: '{name}' names a step of the explanation" in result.stderr
