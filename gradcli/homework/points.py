"""`check --at x=1.5,y=pi/4`: a point as {variable: float}, read without numpy (check never needs it).

A value is a number with the arithmetic and names `eval`'s values allow (1/3, 10**3, -pi/4, e, inf, nan),
computed in IEEE float64 as there (1/0 = inf); never evaluated as Python.
"""

from __future__ import annotations

import ast
import math
import operator

from gradcli.safety.errors import InputError
from gradcli.safety.limits import Limits

_NAMED = {"nan": math.nan, "inf": math.inf, "pi": math.pi, "e": math.e}
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.Pow: operator.pow}
_HINT = "give one number per variable, e.g. --at x=1.5 --at y=pi/4"


def parse_point(specs: list[str] | None) -> dict | None:
    """--at x=1.5 --at y=2 (or x=1.5,y=2) as {name: value}; None when there is none."""
    if not specs:
        return None
    limits = Limits()
    point = {}
    for spec in (part for text in specs for part in text.split(",")):
        name, equals, text = (s.strip() for s in spec.partition("="))
        if not equals or not name.isidentifier():
            raise InputError(f"--at needs VAR=VALUE, got {spec}", source=spec, hint=_HINT)
        if len(text) > limits.max_length:
            raise InputError(f"--at {name}= is longer than {limits.max_length} characters", source=spec)
        try:
            tree = ast.parse(text, mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise InputError(f"--at needs a number for '{name}', got {text!r}", source=spec, hint=_HINT) from None
        if isinstance(tree, (ast.List, ast.Tuple)):
            raise InputError(f"--at needs one number per variable, got {spec}", source=spec)
        if name in point:
            raise InputError(f"--at gives '{name}' twice", source=spec, span=(0, len(name)))
        point[name] = _number(tree, spec, name, limits, depth=0)
    return point


def _number(node, spec: str, name: str, limits: Limits, depth: int) -> float:
    if depth > limits.max_depth:
        raise InputError(f"--at {name}= is nested too deeply", source=spec)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        try:
            return float(node.value)
        except OverflowError:
            raise InputError("integer too large for a float", source=spec, hint="write it as a float") from None
    if isinstance(node, ast.Name) and node.id in _NAMED:
        return _NAMED[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _number(node.operand, spec, name, limits, depth + 1)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left = _number(node.left, spec, name, limits, depth + 1)
        right = _number(node.right, spec, name, limits, depth + 1)
        if isinstance(node.op, ast.Pow) and abs(right) > limits.max_exponent and abs(left) != 1:
            raise InputError(f"--at {name}=: the exponent {right:g} is beyond the limit {limits.max_exponent:g}",
                             source=spec)
        return _ieee(_ARITHMETIC[type(node.op)], left, right)
    raise InputError(f"--at needs a number for '{name}', got {spec.partition('=')[2].strip()!r}", source=spec,
                     hint=_HINT)


def _ieee(op, a: float, b: float) -> float:
    """a op b as float64 arithmetic gives it: 1/0 = inf, 0/0 = nan, 10**400 = inf."""
    try:
        result = op(a, b)
    except ZeroDivisionError:
        if op is operator.pow:  # 0 ** negative: inf, signed when -0.0 meets an odd integer exponent
            odd = float(b).is_integer() and int(b) % 2 == 1
            return math.copysign(math.inf, a) if odd else math.inf
        return math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a) * math.copysign(1.0, b)
    except OverflowError:
        if a > 0:
            return math.inf
        if not float(b).is_integer():  # a negative base to a fractional power has no real value
            return math.nan
        return math.inf if int(b) % 2 == 0 else -math.inf
    return math.nan if isinstance(result, complex) else float(result)
