"""`gradcli steps`: the derivative step by step."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
from typing import Annotated

import typer

from gradcli.cli import options
from gradcli.cli.app import (
    WALL_BACKSTOP,
    ColorMode,
    ColorOpt,
    DebugOpt,
    NoColorOpt,
    WidthOpt,
    app,
    console,
    guarded,
    user_errors,
)
from gradcli.safety.guard import CpuDeadline


@app.command("steps", context_settings={"ignore_unknown_options": True})
def steps_command(
    function: Annotated[str, typer.Argument(
        help="The function in homework notation (an equation such as x^2 + y^2 = 25 for implicit "
             "differentiation).", show_default=False)],
    wrt: Annotated[str | None, typer.Option("--wrt", metavar="VAR", help="The variable to differentiate by.")] = None,
    dependent: Annotated[str, typer.Option("--dependent", metavar="NAME",
                                           help="In an equation, the variable that depends on --wrt.")] = "y",
    latex: Annotated[bool, typer.Option("--latex", help="Print the derivation in LaTeX (aligned).")] = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    width: WidthOpt = None,
    debug: DebugOpt = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Budget of the whole command, in seconds of CPU "
                                                            "time.", rich_help_panel="Limits")] = 30.0,
):
    """Differentiate step by step, naming the rule at each step (sum, product, quotient, chain ...).

    Example: [bold]gradcli steps "x^2 sin x"[/]
    """
    def valid_options():
        options.seconds(timeout, "--timeout")

    # --timeout is CPU time, as check's: the wall-time limit is only the backstop against a stuck call
    with user_errors(debug), guarded(timeout * WALL_BACKSTOP + 20, "the derivation", validate=valid_options), \
            CpuDeadline(timeout, f"the derivation used more than {timeout:g} s of CPU time", "raise it with --timeout"):
        from gradcli.homework.steps import derive_text, print_derivation

        print_derivation(derive_text(function, wrt, dependent=dependent), console(no_color, color, width), latex=latex)
