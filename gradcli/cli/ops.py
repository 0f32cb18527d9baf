"""`gradcli ops`: every supported operation."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import difflib
import sys
from typing import Annotated

import typer

from gradcli.cli.app import (
    EXIT_ERROR,
    ColorMode,
    ColorOpt,
    JsonOpt,
    NoColorOpt,
    WidthOpt,
    app,
    console,
)
from gradcli.engine.ops import LINALG, REGISTRY
from gradcli.render import json_out as render_json


@app.command("ops")
def ops_command(
    pattern: Annotated[str | None, typer.Argument(
        metavar="[NAME]", show_default=False,
        help="Only the operations whose name holds NAME (softmax, linalg., norm); else those whose description "
             "does.")] = None,
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    width: WidthOpt = None,
):
    """List every supported operation with its signature and a one-line description (or those NAME picks).

    Example: [bold]gradcli ops softmax[/]
    """
    entries = []
    for name, spec in _matching(pattern):
        forms = [f for f, ok in (("torch", spec.torch and not spec.linalg), ("torch.linalg", spec.linalg),
                                 ("F", spec.functional), ("method", spec.method)) if ok]
        entries.append({"name": name, "signature": spec.signature, "description": spec.doc,
                        "category": spec.category, "forms": forms})
    if json_out:
        sys.stdout.write(render_json.dumps({"ops": entries}) + "\n")
        return
    from gradcli.render.ops_table import print_ops

    print_ops(entries, console(no_color, color, width))


def _matching(pattern: str | None) -> list:
    """(name, spec) of the ops NAME picks: a substring of the name (case ignored, a leading torch./F. dropped) or
    the name of their category, else a substring of the description; every op without NAME.  None picked is an
    error with the nearest names."""
    every = sorted(REGISTRY.items()) + sorted(("linalg." + n, s) for n, s in LINALG.items())
    if pattern is None:
        return every
    key = pattern.strip().lower()
    for prefix in ("torch.nn.functional.", "torch.", "f.", "nn.functional."):
        key = key.removeprefix(prefix)
    # a category's name (loss, activation, reduction ...) picks that category too: `gradcli ops loss` lists
    # cross_entropy and kl_div, whose names do not hold "loss"
    picked = [(n, s) for n, s in every if key in n.lower() or key in (s.category, s.category + "s",
                                                                       s.category + "es")] or \
        [(n, s) for n, s in every if key and key in s.doc.lower()]
    if not picked:
        close = difflib.get_close_matches(key, [n for n, _ in every], n=3, cutoff=0.6)
        sys.stderr.write(f"gradcli: error: no operation is named like '{pattern}'\n"
                         + (f"hint: did you mean {' or '.join(f'`{c}`' for c in close)}?\n" if close else
                            "hint: gradcli ops lists them all\n"))
        raise typer.Exit(EXIT_ERROR)
    return picked
