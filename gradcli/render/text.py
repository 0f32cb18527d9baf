"""Plain-text formatting of arrays for the calculator's tables (numpy style, summarised when large).

Print options as PyTorch's (`torch.set_printoptions`): a tensor of more than `threshold` elements (1000 by
default, torch's) is summarised, `edgeitems` (3) at the start and end of each dimension with `...` between
and its min, max and norm under it; `--full` is an infinite threshold.  Matrices stay matrices either way.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np


@dataclass
class PrintOptions:
    threshold: float = 1000  # torch's default: a 4x8 or 30x30 tensor prints whole, 40x40 is summarised
    edgeitems: int = 3


PRINT_OPTIONS = PrintOptions()


@contextmanager
def print_options(threshold: float | None = None, edgeitems: int | None = None):
    """torch.set_printoptions(threshold=, edgeitems=) for the duration of a command (None: the default)."""
    saved = PrintOptions(PRINT_OPTIONS.threshold, PRINT_OPTIONS.edgeitems)
    PRINT_OPTIONS.threshold = PrintOptions.threshold if threshold is None else threshold
    PRINT_OPTIONS.edgeitems = PrintOptions.edgeitems if edgeitems is None else edgeitems
    try:
        yield PRINT_OPTIONS
    finally:
        PRINT_OPTIONS.threshold, PRINT_OPTIONS.edgeitems = saved.threshold, saved.edgeitems


def is_summarised(array) -> bool:
    return array is not None and np.ndim(array) > 0 and np.size(array) > PRINT_OPTIONS.threshold


def format_array(array: np.ndarray | None, *, precision: int = 6, linewidth: int | None = None) -> str:
    """numpy's form, one line per matrix row unless `linewidth` is given (then numpy wraps a longer row
    into a block with aligned continuation lines); summarised past the print options' threshold."""
    if array is None:
        return "None"
    array = np.asarray(array)
    if array.ndim == 0:
        return format_number(array.item(), precision)
    # one line per matrix row unless a width is given: the table, not numpy, decides the layout
    if not is_summarised(array):
        return np.array2string(array, separator=" ", precision=precision, max_line_width=linewidth or 10**6,
                               threshold=sys.maxsize)
    # Large: torch's summary (edge items of every dimension, matrices as matrices) and statistics under it
    text = np.array2string(array, separator=" ", precision=precision, max_line_width=linewidth or 10**6,
                           threshold=0, edgeitems=PRINT_OPTIONS.edgeitems)
    values = array.ravel().astype(np.float64)
    finite = values[np.isfinite(values)]
    stats = (f"min {format_number(finite.min(), 4)}  max {format_number(finite.max(), 4)}  "
             f"‖·‖ {format_number(float(np.linalg.norm(finite)), 4)}") if finite.size else "no finite values"
    return f"{text}\n{stats}"


def format_number(value, precision: int = 6) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return np.format_float_positional(value, precision=precision, unique=True, trim="0") \
        if abs(value) >= 1e-4 and abs(value) < 1e8 or value == 0 or not np.isfinite(value) \
        else np.format_float_scientific(value, precision=precision, unique=True, trim="-")


def format_shape(shape) -> str:
    shape = tuple(shape)
    return "()" if not shape else "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
