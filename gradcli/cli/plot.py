"""`gradcli plot`: f, its derivatives and the answer, drawn."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import sys
from typing import Annotated

import typer

from gradcli.cli import options
from gradcli.cli.app import (
    ColorMode,
    ColorOpt,
    DebugOpt,
    NoColorOpt,
    app,
    console,
    guarded,
    user_errors,
)
from gradcli.homework.plot import print_plot, sample, write_image
from gradcli.io.outputs import check_distinct_files


@app.command("plot", context_settings={"ignore_unknown_options": True})
def plot_command(
    function: Annotated[str, typer.Argument(help="The function in homework notation.", show_default=False)],
    wrt: Annotated[str | None, typer.Option("--wrt", metavar="VAR", help="The variable of the x axis.")] = None,
    start: Annotated[float | None, typer.Option("--from", metavar="A", help="Left end of the x axis (-5).")] = None,
    stop: Annotated[float | None, typer.Option("--to", metavar="B", help="Right end of the x axis (5).")] = None,
    order: Annotated[int, typer.Option("--order", min=1, max=5, help="Draw f′ ... up to this derivative.")] = 1,
    expect: Annotated[str | None, typer.Option(
        "--expect", "-e", metavar="ANSWER", help="Your derivative: drawn, and where it differs marked.")] = None,
    png: Annotated[str | None, typer.Option("--png", metavar="FILE", help="Also write a PNG (needs "
                                                                          "gradcli[plot]).")] = None,
    svg: Annotated[str | None, typer.Option("--svg", metavar="FILE", help="Also write an SVG (needs "
                                                                          "gradcli[plot]).")] = None,
    width: Annotated[int | None, typer.Option("--width", min=30, max=400, help="Columns of the text plot.")] = None,
    height: Annotated[int, typer.Option("--height", min=8, max=200, help="Rows of the text plot.")] = 22,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    debug: DebugOpt = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Time budget of the whole command, in seconds.",
                                           rich_help_panel="Limits")] = 30.0,
):
    """Plot f, its derivative(s) and your answer in the terminal; --png/--svg write an image.

    Example: [bold]gradcli plot "x^2 sin x" --expect "2x cos x"[/]
    """
    def valid_options():
        options.seconds(timeout, "--timeout")

    with user_errors(debug), guarded(timeout, "the plot", validate=valid_options):
        check_distinct_files([(f"--png {png}", png), (f"--svg {svg}", svg)])
        data = sample(function, wrt=wrt, start=start, stop=stop, order=order, expect=expect)
        print_plot(data, console(no_color, color), width=width, height=height)
        for path in (png, svg):
            if path:
                write_image(data, path)
                sys.stdout.write(f"wrote {path}\n")
