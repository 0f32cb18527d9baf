"""Where results go: -o/--output FILE (atomic), --format, --save NAME=FILE, -r/--raw, and the rows-mode
writers (CSV/TSV, NDJSON, JSON, .npz).

Every file is written to a temporary file in the same directory and renamed over the target only when the
run succeeded (`os.replace` is atomic), so a failing or interrupted run never leaves half a file.
Numbers are written at full precision: Python's repr, the shortest text that reads back to the same double.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from gradcli.engine.ops.sizes import check_size
from gradcli.render import json_out
from gradcli.safety import guard
from gradcli.safety.errors import InputError

FORMATS = ("table", "json", "ndjson", "csv", "tsv", "raw", "npz")
EXTENSIONS = {".json": "json", ".jsonl": "ndjson", ".ndjson": "ndjson", ".csv": "csv", ".tsv": "tsv",
              ".npz": "npz"}
SAVE_EXTENSIONS = (".npy", ".npz", ".json", ".txt")
ROWS_FORMATS = ("csv", "tsv", "ndjson", "json", "npz")


# -- atomic files ------------------------------------------------------------------------------------

class AtomicFile:
    """The one writer of output files.  A regular file (or a new one) is written to a temporary file next to
    it and renamed over it by commit(); discard() (or an exception inside `atomic_file`, or SIGTERM/SIGHUP)
    deletes the temporary file and leaves any existing file untouched.  A symlink is followed: its target is
    replaced, the link stays.  A target that exists and is not a regular file (a FIFO, a character device
    such as /dev/null or a terminal, a socket) is written through in place, as `tee` and `sort -o` do; it is
    never replaced by a rename.  A replaced file keeps its permissions and, where allowed, its owner."""

    def __init__(self, path: str | os.PathLike, binary: bool):
        self.path = Path(path)
        self.temp = None
        self.done = False
        real = Path(os.path.realpath(self.path))  # a symlink: write its target, keep the link
        try:
            info = os.stat(real)
        except FileNotFoundError:
            info = None
        except OSError as err:
            raise InputError(f"cannot write {path}: {err.strerror}") from None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise InputError(f"cannot write {path}: it is a directory")
        mode = "wb" if binary else "w"
        if info is not None and not stat.S_ISREG(info.st_mode):
            try:  # a device, FIFO or socket: written through, as it is
                self.file = open(real, mode) if binary else \
                    open(real, mode, encoding="utf-8", errors="surrogateescape", newline="")  # noqa: SIM115
            except OSError as err:
                raise InputError(f"cannot write {path}: {err.strerror}") from None
            return
        if info is not None and not _writable(real, info):
            raise InputError(f"cannot write {path}: Permission denied (the file is read-only)",
                             hint="make it writable (chmod u+w) or write to another file")
        self.target = real
        self.info = info
        directory = real.parent
        if not directory.is_dir():
            missing = directory if os.path.islink(self.path) else self.path.parent
            raise InputError(f"cannot write {path}: no such directory {missing}")
        try:
            fd, self.temp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=directory)
        except OSError as err:
            raise InputError(f"cannot write {path}: {err.strerror}") from None
        _TEMPS.add(self.temp)
        guard.register_temp(self.temp)
        _remove_temps_on_signals()
        self.file = os.fdopen(fd, "wb") if binary else \
            os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="")

    def commit(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.file.close()
            if self.temp is None:
                return
            if self.info is None:
                os.chmod(self.temp, 0o666 & ~_umask())  # mkstemp makes 0600; a new file gets the umask's
            else:
                os.chmod(self.temp, stat.S_IMODE(self.info.st_mode))  # a 0600 file stays 0600
                try:
                    os.chown(self.temp, self.info.st_uid, self.info.st_gid)
                except OSError:
                    pass  # not ours to give away: the replaced file is ours now, as with any editor
            os.replace(self.temp, self.target)
        except OSError as err:  # named by the user's path, not the temporary file's
            self._remove_temp()
            raise InputError(f"cannot write {self.path}: {err.strerror or err}") from None
        except BaseException:
            self._remove_temp()
            raise
        _TEMPS.discard(self.temp)
        guard.unregister_temp(self.temp)

    def discard(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.file.close()
        except OSError:
            pass
        self._remove_temp()

    def _remove_temp(self) -> None:
        if self.temp is None:
            return
        try:
            os.unlink(self.temp)
        except FileNotFoundError:
            pass
        _TEMPS.discard(self.temp)
        guard.unregister_temp(self.temp)


_TEMPS: set[str] = set()  # temporary files not yet renamed: removed if a signal ends the process
_HANDLED: list[bool] = []


def _remove_temps_on_signals() -> None:
    """SIGTERM and SIGHUP (SIGINT arrives as KeyboardInterrupt and unwinds through `atomic_file`) remove the
    temporary files, then end the process as the signal would have."""
    if _HANDLED or threading.current_thread() is not threading.main_thread():
        return
    _HANDLED.append(True)

    def on_signal(signum, frame):
        for temp in list(_TEMPS):
            try:
                os.unlink(temp)
            except OSError:
                pass
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, on_signal)


def check_distinct_files(outputs: list[tuple[str, str | None]], inputs: list[tuple[str, str | None]] = ()) -> None:
    """Before any work: two outputs naming the same file (one would silently win), or an output that is an
    input (it would be overwritten), are an error naming both options.  Items are (option as typed, path)."""
    seen: list[tuple[str, str, str]] = []  # (option, path, key)
    for kind, items in (("output", outputs), ("input", inputs)):
        for option, path in items:
            if not path or path == "-":
                continue
            key = _file_key(path)
            for other_option, other_path, other_key in seen:
                if key == other_key:
                    if kind == "input":
                        raise InputError(f"{other_option} would overwrite the input {option}: both are {path}",
                                         hint="write the result to another file")
                    raise InputError(f"{other_option} and {option} name the same file ({other_path})",
                                     hint="give each output its own file")
            if kind == "output":
                seen.append((option, path, key))


def _file_key(path: str):
    """The same key for two names of one file: (device, inode) when it exists, else its resolved path."""
    try:
        info = os.stat(path)
        return (info.st_dev, info.st_ino)
    except OSError:
        return os.path.realpath(path)


def input_file(value: str) -> str | None:
    """The file a NAME=@FILE (or @FILE.npz:key) value reads, if any."""
    value = value.strip()
    if not value.startswith("@"):
        return None
    path = value[1:]
    if not os.path.exists(path) and ":" in path:
        path = path.rsplit(":", 1)[0]
    return path


def _writable(path: Path, info: os.stat_result) -> bool:
    """Whether the user may write the existing file, as the shell's `> file` decides: its permissions for an
    unprivileged user (a rename would replace a read-only file the user cannot write); root, who may write
    anything, is refused a file without any write bit, as `sort -o` and editors warn (a choice: the shell
    itself would write it)."""
    if os.geteuid() == 0:
        return bool(info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return os.access(path, os.W_OK)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_file(path, *, binary: bool = False):
    target = AtomicFile(path, binary)
    try:
        yield target
    except BaseException:
        target.discard()
        raise
    target.commit()


@contextmanager
def output_stream(path: str | None, *, binary: bool = False):
    """stdout (text) when `path` is None or "-", else an AtomicFile; yields (stream, atomic file or None)."""
    if path is None or path == "-":
        if binary:
            raise InputError("a .npz result needs a file: give -o FILE.npz")
        if hasattr(sys.stdout, "reconfigure"):  # bytes of the input that are not UTF-8 go out as they came in
            sys.stdout.reconfigure(errors="surrogateescape")
        yield sys.stdout, None
        sys.stdout.flush()
        return
    with atomic_file(path, binary=binary) as target:
        yield target.file, target


def format_of(output: str | None, fmt: str | None, *, json_flag: bool = False, raw: bool = False,
              default: str = "table") -> str:
    """The output format: --format, then -r/--json, then -o's extension, then `default`."""
    chosen = [f for f in (fmt, "raw" if raw else None, "json" if json_flag else None) if f]
    if len(set(chosen)) > 1:
        raise InputError(f"conflicting output formats: {' and '.join(sorted(set(chosen)))}",
                         hint="choose one with --format")
    if chosen:
        if chosen[0] not in FORMATS:
            raise InputError(f"unknown format '{chosen[0]}'", hint="formats: " + ", ".join(FORMATS))
        return chosen[0]
    if output is not None:
        suffix = Path(output).suffix.lower()
        if suffix not in EXTENSIONS:
            raise InputError(f"cannot tell the format of {output} from its extension",
                             hint="use .json .jsonl .csv .tsv .npz, or give --format")
        return EXTENSIONS[suffix]
    return default


# -- values as text ----------------------------------------------------------------------------------

def scalar_text(value) -> str:
    """A number at full precision (repr), as CSV and raw output write it."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return repr(float(value))


def cell_text(value) -> str:
    """One CSV cell: empty for None, a number at full precision, a nested list as JSON."""
    if value is None:
        return ""
    if type(value) is float:
        return repr(value)
    if isinstance(value, np.ndarray):
        return scalar_text(value.item()) if value.ndim == 0 else json_out.dumps(value)
    if isinstance(value, (list, dict)):
        return json_out.dumps(value)
    return scalar_text(value)


def _quote(text: str, delimiter: str) -> str:
    if delimiter in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def raw_line(value) -> str:
    """-r/--raw: every element, space-separated, at full precision; None as None."""
    if value is None:
        return "None"
    array = np.asarray(value)
    return " ".join(scalar_text(v) for v in array.ravel().tolist())


# -- single evaluation -------------------------------------------------------------------------------

def write_single(result, fmt: str, stream, *, no_color: bool = True, console=None) -> None:
    """One `gradcli eval` result in `fmt` (table, json, ndjson, csv, tsv, raw) to a text stream."""
    if fmt in ("json", "ndjson"):
        stream.write(json_out.dumps(json_out.eval_result(result)) + "\n")
    elif fmt == "raw":
        for t in result.tensors.values():
            if t.requires_grad:
                stream.write(raw_line(t.grad) + "\n")
    elif fmt in ("csv", "tsv"):
        d = "," if fmt == "csv" else "\t"
        grads = [n for n, t in result.tensors.items() if t.requires_grad]
        header = [*result.tensors, "output", *(f"grad_{n}" for n in grads), "error"]
        row = [*(cell_text(t.value) for t in result.tensors.values()), cell_text(result.output),
               *(cell_text(result.tensors[n].grad) for n in grads), result.error or ""]
        stream.write(d.join(_quote(h, d) for h in header) + "\n" + d.join(_quote(c, d) for c in row) + "\n")
    elif fmt == "table":
        from rich.console import Console

        from gradcli.render.table import print_eval_result

        print_eval_result(result, console or Console(file=stream, no_color=True, highlight=False,
                                                      soft_wrap=False, width=160, force_terminal=False))
    else:
        raise InputError(f"format {fmt} needs a file: give -o FILE.{fmt}")


def emit_single(result, *, output: str | None, fmt: str | None, raw: bool, json_flag: bool, saves: list[str],
                no_color: bool = False, console_factory=None) -> None:
    """`gradcli eval` with -o/--format/-r/--save.  Nothing is written to a file when backward failed (the
    caller reports the error and exits 2): a failing run leaves no file behind."""
    save_specs = parse_save_specs(saves)
    fmt = format_of(output, fmt, json_flag=json_flag, raw=raw)
    if output is None:
        if fmt == "npz":
            raise InputError("a .npz result needs a file: give -o FILE.npz")
        console = console_factory(no_color) if fmt == "table" and console_factory is not None else None
        write_single(result, fmt, sys.stdout, console=console)
    elif result.error is None:
        with output_stream(output, binary=fmt == "npz") as (stream, _):
            if fmt == "npz":
                single_npz(result, stream)
            else:
                write_single(result, fmt, stream)
    if result.error is None:
        for name, path in save_specs:
            save_gradient(result, name, path)


def single_npz(result, stream) -> None:
    arrays = {"output": np.asarray(result.output)}
    for name, t in result.tensors.items():
        if t.grad is not None:
            arrays[f"grad_{name}"] = np.asarray(t.grad)
    np.savez(stream, **arrays)


def parse_save_specs(specs: list[str] | None) -> list[tuple[str, str]]:
    """--save NAME=FILE, checked before anything runs."""
    saves = []
    for spec in specs or []:
        name, sep, path = spec.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier() or not path:
            raise InputError(f"expected --save NAME=FILE, got '{spec}'", hint="for example --save x=grad_x.npy")
        if Path(path).suffix.lower() not in SAVE_EXTENSIONS:
            raise InputError(f"cannot save to {path}: use one of {', '.join(SAVE_EXTENSIONS)}")
        saves.append((name, path))
    return saves


def save_gradient(result, name: str, path: str) -> None:
    """--save NAME=FILE: NAME's .grad as .npy, .npz (key grad_NAME), .json, or .txt (one row a line)."""
    t = result.tensors.get(name)
    if t is None:
        raise InputError(f"--save {name}=...: there is no tensor named {name}")
    if t.grad is None:
        why = "it is a --const" if not t.requires_grad else "it has no .grad (not used, or backward failed)"
        raise InputError(f"--save {name}=...: nothing to save, {why}")
    write_array(np.asarray(t.grad), path, key=f"grad_{name}")


def write_array(array: np.ndarray, path: str, *, key: str = "grad") -> None:
    suffix = Path(path).suffix.lower()
    if suffix == ".txt" and array.ndim > 2:
        raise InputError(f"cannot write a {array.ndim}-d tensor to {path} as text", hint="save it as .npy")
    with atomic_file(path, binary=suffix in (".npy", ".npz")) as target:
        if suffix == ".npy":
            np.save(target.file, array)
        elif suffix == ".npz":
            np.savez(target.file, **{key: array})
        elif suffix == ".json":
            target.file.write(json_out.dumps(array) + "\n")
        else:  # text that `NAME=@file.txt` reads back: a number, one line, or one line per row
            rows = [array] if array.ndim < 2 else list(array)
            target.file.write("".join(raw_line(r) + "\n" for r in rows))


# -- rows mode ---------------------------------------------------------------------------------------

class RowsWriter:
    """Receives `start(...)` once, then every Chunk of answers in order, then close()."""

    def __init__(self, stream, *, flush: bool):
        self.stream = stream
        self.flush = flush
        self.grad_names: list[str] = []
        self.check = False

    def start(self, *, input_columns, grad_names, delimiter, check, kind="csv") -> None:
        self.input_columns = list(input_columns)
        self.grad_names = list(grad_names)
        self.input_delimiter = delimiter
        self.check = check
        self.header()
        if self.flush:
            self.stream.flush()

    def header(self) -> None:
        pass

    def write(self, chunk) -> None:
        self.stream.write(self.text(chunk))
        if self.flush:
            self.stream.flush()

    def close(self) -> None:
        pass

    def record(self, chunk, i) -> dict:
        """A row's JSON object: the answer, or {"line", "error"}."""
        err = chunk.errors[i]
        if err is not None:
            return {"line": chunk.lines[i], "error": {"type": err[0], "message": err[1]}}
        grads = {name: json_out.jsonable(chunk.grads[name][i]) for name in self.grad_names if name in chunk.grads}
        obj = {"output": json_out.jsonable(chunk.outputs[i]), "grads": grads}
        if self.check and chunk.checks is not None:
            obj["check"] = chunk.checks[i]
        return obj


def _dumps(obj) -> str:
    """A record already made JSON-ready by json_out.jsonable: strict JSON without a second pass."""
    return json.dumps(obj, allow_nan=False, ensure_ascii=False)


class NdjsonRowsWriter(RowsWriter):
    def text(self, chunk) -> str:
        bulk = self.bulk_text(chunk)
        if bulk is not None:
            return bulk
        dumps = _dumps
        return "".join(dumps(self.record(chunk, i)) + "\n" for i in range(len(chunk)))

    def bulk_text(self, chunk) -> str | None:
        """A chunk whose every row succeeded and whose answers are arrays (a batched pass): the same lines
        as `record` and json.dumps write, the numbers written all at once.  None for any other chunk."""
        n = len(chunk)
        if not n or chunk.errors.count(None) != n or (self.check and chunk.checks is not None):
            return None
        parts = [json_texts(chunk.outputs, n)]
        if parts[0] is None:
            return None
        keys = []
        for name in self.grad_names:
            if name not in chunk.grads:
                continue
            column = chunk.grads[name]
            texts = ["null"] * n if type(column) is list and column.count(None) == n else json_texts(column, n)
            if texts is None:
                return None
            keys.append(json.dumps(name, ensure_ascii=False) + ": ")
            parts.append(texts)
        head = '{"output": '
        if not keys:
            return "".join(head + o + ', "grads": {}}\n' for o in parts[0])
        template = head + "%s" + ', "grads": {' + ", ".join(k.replace("%", "%%") + "%s" for k in keys) + "}}\n"
        return "".join(map(template.__mod__, zip(*parts)))


class JsonRowsWriter(RowsWriter):
    """One JSON array of the row objects, streamed element by element."""

    def header(self) -> None:
        self.stream.write("[")
        self.first = True

    def text(self, chunk) -> str:
        dumps = _dumps
        parts = []
        for i in range(len(chunk)):
            parts.append(("\n" if self.first else ",\n") + dumps(self.record(chunk, i)))
            self.first = False
        return "".join(parts)

    def close(self) -> None:
        self.stream.write("\n]\n")


class CsvRowsWriter(RowsWriter):
    """Input columns, output, grad_<name>..., [check], error.  The input's own text is echoed when the
    delimiter is the same, so the input columns come back exactly as they were."""

    def __init__(self, stream, *, flush: bool, delimiter: str | None):
        super().__init__(stream, flush=flush)
        self.delimiter = delimiter

    def header(self) -> None:
        if self.delimiter is None:
            self.delimiter = self.input_delimiter
        d = self.delimiter
        names = [*self.input_columns, "output", *(f"grad_{n}" for n in self.grad_names),
                 *(["check"] if self.check else []), "error"]
        self.stream.write(d.join(_quote(str(n), d) for n in names) + "\n")

    def text(self, chunk) -> str:
        d = self.delimiter
        n = len(chunk)
        if chunk.records is not None:  # NDJSON input: the first object's keys are the columns
            prefix = [d.join(_quote(_echo(r.get(k)) if isinstance(r, dict) else "", d)
                             for k in self.input_columns) for r in chunk.records]
        elif chunk.fields is None and d == self.input_delimiter:
            prefix = chunk.raw
        else:
            width = len(self.input_columns)
            fields = chunk.fields if chunk.fields is not None else [t.split(self.input_delimiter)
                                                                    for t in chunk.raw]
            prefix = [d.join(_quote(f, d) for f in (row + [""] * (width - len(row)))[:width]) for row in fields]
        columns = [_texts(chunk.outputs, n, d)]
        columns += [_texts(chunk.grads.get(name, [None] * n), n, d) for name in self.grad_names]
        if self.check:
            columns.append([c or "" for c in chunk.checks] if chunk.checks is not None else [""] * n)
        errors = chunk.errors
        columns.append([""] * n if errors.count(None) == n else
                       ["" if e is None else _quote(e[1], d) for e in errors])
        return "\n".join(map(d.join, zip(prefix, *columns))) + "\n"


def _echo(value) -> str:
    """An NDJSON input value in a CSV cell: text as is, anything else as its JSON."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json_out.dumps(value)


def _texts(column, n: int, d: str) -> list[str]:
    if isinstance(column, np.ndarray) and column.ndim == 1 and column.dtype.kind == "f":
        return float_texts(column)  # the fast path: a whole batch of numbers
    return [_quote(cell_text(v), d) for v in column]


def float_texts(values: np.ndarray) -> list[str]:
    """`repr(float(v))` of each value of a 1-d float array: the shortest text that reads back as the same
    float64.  Python's repr costs ~0.6 µs a number, most of a large CSV's output time; orjson writes the
    same shortest round-trip digits four times faster, and writes them as repr does wherever both use
    positional notation (1e-4 <= |v| < 1e16, and zeros).  The rest (exponents, nan, inf) go through repr."""
    import orjson

    values = np.ascontiguousarray(values, dtype=np.float64)  # float32 values print as their float64 repr
    if not values.size:
        return []
    texts = orjson.dumps(values, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].decode("ascii").split(",")
    magnitude = np.abs(values)
    exponent_or_nonfinite = ~((magnitude >= 1e-4) & (magnitude < 1e16)) & (values != 0)  # nan compares False
    for i in np.flatnonzero(exponent_or_nonfinite).tolist():
        texts[i] = repr(float(values[i]))
    return texts


def json_texts(column, n: int) -> list[str] | None:
    """Each row of a float array of shape (n, ...) as json.dumps writes json_out.jsonable of it (nested lists
    with ', ', non-finite numbers as "nan", "inf", "-inf"); None for anything else (a list, empty rows)."""
    if not isinstance(column, np.ndarray) or column.dtype.kind != "f" or not column.ndim or column.shape[0] != n \
            or not column.size:
        return None
    flat = column.reshape(-1)
    texts = float_texts(flat)
    finite = np.isfinite(flat)
    if not finite.all():
        for i in np.flatnonzero(~finite).tolist():
            texts[i] = json.dumps(json_out.jsonable(float(flat[i])))
    for size in reversed(column.shape[1:]):  # innermost dimension first: rows of `size` joined into lists
        template = "[" + ", ".join(["%s"] * size) + "]"
        texts = list(map(template.__mod__, zip(*[iter(texts)] * size)))
    return texts


class NpzRowsWriter(RowsWriter):
    """`output` and `grad_<name>` stacked over rows (nan for failed rows, whose messages go in `error`).
    The whole result is held in memory: .npz cannot be streamed."""

    def header(self) -> None:
        self.outputs, self.grads, self.errors = [], {n: [] for n in self.grad_names}, []

    def write(self, chunk) -> None:
        n = len(chunk)
        self._check_size(chunk)
        self.outputs.extend(chunk.outputs[i] if chunk.errors[i] is None else None for i in range(n))
        for name in self.grad_names:
            col = chunk.grads.get(name, [None] * n)
            self.grads[name].extend(col[i] if chunk.errors[i] is None else None for i in range(n))
        self.errors.extend("" if e is None else e[1] for e in chunk.errors)

    def _check_size(self, chunk) -> None:
        """The stacked arrays are tensors like any other: refused as they pass --max-elements, not at the end."""
        rows = len(self.outputs) + len(chunk)
        for key, column in (("output", chunk.outputs), *((f"grad_{n}", chunk.grads.get(n, ())) for n in
                                                         self.grad_names)):
            shape = next((np.shape(v) for v, e in zip(column, chunk.errors) if e is None and v is not None), ())
            check_size((rows, *shape), f"the .npz output's {key}")

    def close(self) -> None:
        arrays = {"output": _stack(self.outputs, "output")}
        for name, values in self.grads.items():
            arrays[f"grad_{name}"] = _stack(values, f"grad_{name}")
        if any(self.errors):
            arrays["error"] = np.array(self.errors, dtype=str)
        np.savez(self.stream, **arrays)


def _stack(values: list, what: str) -> np.ndarray:
    shapes = {np.shape(v) for v in values if v is not None}
    if len(shapes) > 1:
        raise InputError(f"cannot stack {what} into one array: the rows give shapes "
                         f"{', '.join(str(s) for s in sorted(shapes))}", hint="write .jsonl or .csv instead")
    shape = shapes.pop() if shapes else ()
    out = np.full((len(values), *shape), np.nan)
    for i, v in enumerate(values):
        if v is not None:
            out[i] = v
    return out


class AutoRowsWriter(RowsWriter):
    """The default: CSV (with the input's delimiter) for CSV/TSV input, NDJSON for NDJSON input."""

    def start(self, *, input_columns, grad_names, delimiter, check, kind="csv") -> None:
        self.inner = CsvRowsWriter(self.stream, flush=self.flush, delimiter=None) if kind == "csv" \
            else NdjsonRowsWriter(self.stream, flush=self.flush)
        self.inner.start(input_columns=input_columns, grad_names=grad_names, delimiter=delimiter, check=check)

    def write(self, chunk) -> None:
        self.inner.write(chunk)

    def close(self) -> None:
        self.inner.close()


def rows_writer(fmt: str | None, stream, *, flush: bool) -> RowsWriter:
    """The writer for `fmt`; None: decided by the input (CSV in, CSV out; NDJSON in, NDJSON out)."""
    if fmt is None:
        return AutoRowsWriter(stream, flush=flush)
    if fmt not in ROWS_FORMATS:
        raise InputError(f"rows mode writes {', '.join(ROWS_FORMATS)}, not {fmt}")
    if fmt == "ndjson":
        return NdjsonRowsWriter(stream, flush=flush)
    if fmt == "json":
        return JsonRowsWriter(stream, flush=flush)
    if fmt == "npz":
        return NpzRowsWriter(stream, flush=flush)
    return CsvRowsWriter(stream, flush=flush, delimiter={"csv": ",", "tsv": "\t"}.get(fmt))
