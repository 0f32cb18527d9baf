"""Homework notations around issue 30 items 2-3: definitions f(x, y) = ..., z = ..., answers ∂f/∂y = ...,
f_y = ..., a function constant in a variable, letters beside constants (6re^(r−1) is 6·r·e^(r−1)).
The truths are derived by hand."""

from __future__ import annotations

import pytest

from gradcli.homework.check import check_derivative
from gradcli.homework.reader import read_homework
from gradcli.safety.errors import GradcliError


def verdicts(function, answers, **options):
    return [r.verdict for r in check_derivative(function, answers, **options).results]


@pytest.mark.parametrize("function, wrt, answer", [
    ("3x^2+1", "y", "0"),  # the issue: f(x, y) = 3x² + 1, f_y = 0
    ("3x^2+1", "y,x", "0"),  # f_yx
    ("x sin x", "t", "0"),
    ("e^(2s)", "r", "0"),
    ("θ^2", "φ", "0"),
    ("x1^2 + x2", "x3", "0"),
])
def test_a_function_constant_in_the_variable_has_derivative_zero(function, wrt, answer):
    assert verdicts(function, [answer], wrt=wrt) == ["correct"]


@pytest.mark.parametrize("function, wrt", [("3x^2+1", "y"), ("x sin x", "t")])
def test_a_nonzero_answer_for_a_constant_direction_is_rejected(function, wrt):
    assert verdicts(function, ["6x"], wrt=wrt) == ["incorrect"]


@pytest.mark.parametrize("wrt", ["xx", "X", "e", "sin"])
def test_a_name_that_is_plainly_not_a_variable_is_still_an_error(wrt):
    with pytest.raises(GradcliError, match="no variable"):
        check_derivative("3x^2+1", ["0"], wrt=wrt)


@pytest.mark.parametrize("function", ["f(x,y) = 3x^2 + 1", "f(x, y) = 3x^2 + 1", "g(x,y)=3x^2+1",
                                      "f(x, y, z) = 3x^2 + 1"])
def test_a_definition_lists_the_variables(function):
    report = check_derivative(function, ["f_x = 6x", "∂f/∂y = 0"])
    assert report.variables[:2] == ["x", "y"]
    assert [r.verdict for r in report.results] == ["correct", "correct"]


@pytest.mark.parametrize("function, wrt, answer, truth", [
    ("g(θ) = sin(θ)/θ", "θ", "(θcos(θ) - sin(θ))/θ^2", "correct"),  # was read as an equation in y
    ("g(θ) = sin(θ)/θ", "θ", "cos(θ)/θ", "incorrect"),
    ("r(θ) = 2cos(θ)", "θ", "-2sin θ", "correct"),
    ("f(r, θ) = r^2 sin(θ)", "θ", "r^2 cos θ", "correct"),
    ("f(r, θ) = r^2 sin(θ)", "r", "r^2 cos θ", "incorrect"),
])
def test_a_definition_in_greek_letters(function, wrt, answer, truth):
    assert verdicts(function, [answer], wrt=wrt) == [truth]


@pytest.mark.parametrize("answer, truth", [
    ("r'(θ) = -2sin θ", "correct"),  # the prime form with a Greek variable was "unexpected character"
    ("r'(θ) = 2sin θ", "incorrect"),
    ("r(θ) = -2sin θ", "correct"),
    ("dr/dθ = -2sin θ", "correct"),
])
def test_an_answer_whose_left_side_names_a_greek_variable(answer, truth):
    assert verdicts("r(θ) = 2cos θ", [answer], wrt="θ") == [truth]


def test_a_definition_with_three_variables_takes_a_whole_gradient():
    report = check_derivative("f(x, y, z) = x^2 y + 5", ["(2xy, x^2, 0)"])
    assert [r.wrt for r in report.results] == [("x",), ("y",), ("z",)]
    assert [r.verdict for r in report.results] == ["correct"] * 3
    report = check_derivative("f(x, y, z) = x^2 y + 5", ["(2xy, x^2, 1)"])
    assert [r.verdict for r in report.results] == ["correct", "correct", "incorrect"]


@pytest.mark.parametrize("function, answer, truth", [
    ("z = x^2 y", "2xy", "correct"),
    ("z = x^2 y", "2x", "incorrect"),
    ("w = e^(xy)", "y e^(xy)", "correct"),
])
def test_a_named_result_with_wrt(function, answer, truth):
    assert verdicts(function, [answer], wrt="x") == [truth]


@pytest.mark.parametrize("answer, truth", [
    ("f_x = 2x y^3", "correct"), ("f_y = 3x^2y^2", "correct"), ("f_xy = 6xy^2", "correct"),
    ("f_{xy} = 6xy^2", "correct"), ("f_yy = 6x^2 y", "correct"), ("f_xx = 2y^3", "correct"),
    ("f_y = 2xy^3", "incorrect"), ("z_x = 2xy^3", "correct"), ("f_x(x, y) = 2xy^3", "correct"),
])
def test_subscript_partials(answer, truth):
    assert verdicts("x^2 y^3", [answer]) == [truth]


@pytest.mark.parametrize("text, read_as", [
    ("6re^(r-1)", "6·r·e^(r − 1)"),  # the issue: r beside e
    ("2tr", "2·t·r"),  # tr is not the trace here
    ("se^s", "s·e^s"), ("te^t", "t·e^t"), ("we^(wx)", "w·e^(w·x)"), ("θe^θ", "θ·e^θ"),
    ("r im", "r·i·m"), ("2πr", "2·π·r"), ("re^(rt)", "r·e^(r·t)"),
    ("sec t", "sec(t)"), ("sech(w)", "sech(w)"), ("exp(r)", "exp(r)"), ("tsec t", "t·sec(t)"),
    ("rsinθ", "r·sin(θ)"),
])
def test_letters_beside_constants_and_function_names(text, read_as):
    assert read_homework(text).read_as == read_as


def test_re_called_is_still_unsupported():
    with pytest.raises(GradcliError, match="re is not supported"):
        read_homework("re(x)")


@pytest.mark.parametrize("function, wrt, answer, truth", [
    ("6e^r", "r", "6re^(r-1)", "incorrect"),  # the issue: was "re is not supported"
    ("6e^r", "r", "6e^r", "correct"),
    ("r e^r", "r", "e^r + re^r", "correct"),
    ("t^2 e^t", "t", "2te^t + t^2e^t", "correct"),
    ("s e^(2s)", "s", "e^(2s) + 2se^(2s)", "correct"),
    ("w e^(-w)", "w", "e^(-w) - we^(-w)", "correct"),
])
def test_answers_with_letters_beside_e(function, wrt, answer, truth):
    assert verdicts(function, [answer], wrt=wrt) == [truth]


@pytest.mark.parametrize("function, answer, wrt", [
    ("log(sec x)", "tan(x)/ln(10)", None),  # OpenStax's log is base 10
    ("x^2 log(x)", "2x log x + x/ln 10", None),
    ("log(x y)", "1/(y ln 10)", "y"),
])
def test_an_answer_right_for_log_base_ten_is_rejected_with_a_hint(function, answer, wrt):
    # gradcli reads log as ln (the reading it shows); the student whose book means log10 learns why
    result = check_derivative(function, [answer], wrt=wrt).results[0]
    assert result.verdict == "incorrect"
    assert result.hint is not None and "right for log base 10" in result.hint


@pytest.mark.parametrize("function, answer", [("log(x)", "2/x"), ("ln(x)", "1/(x ln 10)"),
                                              ("log10(x)", "1/x")])
def test_no_base_ten_hint_where_base_ten_does_not_explain_it(function, answer):
    result = check_derivative(function, [answer]).results[0]
    assert result.verdict == "incorrect" and (result.hint is None or "base 10" not in result.hint)
