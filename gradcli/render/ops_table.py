"""`gradcli ops` for people: a table of every op, or, on a narrow console, one block per op (its signature and
forms, then its description wrapped under it)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.render.wrap import wrap_text


def print_ops(entries: list[dict], console: Console) -> None:
    rows = [(e["name"], e["signature"], ", ".join(e["forms"]), e["description"]) for e in entries]
    natural = [max(cell_len(h), *(cell_len(r[i]) for r in rows)) for i, h in
               enumerate(("name", "signature", "forms", "description"))]
    # the table when it fits, or is wide enough for rich to fold only the descriptions
    if sum(natural) + 2 * 4 <= console.width or console.width >= 120:
        table = Table(box=None, header_style="bold", show_edge=False)
        for col in ("name", "signature", "forms", "description"):
            table.add_column(col)
        for row in rows:  # Text, not markup: "[min, max]" in a description must print
            table.add_row(*map(Text, row))
        console.print(table)
        return
    for _name, signature, forms, description in rows:
        head = Text.assemble((signature, "bold"), ("  " + forms, "dim"))
        for line in wrap_text(head, console.width, 4):
            console.print(line, soft_wrap=True)
        for line in wrap_text("    " + description, console.width, 4):
            console.print(line, soft_wrap=True)
