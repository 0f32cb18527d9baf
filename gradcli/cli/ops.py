"""`gradcli ops`: every supported operation."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import sys

from gradcli.cli.app import (
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
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    width: WidthOpt = None,
):
    """List every supported operation with its signature and a one-line description."""
    entries = []
    for name, spec in sorted(REGISTRY.items()) + sorted(("linalg." + n, s) for n, s in LINALG.items()):
        forms = [f for f, ok in (("torch", spec.torch and not spec.linalg), ("torch.linalg", spec.linalg),
                                 ("F", spec.functional), ("method", spec.method)) if ok]
        entries.append({"name": name, "signature": spec.signature, "description": spec.doc,
                        "category": spec.category, "forms": forms})
    if json_out:
        sys.stdout.write(render_json.dumps({"ops": entries}) + "\n")
        return
    from gradcli.render.ops_table import print_ops

    print_ops(entries, console(no_color, color, width))
