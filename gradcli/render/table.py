"""The default human output of `gradcli eval`: a rich table of tensors, values and .grad."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.render.text import format_array, format_shape


def print_eval_result(result, console: Console) -> None:
    console.print(Text.assemble(("output  ", "bold"), format_array(result.output),
                                ("  shape " + format_shape(result.output.shape), "dim")
                                if result.output.ndim else ""))
    if result.error is not None:
        console.print(Text("RuntimeError: " + result.error, style="bold red"))
    table = Table(show_edge=False, box=None, pad_edge=False, header_style="bold")
    table.add_column("tensor")
    table.add_column("shape")
    table.add_column("value", overflow="fold")
    table.add_column(".grad", overflow="fold")
    for name, t in result.tensors.items():
        if t.grad is not None:
            grad = Text(format_array(t.grad), style="green")
        elif not t.requires_grad:
            grad = Text("None (const)", style="dim")
        elif not t.used:
            grad = Text("None (not used)", style="yellow")
        else:
            grad = Text("None", style="dim")
        # every cell is a Text, never markup: "[inf 1.]" or a name with "[" must print as it is
        table.add_row(Text(name), Text(format_shape(t.value.shape)), Text(format_array(t.value)), grad)
    if result.tensors:
        console.print(table)
    for extra in result.extras.get("_render", []):
        extra(console)
    for warning in result.warnings:
        console.print(Text("warning: " + warning, style="yellow"))
