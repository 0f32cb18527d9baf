"""Reproduce PyTorch's tensor printing (``repr(tensor)``) with numpy alone.

This is a port of ``torch/_tensor_str.py`` (PyTorch 2.13) restricted to dense CPU tensors of
real dtypes and the default print options.  The structure mirrors the original
(``_Formatter``, ``_vector_str``, ``_tensor_str_with_formatter``, ``_add_suffixes``,
``_str_intern``) so that differences with upstream are easy to spot; the quirks of the original
are kept on purpose because the goal is byte-identical output.
"""

from __future__ import annotations

import contextvars
import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np


@dataclasses.dataclass
class PrintOptions:
    """torch._tensor_str.PRINT_OPTS: torch's defaults (torch.set_printoptions(profile="default"))."""
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


# per context (a `gradcli run` program's torch.set_printoptions stays in its run); None: the defaults
_PRINT_OPTS: contextvars.ContextVar[PrintOptions | None] = contextvars.ContextVar("print_options", default=None)
_DEFAULTS = PrintOptions()


def print_opts() -> PrintOptions:
    return _PRINT_OPTS.get() or _DEFAULTS


def fresh_print_options() -> contextvars.Token:
    """Give the current context its own print options, torch's defaults (reset the token to leave them)."""
    return _PRINT_OPTS.set(PrintOptions())


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """torch.set_printoptions, as torch/_tensor_str.py sets them (sci_mode is always assigned; an unknown
    profile changes nothing)."""
    opts = _PRINT_OPTS.get()
    if opts is None:
        opts = PrintOptions()
        _PRINT_OPTS.set(opts)
    if profile is not None:
        preset = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}.get(profile)
        if preset is not None:
            opts.precision, opts.threshold, opts.edgeitems, opts.linewidth = preset
    if precision is not None:
        opts.precision = precision
    if threshold is not None:
        opts.threshold = threshold
    if edgeitems is not None:
        opts.edgeitems = edgeitems
    if linewidth is not None:
        opts.linewidth = linewidth
    opts.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    return dataclasses.asdict(print_opts())

# numpy dtype names that exist in torch under the same name ("torch.<name>").
SUPPORTED_DTYPES = frozenset(
    {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"}
)

_TENSOR_PREFIX = "tensor("


class Size(tuple):
    """A shape that prints like ``torch.Size``."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(dim) for dim in self)}])"


class _Formatter:
    """Decides one common width and notation for every element of a tensor.

    ``values`` must already be summarised (torch only inspects the elements it prints).
    """

    def __init__(self, values: np.ndarray) -> None:
        self.precision = print_opts().precision
        self.floating_dtype = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = values.reshape(-1)
        if not self.floating_dtype:
            self.max_width = max(len(str(value)) for value in flat.tolist())
            return

        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            # Only zeros, nan and inf: torch keeps int_mode and width 1.
            return

        # torch compares in double so that float16 cannot overflow at 1e8.
        nonzero_finite_abs = np.abs(nonzero_finite).astype(np.float64)
        abs_min = nonzero_finite_abs.min()
        abs_max = nonzero_finite_abs.max()

        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        forced = print_opts().sci_mode
        self.sci_mode = bool(abs_max / abs_min > 1000.0 or abs_max > 1.0e8 or abs_min < 1.0e-4) \
            if forced is None else forced

        python_values = nonzero_finite.tolist()
        if self.sci_mode:
            widths = (len(f"{value:.{self.precision}e}") for value in python_values)
        elif self.int_mode:
            # +1 leaves room for the "." that marks integral floats as floating point.
            widths = (len(f"{value:.0f}") + 1 for value in python_values)
        else:
            widths = (len(f"{value:.{self.precision}f}") for value in python_values)
        self.max_width = max(widths)

    def format(self, value: float | int | bool) -> str:
        if not self.floating_dtype:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{self.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{self.precision}f}"
        return text.rjust(self.max_width)


def _vector_str(vector: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    # Each element costs its width plus ", ".
    opts = print_opts()
    element_length = formatter.max_width + 2
    elements_per_line = max(1, (opts.linewidth - indent) // element_length)

    edge = opts.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and vector.shape[0] > 2 * edge:
        data = (
            [formatter.format(value) for value in vector[:edge].tolist()]
            + [" ..."]
            + [formatter.format(value) for value in vector[-edge:].tolist()]
        )
    else:
        data = [formatter.format(value) for value in vector.tolist()]

    lines = [", ".join(data[i : i + elements_per_line]) for i in range(0, len(data), elements_per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(array: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        return _vector_str(array, indent, summarize, formatter)

    rows, edge = array.shape[0], print_opts().edgeitems
    if summarize and rows > 2 * edge:
        shown_rows = [*range(edge), None, *range(rows - edge, rows)]
    else:
        shown_rows = list(range(rows))
    slices = [
        "..." if row is None else _tensor_str_with_formatter(array[row], indent + 1, summarize, formatter)
        for row in shown_rows
    ]
    # Blocks of higher rank are separated by blank lines, one per extra dimension.
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _summarized_data(array: np.ndarray) -> np.ndarray:
    """The elements a summarised print shows (torch's get_summarized_data): the first and last edgeitems
    along every long axis; with edgeitems 0, none of a matrix, and all of a vector (torch's self[-0:])."""
    edge = print_opts().edgeitems
    if not edge:
        return array if array.ndim <= 1 else array[(slice(0, 0),) * array.ndim]
    kept_indices = [
        np.r_[0:edge, size - edge : size] if size > 2 * edge else np.arange(size)
        for size in array.shape
    ]
    return array[np.ix_(*kept_indices)]


def _tensor_str(array: np.ndarray, indent: int) -> str:
    if array.size == 0:
        return "[]"
    summarize = array.size > print_opts().threshold
    formatter = _Formatter(_summarized_data(array) if summarize else array)
    return _tensor_str_with_formatter(array, indent, summarize, formatter)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    parts = [tensor_str]
    # Upstream counts two more characters than the last line holds; kept because it decides
    # where suffixes wrap (e.g. a 59-column line plus ", requires_grad=True)" still wraps).
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > print_opts().linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_tensor(
    array: np.ndarray,
    *,
    default_dtype: str = "float32",
    requires_grad: bool = False,
    grad_fn: str | None = None,
    is_leaf_requires_grad: bool = False,
    tangent: str | None = None,
) -> str:
    """Return exactly what ``repr(tensor)`` prints in PyTorch for a CPU tensor holding ``array``.

    ``default_dtype`` is the name of ``torch.get_default_dtype()``.  ``grad_fn`` is the class name
    of the tensor's grad_fn (e.g. ``"MulBackward0"``); when it is None, ``requires_grad`` or
    ``is_leaf_requires_grad`` (a leaf that requires grad, same effect) adds ``requires_grad=True``.
    """
    array = np.asarray(array)
    dtype_name = array.dtype.name
    if dtype_name not in SUPPORTED_DTYPES:
        raise ValueError(f"cannot print a tensor of dtype {dtype_name}")
    indent = len(_TENSOR_PREFIX)
    dtype_suffix = f"dtype=torch.{dtype_name}"

    suffixes = []
    if array.size == 0:
        # Like numpy, torch spells out any empty shape other than (0,).
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        # No element hints at the dtype, so only the default float dtype goes unnamed.
        if dtype_name != default_dtype:
            suffixes.append(dtype_suffix)
        tensor_str = "[]"
    else:
        if not print_opts().edgeitems:  # nothing of it is printed: its size is
            suffixes.append(f"size={tuple(array.shape)}")
        # int64 and bool are recognisable from the printed elements.
        if dtype_name not in (default_dtype, "int64", "bool"):
            suffixes.append(dtype_suffix)
        tensor_str = _tensor_str(array, indent)

    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad or is_leaf_requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor's, inside its level (torch's _str_intern)
        suffixes.append(f"tangent={tangent}")

    return _add_suffixes(_TENSOR_PREFIX + tensor_str, suffixes, indent)


def format_meta_tensor(shape: tuple, dtype_name: str, *, default_dtype: str = "float32", requires_grad: bool = False,
                       grad_fn: str | None = None) -> str:
    """What ``repr(tensor)`` prints for a tensor on the meta device (torch's _str_intern: no data, its size
    spelled out, the dtype unless it is the default one)."""
    suffixes = ["device='meta'", f"size={tuple(shape)}"]
    if dtype_name != default_dtype:
        suffixes.append(f"dtype=torch.{dtype_name}")
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(_TENSOR_PREFIX + "...", suffixes, len(_TENSOR_PREFIX))


def _repr_other(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return format_tensor(value)
    return repr(value)


def _python_repr(value: Any, repr_tensor: Callable[[Any], str], _open: frozenset = frozenset()) -> str:
    """`_open`: ids of the containers being printed around this value; one met again is printed as Python
    prints a self-reference ([...], {...}, (...))."""
    if isinstance(value, (list, tuple, dict)) and id(value) in _open:
        return "[...]" if isinstance(value, list) else "{...}" if isinstance(value, dict) else "(...)"
    if isinstance(value, (list, tuple, dict)):
        _open = _open | {id(value)}
    if isinstance(value, np.generic):
        # torch hands out Python numbers (.item()), never numpy scalars (np.float64 is also a
        # float subclass, so this must come first).
        return repr(value.item())
    if value is None or isinstance(value, (bool, int, float, complex, str, Size)):
        return repr(value)
    if isinstance(value, tuple) and type(value).__repr__ is not tuple.__repr__:
        return repr(value)  # a tuple subclass that prints itself, as the engine's torch.Size
    if isinstance(value, list):
        return "[" + ", ".join(_python_repr(item, repr_tensor, _open) for item in value) + "]"
    if isinstance(value, tuple):
        items = [_python_repr(item, repr_tensor, _open) for item in value]
        return "(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"
    if isinstance(value, dict):
        pairs = (
            f"{_python_repr(key, repr_tensor, _open)}: {_python_repr(item, repr_tensor, _open)}"
            for key, item in value.items()
        )
        return "{" + ", ".join(pairs) + "}"
    return repr_tensor(value)


def format_python_value(value: Any, repr_tensor: Callable[[Any], str] | None = None) -> str:
    """Return what Python's ``print(value)`` shows for a value produced by PyTorch code.

    Builtin scalars, None, strings, lists, tuples, dicts and :class:`Size` print as Python does;
    any other object (a tensor) is rendered by ``repr_tensor``, which defaults to
    :func:`format_tensor` for numpy arrays and ``repr`` otherwise.  Containers use the repr of
    their items, as Python does.
    """
    if isinstance(value, str):
        return value
    return _python_repr(value, repr_tensor or _repr_other)
