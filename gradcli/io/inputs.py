"""NAME=VALUE specs from the command line: numbers, nested lists, generators, files and stdin.

VALUE is one of
  2.5, -1, nan, inf, pi, 1/3, 10**3   a number (a 0-d tensor); arithmetic on numbers is float64 (IEEE)
  [1,2,3], [[1,2],[3,4]]             a nested list
  randn(3,4) rand(2) zeros(2,3) ones(3) arange(5) arange(0,1,0.25) linspace(0,1,5) eye(3) full((2,2),7)
  @path                              a file: .npy, .npz (@f.npz:key), .json, or comma/whitespace text
                                     (@t.csv:name: the column a header line names);
                                     any of them gzip-compressed (.gz); FIFOs and /dev/stdin work
  @-  (or -)                         the same formats read from standard input (sniffed by content)
  tensor([0, 2]), long(...), int(...) the value typed as PyTorch types it (see below)
Values are parsed with `ast` through a whitelist, never evaluated as Python.  Files are read strictly: an
empty field or a ragged row is an error naming its line and column, never silently skipped.  Every file and
stdin is gated by size before it is parsed (and a .npy/.npz array by its header before its data is read).

Types, as PyTorch's: a tensor that requires grad is floating (the command's dtype), whatever its text.  A
constant (`typed=True`: eval's --const, the REPL's `const x = ...`) keeps the type `torch.tensor` gives its
data: integers written as integers (`[0, 2]`, `3`, `arange(3)`, `full((2,), 7)`, a JSON integer, a text file
of integers, an integer .npy) are int64, True/False are bool, anything else is floating; `long(...)`/`int(...)`
make any value int64 (truncating, as `.long()`), `tensor(...)` states the literal's own type explicitly.
"""

from __future__ import annotations

import ast
import difflib
import gzip
import io
import json
import math
import os
import re
import stat
import sys
import warnings
import zipfile
import zlib
from dataclasses import dataclass

import numpy as np

from gradcli.engine import random, tensor
from gradcli.safety.errors import InputError
from gradcli.safety.limits import Limits

_GENERATORS = ("randn", "rand", "zeros", "ones", "arange", "linspace", "eye", "full")
_TYPE_FORMS = ("tensor", "long", "int")  # the whole value typed: tensor(data) as torch.tensor, long(...) int64
_REQUIRES_FLOAT_HINT = "a tensor that requires grad is floating: give an integer tensor with --const NAME=VALUE"
_NAMED_NUMBERS = {"nan": math.nan, "inf": math.inf, "pi": math.pi, "e": math.e}
_VALUE_HINT = "a value is a number, a list like [1,2,3], randn(3,4) or @file"

# A number in text takes at most ~25 characters with its separator ("-1.2345678901234567e-300,"), so 32 bytes
# per allowed element (plus room for headers and comments) admits every legitimate file and stops the rest
# before a byte of it is parsed.
TEXT_BYTES_PER_ELEMENT = 32
SIZE_SLACK_BYTES = 1 << 16
EXCERPT_CHARS = 40  # the most of a bad file an error message quotes

_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
_GZIP_MAGIC = b"\x1f\x8b"
_OTHER_COMPRESSIONS = ((b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zstd"),
                       (b"7z\xbc\xaf\x27\x1c", "7-zip"))
_DELIMITERS = {".csv": ",", ".tsv": "\t"}
_STREAM_HEAD_BYTES = 1 << 16  # files larger than this are parsed straight from the file
_NPZ_KEY = re.compile(r"(?is)(.*\.npz(?:\.gz)?):([^/]*)")
_TABLE_COLUMN = re.compile(r"(?is)(.*\.(?:csv|tsv|txt)(?:\.gz)?):([^/]+)")  # @table.csv:NAME, a column by its header
_NUMBER = re.compile(r"(?i)[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|nan|inf|infinity)")


@dataclass(frozen=True)
class Assignment:
    name: str
    value: np.ndarray
    text: str


def parse_assignment(spec: str, *, dtype: np.dtype, rng: np.random.Generator, limits: Limits,
                     stdin=None, typed: bool = False) -> Assignment:
    name, text, offset = _split_assignment(spec)
    value = parse_value(text, dtype=dtype, rng=rng, limits=limits, stdin=stdin, source=spec, offset=offset,
                        typed=typed)
    return Assignment(name, value, spec)


def _split_assignment(spec: str) -> tuple[str, str, int]:
    if "=" not in spec:
        raise InputError(f"expected NAME=VALUE, got '{_excerpt(spec)}'", source=spec[:200],
                         span=(0, min(len(spec), 200)), hint="for example x=[1,2,3] or W=randn(3,4)")
    name, text = spec.split("=", 1)
    name = name.strip()
    check_name(name, spec)
    return name, text, spec.index("=") + 1


def check_name(name: str, source: str | None = None, *, where: str = "", start: int = 0) -> None:
    if not name.isidentifier() or name.startswith("_"):
        raise InputError(f"{where}'{_excerpt(name)}' is not a valid tensor name", source=source,
                         span=(start, start + max(len(name), 1)) if source else None,
                         hint="names are identifiers such as x, W1 or bias")


def parse_value(text: str, *, dtype: np.dtype, rng: np.random.Generator, limits: Limits, stdin=None,
                source: str | None = None, offset: int = 0, typed: bool = False) -> np.ndarray:
    """The array VALUE stands for: floating (`dtype`), or with `typed` (a constant) in the type PyTorch gives
    its data: int64 for integers, bool for True/False, `dtype` for the rest (see the module's docstring)."""
    source = text if source is None else source
    stripped = text.strip()
    if not stripped:
        raise InputError("empty value", source=source, span=(offset, offset + 1))
    if len(stripped) > limits.max_length:
        raise InputError(f"value is {len(stripped)} characters long; the limit is {limits.max_length}",
                         source=source[:200], hint="put large values in a file: NAME=@values.npy")
    if stripped in ("-", "@-"):
        return _finish(_read_stdin(stdin, limits, typed), dtype, limits, "standard input", typed)
    if stripped.startswith("@"):
        return _finish(_read_file(stripped[1:], limits, source, offset, typed), dtype, limits, stripped[1:], typed)
    lead = offset + (len(text) - len(text.lstrip()))
    if not stripped.isascii():
        _check_utf8_argument(stripped, source)
    if "\x00" in stripped:
        raise InputError("the value contains a NUL byte", source=source[:200].replace("\x00", "\\0"))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning "invalid decimal literal" for 1e: the error says it
            tree = ast.parse(stripped, mode="eval")
    except (SyntaxError, ValueError) as err:
        if "integer string conversion" in str(err):  # an integer literal with more digits than Python converts
            raise InputError("a number in the value has too many digits", source=source[:200],
                             hint="write it as a float, e.g. 1e400 (inf)") from None
        if not isinstance(err, SyntaxError):
            raise InputError(f"cannot read the value: {_excerpt(str(err), 80)}", source=source[:200]) from None
        col = lead + max((err.offset or 1) - 1, 0)
        raise InputError(f"cannot read the value: {err.msg}", source=source, span=(col, col + 1),
                         hint=_VALUE_HINT) from None
    except (RecursionError, MemoryError):
        raise InputError("value is nested too deeply", source=source[:200]) from None
    body = tree.body
    if isinstance(body, ast.Tuple) and body.elts and body.col_offset == body.elts[0].col_offset:
        # 1,5 without brackets: a decimal comma (1.5) as often as a list; Python would make it a tuple
        raise InputError("numbers separated by commas without brackets",
                         source=source, span=(lead, lead + len(stripped)),
                         hint=f"a list is written [{_excerpt(stripped)}]; a decimal point is '.', as in 1.5")
    reader = _ValueReader(source, lead, limits, rng)
    if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id in _TYPE_FORMS:
        return _finish(reader.typed_form(body, typed), dtype, limits, source[:200], True)
    return _finish(reader.read(body), dtype, limits, source[:200], typed)


def _check_utf8_argument(text: str, source: str) -> None:
    """Arguments that were not UTF-8 arrive with surrogate escapes (PEP 383): say so, not 'cannot encode'."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        byte = ord(text[err.start]) - 0xDC00 if 0xDC80 <= ord(text[err.start]) <= 0xDCFF else None
        shown = f" (byte 0x{byte:02x})" if byte is not None else ""
        raise InputError(f"the value is not UTF-8 text{shown}", source=source[:200]) from None


def _finish(array, dtype, limits, what, typed: bool = False) -> np.ndarray:
    array = np.asarray(array)
    if array.size > limits.max_elements:
        raise InputError(f"{_excerpt(what)} has {array.size} elements; the limit is {limits.max_elements}",
                         hint="raise it with --max-elements")
    if typed and array.dtype.kind in "iub":  # a constant keeps torch's type of its data: int64 or bool
        dtype = np.dtype(np.bool_) if array.dtype.kind == "b" else np.dtype(np.int64)
    if array.dtype == dtype and array.flags.writeable:
        return array  # every reader here makes a fresh array (read-only ones are views of bytes): no copy
    return array.astype(dtype)


def _excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """At most `limit` characters of untrusted text, unprintable characters escaped."""
    shown = text[:limit]
    if not shown.isprintable():
        shown = shown.encode("unicode_escape").decode("ascii")[:limit]
    return shown + ("..." if len(text) > limit else "")


def max_input_bytes(limits: Limits) -> int:
    """The most bytes gradcli reads from one file or stream (after decompression) under these limits."""
    return limits.max_elements * TEXT_BYTES_PER_ELEMENT + SIZE_SLACK_BYTES


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

    def typed_form(self, node, typed: bool) -> np.ndarray:
        """tensor(data), long(data) or int(data): the whole value, in the type it states."""
        name = node.func.id
        if node.keywords or len(node.args) != 1:
            self.fail(node, f"{name}(...) takes one value", hint=f"for example {name}([0, 2])")
        value = np.asarray(self.read(node.args[0], 1))
        if name == "tensor":
            if not typed and value.dtype.kind in "iub":
                value = value.astype(np.float64)  # requires grad: floating, as a plain list would be
            return value
        if not typed:
            self.fail(node.func, f"{name}(...) makes an int64 tensor, and only Tensors of floating point and "
                                 "complex dtype can require gradients", hint=_REQUIRES_FLOAT_HINT)
        if value.dtype.kind == "f":
            if not np.all(np.isfinite(value)):
                self.fail(node, f"{name}(...) of nan or inf: an integer cannot hold it")
            if np.any(np.abs(value) >= 2.0**63):
                self.fail(node, f"{name}(...): the value does not fit in int64")
        return np.trunc(value).astype(np.int64) if value.dtype.kind == "f" else value.astype(np.int64)

    def read(self, node, depth=0):
        if depth > self.limits.max_depth:
            self.fail(node, "value is nested too deeply")
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if isinstance(node.value, int):  # kept as an integer: a constant of integers is int64, as in torch
                try:
                    float(node.value)
                except OverflowError:
                    self.fail(node, "integer too large for a float", hint="write it as a float, e.g. 1e400 (inf)")
                return node.value if -2**63 <= node.value < 2**63 else float(node.value)
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.read(node.operand, depth + 1)
            if isinstance(value, bool) or (isinstance(value, np.ndarray) and value.dtype == np.bool_):
                self.fail(node, "a sign can only precede a number")
            value = -value if isinstance(node.op, ast.USub) else value
            return value if not isinstance(value, int) or -2**63 <= value < 2**63 else float(value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, tuple(_ARITHMETIC)):
            # elementwise, as on tensors: randn(300,300)/20, 2*pi*rand(5), [1,2,3]**2 (left operand drawn first)
            left, right = self.read(node.left, depth + 1), self.read(node.right, depth + 1)
            operate = _ARITHMETIC[type(node.op)]
            with np.errstate(all="ignore"):  # IEEE results (1/0 = inf, 10**400 = inf) as PyTorch gives them
                if _is_number(left) and _is_number(right):  # arithmetic on numbers is float64, as the help says
                    return float(operate(np.float64(left), np.float64(right)))
                try:
                    shape = np.broadcast_shapes(np.shape(left), np.shape(right))
                except ValueError:
                    self.fail(node, f"the shapes {tuple(np.shape(left))} and {tuple(np.shape(right))} do not "
                                    "broadcast", hint="give values of one shape, or one a number")
                if math.prod(shape) > self.limits.max_elements:
                    self.fail(node, f"the value would have {_count(math.prod(shape))} elements; the limit is "
                                    f"{self.limits.max_elements}", hint="raise it with --max-elements")
                return operate(np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64))
        if isinstance(node, ast.Name) and node.id in _NAMED_NUMBERS:
            return _NAMED_NUMBERS[node.id]
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.read(e, depth + 1) for e in node.elts]
            try:
                return np.array(items, dtype=_list_dtype(items))
            except ValueError:
                self.fail(node, "rows of a nested list must all have the same length")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _GENERATORS:
            return self.generate(node, depth)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _TYPE_FORMS:
            self.fail(node, f"{node.func.id}(...) types the whole value", hint=f"write {node.func.id}([...])")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            close = difflib.get_close_matches(node.func.id, _GENERATORS, n=1)
            self.fail(node.func, f"unknown value generator '{node.func.id}'",
                      hint=f"did you mean `{close[0]}`?" if close else "generators: " + ", ".join(_GENERATORS)
                      + "; tensor([...]) and long(...) type a value")
        self.fail(node, "not a value", hint=_VALUE_HINT)

    def generate(self, node, depth):
        name = node.func.id
        if node.keywords:
            self.fail(node, f"{name}() takes positional arguments only")
        args = []
        for a in node.args:
            value = self.read(a, depth + 1)
            if isinstance(value, np.ndarray):
                if value.size > 64:
                    self.fail(a, "a shape has at most 64 sizes")
                value = tuple(float(v) for v in value.ravel())
            elif isinstance(value, bool):
                self.fail(a, f"{name}() takes numbers, not {value}")
            args.append(value)
        integers = all(isinstance(a, int) for a in args)  # torch.arange(3), torch.full(s, 7): int64
        try:
            shape = _generator_shape(name, args)
        except (TypeError, ValueError, OverflowError) as err:
            self.fail(node, f"bad arguments for {name}(): {err}")
        n = math.prod(shape)
        if n > self.limits.max_elements:
            self.fail(node, f"{name}(...) would have {_count(n)} elements; the limit is {self.limits.max_elements}",
                      hint="raise it with --max-elements")
        if len(shape) > 64:
            self.fail(node, f"{name}(...) has {len(shape)} dimensions; the most is 64")
        if name == "randn":
            return self.rng.standard_normal(shape)
        if name == "rand":
            return self.rng.random(shape)
        if name == "zeros":
            return np.zeros(shape)
        if name == "ones":
            return np.ones(shape)
        if name == "eye":
            return np.eye(*shape)
        if name == "full":
            return np.full(shape, args[1], dtype=np.int64 if isinstance(args[1], int) else np.float64)
        if name == "linspace":
            return np.linspace(args[0], args[1], shape[0])
        start, _stop, step = _arange_args(args)
        if integers:
            return int(start) + int(step) * np.arange(shape[0], dtype=np.int64)
        return start + step * np.arange(shape[0], dtype=np.float64)


_ARITHMETIC = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.divide,
               ast.Pow: np.power}


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _list_dtype(items) -> type:
    """torch.tensor's type of a list's data: bool if all bool, int64 if all integers (or bool), else float64."""
    kinds = {("b" if isinstance(v, bool) else "i" if isinstance(v, int) else "f") if not isinstance(v, np.ndarray)
             else v.dtype.kind for v in items}
    if kinds <= {"b"} and items:
        return np.bool_
    if kinds <= {"b", "i"} and items:
        return np.int64
    return np.float64


def _count(n: int) -> str:
    return str(n) if n < 10**15 else f"{float(n):.3g}"


def _ints(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    values = []
    for a in args:
        if isinstance(a, tuple) or not math.isfinite(a) or not float(a).is_integer() or a < 0:
            raise ValueError(f"sizes must be non-negative whole numbers, got {a}")
        values.append(int(a))
    return tuple(values)


def _arange_args(args):
    if not 1 <= len(args) <= 3 or any(isinstance(a, tuple) for a in args):
        raise TypeError("arange(end), arange(start, end) or arange(start, end, step)")
    if len(args) == 1:
        start, stop, step = 0.0, float(args[0]), 1.0
    else:
        start, stop = float(args[0]), float(args[1])
        step = float(args[2]) if len(args) == 3 else 1.0
    if not all(map(math.isfinite, (start, stop, step))):
        raise ValueError("start, end and step must be finite")
    if step == 0:
        raise ValueError("step must be nonzero")
    return start, stop, step


def _generator_shape(name, args) -> tuple:
    if name in ("randn", "rand", "zeros", "ones"):
        return _ints(args)
    if name == "eye":
        if len(args) not in (1, 2):
            raise TypeError("eye(n) or eye(n, m)")
        return _ints(args) if len(args) == 2 else _ints(args) * 2
    if name == "full":
        if len(args) != 2 or isinstance(args[1], tuple):
            raise TypeError("full(shape, value)")
        return _ints([args[0]] if isinstance(args[0], tuple) else [args[0]])
    if name == "linspace":
        if len(args) != 3 or isinstance(args[0], tuple) or isinstance(args[1], tuple):
            raise TypeError("linspace(start, end, steps)")
        if not (math.isfinite(args[0]) and math.isfinite(args[1])):
            raise ValueError("start and end must be finite")
        return _ints([args[2]])
    start, stop, step = _arange_args(args)
    span = (stop - start) / step
    if not math.isfinite(span):
        raise ValueError("too many steps")
    return (max(0, math.ceil(span)),)


# -- files and streams ----------------------------------------------------------------------------------------

def _read_file(path_text: str, limits: Limits, source=None, offset=0, typed: bool = False):
    """The array in file `path_text` (`file.npz:key` names one array of an .npz)."""
    key = column = None
    if not os.path.lexists(path_text):
        match = _NPZ_KEY.fullmatch(path_text)
        if match and os.path.lexists(match.group(1)):
            path_text, key = match.group(1), match.group(2)
        match = _TABLE_COLUMN.fullmatch(path_text)
        if key is None and match and os.path.lexists(match.group(1)):
            path_text, column = match.group(1), match.group(2)
    if not path_text:
        raise InputError("expected a file name after @", source=source, span=(offset, offset + 1),
                         hint="@values.npy, @data.csv, or - for standard input")
    what, extension = _excerpt(path_text, 200), _extension(path_text)
    if column is not None:  # @table.csv:NAME, the column its header names
        with _open_path(path_text, limits, source, offset) as stream:
            data = _read_opened(stream, path_text, limits, source, offset)
        return _table_column(data, what, column, extension, limits)
    with _open_path(path_text, limits, source, offset) as stream:
        try:
            head = stream.peek(_STREAM_HEAD_BYTES)[:_STREAM_HEAD_BYTES]
            if key is None and head.startswith(_NPY_MAGIC):
                return _read_npy(stream, what, limits)  # its header bounds what is read
            if _streamable(stream, head, extension):
                try:
                    return _from_text(head, _table_from_stream(stream, what, limits), what, limits,
                                      delimiter=_DELIMITERS.get(extension), typed=typed)
                except ValueError:
                    stream.seek(0)  # bad text: the in-memory reader below finds the line and column
        except OSError as err:
            raise InputError(f"cannot read {what}: {err.strerror or err}") from None
        data = _read_opened(stream, path_text, limits, source, offset)
    return _decode(data, what, limits, key=key, extension=extension, typed=typed)


def _streamable(stream, head: bytes, extension: str) -> bool:
    """Whether a large regular file is plain text that numpy can read straight from the file, in bounded
    memory: it starts like text (no signature, no NUL, no JSON bracket) and its first data line is in `head`."""
    if extension in (".json", ".npy", ".npz") or not stream.seekable() or b"\x00" in head:
        return False
    if os.fstat(stream.fileno()).st_size <= len(head):
        return False  # small: read it whole
    if head.startswith((_GZIP_MAGIC, b"\xef\xbb\xbf", *_ZIP_MAGICS, *(m for m, _ in _OTHER_COMPRESSIONS))):
        return False
    first = re.match(rb"\s*", head).end()
    line = _first_data_line(head)
    return head[first:first + 1] not in (b"[", b"{") and line is not None and line[1] < len(head)


class _CheckedStream(io.RawIOBase):
    """A file read through as it is: refuses NUL bytes (a binary file) and more than `cap` bytes on the way,
    so numpy's reader can parse straight from the file."""

    def __init__(self, stream, cap: int, what: str, limits: Limits):
        self.stream, self.cap, self.what, self.limits, self.total = stream, cap, what, limits, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        count = self.stream.readinto(buffer)
        if count:
            if memoryview(buffer)[:count].tobytes().find(b"\x00") != -1:
                raise _binary(self.what)
            self.total += count
            if self.total > self.cap:
                raise _too_large(self.what, self.cap, self.limits)
        return count


def _extension(path_text: str) -> str:
    """The format extension, lower case, under any .gz: 'x.NPY' -> '.npy', 'x.csv.gz' -> '.csv'."""
    name = os.path.basename(path_text).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return os.path.splitext(name)[1]


def _read_path_bytes(path_text: str, limits: Limits, source=None, offset=0) -> bytes:
    with _open_path(path_text, limits, source, offset) as stream:
        return _read_opened(stream, path_text, limits, source, offset)


def _open_path(path_text: str, limits: Limits, source=None, offset=0):
    """The file opened for reading, after the checks that need no reading: exists, not a directory, size."""
    span = (offset, offset + len(path_text) + 1) if source is not None else None
    shown = _excerpt(path_text, 200)
    try:
        info = os.stat(path_text)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{shown} is a directory, not a file", source=source, span=span)
        cap = max_input_bytes(limits)
        if stat.S_ISREG(info.st_mode) and info.st_size > cap:
            raise _too_large(shown, cap, limits)
        return open(path_text, "rb", buffering=_STREAM_HEAD_BYTES)
    except FileNotFoundError:
        raise InputError(f"no such file: {shown}", source=source, span=span) from None
    except PermissionError:
        raise InputError(f"permission denied: {shown}", source=source, span=span) from None
    except (OSError, ValueError) as err:
        raise InputError(f"cannot open {shown}: {getattr(err, 'strerror', None) or err}", source=source,
                         span=span) from None


def _read_opened(stream, path_text: str, limits: Limits, source=None, offset=0) -> bytes:
    shown = _excerpt(path_text, 200)
    try:
        return _read_capped(stream, max_input_bytes(limits), shown, limits)
    except OSError as err:
        span = (offset, offset + len(path_text) + 1) if source is not None else None
        raise InputError(f"cannot read {shown}: {err.strerror or err}", source=source, span=span) from None


def _read_stdin(stdin, limits: Limits, typed: bool = False):
    data = _stdin_bytes(stdin, limits)
    return _decode(data, "standard input", limits, key=None, extension="", typed=typed)


def _stdin_bytes(stdin, limits: Limits) -> bytes:
    stream = stdin if stdin is not None else sys.stdin
    cap = max_input_bytes(limits)
    binary = getattr(stream, "buffer", None)
    if binary is not None:
        return _read_capped(binary, cap, "standard input", limits)
    data = stream.read(cap + 1)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > cap:
        raise _too_large("standard input", cap, limits)
    return data


def _read_capped(stream, cap: int, what: str, limits: Limits) -> bytes:
    """All of `stream`, or an error as soon as it holds more than `cap` bytes (pipes have no size to ask)."""
    chunks, total = [], 0
    while True:
        chunk = stream.read(min(1 << 24, cap + 1 - total))
        if not chunk:
            break
        if not chunks:
            _check_start(chunk, what)  # now, not after reading all of /dev/zero
        chunks.append(chunk)
        total += len(chunk)
        if total > cap:
            raise _too_large(what, cap, limits)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _check_start(chunk: bytes, what: str) -> None:
    """Refuse, from its first bytes, a stream no reader here understands."""
    for magic, kind in _OTHER_COMPRESSIONS:
        if chunk.startswith(magic):
            raise InputError(f"{what} is {kind}-compressed; gradcli reads gzip (.gz) only",
                             hint="decompress it first, or recompress it with gzip")
    if not chunk.startswith((_NPY_MAGIC, _GZIP_MAGIC, *_ZIP_MAGICS)) and b"\x00" in chunk:
        raise _binary(what)


def _too_large(what: str, cap: int, limits: Limits) -> InputError:
    return InputError(f"{what} is larger than {cap:,} bytes, the most read for --max-elements "
                      f"{limits.max_elements:,}", hint="raise --max-elements, or store the array as .npy")


def _decode(data: bytes, what: str, limits: Limits, *, key, extension: str, typed: bool = False):
    """Bytes to an array, by content: gzip, .npy, .npz, JSON or delimited text."""
    if data[:2] == _GZIP_MAGIC:
        data = _gunzip(data, what, limits)
    if data[:6] == _NPY_MAGIC:
        if key is not None:
            raise InputError(f"{what} is a .npy file; only an .npz has keys")
        return _read_npy(io.BytesIO(data), what, limits)
    if data[:4] in _ZIP_MAGICS:
        return _read_npz(data, what, limits, key)
    if extension in (".npy", ".npz"):
        raise InputError(f"{what} is not a {extension} file (it does not start with the {extension} signature)")
    data = _text_bytes(data, what)
    first = re.match(rb"\s*", data).end()
    if extension == ".json" or data[first:first + 1] in (b"[", b"{"):
        return _from_json(data, what, limits, typed)
    return _from_text(data, _table_from_bytes(data, what), what, limits, delimiter=_DELIMITERS.get(extension),
                      typed=typed)


def _table_column(data: bytes, what: str, column: str, extension: str, limits: Limits) -> np.ndarray:
    """The column named `column` by the header line of a CSV/TSV/text table, as a vector."""
    if data[:2] == _GZIP_MAGIC:
        data = _gunzip(data, what, limits)
    text = _text_bytes(data, what).decode("utf-8")
    lines = text.splitlines(keepends=True)
    first = next((k for k, line in enumerate(lines) if line.split("#", 1)[0].strip()), None)
    if first is None:
        raise InputError(f"cannot read {what}: it holds no header line naming '{column}'")
    header = lines[first].split("#", 1)[0].strip()
    delimiter = _DELIMITERS.get(extension) or ("," if "," in header else "\t" if "\t" in header else None)
    names = [n.strip() for n in (header.split(delimiter) if delimiter else header.split())]
    if column not in names:
        close = difflib.get_close_matches(column, names, n=1)
        raise InputError(f"{what} has no column '{_excerpt(column, 40)}' (its header: {', '.join(names[:12])})",
                         hint=f"did you mean @{what}:{close[0]}?" if close else None)
    body = "".join(lines[first + 1:]).encode()
    table = _from_text(body, _table_from_bytes(body, what), what, limits, delimiter=delimiter)
    table = np.atleast_2d(table) if table.ndim < 2 and len(names) > 1 else table
    if table.ndim == 2 and table.shape[1] != len(names):
        raise InputError(f"cannot read {what}: the header names {len(names)} columns, the rows hold {table.shape[1]}")
    return table.reshape(-1) if len(names) == 1 else table[:, names.index(column)]


def _gunzip(data: bytes, what: str, limits: Limits) -> bytes:
    cap = max_input_bytes(limits)
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            # the cap applies to the decompressed bytes: a small "zip bomb" stops at the cap
            return _read_capped(stream, cap, f"{what} (decompressed)", limits)
    except (OSError, EOFError, zlib.error) as err:
        raise InputError(f"{what} is not a valid gzip file: {_excerpt(str(err), 80)}") from None


def _binary(what: str) -> InputError:
    return InputError(f"{what} is a binary file, not .npy, .npz, JSON or text",
                      hint="values are .npy/.npz arrays, JSON lists or numbers in text")


def _text_bytes(data: bytes, what: str) -> bytes:
    """`data` checked to be UTF-8 text (kept as bytes: numpy's reader decodes it in chunks), BOM removed."""
    if b"\x00" in data:
        raise _binary(what)
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(f"{what} is not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})",
                             hint="values are .npy/.npz arrays, JSON lists or numbers in text") from None
        data = data.removeprefix(b"\xef\xbb\xbf")
    return data


# -- .npy and .npz ---------------------------------------------------------------------------------------------

def _read_npy(stream, what: str, limits: Limits) -> np.ndarray:
    """An .npy array, its header checked (dtype, size) before its data is read; never unpickles."""
    fmt = np.lib.format
    try:
        version = fmt.read_magic(stream)
        if version == (1, 0):
            shape, fortran_order, dtype = fmt.read_array_header_1_0(stream)
        elif version == (2, 0):
            shape, fortran_order, dtype = fmt.read_array_header_2_0(stream)
        else:
            raise ValueError(f"version {version[0]}.{version[1]} is not supported")
    except (ValueError, EOFError, SyntaxError, TypeError) as err:
        raise InputError(f"{what} is not a valid .npy file: {_excerpt(str(err), 80)}") from None
    if dtype.hasobject:
        raise InputError(f"{what} holds Python objects (dtype object), not numbers",
                         hint="gradcli never unpickles files; save a numeric array, e.g. np.save(f, a.astype(float))")
    if dtype.kind not in "fiub" or dtype.fields is not None or dtype.subdtype is not None:
        raise InputError(f"{what} does not hold real numbers (dtype {dtype})")
    count = math.prod(shape)
    if count > limits.max_elements:
        raise InputError(f"{what} has {_count(count)} elements; the limit is {limits.max_elements}",
                         hint="raise it with --max-elements")
    array = np.empty(count, dtype=dtype)  # read straight into the array: no second copy of a large file
    buffer, filled = memoryview(array).cast("B"), 0
    while filled < array.nbytes:
        got = stream.readinto(buffer[filled:])
        if not got:
            raise InputError(f"{what} is truncated: its header announces {array.nbytes} bytes of data, "
                             f"it holds {filled}")
        filled += got
    return array.reshape(shape, order="F" if fortran_order else "C")


def _npz_members(archive) -> dict[str, str]:
    return {name[:-4]: name for name in archive.namelist() if name.endswith(".npy")}


def _open_npz(data: bytes, what: str):
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise InputError(f"{what} is not a valid .npz file: {_excerpt(str(err), 80)}") from None


def _read_npz_member(archive, member: str, what: str, limits: Limits) -> np.ndarray:
    try:
        with archive.open(member) as stream:
            return _read_npy(stream, what, limits)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError) as err:
        raise InputError(f"cannot read {what}: {_excerpt(str(err), 80)}") from None


def _read_npz(data: bytes, what: str, limits: Limits, key) -> np.ndarray:
    with _open_npz(data, what) as archive:
        members = _npz_members(archive)
        if not members:
            raise InputError(f"{what} is a zip archive without .npy arrays, not an .npz",
                             hint="save arrays with numpy.savez, or unzip a text file first")
        keys = ", ".join(sorted(members))
        if key is None:
            if len(members) != 1:
                raise InputError(f"{what} holds {len(members)} arrays ({_excerpt(keys, 200)}): name one",
                                 hint=f"write @FILE.npz:KEY, e.g. @{_excerpt(what, 80)}:{min(members)}")
            key = next(iter(members))
        if key not in members:
            raise InputError(f"{what} has no array '{_excerpt(key)}'; it holds: {_excerpt(keys, 200)}")
        return _read_npz_member(archive, members[key], f"{what}:{key}", limits)


# -- JSON and text ---------------------------------------------------------------------------------------------

class DuplicateKey(ValueError):
    """A JSON object names a key twice (json.loads would silently keep the last value)."""

    def __init__(self, key: str):
        super().__init__(f"'{_excerpt(key)}' is given twice")
        self.key = key


def unique_keys(pairs) -> dict:
    """object_pairs_hook for json.loads: a dict, or DuplicateKey for a key given twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return obj


def _json_int(text: str):
    """A JSON integer kept as an integer where int64 holds it (a constant of integers is int64)."""
    return int(text) if len(text) < 19 else float(text)


def _json_load(data: bytes, what: str, limits: Limits, typed: bool = False):
    # A nested list of n numbers has at least n-1 commas: too many commas means too many numbers, refused
    # before the (memory-hungry) Python objects exist.
    if data.count(b",") + 1 > 2 * limits.max_elements:
        raise InputError(f"{what} holds more than {limits.max_elements} numbers", hint="raise it with --max-elements")

    def constant(name):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[name]

    try:
        return json.loads(data, parse_constant=constant, parse_int=_json_int if typed else float,
                          object_pairs_hook=unique_keys)
    except DuplicateKey as err:
        raise InputError(f"{what} gives '{_excerpt(err.key)}' twice") from None
    except json.JSONDecodeError as err:
        raise InputError(f"cannot read {what} as JSON: {err.msg} at line {err.lineno}, column {err.colno}") \
            from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply") from None


def _from_json(data: bytes, what: str, limits: Limits, typed: bool = False) -> np.ndarray:
    value = _json_load(data, what, limits, typed)
    if isinstance(value, dict):
        raise InputError(f"{what} holds a JSON object, not a value",
                         hint="bind the names of a JSON object with --inputs FILE")
    return _json_array(value, what, limits)


def _json_array(data, what: str, limits: Limits) -> np.ndarray:
    """A JSON number or nested list of numbers (or "nan"/"inf"/"-inf" strings) as float64; int64 when every
    number is a Python int (JSON integers are ints only when read for a constant)."""
    stack = [(data, 0)]
    integers = not isinstance(data, float)
    while stack:  # check every leaf's type: np.array would turn null into nan and true into 1.0
        item, depth = stack.pop()
        if isinstance(item, list):
            if depth >= 64:
                raise InputError(f"{what} is nested too deeply (a tensor has at most 64 dimensions)")
            children = [(child, depth + 1) for child in item if not isinstance(child, float)]
            integers = integers and len(children) == len(item)
            stack.extend(children)
        elif isinstance(item, bool) or not (isinstance(item, (float, int))
                                            or (isinstance(item, str) and item in ("nan", "inf", "-inf"))):
            raise InputError(f"{what} holds {_excerpt(json.dumps(item))}, which is not a number")
        elif not isinstance(item, int):
            integers = False
    try:
        return np.array(data, dtype=np.int64 if integers else np.float64)
    except ValueError:
        raise InputError(f"{what}: rows of a nested list must all have the same length") from None
    except OverflowError:
        raise InputError(f"{what} holds an integer too large for a float") from None


def _from_text(head: bytes, read_table, what: str, limits: Limits, *, delimiter: str | None,
               typed: bool = False) -> np.ndarray:
    """Numbers separated by commas (or whitespace, when the first line has no comma), one row per line.

    `head` holds the first data line; `read_table(delimiter, max_rows)` parses with numpy's C reader. Every
    row must have the same number of fields and no field may be empty.
    """
    first = _first_data_line(head)
    if first is None:
        raise InputError(f"{what} is empty" if not head.strip() else f"{what} holds no numbers")
    if delimiter is None:
        delimiter = "," if b"," in head[first[0]:first[1]].split(b"#", 1)[0] else None
    columns = _count_fields(head, first, delimiter, limits.max_elements + 1)
    if columns > limits.max_elements:
        raise InputError(f"{what} holds more than {limits.max_elements} numbers", hint="raise it with --max-elements")
    array = read_table(delimiter, limits.max_elements // columns + 1)
    if array.shape[1] != columns and array.shape[0] == limits.max_elements // columns + 1:
        # numpy split the first line otherwise than we counted: read again, bounded by its own count
        array = read_table(delimiter, limits.max_elements // max(array.shape[1], 1) + 1)
    if array.size > limits.max_elements:
        raise InputError(f"{what} holds more than {limits.max_elements} numbers", hint="raise it with --max-elements")
    if typed and array.size and np.all(np.isfinite(array)) and np.all(array == np.trunc(array)):
        try:  # a constant written as integers is int64 (1.0 is a float, as torch.tensor([1.0]) is)
            array = read_table(delimiter, array.shape[0], np.int64)
        except ValueError:
            pass
    if array.shape[0] == 1:
        return array[0] if array.shape[1] > 1 else array.reshape(())
    return array[:, 0] if array.shape[1] == 1 else array


def _c_reader(lines, delimiter: str | None, max_rows: int, dtype=np.float64) -> np.ndarray:
    """numpy's C reader, never more than `max_rows` rows (blank and comment lines do not count)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.loadtxt(lines, dtype=dtype, delimiter=delimiter, comments="#", ndmin=2, max_rows=max_rows)


def _table_from_bytes(data: bytes, what: str):
    def read_table(delimiter, max_rows, dtype=np.float64):
        try:
            return _c_reader(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"), delimiter, max_rows, dtype)
        except ValueError as err:
            if dtype is not np.float64:
                raise  # the float reading succeeded: these are not all integers
            message = str(err)
        if delimiter is not None:
            # numpy reads a line of blanks as one empty field when a delimiter is given; such a line holds no
            # numbers, so skip it as numpy skips an empty line (slower, in Python: only after a first failure)
            try:
                lines = (line for line in io.TextIOWrapper(io.BytesIO(data), encoding="utf-8") if line.strip())
                return _c_reader(lines, delimiter, max_rows)
            except ValueError as err:
                message = str(err)
        raise _text_error(data.decode("utf-8"), what, delimiter, message)

    return read_table


def _table_from_stream(stream, what: str, limits: Limits):
    """Parse straight from a regular file; any ValueError (bad text, bad UTF-8) is for the caller to redo
    in memory, where the error is located."""
    def read_table(delimiter, max_rows, dtype=np.float64):
        stream.seek(0)
        checked = io.BufferedReader(_CheckedStream(stream, max_input_bytes(limits), what, limits), 1 << 20)
        return _c_reader(io.TextIOWrapper(checked, encoding="utf-8"), delimiter, max_rows, dtype)

    return read_table


def _first_data_line(data: bytes) -> tuple[int, int] | None:
    """(start, end) of the first line holding something other than blanks and a # comment."""
    start = 0
    while start <= len(data):
        ends = [i for i in (data.find(b"\n", start), data.find(b"\r", start)) if i != -1]
        end = min(ends, default=len(data))
        if data[start:min(end, start + 4096)].split(b"#", 1)[0].strip():
            return start, end
        start = end + 1
    return None


def _count_fields(data: bytes, line: tuple[int, int], delimiter: str | None, stop: int) -> int:
    start, end = line
    comment = data.find(b"#", start, end)
    end = end if comment == -1 else comment
    if delimiter is not None:
        return data.count(delimiter.encode(), start, end) + 1
    count = 0
    for _ in re.compile(rb"\S+").finditer(data, start, end):
        count += 1
        if count >= stop:
            break
    return count


def _text_error(text: str, what: str, delimiter: str | None, reader_message: str) -> InputError:
    """Find the first bad line and field ourselves: numpy's messages count rows, not lines."""
    sep = "commas" if delimiter == "," else "tabs" if delimiter == "\t" else "whitespace"
    hint = f"numbers separated by {sep}, the same number on every line; # starts a comment"
    columns = None
    for number, line in enumerate(text.split("\n"), 1):
        content = line.split("#", 1)[0]
        if not content.strip():
            continue
        fields = content.split(delimiter) if delimiter else content.split()
        for column, field in enumerate(fields, 1):
            field = field.strip()
            if not field:
                return InputError(f"cannot read {what}: line {number}, column {column}: empty field", hint=hint)
            if delimiter == "," and len(field.split()) > 1 and all(map(_NUMBER.fullmatch, field.split())):
                return InputError(f"cannot read {what}: line {number}, column {column}: '{_excerpt(field)}' "
                                  "is separated by spaces, the first line by commas", hint=hint)
            if delimiter is None and "," in field and all(map(_NUMBER.fullmatch, field.split(","))):
                return InputError(f"cannot read {what}: line {number}, column {column}: '{_excerpt(field)}' "
                                  "is separated by commas, the first line by whitespace", hint=hint)
            if not _NUMBER.fullmatch(field):
                names = [f.strip() for f in fields]
                if columns is None and all(n and not _NUMBER.fullmatch(n) for n in names):  # a header row
                    shown = ", ".join(_excerpt(n, 20) for n in names[:8]) + (", ..." if len(names) > 8 else "")
                    pick = f"@{what}:{_excerpt(names[0], 20)}"
                    return InputError(f"cannot read {what}: line {number} is a header ({shown}), not numbers",
                                      hint=f"pick a column with {pick}, or evaluate at every row with "
                                           f"--rows {what} (the header names the variables)")
                return InputError(f"cannot read {what}: line {number}, column {column}: "
                                  f"'{_excerpt(field)}' is not a number", hint=hint)
        if columns is None:
            columns = (number, len(fields))
        elif len(fields) != columns[1]:
            return InputError(f"cannot read {what}: line {number} has {len(fields)} values, line {columns[0]} "
                              f"has {columns[1]} (ragged rows)", hint=hint)
    return InputError(f"cannot read {what}: {_excerpt(reader_message, 120)}", hint=hint)


# -- many names at once: --inputs FILE (eval) and --arg NAME=VALUE (run) --------------------------------------

def array_from_json(data, *, dtype: np.dtype, limits: Limits, what: str = "value") -> np.ndarray:
    """An already decoded JSON value (a number, a nested list, "nan"/"inf"/"-inf") as an array, strictly:
    null, booleans, other strings and ragged lists are errors (for NDJSON rows)."""
    return _finish(_json_array(data, what, limits), dtype, limits, what)


def read_inputs_file(path_text: str, *, dtype: np.dtype, limits: Limits, stdin=None) -> dict[str, np.ndarray]:
    """{name: array} from a JSON object {name: number | nested list} or an .npz (one array per key)."""
    if path_text.strip() in ("-", "@-"):
        data, what, extension = _stdin_bytes(stdin, limits), "standard input", ""
    else:
        path_text = path_text.removeprefix("@")
        data, what, extension = _read_path_bytes(path_text, limits), path_text, _extension(path_text)
    if data[:2] == _GZIP_MAGIC:
        data = _gunzip(data, what, limits)
    values = {}
    if data[:4] in _ZIP_MAGICS:
        with _open_npz(data, what) as archive:
            for name, member in _npz_members(archive).items():
                check_name(name, where=f"{what}: ")
                values[name] = _read_npz_member(archive, member, f"{what}:{name}", limits)
    elif extension == ".npz" or data[:6] == _NPY_MAGIC:
        raise InputError(f"{what} is not an .npz archive", hint="--inputs takes a JSON object or an .npz")
    else:
        obj = _json_load(_text_bytes(data, what), what, limits)
        if not isinstance(obj, dict):
            raise InputError(f"{what} is not a JSON object {{name: value, ...}}",
                             hint='for example {"x": [1, 2, 3], "w": 0.5}')
        for name, item in obj.items():
            check_name(name, where=f"{what}: ")
            values[name] = _json_array(item, f"{what}: {name}", limits)
    total = 0
    for array in values.values():
        total += array.size
        if total > limits.max_elements:
            raise InputError(f"{what} holds more than {limits.max_elements} numbers",
                             hint="raise it with --max-elements")
    return {name: _finish(array, dtype, limits, f"{what}: {name}") for name, array in values.items()}


def bind_inputs_file(bindings: dict, path_text: str, *, dtype: np.dtype, limits: Limits, stdin=None) -> None:
    """Add the tensors of --inputs FILE to `bindings`; a name given twice is an error."""
    for name, value in read_inputs_file(path_text, dtype=dtype, limits=limits, stdin=stdin).items():
        if name in bindings:
            raise InputError(f"'{name}' is given twice (again in {_excerpt(path_text, 80)})")
        bindings[name] = value


def parse_run_argument(spec: str, *, limits: Limits, stdin=None, rng: np.random.Generator | None = None):
    """`gradcli run --arg NAME=VALUE`: (name, value) with a plain number as a Python int or float (int when
    written as an integer), anything else as a float32 tensor, as torch.tensor() of float data gives."""
    name, text, offset = _split_assignment(spec)
    number = _plain_number(text)
    if number is not None:
        return name, number
    rng = rng if rng is not None else LazyGenerator(0, np.float32, private=True)  # the program's own stays fresh
    array = parse_value(text, dtype=np.dtype(np.float32), rng=rng, limits=limits, stdin=stdin, source=spec,
                        offset=offset)

    return name, tensor(array)


def run_arguments(specs: list[str], *, max_elements: int, stdin=None) -> dict:
    """The globals of `gradcli run --arg NAME=VALUE ...`; a name given twice is an error."""
    limits = Limits(max_elements=max_elements)
    bindings = {}
    for spec in specs:
        name, value = parse_run_argument(spec, limits=limits, stdin=stdin)
        if name in bindings:
            raise InputError(f"'{name}' is given twice", source=spec, span=(0, len(name)))
        bindings[name] = value
    return bindings


def _plain_number(text: str):
    """A (signed) integer or float literal as Python writes it, else None."""
    stripped = text.strip()
    if re.fullmatch(r"[+-]?\d+", stripped):
        if len(stripped) > 4000:
            return None  # parse_value reports it
        return int(stripped)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(stripped, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    sign = 1.0
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, (ast.USub, ast.UAdd)):
        sign = -1.0 if isinstance(tree.op, ast.USub) else 1.0
        tree = tree.operand
    if isinstance(tree, ast.Constant) and isinstance(tree.value, float):
        return sign * tree.value
    if isinstance(tree, ast.Name) and tree.id in _NAMED_NUMBERS:
        return sign * _NAMED_NUMBERS[tree.id]
    return None


class LazyGenerator:
    """randn(...)/rand(...) in values: PyTorch's default generator after torch.manual_seed(seed), drawing in
    `dtype` (with --seed 0, x=randn(2,3) is torch.manual_seed(0); torch.randn(2, 3, dtype=...)).  The same
    generator serves randn/rand inside the expression, so the stream continues as in one PyTorch program.
    numpy.random (~15 ms of start-up) is loaded only when something draws."""

    def __init__(self, seed: int | None, dtype=np.float64, *, private: bool = False):
        self.dtype = np.dtype(dtype) if np.dtype(dtype).kind == "f" else np.dtype(np.float64)
        self.seed, self.own = seed, None
        if not private:
            random.seed_default(seed)
        self.private = private

    def generator(self) -> random.Generator:
        if not self.private:
            return random.default_generator()
        if self.own is None:
            self.own = random.Generator(self.seed)
        return self.own

    def standard_normal(self, shape) -> np.ndarray:
        return self.generator().normal(math.prod(shape), self.dtype).reshape(shape)

    def random(self, shape) -> np.ndarray:
        return self.generator().uniform(math.prod(shape), self.dtype).reshape(shape)


def parse_assignments(specs: list[str], *, dtype, rng, limits, typed: bool = False) -> dict:
    """NAME=VALUE specs as {name: array}; a name given twice is an error.  `typed`: constants (see parse_value)."""
    values = {}
    for spec in specs:
        a = parse_assignment(spec, dtype=dtype, rng=rng, limits=limits, typed=typed)
        if a.name in values:
            raise InputError(f"'{a.name}' is given twice", source=spec, span=(0, len(a.name)))
        values[a.name] = a.value
    return values


@dataclass
class CommandValues:
    """The values of an `eval` command line: the tensors that require grad, the --const ones, --grad-output."""

    inputs: dict
    consts: dict
    grad_output: np.ndarray | None


def read_values(assignments: list[str], consts: list[str], inputs_files: list[str], grad_output: str | None, *,
                dtype: np.dtype, limits: Limits, rng) -> CommandValues:
    """NAME=VALUE specs, --const specs, --inputs files (bound into the tensors) and --grad-output, read."""
    inputs = parse_assignments(assignments, dtype=dtype, rng=rng, limits=limits)
    constants = parse_assignments(consts, dtype=dtype, rng=rng, limits=limits, typed=True)
    for path in inputs_files:
        bind_inputs_file(inputs, path, dtype=dtype, limits=limits)
    gout = None if grad_output is None else parse_value(grad_output, dtype=dtype, rng=rng, limits=limits)
    return CommandValues(inputs, constants, gout)


def parse_point(specs: list[str] | None) -> dict | None:
    """--at x=1.5 --at y=2 (or x=1.5,y=2) as {name: value}."""
    if not specs:
        return None
    point = {}
    for spec in (part for text in specs for part in text.split(",")):
        a = parse_assignment(spec, dtype=np.dtype("float64"), rng=LazyGenerator(0), limits=Limits())
        if a.value.ndim:
            raise InputError(f"--at needs one number per variable, got {spec}", source=spec)
        if a.name in point:
            raise InputError(f"--at gives '{a.name}' twice", source=spec, span=(0, len(a.name)))
        point[a.name] = float(a.value)
    return point
