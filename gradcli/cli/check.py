"""`gradcli check`: is this the derivative?"""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import sys
from typing import Annotated

import typer

from gradcli.cli import options
from gradcli.cli.app import (
    WALL_BACKSTOP,
    ColorMode,
    ColorOpt,
    DebugOpt,
    JsonOpt,
    NoColorOpt,
    WidthOpt,
    app,
    console,
    guarded,
    user_errors,
)
from gradcli.homework.annotate import annotate_check
from gradcli.homework.check import check_derivative
from gradcli.homework.points import parse_point
from gradcli.render import json_out as render_json
from gradcli.safety.errors import InputError
from gradcli.safety.guard import CpuDeadline


@app.command("check", context_settings={"ignore_unknown_options": True})
def check_command(
    function: Annotated[str, typer.Argument(
        help="The function, in homework notation: x^2 sin(x), 3x e^(2x), ln(x)/x, x^2 + y^2 = 25 ...",
        show_default=False)],
    derivative: Annotated[str | None, typer.Argument(
        help="Your derivative, as --expect gives it: gradcli check \"x^3\" \"3x^2\".", show_default=False)] = None,
    expect: Annotated[list[str] | None, typer.Option(
        "--expect", "-e", metavar="[VAR=]DERIVATIVE",
        help="Your derivative (homework notation; dy/dx = ... is fine). Name the variable for partials: "
             "--expect y=\"2*x*y\".")] = None,
    wrt: Annotated[list[str] | None, typer.Option(
        "--wrt", metavar="VAR", help="The variable to differentiate by; repeat (or x,y) for a mixed partial "
                                     "∂²f/∂x∂y.")] = None,
    order: Annotated[int, typer.Option("--order", min=1, max=10, help="Which derivative: 2 for the second.")] = 1,
    var: Annotated[list[str] | None, typer.Option(
        "--var", metavar="NAME", help="A variable with a multi-letter name (otherwise xy means x·y).")] = None,
    dependent: Annotated[str | None, typer.Option(
        "--dependent", metavar="NAME", help="For an equation: the dependent variable (default y).")] = None,
    hessian: Annotated[bool, typer.Option("--hessian", help="Also print the Hessian matrix.")] = False,
    at: Annotated[list[str] | None, typer.Option(
        "--at", metavar="VAR=VALUE",
        help="Also print the values at this point (repeat for several variables).")] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", help="Budget of the whole check (and of each sympy step), in seconds of CPU time.")] = 5.0,
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    width: WidthOpt = None,
    debug: DebugOpt = False,
    latex: Annotated[bool, typer.Option("--latex", help="Print the function and derivatives in LaTeX.")] = False,
    steps: Annotated[bool, typer.Option("--steps", help="Also show the derivative step by step, naming each "
                                                       "rule.")] = False,
    plot: Annotated[bool, typer.Option("--plot", help="Also plot f, f' and your answer in the terminal.")] = False,
):
    """Check a derivative: is DERIVATIVE (or --expect) the derivative of FUNCTION? Without one, print the derivative.

    Example: [bold]gradcli check "x^2 sin(x)" --wrt x --expect "2x sin(x) + x^2 cos(x)"[/]
    Exit code 0: correct, 1: incorrect, 2: an error (or undecided), 3: agrees at every point, not proven.
    """
    def valid_options():
        options.seconds(timeout, "--timeout")
        if derivative is not None and expect:
            raise InputError(f"two answers to check: {derivative!r} and --expect",
                             hint="give your derivative once, either after the function or with --expect")

    # --timeout is CPU time (a busy machine must not turn a check into a failure); the wall-time limit is only
    # the backstop against a check stuck in one C call
    with user_errors(debug, json_out), guarded(timeout * WALL_BACKSTOP + 20, "the check", validate=valid_options), \
            CpuDeadline(timeout, f"the check used more than {timeout:g} s of CPU time", "raise it with --timeout"):
        answers = expect or ([] if derivative is None else [derivative])
        report = check_derivative(function, answers, wrt=wrt, order=order, at=parse_point(at), timeout=timeout,
                                  variables=var or (), dependent=dependent, hessian=hessian,
                                  formulas="all" if json_out else "needed")
        data = report.to_dict()

        annotate_check(report, data, latex=latex, display=not json_out)
        if json_out:
            sys.stdout.write(render_json.dumps(data) + "\n")
        else:
            from gradcli.render.symbolic_render import print_check_report, print_check_report_latex

            (print_check_report_latex if latex else print_check_report)(data, console(no_color, color, width))
            if steps:
                from gradcli.homework.steps import print_check_steps

                print_check_steps(report, console(no_color, color, width), latex=latex)
            if plot:
                from gradcli.homework.plot import plot_check  # numpy and the engine: only for --plot

                plot_check(report, console(no_color, color, width))
    raise typer.Exit(report.exit_code)
