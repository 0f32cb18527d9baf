"""The default human output of `gradcli eval`: a rich table of tensors, values and .grad.

The table fits the console's width.  When its rows would have to fold, each tensor is shown as a block
instead, its value and .grad on lines of their own (numpy's own wrapping at that width, so a matrix row is
never split except as numpy wraps a row too long for the whole line, with aligned continuation).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.render.text import format_array, format_shape
from gradcli.render.wrap import print_wrapped

_GAP = 2  # between the table's columns (rich's padding without the outer edges)
_LABEL = "  value  "  # the stacked layout's labels, value and .grad aligned
_GRAD_LABEL = "  .grad  "


def _width(text: str) -> int:
    return max((cell_len(line) for line in text.split("\n")), default=0)


def _grad_cell(t, linewidth: int | None = None) -> Text:
    if t.grad is not None:
        return Text(format_array(t.grad, linewidth=linewidth), style="green")
    if not t.requires_grad:
        return Text("None (const)", style="dim")
    if not t.used:
        return Text("None (not used)", style="yellow")
    return Text("None", style="dim")


def _labelled(label: str, body: Text) -> Text:
    """`label` then `body`, its continuation lines indented under the body's first line."""
    lines = body.split("\n")
    out = Text(label)
    for k, line in enumerate(lines):
        if k:
            out.append("\n" + " " * cell_len(label))
        out.append_text(line)
    return out


def print_eval_result(result, console: Console, between=None) -> None:
    """The output line, the table, then `between()` (eval's check, run once the answer is shown), the extras'
    lines (checks, derivatives) and the warnings."""
    width = console.width
    output = format_array(result.output)
    shape = ("  shape " + format_shape(result.output.shape), "dim") if result.output.ndim else ""
    line = Text.assemble(("output  ", "bold"), output, shape)
    if _width(line.plain) > width:  # numpy's wrapping at the width left, aligned under the value
        line = _labelled("output  ", Text(format_array(result.output, linewidth=max(width - 8, 20))))
        line.stylize("bold", 0, 6)
        if shape:
            line.append("\n" + " " * 8 + shape[0].strip(), style="dim")
    console.print(line, soft_wrap=True)
    if result.error is not None:
        print_wrapped(console, Text("RuntimeError: " + result.error, style="bold red"), 2)
    if result.tensors:
        rows = [(name, format_shape(t.value.shape), format_array(t.value), _grad_cell(t))
                for name, t in result.tensors.items()]
        columns = [max(_width(h), *(_width(r[i] if i < 3 else r[i].plain) for r in rows))
                   for i, h in enumerate(("tensor", "shape", "value", ".grad"))]
        if sum(columns) + _GAP * 3 <= width:
            _print_table(rows, console)
        else:
            _print_blocks(result, console, width)
    if between is not None:
        between()
    for extra_render in result.extras.get("_render", []):
        extra_render(console)
    for warning in result.warnings:
        print_wrapped(console, Text("warning: " + warning, style="yellow"), 2)


def _print_table(rows, console: Console) -> None:
    table = Table(show_edge=False, box=None, pad_edge=False, header_style="bold")
    table.add_column("tensor")
    table.add_column("shape")
    table.add_column("value", overflow="fold")
    table.add_column(".grad", overflow="fold")
    for name, shape, value, grad in rows:
        # every cell is a Text, never markup: "[inf 1.]" or a name with "[" must print as it is
        table.add_row(Text(name), Text(shape), Text(value), grad)
    console.print(table)


def _print_blocks(result, console: Console, width: int) -> None:
    """One block per tensor: its name and shape, then its value and .grad at the full width."""
    linewidth = max(width - len(_LABEL), 20)
    for name, t in result.tensors.items():
        console.print(Text.assemble((name, "bold"), "  ", (format_shape(t.value.shape), "dim")))
        console.print(_labelled(_LABEL, Text(format_array(t.value, linewidth=linewidth))), soft_wrap=True)
        console.print(_labelled(_GRAD_LABEL, _grad_cell(t, linewidth)), soft_wrap=True)
