"""Homework notation -> gradcli's expression language, by rewriting tokens (never by evaluating text).

    x^2 sin x   ->  x**2*sin(x)        ^ is power, multiplication may be implicit
    3(x+1)(x-1) ->  3*(x+1)*(x-1)      ln, arcsin, ... are aliases; sec, csc, cot are reciprocals
    sin^2(x)    ->  sin(x)**2          sin^-1(x) -> asin(x)

Python's `tokenize` splits the text; every character of the result remembers which character of the
student's text it came from, so parse errors put their caret under what the student typed.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from dataclasses import dataclass

from .errors import GradcliError, ParseError
from .lang import names
from .lang.parser import Program, parse
from .limits import Limits

# homework name -> gradcli function
FUNCTIONS = {
    "sin": "sin", "cos": "cos", "tan": "tan", "exp": "exp", "log": "log", "ln": "log", "sqrt": "sqrt", "abs": "abs",
    "asin": "asin", "arcsin": "asin", "acos": "acos", "arccos": "acos", "atan": "atan", "arctan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "arsinh": "asinh", "arcsinh": "asinh",
    "acosh": "acosh", "arcosh": "acosh", "arccosh": "acosh", "atanh": "atanh", "artanh": "atanh",
    "arctanh": "atanh", "log10": "log10", "log2": "log2", "sign": "sign", "sigmoid": "sigmoid",
}
RECIPROCALS = {"sec": "cos", "csc": "sin", "cot": "tan"}  # sec(u) -> (1/cos(u))
INVERSES = {"sin": "asin", "cos": "acos", "tan": "atan", "sinh": "asinh", "cosh": "acosh", "tanh": "atanh"}
CONSTANTS = {"e", "pi"}
CHARACTERS = {"²": "^2", "³": "^3", "·": "*", "×": "*", "−": "-", "π": "pi", "√": "sqrt "}
_SKIP = {tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT}


@dataclass
class HomeworkExpression:
    text: str  # what the student typed
    program: Program  # the rewritten expression, parsed
    variables: dict[str, str]  # program variable -> the student's name (t_ -> t: t is also torch.t)


def parse_homework(text: str, limits: Limits | None = None, known: frozenset = frozenset()) -> HomeworkExpression:
    """Rewrite and parse; a parse error points into `text`.  `known`: variables of a related expression
    (the function, when parsing its derivative), so that xy can be read as x*y."""
    expression, origin = to_expression(text, known)
    try:
        program = parse(expression, limits or Limits())
    except GradcliError as err:
        raise _in_original(err, text, origin) from None
    variables = {name: name.removesuffix("_") if name.endswith("_") and _collides(name[:-1]) else name
                 for name in program.variables}
    return HomeworkExpression(text, program, variables)


def _in_original(err: GradcliError, text: str, origin: list[int]) -> GradcliError:
    """The same error, its span moved from the rewritten expression back to the student's text."""
    if err.span is not None and origin:
        start, end = err.span
        first = origin[min(start, len(origin) - 1)]
        last = origin[min(max(end - 1, start), len(origin) - 1)]
        err.span = (first, max(last + 1, first + 1))
    err.source = text
    return err


def _collides(name: str) -> bool:
    """Names gradcli's parser reserves (functions such as t, namespaces): a student's variable t is renamed t_."""
    return names.resolve_function((name,)) is not None or name in ("torch", "F", "nn", "math") or \
        (name in names.CONSTANTS and name not in CONSTANTS)


class _Writer:
    """The rewritten text plus, per character, the index of the student's character it stands for."""

    def __init__(self):
        self.parts: list[str] = []
        self.origin: list[int] = []

    def write(self, text: str, origin: int | list[int]):
        self.parts.append(text)
        self.origin.extend(origin if isinstance(origin, list) else [origin] * len(text))


def _tokens(plain: str) -> list[tokenize.TokenInfo]:
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(plain).readline):
            if tok.type not in _SKIP:
                found.append(tok)
    except (tokenize.TokenError, SyntaxError):
        pass  # an unclosed bracket: keep what came before; the parser reports the bracket with a caret
    return found


def to_expression(text: str, known: frozenset = frozenset()) -> tuple[str, list[int]]:
    """(the gradcli expression, for each of its characters the index of the student's character).

    A name such as xy becomes x*y when each of its letters is a one-letter variable of its own elsewhere
    in the text or in `known`."""
    chars, char_origin = [], []
    for i, ch in enumerate(text):
        replacement = CHARACTERS.get(ch, ch)
        chars.append(replacement)
        char_origin.extend([i] * len(replacement))
    plain = "".join(chars)
    line_starts = [0]
    for line in plain.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    tokens = _tokens(plain)
    letters = set(known) | {t.string for t in tokens if t.type == tokenize.NAME and len(t.string) == 1
                            and t.string not in CONSTANTS}

    def span(tok) -> tuple[int, int]:
        return line_starts[tok.start[0] - 1] + tok.start[1], line_starts[tok.end[0] - 1] + tok.end[1]

    out = _Writer()
    closers: list[str] = []  # per open bracket, what to write after its closing bracket
    suffix_for_next_bracket = ""
    previous_ends_operand = False
    position = 0
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        start, end = span(tok)
        out.write(plain[position:start], char_origin[position:start])
        position = end
        kind = _kind(tok)
        if previous_ends_operand and kind in ("operand", "function", "open") and \
                not (tok.type == tokenize.NUMBER and tokens[i - 1].type == tokenize.NUMBER):
            out.write("*", char_origin[start])  # implicit multiplication
        if kind == "function":
            call = _function_call(tok.string, tokens[i + 1:])
            if call is None:
                raise ParseError(f"write {tok.string}(...) with brackets here", source=text,
                                 span=(char_origin[start], char_origin[end - 1] + 1))
            name, close, consumed, bare = call
            out.write(name, char_origin[start])
            i += consumed
            position = span(tokens[i])[1]
            if bare:  # sin x -> sin(x)
                i += 1
                a_start, position = span(tokens[i])
                out.write("(" + _operand_text(tokens[i]) + ")" + close, char_origin[a_start])
            suffix_for_next_bracket = "" if bare else close
            previous_ends_operand = bare
        elif kind == "open":
            closers.append(suffix_for_next_bracket)
            suffix_for_next_bracket = ""
            out.write(tok.string, char_origin[start])
            previous_ends_operand = False
        elif tok.string in (")", "]"):
            out.write(tok.string + (closers.pop() if closers else ""), char_origin[start])
            previous_ends_operand = True
        elif kind == "operand" and _is_product_of(tok, letters):
            out.write("*".join(tok.string), [char_origin[start + k // 2] for k in range(2 * len(tok.string) - 1)])
            previous_ends_operand = True
        else:
            out.write("**" if tok.string == "^" else _operand_text(tok), char_origin[start])
            previous_ends_operand = kind == "operand"
        i += 1
    out.write(plain[position:], char_origin[position:])
    return "".join(out.parts), out.origin


def _kind(tok: tokenize.TokenInfo) -> str:
    if tok.type == tokenize.NUMBER:
        return "operand"
    if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
        return "function" if tok.string in FUNCTIONS or tok.string in RECIPROCALS else "operand"
    return "open" if tok.string in ("(", "[") else "other"


def _is_function(tok) -> bool:
    return tok.type == tokenize.NAME and (tok.string in FUNCTIONS or tok.string in RECIPROCALS)


def _function_call(name: str, rest: list) -> tuple[str, str, int, bool] | None:
    """How to write a function applied in homework notation: (text for the name, text to add after its
    argument, how many following tokens that consumed, whether the argument is one bare operand as in
    `ln x`).  None when the notation is not one of these:
        f(u)   f^2(u) -> f(u)**2   f^-1(u) -> inverse   f x (one operand, then an operator or the end)."""
    reciprocal = name in RECIPROCALS
    prefix = f"(1/{RECIPROCALS[name]}" if reciprocal else FUNCTIONS[name]
    close = ")" if reciprocal else ""
    strings = [t.string for t in rest[:4]]
    if strings[:1] == ["("]:
        return prefix, close, 0, False
    if len(rest) >= 3 and strings[0] in ("^", "**") and rest[1].type == tokenize.NUMBER and strings[2] == "(":
        return prefix, close + "**" + strings[1], 2, False
    if strings[:4] in (["^", "-", "1", "("], ["**", "-", "1", "("]) and FUNCTIONS.get(name) in INVERSES:
        return INVERSES[FUNCTIONS[name]], "", 3, False
    if rest and rest[0].type in (tokenize.NAME, tokenize.NUMBER) and not _is_function(rest[0]):
        after = rest[1] if len(rest) > 1 else None
        operator_follows = after is not None and after.type == tokenize.OP and after.string not in ("(", "[", "^", "**")
        if after is None or _is_function(after) or operator_follows:
            return prefix, close, 0, True
    return None


def _is_product_of(tok: tokenize.TokenInfo, letters: set) -> bool:
    return tok.type == tokenize.NAME and len(tok.string) > 1 and all(c in letters for c in tok.string)


def _operand_text(tok: tokenize.TokenInfo) -> str:
    if tok.type == tokenize.NAME and tok.string not in CONSTANTS and _collides(tok.string):
        return tok.string + "_"
    return tok.string


# -- checking a derivative ---------------------------------------------------------------------------

NICE_VALUES = (1.0, 2.0, 0.5, -1.0, 1.5, -0.5, 3.0, -2.0, 0.25, 2.5, -1.5, 0.75)  # counterexamples to read
RANDOM_POINTS = 300
ENOUGH_POINTS = 60  # agreeing points after which the numbers have said all they can
MIN_POINTS = 10  # fewer valid points than this: the numbers cannot decide
RTOL = 1e-6  # |derivative - answer| <= RTOL * max(1, |derivative|, |answer|)


@dataclass
class PartialCheck:
    """One derivative: d^order f / d wrt^order, against the student's answer (if one was given)."""

    wrt: str
    order: int
    expected_text: str | None
    expected: object = None  # sympy expression of the answer
    derivative: object = None  # sympy's derivative (None when sympy has no form for the function)
    verdict: str = "computed"  # correct | incorrect | undecided | computed (no answer given)
    decided_by: str | None = None  # sympy | numbers
    reason: str = ""
    counterexample: dict | None = None
    points: int = 0
    at: dict | None = None  # values at --at: derivative and answer


@dataclass
class CheckReport:
    function_text: str
    function: object  # sympy expression, or None
    variables: list[str]
    results: list[PartialCheck]
    at: dict | None = None  # {"point": {...}, "function": value}
    symbolic_note: str | None = None  # why sympy could not take part

    @property
    def exit_code(self) -> int:
        return 1 if any(r.verdict == "incorrect" for r in self.results) else 0

    def to_dict(self) -> dict:
        """Plain data (`check --json`, and what the table renderer reads); formulas as sympy's text."""
        from sympy import sstr

        def text(expr):
            return None if expr is None else sstr(expr)

        return {
            "function": self.function_text, "parsed": text(self.function), "variables": self.variables,
            "results": [{"wrt": r.wrt, "order": r.order, "expected": r.expected_text,
                         "expected_parsed": text(r.expected), "derivative": text(r.derivative),
                         "verdict": r.verdict, "decided_by": r.decided_by, "reason": r.reason,
                         "counterexample": r.counterexample, "points": r.points, "at": r.at}
                        for r in self.results],
            "at": self.at, "symbolic_note": self.symbolic_note,
            "correct": all(r.verdict in ("correct", "computed") for r in self.results),
        }


def check_derivative(function: str, expectations: list[tuple[str | None, str]], *, wrt: str | None = None,
                     order: int = 1, at: dict[str, float] | None = None, timeout: float = 5.0,
                     limits: Limits | None = None) -> CheckReport:
    """Is each expected text the derivative of `function` (homework notation both)?  sympy decides when
    it can prove the difference is 0 (or a nonzero constant); otherwise numbers at many points decide."""
    import sympy as sp

    from . import symbolic

    limits = limits or Limits()
    f = parse_homework(function, limits)
    known = frozenset(f.variables.values())
    parsed = [(name, text, parse_homework(text, limits, known)) for name, text in expectations]
    variables = list(dict.fromkeys([*f.variables.values(), *(v for _, _, e in parsed for v in e.variables.values())]))
    targets = _targets(f, parsed, wrt)
    symbols = {name: sp.Symbol(name, real=True) for name in variables}
    report = CheckReport(function, None, variables, [])
    try:
        report.function = symbolic.bounded(timeout, _symbolic, f, symbols)
    except (symbolic.NoSymbolicForm, symbolic.SymbolicTimeout) as err:
        report.symbolic_note = err.message
    for name, text, expected in targets:
        report.results.append(_check_one(f, name, text, expected, report.function, symbols, order, timeout, limits))
    if at is not None:
        missing = [v for v in variables if v not in at]
        if missing:
            raise GradcliError(f"--at gives no value for {', '.join(missing)}",
                               hint="e.g. --at " + " --at ".join(f"{v}=1.5" for v in missing))
        point = {v: float(at[v]) for v in variables}
        report.at = {"point": point, "function": _engine_value(f, point, None, 0, limits)[0]}
        for result in report.results:
            derivative = _engine_value(f, point, result.wrt, order, limits)[1]
            answer = None if result.expected is None else _engine_value(_by_text(parsed, result), point, None, 0,
                                                                        limits)[0]
            result.at = {"derivative": derivative, "expected": answer}
    return report


def _targets(f: HomeworkExpression, parsed, wrt: str | None):
    """(variable, answer text, parsed answer) for each derivative to check (or just to compute)."""
    variables = list(f.variables.values())
    if not parsed:
        names_ = [wrt] if wrt else variables
        return [(name, None, None) for name in names_]
    targets = []
    for name, text, expected in parsed:
        name = name or wrt
        if name is None:
            if len(variables) != 1:
                raise GradcliError(f"the function depends on {', '.join(variables) or 'no variable'}: say which "
                                   "variable the answer is for", hint='--wrt x, or --expect x="..."')
            name = variables[0]
        targets.append((name, text, expected))
    return targets


def _by_text(parsed, result: PartialCheck) -> HomeworkExpression:
    return next(e for _, text, e in parsed if text == result.expected_text)


def _symbolic(hw: HomeworkExpression, symbols: dict):
    """The expression as one sympy expression of real symbols named as the student named them."""
    from .symbolic import evaluate_symbolic, tensor_symbols

    out, _ = evaluate_symbolic(hw.program, {prog: tensor_symbols(name, ()) for prog, name in hw.variables.items()})
    if out.shape != ():
        raise GradcliError("the function must give one number (a scalar)")
    return out[()]


def _check_one(f, wrt, text, expected, function, symbols, order, timeout, limits) -> PartialCheck:
    import sympy as sp

    from . import symbolic

    result = PartialCheck(wrt, order, text)
    symbol = symbols.get(wrt) or sp.Symbol(wrt, real=True)
    difference = None
    try:
        if function is not None:
            result.derivative = symbolic.bounded(timeout, sp.diff, function, symbol, order)
        if expected is not None:
            result.expected = symbolic.bounded(timeout, _symbolic, expected, symbols)
            if result.derivative is not None:
                difference = symbolic.bounded(timeout, sp.simplify, result.derivative - result.expected)
    except symbolic.SymbolicTimeout:
        result.reason = f"sympy took longer than {timeout:g} s; "
    except symbolic.NoSymbolicForm as err:
        result.reason = err.message + "; "
    if expected is None:
        return result

    agree, differ, counterexample = _compare_numerically(f, expected, wrt, order, limits)
    result.points = agree + differ
    result.counterexample = counterexample
    if difference is not None and difference == 0:
        result.verdict, result.decided_by = "correct", "sympy"
        result.reason = "the difference simplifies to 0"
        if differ:
            result.reason += f" (though {differ} of {agree + differ} points differ numerically)"
    elif difference is not None and difference.is_number and difference.is_zero is False:
        result.verdict, result.decided_by = "incorrect", "sympy"
        result.reason = f"the difference simplifies to the constant {sp.sstr(difference)}, not 0"
    elif differ:
        result.verdict, result.decided_by = "incorrect", "numbers"
        result.reason += f"they differ at {differ} of {agree + differ} points"
    elif agree >= MIN_POINTS:
        result.verdict, result.decided_by = "correct", "numbers"
        result.reason += f"they agree at all {agree} points where both are defined"
        if difference is not None:
            result.reason = f"sympy could not simplify the difference to 0; {result.reason}"
    else:
        result.verdict = "undecided"
        result.reason += f"only {agree} points where both sides are defined"
    return result


def _candidate_points(variables: list[str]):
    """Round numbers first (readable counterexamples), then random points of several scales."""
    import numpy as np

    k = len(variables)
    for j in range(len(NICE_VALUES)):
        yield {v: NICE_VALUES[(j + 5 * m) % len(NICE_VALUES)] for m, v in enumerate(variables)}
    rng = np.random.default_rng(0)
    for _ in range(RANDOM_POINTS):
        scale = rng.choice([0.95, 3.0, 10.0])
        yield dict(zip(variables, (float(v) for v in rng.uniform(-scale, scale, size=k))))


def _compare_numerically(f, expected, wrt, order, limits):
    """(points that agree, points that differ, the first differing point) over points where the function,
    its derivative and the answer are all finite."""
    import math

    agree = differ = 0
    counterexample = None
    variables = list(dict.fromkeys([*f.variables.values(), *expected.variables.values()]))
    for point in _candidate_points(variables):
        value, derivative = _engine_value(f, point, wrt, order, limits)
        answer = _engine_value(expected, point, None, 0, limits)[0]
        if not all(math.isfinite(v) for v in (value, derivative, answer)):
            continue
        if abs(derivative - answer) <= RTOL * max(1.0, abs(derivative), abs(answer)):
            agree += 1
        else:
            differ += 1
            if counterexample is None:
                counterexample = {"point": point, "expected": answer, "derivative": derivative}
        if agree + differ >= ENOUGH_POINTS:
            break
    return agree, differ, counterexample


def _engine_value(hw: HomeworkExpression, point: dict, wrt: str | None, order: int, limits: Limits):
    """(value, d^order value / d wrt^order) at `point`, by gradcli's autograd engine in float64: the
    derivative comes from a different road than sympy's."""
    import math
    import warnings

    import numpy as np

    from . import engine
    from .calc import engine_settings
    from .engine import Tensor, dtypes
    from .engine.errors import EngineError
    from .lang.evaluator import EngineBackend, evaluate

    with engine_settings(dtypes.float64, limits), warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        tensors = {prog: Tensor._make(np.array(point[name], dtype=np.float64), None).requires_grad_(True)
                   for prog, name in hw.variables.items()}
        try:
            out = evaluate(hw.program, EngineBackend(tensors, dtypes.float64))
            if not isinstance(out, Tensor):
                return float(out), 0.0
            value = float(out.array)
            target = next((t for prog, t in tensors.items() if hw.variables[prog] == wrt), None)
            derivative = out
            for k in range(order):
                if target is None or not isinstance(derivative, Tensor) or not derivative.requires_grad:
                    return value, 0.0
                (derivative,) = engine.grad(derivative, target, create_graph=k < order - 1, allow_unused=True)
                if derivative is None:
                    return value, 0.0
            return value, float(derivative.array) if order else value
        except (EngineError, GradcliError, ValueError, TypeError):
            return math.nan, math.nan
