"""Tables for `gradcli eval --hessian / --jacobian / --order N` (the numbers come from calc.attach_derivatives)."""

from __future__ import annotations

import numpy as np
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.render.text import format_array, format_number, format_shape


def _print_blocks(title: str, key_header: str, blocks: dict, console: Console) -> None:
    """A table of the blocks when it fits the width; else each block under its key, numpy wrapping its rows
    at the width (a matrix row is never folded by the table)."""
    rows = [(key, format_shape(np.shape(value)), format_array(np.asarray(value))) for key, value in blocks.items()]
    natural = [max(cell_len(h), *(max(map(cell_len, r[i].split("\n"))) for r in rows))
               for i, h in enumerate((key_header, "shape", "value"))]
    if sum(natural) + 4 <= console.width:
        console.print(Text(title, style="bold"))  # a line of its own: a table's title wraps at the table's width
        table = Table(show_edge=False, box=None, pad_edge=False, header_style="bold")
        table.add_column(key_header)
        table.add_column("shape")
        table.add_column("value", overflow="fold")
        for key, shape, value in rows:
            table.add_row(Text(key), Text(shape), Text(value, style="cyan"))
        console.print(table)
        return
    console.print(Text(title, style="bold"))
    for key, value in blocks.items():
        value = np.asarray(value)
        console.print(Text.assemble((key, "bold"), "  ", (format_shape(value.shape), "dim")))
        text = format_array(value, linewidth=max(console.width - 2, 20))
        console.print(Text("\n".join("  " + line for line in text.split("\n")), style="cyan"), soft_wrap=True)


def print_derivatives(extras: dict, console: Console) -> None:
    hessian = extras.get("hessian")
    if hessian is not None:
        _print_blocks("hessian  ∂²out/∂a∂b", "a,b", hessian, console)
    jacobian = extras.get("jacobian")
    if jacobian is not None:
        _print_blocks("jacobian  ∂out/∂x", "x", jacobian, console)
    derivatives = extras.get("derivatives")
    if derivatives is not None:
        wrt = derivatives["wrt"]
        console.print(Text(f"derivatives  dⁿout/d{wrt}ⁿ", style="bold"))
        table = Table(show_edge=False, box=None, pad_edge=False, header_style="bold")
        table.add_column("n")
        table.add_column("value")
        for n, value in enumerate(derivatives["values"], start=1):
            table.add_row(str(n), Text(format_number(float(np.asarray(value))), style="cyan"))
        console.print(table)
