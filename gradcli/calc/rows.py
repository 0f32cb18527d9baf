"""Rows mode: `gradcli eval EXPR --rows FILE|-` evaluates one parsed expression at every row of a CSV/TSV or
NDJSON input, each row its own forward and backward, and streams one answer per row.

- Parse once.  Rows whose values are all numbers are evaluated together, one numpy pass over a batch
  dimension, when every op of the expression is elementwise (`OpSpec.elementwise`): each element of the
  batch then goes through exactly the arithmetic of its own single evaluation.  Rows of equal shapes whose
  every op has a batching rule (reductions, dims, products, indexing: calc/batching.py) go in one pass per
  shape with a leading batch dimension.  Anything else and any failure inside a batch falls back to a loop
  over rows, still parsed once.
- A bad row (empty field, bad value, error in backward) gives an error record in its place; every other row
  is answered; the caller exits 2 at the end.
- Streaming: input is read in chunks of whole lines; from a pipe, a chunk ends whenever no more input is
  ready, so `tail -f data.jsonl | gradcli eval ... --rows -` answers each line as it arrives (flushed).
  Memory stays bounded by the chunk size whatever the length of the input.
"""

from __future__ import annotations

import ast
import csv
import json
import math
import os
import re
import select
import stat
import sys
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from gradcli.calc.batching import NotBatchable, VmapBackend, is_batchable
from gradcli.engine import Tensor, dtypes, kernels
from gradcli.engine.errors import EngineError
from gradcli.io import outputs
from gradcli.io.inputs import DuplicateKey, LazyGenerator, parse_value, unique_keys
from gradcli.lang import names
from gradcli.lang.evaluation import as_output, backward_error, call_budget, const_array, engine_settings
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import Program, dotted_name, parse
from gradcli.safety import guard
from gradcli.safety.errors import EvalError, GradcliError, InputError
from gradcli.safety.limits import Limits

ROW = ("a row's evaluation", "a row's evaluation")  # what a row's budget calls it in its limit errors
CHUNK_ROWS = 65_536  # rows per batch: big enough for numpy to dominate, small enough for bounded memory
READ_BYTES = 1 << 20
DELIMITERS = (",", "\t", ";")
PROGRESS_BYTES = 4 << 20  # inputs at least this large get a progress bar (when stderr is a terminal)


class RowError(Exception):
    """One row failed: its record carries `kind` (the error's type) and `message`."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class Chunk:
    """A run of input rows and their answers, in input order.  Column values are per row: a Python float,
    an ndarray, or None (failed rows); a whole column may be one float array when every row succeeded."""

    lines: list[int] | range  # 1-based line numbers in the input
    raw: list[str]  # the rows' text as read (CSV: echoed when the output has the input's delimiter)
    fields: list | None = None  # CSV: each row's fields (None when `raw` can be echoed as is)
    records: list | None = None  # NDJSON: each row's object (None when it was not one)
    outputs: list | np.ndarray = field(default_factory=list)
    grads: dict = field(default_factory=dict)
    errors: list = field(default_factory=list)  # None or (type, message)
    checks: list | None = None
    non_finite: list = field(default_factory=list)  # rows whose output or grads hold nan/inf from finite inputs

    def __len__(self) -> int:
        return len(self.lines)


# -- which expressions can run on a batch ------------------------------------------------------------

_POW = names.resolve_function(("pow",)).fn
_ROWWISE_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.BitXor, ast.Mod, ast.BitAnd, ast.BitOr)


def is_rowwise(program: Program) -> bool:
    """True when every operation of the expression is elementwise (arithmetic, comparisons, registered ops
    flagged elementwise), so evaluating it on (n,) arrays gives each row's own result.

    One exception: a power whose exponent is a variable.  numpy's power loop takes a shortcut when the
    exponent is one scalar (x**0.5 as sqrt, so (-0.0)**0.5 is -0.0); a single evaluation has a scalar
    exponent, a batch an array (pow gives 0.0).  Such expressions run row by row."""
    return _rowwise(program.tree.body, frozenset(program.variables))


def _uses(node, variables) -> bool:
    return any(isinstance(n, ast.Name) and n.id in variables for n in ast.walk(node))


def _rowwise(node, variables) -> bool:
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Pow, ast.BitXor)) and _uses(node.right, variables):
            return False
        return isinstance(node.op, _ROWWISE_BINOPS) and _rowwise(node.left, variables) \
            and _rowwise(node.right, variables)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)) and _rowwise(node.operand, variables)
    if isinstance(node, ast.Compare):
        return len(node.ops) == 1 and _rowwise(node.left, variables) and _rowwise(node.comparators[0], variables)
    if isinstance(node, ast.Attribute):  # torch.pi, math.e: numbers; x.T, x.shape: not row-wise
        path = dotted_name(node)
        return path is not None and isinstance(names.resolve_constant(path), float)
    if isinstance(node, ast.Call):
        path = dotted_name(node.func)
        if path is not None and (len(path) == 1 or path[0] in ("torch", "F", "nn", "math")):
            spec, receiver = names.resolve_function(path), None
        elif isinstance(node.func, ast.Attribute):
            spec, receiver = names.resolve_method(node.func.attr), node.func.value
        else:
            return False
        if spec is None or not spec.elementwise:
            return False
        parts = [*node.args, *(kw.value for kw in node.keywords)] + ([receiver] if receiver is not None else [])
        if (spec.fn is _POW or spec.name == "float_power") and _uses(node.args[-1] if node.args else node, variables):
            return False  # pow(x, y), x.pow(y): the exponent is the last positional argument
        if spec.name == "where" and len(parts) < 3:
            return False  # where(condition) alone lists indices: not one result per element
        return all(_rowwise(p, variables) for p in parts)
    return False


# -- evaluation --------------------------------------------------------------------------------------

class RowEvaluator:
    """The expression parsed once (per set of constant names shadowed by row names), evaluated per row or
    per batch with the shared NAME=VALUE tensors and --const values."""

    # a batched pass that runs out of time or memory: rows mode retries the rows one at a time (the limit is
    # each row's); the API's compile sets this, its limit bounding the one batched pass (docs/api.md)
    batch_limit_is_final = False

    def __init__(self, expression: str, inputs: dict, consts: dict, *, grad_output=None,
                 dtype: dtypes.DType = dtypes.float64, limits: Limits | None = None):
        self.expression = expression
        self.inputs = inputs
        self.consts = consts
        self.grad_output = grad_output
        self.dtype = dtype
        self.limits = limits or Limits()
        self.shared = frozenset(inputs) | frozenset(consts)
        clash = sorted(set(inputs) & set(consts))
        if clash:
            raise InputError(f"'{clash[0]}' is given both as a tensor and as --const")
        self._programs: dict[frozenset, tuple] = {}
        self._batchable: dict[int, bool] = {}
        self._unbatchable: set[int] = set()  # programs a batched pass found an op without a batching rule in
        self.scalar_shared = all(np.ndim(v) == 0 for v in inputs.values()) and \
            all(np.ndim(v) == 0 for v in consts.values())
        self.scalar_grad_output = grad_output is None or np.ndim(grad_output) == 0
        self._deadlines = threading.local()  # one per thread: a compiled function may be called from many
        shared = [*inputs.values(), *consts.values(), *([] if grad_output is None else [grad_output])]
        self.shared_finite = all(np.all(np.isfinite(v)) for v in shared)

    def __getstate__(self):  # pickled (Dask ships a compiled function to its workers): no thread's deadline
        state = dict(self.__dict__)
        state["_deadlines"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._deadlines = threading.local()

    @property
    def deadline(self) -> guard.Deadline:
        """This thread's reusable deadline for a row (a Deadline is reusable, not re-entrant)."""
        d = getattr(self._deadlines, "deadline", None)
        if d is None:
            seconds = self.limits.max_seconds
            d = self._deadlines.deadline = guard.Deadline(seconds, f"a row's evaluation took longer than {seconds:g} s",
                                                          hint="raise it with --timeout")
        return d

    def program(self, row_names) -> tuple[Program, list[str], bool]:
        """(program, the names rows must supply in order of use, row-wise?) for rows that bind `row_names`;
        a row name spelled like a constant or a function (e, pi, t, max) is a variable, as in single eval."""
        key = frozenset(row_names)
        entry = self._programs.get(key)
        if entry is None:
            program = parse(self.expression, self.limits, known_variables=self.shared | key)
            wanted = [n for n in program.variables if n not in self.shared]
            entry = (program, wanted, is_rowwise(program))
            self._programs[key] = entry
        return entry

    def batchable(self, program: Program) -> bool:
        key = id(program)
        if key not in self._batchable:
            self._batchable[key] = is_batchable(program, frozenset(self.consts))
        return self._batchable[key]

    def grad_names(self, row_names: list[str]) -> list[str]:
        """Tensors that require grad, in output order: the row's names, then NAME=VALUE tensors."""
        return [*row_names, *self.inputs]

    def one(self, program: Program, row: dict) -> tuple:
        """One row, exactly as `gradcli eval EXPR NAME=VALUE...`: (output array, {name: grad or None})."""
        dt = self.dtype.np
        tensors = {n: Tensor._make(np.array(v, dtype=dt), None).requires_grad_(True) for n, v in row.items()}
        for n, v in self.inputs.items():
            tensors[n] = Tensor._make(np.array(v, dtype=dt), None).requires_grad_(True)
        variables = dict(tensors)
        for n, v in self.consts.items():
            variables[n] = Tensor._make(const_array(v, self.dtype), None)
        try:
            with self.deadline, call_budget(self.limits, *ROW):
                out = as_output(evaluate(program, EngineBackend(variables, self.dtype)), program)
                error = backward_error(out, self.grad_output, self.dtype)
        except GradcliError as err:
            raise RowError(type(err).__name__, err.message) from None
        except EngineError as err:
            raise RowError(err.torch_type, str(err)) from None
        if error is not None:
            raise RowError("RuntimeError", error)
        return out.array, {n: None if t._grad is None else t._grad.array for n, t in tensors.items()}

    def batch_rows(self, program: Program, rows: list, wanted: list[str]):
        """Rows of equal shapes in one pass, as torch.func.vmap would (calc/batching.py): each row value gets a
        leading batch dimension and every op its batching rule.  (outputs, {name: grads}) with one entry per
        row, or None where the pass cannot give every row exactly its single evaluation (the caller loops)."""
        n = len(rows)
        if n < 2 or not self.scalar_grad_output or id(program) in self._unbatchable:
            return None
        shapes = {}
        for name in wanted:
            first = _shape(rows[0][name])
            if any(_shape(r[name]) != first for r in rows):
                return None
            shapes[name] = first
        dt = self.dtype.np
        stacked = {name: np.array([r[name] for r in rows], dtype=dt).reshape((n,) + shapes[name]) if shapes[name]
                   else np.fromiter((r[name] for r in rows), dtype=dt, count=n) for name in wanted}
        return self.batch_stacked(program, stacked, n)

    def batch_stacked(self, program: Program, stacked: dict[str, np.ndarray], n: int):
        """batch_rows with the rows' values already stacked: {name: array of shape (n, *row shape)}.  A long
        run of rows goes in pieces of at most BATCH_ELEMENTS elements a value, so memory stays bounded."""
        if n < 2 or not self.scalar_grad_output or id(program) in self._unbatchable:
            return None
        shapes = {name: tuple(a.shape[1:]) for name, a in stacked.items()}
        widest = max([1, *(math.prod(s) for s in shapes.values()), *(np.size(v) for v in self.inputs.values())])
        if widest >= kernels.GRAIN_SIZE:
            return None  # a row torch splits among threads: one at a time
        step = max(2, BATCH_ELEMENTS // widest)
        if n > step:
            pieces = []
            for i in range(0, n, step):
                piece = self.batch_stacked(program, {k: a[i:i + step] for k, a in stacked.items()}, min(step, n - i))
                if piece is None:
                    return None
                pieces.append(piece)
            return (np.concatenate([p[0] for p in pieces]),
                    {name: [None] * n if isinstance(pieces[0][1][name], list)  # an unused shared tensor
                     else np.concatenate([p[1][name] for p in pieces]) for name in pieces[0][1]})
        dt = self.dtype.np
        tensors = {name: Tensor._make(np.array(a, dtype=dt), None).requires_grad_(True) for name, a in stacked.items()}
        ranks = {name: len(shape) for name, shape in shapes.items()}
        for name, v in self.inputs.items():  # shared tensors: one copy per row, each row its own .grad
            v = np.array(v, dtype=dt)
            tensors[name] = Tensor._make(np.ascontiguousarray(np.broadcast_to(v, (n, *v.shape))),
                                         None).requires_grad_(True)
            ranks[name] = v.ndim
        variables = dict(tensors)
        backend = VmapBackend(variables, self.dtype, n, ranks)
        out = self._batched_pass(program, backend, (n,))
        if out is None or backend.rank(out) != 0:
            return None
        grads = {}
        for name, t in tensors.items():
            g = t._grad
            if g is None and name in self.inputs and name not in program.variables:
                grads[name] = [None] * n  # a shared tensor the expression does not use: .grad None, as alone
                continue
            if g is None or g.array.shape != t.array.shape:
                return None
            grads[name] = g.array
        return out.array.reshape(n), grads

    def _batched_pass(self, program: Program, backend: EngineBackend, shape: tuple) -> Tensor | None:
        """Forward and backward of every row at once, each row's gradient seeded with its own grad_output: the
        output (of `shape`), or None when anything differs from a clean batched pass (the caller then loops)."""
        for name, v in self.consts.items():
            backend.variables[name] = Tensor._make(const_array(v, self.dtype), None)
        try:
            layout = kernels.LEADING if isinstance(backend, VmapBackend) else True
            with self.deadline, call_budget(self.limits, *ROW), kernels.elements_are_rows(layout):
                out = evaluate(program, backend)
                if type(out) is not Tensor or out.array.shape != shape or out.array.dtype != self.dtype.np:
                    return None
                gout = np.full(shape, 1.0 if self.grad_output is None else self.grad_output, dtype=self.dtype.np)
                if backward_error(out, gout, self.dtype) is not None:
                    return None
        except (guard.TimeLimit, guard.MemoryLimit):
            if self.batch_limit_is_final:  # the API's compile: its limit bounds the one batched pass
                raise
            return None  # rows mode: each row alone, so only a row that is itself too slow fails
        except NotBatchable as err:
            if not err.rows:
                self._unbatchable.add(id(program))  # no rule for an op of it: later chunks go row by row at once
            return None
        except (GradcliError, EngineError, ValueError, TypeError, ArithmeticError, IndexError):
            return None
        return out

    def batch(self, program: Program, columns: dict[str, np.ndarray], n: int):
        """All rows at once (every value a number, the expression row-wise): (outputs, {name: grads}) as
        (n,) arrays, or None when anything differs from a clean batched pass (the caller then loops)."""
        if not (self.scalar_shared and self.scalar_grad_output):
            return None
        dt = self.dtype.np
        tensors = {name: Tensor._make(col.astype(dt), None).requires_grad_(True) for name, col in columns.items()}
        for name, v in self.inputs.items():  # shared tensors get one copy per row: each row its own .grad
            tensors[name] = Tensor._make(np.full(n, np.array(v, dtype=dt)), None).requires_grad_(True)
        variables = dict(tensors)
        out = self._batched_pass(program, EngineBackend(variables, self.dtype), (n,))
        if out is None:
            return None
        grads = {}
        for name, t in tensors.items():
            g = t._grad
            if g is None or g.array.shape != (n,):
                return None
            grads[name] = g.array
        return out.array, grads


def _shape(value) -> tuple:
    """A row value's shape: () for a number (the common case, without numpy's np.shape)."""
    return () if type(value) is float else value.shape if type(value) is np.ndarray else np.shape(value)


BATCH_ELEMENTS = 1 << 20  # a batched pass holds at most this many elements of each row value (a few MB)


# -- reading -----------------------------------------------------------------------------------------

class LineChunks:
    """Whole lines from a binary stream, in chunks of at most CHUNK_ROWS lines.  From a pipe or terminal a
    chunk also ends as soon as no more input is ready, so each line is answered when it arrives."""

    def __init__(self, stream, *, max_rows: int | None = None, max_line_bytes: int | None = None,
                 name: str = "the input"):
        self.max_rows = max_rows or CHUNK_ROWS
        self.max_line_bytes = max_line_bytes or Limits().max_line_bytes
        self.name = name
        self.lines_done = 0  # complete lines handed out so far
        self.fd = None
        try:
            fd = stream.fileno()
            if not _is_regular(fd):
                self.fd = fd  # a pipe: read what is there with os.read, and ask select() for more
        except (AttributeError, OSError, ValueError):
            pass
        self.stream = stream
        self.bytes_read = 0

    def _read(self) -> bytes:
        if self.fd is not None:
            return os.read(self.fd, READ_BYTES)
        read1 = getattr(self.stream, "read1", None)
        return read1(READ_BYTES) if read1 is not None else self.stream.read(READ_BYTES)

    def _ready(self) -> bool:
        if self.fd is None:
            return True
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    def __iter__(self):
        """(lines, has_blank) per chunk: decoded lines (CRLF and a leading BOM handled) and whether any is
        blank (blank lines are skipped, not rows)."""
        buffer = bytearray()
        newlines = 0
        first = True
        while True:
            data = self._read()
            if data:
                self.bytes_read += len(data)
                buffer += data
                newlines += data.count(b"\n")
                if len(buffer) - (buffer.rfind(b"\n") + 1) > self.max_line_bytes:  # the line being read
                    self._too_long(self.lines_done + newlines + 1)
                if newlines < self.max_rows and (not newlines or self._ready()):
                    continue
                cut = buffer.rfind(b"\n") + 1
                blob = bytes(buffer[:cut])
                del buffer[:cut]
                self.lines_done += newlines
                newlines = 0
            else:
                blob = bytes(buffer)
                if not blob:
                    return
            yield _lines(blob, first)
            first = False
            if not data:
                return


    def _too_long(self, line: int):
        raise InputError(f"line {line} of {self.name} is longer than {self.max_line_bytes:,} bytes, the most one "
                         "row may have", hint="store large tensors in a file and give it as NAME=@FILE")


def _lines(blob: bytes, first: bool) -> tuple[list[str], bool]:
    # a byte that is not UTF-8 is kept as a lone surrogate and written back as the same byte: text columns are
    # echoed byte for byte (a number holding one fails to parse, as any other bad number)
    text = blob.decode("utf-8", errors="surrogateescape")
    if first and text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    body = text[:-1] if text.endswith("\n") else text
    # a blank line is empty or starts with whitespace: one search rules both out for most chunks
    maybe_blank = not body or body[0].isspace() or _LINE_STARTING_WITH_SPACE.search(body) is not None
    return body.split("\n"), maybe_blank


_LINE_STARTING_WITH_SPACE = re.compile(r"\n\s")  # \s: what str.strip() removes, \n included


def _is_regular(fd: int) -> bool:
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return False


def sniff_delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def input_kind(path: str | None, first_text: str | None) -> str:
    """'ndjson', 'csv', 'tsv' or 'sniff' from the file name; stdin is sniffed."""
    suffix = os.path.splitext(path or "")[1].lower()
    if suffix in (".jsonl", ".ndjson"):
        return "ndjson"
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    if first_text is not None and first_text.lstrip().startswith("{"):
        return "ndjson"
    return "csv"


# -- values ------------------------------------------------------------------------------------------

_NUMBER_WORDS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class ValueReader:
    """A row's value text (CSV field or NDJSON value) as an array: plain numbers directly, anything else
    through inputs.parse_value (nested lists, pi, nan ...).  Files (@path) and stdin (-) are refused:
    a data row does not get to name files to read."""

    def __init__(self, dtype: dtypes.DType, limits: Limits, rng):
        self.np_dtype = np.dtype(dtype.np)
        self.limits = limits
        self.rng = rng

    def text(self, name: str, text: str):
        stripped = text.strip()
        if not stripped:
            raise RowError("InputError", f"empty value for {name}")
        try:
            return float(stripped)
        except ValueError:
            pass
        if stripped.startswith("@") or stripped == "-":
            raise RowError("InputError", f"bad value for {name}: a row cannot name a file or stdin: {stripped[:40]}")
        try:
            return parse_value(stripped, dtype=self.np_dtype, rng=self.rng, limits=self.limits)
        except GradcliError as err:
            raise RowError("InputError", f"bad value for {name}: {err.message}: {stripped[:40]}") from None

    def json(self, name: str, value):
        if isinstance(value, bool) or value is None:
            raise RowError("InputError", f"bad value for {name}: {json.dumps(value)} is not a number or a nested list")
        if isinstance(value, (int, float)):
            try:
                return float(value)
            except OverflowError:
                return math.inf if value > 0 else -math.inf
        if isinstance(value, str) and value in _NUMBER_WORDS:
            return _NUMBER_WORDS[value]
        if isinstance(value, list):
            if _plain_numbers(value):  # the common case, without a text round trip: what parse_value reads
                try:
                    array = np.array(value, dtype=np.float64)
                except (ValueError, OverflowError):
                    array = None
                if array is not None and array.size <= self.limits.max_elements:
                    return array.astype(self.np_dtype, copy=False)
            try:
                text = _list_text(value)
            except (TypeError, ValueError) as err:
                raise RowError("InputError", f"bad value for {name}: {err}") from None
            try:
                return parse_value(text, dtype=self.np_dtype, rng=self.rng, limits=self.limits)
            except GradcliError as err:
                raise RowError("InputError", f"bad value for {name}: {err.message}") from None
        raise RowError("InputError", f"bad value for {name}: {json.dumps(value)[:40]} is not a number or a nested list")


def _plain_numbers(value: list) -> bool:
    """A nested list holding only JSON numbers (no booleans, strings or nulls)."""
    stack = [value]
    while stack:
        for item in stack.pop():
            kind = type(item)
            if kind is list:
                stack.append(item)
            elif kind is not float and kind is not int:
                return False
    return True


def _list_text(value) -> str:
    """A JSON nested list as the value text parse_value reads (nan/inf strings as names)."""
    if isinstance(value, list):
        return "[" + ",".join(_list_text(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        raise TypeError(f"{json.dumps(value)} is not a number")
    if isinstance(value, (int, float)):
        return repr(float(value))
    if isinstance(value, str) and value in _NUMBER_WORDS:
        return value
    raise TypeError(f"{json.dumps(value)[:40]} is not a number")


# -- the run -----------------------------------------------------------------------------------------

@dataclass
class RowsSummary:
    rows: int = 0
    failed: int = 0
    first_failure: str | None = None
    stopped: bool = False  # --fail-fast stopped at a failure
    disagreements: int = 0  # rows where --check found autograd wrong (a gradcli bug)
    first_disagreement: int | None = None  # its line
    non_finite: int = 0  # rows with nan/inf in the output or grads though their inputs were finite
    first_non_finite: int | None = None


class RowsRun:
    """Read, evaluate and hand every chunk to `writer` (gradcli.outputs), in input order."""

    def __init__(self, evaluator: RowEvaluator, writer, *, rng=None, fail_fast: bool = False, checker=None,
                 delimiter: str | None = None, progress=None):
        self.ev = evaluator
        self.writer = writer
        self.values = ValueReader(evaluator.dtype, evaluator.limits, rng or LazyGenerator(0, evaluator.dtype.np))
        self.fail_fast = fail_fast
        self.checker = checker
        self.delimiter = delimiter
        self.progress = progress
        self.summary = RowsSummary()

    def run(self, stream, path: str | None) -> RowsSummary:
        reader = LineChunks(stream, max_line_bytes=self.ev.limits.max_line_bytes,
                            name="standard input" if path in (None, "-") else path)
        handler = None
        line_no = 0
        with engine_settings(self.ev.dtype, self.ev.limits, budget=False), guard.alarm_session():
            for texts, has_blank in reader:
                start = line_no + 1
                line_no += len(texts)
                if has_blank:
                    kept = [i for i, t in enumerate(texts) if t.strip()]
                    lines: range | list = [start + i for i in kept]
                    texts = [texts[i] for i in kept]
                else:
                    lines = range(start, start + len(texts))
                if handler is None:
                    if not texts:
                        continue
                    kind = input_kind(path, texts[0])
                    if kind == "ndjson":
                        handler = _NdjsonRows(self)
                    else:
                        header, lines, texts = texts[0], lines[1:], texts[1:]
                        delimiter = self.delimiter or ("\t" if kind == "tsv" else
                                                       "," if kind == "csv" and path and path.lower().endswith(
                                                           ".csv") else sniff_delimiter(header))
                        handler = _CsvRows(self, header, delimiter)
                if texts:
                    chunk = handler.chunk(lines, texts)
                    self._finish(chunk)
                    if self.summary.stopped:
                        break
                if self.progress is not None:
                    self.progress(reader.bytes_read)
        if handler is None:
            raise InputError(f"{'standard input' if path in (None, '-') else path} has no rows",
                             hint="CSV needs a header line naming the columns; NDJSON one object per line")
        self.writer.close()
        return self.summary

    def _finish(self, chunk: Chunk) -> None:
        failed = len(chunk) - chunk.errors.count(None)
        for i, err in enumerate(chunk.errors if failed else ()):
            if err is not None:
                self.summary.failed += 1
                if self.summary.first_failure is None:
                    self.summary.first_failure = f"line {chunk.lines[i]}: {err[1]}"
                if self.fail_fast:
                    _truncate(chunk, i + 1)
                    self.summary.stopped = True
                    break
        self.summary.rows += len(chunk)
        summary = self.summary
        if chunk.checks:
            bad = [i for i, verdict in enumerate(chunk.checks) if verdict == "disagrees"]
            if bad and summary.first_disagreement is None:
                summary.first_disagreement = chunk.lines[bad[0]]
            summary.disagreements += len(bad)
        kept = [i for i in chunk.non_finite if i < len(chunk)]  # --fail-fast may have cut the chunk
        if kept and summary.first_non_finite is None:
            summary.first_non_finite = chunk.lines[kept[0]]
        summary.non_finite += len(kept)
        self.writer.write(chunk)

    def evaluate(self, chunk: Chunk, program_info, rows: list, columns: dict | None,
                 stacked: dict | None = None) -> None:
        """Fill chunk.outputs/grads/errors.  `rows[i]` is a dict {name: value} or a RowError;
        `columns`, when given, holds every row's values as float arrays (all rows parsed as numbers);
        `stacked`, every row's values stacked as {name: array of shape (n, *row shape)} (rows of equal shapes)."""
        program, wanted, rowwise = program_info
        n = len(rows)
        grad_names = self.ev.grad_names(wanted)
        tried_stacked = stacked is not None and not rowwise and self.checker is None and self.ev.batchable(program)
        if tried_stacked:
            batched = self.ev.batch_stacked(program, stacked, n)
            if batched is not None:  # the answers stay arrays: the writers print them in bulk
                chunk.outputs, chunk.grads, chunk.errors = batched[0], batched[1], [None] * n
                if self.ev.shared_finite:
                    finite_in = np.ones(n, dtype=bool)
                    for a in stacked.values():
                        finite_in &= np.isfinite(a.reshape(n, -1)).all(axis=1)
                    finite_out = np.isfinite(batched[0])
                    for g in batched[1].values():
                        if not isinstance(g, list):
                            finite_out &= np.isfinite(g.reshape(n, -1)).all(axis=1)
                    chunk.non_finite = np.flatnonzero(finite_in & ~finite_out).tolist()
                return
        tried = columns is not None and rowwise and n > 0
        if tried:
            done = self.ev.batch(program, columns, n)
            if done is not None:
                chunk.outputs, chunk.grads = done[0], done[1]
                chunk.errors = [None] * n
                if self.ev.shared_finite:
                    finite_in = np.logical_and.reduce([np.isfinite(c) for c in columns.values()])
                    finite_out = np.logical_and.reduce([np.isfinite(done[0]), *map(np.isfinite, done[1].values())])
                    chunk.non_finite = np.flatnonzero(finite_in & ~finite_out).tolist()
                self._check(chunk, program_info, columns, n)
                return
        batchable = [i for i, r in enumerate(rows) if isinstance(r, dict) and
                     all(type(v) is float for v in r.values())] if rowwise and not tried else []
        outputs: list = [None] * n
        grads = {name: [None] * n for name in grad_names}
        errors: list = [None] * n
        done = 0  # rows answered by a batched pass (the first `done` of `batches`' positions)
        batches = []  # (positions, (outputs, grads)) of each batched pass
        if len(batchable) > 1:
            cols = {name: np.array([rows[i][name] for i in batchable]) for name in wanted}
            batched = self.ev.batch(program, cols, len(batchable))
            if batched is not None:
                batches.append((batchable, batched))
        elif not rowwise and not tried_stacked and self.ev.batchable(program):
            # reductions, vector rows, products ...: one pass with a batch dimension per shape of the rows
            groups: dict = {}
            for i, r in enumerate(rows):
                if isinstance(r, dict):
                    groups.setdefault(tuple(map(_shape, r.values())), []).append(i)
            for positions in groups.values():
                if len(positions) > 1:
                    batched = self.ev.batch_rows(program, [rows[i] for i in positions], wanted)
                    if batched is not None:
                        batches.append((positions, batched))
        answered = set()
        for positions, batched in batches:
            out = batched[0].tolist()
            gs = {name: (g if isinstance(g, list) else g.tolist() if g.ndim == 1 else list(g))
                  for name, g in batched[1].items()}
            for k, i in enumerate(positions):
                outputs[i] = out[k]
                for name in grad_names:
                    grads[name][i] = gs[name][k]
            answered.update(positions)
            done += len(positions)
        for i, row in enumerate(rows):
            if i in answered:
                continue
            if isinstance(row, RowError):
                errors[i] = (row.kind, row.message)
            else:
                try:
                    out, gs = self.ev.one(program, row)
                except RowError as err:
                    errors[i] = (err.kind, err.message)
                else:
                    outputs[i] = out
                    for name in grad_names:
                        grads[name][i] = gs.get(name)
            if errors[i] is not None and self.fail_fast:
                break
        chunk.outputs, chunk.grads, chunk.errors = outputs, grads, errors
        if self.ev.shared_finite and done == n and len(batches) == 1 and not rowwise:
            # every row in the one batch: the same test as below, on the stacked arrays
            batched = batches[0][1]
            finite_in = np.ones(n, dtype=bool)
            for name in wanted:
                stacked = np.array([rows[i][name] for i in range(n)], dtype=np.float64).reshape(n, -1)
                finite_in &= np.isfinite(stacked).all(axis=1)
            finite_out = np.isfinite(np.asarray(batched[0], dtype=np.float64))
            for g in batched[1].values():
                if not isinstance(g, list):
                    finite_out &= np.isfinite(g.reshape(n, -1)).all(axis=1)
            chunk.non_finite = np.flatnonzero(finite_in & ~finite_out).tolist()
        elif self.ev.shared_finite:
            chunk.non_finite = [i for i, row in enumerate(rows) if errors[i] is None and isinstance(row, dict)
                                and all(np.all(np.isfinite(v)) for v in row.values())
                                and not all(np.all(np.isfinite(v)) for v in
                                            (outputs[i], *(g[i] for g in grads.values() if g[i] is not None)))]
        if self.checker is not None:
            good = [i for i in range(n) if errors[i] is None and isinstance(rows[i], dict)
                    and all(np.ndim(v) == 0 for v in rows[i].values())]
            cols = {name: np.array([float(rows[i][name]) for i in good]) for name in wanted}
            self._check(chunk, program_info, cols, len(good), good)
            chunk.checks = [c if c is not None or errors[i] is not None else "skipped"  # vector rows
                            for i, c in enumerate(chunk.checks)]

    def _check(self, chunk, program_info, columns, n, positions=None):
        if self.checker is None:
            return
        checks = [None] * len(chunk)
        if n:
            idx = list(range(len(chunk))) if positions is None else positions
            grads = {name: g if positions is None else [g[i] for i in idx] for name, g in chunk.grads.items()}
            for i, verdict in zip(idx, self.checker.verdicts(program_info, columns, grads, n, None)):
                checks[i] = verdict
        chunk.checks = checks


def _truncate(chunk: Chunk, n: int) -> None:
    chunk.lines, chunk.raw = chunk.lines[:n], chunk.raw[:n]
    if chunk.fields is not None:
        chunk.fields = chunk.fields[:n]
    if chunk.records is not None:
        chunk.records = chunk.records[:n]
    chunk.outputs = chunk.outputs[:n]
    chunk.grads = {k: v[:n] for k, v in chunk.grads.items()}
    chunk.errors = chunk.errors[:n]
    if chunk.checks is not None:
        chunk.checks = chunk.checks[:n]


class _CsvRows:
    def __init__(self, run: RowsRun, header: str, delimiter: str):
        self.run = run
        self.delimiter = delimiter
        self.columns = [c.strip() for c in _split(header, delimiter)]

        # counted once, not column by column: a header of 400,000 columns is read in milliseconds
        duplicates = sorted(c for c, k in Counter(self.columns).items() if k > 1 and c)
        if duplicates:
            raise InputError(f"the header names column '{duplicates[0]}' twice", source=header)
        ev = run.ev
        identifiers = [c for c in self.columns if c.isidentifier()]
        self.program_info = ev.program(identifiers)
        program, wanted, _ = self.program_info
        clash = [c for c in self.columns if c in ev.shared and c in program.variables]
        if clash:
            raise InputError(f"'{clash[0]}' is both a column of the input and given on the command line",
                             hint="drop one of them")
        missing = [n for n in wanted if n not in self.columns]
        if missing:
            shown = ", ".join(self.columns[:20]) + (f" and {len(self.columns) - 20:,} more" if len(self.columns) > 20
                                                     else "")
            other = sniff_delimiter(header)
            hint = (f"the header looks {'tab' if other == chr(9) else repr(other)}-separated: pass -d "
                    f"{'$' + repr(other) if other == chr(9) else repr(other)}"
                    if other != delimiter and other in header else
                    "name a column after the variable, or give it as NAME=VALUE or --const")
            raise EvalError(f"no value given for {', '.join(missing)}: no such column in the input "
                            f"(columns: {shown})", source=program.source, hint=hint)
        order = [c for c in self.columns if c in wanted]  # header order
        self.program_info = (program, order, self.program_info[2])
        self.indices = [self.columns.index(n) for n in order]
        run.writer.start(input_columns=self.columns, grad_names=ev.grad_names(order), delimiter=delimiter,
                         check=run.checker is not None)

    def chunk(self, lines, raw: list[str]) -> Chunk:
        d = self.delimiter
        joined = "".join(raw)
        nul = {i for i, t in enumerate(raw) if "\x00" in t} if "\x00" in joined else set()
        if nul:  # CSV cannot carry a NUL byte: that row fails, and is echoed with \0 in its place
            raw = [t.replace("\x00", "\\0") for t in raw]
        chunk = Chunk(lines, raw)
        width = len(self.columns)
        n = len(raw)
        quoted = '"' in joined
        regular = not quoted and not nul and list(map(str.count, raw, repeat(d))).count(width - 1) == n
        if regular and self.indices:
            try:  # numpy's C reader; its numbers are Python's float() of each field
                table = np.loadtxt(raw, delimiter=d, dtype=np.float64, comments=None, usecols=self.indices,
                                   ndmin=2, quotechar=None)
            except ValueError:
                table = None
            if table is not None and table.shape == (n, len(self.indices)):
                columns = {name: table[:, k] for k, name in enumerate(self.program_info[1])}
                self.run.evaluate(chunk, self.program_info, _LazyRows(columns, n), columns)
                return chunk
        split = [_split(t, d) for t in raw]
        if not regular:
            chunk.fields = split  # the writer re-quotes, and pads or cuts ragged rows to the header
        rows = []
        for i, f in enumerate(split):
            if i in nul:
                rows.append(RowError("InputError", "the row holds a NUL byte, which CSV cannot carry (shown as \\0)"))
                continue
            if len(f) != width:
                rows.append(RowError("InputError", f"the row has {len(f)} fields, the header has {width}"))
                continue
            try:
                rows.append({name: self.run.values.text(name, f[i])
                             for name, i in zip(self.program_info[1], self.indices)})
            except RowError as err:
                rows.append(err)
        self.run.evaluate(chunk, self.program_info, rows, None)
        return chunk


class _LazyRows:
    """Rows as dicts, built only if the batch falls back to the loop: {name: a number, or a row's array}."""

    def __init__(self, columns: dict, n: int):
        self.columns = columns
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        return {name: float(col[i]) if col.ndim == 1 else col[i] for name, col in self.columns.items()}

    def __iter__(self):
        return (self[i] for i in range(self.n))


def _split(text: str, delimiter: str) -> list[str]:
    if '"' not in text:
        return text.split(delimiter)
    try:
        return next(csv.reader([text], delimiter=delimiter, strict=True))
    except (csv.Error, StopIteration):
        return text.split(delimiter)


class _NdjsonRows:
    def __init__(self, run: RowsRun):
        self.run = run
        self.started = False
        self.keys: list[str] = []
        self.grad_names: list[str] = []
        self.unused_said: set[str] = set()  # each unused key is said once per stream

    def chunk(self, lines, raw: list[str]) -> Chunk:
        run = self.run
        ev = run.ev
        chunk = Chunk(lines, raw)
        records = _json_records(raw)
        chunk.records = records
        if not self.started:
            first = next((r for r in records if isinstance(r, dict)), None)
            self.keys = list(first) if first is not None else []
            _, wanted, _ = ev.program([k for k in self.keys if k in names.CONSTANTS])
            self.grad_names = ev.grad_names(self._input_order(wanted))
            run.writer.start(input_columns=self.keys, grad_names=self.grad_names, delimiter=",",
                             check=run.checker is not None, kind="ndjson")
            self.started = True
        if self._stacked(chunk, records, raw):
            return chunk
        # group rows by the program they need (it differs only if a row binds e or pi); usually one group
        groups: dict = {}
        for i, rec in enumerate(records):
            info = ev.program([k for k in rec if k in names.CONSTANTS]) if isinstance(rec, dict) else None
            groups.setdefault(id(info), (info, []))[1].append(i)
        n = len(records)
        chunk.outputs, chunk.errors = [None] * n, [None] * n
        chunk.grads = {name: [None] * n for name in self.grad_names}
        chunk.checks = [None] * n if run.checker is not None else None
        for info, positions in groups.values():
            if info is None:
                for i in positions:
                    chunk.errors[i] = (records[i].kind, records[i].message)
                continue
            program, wanted, rowwise = info
            wanted = self._input_order(wanted)
            info = (program, wanted, rowwise)
            self._say_unused(records, positions, lines, wanted)
            rows = [self._row(records[i], wanted) for i in positions]
            part = Chunk([lines[i] for i in positions], [raw[i] for i in positions])
            columns = None
            if rowwise and all(isinstance(r, dict) and all(type(v) is float for v in r.values()) for r in rows):
                columns = {name: np.array([r[name] for r in rows], dtype=np.float64) for name in wanted}
            run.evaluate(part, info, rows, columns)
            chunk.non_finite.extend(positions[k] for k in part.non_finite)  # (it was dropped: no NDJSON warning)
            # (each grad list made once: a default [None] * n built per row made a chunk quadratic in its rows)
            columns = [(chunk.grads.setdefault(name, [None] * n), column) for name, column in part.grads.items()]
            outputs, errors, checks = chunk.outputs, chunk.errors, chunk.checks
            part_checks = part.checks if checks is not None else None
            for k, i in enumerate(positions):
                outputs[i] = part.outputs[k]
                errors[i] = part.errors[k]
                for target, column in columns:
                    target[i] = column[k]
                if part_checks is not None:
                    checks[i] = part_checks[k]
        chunk.non_finite.sort()
        return chunk

    def _stacked(self, chunk: Chunk, records: list, raw: list[str]) -> bool:
        """The common chunk in bulk: every line an object with the same keys, every value a number or a nested
        list of numbers of one shape per name.  Each name's values are stacked by one numpy call (what
        ValueReader.json reads row by row) and the rows evaluated as one batch; the answers stay arrays for
        the writers.  False for any other chunk (read row by row below)."""
        run, ev = self.run, self.run.ev
        n = len(records)
        first = records[0] if records else None
        if run.checker is not None or n < 2 or type(first) is not dict:
            return False
        keys = first.keys()
        if set(map(type, records)) != {dict} or not all(map(keys.__eq__, map(dict.keys, records))) \
                or any(k in names.CONSTANTS or k in ev.shared for k in keys):
            return False
        program, wanted, rowwise = ev.program([])
        if any(name not in keys for name in wanted):
            return False
        if wanted and any("true" in t or "false" in t for t in (raw if len(raw) < 64 else ["\n".join(raw)])):
            return False  # a JSON boolean would become 1.0 or 0.0 in numpy's array (ValueReader refuses it)
        stacked = {}
        for name in wanted:
            try:
                values = np.array([r[name] for r in records])
            except (ValueError, TypeError, OverflowError):
                return False  # ragged, or not numbers: row by row, each row its own error
            if values.dtype.kind not in "fi" or values[0].size > ev.limits.max_elements:
                return False  # strings, nulls, integers past int64; rows past --max-elements
            if values.ndim == 1:
                stacked[name] = values.astype(np.float64, copy=False)  # numbers: Python floats, as the rows read
            else:
                stacked[name] = values.astype(np.float64, copy=False).astype(ev.dtype.np, copy=False)
        wanted = self._input_order(wanted)
        self._say_unused(records, [0], chunk.lines, wanted)
        scalars = all(a.ndim == 1 for a in stacked.values())
        run.evaluate(chunk, (program, wanted, rowwise), _LazyRows(stacked, n), stacked if rowwise and scalars
                     else None, stacked)
        return True

    def _say_unused(self, records, positions, lines, wanted) -> None:
        """A key no name of the expression reads would vanish from the output (its row has no column for
        it, as CSV rows have): say so on stderr, once per key, as eval warns of an unused tensor."""
        for i in positions:
            for key in records[i]:
                if key not in wanted and key not in self.run.ev.shared and key not in self.unused_said:
                    self.unused_said.add(key)
                    sys.stderr.write(f"gradcli: warning: '{key[:80]}' (line {lines[i]}) is not used by the "
                                     "expression; it is ignored\n")

    def _input_order(self, wanted: list[str]) -> list[str]:
        """The names in the order of the first object's keys (input order, as CSV columns)."""
        position = {k: i for i, k in enumerate(self.keys)}
        return sorted(wanted, key=lambda n: position.get(n, len(position)))

    def _row(self, record: dict, wanted: list[str]):
        ev = self.run.ev
        clash = [k for k in record if k in ev.shared]
        if clash:
            return RowError("InputError", f"'{clash[0]}' is given both in the row and on the command line")
        missing = [n for n in wanted if n not in record]
        if missing:
            return RowError("EvalError", f"no value given for {', '.join(missing)}")
        try:
            return {name: self.run.values.json(name, record[name]) for name in record if name in wanted}
        except RowError as err:
            return err


_KEY_LIKE = re.compile(r'"\s*:')  # every key of a JSON text ends so (a string holding '":' does too)
# an integer of 19 digits or more (it may be past int64, a float to orjson): JSON writes it after one of [,: or
# a space or its sign, and without a leading 0; a fraction's digits follow a '.' or a digit
_LONG_DIGITS = re.compile(r"[\[,:\s-][1-9]\d{18}")
_DIGITS_19 = re.compile(r"\d{19}")  # what _LONG_DIGITS needs, found 500 times faster (mostly not at all)


def _json_records(raw: list[str]) -> list:
    """Each line's JSON object, or a RowError for a line that is not one.  orjson reads the lines (a few
    times faster than json.loads); a line it refuses is read by json.loads, whose messages name the error and
    which also reads NaN, Infinity and integers of any size, as before.  orjson keeps a repeated key's last
    value and reads an integer past int64 as a float: a line with more key-like '"...":' than its object has
    keys, or with 19 digits in a row, is read again by json.loads (which refuses a repeated key)."""
    import orjson

    loads = orjson.loads
    try:
        values = list(map(loads, raw))
        exact = None
    except (orjson.JSONDecodeError, TypeError, RecursionError):
        values, exact = [], set()
        for i, text in enumerate(raw):
            try:
                values.append(loads(text))
            except (orjson.JSONDecodeError, TypeError, RecursionError):
                values.append(_json_record(text))
                exact.add(i)
    joined = "\n".join(raw)
    if exact is None and set(map(type, values)) == {dict}:  # the common chunk, counted at C speed
        keys = sum(map(len, values))
    else:
        keys = sum(len(v) for i, v in enumerate(values) if type(v) is dict and (exact is None or i not in exact))
    if exact or len(_KEY_LIKE.findall(joined)) != keys or _DIGITS_19.search(joined) and _LONG_DIGITS.search(joined):
        for i, text in enumerate(raw):
            v = values[i]
            if (exact is None or i not in exact) and (len(_KEY_LIKE.findall(text)) != (len(v) if type(v) is dict
                                                                                       else 0)
                                                      or _LONG_DIGITS.search(text)):
                values[i] = _json_record(text)
    return [v if type(v) is dict or isinstance(v, RowError) else _NOT_AN_OBJECT() for v in values]


def _NOT_AN_OBJECT() -> RowError:  # noqa: N802
    return RowError("InputError", "not a JSON object: each line needs {\"name\": value, ...}")


def _json_record(text: str):
    """One line read by json.loads: its object, or a RowError saying why not."""
    try:
        obj = json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKey as err:
        return RowError("InputError", f"{err} in the row")
    except ValueError as err:
        return RowError("InputError", f"not valid JSON: {err}")
    except RecursionError:  # json.loads recurses per nesting level (it was an internal error)
        return RowError("InputError", "not valid JSON: nested deeper than the JSON reader can read")
    return obj if isinstance(obj, dict) else _NOT_AN_OBJECT()


def check_stdin_once(rows_path: str | None, specs: list[str]) -> None:
    """--rows - and a NAME=- value cannot both read standard input."""
    if rows_path == "-" and any(spec.partition("=")[2].strip() in ("-", "@-") for spec in specs):
        raise InputError("standard input is already the --rows input", hint="give the value as NAME=@FILE")


def run_rows_command(expression: str, rows_path: str, inputs: dict, consts: dict, grad_output, *,
                     dtype: dtypes.DType, limits: Limits, rng, delimiter: str | None, fail_fast: bool,
                     output: str | None, fmt: str | None, json_flag: bool, raw: bool, saves: list[str] | None,
                     check: bool, check_timeout: float, strict: bool | None = None) -> int:
    """`gradcli eval EXPR --rows FILE|-`: the exit code: 2 when any row failed, else 1 when --check found
    autograd disagreeing with sympy on a row (a gradcli bug; 0 with --no-strict) or, with --strict, a row
    produced nan or inf from finite inputs; else 0."""
    if raw:
        raise InputError("-r/--raw prints one evaluation's gradients; rows mode writes csv, tsv, ndjson, json "
                         "or npz", hint="use --format csv or --format ndjson")
    if saves:
        raise InputError("--save writes one evaluation's gradient; in rows mode use -o FILE.npz")
    if delimiter is not None:
        delimiter = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";"}.get(delimiter, delimiter)
        if len(delimiter) != 1:
            raise InputError(f"the delimiter must be one character, not {delimiter!r}", hint="-d , or -d tab")
    fmt = outputs.format_of(output, fmt or ("ndjson" if json_flag else None), default="") or None
    evaluator = RowEvaluator(expression, inputs, consts, grad_output=grad_output, dtype=dtype, limits=limits)
    checker = None
    if check:
        from gradcli.verify.rows_check import RowsChecker

        checker = RowsChecker(evaluator, timeout=check_timeout)
    if rows_path == "-":
        stream, path, size = stdin_binary(), None, None
    else:
        if not os.path.exists(rows_path):
            raise InputError(f"no such file: {rows_path}")
        if os.path.isdir(rows_path):
            raise InputError(f"{rows_path} is a directory")
        stream, path = open(rows_path, "rb"), rows_path  # noqa: SIM115 - closed below
        size = os.path.getsize(rows_path) if _is_regular(stream.fileno()) else None
    try:
        with outputs.output_stream(output, binary=fmt == "npz") as (out, target):
            writer = outputs.rows_writer(fmt, out, flush=output is None)
            with _progress(size) as progress:
                run = RowsRun(evaluator, writer, rng=rng, fail_fast=fail_fast, checker=checker,
                              delimiter=delimiter, progress=progress)
                summary = run.run(stream, path)
            if summary.stopped and target is not None:
                target.discard()  # --fail-fast: a failed run leaves no file
    finally:
        if path is not None:
            stream.close()
    if summary.failed:
        sys.stderr.write(f"gradcli: error: {summary.failed} of {summary.rows} rows failed"
                         f"{' (stopped by --fail-fast)' if summary.stopped else ''}; first: {summary.first_failure}\n")
        return 2
    code = 0
    if summary.non_finite:
        sys.stderr.write(f"gradcli: warning: {summary.non_finite} of {summary.rows} rows produced nan or inf from "
                         f"finite inputs (an overflow, or a point outside a function's domain); first: line "
                         f"{summary.first_non_finite}\n")
        code = 1 if strict else 0
    if summary.disagreements:
        sys.stderr.write(f"gradcli: error: autograd and sympy disagree on {summary.disagreements} of {summary.rows}"
                         f" rows (first: line {summary.first_disagreement}) — this is a gradcli bug\n"
                         "hint: please report it with this command line; --no-strict keeps exit status 0\n")
        code = 1 if strict is not False else code
    return code


@contextmanager
def _progress(size: int | None):
    """A transient rich progress bar on stderr for long files, only when stderr is a terminal."""
    if size is None or size < PROGRESS_BYTES or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    with Progress("rows", BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                  console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task("rows", total=size)
        yield lambda done: bar.update(task, completed=done)


def stdin_binary():
    return getattr(sys.stdin, "buffer", sys.stdin)
