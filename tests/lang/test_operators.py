"""`%`, `&`, `|` and `~` in expressions, with PyTorch's meanings: `%` is torch.remainder (Python's modulo, the
sign of the divisor), `&`/`|`/`~` are the bitwise ops on bool (and integer) tensors, as in
`torch.where((x > 0) & (x < 1), ...)`.  Values and gradients here are derived by hand."""

import json

import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app

runner = CliRunner()


def _eval(expression, *assignments, check=False):
    args = ["eval", "--json", *([] if check else ["--no-check"]), "--", expression, *assignments]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_remainder_takes_the_sign_of_the_divisor_and_passes_the_gradient_through():
    out = _eval("((x % 2) * w).sum()", "x=[-3.5, 2.5, 4.0, 7.0]", "w=[1, 2, 3, 4]")
    # Python's modulo: -3.5 % 2 = 0.5 (not C's -1.5), 2.5 % 2 = 0.5, 4 % 2 = 0, 7 % 2 = 1
    assert out["output"]["value"] == 0.5 + 1.0 + 0.0 + 4.0
    assert out["tensors"]["x"]["grad"] == [1.0, 2.0, 3.0, 4.0]  # d(x % c)/dx = 1 between the jumps


def test_remainder_by_a_tensor_differentiates_the_divisor():
    out = _eval("(x % y).sum()", "x=[7.0, -7.0, 5.5]", "y=[2.0, 2.0, -2.0]")
    # x % y = x - y * floor(x / y): d/dy = -floor(x / y) = [-3, 4, 3]
    assert out["output"]["value"] == pytest.approx(1.0 + 1.0 - 0.5)
    assert out["tensors"]["y"]["grad"] == [-3.0, 4.0, 3.0]
    assert out["tensors"]["x"]["grad"] == [1.0, 1.0, 1.0]


def test_and_or_not_combine_conditions():
    out = _eval("torch.where(((x > 1) & (x < 3)) | ~(x > -1), x ** 2, x).sum()", "x=[-2.0, 0.0, 2.0, 4.0]")
    # x**2 where 1 < x < 3 or x <= -1: at -2 and 2; the identity at 0 and 4
    assert out["output"]["value"] == pytest.approx(4.0 + 0.0 + 4.0 + 4.0)
    assert out["tensors"]["x"]["grad"] == [-4.0, 1.0, 4.0, 1.0]


def test_numbers_keep_python_meanings_and_the_cross_check_agrees():
    out = _eval("(7 % 3) * x.sum() + (-7 % 3)", "x=[1.0, 2.0]", check=True)
    assert out["output"]["value"] == pytest.approx(1 * 3.0 + 2)  # -7 % 3 = 2 in Python
    assert out["symbolic"]["status"] == "agrees"


def test_remainder_of_a_variable_has_no_symbolic_form_and_says_so():
    out = _eval("(x % 2).sum()", "x=[1.5, 3.0]", check=True)
    # sympy says why it cannot; the numeric check decides instead (issue 29, item 2): d/dx (x % 2) = 1 here
    assert out["symbolic"]["status"] == "agrees" and out["symbolic"]["decided_by"] == "numeric"
    assert "%" in out["symbolic"]["sympy"]


@pytest.mark.parametrize("expression,message", [
    ("~x", "bitwise_not_cpu\" not implemented for 'Double'"),
    ("(x > 0) & 2.5", "bitwise_and_cpu\" not implemented for 'Double'"),
    ("2 & 3", "& needs bool or integer tensors on both sides"),
])
def test_bitwise_ops_on_floats_are_refused_with_one_line_and_exit_2(expression, message):
    result = runner.invoke(app, ["eval", "--", expression, "x=[1.0, 2.0]"])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
