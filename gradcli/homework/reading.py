"""What the teaching features (textbook answers, steps, plot, explain) need from the homework reader and
from `check`'s report, in one place, so they follow the reader whichever shape it has: `read_homework`
(a `Reading` with a syntax tree) or the older `parse_homework` (a rewritten PyTorch-syntax program)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from gradcli.homework import reader as homework
from gradcli.homework.check import read_definition
from gradcli.safety.errors import GradcliError
from gradcli.safety.limits import Limits

NEW_READER = hasattr(homework, "read_homework")


@dataclass
class Function:
    text: str
    variables: list[str]  # as the student named them, in order
    expr: object  # sympy (lhs - rhs for an equation)
    sides: tuple | None = None  # (lhs, rhs) of an equation, in sympy
    tree: tuple | None = None  # the reader's tree (to build the sympy form another way: steps keep |u| whole)

    def symbol(self, name: str):
        import sympy as sp

        return sp.Symbol(name, real=True)


def read_function(text: str, *, known=(), allow_equation: bool = False, limits: Limits | None = None) -> Function:
    """Homework text as sympy, with real symbols named as the student named them."""
    import sympy as sp

    limits = limits or Limits()
    if NEW_READER:
        declared = tuple(v for v in known if len(v) > 1)
        if allow_equation:  # y = x^2, f(x, y) = 3x^2 + 1 define a function, as check reads them
            reading = read_definition(text, declared, limits)
        else:
            reading = homework.read_homework(text, declared, limits)
        symbols = {name: sp.Symbol(name, real=True) for name in reading.variables}
        sides = None
        if reading.is_equation:
            sides = tuple(homework.to_sympy(side, symbols) for side in reading.tree[1:])
        return Function(text, list(reading.variables), reading.sympy(symbols), sides, reading.tree)
    sides_text = _split_equation(text) if allow_equation else [text]
    parsed = [homework.parse_homework(side, limits, frozenset(known)) for side in sides_text]
    if len(parsed) == 2:  # each side read knowing the other's letters (xy is x·y)
        letters = frozenset(known) | {v for p in parsed for v in p.variables.values()}
        parsed = [homework.parse_homework(side, limits, letters) for side in sides_text]
    variables = list(dict.fromkeys(v for p in parsed for v in p.variables.values()))
    symbols = {name: sp.Symbol(name, real=True) for name in variables}
    exprs = [homework._symbolic(p, symbols) for p in parsed]
    if len(exprs) == 2:
        return Function(text, variables, exprs[0] - exprs[1], (exprs[0], exprs[1]))
    return Function(text, variables, exprs[0])


def _split_equation(text: str) -> list[str]:
    parts = re.split(r"(?<![=<>!])=(?!=)", text)
    if len(parts) == 2 and parts[0].strip() and parts[1].strip():
        return parts
    if len(parts) > 2:
        raise GradcliError("an equation has one =", source=text)
    return [text]


# -- homework text as a PyTorch-syntax expression (explain runs it on the engine) ----------------------

def pytorch_expression(text: str, known=frozenset(), limits: Limits | None = None) -> tuple[str, dict]:
    """(an expression gradcli's PyTorch parser reads, {the student's variable: the expression's name}).
    Errors point into `text`."""
    limits = limits or Limits()
    if not NEW_READER:
        hw = homework.parse_homework(text, limits, frozenset(known))
        return hw.program.source, {user: prog for prog, user in hw.variables.items()}
    reading = homework.read_homework(text, tuple(v for v in known if len(v) > 1), limits)
    renamed = {name: _program_name(name) for name in reading.variables}
    return _torch_text(reading.tree, renamed), renamed


def _program_name(name: str) -> str:
    from gradcli.lang import names  # the op table loads the engine and numpy, which `check` never needs

    taken = names.resolve_function((name,)) is not None or name in ("torch", "F", "nn", "math") or \
        (name in names.CONSTANTS and name not in ("e", "pi"))
    return name + "_" if taken else name


_TORCH_CALLS = {"ln": "log({0})", "log": "(log({0})/log({1}))", "sec": "(1/cos({0}))", "csc": "(1/sin({0}))",
                "cot": "(1/tan({0}))", "sech": "(1/cosh({0}))", "csch": "(1/sinh({0}))", "coth": "(1/tanh({0}))",
                "asec": "acos(1/({0}))", "acsc": "asin(1/({0}))", "acot": "atan(1/({0}))",
                "asech": "acosh(1/({0}))", "acsch": "asinh(1/({0}))", "acoth": "atanh(1/({0}))",
                "cbrt": "(sign({0})*abs({0})**(1/3))", "max": "maximum({0}, {1})", "min": "minimum({0}, {1})"}


def _torch_text(tree: tuple, renamed: dict) -> str:
    kind = tree[0]
    if kind == "num":
        value = tree[1]
        return str(value.numerator) if value.denominator == 1 else f"({_decimal_or_fraction(value, tree)})"
    if kind == "var":
        return renamed.get(tree[1], tree[1])
    if kind == "const":
        return tree[1]
    if kind == "neg":
        return f"(-{_torch_text(tree[1], renamed)})"
    if kind == "call":
        args = [_torch_text(a, renamed) for a in tree[2]]
        template = _TORCH_CALLS.get(tree[1])
        return template.format(*args) if template else f"{tree[1]}({', '.join(args)})"
    a, b = _torch_text(tree[1], renamed), _torch_text(tree[2], renamed)
    op = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}.get(kind)
    if op is None:
        raise GradcliError("explain takes an expression, not an equation")
    return f"({a} {op} {b})"


def _decimal_or_fraction(value: Fraction, tree: tuple) -> str:
    typed = tree[2] if len(tree) > 2 and isinstance(tree[2], str) else None
    return typed if typed else f"{value.numerator}/{value.denominator}"


# -- check's report ----------------------------------------------------------------------------------

def report_function(report, symbols: dict):
    """The checked function in sympy (None when sympy has no form for it)."""
    function = report.function
    if function is None:
        return None
    return function.sympy(symbols) if hasattr(function, "sympy") else function


def result_wrt_order(result) -> tuple[str, int] | None:
    """(variable, order) of a derivative by one variable; None for a mixed partial."""
    wrt = result.wrt
    if isinstance(wrt, str):
        return wrt, getattr(result, "order", 1)
    if len(set(wrt)) == 1:
        return wrt[0], len(wrt)
    return None


def result_answer(result, symbols: dict):
    """The student's answer in sympy (None when none was given)."""
    answer = getattr(result, "answer", None)
    if answer is not None and hasattr(answer, "sympy"):
        return answer.sympy(symbols)
    return getattr(result, "expected", None)
