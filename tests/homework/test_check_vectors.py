"""Issue 19 §3: a gradient or a Hessian written whole, in homework notation, is checked component by
component against the partial derivatives (by hand: f = x² + y² has ∇f = (2x, 2y), H = [[2, 0], [0, 2]])."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.check import check_derivative

runner = CliRunner()


@pytest.mark.parametrize("answer", ["(2x, 2y)", "<2x, 2y>", "⟨2x, 2y⟩", "2x i + 2y j", "∇f = (2x, 2y)",
                                    "∇f = <2x, 2y>", "grad f = (2x, 2y)"])
def test_a_gradient_in_homework_notation(answer):
    report = check_derivative("x^2 + y^2", [answer])
    assert [(r.wrt, r.verdict) for r in report.results] == [(("x",), "correct"), (("y",), "correct")]


@pytest.mark.parametrize("answer, wrong", [("(2x, 2)", ("y",)), ("<2, 2y>", ("x",)), ("2y i + 2y j", ("x",))])
def test_a_wrong_component_is_named(answer, wrong):
    report = check_derivative("x^2 + y^2", [answer])
    assert [r.wrt for r in report.results if r.verdict == "incorrect"] == [wrong]


def test_three_variables_in_the_order_x_y_z():
    # f = x y z: ∇f = (yz, xz, xy)
    report = check_derivative("x y z", ["yz i + xz j + xy k"])
    assert [r.verdict for r in report.results] == ["correct"] * 3


@pytest.mark.parametrize("answer, exit_code", [("[[2, 0], [0, 2]]", 0), ("H = [[2, 0], [0, 2]]", 0),
                                               ("H = [[2, 0], [0, 3]]", 1), ("[[2, 1], [1, 2]]", 1)])
def test_a_hessian_as_a_matrix(answer, exit_code):
    assert runner.invoke(app, ["check", "x^2 + y^2", "--expect", answer]).exit_code == exit_code


def test_a_hessian_with_mixed_partials():
    # f = x² y: f_xx = 2y, f_xy = f_yx = 2x, f_yy = 0
    report = check_derivative("x^2 y", ["[[2y, 2x], [2x, 0]]"])
    assert [r.verdict for r in report.results] == ["correct"] * 4


def test_a_gradient_of_the_wrong_size_is_refused():
    out = runner.invoke(app, ["check", "x^2 + y^2", "--expect", "(2x, 2y, 0)"])
    assert out.exit_code == 2 and "3 components" in out.stderr
    out = runner.invoke(app, ["check", "x^2 + y^2", "--expect", "[[2, 0, 0], [0, 2, 0]]"])
    assert out.exit_code == 2 and "not 2×2" in out.stderr
