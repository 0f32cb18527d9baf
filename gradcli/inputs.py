"""NAME=VALUE specs from the command line: numbers, nested lists, generators, files and stdin.

VALUE is one of
  2.5, -1, nan, inf, pi           a number (a 0-d tensor)
  [1,2,3], [[1,2],[3,4]]           a nested list
  randn(3,4) rand(2) zeros(2,3) ones(3) arange(5) arange(0,1,0.25) linspace(0,1,5) eye(3) full((2,2),7)
  @path                            a file: .npy, .json (a number or nested list), or whitespace/comma text
  @-  (or -)                       the same formats read from standard input
Values are parsed with `ast` through a whitelist, never evaluated as Python.
"""

from __future__ import annotations

import ast
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import InputError
from .limits import Limits

_GENERATORS = ("randn", "rand", "zeros", "ones", "arange", "linspace", "eye", "full")
_NAMED_NUMBERS = {"nan": math.nan, "inf": math.inf, "pi": math.pi, "e": math.e}


@dataclass(frozen=True)
class Assignment:
    name: str
    value: np.ndarray
    text: str


def parse_assignment(spec: str, *, dtype: np.dtype, rng: np.random.Generator, limits: Limits,
                     stdin=None) -> Assignment:
    if "=" not in spec:
        raise InputError(f"expected NAME=VALUE, got '{spec}'", source=spec, span=(0, len(spec)),
                         hint="for example x=[1,2,3] or W=randn(3,4)")
    name, text = spec.split("=", 1)
    name = name.strip()
    if not name.isidentifier() or name.startswith("_"):
        raise InputError(f"'{name}' is not a valid tensor name", source=spec, span=(0, max(len(name), 1)),
                         hint="names are identifiers such as x, W1 or bias")
    offset = spec.index("=") + 1
    value = parse_value(text, dtype=dtype, rng=rng, limits=limits, stdin=stdin, source=spec, offset=offset)
    return Assignment(name, value, spec)


def parse_value(text: str, *, dtype: np.dtype, rng: np.random.Generator, limits: Limits, stdin=None,
                source: str | None = None, offset: int = 0) -> np.ndarray:
    source = text if source is None else source
    stripped = text.strip()
    if not stripped:
        raise InputError("empty value", source=source, span=(offset, offset + 1))
    if len(stripped) > limits.max_length:
        raise InputError(f"value is {len(stripped)} characters long; the limit is {limits.max_length}",
                         source=source[:200], hint="put large values in a file: NAME=@values.npy")
    if stripped in ("-", "@-"):
        stream = stdin if stdin is not None else sys.stdin
        return _from_text(stream.read(), dtype, limits, what="standard input")
    if stripped.startswith("@"):
        return _from_file(stripped[1:], dtype, limits, source, offset)
    try:
        tree = ast.parse(stripped, mode="eval")
    except SyntaxError as err:
        col = offset + max((err.offset or 1) - 1, 0) + (len(text) - len(text.lstrip()))
        raise InputError(f"cannot read the value: {err.msg}", source=source, span=(col, col + 1),
                         hint="a value is a number, a list like [1,2,3], randn(3,4) or @file") from None
    except (RecursionError, MemoryError):
        raise InputError("value is nested too deeply", source=source[:200]) from None
    reader = _ValueReader(source, offset + (len(text) - len(text.lstrip())), limits, rng)
    array = reader.read(tree.body)
    return _finish(array, dtype, limits, source)


def _finish(array, dtype, limits, source) -> np.ndarray:
    array = np.asarray(array)
    if array.size > limits.max_elements:
        raise InputError(f"value has {array.size} elements; the limit is {limits.max_elements}",
                         source=source[:200], hint="raise it with --max-elements")
    return array.astype(dtype)


class _ValueReader:
    def __init__(self, source: str, offset: int, limits: Limits, rng):
        self.source = source
        self.offset = offset
        self.limits = limits
        self.rng = rng

    def fail(self, node, message, hint=None):
        start = self.offset + node.col_offset
        end = self.offset + (node.end_col_offset or node.col_offset + 1)
        raise InputError(message, source=self.source, span=(start, end), hint=hint)

    def read(self, node, depth=0):
        if depth > self.limits.max_depth:
            self.fail(node, "value is nested too deeply")
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.read(node.operand, depth + 1)
            if not isinstance(value, float):
                self.fail(node, "a sign can only precede a number")
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Name) and node.id in _NAMED_NUMBERS:
            return _NAMED_NUMBERS[node.id]
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.read(e, depth + 1) for e in node.elts]
            try:
                return np.array(items, dtype=np.float64)
            except ValueError:
                self.fail(node, "rows of a nested list must all have the same length")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _GENERATORS:
            return self.generate(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            import difflib

            close = difflib.get_close_matches(node.func.id, _GENERATORS, n=1)
            self.fail(node.func, f"unknown value generator '{node.func.id}'",
                      hint=f"did you mean `{close[0]}`?" if close else "generators: " + ", ".join(_GENERATORS))
        self.fail(node, "not a value", hint="a value is a number, a list like [1,2,3], randn(3,4) or @file")

    def generate(self, node):
        name = node.func.id
        if node.keywords:
            self.fail(node, f"{name}() takes positional arguments only")
        args = []
        for a in node.args:
            value = self.read(a)
            if isinstance(value, np.ndarray):
                value = tuple(int(v) for v in value.ravel())
            args.append(value)
        try:
            shape = _generator_shape(name, args)
        except (TypeError, ValueError) as err:
            self.fail(node, f"bad arguments for {name}(): {err}")
        n = 1
        for s in shape:
            n *= s
        if n > self.limits.max_elements:
            self.fail(node, f"{name}{tuple(shape)} has {n} elements; the limit is {self.limits.max_elements}",
                      hint="raise it with --max-elements")
        if name == "randn":
            return self.rng.standard_normal(shape)
        if name == "rand":
            return self.rng.random(shape)
        if name == "zeros":
            return np.zeros(shape)
        if name == "ones":
            return np.ones(shape)
        if name == "eye":
            return np.eye(*[int(a) for a in args])
        if name == "full":
            return np.full(shape, float(args[1]))
        if name == "linspace":
            return np.linspace(args[0], args[1], int(args[2]))
        start, stop, step = _arange_args(args)
        return start + step * np.arange(shape[0], dtype=np.float64)


def _ints(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    values = []
    for a in args:
        if isinstance(a, tuple) or not float(a).is_integer() or a < 0:
            raise ValueError("sizes must be non-negative whole numbers")
        values.append(int(a))
    return tuple(values)


def _arange_args(args):
    if not 1 <= len(args) <= 3:
        raise TypeError("arange(end), arange(start, end) or arange(start, end, step)")
    if len(args) == 1:
        return 0.0, float(args[0]), 1.0
    start, stop = float(args[0]), float(args[1])
    step = float(args[2]) if len(args) == 3 else 1.0
    if step == 0:
        raise ValueError("step must be nonzero")
    return start, stop, step


def _generator_shape(name, args) -> tuple:
    if name in ("randn", "rand", "zeros", "ones"):
        return _ints(args)
    if name == "eye":
        return _ints(args) if len(args) == 2 else _ints(args) * 2
    if name == "full":
        if len(args) != 2:
            raise TypeError("full(shape, value)")
        return _ints([args[0]] if isinstance(args[0], tuple) else [args[0]])
    if name == "linspace":
        if len(args) != 3:
            raise TypeError("linspace(start, end, steps)")
        return _ints([args[2]])
    start, stop, step = _arange_args(args)
    return (max(0, math.ceil((stop - start) / step)),)


def _from_file(path_text: str, dtype, limits, source, offset) -> np.ndarray:
    path = Path(path_text)
    if not path.is_file():
        raise InputError(f"no such file: {path_text}", source=source, span=(offset, offset + len(path_text) + 1))
    if path.stat().st_size > limits.max_elements * 32:
        raise InputError(f"file {path_text} is too large", hint="raise --max-elements")
    if path.suffix == ".npy":
        try:
            array = np.load(path, allow_pickle=False)
        except ValueError as err:
            raise InputError(f"cannot read {path_text}: {err}") from None
        if array.dtype.kind not in "fiub":
            raise InputError(f"{path_text} does not hold numbers (dtype {array.dtype})")
        return _finish(array, dtype, limits, source)
    return _from_text(path.read_text(), dtype, limits, what=path_text)


def _from_text(text: str, dtype, limits, *, what: str) -> np.ndarray:
    """JSON (a number or nested list), or plain numbers separated by spaces/commas, one row per line."""
    stripped = text.strip()
    if not stripped:
        raise InputError(f"{what} is empty")
    if stripped.startswith("["):
        try:
            data = json.loads(stripped, parse_constant=lambda c: {"NaN": math.nan, "Infinity": math.inf,
                                                                   "-Infinity": -math.inf}[c])
            return _finish(np.array(_json_numbers(data), dtype=np.float64), dtype, limits, what)
        except (ValueError, TypeError) as err:
            raise InputError(f"cannot read {what} as JSON: {err}") from None
    rows = []
    for line in stripped.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            rows.append([float(tok) for tok in line.replace(",", " ").split()])
        except ValueError as err:
            raise InputError(f"cannot read {what}: {err}") from None
    if len({len(r) for r in rows}) > 1:
        raise InputError(f"cannot read {what}: rows have different lengths")
    array = np.array(rows, dtype=np.float64)
    if array.shape[0] == 1:
        array = array[0] if array.shape[1] > 1 else array.reshape(())
    elif array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    return _finish(array, dtype, limits, what)


def _json_numbers(data):
    if isinstance(data, list):
        return [_json_numbers(d) for d in data]
    if isinstance(data, str) and data in ("nan", "inf", "-inf"):
        return float(data)
    if isinstance(data, (int, float)) and not isinstance(data, bool):
        return float(data)
    raise TypeError(f"not a number: {data!r}")
