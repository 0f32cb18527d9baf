"""`gradcli run`: a PyTorch program on gradcli's engine."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import sys
from typing import Annotated

import typer

from gradcli.cli.app import (
    BitsOpt,
    DebugOpt,
    app,
    guarded,
    kernel_bits,
    user_errors,
)
from gradcli.cli.options import check_run
from gradcli.run import run_source
from gradcli.run.checker import check_arguments
from gradcli.run.source import read_program


@app.command("run")
def run_command(
    file: Annotated[str, typer.Argument(help="A PyTorch autograd program (.py), or - for standard input.")],
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", metavar="NAME=VALUE", help="Bind a global before the program runs: a plain number as a Python "
                                            "int/float, any other value (list, @file, randn(..)) as a float32 "
                                            "tensor.")] = None,
    debug: DebugOpt = False,
    bits: BitsOpt = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Wall-time limit of the program, in seconds.",
                                           rich_help_panel="Limits")] = 30.0,
    max_memory: Annotated[int, typer.Option("--max-memory", metavar="MB", rich_help_panel="Limits",
                                            help="Memory the program may take, in MB.")] = 2048,
):
    """Run a PyTorch autograd snippet on gradcli's engine and print what PyTorch would print."""
    with user_errors(debug):
        # --arg values and the program are read under the limits too (a FIFO that never ends, a gzip bomb)
        with guarded(timeout, "reading the program and its --arg values", memory_mb=max_memory,
                      validate=lambda: valid_run_options(timeout, max_memory)):
            source, name, bindings, limits = read_program(file, arg, timeout, max_memory)
            for warning in check_arguments(source, name, list(bindings)):
                sys.stderr.write(f"gradcli: warning: {warning}\n")
        with kernel_bits(bits, "torch") as chosen:  # run's job is to print what PyTorch prints: torch's bits
            code = run_source(source, name, stdout=sys.stdout, stderr=sys.stderr, bindings=bindings, limits=limits,
                              bits=chosen)
    raise typer.Exit(code)


def valid_run_options(timeout, max_memory):
    check_run(timeout=timeout, max_memory=max_memory)
