"""Tables for `gradcli eval --hessian / --jacobian / --order N` (the numbers come from calc.attach_derivatives)."""

from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.render.text import format_array, format_number, format_shape


def _block_table(title: str, key_header: str, blocks: dict) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", show_edge=False, box=None,
                  pad_edge=False, header_style="bold")
    table.add_column(key_header)
    table.add_column("shape")
    table.add_column("value", overflow="fold")
    for key, value in blocks.items():
        value = np.asarray(value)
        table.add_row(Text(key), Text(format_shape(value.shape)), Text(format_array(value), style="cyan"))
    return table


def print_derivatives(extras: dict, console: Console) -> None:
    hessian = extras.get("hessian")
    if hessian is not None:
        console.print(_block_table("hessian  ∂²out/∂a∂b", "a,b", hessian))
    jacobian = extras.get("jacobian")
    if jacobian is not None:
        console.print(_block_table("jacobian  ∂out/∂x", "x", jacobian))
    derivatives = extras.get("derivatives")
    if derivatives is not None:
        wrt = derivatives["wrt"]
        table = Table(title=f"derivatives  dⁿout/d{wrt}ⁿ", title_justify="left", title_style="bold",
                      show_edge=False, box=None, pad_edge=False, header_style="bold")
        table.add_column("n")
        table.add_column("value")
        for n, value in enumerate(derivatives["values"], start=1):
            table.add_row(str(n), Text(format_number(float(np.asarray(value))), style="cyan"))
        console.print(table)
