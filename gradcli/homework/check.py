"""`gradcli check`: is the student's answer the derivative of the function?

"Correct" means equal as functions on the domain where the derivative is defined.  The numbers decide: the
derivative is a central difference of the function as read (a road that does not go through sympy), the
answer is evaluated on the same points, at points found in the domain (both signs, near the constants of
the function and of the answer, several scales).  Every value carries an error bound (homework/bounds.py:
the rounding of each operation, cancellation included, and the difference's truncation), and a point
counts only when the bounds decide: they agree to 34 digits with errors below that, or they differ by more
than four times their errors.  Otherwise the precision is raised (40, 80, ... 640 digits) and, when none
decides, the point is dropped: a verdict never rests on digits a value does not have (the derivative
1.3·10⁻⁹⁴ of a function of size 1.5 is 0 at 40 digits).  An answer that agrees only to a few digits
(a rounded ln 10) is incorrect, and so is an answer undefined where the derivative is defined.  sympy
gives the derivative's formula, and decides only when no point of the domain can be found (evaluating at
any precision where floats cannot: e^800 sin x).

"Correct" is said only with a proof: when the numbers agree, sympy must simplify answer − derivative to 0 (or
to 0 on each sign of |u| and of the variables where the domain has points, on each branch of a curve).  A
difference sympy shows is not 0 (10⁻⁴⁰, e^(−1000)), or one that stays at 150 digits (π typed to 38 digits), is
incorrect; without proof or difference, an answer holding a decimal is incorrect, any other "agrees (not
proven)" (`proven` False, exit code 3).

Implicit differentiation: for an equation F = G in x and y, dy/dx = -H_x/H_y with H = F - G, and the answer
is compared at points ON the curve (y solved numerically at sampled x).
"""

from __future__ import annotations

import difflib
import itertools
import math
import random
import re
import time
from collections import Counter
from dataclasses import dataclass

from gradcli.homework import bounds
from gradcli.homework.reader import (
    Reading,
    Undefined,
    constant_fraction,
    read_homework,
    real_function,
    split_answer,
    to_sympy,
    to_text,
)
from gradcli.safety.errors import GradcliError
from gradcli.safety.limits import Limits

NICE_VALUES = (1.0, 2.0, 0.5, -1.0, 1.5, -0.5, 3.0, -2.0, 0.25, 2.5, -1.5, 0.75)  # readable counterexamples
CANDIDATES = 600  # points tried, at most
POINTS_WANTED = 40  # domain points compared
MIN_POINTS = 6  # fewer: the numbers cannot decide
DIGITS = 40  # working precision
PROOF_SECONDS = 1.5  # CPU time of each of sympy's tries (simplify, sign cases or regions, rewritten), at most
PLAIN_SECONDS = 0.5  # CPU time spent looking for a counterexample at nice values before taking a sampled one
PROOF_TOTAL_SECONDS = 2.5  # CPU time of all of them together, at most (and half of --timeout)
FINE_DIGITS = 150  # an agreement sympy cannot prove is looked at this closely (a constant kept to 38 digits)
RECHECK_DIGITS = 90  # a disagreement is confirmed at this precision (rounding noise shrinks, real ones stay)
EQUAL_DIGITS = 34  # agreement needed at every point (anything less is confirmed or dismissed at 90 digits)
NON_SMOOTH = {"abs", "sign", "relu", "max", "min"}
ROUNDED_CONSTANTS = {  # what a rounded decimal in an answer probably stands for
    "ln(2)": math.log(2), "ln(3)": math.log(3), "ln(10)": math.log(10), "1/ln(10)": 1 / math.log(10),
    "1/ln(2)": 1 / math.log(2), "π": math.pi, "π/2": math.pi / 2, "2π": 2 * math.pi, "e": math.e,
    "√2": math.sqrt(2), "√3": math.sqrt(3), "1/3": 1 / 3, "2/3": 2 / 3, "1/6": 1 / 6, "e²": math.e ** 2,
    "ln(5)": math.log(5), "1/√2": 1 / math.sqrt(2),
}


@dataclass
class PartialCheck:
    """One derivative (d^n f / d wrt..., in the order given) against the student's answer, if any."""

    wrt: tuple[str, ...]
    expected_text: str | None
    answer: Reading | None = None
    derivative: object = None  # sympy's formula (None when sympy could not give one)
    verdict: str = "computed"  # correct | incorrect | undecided | computed (no answer given)
    decided_by: str | None = None  # numbers | sympy
    reason: str = ""
    hint: str | None = None
    counterexample: dict | None = None
    points: int = 0
    at: dict | None = None  # values at --at: derivative and answer
    proven: bool | None = None  # a "correct" verdict: True when sympy proved it, False when only numbers agree

    @property
    def order(self) -> int:
        return len(self.wrt)


@dataclass
class CheckReport:
    function_text: str
    function: Reading
    variables: list[str]
    results: list[PartialCheck]
    implicit: str | None = None  # the dependent variable of an equation
    hessian: list | None = None  # sympy formulas, row by row
    at: dict | None = None  # {"point": {...}, "function": value}
    symbolic_note: str | None = None  # why sympy could not take part

    @property
    def exit_code(self) -> int:
        if any(r.verdict == "incorrect" for r in self.results):
            return 1
        if any(r.verdict == "undecided" for r in self.results):
            return 2
        return 3 if any(r.verdict == "correct" and r.proven is False for r in self.results) else 0

    def to_dict(self) -> dict:
        """Plain data (`check --json`, and what the text renderer reads): the readings in homework notation,
        sympy's formulas as sympy's text."""

        def text(expr):
            if expr is None:
                return None
            from sympy import sstr

            return sstr(expr)

        def reading(r: Reading | None):
            if r is None:
                return None
            return {"typed": r.text, "read_as": r.read_as, "reinterpreted": r.reinterpreted, "notes": r.notes}

        partial = len(self.variables) > 1 and not self.implicit
        return {
            "function": self.function_text, "read": reading(self.function), "parsed": self.function.read_as,
            "variables": self.variables, "implicit": self.implicit,
            "results": [{"wrt": list(r.wrt), "order": r.order, "label": derivative_label(r.wrt, partial, self.implicit),
                         "expected": r.expected_text, "read": reading(r.answer),
                         "expected_parsed": None if r.answer is None else r.answer.read_as,
                         "derivative": text(r.derivative), "verdict": r.verdict, "decided_by": r.decided_by,
                         "reason": r.reason, "hint": r.hint, "counterexample": r.counterexample,
                         "points": r.points, "at": r.at, "proven": r.proven}
                        for r in self.results],
            "hessian": None if self.hessian is None else [[text(e) for e in row] for row in self.hessian],
            "at": self.at, "symbolic_note": self.symbolic_note,
            "correct": all(r.verdict in ("correct", "computed") for r in self.results),
        }


def derivative_label(wrt: tuple[str, ...], partial: bool, implicit: str | None = None) -> str:
    """d/dx, d²/dx², ∂²/∂x∂y, ∂³/∂x²∂y; dy/dx for an implicit derivative."""
    sup = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    n = len(wrt)
    power = str(n).translate(sup) if n > 1 else ""
    if implicit:
        return f"d{power}{implicit}/d{wrt[0]}{power}"
    d = "∂" if partial else "d"
    groups = []
    for name in wrt:
        if groups and groups[-1][0] == name:
            groups[-1][1] += 1
        else:
            groups.append([name, 1])
    below = "".join(f"{d}{name}" + (str(k).translate(sup) if k > 1 else "") for name, k in groups)
    return f"{d}{power}/{below}"


# -- entry point ------------------------------------------------------------------------------------------

def check_derivative(function: str, expectations: list, *, wrt=None, order: int = 1,
                     at: dict[str, float] | None = None, timeout: float = 5.0, limits: Limits | None = None,
                     variables=(), dependent: str | None = None, hessian: bool = False,
                     formulas: str = "all") -> CheckReport:
    """Check each expected answer (homework notation; `expectations`: texts, or (label, text) pairs as from
    `--expect x=...`) against the derivative of `function`.

    wrt: None, a name, or a list of names (a mixed partial, in that order; "x,y" is split).  order: repeats a
    single wrt.  variables: declared multi-letter variable names.  dependent: the dependent variable of an
    equation (default y).  formulas: "all" gives every result sympy's formula of the derivative; "needed"
    only the results that are not correct (what the text output shows)."""
    limits = limits or Limits()
    f = read_definition(function, variables, limits)
    implicit = None
    if f.is_equation:
        implicit = dependent or "y"
        if implicit not in f.variables:
            raise GradcliError(f"the equation has no variable {implicit}",
                               hint="say which variable depends on the other: --dependent NAME")
    elif dependent:
        raise GradcliError("--dependent is for equations (implicit differentiation), such as x^2 + y^2 = 25")
    names = list(f.variables)
    if wrt and not implicit:  # d/dx e² = 0, ∂/∂y (3x² + 1) = 0: the function may be constant in a variable
        items = [wrt] if isinstance(wrt, str) else list(wrt)
        names += _constant_in(items, names, variables)
    wrt_list = _wrt_list(wrt, order, names, implicit)
    if not implicit:
        expectations = [part for item in expectations for part in vector_parts(item, names)]
    answers = [_answer(item, variables, limits) for item in expectations]
    if not implicit:  # ∂f/∂y = 0 for f = 3x² + 1: the answer's left side names a variable f is constant in
        partials = [v for a in answers if "∂" in a.split.lhs or "_" in a.split.lhs for v in a.split.wrt]
        names += _constant_in(partials, names, variables)  # (dx/dy = 2x for x² stays the error it is)
    for answer in answers:
        _same_function(answer, f, function, variables, limits)
    targets = _targets(names, wrt_list, answers, order, implicit)
    report = CheckReport(function, f, names, [], implicit=implicit)
    comparer = _Comparer(f, names, implicit)
    comparer.report = report
    symbols = _Symbols(names, answers)
    for wrt_tuple, answer in targets:
        result = PartialCheck(wrt_tuple, None if answer is None else answer.written,
                              None if answer is None else answer.reading)
        if answer is not None:
            comparer.judge(result, timeout, symbols)
        report.results.append(result)
    for result in report.results:  # sympy (slow to import) only for the formulas that will be shown
        if result.derivative is None and (formulas == "all" or result.verdict != "correct"):
            _symbolic_derivative(result, f, symbols, implicit, timeout, report)
    if hessian:
        report.hessian = _hessian(f, names, symbols, timeout, implicit)
    if at is not None:
        _values_at(report, comparer, at)
    _base_ten_hints(report, function, variables, dependent, limits, timeout)
    return report


_BARE_LOG = re.compile(r"\blog\b(?![_\d])")


def _base_ten_hints(report: CheckReport, function: str, variables, dependent, limits, timeout) -> None:
    """gradcli reads a bare `log` as ln (as Wolfram|Alpha does), where many textbooks mean base 10: a rejected
    answer that is right for log10 gets a hint saying so (the verdict stays the one for the reading shown)."""
    if "log x is the natural logarithm ln x" not in report.function.notes or not _BARE_LOG.search(function):
        return
    base_ten = _BARE_LOG.sub("log10", function)
    for result in report.results:
        if result.verdict != "incorrect" or result.hint is not None or result.expected_text is None:
            continue
        try:
            again = check_derivative(base_ten, [_BARE_LOG.sub("log10", result.expected_text)],
                                     wrt=",".join(result.wrt), order=1,
                                     timeout=min(timeout, 2.0), limits=limits, variables=variables,
                                     dependent=dependent, formulas="none")
        except GradcliError:
            continue
        if [r.verdict for r in again.results] == ["correct"]:
            result.hint = ("gradcli reads log as ln, the natural logarithm; your answer is right for log base 10: "
                           f"write log10 for it ({base_ten})")


class _Symbols(dict):
    """name -> real sympy Symbol, made on first use (sympy is imported only when a formula is needed)."""

    def __init__(self, names, answers):
        super().__init__()
        self.names = list(dict.fromkeys([*names, *(v for a in answers for v in a.reading.variables)]))

    def __missing__(self, name):
        import sympy as sp

        symbol = self[name] = sp.Symbol(name, real=True)
        return symbol

    def all(self) -> dict:
        return {name: self[name] for name in self.names}


_VARIABLE_NAME = re.compile(r"[A-Za-z](?:_?\d+)?|[α-ωΑ-Ω]")


def _constant_in(items, names: list[str], declared) -> list[str]:
    """The variables named by --wrt (or by an answer's ∂f/∂y) that the function does not use: f(x, y) =
    3x² + 1 is constant in y, and ∂f/∂y = 0 is normal homework.  Only names that read as a variable (one
    letter, x1, x_2, θ, or a --var name) count; another name (--wrt xx, --wrt e, --wrt X for x) stays the
    error it plainly is."""
    extra = []
    for part in (p.strip() for item in items for p in item.split(",")):
        if not part or part in names or part in extra:
            continue
        if part in declared or not names or (_VARIABLE_NAME.fullmatch(part) and part != "e" and
                                not any(n.lower() == part.lower() for n in names)):
            extra.append(part)
    return extra


def read_definition(text: str, variables=(), limits: Limits | None = None) -> Reading:
    """The function of `check`, `steps`, `plot`: an expression, an equation, or a definition `f(x, y) =
    3x² + 1` (its variables are the ones listed, in that order, used or not), `y = x²`, `z = x²y`."""
    limits = limits or Limits()
    match = _DEFINITION.fullmatch(text)
    if match is not None and match.group("called"):
        rhs = read_homework(match.group("rhs"), variables, limits)
        listed = [a.strip() for a in match.group("called").split("(", 1)[1].rsplit(")", 1)[0].split(",")]
        rhs.variables = list(dict.fromkeys([*listed, *rhs.variables]))
        rhs.text = text
        return rhs
    return explicit_definition(read_homework(text, variables, limits, allow_equation=True), variables, limits)


_DEFINITION = re.compile(r"\s*(?:(?P<bare>[yzwfghuFL])"
                         r"|(?P<called>[^\W\d_]\s*\(\s*[^\W\d_]\w*(?:\s*,\s*[^\W\d_]\w*)*\s*\)))"
                         r"\s*=(?P<rhs>[^=]*)", re.S)


def explicit_definition(f: Reading, variables, limits) -> Reading:
    """`y = x^2`, `f(x) = x^2`: a function, not an equation (when the name on the left is not on the right)."""
    if not f.is_equation:
        return f
    match = _DEFINITION.fullmatch(f.text)
    if match is None:
        return f
    rhs = read_homework(match.group("rhs"), variables, limits)
    if match.group("bare") and match.group("bare") in rhs.variables:
        return f
    rhs.text = f.text
    return rhs


def _answer(item, variables, limits):
    label, text = item if isinstance(item, tuple) else (None, item)
    split = split_answer(text)
    answer = read_homework(split.text, variables, limits)
    answer.text = text.strip() if label is None else f"{label}={text}".strip()
    return _Answer(answer, label, split, text)


_GRADIENT_LHS = re.compile(r"\s*(?:∇|grad\b)\s*(?:[^\W\d_]\w*\s*(?:\([^=]*\))?)?\s*=(?!=)\s*(?P<rhs>.*)", re.S)
_HESSIAN_LHS = re.compile(r"\s*(?:H|Hf|H_f|∇²\s*[A-Za-z]\w*|∇\^2\s*[A-Za-z]\w*)\s*(?:\([^=]*\))?"
                          r"\s*=(?!=)\s*(?P<rhs>.*)", re.S)
_UNIT_VECTORS = re.compile(r"(?P<i>.+?)(?:\s+|\*|(?<=\)))i\s*(?P<j>[+-].+?)(?:\s+|\*|(?<=\)))j"
                           r"(?:\s*(?P<k>[+-].+?)(?:\s+|\*|(?<=\)))k)?\s*", re.S)


def vector_parts(item, names: list[str]) -> list:
    """A gradient or a Hessian written whole, as one answer per partial derivative (∂f/∂x = ..., ∂²f/∂x∂y =
    ...): (2x, 2y), <2x, 2y>, ⟨2x, 2y⟩, 2x i + 2y j, ∇f = (...), and [[2, 0], [0, 2]] or H = [[...]] (rows and
    columns in the order x, y, z, then alphabetical).  Anything else is returned as it is."""
    if isinstance(item, tuple):
        return [item]
    text = item
    order = sorted(names, key=lambda n: (n not in ("x", "y", "z"), n))
    if any(len(name) != 1 for name in order) or len(order) < 2:
        return [item]
    hessian = _HESSIAN_LHS.fullmatch(text)
    body = (hessian.group("rhs") if hessian else text).strip()
    if body.startswith("[[") and body.endswith("]]"):
        rows = [_split_top(row.strip()[1:-1]) for row in _split_top(body[1:-1])]
        if len(rows) != len(order) or any(len(row) != len(order) for row in rows):
            raise GradcliError(f"the Hessian {body} is not {len(order)}×{len(order)}: the function's variables "
                               f"are {', '.join(order)}", hint="one row and one column per variable")
        return [f"∂²f/∂{a}∂{b} = {rows[i][j]}" for i, a in enumerate(order) for j, b in enumerate(order)]
    gradient = _GRADIENT_LHS.fullmatch(text)
    body = (gradient.group("rhs") if gradient else text).strip()
    components = None
    if body[:1] + body[-1:] in ("()", "<>", "⟨⟩", "[]") and len(_split_top(body[1:-1])) > 1:
        components = _split_top(body[1:-1])
    elif (units := _UNIT_VECTORS.fullmatch(body)) is not None:
        components = [units.group(axis) for axis in "ijk" if units.group(axis) is not None]
    if components is None:
        if gradient:
            raise GradcliError(f"{text.strip()}: write the gradient as (∂f/∂x, ∂f/∂y) or ⟨...⟩ or ... i + ... j")
        return [item]
    if len(components) != len(order):
        raise GradcliError(f"the gradient has {len(components)} components, the function {len(order)} variables "
                           f"({', '.join(order)})", hint="one component per variable, in the order " + ", ".join(order))
    return [f"∂f/∂{name} = {component.strip()}" for name, component in zip(order, components)]


def _split_top(text: str) -> list[str]:
    """text split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += (ch in "([{⟨") - (ch in ")]}⟩")
        if ch == "," and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return parts


def _same_function(answer, f: Reading, function_text: str, variables, limits) -> None:
    """d/dx(x³) = 3x² checked against x²: the left side must differentiate the function being checked."""
    operand = answer.split.operand
    if operand is None:
        return
    written = read_homework(operand, variables, limits)
    same = written.read_as == f.read_as
    if not same:
        import sympy as sp

        from gradcli.verify import sympy_forms

        names = {name: sp.Symbol(name, real=True) for name in [*f.variables, *written.variables]}
        try:
            same = sympy_forms.cpu_bounded(PROOF_SECONDS, sp.simplify, written.sympy(names) - f.sympy(names)) == 0
        except Exception:  # noqa: BLE001 - sympy cannot tell: they are not shown the same
            same = False
    if not same:
        raise GradcliError(f"the answer's left side {answer.split.lhs} differentiates {written.read_as}, "
                           f"but the function is {f.read_as}",
                           hint=f"write d/dx({function_text}) = ..., or just the derivative")


@dataclass
class _Answer:
    reading: Reading
    label: str | None  # from --expect x=...
    split: object  # homework.Answer
    written: str

    def target(self, names: list[str]) -> str | None:
        """The variable this answer names: --expect x=..., ∂f/∂x = ..., or `x = ...` for a variable x."""
        if self.label:
            return self.label
        if self.split.partial:
            return self.split.partial
        if self.split.label and self.split.label in names and len(names) > 1:
            return self.split.label
        return None


def _did_you_mean(name: str, names: list[str]) -> str:
    lowered = {n.lower(): n for n in names}
    close = [lowered[name.lower()]] if name.lower() in lowered else difflib.get_close_matches(name, names, n=1)
    return f"did you mean {close[0]}?" if close else f"the variables are {', '.join(names) or 'none'}"


def _wrt_list(wrt, order: int, names: list[str], implicit: str | None) -> list[str] | None:
    if wrt is None or wrt == [] or wrt == ():
        return None
    items = [wrt] if isinstance(wrt, str) else list(wrt)
    wrt_names = [part.strip() for item in items for part in item.split(",")]
    if "" in wrt_names:  # --wrt "" or x,,y: never a silent default
        raise GradcliError(f"--wrt {','.join(items)!r} has an empty variable name",
                           hint="name the variable, e.g. --wrt " + (names[0] if names else "x"))
    for name in wrt_names:
        if name not in names or name == implicit:
            what = f"the function has no variable {name!r}" if name != implicit else \
                f"{name} is the dependent variable: differentiate by the other (--wrt x)"
            raise GradcliError(f"--wrt {name}: {what}", hint=_did_you_mean(name, [n for n in names if n != implicit]))
    if len(wrt_names) > 1 and order != 1:
        raise GradcliError("--order with several --wrt: list every variable instead, e.g. --wrt x,x,y")
    if implicit and len(set(wrt_names)) > 1:
        raise GradcliError("an implicit derivative is taken with respect to one variable")
    return wrt_names * order if len(wrt_names) == 1 else wrt_names


def _targets(names, wrt_list, answers, order, implicit):
    free = [n for n in names if n != implicit]
    if not answers:
        if wrt_list:
            return [(tuple(wrt_list), None)]
        if implicit and len(free) == 1:
            return [(tuple(free * order), None)]
        if not free:  # `check 5`: nothing to differentiate by (an empty report would say nothing, exit 0)
            raise GradcliError("the function depends on no variable: say which derivative to take",
                               hint="--wrt x")
        return [((name,) * order, None) for name in free]
    targets = []
    for answer in answers:
        if answer.split.wrt or answer.split.order:
            targets.append((_as_labelled(answer, free, wrt_list, order, implicit), answer))
            continue
        named = answer.target(names)
        if named is not None and named not in free:
            raise GradcliError(f"the answer {answer.written!r} is for {named}, which is not a variable of the "
                               "function", hint=_did_you_mean(named, free))
        if named is not None and wrt_list and (named,) * len(wrt_list) != tuple(wrt_list):
            named = None if answer.label is None else named
        if named is not None:
            targets.append(((named,) * order, answer))
        elif wrt_list:
            targets.append((tuple(wrt_list), answer))
        elif len(free) == 1:
            targets.append(((free[0],) * order, answer))
        else:
            raise GradcliError(f"the function depends on {', '.join(free) or 'no variable'}: say which "
                               "derivative the answer is", hint='--wrt x (--wrt x,y for ∂²f/∂x∂y), or '
                                                                '--expect x="..."')
    return targets


def _as_labelled(answer, free, wrt_list, order, implicit) -> tuple[str, ...]:
    """The derivative an answer's left side names (dy/dx, d²y/dx², ∂²f/∂x∂y, f''(x), y''): that one, when the
    options ask for no other; an error when they ask for another (never a silent reading of the answer as
    a derivative its writer did not mean)."""
    split = answer.split
    if split.wrt:
        unknown = [v for v in split.wrt if v not in free]
        if unknown:
            raise GradcliError(f"the answer {split.lhs} = ... is a derivative by {unknown[0]}, which is not a "
                               "variable of the function", hint=_did_you_mean(unknown[0], free))
        stated = split.wrt
    elif wrt_list:
        stated = (wrt_list[0],) * split.order
    elif len(free) == 1:
        stated = (free[0],) * split.order
    else:
        raise GradcliError(f"the function depends on {', '.join(free)}: {split.lhs} does not say which "
                           "derivative the answer is", hint='--wrt x, or write ∂f/∂x = ...')
    asked = tuple(wrt_list) if wrt_list else (answer.label,) * order if answer.label else None
    if asked is None and order != 1:
        asked = (stated[0],) * order
    if asked is not None and Counter(asked) != Counter(stated):
        partial = len(free) > 1 and not implicit
        raise GradcliError(f"the answer says {split.lhs}, the options ask for "
                           f"{derivative_label(asked, partial, implicit)}",
                           hint="make them agree (--wrt, --order), or leave the options out: the answer's "
                                "left side says which derivative it is")
    return stated


# -- sympy: the formula -----------------------------------------------------------------------------------

def _symbolic_derivative(result: PartialCheck, f: Reading, symbols, implicit, timeout, report) -> None:
    import sympy as sp

    from gradcli.verify import symbolic, sympy_forms

    try:
        expr = f.sympy(symbols.all())
        if implicit:
            x, y = symbols[result.wrt[0]], symbols[implicit]
            result.derivative = sympy_forms.cpu_bounded(timeout, sp.idiff, expr, y, x, len(result.wrt))
        else:
            result.derivative = sympy_forms.cpu_bounded(timeout, sp.diff, expr, *(symbols[v] for v in result.wrt))
    except symbolic.SymbolicTimeout as err:
        report.symbolic_note = err.message
    except Exception as err:  # noqa: BLE001 - sympy failing on a formula must not stop the numbers
        report.symbolic_note = f"sympy failed: {type(err).__name__}"


def _hessian(f: Reading, names, symbols, timeout, implicit):
    import sympy as sp

    from gradcli.verify import sympy_forms

    if implicit:
        raise GradcliError("--hessian is for a function, not an equation")
    expr = f.sympy(symbols.all())
    return sympy_forms.cpu_bounded(timeout, lambda: [[sp.diff(expr, symbols[a], symbols[b]) for b in names]
                                                     for a in names])


# -- the numbers ------------------------------------------------------------------------------------------

def _literals(tree) -> set[float]:
    found = set()
    if tree[0] == "num":
        found.add(float(tree[1]))
    for part in tree[1:]:
        if isinstance(part, tuple):
            if part and isinstance(part[0], str):
                found |= _literals(part)
            else:
                for arg in part:
                    found |= _literals(arg)
    return found


def _functions(tree) -> set[str]:
    found = {tree[1]} if tree[0] == "call" else set()
    for part in tree[1:]:
        if isinstance(part, tuple):
            for sub in ([part] if part and isinstance(part[0], str) else part):
                found |= _functions(sub)
    return found


class _Comparer:
    """Finds points of the derivative's domain and compares an answer there."""

    def __init__(self, f: Reading, names: list[str], implicit: str | None):
        self.f = f
        self.names = names
        self.implicit = implicit
        tree = ("sub", f.tree[1], f.tree[2]) if implicit else f.tree
        self.tree = tree
        self.function = real_function(tree, names, exp_limit=100.0)
        self.bounded = bounds.bounded_function(tree, names, exp_limit=100.0)
        self.smooth = not (_functions(tree) & NON_SMOOTH)
        self.literals = sorted(v for v in _literals(tree) if v != 0)
        self._cache: dict = {}
        self.answer_function = self.wrt = self.region_difference = self.proof_how = None  # (_prove's answer)
        self.answer_pieces = ()  # the answer's parts on their own, for their cuts (see _answer_pieces)

    # points --------------------------------------------------------------------------------------------
    def candidates(self, extra_literals=frozenset()):
        """Round numbers first (readable counterexamples), then points near the constants of the function
        and of the answer (where a piecewise answer changes: relu(x - 500)), points of every scale, and
        random points."""
        free = [n for n in self.names if n != self.implicit]
        if self.smooth:
            for j in range(len(NICE_VALUES)):
                yield {v: NICE_VALUES[(j + 5 * m) % len(NICE_VALUES)] for m, v in enumerate(free)}
        literals = sorted({abs(c) for c in (*self.literals, *extra_literals) if abs(c) >= 2})[:8]
        centres = [c for value in literals for c in (value, -value)]
        probes = [c * f + d for c in centres for f, d in ((1, 0.37), (1, -0.37), (1.13, 0), (0.87, 0))]
        probes += [s * v for v in (7.31, 23.17, 97.73, 310.3, 1234.5, 9876.5) for s in (1, -1)]
        for j, value in enumerate(probes):
            yield {v: round(value if (m + j) % 3 else -value, 6) for m, v in enumerate(free)}
        rng = random.Random(20261123)
        for k in range(CANDIDATES):
            yield {v: self._random_value(rng, centres, k) for v in free}

    @staticmethod
    def _random_value(rng: random.Random, centres: list[float], k: int) -> float:
        kind = k % 5
        if kind == 4 and centres:
            c = rng.choice(centres)
            return round(c + rng.uniform(-1, 1) * abs(c) * rng.choice([0.01, 0.2, 1.0]), 6)
        if kind == 3:
            return round(rng.choice([-1, 1]) * 10 ** rng.uniform(-2, 4), 6)
        if kind == 2:
            return round(rng.uniform(-1, 1), 6)
        return round(rng.uniform(-1, 1) * rng.choice([2.0, 4.0, 12.0]), 6)

    def _narrow_candidates(self, found: list, extra_literals):
        """When the usual candidates found fewer than MIN_POINTS points (a narrow domain: ln(1e-6 − x²),
        arcsin(1000x), 1000 ≤ x ≤ 1001): points around those found, and around the constants at their own
        scale (c, 1/c, √c), rounded to 10 significant digits instead of 6 decimals."""
        if len(found) >= MIN_POINTS or self.implicit:  # (a curve: y is solved for, at a cost per point)
            return
        free = list(self.names)
        constants = {abs(c) for c in (*self.literals, *extra_literals) if c}
        scales = sorted({s for c in constants for s in (c, 1 / c, math.sqrt(c))})
        anchors = [{v: float(point[v]) for v in free} for point, _ in found]
        anchors += [{v: sign * c for v in free} for c in sorted(constants) for sign in (1, -1)]
        anchors.append({v: 0.0 for v in free})
        rng = random.Random(20261124)
        for _ in range(CANDIDATES):
            anchor = rng.choice(anchors)
            offsets = {v: rng.uniform(-1, 1) * rng.choice(scales or [1.0]) * 10 ** -rng.randint(0, 6) for v in free}
            yield {v: float(f"{anchor[v] + offsets[v]:.10g}") for v in free}

    def domain_points(self, wrt: tuple[str, ...], extra_literals=frozenset()):
        """Up to POINTS_WANTED (point, derivative) pairs where the derivative is defined."""
        key = (wrt, frozenset(extra_literals))
        if key in self._cache:
            return self._cache[key]
        import mpmath

        found = []
        candidates = self.candidates(extra_literals)
        for candidate in itertools.chain(candidates, self._narrow_candidates(found, extra_literals)):
            if len(found) >= POINTS_WANTED:
                break
            with mpmath.workdps(DIGITS):
                try:
                    point = self._on_curve(candidate) if self.implicit else candidate
                    if point is None:
                        continue
                    derivative = self.bounded_derivative(point, wrt)
                except (Undefined, ZeroDivisionError, ValueError, OverflowError):
                    continue
                if derivative is None:
                    continue
            found.append((point, derivative))
        self._cache[key] = found
        return found

    def _values(self, point: dict):
        import mpmath

        return [mpmath.mpf(point[n]) for n in self.names]

    def derivative(self, point: dict, wrt: tuple[str, ...]):
        """d^n f / d wrt... at `point`, in the current precision (None if not defined there): the value of
        `bounded_derivative`."""
        bound = self.bounded_derivative(point, wrt)
        return None if bound is None else bound.value

    def bounded_derivative(self, point: dict, wrt: tuple[str, ...]):
        """d^n f / d wrt... at `point` with its error bound (a `bounds.Bound`), at about the current
        precision's digits; None where it is not defined (a kink, a vertical tangent)."""
        import mpmath

        values = self._values(point)
        self.function(*values)  # defined at the point itself
        if self.implicit:
            return self._implicit_derivative(values, wrt)
        if not all(bounds.uses(self.tree, name) for name in wrt):
            return bounds.Bound(mpmath.mpf(0), mpmath.mpf(0))  # f(x, y) = 3x² + 1: ∂f/∂y is exactly 0
        counts = Counter(wrt)
        orders = tuple(counts.get(n, 0) for n in self.names)
        value = bounds.derivative(self.bounded, values, orders)
        if not self.smooth:  # a kink inside the stencil: one-sided derivatives differ
            if len(self.names) == 1 and len(wrt) == 1:
                left = mpmath.diff(self.function, values[0], 1, direction=-1)
                right = mpmath.diff(self.function, values[0], 1, direction=1)
                if not _close(left, right):
                    return None
        return value

    def _implicit_derivative(self, values, wrt):
        import mpmath

        ix, iy = self.names.index(wrt[0]), self.names.index(self.implicit)

        def partial(*counts):
            orders = [0] * len(values)
            for index, k in counts:
                orders[index] += k
            return bounds.derivative(self.bounded, values, tuple(orders))

        hy = partial((iy, 1))
        hx = partial((ix, 1))
        if hy.value == 0 or abs(hy.value) < mpmath.mpf(10) ** -8 * (abs(hx.value) + abs(hy.value)):
            return None  # a vertical tangent or a singular point of the curve
        slope = -hx / hy
        if len(wrt) == 1:
            return slope
        if len(wrt) == 2:
            hxx, hxy, hyy = partial((ix, 2)), partial((ix, 1), (iy, 1)), partial((iy, 2))
            return -(hxx + 2 * hxy * slope + hyy * slope ** 2) / hy
        raise GradcliError("implicit derivatives are checked up to the second order")

    def compare(self, point: dict, wrt: tuple[str, ...], answer, wanted: int = None, ladder=bounds.LADDER,
                first=None):
        """The answer against the derivative at `point`, each with its error bound, the precision raised
        (bounds.LADDER) until their errors decide: ("agree" | "differ", point, derivative, value, digits),
        ("undefined", point, derivative) where the answer is not defined, or ("unresolved", ...) when no
        precision tried gives them the digits (the point is then not used: a verdict never rests on digits
        a value does not have).  `first`: the derivative's Bound at ladder[0], when already known."""
        import mpmath

        wanted = EQUAL_DIGITS if wanted is None else wanted
        derivative = value = None
        for k, digits in enumerate(ladder):
            with mpmath.workdps(digits):
                try:
                    here = point
                    if self.implicit and digits > DIGITS:
                        here = self._polished(point)
                    derivative = first if (k == 0 and first is not None) else self.bounded_derivative(here, wrt)
                    if derivative is None:
                        return ("unresolved", point, None, None, 0)
                except (Undefined, ZeroDivisionError, ValueError, OverflowError):
                    return ("unresolved", point, None, None, 0)
                try:
                    value = answer(*self._values(here))
                except Undefined:  # (the whole error interval of its argument outside the domain)
                    return ("undefined", here, derivative.value, None, 0)
                difference = abs(derivative.value - value.value)
                error = derivative.error + value.error
                tolerance = mpmath.mpf(10) ** -wanted * max(abs(derivative.value), abs(value.value))
                if difference > 4 * error and difference > tolerance:
                    return ("differ", here, derivative.value, value.value, _agreement_digits(derivative.value,
                                                                                             value.value))
                if difference <= tolerance and error <= tolerance:
                    return ("agree", here, derivative.value, value.value, wanted)
        return ("unresolved", point, None if derivative is None else derivative.value,
                None if value is None else value.value, 0)

    def _polished(self, point: dict) -> dict:
        """The point of the curve near `point` (found at DIGITS), solved again at the current precision: on
        the curve, the answer may use the equation (y'' = −1/y³ on x² + y² = 1)."""
        import mpmath

        iy = self.names.index(self.implicit)
        base = self._values(point)

        def h(y):
            values = list(base)
            values[iy] = y
            return self.function(*values)

        try:
            y = mpmath.findroot(h, mpmath.mpf(point[self.implicit]))
        except (Undefined, ZeroDivisionError, ValueError, OverflowError, TypeError):
            return point
        return point if isinstance(y, mpmath.mpc) else {**point, self.implicit: y}

    def _on_curve(self, candidate: dict):
        """A point of the curve H = 0 at these values of the other variables (None if none is found)."""
        import mpmath

        iy = self.names.index(self.implicit)
        start_index = len(self._cache.get("starts", []))
        starts = (0.5, -0.5, 1.5, -1.5, 3.0, -3.0, 0.1, 10.0, -10.0)
        base = self._values({**candidate, self.implicit: 0.0})

        def h(y):
            values = list(base)
            values[iy] = y
            return self.function(*values)

        if not _changes_sign(h):
            return None  # (where the curve has no point at these values, 9 searches of 30 steps each cost most)
        for k in range(len(starts)):
            y0 = starts[(k + start_index) % len(starts)]
            try:
                with mpmath.workdps(20):
                    y = mpmath.findroot(h, mpmath.mpf(y0), tol=mpmath.mpf(10) ** -15)
                y = mpmath.findroot(h, y)  # polish at the working precision
            except (Undefined, ZeroDivisionError, ValueError, OverflowError, TypeError):
                continue
            if isinstance(y, mpmath.mpc) or abs(h(y)) > mpmath.mpf(10) ** (-mpmath.mp.dps // 2):
                continue
            self._cache.setdefault("starts", []).append(y0)
            return {**candidate, self.implicit: y}
        return None

    # judging -------------------------------------------------------------------------------------------
    def judge(self, result: PartialCheck, timeout: float, symbols) -> None:

        answer = result.answer
        stray = [v for v in answer.variables if v not in self.names]
        if stray:
            result.verdict, result.decided_by = "incorrect", "variables"
            result.reason = f"your answer depends on {', '.join(stray)}, which the function does not"
            return
        answer_function = bounds.bounded_function(answer.tree, self.names)
        points = self.domain_points(result.wrt, frozenset(_literals(answer.tree)))
        worst_digits, differing, undefined, unresolved = None, [], [], []
        for point, derivative in points:
            outcome, here, value_d, value_a, digits = self.compare(point, result.wrt, answer_function,
                                                                   first=derivative)
            if outcome == "undefined":
                undefined.append((point, value_d))
            elif outcome == "differ":
                differing.append((here, value_d, value_a, digits))
                worst_digits = digits if worst_digits is None else min(worst_digits, digits)
            elif outcome == "unresolved":
                unresolved.append(point)
        if unresolved:  # no precision tried gives these points the digits to compare: not used
            points = [(p, d) for p, d in points if not any(p is q for q in unresolved)]
        result.points = len(points)
        undefined, no_derivative = self._where_defined(undefined, result.wrt)
        differing, kinks = self._where_defined(differing, result.wrt)
        if no_derivative or kinks:  # not points of the derivative's domain after all
            dropped = [entry[0] for entry in no_derivative + kinks]
            points = [(p, d) for p, d in points if not any(p is q for q in dropped)]
            result.points = len(points)
        if undefined:
            point, derivative = undefined[0]
            result.verdict, result.decided_by = "incorrect", "numbers"
            result.counterexample = {"point": _plain(point), "expected": None, "derivative": _number(derivative)}
            result.reason = (f"your answer is undefined at {len(undefined)} of {len(points)} points where the "
                             "derivative is defined")
            return
        if differing:
            # a point where both are ordinary floats, if there is one: "gives inf, the derivative is inf" shows
            # nothing; else the exact values, as text (5.80e+883)
            shown = [d for d in differing if _is_float(d[1]) and _is_float(d[2])] or differing
            point, derivative, value, _ = self._plain_counterexample(result.wrt, answer_function) or \
                min(shown, key=lambda d: self._plainness(d[0]))
            result.verdict, result.decided_by = "incorrect", "numbers"
            result.counterexample = {"point": _plain(point), **_differing_values(value, derivative)}
            if 2 * len(differing) >= len(points) and worst_digits is not None and worst_digits >= 3:
                result.reason = (f"it agrees to only {worst_digits} significant digits where they differ "
                                 f"({len(differing)} of {len(points)} points); a derivative is exact")
                # about rounded constants only when the answer holds one (e^x + 10^-20 holds none)
                result.hint = _rounding_hint(answer.tree, worst_digits, answer.text) if _has_decimal(answer) else None
            else:
                result.reason = f"they differ at {len(differing)} of {len(points)} points of the domain"
            return
        if len(points) >= MIN_POINTS:
            self._prove(result, timeout, symbols, points, answer_function)
            if result.verdict == "correct":
                self._undefined_where_cancelled(result, symbols, points)
            return
        self._by_sympy(result, timeout, symbols, len(points))

    def _prove(self, result: PartialCheck, timeout: float, symbols, points, answer_function) -> None:
        """The numbers agree: "correct" needs sympy's proof that the answer minus the derivative is 0.  A
        difference that is a non-zero constant (10⁻⁴⁰, e^(−1000), π minus its 38 digits) is a wrong answer,
        and so is a difference that shows at a precision far beyond the comparison's; with neither proof nor
        difference the answer only agrees (not proven)."""
        import sympy as sp

        from gradcli.verify import sympy_forms

        agrees = f"equal to {EQUAL_DIGITS}+ significant digits at all {len(points)} points of the domain tried"
        result.verdict, result.decided_by, result.reason, result.proven = "correct", "numbers", agrees, False
        self.answer_function, self.wrt, self.region_difference = answer_function, result.wrt, None
        self.answer_pieces = _answer_pieces(result.answer.tree, symbols.all())
        self.proof_how = None
        budget = min(PROOF_SECONDS, timeout / 3)
        end = time.process_time() + min(PROOF_TOTAL_SECONDS, timeout / 2)  # every strategy together

        def within() -> float:  # each strategy's budget: its own, or what is left of the total
            return max(0.01, min(budget, end - time.process_time()))

        difference = None
        try:
            _symbolic_derivative(result, self.f, symbols, self.implicit, timeout, self.report)
            if result.derivative is not None:
                difference = sympy_forms.cpu_bounded(budget, _quick_difference,
                                              result.answer.sympy(symbols.all()) - result.derivative)
        except Exception:  # noqa: BLE001 - sympy failing or out of time leaves the numbers' verdict, qualified
            difference = None
        if difference is not None and self._settled(result, difference, agrees):
            return
        differing = self._differs_finely(points, result.wrt, answer_function)
        if differing is not None:
            point, derivative, value, digits = differing
            result.verdict, result.decided_by, result.proven = "incorrect", "numbers", None
            import mpmath

            shown = min(digits + 3, FINE_DIGITS // 2)  # enough digits to see where they part (as text)
            result.counterexample = {"point": _plain(point), "expected": mpmath.nstr(value, shown),
                                     "derivative": mpmath.nstr(derivative, shown)}
            result.reason = (f"it differs from the derivative in the {digits + 1}th significant digit at "
                             f"{', '.join(f'{k} = {float(v):g}' for k, v in point.items())} (compared at "
                             f"{FINE_DIGITS} digits); a derivative is exact")
            hint = _rounding_hint(result.answer.tree, digits, result.answer.text)
            result.hint = hint if "exactly, not" in hint else None  # only a constant it stands for
            return
        hyperbolic = difference is not None and difference.has(sp.sinh, sp.cosh, sp.tanh, sp.sech, sp.csch, sp.coth)
        rewrites = (  # identities simplify misses, seen in another form first, each in a fraction of its time
            (hyperbolic, sp.exp, "when written with exp"),  # sech² u = 1 − tanh² u
            (difference is not None and difference.has(sp.tan, sp.sec, sp.csc, sp.cot), sp.cos,
             "when written with sin and cos"))  # sec² u − tan² u = 1 for u = 2x − y
        for applies, target, written in rewrites:
            try:
                if applies and sympy_forms.cpu_bounded(within(), _zero_written_with, difference, target):
                    result.decided_by, result.proven = "numbers and sympy", True
                    result.reason = agrees + f"; the difference simplifies to 0 {written}"
                    return
            except Exception:  # noqa: BLE001 - out of time: the other strategies follow
                pass
        if difference is not None:
            quick = difference
            try:
                difference = sympy_forms.cpu_bounded(within(), sp.simplify, difference)
            except Exception:  # noqa: BLE001 - out of time: not proven
                difference = None
            if difference is not None and self._settled(result, difference, agrees):
                return
            strategies = [
                lambda: "on each part of the domain" if self._zero_by_cases(quick, points, symbols, within()) else None,
                lambda: self._zero_rewritten(quick, result, points, symbols, within()),
            ]
            for strategy in strategies:
                how = strategy() if end > time.process_time() else None
                if how:
                    result.decided_by, result.proven = "numbers and sympy", True
                    result.reason = agrees + f"; the difference simplifies to 0 {how}" + \
                        (f" ({self.proof_how})" if self.proof_how else "")
                    return
        if self.region_difference is not None:
            point, derivative, value = self.region_difference
            result.verdict, result.decided_by, result.proven = "incorrect", "numbers", None
            result.counterexample = {"point": _plain(point), **_differing_values(value, derivative)} \
                if value is not None else {"point": _plain(point), "expected": None, "derivative": _number(derivative)}
            result.reason = (f"they agree at all {len(points)} points tried, but differ on a part of the domain "
                             f"no point fell in ({', '.join(f'{k} = {float(v):g}' for k, v in point.items())})"
                             if value is not None else
                             f"your answer is undefined on a part of the domain no point fell in, where the "
                             f"derivative is defined ({', '.join(f'{k} = {float(v):g}' for k, v in point.items())})")
            return
        if _has_decimal(result.answer):
            result.verdict, result.decided_by, result.proven = "incorrect", "numbers", None
            result.reason = "your answer holds a decimal that cannot be proven equal to the exact constant"
            result.hint = _rounding_hint(result.answer.tree, EQUAL_DIGITS, result.answer.text)
            return
        result.reason = agrees + " (not proven: sympy could not simplify the difference to 0 in time)"

    def _undefined_where_cancelled(self, result: PartialCheck, symbols, points) -> None:
        """A proven or agreeing answer of one variable whose parts are undefined on a narrow region no sampled
        point fell in, cancelled in sympy's difference (2x + ln(x² − 10⁻⁶) − ln(x² − 10⁻⁶) against (x²)':
        undefined for |x| < 10⁻³, where the derivative is defined): the numbers at each region's point."""
        if self.implicit or len(self.names) != 1 or not self.answer_pieces or self.region_difference is not None:
            return
        from gradcli.verify import sympy_forms, zero_proofs

        x = symbols[self.names[0]]
        try:
            function = _real_sympy(self.tree, symbols.all())
            found = sympy_forms.cpu_bounded(min(PROOF_SECONDS, 1.0), zero_proofs.regions,
                                            [function, *self.answer_pieces], x)
        except Exception:  # noqa: BLE001 - cuts not exact, or out of time: nothing more to look at
            return
        for region in found:
            if not zero_proofs.defined_at(function, x, region.point):
                continue
            self._compare_in_region(region, self.names[0], points)
        if self.region_difference is None:
            return
        point, derivative, value = self.region_difference
        where = ", ".join(f"{k} = {float(v):g}" for k, v in point.items())
        result.verdict, result.decided_by, result.proven = "incorrect", "numbers", None
        if value is None:
            result.counterexample = {"point": _plain(point), "expected": None, "derivative": _number(derivative)}
            result.reason = (f"your answer is undefined on a part of the domain no point fell in, where the "
                             f"derivative is defined ({where}); sympy's form of it cancels what is undefined")
        else:
            result.counterexample = {"point": _plain(point), **_differing_values(value, derivative)}
            result.reason = f"they agree at all {len(points)} points tried, but differ where no point fell ({where})"

    def _zero_by_cases(self, difference, points, symbols, budget: float) -> bool:
        """sympy's proof by cases, as a student argues |x|' = x/|x|.  One variable: on every region of the
        line where the function is defined, cut exactly where anything in it changes its nature (see
        verify/zero_proofs.py); a region no sampled point fell in is also compared in numbers there (a
        wrong answer that differs only for |x| < 10⁻³ is found, `self.region_difference`).  Otherwise on
        every sign of each variable and of each |u|, sign(u), H(u) — all of them, not only those the
        sampled points showed — and on each branch of an equation's curve (y = ±√(1 − x²))."""
        import sympy as sp

        from gradcli.verify import sympy_forms, zero_proofs

        variables = [name for name in self.names
                     if name != self.implicit and symbols[name] in difference.free_symbols]
        if len(variables) == 1 and not (self.implicit and symbols[self.implicit] in difference.free_symbols):
            x = symbols[variables[0]]
            try:
                function = _real_sympy(self.tree, symbols.all())
                proof = sympy_forms.cpu_bounded(budget, zero_proofs.zero_on_domain, difference, function, x,
                                                self.answer_pieces)
            except zero_proofs.Unsupported:
                proof = None
            except Exception:  # noqa: BLE001 - out of time or sympy failing: not proven
                return False
            if proof is not None:
                # the numbers at every region no sampled point fell in: sympy's forms cancel what the answer
                # as read does not (ln(x² − 10⁻⁶) − ln(x² − 10⁻⁶) is 0 to sympy, undefined for |x| < 10⁻³)
                for region in proof.regions:
                    self._compare_in_region(region, variables[0], points)
                if proof.proven and proof.how:
                    self.proof_how = proof.how
                if proof.proven or self.region_difference is not None:
                    return proof.proven and self.region_difference is None
                # not proven region by region (arcsec's regions): the sign cases below may still prove it
        kinks = sorted({atom.args[0] for atom in difference.atoms(sp.Abs, sp.sign, sp.Heaviside)},
                       key=sp.default_sort_key)
        if len(variables) + len(kinks) > 4:
            return False
        cases = list(itertools.product((1, -1), repeat=len(variables) + len(kinks)))
        branches = [{}]
        if self.implicit and symbols[self.implicit] in difference.free_symbols:
            try:
                equation = self.f.sympy(symbols.all())
                solutions = sympy_forms.cpu_bounded(budget, sp.solve, equation, symbols[self.implicit])
            except Exception:  # noqa: BLE001 - no branches: no proof this way
                return False
            if not solutions:
                return False
            branches = [{symbols[self.implicit]: solution} for solution in solutions]

        function = _real_sympy(self.tree, symbols.all())

        def proof() -> bool:
            checked = 0  # cases where the function is real: none at all is no proof (√x + √−x: only x = 0)
            for signs in cases:
                unfolded = {}
                for kink, sign in zip(kinks, signs[len(variables):]):
                    unfolded[sp.Abs(kink)], unfolded[sp.sign(kink)] = sign * kink, sp.Integer(sign)
                    unfolded[sp.Heaviside(kink)] = sp.Integer(1 if sign > 0 else 0)
                positive = {symbols[name]: sign * sp.Symbol(name, positive=True)
                            for name, sign in zip(variables, signs)}
                if any((kink.subs(positive).is_negative if sign > 0 else kink.subs(positive).is_positive)
                       for kink, sign in zip(kinks, signs[len(variables):])):
                    continue  # no point has these signs (|t| taken as −t while t > 0)
                if not self.implicit and function.subs(positive).is_extended_real is False:
                    continue  # the function is not real anywhere in this case (ln x for x < 0)
                for branch in branches:
                    case = difference.xreplace(unfolded)
                    case = case.subs(branch).subs(positive) if branch else case.subs(positive)
                    case = sp.simplify(case)
                    if case != 0 and sp.simplify(case.rewrite(sp.exp)) != 0:
                        if branch and case.is_real is False:
                            continue  # a branch of the curve not real in this case
                        return False
                    checked += 1
            return checked > 0

        try:
            return sympy_forms.cpu_bounded(budget, proof)
        except Exception:  # noqa: BLE001 - out of time: not proven
            return False

    def _compare_in_region(self, region, name: str, points) -> None:
        """The numbers at the point of a region of the domain where no sampled point fell (|x| < 10⁻³ for
        |x² − 10⁻⁶|): a difference there is kept in `self.region_difference` as a counterexample."""
        if getattr(self, "region_difference", None) is not None or self.answer_function is None:
            return
        if any(region.contains(_exact(point[name])) for point, _ in points):
            return
        point = {name: float(region.point)}
        import mpmath

        with mpmath.workdps(DIGITS):
            try:
                first = self.bounded_derivative(point, self.wrt)
            except (Undefined, ZeroDivisionError, ValueError, OverflowError):
                return
        if first is None:
            return
        outcome, here, derivative, value, _ = self.compare(point, self.wrt, self.answer_function, first=first)
        if outcome in ("differ", "undefined") and self._differentiable_at(here, derivative, self.wrt):
            self.region_difference = (here, derivative, value)

    def _zero_rewritten(self, difference, result, points, symbols, budget: float) -> str | None:
        """More ways to show answer − derivative is 0, each an identity (so a 0 is a proof), all within one
        budget of CPU time: rewritten with exp (sech² u = 1 − tanh² u), with each square root's radicand
        factored (√(x² + 2x + 1) = |x + 1|, then by sign cases), and with ∛ and odd roots as the real roots
        they are (∛u = sign(u)·|u|^(1/3), then by sign cases).  Returns how, or None."""
        import sympy as sp

        from gradcli.verify import sympy_forms

        end = time.process_time() + budget

        def left() -> float:
            return max(0.0, end - time.process_time())


        def factored():
            return difference.replace(lambda e: e.is_Pow and e.exp.is_Rational and e.exp.q == 2,
                                      lambda e: sp.factor(e.base) ** e.exp)

        try:
            hyperbolic = difference.has(sp.sinh, sp.cosh, sp.tanh, sp.sech, sp.csch, sp.coth)
            if not hyperbolic and sympy_forms.cpu_bounded(left(), _zero_written_with, difference, sp.exp):
                return "when written with exp"  # (a hyperbolic difference was tried so first of all)
            radicands = sympy_forms.cpu_bounded(left(), factored)
            if radicands != difference:
                simple = sympy_forms.cpu_bounded(left(), sp.simplify, radicands)
                if simple == 0 or self._zero_by_cases(simple, points, symbols, left()):
                    return "with the square roots' radicands factored, on each part of the domain"
            real = self._real_root_difference(result, symbols, left())
            if real is not None and (real == 0 or self._zero_by_cases(real, points, symbols, left())):
                return "with cube and odd roots as real roots, on each part of the domain"
        except Exception:  # noqa: BLE001 - out of time or sympy failing: not proven this way
            return None
        return None

    def _real_root_difference(self, result, symbols, budget: float):
        """answer − derivative with ∛u and u^(p/q), q odd, written as the real roots they are
        (sign(u)^p·|u|^(p/q)); None when neither has one."""
        import sympy as sp

        from gradcli.verify import sympy_forms

        trees = [result.answer.tree, self.tree]
        if not any(_has_odd_root(t) for t in trees):
            return None
        names = symbols.all()

        def build():
            answer = _real_sympy(result.answer.tree, names)
            function = _real_sympy(self.tree, names)
            derivative = sp.diff(function, *(names[v] for v in result.wrt))
            return (answer - derivative).replace(sp.DiracDelta, lambda *args: 0)  # (simplified case by case)

        return sympy_forms.cpu_bounded(budget, build)

    @staticmethod
    def _settled(result: PartialCheck, difference, agrees: str) -> bool:
        """Decide from sympy's form of answer − derivative, when it decides: 0 (proven) or non-zero."""
        import sympy as sp

        if difference == 0:
            result.decided_by, result.proven = "numbers and sympy", True
            result.reason = agrees + "; the difference simplifies to 0"
            return True
        numerator, _ = sp.fraction(sp.together(difference))
        if numerator.is_number and numerator.is_zero is False:
            result.verdict, result.decided_by, result.proven = "incorrect", "sympy", None
            if difference.is_number:
                what = f"the constant {_constant_text(difference)}"
            else:
                constant, variable = sp.fraction(sp.together(difference))[1].as_independent(*difference.free_symbols)
                what = f"about {sp.sstr(sp.N(numerator / constant, 6))}/({sp.sstr(variable)})"
            result.reason = (f"the numbers agree to {EQUAL_DIGITS}+ digits, but your answer minus the derivative "
                             f"is {what}, not 0; a derivative is exact")
            decimal = _has_decimal(result.answer)
            result.hint = _rounding_hint(result.answer.tree, EQUAL_DIGITS, result.answer.text) if decimal else None
            return True
        return False

    def _differs_finely(self, points, wrt, answer_function):
        """The first of a few points where the answer and the derivative differ beyond their error bounds
        when compared at FINE_DIGITS digits (a rounded constant kept to 38 digits), as (point, derivative,
        value, digits); None if none does."""
        ladder = tuple(d for d in bounds.LADDER if d >= FINE_DIGITS) or (FINE_DIGITS,)
        for point, _ in points[:4]:
            outcome, here, derivative, value, digits = self.compare(point, wrt, answer_function,
                                                                    wanted=FINE_DIGITS // 2, ladder=ladder)
            if outcome == "differ":
                return here, derivative, value, digits
        return None

    def _plain_counterexample(self, wrt, answer_function):
        """A difference at a point a student would pick (x = −1, 2, 1/2 ...), when there is one; None else."""
        free = [name for name in self.names if name != self.implicit]
        if self.implicit or len(free) > 2:
            return None
        give_up = time.process_time() + PLAIN_SECONDS
        for values in itertools.product(NICE_VALUES[:8], repeat=len(free)):
            if time.process_time() > give_up:  # (sin(2πy) is 0 at most nice points: each costs a precision climb)
                return None
            point = dict(zip(free, values))
            outcome, here, derivative, value, digits = self.compare(point, wrt, answer_function,
                                                                    wanted=EQUAL_DIGITS // 2)
            if outcome == "differ" and _is_float(derivative) and _is_float(value) and \
                    self._differentiable_at(point, derivative, wrt):
                return point, derivative, value, digits
        return None

    def _plainness(self, point: dict) -> tuple:
        """How plain a point is to a student (x = −1 before x = −7.31): small integers first, then the nice
        values, then the rest by size; the dependent variable of a curve does not count."""
        score = 0
        for name, value in point.items():
            if name == self.implicit:
                continue
            value = float(value)
            score += 0 if value == int(value) and abs(value) <= 3 else 1 if value in NICE_VALUES else 3
        return score, sum(abs(float(v)) for v in point.values())

    def _where_defined(self, bad: list, wrt: tuple[str, ...]) -> tuple[list, list]:
        """The points of `bad` (where the answer is undefined or differs) at which the derivative really
        exists, checked up to the first that passes (one real counterexample decides; the rest are only
        counted).  mpmath's central difference gives a number where there is no derivative: 0 at the kink of
        sqrt((x − 1)²), a huge one at the vertical tangent of cbrt(x − 1).  Returns (kept, dropped)."""
        kept, dropped = [], []
        for entry in bad:
            (kept if kept or self._differentiable_at(entry[0], entry[1], wrt) else dropped).append(entry)
        return kept, dropped

    def _differentiable_at(self, point: dict, derivative, wrt: tuple[str, ...]) -> bool:
        """Whether the derivative exists at `point`: along each variable differentiated by, its change a
        hair away (10⁻²⁰ and 10⁻²⁵ of the scale, far above mpmath's step of 10⁻⁴⁴) must shrink with the
        distance, as it does (linearly) where the derivative is continuous, however fast it varies
        (cos(10⁶πx)).  Across a kink the change stays the same; at a cusp it stays huge."""
        import mpmath

        with mpmath.workdps(DIGITS):
            for name in dict.fromkeys(wrt):
                here = mpmath.mpf(point[name])
                scale = max(1, abs(here))
                for sign in (1, -1):
                    changes = []
                    for distance in (mpmath.mpf(10) ** -20, mpmath.mpf(10) ** -25):
                        try:
                            near = self.bounded_derivative({**point, name: here + sign * distance * scale}, wrt)
                        except (Undefined, ZeroDivisionError, ValueError, OverflowError):
                            return False  # at the edge of the domain: no two-sided derivative
                        if near is None:
                            return False
                        noise = mpmath.mpf(10) ** (6 - DIGITS) * max(abs(near.value), abs(derivative)) + \
                            4 * near.error  # a change within the digits the values have is no change
                        changes.append((abs(near.value - derivative), noise))
                    (far, _), (close, noise) = changes
                    if close > far / 1000 + noise:
                        return False
        return True

    def _by_sympy(self, result: PartialCheck, timeout: float, symbols, found: int) -> None:
        import sympy as sp

        from gradcli.verify import symbolic, sympy_forms

        why = f"only {found} points of the domain found"
        if self._nowhere_defined(symbols):
            result.verdict, result.decided_by = "undecided", "sympy"
            result.reason = (f"the function is not real on any interval of {self.names[0]} (every part of the "
                             f"line, checked exactly): it has no derivative to compare with")
            return
        _symbolic_derivative(result, self.f, symbols, self.implicit, timeout, self.report)
        if result.derivative is None:
            result.verdict, result.reason = "undecided", why + " and sympy has no formula"
            return
        try:
            expected = result.answer.sympy(symbols.all())
            difference = sympy_forms.cpu_bounded(timeout, sp.simplify, result.derivative - expected)
        except symbolic.SymbolicTimeout:
            result.verdict, result.reason = "undecided", why + f"; sympy took longer than {timeout:g} s"
            return
        if difference == 0:
            result.verdict, result.decided_by, result.proven = "correct", "sympy", True
            result.reason = why + "; the difference simplifies to 0"
            self.answer_function = bounds.bounded_function(result.answer.tree, self.names)
            self.wrt, self.region_difference = result.wrt, None
            self.answer_pieces = _answer_pieces(result.answer.tree, symbols.all())
            self._undefined_where_cancelled(result, symbols, [])
        elif difference.is_number and difference.is_zero is False:
            result.verdict, result.decided_by = "incorrect", "sympy"
            result.reason = why + f"; the difference simplifies to the constant {sp.sstr(difference)}, not 0"
        elif (example := _exact_counterexample(result.derivative, expected, symbols, self.names)) is not None:
            # values beyond floats (e^800 sin x): sympy's evaluation at any precision shows the difference
            point, derivative, value = example
            result.verdict, result.decided_by = "incorrect", "sympy"
            result.counterexample = {"point": point, "expected": value, "derivative": derivative}
            result.reason = why + " in floats; evaluated exactly, the answer and the derivative differ"
        elif self._by_regions(result, expected - result.derivative, symbols, timeout, why):
            return
        else:
            result.verdict, result.reason = "undecided", why + "; sympy could not simplify the difference to 0"

    def _nowhere_defined(self, symbols) -> bool:
        """One variable, no point of the domain found: whether the line, cut exactly (verify/zero_proofs.py),
        has no region where the function is real (ln x + ln(−x), √x + √(−x)); a domain of isolated points has
        no derivative.  False when it cannot tell."""
        if self.implicit or len(self.names) != 1:
            return False
        from gradcli.verify import sympy_forms, zero_proofs

        x = symbols[self.names[0]]
        try:
            function = _real_sympy(self.tree, symbols.all())
            found = sympy_forms.cpu_bounded(min(PROOF_SECONDS, 1.0), zero_proofs.regions, [function], x)
            return not any(zero_proofs.defined_at(function, x, region.point) for region in found)
        except Exception:  # noqa: BLE001 - cuts not exact, or out of time: cannot tell
            return False

    def _by_regions(self, result: PartialCheck, difference, symbols, timeout: float, why: str) -> bool:
        """Where the numbers had no point to compare (the derivative is 0 at every sampled point, as the
        answer): the proof region by region, and the numbers at each region's point (|x² − 10⁻⁶| − x² has
        derivative −4x for |x| < 10⁻³, and 0 elsewhere).  Whether it decided."""
        self.answer_function = bounds.bounded_function(result.answer.tree, self.names)
        self.wrt, self.region_difference, self.proof_how = result.wrt, None, None
        self.answer_pieces = _answer_pieces(result.answer.tree, symbols.all())
        proven = self._zero_by_cases(difference, [], symbols, min(PROOF_SECONDS, timeout / 3))
        if self.region_difference is not None:
            point, derivative, value = self.region_difference
            result.verdict, result.decided_by, result.proven = "incorrect", "numbers", None
            result.counterexample = {"point": _plain(point), **_differing_values(value, derivative)} \
                if value is not None else {"point": _plain(point), "expected": None, "derivative": _number(derivative)}
            where = ", ".join(f"{k} = {float(v):g}" for k, v in point.items())
            result.reason = why + (f"; they differ at {where}" if value is not None else
                                   f"; your answer is undefined at {where}, where the derivative is defined")
            return True
        if proven:
            result.verdict, result.decided_by, result.proven = "correct", "sympy", True
            result.reason = why + "; the difference simplifies to 0 on each part of the domain" + \
                (f" ({self.proof_how})" if self.proof_how else "")
            return True
        return False


_SCAN = sorted({s * v for v in (0.01, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 100, 1000, 10**4, 10**6)
                for s in (1, -1)} | {0})


def _changes_sign(h) -> bool:
    """Whether h is 0, or changes sign, between two neighbours of a scan of y from −10⁶ to 10⁶ (15 digits):
    a candidate of a curve without it is skipped.  A root the scan misses (two in one step, a double root,
    |y| > 10⁶) only costs a point; every point used is still solved and checked on the curve."""
    import mpmath

    previous = None
    with mpmath.workdps(15):
        for y in _SCAN:
            try:
                value = h(mpmath.mpf(y))
            except (Undefined, ZeroDivisionError, ValueError, OverflowError, TypeError):
                previous = None
                continue
            if value == 0 or (previous is not None and (previous > 0) != (value > 0)):
                return True
            previous = value
    return False


def _has_odd_root(tree) -> bool:
    if tree[0] == "call" and tree[1] == "cbrt":
        return True
    if tree[0] == "pow":
        fraction = constant_fraction(tree[2])
        if fraction is not None and fraction.denominator % 2 == 1 and fraction.denominator > 1:
            return True
    return any(_has_odd_root(part) for part in tree[1:] if isinstance(part, tuple) and part and
               isinstance(part[0], str)) or (tree[0] == "call" and any(_has_odd_root(a) for a in tree[2]))


def _answer_pieces(tree, symbols) -> tuple:
    """Each function call, quotient and power of the answer in sympy on its own: where they are undefined
    is cut even when sympy cancels them in the whole (2x + ln(x² − 10⁻⁶) − ln(x² − 10⁻⁶) is 2x to sympy,
    undefined for |x| < 10⁻³), so the numbers look there."""
    pieces, stack = [], [tree]
    while stack and len(pieces) < 40:
        node = stack.pop()
        if node[0] in ("call", "div", "pow"):
            try:
                pieces.append(_real_sympy(node, symbols))
            except Exception:  # noqa: BLE001 - a part sympy cannot build adds no cuts
                pass
        stack.extend(child for child in node[1:] if isinstance(child, tuple) and child and isinstance(child[0], str))
        if node[0] == "call":
            stack.extend(node[2])
    return tuple(pieces)


def _real_sympy(tree, symbols):
    """The tree in sympy with ∛u and u^(p/q), q odd, as real roots: sign(u)^p·|u|^(p/q) (the reader's
    semantics; sympy's own u^(1/3) is the principal, complex root for u < 0)."""
    import sympy as sp

    kind = tree[0]
    if kind == "call" and tree[1] == "cbrt":
        u = _real_sympy(tree[2][0], symbols)
        return sp.sign(u) * sp.Abs(u) ** sp.Rational(1, 3)
    if kind == "pow":
        fraction = constant_fraction(tree[2])
        if fraction is not None and fraction.denominator % 2 == 1 and fraction.denominator > 1:
            u = _real_sympy(tree[1], symbols)
            return sp.sign(u) ** (fraction.numerator % 2) * sp.Abs(u) ** sp.Rational(fraction.numerator,
                                                                                    fraction.denominator)
    if kind in ("add", "sub", "mul", "div", "pow"):
        a, b = _real_sympy(tree[1], symbols), _real_sympy(tree[2], symbols)
        if kind == "pow":
            return sp.exp(b) if a == sp.E else a ** b
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[kind]
    if kind == "neg":
        return -_real_sympy(tree[1], symbols)
    if kind == "call":
        args = [_real_sympy(a, symbols) for a in tree[2]]
        placeholders = {f"_arg{k}": sp.Symbol(f"_arg{k}", real=True) for k in range(len(args))}
        formed = to_sympy(("call", tree[1], tuple(("var", f"_arg{k}") for k in range(len(args)))), placeholders)
        return formed.xreplace({placeholders[f"_arg{k}"]: arg for k, arg in enumerate(args)})
    return to_sympy(tree, symbols)


def _exact_counterexample(derivative, answer, symbols, names):
    """A simple point (x = 1, 2, −1, ...) where sympy, evaluating at 30 digits whatever the exponent (e^800,
    e^−800), finds the answer and the derivative real and different: (point, derivative, answer) as text."""
    import sympy as sp

    free = [name for name in names if symbols[name] in (derivative - answer).free_symbols]
    if len(free) > 3:
        return None
    for values in itertools.product(NICE_VALUES[:6], repeat=len(free)):
        at = {symbols[name]: sp.Rational(value) for name, value in zip(free, values)}
        try:
            d, a = sp.N(derivative.subs(at), 30, strict=True), sp.N(answer.subs(at), 30, strict=True)
        except Exception:  # noqa: BLE001 - undefined there: try the next point
            continue
        if not (d.is_real and a.is_real and d.is_finite and a.is_finite):
            continue
        if abs(d - a) > sp.Float(10) ** -20 * max(abs(d), abs(a)):
            return dict(zip(free, values)), _sympy_number(d), _sympy_number(a)
    return None


def _exact(value):
    import sympy as sp

    return sp.Rational(float(value))


def _sympy_number(value):
    as_float = float(value)
    return as_float if math.isfinite(as_float) and (as_float != 0 or value == 0) else _sympy_text(value)


def _sympy_text(value) -> str:
    import sympy as sp

    return sp.sstr(sp.N(value, 6))


def _zero_written_with(difference, target) -> bool:
    """Whether the difference simplifies to 0 once rewritten in terms of `target` (sympy's exp, cos)."""
    import sympy as sp

    return sp.simplify(difference.rewrite(target)) == 0


def _quick_difference(difference):
    """answer − derivative, expanded: cheap, and enough for most answers (0) and for a stray constant."""
    import sympy as sp

    return difference if difference == 0 else sp.expand(difference)


def _constant_text(value) -> str:
    import sympy as sp

    exact = sp.sstr(value)
    return exact if len(exact) <= 30 else sp.sstr(sp.N(value, 6))


def _has_decimal(answer: Reading) -> bool:
    """Whether the answer as typed holds a decimal fraction (0.4342944819, 3.14159...)."""
    return re.search(r"\d\.\d|(?<![\d.])\.\d", answer.text) is not None


def _is_float(value) -> bool:
    """An mpmath value that a float holds without overflowing to inf (or underflowing a non-zero to 0)."""
    as_float = float(value)
    return math.isfinite(as_float) and (as_float != 0 or value == 0)


def _number(value):
    """A float when one holds the value, else the exact value as short text: JSON-safe either way."""
    if _is_float(value):
        return float(value)
    import mpmath

    return mpmath.nstr(value, 6)


def _close(a, b) -> bool:
    return _agreement_digits(a, b) >= EQUAL_DIGITS // 2


def _differing_values(value, derivative) -> dict:
    """The counterexample's two values: floats when 6 significant digits (as printed) tell them apart, else
    as text with the digits up to where they part and 3 more (2.71828182845904523536028847 against
    2.71828182845904523536028747), so the difference shows."""
    digits = _agreement_digits(derivative, value)
    if digits < 6 or digits >= 99 or not (_is_float(value) and _is_float(derivative)):
        return {"expected": _number(value), "derivative": _number(derivative)}
    import mpmath

    shown = min(digits + 3, DIGITS)
    return {"expected": mpmath.nstr(value, shown), "derivative": mpmath.nstr(derivative, shown)}


def _agreement_digits(a, b) -> int:
    """How many significant digits a and b share (99 when equal)."""
    import mpmath

    difference = abs(a - b)
    if difference == 0:
        return 99
    size = max(abs(a), abs(b))
    return max(0, int(mpmath.floor(-mpmath.log10(difference / size))))


def _plain(point: dict) -> dict:
    """The point as floats, a coordinate within 10⁻²⁵ of an integer shown as that integer (y = 0 on the curve
    e^y = x at x = 1, found by mpmath as −1.1e−48)."""
    plain = {}
    for name, value in point.items():
        nearest = round(float(value))
        plain[name] = float(nearest) if abs(value - nearest) <= 1e-25 * max(1, abs(nearest)) else float(value)
    return plain


def _rounding_hint(tree, digits: int, tree_text: str = "") -> str:
    """Name the constant a rounded decimal of the answer stands for, when one matches."""
    typed = {float(t): t for t in re.findall(r"\d*\.\d+", tree_text)} if tree_text else {}
    for value in sorted(_literals(tree), key=abs, reverse=True):
        text = typed.get(value, repr(value))
        significant = min(15, len(text.replace("-", "").replace(".", "").lstrip("0")))  # a float holds 15-17
        if significant < 3:
            continue
        for name, exact in ROUNDED_CONSTANTS.items():
            if abs(value - exact) <= 0.6 * 10 ** (math.floor(math.log10(abs(exact))) - significant + 1):
                return f"agrees to {digits} significant digits: write {name} exactly, not {text}"
    return f"agrees to {digits} significant digits: write constants exactly (ln(10), π, 1/3), not rounded"


def _shown_derivative(comparer: _Comparer, point: dict, wrt) -> float:
    """The derivative at --at's point as a float with all its digits known (the precision raised until its
    error bound is below 10⁻¹⁷ of it); 0 when it stays within its error of 0 (an exact 0 by rounding), nan
    where it is undefined or no precision tried resolves it."""
    import mpmath

    bound = None
    for digits in bounds.LADDER:
        with mpmath.workdps(digits):
            try:
                bound = comparer.bounded_derivative(point, wrt)
            except (Undefined, ZeroDivisionError, ValueError, OverflowError):
                return math.nan
            if bound is None:
                return math.nan
            if bound.error <= abs(bound.value) * mpmath.mpf(10) ** -17:
                return float(bound.value)
    if abs(bound.value) <= 4 * bound.error and bound.error < mpmath.mpf(10) ** -(bounds.LADDER[-1] // 2):
        return 0.0
    return math.nan


def _values_at(report: CheckReport, comparer: _Comparer, at: dict) -> None:
    import mpmath

    free = [v for v in report.variables if v != report.implicit]
    missing = [v for v in free if v not in at]
    if missing:
        raise GradcliError(f"--at gives no value for {', '.join(missing)}",
                           hint="e.g. --at " + " --at ".join(f"{v}=1.5" for v in missing))
    unknown = [name for name in at if name not in report.variables]
    if unknown:
        raise GradcliError(f"--at {unknown[0]}=...: {unknown[0]} is not a variable of the function "
                           f"(its variables: {', '.join(report.variables)})", hint="drop it, or check its spelling")
    point = {v: float(at[v]) for v in report.variables if v in at}
    with mpmath.workdps(DIGITS):
        if report.implicit and report.implicit not in at:
            on_curve = comparer._on_curve(point)
            if on_curve is None:
                raise GradcliError(f"no point of the curve with {', '.join(f'{k} = {v:g}' for k, v in point.items())}")
            point = _plain(on_curve)
        values = comparer._values(point)
        try:
            function_value = float(comparer.function(*values))
        except Undefined:
            function_value = math.nan
        report.at = {"point": point, "function": function_value}
        for result in report.results:
            derivative = _shown_derivative(comparer, point, result.wrt)
            answer = None
            if result.answer is not None:
                try:
                    answer = float(real_function(result.answer.tree, report.variables)(*values))
                except (Undefined, KeyError):
                    answer = math.nan
            result.at = {"derivative": derivative, "expected": answer}


__all__ = ["check_derivative", "read_definition", "CheckReport", "PartialCheck", "derivative_label", "to_text"]
