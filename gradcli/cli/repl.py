"""`gradcli repl`: an interactive session."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
from dataclasses import replace
from typing import Annotated

import typer

from gradcli.calc import repl
from gradcli.calc.repl import interactive_streams
from gradcli.cli import options
from gradcli.cli.app import (
    DEFAULTS,
    BitsOpt,
    ColorMode,
    ColorOpt,
    DebugOpt,
    DType,
    FullOpt,
    JsonOpt,
    MaxElementsOpt,
    NoColorOpt,
    ThresholdOpt,
    WidthOpt,
    app,
    console,
    guarded,
    kernel_bits,
    limits_from,
    user_errors,
)
from gradcli.render.text import print_options


@app.command("repl")
def repl_command(
    json_out: JsonOpt = False,
    check: Annotated[bool, typer.Option(
        "--check/--no-check", help="Start with the sympy cross-check on (for small inputs, as eval) or off.")] = True,
    hessian: Annotated[bool, typer.Option("--hessian", help="Start with :hessian on.")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed for randn(...)/rand(...) values.")] = 0,
    dtype: Annotated[DType, typer.Option("--dtype", help="Floating-point type of every tensor.")] = DType.float64,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    width: WidthOpt = None,
    full: FullOpt = False,
    threshold: ThresholdOpt = None,
    debug: DebugOpt = False,
    bits: BitsOpt = None,
    max_elements: MaxElementsOpt = DEFAULTS.max_elements,
    timeout: Annotated[float, typer.Option("--timeout", help="Wall-time limit of each line, in seconds.",
                                           rich_help_panel="Limits")] = DEFAULTS.max_seconds,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", metavar="MB", rich_help_panel="Limits",
        help="Memory the session (its bound tensors included) may take beyond its start-up, in MB.")]
    = DEFAULTS.max_memory_mb,
):
    """An interactive session: x = [1,2,3] binds a tensor, an expression is evaluated as by eval.

    Reads one line at a time from a pipe too ([bold]gradcli repl < session.txt[/]): one answer per line, errors
    on stderr; exit code 0, or 2 if any line failed (a line stopped by Ctrl-C on a terminal has not; from a
    pipe Ctrl-C ends the session, 130).  :help lists the session commands.
    """
    def valid_options():
        options.seconds(timeout, "--timeout")
        options.megabytes(max_memory)
        options.seed_value(seed)
        options.count(max_elements, "--max-elements")
        options.print_threshold(full, threshold)

    # the session runs in a supervised worker under the memory limit; a line stuck in one numpy call past
    # --timeout (or Ctrl-C that it cannot act on) ends the worker from outside (gradcli/safety/guard.py)
    with user_errors(debug), guarded(None, "the session", memory_mb=max_memory, validate=valid_options,
                                       interrupts_worker=interactive_streams()), kernel_bits(bits):
        limits = replace(limits_from(DEFAULTS.max_length, DEFAULTS.max_depth, DEFAULTS.max_nodes, max_elements,
                                     DEFAULTS.max_exponent, timeout), max_memory_mb=max_memory)
        settings = repl.Settings(json=json_out, check=None if check else False, hessian=hessian,
                                 dtype=dtype.value, seed=seed, limits=limits, debug=debug)
        with print_options(options.print_threshold(full, threshold)):
            code = repl.run(settings, console(no_color, color, width))
    raise typer.Exit(code)
