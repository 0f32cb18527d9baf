"""`gradcli check` must never call a wrong answer correct: the soundness rules of issue 10, each with a case
whose verdict is known by hand, and property tests (a sympy derivative printed in homework notation is
accepted; the same with a factor, a sign, a constant or a dropped chain factor is rejected)."""

from __future__ import annotations

import json
import re

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.check import check_derivative
from gradcli.homework.reader import read_homework
from gradcli.safety.errors import GradcliError

runner = CliRunner()


def verdict(function, answer, **options):
    (result,) = check_derivative(function, [answer], formulas="needed", **options).results
    return result


# -- letter runs are products; --var; --wrt must name a variable ------------------------------------------

def test_xy_is_x_times_y_so_2x_is_not_the_partial():
    assert verdict("x^2 + xy", "2x", wrt="x").verdict == "incorrect"
    assert verdict("x^2 + xy", "2x + y", wrt="x").verdict == "correct"


def test_declared_variable():
    assert verdict("rate^2 t", "2 rate t", wrt="rate", variables=["rate"]).verdict == "correct"
    with pytest.raises(GradcliError, match="no variable 'rate'"):
        check_derivative("rate^2 t", ["2 rate t"], wrt="rate")  # without --var: r·a·t·e


@pytest.mark.parametrize("wrt, hint", [("X", "did you mean x?"), ("zz", "the variables are x, y"),
                                       ("e", "the variables are x, y")])
def test_wrt_must_be_a_variable_of_the_function(wrt, hint):
    with pytest.raises(GradcliError) as info:
        check_derivative("x^2 + xy", [], wrt=wrt)
    assert hint in info.value.hint


def test_unknown_function_names_are_errors_never_variables():
    with pytest.raises(GradcliError, match="unknown function 'foo'"):
        check_derivative("foo(x)", ["1"])
    with pytest.raises(GradcliError, match="erf is not supported"):
        check_derivative("erf(x)", ["1"])
    assert read_homework("sinx").read_as == "sin(x)" and read_homework("sinx").reinterpreted


def test_an_answer_in_a_variable_the_function_lacks_is_incorrect():
    result = verdict("x^2", "2z")
    assert result.verdict == "incorrect" and "depends on z" in result.reason


# -- scale ------------------------------------------------------------------------------------------------

def test_tiny_derivatives_are_compared_relative_to_their_size():
    assert verdict("6.67e-11 M m/r^2", "-6.67e-11 M m/r^3", wrt="r").verdict == "incorrect"  # factor 2 missing
    assert verdict("6.67e-11 M m/r^2", "-2·6.67e-11 M m/r^3", wrt="r").verdict == "correct"
    assert verdict("1e-9 x^2", "1e-9 x").verdict == "incorrect"
    assert verdict("1e-30 x^2", "0").verdict == "incorrect"
    assert verdict("1e30 + x", "1").verdict == "correct"
    assert verdict("1e30 + x", "2").verdict == "incorrect"


# -- rounded constants ------------------------------------------------------------------------------------

@pytest.mark.parametrize("function, answer, digits, name", [
    ("10^x", "2.302585·10^x", 7, "ln(10)"),
    ("2^x", "0.693147 2^x", 6, "ln(2)"),
    ("log10(x)", "0.4342945/x", 7, "1/ln(10)"),
    ("sin(pi x)", "3.14159 cos(pi x)", 6, "π"),
])
def test_rounded_constants_are_not_exact(function, answer, digits, name):
    result = verdict(function, answer)
    assert result.verdict == "incorrect"
    typed = re.split(r"[ ·/]", answer)[0]
    assert result.hint == f"agrees to {digits} significant digits: write {name} exactly, not {typed}"


def test_a_nearly_right_coefficient_is_incorrect():
    result = verdict("x^2", "2.000001x")
    assert result.verdict == "incorrect" and "6 significant digits" in result.hint


def test_a_tiny_real_difference_is_a_difference():
    assert verdict("x^3", "3x^2 + 1e-25").verdict == "incorrect"
    assert verdict("x", "1 + 1e-30").verdict == "incorrect"


def test_rounding_noise_of_an_exact_answer_is_not_a_difference():
    assert verdict("sin(x)^2 + cos(x)^2", "0").verdict == "correct"
    assert verdict("(x+1)^2 - x^2 - 2x", "0").verdict == "correct"


def test_a_letter_with_digits_is_one_variable():
    # by hand: ∂/∂x1 (x1² x2) = 2·x1·x2; x1² was read as x·1², whose derivative is 1, and 2x1 as 2x
    assert verdict("x1^2 x2", "2x1 x2", wrt="x1").verdict == "correct"
    assert verdict("x1^2", "2x1").verdict == "correct"
    assert verdict("x1^2", "1").verdict == "incorrect"


def test_an_exponent_typed_in_superscripts_is_one_exponent():
    # by hand: d/dx x³ = 3x² = 3x³⁻¹; 3x³⁻¹ was read as 3x³ − 1 and rejected
    assert verdict("x^3", "3x³⁻¹").verdict == "correct"
    assert verdict("e⁻ˣ", "-e^(-x)").verdict == "correct"


def test_pi_typed_in_a_term_belongs_to_the_term():
    # by hand: d/dx sin(2πx) = 2π cos(2πx); d/dx ln(πx) = 1/x
    assert verdict("sin 2πx", "2π cos 2πx").verdict == "correct"
    assert verdict("sin 2πx", "cos 2πx").verdict == "incorrect"
    assert verdict("ln πx", "1/x").verdict == "correct"


# -- domains -----------------------------------------------------------------------------------------------

def test_points_are_found_where_the_derivative_is_defined():
    result = verdict("ln(x - 12)", "1/(x-12)")
    assert result.verdict == "correct" and result.points >= 6
    assert verdict("ln(x - 12)", "1/x").verdict == "incorrect"
    assert verdict("sqrt(x - 1000)", "1/(2sqrt(x-1000))").verdict == "correct"
    assert verdict("arcsin(x)", "1/sqrt(1-x^2)").verdict == "correct"
    assert verdict("arcsin(x/100)", "1/sqrt(10000-x^2)").verdict == "correct"


@pytest.mark.parametrize("function, answer, truth", [
    # by hand: d/dx √(10⁻⁸ − x²) = −x/√(10⁻⁸ − x²) on |x| < 10⁻⁴; d/dx arcsin(1000x) = 1000/√(1 − 10⁶x²) on
    # |x| < 10⁻³; d/dx [√(x − 1000) + √(1001 − x)] = 1/(2√(x − 1000)) − 1/(2√(1001 − x)) on 1000 < x < 1001
    ("sqrt(1e-8 - x^2)", "-x/sqrt(1e-8 - x^2)", "correct"),
    ("sqrt(1e-8 - x^2)", "-|x|/sqrt(1e-8 - x^2)", "incorrect"),  # was undecided: no point found
    ("arcsin(1000x)", "1000/sqrt(1 - 1000000x^2)", "correct"),
    ("arcsin(1000x)", "1000 sign(x)/sqrt(1 - 1000000x^2)", "incorrect"),
    ("sqrt(x-1000) + sqrt(1001-x)", "1/(2sqrt(x-1000)) - 1/(2sqrt(1001-x))", "correct"),
    ("sqrt(x-1000) + sqrt(1001-x)", "1/(2sqrt(x-1000)) - 1/(2sqrt(1001-x)) + 1e-9 (x - 1000)", "incorrect"),
])
def test_a_narrow_domain_is_sampled_enough_to_decide_by_numbers(function, answer, truth):
    result = verdict(function, answer)
    assert result.verdict == truth and result.decided_by.startswith(("numbers", "sympy")) and result.points >= 20


def test_an_answer_right_on_part_of_the_domain_is_incorrect():
    result = verdict("sqrt(x^2)", "1")
    assert result.verdict == "incorrect" and result.counterexample["point"]["x"] < 0
    assert verdict("arcsec(x)", "1/(x sqrt(x^2-1))").verdict == "incorrect"  # wrong for x < -1
    assert verdict("relu(x - 1)", "(1 + sign(x))/2").verdict == "incorrect"  # wrong on (0, 1)


@pytest.mark.parametrize("answer", ["2x + relu(x - 500)", "2x + relu(-x - 20)", "2x + max(0, x^2 - 10000)",
                                    "2x + relu(x - 5)"])
def test_an_answer_wrong_only_far_away_is_incorrect(answer):
    assert verdict("x^2", answer).verdict == "incorrect"


def test_an_answer_undefined_on_part_of_the_domain_is_incorrect():
    result = verdict("x^2", "2 sqrt(x)^2")
    assert result.verdict == "incorrect" and result.counterexample["expected"] is None
    assert verdict("ln|x|", "1/x").verdict == "correct"
    assert verdict("ln(x)", "1/|x|").verdict == "correct"  # on the domain x > 0 they are equal


# The derivative of each function does not exist at x = 1 (or x = ±1, x = 2): a kink of |x − 1| written without
# abs, a vertical tangent of a cube root.  Each answer is the derivative everywhere else (by hand: d|u|/dx =
# u'·u/|u|, d∛u/dx = u'/(3∛u²)), but undefined at that point, which the sampling tries (1, 2, -1 are among its
# round values).  mpmath's central difference gives a number there (0, or 10²⁹): not a point of the domain.
@pytest.mark.parametrize("function, answer", [
    ("sqrt((x-1)^2)", "(x-1)/sqrt((x-1)^2)"), ("sqrt(x^2-2x+1)", "(x-1)/|x-1|"),
    ("cbrt(x-1)", "1/(3 cbrt(x-1)^2)"), ("(x-2)^(2/3)", "2/(3 cbrt(x-2))"),
    ("cbrt(x^2-1)", "2x/(3 cbrt(x^2-1)^2)"),
])
def test_an_answer_undefined_only_where_the_derivative_is_undefined_is_correct(function, answer):
    x = sp.Symbol("x", real=True)
    translations = {"sqrt((x-1)^2)": (sp.sqrt((x - 1) ** 2), (x - 1) / sp.sqrt((x - 1) ** 2)),
                    "sqrt(x^2-2x+1)": (sp.sqrt(x ** 2 - 2 * x + 1), (x - 1) / sp.Abs(x - 1)),
                    "cbrt(x-1)": (sp.real_root(x - 1, 3), 1 / (3 * sp.real_root(x - 1, 3) ** 2)),
                    "(x-2)^(2/3)": (sp.real_root(x - 2, 3) ** 2, 2 / (3 * sp.real_root(x - 2, 3))),
                    "cbrt(x^2-1)": (sp.real_root(x ** 2 - 1, 3), 2 * x / (3 * sp.real_root(x ** 2 - 1, 3) ** 2))}
    f, expected = translations[function]
    for value in (-2.5, -0.5, 0.5, 1.5, 3.5):  # the hand derivation, away from the singular points
        assert abs(complex(sp.N((sp.diff(f, x) - expected).subs(x, value), 30))) < 1e-25
    assert verdict(function, answer).verdict == "correct"


@pytest.mark.parametrize("function, answer", [
    ("sqrt((x-1)^2)", "1/(x-1)"), ("cbrt(x-1)", "1/(3 cbrt(x-1))"), ("x^2", "2x + 0/(x-1)"),
    ("(x-1)^2", "2(x-1)(x-1)/(x-1)"), ("(x-1)^3", "3(x-1)^2 + 0/(x-1)"),
])
def test_an_answer_undefined_where_the_derivative_exists_is_still_incorrect(function, answer):
    assert verdict(function, answer).verdict == "incorrect"  # derivative 0 or 2 at x = 1, the answer undefined


@pytest.mark.parametrize("function, answer", [("cos(1000000 pi x)", "0"), ("x^2", "2x + sin(1000000 pi x)"),
                                              ("|x - 1|", "sign(x - 1) + sin(1000000 pi x)")])
def test_a_fast_varying_derivative_is_not_mistaken_for_a_kink(function, answer):
    # by hand: d/dx cos(10⁶πx) = −10⁶π sin(10⁶πx), zero at the round sample points (x = 0.5, 1.5 ...) but not
    # between them, where it varies by 10¹³ per unit of x: a point there must not be dropped as a kink
    assert verdict(function, answer).verdict == "incorrect"


# -- mixed partials, implicit differentiation, Hessian -----------------------------------------------------

def test_mixed_and_higher_partials():
    assert verdict("x^2 y^3", "6xy^2", wrt=["x", "y"]).verdict == "correct"
    assert verdict("x^2 y^3", "6xy^2", wrt="x,y").verdict == "correct"
    assert verdict("x^2 y^3", "6y^2", wrt="x,x,y").verdict == "correct"
    assert verdict("x^4", "24x", wrt="x", order=3).verdict == "correct"
    assert verdict("x^2 y^3", "6x^2y", wrt="x,y").verdict == "incorrect"
    with pytest.raises(GradcliError, match="--order with several"):
        check_derivative("x y", [], wrt="x,y", order=2)


def test_implicit_derivatives_are_compared_on_the_curve():
    assert verdict("x^2 + y^2 = 25", "-x/y", wrt="x").verdict == "correct"
    result = verdict("x^2 + y^2 = 25", "-x/sqrt(25 - x^2)", wrt="x")  # the upper half only
    assert result.verdict == "incorrect" and result.counterexample["point"]["y"] < 0
    assert verdict("x^3 + y^3 = 6xy", "(2y - x^2)/(y^2 - 2x)", wrt="x").verdict == "correct"
    assert verdict("u^2 + v^2 = 1", "-u/v", wrt="u", dependent="v").verdict == "correct"
    assert verdict("x^2 + 4y^2 = 4", "-1/(4y^3)", wrt="x", order=2).verdict == "correct"


def test_a_function_written_y_equals_is_not_an_equation():
    assert verdict("y = x^3", "dy/dx = 3x^2").verdict == "correct"
    assert verdict("f(x) = x^3", "f'(x) = 3x^2").verdict == "correct"


def test_gradient_and_hessian():
    report = check_derivative("x^2 y + y^3", [], hessian=True)
    assert [r.wrt for r in report.results] == [("x",), ("y",)]
    x, y = sp.symbols("x y", real=True)
    assert [[sp.simplify(e) for e in row] for row in report.hessian] == [[2 * y, 2 * x], [2 * x, 6 * y]]


# -- the command line -------------------------------------------------------------------------------------

def run(*args):
    return runner.invoke(app, ["check", *args, "--no-color"])


def test_cli_function_starting_with_minus_needs_no_double_dash():
    out = run("-x^2", "--expect", "-2x")
    assert out.exit_code == 0 and out.stdout.startswith("✓ correct: d/dx [−x²] = −2·x")
    explained = runner.invoke(app, ["explain", "-x**2", "x=3", "--json"])
    assert explained.exit_code == 0 and json.loads(explained.stdout)


def test_cli_prints_how_it_read_the_input():
    out = run("x^2 + xy", "--wrt", "x", "--expect", "2x")
    assert out.exit_code == 1
    lines = out.stdout.splitlines()
    assert lines[0] == "read as: x² + x·y"
    assert lines[1] == "✗ incorrect: ∂/∂x [x² + x·y] ≠ 2·x"


def test_cli_rounded_constant():
    out = run("10^x", "--expect", "2.302585·10^x")
    assert out.exit_code == 1
    assert "hint: agrees to 7 significant digits: write ln(10) exactly, not 2.302585" in out.stdout


def test_cli_mixed_partial_and_implicit_labels():
    out = run("x^2 y^3", "--wrt", "x", "--wrt", "y", "--expect", "6xy^2")
    assert out.exit_code == 0 and out.stdout.startswith("✓ correct: ∂²/∂x∂y [x²·y³] = 6·x·y²")
    out = run("x^2 + y^2 = 25", "--wrt", "x", "--expect", "dy/dx = -x/y")
    assert out.exit_code == 0 and out.stdout.startswith("✓ correct: dy/dx [x² + y² = 25] = −x/y")


def test_cli_wrt_typo_is_an_error_with_did_you_mean():
    out = run("x^2 + xy", "--wrt", "X", "--expect", "2x")
    assert out.exit_code == 2 and "did you mean x?" in out.stderr


def test_cli_hessian():
    out = run("x^2 y + y^3", "--hessian")
    assert out.exit_code == 0
    assert "∂²/∂x² = 2·y    ∂²/∂x∂y = 2·x" in out.stdout and "∂²/∂y² = 6·y" in out.stdout


# -- properties ---------------------------------------------------------------------------------------------

X = sp.Symbol("x", real=True)
LEAVES = st.sampled_from([X, X, 2 * X, X + 1, sp.Integer(3)])
UNARY = [sp.sin, sp.cos, sp.exp, lambda u: sp.log(u ** 2 + 1), lambda u: sp.sqrt(u ** 2 + 1), sp.atan]
expressions = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(UNARY), inner).map(lambda p: p[0](p[1])),
        st.tuples(inner, inner).map(lambda p: p[0] * p[1]),
        st.tuples(inner, inner).map(lambda p: p[0] + p[1]),
    ),
    max_leaves=4,
)


def homework(expr) -> str:
    """sympy's text as a student could type it: ^ for powers (the reader accepts * and exp/log/atan)."""
    return sp.sstr(expr).replace("**", "^")


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(expressions)
def test_sympy_derivative_in_homework_notation_is_accepted(expr):
    derivative = sp.diff(expr, X)
    assert verdict(homework(expr), homework(derivative), wrt="x" if expr.free_symbols else None).verdict == "correct" \
        if expr.free_symbols else True


@SETTINGS
@given(expressions, st.sampled_from(["factor", "sign", "constant"]))
def test_a_perturbed_derivative_is_rejected(expr, how):
    derivative = sp.diff(expr, X)
    if derivative == 0 or not expr.free_symbols:
        return
    wrong = {"factor": 2 * derivative, "sign": -derivative, "constant": derivative + 1}[how]
    assert verdict(homework(expr), homework(wrong), wrt="x").verdict == "incorrect"


@SETTINGS
@given(st.sampled_from(UNARY), expressions)
def test_a_dropped_chain_factor_is_rejected(outer, inner):
    if sp.simplify(sp.diff(inner, X) - 1) == 0 or not inner.free_symbols:
        return
    u = sp.Symbol("u", real=True)
    outer_derivative = sp.diff(outer(u), u).subs(u, inner)
    assert verdict(homework(outer(inner)), homework(outer_derivative), wrt="x").verdict == "incorrect"


# -- an answer's left side names its derivative ------------------------------------------------------------
# By hand: f = x²y³: ∂f/∂x = 2xy³, ∂²f/∂x² = 2y³, ∂²f/∂x∂y = 6xy²; f = x³: f' = 3x², f'' = 6x;
# x² + y² = 1: y' = −x/y, y'' = −(x² + y²)/y³ = −1/y³.

@pytest.mark.parametrize("function, answer, truth", [
    ("x^2 y^3", "∂²f/∂x^2 = 2xy^3", "incorrect"),  # the first partial, labelled as the second: was ✓
    ("x^2 y^3", "∂²f/∂x² = 2y^3", "correct"),
    ("x^2 y^3", "∂²f/∂x∂y = 6xy^2", "correct"),  # was read as ∂f/∂y and rejected
    ("x^3", "f''(x) = 3x^2", "incorrect"),
    ("x^3", "f''(x) = 6x", "correct"),  # was read as f' and rejected
    ("x^3", "d^2y/dx^2 = 6x", "correct"),
    ("x^3", "y'' = 3x^2", "incorrect"),
    ("x^2 + y^2 = 1", "d²y/dx² = -1/y^3", "correct"),
    ("x^2 + y^2 = 1", "y'' = -x/y", "incorrect"),
    ("sin θ", "dy/dθ = cos θ", "correct"),  # a Greek variable below the line was "an equation here"
    ("θ^3", "d²y/dθ² = 3θ^2", "incorrect"),
])
def test_the_left_side_of_an_answer_says_which_derivative_it_is(function, answer, truth):
    assert verdict(function, answer).verdict == truth


@pytest.mark.parametrize("function, answer, options, message", [
    ("x^2 y", "∂f/∂x = 2xy", {"wrt": "y"}, "the answer says ∂f/∂x, the options ask for ∂/∂y"),
    ("x^3", "f'(x) = 6x", {"order": 2}, "the answer says f'(x), the options ask for d²/dx²"),
    ("x^2", "dx/dy = 2x", {}, "a derivative by y, which is not a variable"),
    ("x^2", "d²y/dx = 2", {}, "the top says a derivative of order 2, the bottom of order 1"),
])
def test_a_left_side_that_contradicts_the_options_is_an_error(function, answer, options, message):
    with pytest.raises(GradcliError, match=re.escape(message)):
        check_derivative(function, [answer], **options)


@pytest.mark.parametrize("function, answer", [
    # √x is real for x ≥ 0, √(−x) for x ≤ 0: the sum is real at x = 0 alone, where nothing has a derivative;
    # sign cases that all leave the domain prove nothing (both answers were "✓ correct")
    ("sqrt(x)+sqrt(-x)", "1"),
    ("sqrt(x)+sqrt(-x)", "0"),
    # ln x needs x > 0, ln(−x) needs x < 0: no real point at all; sympy's complex identity (2/x) is no verdict
    ("ln(x)+ln(-x)", "2/x"),
    ("ln(x)+ln(-x)", "5/x"),
    ("sqrt(x-1)+sqrt(-x)", "7"),  # x ≥ 1 and x ≤ 0
])
def test_a_function_real_on_no_interval_is_never_called_right_or_wrong(function, answer):
    (result,) = check_derivative(function, [answer]).results
    assert result.verdict == "undecided", result.reason
    assert "not real on any interval" in result.reason
    out = runner.invoke(app, ["check", function, "--expect", answer])
    assert out.exit_code == 2


@pytest.mark.parametrize("function, answer, verdict", [
    # still decided where floats find no point but the domain is the whole line (values beyond floats)
    ("e^(800) sin(x)", "e^800 cos(x)", "correct"),
    ("e^(800) sin(x)", "e^800 cos(x) + 1", "incorrect"),
])
def test_a_function_beyond_floats_is_still_decided(function, answer, verdict):
    (result,) = check_derivative(function, [answer]).results
    assert result.verdict == verdict, result.reason
