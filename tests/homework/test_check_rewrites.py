"""Proofs by rewriting (issue 30 item 4): answers that only agreed ("not proven") are proven by an identity
sympy applies within a CPU budget — exp form, radicands factored, cube and odd roots as real roots, each
then by sign cases on the domain.  The derivatives are hand-derived (in the comments); wrong answers next to
them stay rejected."""

from __future__ import annotations

import pytest

from gradcli.homework.check import check_derivative


def result_of(function, answer, wrt=None):
    (result,) = check_derivative(function, [answer], wrt=wrt).results
    return result


@pytest.mark.parametrize("function, answer, wrt", [
    # d/dx ∛x = 1/(3∛x²) for x ≠ 0 (both signs: ∛ is the real root)
    ("cbrt(x)", "1/(3 cbrt(x^2))", None),
    ("cbrt(x) + x^(2/3)", "1/(3cbrt(x^2))+2/(3cbrt(x))", None),
    # d/dw tanh(wx + b) = x·sech²(wx + b)
    ("tanh(wx + b)", "x sech^2(wx+b)", "w"),
    # √(x² + 2x + 1) = |x + 1|: derivative (x + 1)/|x + 1|
    ("sqrt(x^2+2x+1)", "(x+1)/|x+1|", None),
    # arccos((1 − x²)/(1 + x²)) = 2·arctan|x|: derivative 2x/(|x|(1 + x²))
    ("arccos((1-x^2)/(1+x^2))", "2x/(|x|(1+x^2))", None),
    # ∂/∂x tan(2x − y) = 2 sec²(2x − y) (OpenStax Vol. 3 §4.3 ex. 125: simplify alone leaves sec² − tan² − 1)
    ("tan(2x-y)", "2sec^2(2x-y)", "x"),
    ("tan(2x-y)", "-sec^2(2x-y)", "y"),
    ("tan(x)", "1 + tan(x)^2", None),
    ("tan(2x-y)", "2sec^2(2x-y) - 1 + sec(2x-y)^2 - tan(2x-y)^2", "x"),  # sec² − tan² − 1 = 0 added
    # d/dt ¼ arcsec²(t/2) = arcsec(t/2)/(|t|√(t² − 4)) (OpenStax Vol. 1 §3.7): by the signs of t, whose case
    # |t| = −t for t > 0 has no point (it was taken, and refused the proof, after the merge)
    ("1/4(sec^-1(t/2))^2", "sec^-1(t/2)/(|t|sqrt(t^2-4))", "t"),
])
def test_rewritten_differences_are_proven(function, answer, wrt):
    result = result_of(function, answer, wrt)
    assert result.verdict == "correct" and result.proven is True, result.reason


@pytest.mark.parametrize("function, answer, wrt", [
    ("cbrt(x)", "1/(3 cbrt(x))", None),
    ("cbrt(x)", "-1/(3 cbrt(x^2))", None),
    ("tanh(wx + b)", "w sech^2(wx+b)", "w"),
    ("tanh(wx + b)", "x sech(wx+b)", "w"),
    ("sqrt(x^2+2x+1)", "1", None),  # right for x > −1 only
    ("arccos((1-x^2)/(1+x^2))", "2/(1+x^2)", None),  # right for x > 0 only
    ("tan(2x-y)", "sec^2(2x-y)", "x"),
    ("tan(2x-y)", "2sec^2(2x-y) + sec(2x-y)^2 - tan(2x-y)^2", "x"),  # sec² − tan² = 1: one too many
    ("1/4(sec^-1(t/2))^2", "sec^-1(t/2)/(t sqrt(t^2-4))", "t"),  # right for t > 2 only
])
def test_wrong_answers_beside_them_are_rejected(function, answer, wrt):
    assert result_of(function, answer, wrt).verdict == "incorrect"
