"""A numerical verdict rests only on digits the values have (issue 30, item 1).

Every value `check` compares carries an error bound (gradcli/homework/bounds.py); a point is used only once
the precision is high enough for the bounds to decide, and dropped when no precision tried does.  The truth
of each case is hand-derived (the derivative written by hand, or checked with mpmath at 50 digits below),
never taken from gradcli.
"""

from __future__ import annotations

import mpmath
import pytest

from gradcli.homework import bounds
from gradcli.homework.check import check_derivative
from gradcli.homework.reader import read_homework


def verdict(function, answer, wrt=None):
    (result,) = check_derivative(function, [answer], wrt=wrt).results
    return result


ISSUE = ("(2^t+3)/(3^t+2)", "((3^t+2)((ln 2)2^t)-(2^t+3)((ln 3)3^t))/(3^t+2)^2")


def test_the_issue_example_is_correct():
    # was "✗ incorrect … at t = -310.3: your answer gives 1.349546e-94, the derivative is 0"
    result = verdict(*ISSUE, wrt="t")
    assert result.verdict == "correct" and result.proven


def test_the_derivative_at_the_issue_point_is_its_true_value():
    # mpmath at 50 digits, by the quotient rule written by hand: 1.3495463683638752636...e-94
    with mpmath.workdps(50):
        t = mpmath.mpf(-310.3)  # the float the check uses
        truth = ((3 ** t + 2) * mpmath.log(2) * 2 ** t - (2 ** t + 3) * mpmath.log(3) * 3 ** t) / (3 ** t + 2) ** 2
    f = read_homework(ISSUE[0])
    fb = bounds.bounded_function(f.tree, ["t"])
    with mpmath.workdps(40):
        low = bounds.derivative(fb, [mpmath.mpf(-310.3)], (1,))
    assert abs(low.value - truth) <= low.error  # the bound covers the error, even with no digit right
    with mpmath.workdps(160):
        high = bounds.derivative(fb, [mpmath.mpf(-310.3)], (1,))
    assert high.error < abs(truth) * mpmath.mpf(10) ** -40
    assert abs(high.value - truth) <= abs(truth) * mpmath.mpf(10) ** -40


@pytest.mark.parametrize("answer", [
    "2^t*log(2)/(3^t + 2) - 3^t*(2^t + 3)*log(3)/(3^t + 2)^2",  # sympy's form, typed back
    "(6^t(ln 2 - ln 3) + 2^(t+1) ln 2 - 3^(t+1) ln 3)/(3^t+2)^2",  # expanded by hand
])
def test_the_issue_example_written_differently_is_correct(answer):
    assert verdict(ISSUE[0], answer, wrt="t").verdict == "correct"


@pytest.mark.parametrize("answer", [
    "((3^t+2)((ln 2)2^t)-(2^t+3)(3^t))/(3^t+2)^2",  # missing ln 3
    "((3^t+2)((ln 2)2^t)+(2^t+3)((ln 3)3^t))/(3^t+2)^2",  # sign
    "((ln 2)2^t)/((ln 3)3^t)",  # quotient of the derivatives
])
def test_wrong_answers_to_the_issue_example_are_rejected(answer):
    assert verdict(ISSUE[0], answer, wrt="t").verdict == "incorrect"


@pytest.mark.parametrize("function, answer", [
    ("x", "e^x + 1 - e^x"),  # 1, cancelling e^1234.5 at 40 digits: was "✗ your answer gives 0"
    ("x", "e^(x^2) + 1 - e^(x^2)"),  # was "✗ at x = -17.2: your answer gives 0"
    ("(1+2^x)/(1+3^x)", "(2^x ln 2 (1+3^x) - 3^x ln 3 (1+2^x))/(1+3^x)^2"),  # 2.7e-94 at x = -310.3
    ("10^(-300) x^2", "2*10^(-300) x"),  # results near 1e-300
    ("10^300 x^3", "3*10^300 x^2"),  # near 1e300
    ("x + 10^(-60) x^2", "(10^60 + 2x)/10^60"),  # a term below 1e-50, written another way
    ("ln(1+e^x)", "1/(1+e^(-x))"),  # exp of large arguments
    ("ln(e^x + e^(-x))", "(e^x - e^(-x))/(e^x + e^(-x))"),
    ("e^(-x^2)", "-2x e^(-x^2)"),
    ("x^2", "2x + e^(x^2) - e^(x^2)"),
])
def test_correct_answers_at_extreme_scales_are_accepted(function, answer):
    result = verdict(function, answer)
    assert result.verdict == "correct", result.reason


@pytest.mark.parametrize("function, answer", [
    ("e^x", "e^x + 10^(-20)"),  # the issue's rule: a real difference is rejected
    ("10^(-300) x^2", "2*10^(-300) x + 10^(-350)"),
    ("10^300 x^3", "3*10^300 x^2 + 1"),
    ("x + 10^(-60) x^2", "1"),  # wrong by 2·10⁻⁶⁰·x: seen at 150 digits
    ("e^(-x^2)", "-2x e^(-x^2) + e^(-x^4)"),
    ("ln(1+e^x)", "1/(1+e^x)"),
])
def test_wrong_answers_at_extreme_scales_are_rejected(function, answer):
    assert verdict(function, answer).verdict == "incorrect"


def test_a_cancelling_sum_carries_the_error_of_its_terms():
    g = bounds.bounded_function(read_homework("e^x + 1 - e^x").tree, ["x"])
    with mpmath.workdps(40):
        low = g(mpmath.mpf(1234.5))
    assert low.error > 1  # 0 ± 10^496: no digit of the value is known
    with mpmath.workdps(640):
        high = g(mpmath.mpf(1234.5))
    assert abs(high.value - 1) <= high.error < mpmath.mpf(10) ** -50


def test_exact_operations_stay_exact():
    # 1 − x² at x = 1 is exactly 0, so 1/(1 − x²) is undefined there (not merely unknown)
    g = bounds.bounded_function(read_homework("1/(1-x^2)").tree, ["x"])
    with mpmath.workdps(40), pytest.raises(bounds.Undefined):
        g(mpmath.mpf(1))


def test_values_shown_at_a_point_have_their_digits():
    report = check_derivative(ISSUE[0], [ISSUE[1]], wrt="t", at={"t": -310.3})
    shown = report.results[0].at["derivative"]
    assert shown == pytest.approx(1.3495463683638752e-94, rel=1e-14)
