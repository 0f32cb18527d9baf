"""Lines that fit the console: formulas broken at their operators with a hanging indent, never inside a name.

A break goes before ` + `, ` - `, ` = `, ` ≠ ` (the operator starts the continuation line, as a textbook sets
a long formula), or after `·` and `, `; prose with none of these breaks between words.  Only a piece with no
break in it that is wider than the line itself is cut where the line ends.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

_BEFORE = re.compile(r" (?=[-+=≠] )")  # a break before an operator that has spaces around it
_AFTER = re.compile(r"(?<=·)|(?<=, )")  # a break after a product dot or a comma


def break_points(text: str) -> list[tuple[int, int]]:
    """(offset, rank) of each place where `text` may be broken, in order; the rank prefers breaks outside
    brackets, and before a sum's + or - to after a product's dot."""
    points = {m.start(): 0 for m in _BEFORE.finditer(text)}
    points.update({m.end(): 1 for m in _AFTER.finditer(text) if m.end() not in points})
    depth, depths = 0, []
    for ch in text:
        depths.append(depth)
        depth += ch in "([{"
        depth -= ch in ")]}"
    return [(p, 2 * depths[p] + kind) for p, kind in sorted(points.items()) if 0 < p < len(text)]


def line_spans(text: str, width: int, indent: int) -> list[tuple[int, int]]:
    """(start, end) of each line of `text` so that each fits `width` cells, continuation lines `indent` wider."""
    spans, start, budget = [], 0, width
    points = break_points(text)
    while cell_len(text[start:]) > budget:
        fits = [(p, d) for p, d in points if start < p and cell_len(text[start:p]) <= budget]
        # the outermost operator that still fills at least half the line, else the last that fits
        outer = [(d, -p) for p, d in fits if cell_len(text[start:p]) >= budget // 2]
        spaces = [p for p in range(start + 1, len(text)) if text[p] == " " and cell_len(text[start:p]) <= budget]
        if fits:
            cut = -min(outer)[1] if outer else fits[-1][0]
        elif spaces:  # no operator to break at (prose): between words
            cut = spaces[-1]
        else:  # one piece wider than the line: cut it where the line ends
            cut, used = start, 0
            while cut < len(text) and used + cell_len(text[cut]) <= budget:
                used += cell_len(text[cut])
                cut += 1
            cut = max(cut, start + 1)
        spans.append((start, cut))
        start = cut
        while start < len(text) and text[start] == " ":  # the continuation starts at the operator
            start += 1
        budget = width - indent
    spans.append((start, len(text)))
    return spans


def wrap_text(text: Text | str, width: int | None, indent: int = 4) -> list[Text]:
    """`text` as lines of at most `width` cells (None: one line), continuation lines indented by `indent`."""
    if isinstance(text, str):
        text = Text(text)
    plain = text.plain
    if width is None or cell_len(plain) <= width or "\n" in plain:
        return [text]
    indent = min(indent, max(width // 3, 0))
    lines = []
    for k, (start, end) in enumerate(line_spans(plain, width, indent)):
        piece = text[start:end]
        piece.rstrip()
        if k:
            line = Text(" " * indent)
            line.append_text(piece)
            piece = line
        lines.append(piece)
    return lines


def print_wrapped(console, text: Text | str, indent: int = 4, *, style: str | None = None) -> None:
    """Print `text` wrapped to the console's width with a hanging indent (each line exactly as cut)."""
    if isinstance(text, str):
        text = Text(text, style=style or "")
    for line in wrap_text(text, console.width, indent):
        console.print(line, soft_wrap=True)
