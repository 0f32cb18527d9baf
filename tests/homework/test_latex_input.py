"""LaTeX as students type it is read as the homework notation it stands for (gradcli/homework/latex_reader.py):
`check`, `steps` and `explain` take `\\frac{x}{\\sqrt{x^2+1}}` as they take `x/sqrt(x^2+1)`.  Truths by hand."""

from __future__ import annotations

import pytest

from gradcli.homework.check import check_derivative
from gradcli.homework.latex_reader import to_homework
from gradcli.safety.errors import ParseError


@pytest.mark.parametrize("latex, plain", [
    (r"\sqrt{x^2+1}", "sqrt(x^2+1)"),
    (r"\frac{x}{\sqrt{x^2+1}}", "((x)/(sqrt(x^2+1)))"),
    (r"\frac12", "((1)/(2))"),
    (r"\sqrt[3]{x}", "((x)^(1/(3)))"),
    (r"\left(\ln 2\right)2^t", "( ln 2)2^t"),
    (r"3\cdot x", "3*x"),  # TeX drops the space after a command word
    (r"\left.x\right|", "x|"),
    (r"\operatorname{sech}^2(x)", "sech^2(x)"),
    (r"\frac{dy}{dx} = 2x", "dy/dx  = 2x"),
    (r"\frac{\partial f}{\partial y} = x", "∂f/∂y  = x"),
    ("x^2 + 1", "x^2 + 1"),  # no backslash: unchanged
])
def test_latex_becomes_homework_notation(latex, plain):
    assert to_homework(latex) == plain


@pytest.mark.parametrize("function, answer, wrt, truth", [
    (r"\sqrt{x^2+1}", r"\frac{x}{\sqrt{x^2+1}}", None, "correct"),
    (r"\sqrt{x^2+1}", r"\frac{1}{2\sqrt{x^2+1}}", None, "incorrect"),
    (r"\frac{2^t+3}{3^t+2}", r"\frac{(3^t+2)(\ln 2)2^t-(2^t+3)(\ln 3)3^t}{(3^t+2)^2}", "t", "correct"),
    (r"e^{2x}\arcsin x", r"2e^{2x}\arcsin x + \frac{e^{2x}}{\sqrt{1-x^2}}", None, "correct"),
    (r"\sin^2(x)\cos(x)", r"2\sin x\cos^2 x - \sin^3 x", None, "correct"),
    (r"x^{\frac{2}{3}}", r"\frac{2}{3}x^{-\frac{1}{3}}", None, "correct"),
    (r"\sqrt[3]{x}", r"\frac{1}{3\sqrt[3]{x^2}}", None, "correct"),
    (r"\theta\sin\theta", r"\sin\theta + \theta\cos\theta", "θ", "correct"),
    (r"\ln\left|x\right|", r"\frac{1}{x}", None, "correct"),
    (r"\tan x", r"\sec^2 x", None, "correct"),
    (r"\frac{1}{x}", r"\frac{1}{x^2}", None, "incorrect"),
    ("x^2", r"\frac{dy}{dx} = 2x", None, "correct"),
    ("x^2 y", r"\frac{\partial f}{\partial x} = 2xy", "x", "correct"),
])
def test_check_reads_latex(function, answer, wrt, truth):
    report = check_derivative(function, [answer], wrt=wrt)
    assert [r.verdict for r in report.results] == [truth]


def test_second_order_leibniz_in_latex():
    report = check_derivative("x^3", [r"\frac{d^2y}{dx^2} = 6x"], order=2)
    assert [r.verdict for r in report.results] == ["correct"]


@pytest.mark.parametrize("text, message", [
    (r"\foo x", r"does not read the LaTeX command \\foo"),
    (r"\frac{x}{1", "not closed"),
    ("x + \\", "ends the expression"),
    (r"\frac{x}", "missing its argument"),
    (r"x + \infty", r"does not read the LaTeX command \\infty"),  # was read as x + o·o
])
def test_what_it_cannot_read_is_an_error_naming_it(text, message):
    with pytest.raises(ParseError, match=message):
        check_derivative(text, ["1"])


# Found by review: LaTeX a student pastes, read as meant.  TeX drops the space after a command word, so
# `\sin\pi x` is sin(πx) and `\sin 2\pi x` sin(2πx) (they were read sin(π)·x = 0 and sin(2)·π·x, and the
# right answer called incorrect); a function's argument in braces (`\sin{x}`, `\cos^{2}{x}`) was an error.
# Truths by hand: (sin πx)' = π cos πx, (sin 2πx)' = 2π cos 2πx, (cos² x)' = −2 sin x cos x,
# (log₂ x)' = 1/(x ln 2), (λ e^{−λx})' = −λ² e^{−λx}, (sin² θ)' = 2 sin θ cos θ.
@pytest.mark.parametrize("function, answer, wrt, truth", [
    (r"\sin\pi x", r"\pi\cos\pi x", None, "correct"),
    (r"\sin\pi x", r"\cos\pi x", None, "incorrect"),
    (r"\sin 2\pi x", r"2\pi\cos 2\pi x", None, "correct"),
    (r"\sin 2\pi x", r"2\pi\cos 2x", None, "incorrect"),
    (r"\cos^{2}{x}", r"-2\sin{x}\cos{x}", None, "correct"),
    (r"\cos^{2}{x}", r"2\sin{x}\cos{x}", None, "incorrect"),
    (r"\ln{(x^2+1)}", r"\frac{2x}{x^2+1}", None, "correct"),
    (r"\log_{2}{x}", r"\frac{1}{x\ln 2}", None, "correct"),
    (r"\lambda e^{-\lambda x}", r"-\lambda^2 e^{-\lambda x}", "x", "correct"),
    (r"\lambda e^{-\lambda x}", r"-\lambda e^{-\lambda x}", "x", "incorrect"),
    (r"\sin^2\theta", r"2\sin\theta\cos\theta", None, "correct"),
])
def test_spaces_and_braces_after_a_command_as_tex_reads_them(function, answer, wrt, truth):
    report = check_derivative(function, [answer], wrt=wrt)
    assert [r.verdict for r in report.results] == [truth]


# Left sides as typeset: an upright d (\mathrm{d}), a Greek variable below (d\theta), a prime as a superscript
# (f^{\prime}): they were "an equation here" errors
@pytest.mark.parametrize("function, answer, order, truth", [
    ("x^2", r"\dfrac{\mathrm{d}y}{\mathrm{d}x} = 2x", 1, "correct"),
    ("x^2", r"\dfrac{\mathrm{d}y}{\mathrm{d}x} = 3x", 1, "incorrect"),
    ("x^2", r"\frac{\mathrm{d}}{\mathrm{d}x}\left(x^2\right) = 2x", 1, "correct"),
    ("sin(θ)^2", r"\frac{dr}{d\theta} = 2\sin\theta\cos\theta", 1, "correct"),
    ("sin(θ)^2", r"\frac{dr}{d\theta} = 2\sin\theta", 1, "incorrect"),
    ("x^3", r"f^{\prime}(x) = 3x^2", 1, "correct"),
    ("x^3", r"f^{\prime\prime}(x) = 6x", 2, "correct"),
    ("x^3", r"\frac{\mathrm{d}^2y}{\mathrm{d}x^2} = 6x", 2, "correct"),
])
def test_typeset_left_sides(function, answer, order, truth):
    report = check_derivative(function, [answer], order=order)
    assert [r.verdict for r in report.results] == [truth]


def test_words_in_text_are_an_error_not_a_product_of_letters():
    # `2x \text{ for all } x` was read 2·x·f·o·r·a·l·l·x
    with pytest.raises(ParseError, match=r"does not read the words in \\text"):
        check_derivative("x^2", [r"2x \text{ for all } x"])


# Found by review: the derivative operator typed into the function (`check "\frac{d}{dx}\left(x^2\right)"`,
# `check "d/dx (x^2)" --expect 2x --wrt x`) was read as the product (d/d)·x·x², so 2x was called incorrect
# ("the derivative is 3x²"); it is an error saying what to give instead
@pytest.mark.parametrize("function", [r"\frac{d}{dx}\left(x^2\right)", "d/dx (x^2)", "(d/dx) x^2", "d/dt[t^2]"])
def test_the_derivative_operator_in_the_function_is_an_error(function):
    with pytest.raises(ParseError, match="is the derivative, not part of the function"):
        check_derivative(function, ["2x"], wrt="x" if "x" in function else "t")


@pytest.mark.parametrize("answer, exit_code", [
    # a bare brace group in LaTeX only groups (APEX's source prints 3^x{x^2}2x): (3^(x²))' = ln 3·3^(x²)·2x
    (r"\ln 3\cdot 3^{x^2}{2x}", 0),
    (r"{\ln 3}\cdot {3^{x^2}} 2x", 0),
    (r"\ln 3\cdot 3^{x^2}{x}", 1),
    (r"{}\ln 3\cdot 3^{x^2}\cdot 2x", 0),  # an empty group is nothing
])
def test_a_bare_brace_group_groups(answer, exit_code):
    from gradcli.homework.check import check_derivative

    (result,) = check_derivative("3^(x^2)", [answer]).results
    assert result.verdict == ("correct" if exit_code == 0 else "incorrect"), result.reason
