"""`^` is power with power's precedence in PyTorch-style expressions (a silent wrong answer before: `2*x^2`
was evaluated as Python's xor-precedence (2*x)**2), and an expression may start with a minus."""

import json

import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.cli.main import expression_may_start_with_minus

runner = CliRunner()


def _eval(expression, *assignments):
    result = runner.invoke(app, ["eval", "--json", "--no-check", "--", expression, *assignments])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# (expression, x, hand-derived value, hand-derived d/dx)
CASES = [
    ("2*x^2", 3.0, 18.0, 12.0),            # 2x², d = 4x
    ("2 - x^3", 2.0, -6.0, -12.0),         # 2 - x³, d = -3x²
    ("-x^2", 3.0, -9.0, -6.0),             # -(x²), not (-x)²
    ("2^3^2*x", 1.0, 512.0, 512.0),        # right-associative: 2^(3^2) = 512
    ("x^2/4", 2.0, 1.0, 1.0),              # (x²)/4, d = x/2
    ("(x+1)^2 * 3", 1.0, 12.0, 12.0),      # 3(x+1)², d = 6(x+1)
    ("x^-1", 2.0, 0.5, -0.25),             # x⁻¹, d = -1/x²
]


@pytest.mark.parametrize("expression,x,value,grad", CASES)
def test_caret_is_power_with_power_precedence(expression, x, value, grad):
    out = _eval(expression, f"x={x}")
    assert out["output"]["value"] == pytest.approx(value)
    assert out["tensors"]["x"]["grad"] == pytest.approx(grad)


def test_caret_errors_point_at_what_was_typed():
    result = runner.invoke(app, ["eval", "2*x^2 + sigmod(x)", "x=1"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[1] == "  2*x^2 + sigmod(x)"
    assert lines[2] == "          ^^^^^^"  # under 'sigmod' in the typed text, not shifted by the rewrite


def test_caret_inside_a_string_is_left_alone():
    # einsum's equation is a string: only operator tokens are rewritten (x·x summed: 1+4+9)
    out = _eval("einsum('i,i->', x, x)", "x=[1,2,3]")
    assert out["output"]["value"] == 14.0


@pytest.mark.parametrize("argv,expected", [
    (["gradcli", "eval", "-x^2", "x=1"], " -x^2"),
    (["gradcli", "check", "-sin(x)"], " -sin(x)"),
    (["gradcli", "eval", "-c", "z=1"], "-c"),              # a short option stays an option
    (["gradcli", "eval", "--json", "x"], "--json"),
    (["gradcli", "run", "-x^2"], "-x^2"),                  # not an expression command
])
def test_leading_minus_expression_is_an_argument(argv, expected):
    expression_may_start_with_minus(argv)
    assert argv[2] == expected


def test_leading_minus_expression_end_to_end(tmp_path):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "gradcli", "eval", "-1/x", "x=2", "--no-check", "--json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["expression"] == "-1/x"
    assert out["output"]["value"] == -0.5 and out["tensors"]["x"]["grad"] == 0.25  # d(-1/x) = 1/x²
