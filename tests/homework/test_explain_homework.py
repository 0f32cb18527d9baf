"""`explain` for students (issue 11): homework notation as well as PyTorch syntax, operands named by the
user's own variables, constants shown, formula and value on separate lines, simplified gradients (binary
cross-entropy), and PyTorch's grad_fn names hidden for homework input.  Numbers are checked against
hand-derived values."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.explain import explain, reads_as_homework

runner = CliRunner()


def sigmoid(z):
    return 1 / (1 + math.exp(-z))


@pytest.mark.parametrize("text, homework", [
    ("ln(1 + e^(wx+b))", True),
    ("2x sin x", True),
    ("sec(x)^2", True),
    ("e^(w*x)", False),  # both readings agree: e^(...) is a power of e in PyTorch syntax too
    ("torch.sigmoid(w*x + b)", False),
    ("x*y + sin(x)", False),
    ("(x**2).sum()", False),
    ("F.relu(x) @ W", False),
])
def test_homework_or_pytorch(text, homework):
    assert reads_as_homework(text, frozenset({"w", "x", "b", "y", "W"})) is homework


def test_softplus_in_homework_notation():
    # L = ln(1 + e^(w·x + b)) at w=1, x=2, b=0: dL/dz = σ(z) with z = 2, dL/dw = x·σ(2), dL/dx = w·σ(2)
    e = explain("ln(1 + e^(wx+b))", {k: np.array(v) for k, v in {"w": 1.0, "x": 2.0, "b": 0.0}.items()})
    assert e.homework
    assert math.isclose(float(e.output), math.log(1 + math.exp(2)))
    assert math.isclose(e.grads["w"], 2 * sigmoid(2)) and math.isclose(e.grads["x"], sigmoid(2))
    assert math.isclose(e.grads["b"], sigmoid(2))
    steps = {s.target: s for s in e.steps}
    assert steps["w"].textbook == "x·σ(w·x + b)" or steps["w"].textbook == "x·e^(w·x + b)/(e^(w·x + b) + 1)"


def test_cli_homework_names_operands_by_the_users_variables():
    out = runner.invoke(app, ["explain", "ln(1 + e^(wx+b))", "w=1", "x=2", "b=0", "--no-color"])
    assert out.exit_code == 0, out.output
    text = out.stdout
    assert "Backward0" not in text  # PyTorch's names hidden for homework input
    assert "∂(w·x)/∂w = x, ∂(w·x)/∂x = w" in text
    assert "a:" not in text and "b:" not in text  # no slot labels that an input b could be confused with
    lines = text.splitlines()
    k = lines.index("  u₁ = w·x")
    assert lines[k + 1] == "     = 2"  # a formula line, then its value


def test_constants_are_shown():
    out = runner.invoke(app, ["explain", "x^2 + 3x", "x=1", "--no-color"]).stdout
    assert "x ^ 2" in out and "∂(x^2)/∂x = 2x" in out and "x^(2 − 1)" not in out  # the rule worked out
    assert "3 · x" in out or "x · 3" in out


def test_binary_cross_entropy_gradient_is_simplified():
    # L = -(y ln σ(z) + (1-y) ln(1-σ(z))), z = w·x + b: dL/dw = x·(σ(z) - y); at w=0.5, x=2, b=-1, y=1:
    # z = 0, σ = 1/2, dL/dw = 2·(1/2 - 1) = -1, dL/dx = 0.5·(-1/2) = -0.25, dL/db = -1/2
    out = runner.invoke(app, ["explain", "--const", "y=1", "--no-color", "--",
                              "-(y ln(sigmoid(wx+b)) + (1-y) ln(1-sigmoid(wx+b)))", "w=0.5", "x=2", "b=-1"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    w = next(i for i, line in enumerate(lines) if line.startswith("  ∂L/∂w ="))
    assert lines[w].endswith("= x·(σ(w·x + b) - y)")
    assert lines[w + 1].endswith("= -1")
    assert any(line.startswith("  ∂L/∂x =") and line.endswith("= w·(σ(w·x + b) - y)") for line in lines)
    assert any(line.startswith("  ∂L/∂b =") and line.endswith("= σ(w·x + b) - y") for line in lines)


def test_torch_names_follow_the_input_and_the_option():
    torch_input = ["explain", "torch.sigmoid(w*x + b)", "w=0.5", "x=2", "b=-1", "--no-color"]
    assert "SigmoidBackward0" in runner.invoke(app, torch_input).stdout
    assert "SigmoidBackward0" not in runner.invoke(app, [*torch_input, "--no-torch-names"]).stdout
    homework = ["explain", "sigmoid(wx + b)", "w=0.5", "x=2", "b=-1", "--no-color"]
    assert "SigmoidBackward0" not in runner.invoke(app, homework).stdout
    assert "SigmoidBackward0" in runner.invoke(app, [*homework, "--torch-names"]).stdout


def test_pytorch_sigmoid_gradient_reads_as_sigma():
    # d/dw σ(w·x + b) = x·σ(z)·(1 - σ(z)); at z = 0: 2·1/4 = 0.5
    out = runner.invoke(app, ["explain", "torch.sigmoid(w*x + b)", "w=0.5", "x=2", "b=-1", "--no-color"]).stdout
    line = next(line for line in out.splitlines() if line.startswith("  ∂L/∂w ="))
    assert "σ(w·x + b)" in line and "1 - σ(w·x + b)" in line and "exp" not in line


def test_homework_parse_error_points_into_the_text():
    out = runner.invoke(app, ["explain", "ln(1 + e^(wx+b)", "w=1", "x=2", "b=0"])
    assert out.exit_code == 2
    assert "gradcli: error:" in out.stderr and "ln(1 + e^(wx+b)\n" in out.stderr and "^" in out.stderr


def test_homework_json():
    data = json.loads(runner.invoke(app, ["explain", "x^2 sin x", "x=1.5", "--json"]).stdout)
    # d/dx x² sin x = 2x sin x + x² cos x at 1.5
    assert math.isclose(data["grads"]["x"], 3 * math.sin(1.5) + 2.25 * math.cos(1.5))
