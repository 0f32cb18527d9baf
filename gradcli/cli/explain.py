"""`gradcli explain`: how backward() computed the gradients."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import sys
from typing import Annotated

import numpy as np
import typer

from gradcli.cli import options
from gradcli.cli.app import (
    DEFAULTS,
    WALL_BACKSTOP,
    BitsOpt,
    ColorMode,
    ColorOpt,
    DebugOpt,
    FullOpt,
    JsonOpt,
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
from gradcli.homework.explain import explain, to_dict
from gradcli.io.inputs import LazyGenerator, parse_assignments, parse_value
from gradcli.render import json_out as render_json
from gradcli.render.text import print_options
from gradcli.safety.guard import CpuDeadline


@app.command("explain", context_settings={"ignore_unknown_options": True})
def explain_command(
    expression: Annotated[str, typer.Argument(
        help="A PyTorch-style expression, or homework notation: ln(1 + e^(wx+b)).", show_default=False)],
    assignments: Annotated[list[str] | None, typer.Argument(
        metavar="NAME=VALUE...", show_default=False, help="Tensors that require grad (as for eval).")] = None,
    const: Annotated[list[str] | None, typer.Option(
        "--const", "-c", metavar="NAME=VALUE", help="A tensor that does not require grad.")] = None,
    grad_output: Annotated[str | None, typer.Option(
        "--grad-output", metavar="VALUE", help="The gradient= of backward() for a non-scalar output.")] = None,
    dot: Annotated[bool, typer.Option("--dot", help="Print the graph as Graphviz DOT (for dot -Tsvg).")] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed for randn(...)/rand(...) values.")] = 0,
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    width: WidthOpt = None,
    full: FullOpt = False,
    threshold: ThresholdOpt = None,
    debug: DebugOpt = False,
    bits: BitsOpt = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Budget of the whole command, in seconds of CPU time.",
                                           rich_help_panel="Limits")] = DEFAULTS.max_seconds,
    torch_names: Annotated[bool | None, typer.Option(
        "--torch-names/--no-torch-names", show_default=False,
        help="Show PyTorch's grad_fn names (AddBackward0 ...); default: yes for PyTorch syntax, no for homework "
             "notation.")] = None,
):
    """Show how backward() computed the gradients: the graph with each node's value, incoming gradient and
    local rule, and for scalar functions the chain rule step by step.

    Example: [bold]gradcli explain "x**2 * sin(x)" x=1.5[/]
    """
    expression = expression.strip()  # " -x^2": see expression_may_start_with_minus
    def valid_options():
        options.check_explain(timeout=timeout, seed=seed)
        options.print_threshold(full, threshold)
        options.expression_first("explain", expression, assignments or [])

    # --timeout is CPU time (a busy machine must not turn an explanation into a failure); the wall-time limits
    # (the command's, the engine's) are only the backstop against a call stuck in C
    wall = timeout * WALL_BACKSTOP + 20
    with user_errors(debug, json_out), guarded(wall, validate=valid_options), kernel_bits(bits), \
            CpuDeadline(timeout, f"the explanation used more than {timeout:g} s of CPU time",
                        "raise it with --timeout"):
        limits = limits_from(DEFAULTS.max_length, DEFAULTS.max_depth, DEFAULTS.max_nodes, DEFAULTS.max_elements,
                             DEFAULTS.max_exponent, wall)
        rng = LazyGenerator(seed)  # PyTorch's generator after manual_seed(seed); loaded on first draw
        f64 = np.dtype("float64")
        inputs = parse_assignments(assignments or [], dtype=f64, rng=rng, limits=limits)
        consts = parse_assignments(const or [], dtype=f64, rng=rng, limits=limits)
        gout = None if grad_output is None else parse_value(grad_output, dtype=f64, rng=rng, limits=limits)
        explanation = explain(expression, inputs, consts, grad_output=gout, limits=limits)
        if dot:
            from gradcli.render.explain_render import to_dot

            sys.stdout.write(to_dot(explanation) + "\n")
        elif json_out:
            sys.stdout.write(render_json.dumps(to_dict(explanation)) + "\n")
        else:
            from gradcli.render.explain_render import print_explanation

            with print_options(options.print_threshold(full, threshold)):
                print_explanation(explanation, console(no_color, color, width), torch_names=torch_names)
