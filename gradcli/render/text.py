"""Plain-text formatting of arrays for the calculator's tables (numpy style, summarised when large)."""

from __future__ import annotations

import numpy as np

SUMMARY_THRESHOLD = 24  # elements shown in full; above this a summary with the norm


def format_array(array: np.ndarray | None, *, precision: int = 6, linewidth: int | None = None) -> str:
    """numpy's form, one line per matrix row unless `linewidth` is given (then numpy wraps a longer row
    into a block with aligned continuation lines); summarised when large."""
    if array is None:
        return "None"
    array = np.asarray(array)
    if array.ndim == 0:
        return format_number(array.item(), precision)
    if array.size <= SUMMARY_THRESHOLD:
        # one line per matrix row unless a width is given: the table, not numpy, decides the layout
        return np.array2string(array, separator=" ", precision=precision, max_line_width=linewidth or 10**6)
    # Large: the first and last values (flattened) and summary statistics, so a table row stays short.
    flat = array.ravel()
    head = " ".join(format_number(v, 4) for v in flat[:3].tolist())
    tail = " ".join(format_number(v, 4) for v in flat[-3:].tolist())
    values = flat.astype(np.float64)
    finite = values[np.isfinite(values)]
    stats = (f"min {format_number(finite.min(), 4)}  max {format_number(finite.max(), 4)}  "
             f"‖·‖ {format_number(float(np.linalg.norm(finite)), 4)}") if finite.size else "no finite values"
    return f"[{head} … {tail}]\n{stats}"


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
