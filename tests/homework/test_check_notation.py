"""Issue 19 §3: the derivative of a constant with --wrt x (d/dx e² = 0, not 2e), and the operator form of the
left side (d/dx(x²) = 2x, d/dx [x²] = ..., (d/dx) x² = ...), which must differentiate the function checked."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app

runner = CliRunner()


@pytest.mark.parametrize("function", ["e^2", "π^2", "2e", "ln 5", "sqrt(2)"])
def test_a_constant_has_derivative_0_with_wrt(function):
    right = runner.invoke(app, ["check", function, "--wrt", "x", "--expect", "0"])
    assert right.exit_code == 0 and "✓ correct" in right.stdout
    wrong = runner.invoke(app, ["check", function, "--wrt", "x", "--expect", "1"])
    assert wrong.exit_code == 1 and "the derivative is 0" in wrong.stdout


def test_the_classic_mistake_d_dx_e_squared_is_not_2e():
    out = runner.invoke(app, ["check", "e^2", "--wrt", "x", "--expect", "2e"])
    # 2e = 5.436563656918091 (by hand: 2 × 2.718281828459045), the derivative 0
    assert out.exit_code == 1 and "your answer gives 5.436564, the derivative is 0" in out.stdout


def test_a_constant_without_wrt_asks_for_it():
    out = runner.invoke(app, ["check", "e^2", "--expect", "0"])
    assert out.exit_code == 2 and "--wrt x" in out.stderr


@pytest.mark.parametrize("answer", ["d/dx(x^2) = 2x", "d/dx [x^2] = 2x", "(d/dx) x^2 = 2x", "d/dx x^2 = 2x",
                                    "d/dx (x^2) = 2(x)"])
def test_the_operator_form_of_the_left_side(answer):
    out = runner.invoke(app, ["check", "x^2", "--expect", answer])
    assert out.exit_code == 0 and "✓ correct" in out.stdout


def test_the_operator_form_checks_the_answer():
    out = runner.invoke(app, ["check", "x^2", "--expect", "d/dx(x^2) = 3x"])
    assert out.exit_code == 1


def test_the_operator_form_of_a_second_derivative():
    assert runner.invoke(app, ["check", "x^3", "--expect", "d²/dx²(x^3) = 6x"]).exit_code == 0
    assert runner.invoke(app, ["check", "x^3", "--expect", "d^2/dx^2 (x^3) = 3x^2"]).exit_code == 1


def test_the_left_side_must_differentiate_the_function():
    out = runner.invoke(app, ["check", "x^2", "--expect", "d/dx(x^3) = 3x^2"])
    assert out.exit_code == 2 and "differentiates x³, but the function is x²" in out.stderr
    same = runner.invoke(app, ["check", "x*x", "--expect", "d/dx(x^2) = 2x"])  # the same function, written otherwise
    assert same.exit_code == 0


@pytest.mark.parametrize("function, answer", [("|x|", "1"), ("ln|x|", "1/|x|"), ("|x|", "x")])
def test_the_counterexample_is_a_point_a_student_would_pick(function, answer):
    # |x|' = -1 and (ln|x|)' = 1/x = -1 at x = -1, where the answers give 1 (and x gives -1 ≠ ... at x = 2)
    from gradcli.homework.check import check_derivative

    (result,) = check_derivative(function, [answer]).results
    assert result.verdict == "incorrect" and result.counterexample["point"]["x"] in (1.0, 2.0, 0.5, -1.0, 1.5, -0.5)


def test_a_point_on_a_curve_is_printed_exactly():
    # on e^y = x at x = 1, y = 0 exactly (mpmath's root is -1.1e-48 off): the point shows 0
    from gradcli.homework.check import check_derivative

    report = check_derivative("e^y = x", ["e^y"], at={"x": 1.0})
    assert report.at["point"]["y"] == 0.0


def test_a_function_of_a_vector_is_refused_clearly():
    out = runner.invoke(app, ["check", "sum(x^2)", "--expect", "2x"])
    assert out.exit_code == 2 and "function of a vector" in out.stderr and "x^2 + y^2" in out.stderr


# -- issue 30: the Leibniz left side with its parts in parentheses, as a fraction is typed (or copied from a
# rendered answer key: OpenStax prints (dy)/(dx) = ..., (∂z)/(∂y) = ...) ------------------------------------

@pytest.mark.parametrize("function, answer, exit_code", [
    ("y = x^2 - sec x + 1", "(dy)/(dx) = 2x - sec x tan x", 0),
    ("x^2 - sec x + 1", "(d y)/(d x)=2x-sec x tan x", 0),
    ("x^2 - sec x + 1", "(dy)/(dx) = 2x + sec x tan x", 1),  # d/dx sec x = sec x tan x (by hand)
    ("z = x^2 - 3xy + y^2", "(∂z)/(∂y) = -3x + 2y", 0),
    ("z = x^2 - 3xy + y^2", "(∂z)/(∂y) = -3y + 2x", 1),
    ("x^3", "(d^2y)/(dx^2) = 6x", 0),
    ("x^3", "(d²y)/(dx²) = 3x^2", 1),
    ("x^2 y", "(∂^2f)/(∂x∂y) = 2x", 0),
    ("x^2 + y^2 = 1", "(dy)/(dx) = -x/y", 0),
])
def test_a_parenthesized_leibniz_left_side(function, answer, exit_code):
    out = runner.invoke(app, ["check", function, "--expect", answer])
    assert out.exit_code == exit_code, out.output
    assert ("✓ correct" if exit_code == 0 else "✗ incorrect") in out.stdout


def test_a_parenthesized_left_side_that_contradicts_itself_points_at_it():
    out = runner.invoke(app, ["check", "x^3", "--expect", "(d^2y)/(dx) = 6x"])
    assert out.exit_code == 2
    assert "(d^2y)/(dx): the top says a derivative of order 2, the bottom of order 1" in out.stderr
    assert "  (d^2y)/(dx) = 6x\n  ^^^^^^^^^^^\n" in out.stderr


@pytest.mark.parametrize("function, answer, exit_code", [
    # a differential as the books print it (APEX §4.4, OpenStax §4.2): dy = f'(x) dx; derivatives by hand
    ("y = x^2 + 3x - 5", "dy = (2x+3)dx", 0),
    ("y = x^2 + 3x - 5", "dy = (2x + 3) · dx", 0),
    ("y = x^2 + 3x - 5", "dy = (2x - 3) dx", 1),
    ("y = 4/x^4", "dy = -16/x^5 dx", 0),  # (4x⁻⁴)' = −16x⁻⁵
    ("y = 4/x^4", "dy = 16/x^5 dx", 1),
    ("y = 4/x^4", r"dy = \frac{-16}{x^5}dx", 0),
    ("y = 3^x ln x", r"dy = ((\ln 3)3^x\ln x + \frac{3^x}{x})dx", 0),  # product rule, (3^x)' = ln 3·3^x
    ("x^2 + y^2 = 1", "dy = -x/y dx", 0),  # 2x + 2y y' = 0
    ("x^2 + y^2 = 1", "dy = x/y dx", 1),
])
def test_a_differential_answer_is_its_derivative_times_dx(function, answer, exit_code):
    out = runner.invoke(app, ["check", function, "--expect", answer])
    assert out.exit_code == exit_code, out.output
    assert ("✓ correct" if exit_code == 0 else "✗ incorrect") in out.stdout


def test_a_differential_whose_dx_multiplies_only_the_last_term_is_refused():
    out = runner.invoke(app, ["check", "x^2 + 3x", "--expect", "dy = 2x + 3 dx"])
    assert out.exit_code == 2
    assert "the dx multiplies only the last term of a sum" in out.stderr
    assert "dy = (2x + 3) dx" in out.stderr  # the hint


def test_a_differential_by_another_variable_is_refused():
    out = runner.invoke(app, ["check", "x^2 + 3x", "--expect", "dy = (2x + 3) dt"])
    assert out.exit_code == 2 and "derivative by t" in out.stderr


@pytest.mark.parametrize("function, answer, exit_code", [
    # f^(n)(x): the book's notation for a derivative of order 4 and more (APEX §2.3-2.4); by hand:
    # (2cos x)'''' = 2cos x, (x sin x)'''' = x sin x − 4cos x, (x⁶)'''' = 360x², a degree-5 polynomial's 8th = 0
    ("g(x) = 2 cos x", "g^(4)(x) = 2 cos x", 0),
    ("g(x) = 2 cos x", "g^(4)(x) = -2 cos x", 1),
    ("x sin x", r"f^{(4)}(x) = -4\cos x + x\sin x", 0),
    ("x sin x", "f^(4)(x) = -4 cos x - x sin x", 1),
    ("(x^3-5x+2)(x^2+x-7)", "f^(8) = 0", 0),
    ("x^6", "y^(4) = 360x^2", 0),
    ("x^6", "y^(3) = 360x^2", 1),  # (x⁶)''' = 120x³
])
def test_the_nth_derivative_written_f_of_n(function, answer, exit_code):
    out = runner.invoke(app, ["check", function, "--expect", answer])
    assert out.exit_code == exit_code, out.output
    assert ("✓ correct" if exit_code == 0 else "✗ incorrect") in out.stdout


def test_f_of_n_that_contradicts_the_order_asked_points_at_it():
    out = runner.invoke(app, ["check", "x^6", "--order", "3", "--expect", "y^(4) = 360x^2"])
    assert out.exit_code == 2 and "the answer says y^(4)" in out.stderr
