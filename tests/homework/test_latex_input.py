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
    (r"3\cdot x", "3* x"),
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
])
def test_what_it_cannot_read_is_an_error_naming_it(text, message):
    with pytest.raises(ParseError, match=message):
        check_derivative(text, ["1"])
