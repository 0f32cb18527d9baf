"""The command line.  Each command is thin: read options, call the core, render, choose the exit code.

Exit codes, as grep and diff: 0 success, 1 a definite "no" (a wrong derivative; autograd disagreeing with an
independent check, a gradcli bug), 2 any error.
"""

# No `from __future__ import annotations` here: typer would evaluate every option's annotation string again
# (typing.get_type_hints) each time it builds a command, ~6 ms of every start-up.
import sys
from contextlib import contextmanager
from enum import Enum
from typing import Annotated

import typer

from gradcli import __version__
from gradcli.safety.limits import Limits

app = typer.Typer(
    rich_markup_mode="rich",
    add_completion=False,
    no_args_is_help=True,
    help="Gradients of PyTorch-style expressions, exactly as PyTorch computes them, without PyTorch.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_OK, EXIT_NO, EXIT_ERROR = 0, 1, 2


class DType(str, Enum):
    float64 = "float64"
    float32 = "float32"


class OutFormat(str, Enum):
    table = "table"
    json = "json"
    ndjson = "ndjson"
    csv = "csv"
    tsv = "tsv"
    raw = "raw"
    npz = "npz"


def _version(value: bool):
    if value:
        typer.echo(f"gradcli {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[bool | None, typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Show the version and exit.")] = None,
):
    """Gradients of PyTorch-style expressions, exactly as PyTorch computes them, without PyTorch."""


@contextmanager
def _user_errors(debug: bool, json_errors: bool = False):
    """Turn every failure into one clear message on stderr and exit code 2 (a traceback only with --debug).
    With --json, stdout also gets exactly one object {"error": {"type", "message", "hint", "span"}}."""
    from gradcli.safety.errors import GradcliError

    def as_json(kind, message, hint=None, span=None):
        if json_errors:
            from gradcli.render import json_out as render_json

            try:
                sys.stdout.write(render_json.dumps({"error": {"type": kind, "message": message, "hint": hint,
                                                              "span": None if span is None else list(span)}})
                                 + "\n")
            except OSError:  # stdout itself is what failed (a full disk): the message on stderr is enough
                pass

    try:
        yield
    except GradcliError as err:
        if debug:
            raise
        sys.stderr.write(err.render() + "\n")
        as_json(type(err).__name__, err.message, err.hint, err.span)
        raise typer.Exit(EXIT_ERROR) from None
    except _engine_error() as err:
        if debug:
            raise
        sys.stderr.write(f"gradcli: error: {err}\n")
        as_json(err.torch_type, str(err))
        raise typer.Exit(EXIT_ERROR) from None
    except KeyboardInterrupt:
        sys.stderr.write("gradcli: interrupted\n")
        as_json("Interrupted", "interrupted")
        raise typer.Exit(130) from None
    except (typer.Exit, typer.Abort):
        raise
    except OSError as err:  # the system refused (a full disk under stdout, an unreadable device): not a bug
        if debug:
            raise
        where = f" ({err.filename})" if err.filename else ""
        sys.stderr.write(f"gradcli: error: could not complete the command: {err.strerror or err}{where}\n")
        as_json("OSError", f"{err.strerror or err}{where}")
        raise typer.Exit(EXIT_ERROR) from None
    except Exception as err:  # a bug in gradcli: say so plainly
        if debug:
            raise
        sys.stderr.write(f"gradcli: internal error: {type(err).__name__}: {err}\n"
                         "hint: rerun with --debug for the traceback, and please report it\n")
        as_json("InternalError", f"{type(err).__name__}: {err}", "rerun with --debug for the traceback")
        raise typer.Exit(EXIT_ERROR) from None


def _engine_error():
    """EngineError, imported only when an error reaches it: importing the engine costs numpy's start-up,
    which `check` does not need."""
    from gradcli.engine.errors import EngineError

    return EngineError


def _limits(max_length, max_depth, max_nodes, max_elements, max_exponent, timeout):
    return Limits(max_length=max_length, max_depth=max_depth, max_nodes=max_nodes, max_elements=max_elements,
                  max_exponent=max_exponent, max_seconds=timeout)


def _guarded(seconds: float | None, what: str = "the evaluation", memory_mb: float | None = None,
             validate=lambda: None, interrupts_worker: bool = False):
    """The whole command under its wall-time and memory limits (see gradcli/guard.py), once its option
    values are known to be valid (`validate` raises a clear error otherwise)."""
    validate()
    from gradcli.safety.guard import command

    return command(seconds, memory_mb=Limits().max_memory_mb if memory_mb is None else memory_mb, what=what,
                   interrupts_worker=interrupts_worker)


def _console(no_color: bool, color: str = "auto"):
    from gradcli.cli.terminal import make_console

    return make_console(getattr(color, "value", color), no_color)


_D = Limits()  # defaults shown in --help

# Options shared by commands that evaluate expressions.
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one strict-JSON object instead of a table.")]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show Python tracebacks for errors.")]
NoColorOpt = Annotated[bool, typer.Option("--no-color", help="Plain text output (also when piped or NO_COLOR is set).")]


class ColorMode(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


ColorOpt = Annotated[ColorMode, typer.Option("--color", help="Colour: auto (on a terminal without NO_COLOR), "
                                                              "always or never.")]
MaxLengthOpt = Annotated[int, typer.Option("--max-length", help="Longest expression or value, in characters.",
                                           rich_help_panel="Limits")]
MaxDepthOpt = Annotated[int, typer.Option("--max-depth", help="Deepest nesting of the expression.",
                                          rich_help_panel="Limits")]
MaxNodesOpt = Annotated[int, typer.Option("--max-nodes", help="Most syntax nodes in the expression.",
                                          rich_help_panel="Limits")]
MaxElementsOpt = Annotated[int, typer.Option("--max-elements", help="Most elements in any one tensor.",
                                             rich_help_panel="Limits")]
MaxExponentOpt = Annotated[float, typer.Option("--max-exponent", help="Largest |literal exponent| as in x**1000.",
                                               rich_help_panel="Limits")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", help="Wall-time limit for the evaluation, in seconds.",
                                           rich_help_panel="Limits")]


@app.command("eval")
def eval_command(
    expression: Annotated[str, typer.Argument(help="A PyTorch-style expression, e.g. \"(x**2).sum()\". "
                                                   "[bold]^[/] means power.", show_default=False)],
    assignments: Annotated[list[str] | None, typer.Argument(
        metavar="NAME=VALUE...", show_default=False,
        help="Tensors that require grad. VALUE: a number, a nested list [1,2,3], randn(3,4), rand(..), "
             "zeros(..), ones(..), arange(..), linspace(..), eye(n), full(shape, v), @file (.npy, .json, text) "
             "or - for stdin.")] = None,
    const: Annotated[list[str] | None, typer.Option(
        "--const", "-c", metavar="NAME=VALUE", help="A tensor that does not require grad (.grad is None).")] = None,
    inputs_files: Annotated[list[str] | None, typer.Option(
        "--inputs", metavar="FILE", help="Tensors that require grad, many at once: a JSON object "
                                         "{name: value} or an .npz (one tensor per key); - for stdin.")] = None,
    grad_output: Annotated[str | None, typer.Option(
        "--grad-output", metavar="VALUE", help="The gradient= of backward() for a non-scalar output.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for randn(...)/rand(...) values.")] = 0,
    dtype: Annotated[DType, typer.Option("--dtype", help="Floating-point type of every tensor.")] = DType.float64,
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    debug: DebugOpt = False,
    max_length: MaxLengthOpt = _D.max_length,
    max_depth: MaxDepthOpt = _D.max_depth,
    max_nodes: MaxNodesOpt = _D.max_nodes,
    max_elements: MaxElementsOpt = _D.max_elements,
    max_exponent: MaxExponentOpt = _D.max_exponent,
    timeout: TimeoutOpt = _D.max_seconds,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", metavar="MB", rich_help_panel="Limits",
        help="Memory the command may take beyond its start-up, in MB.")] = _D.max_memory_mb,
    check: Annotated[bool | None, typer.Option(
        "--check/--no-check", show_default=False, rich_help_panel="Checks",
        help="Cross-check the gradients with sympy: --check forces it past --check-limit, --no-check skips it "
             "(default: only for small inputs).")] = None,
    check_limit: Annotated[int, typer.Option(
        "--check-limit", metavar="N", rich_help_panel="Checks",
        help="Run the sympy cross-check by default when the tensors have at most N elements in all.")] = 64,
    check_timeout: Annotated[float, typer.Option(
        "--check-timeout", metavar="SECONDS", rich_help_panel="Checks",
        help="Time budget of the sympy cross-check (and of --gradcheck).")] = 5.0,
    strict: Annotated[bool | None, typer.Option(
        "--strict/--no-strict", show_default=False, rich_help_panel="Checks",
        help="A check that disagrees with autograd is a gradcli bug: it always goes to stderr and exits 1; "
             "--strict also exits 1 on nan or inf produced from finite inputs, --no-strict exits 0 on both.")] = None,
    latex: Annotated[bool, typer.Option(
        "--latex", rich_help_panel="Checks", help="Print the symbolic derivatives in LaTeX.")] = False,
    gradcheck: Annotated[bool, typer.Option(
        "--gradcheck", rich_help_panel="Checks",
        help="Also check by central finite differences in float64 (eps 1e-6, atol 1e-5, rtol 1e-3).")] = False,
    hessian: Annotated[bool, typer.Option(
        "--hessian", rich_help_panel="Higher derivatives",
        help="The Hessian of a scalar output: a block d2out/da db for every pair of inputs.")] = False,
    jacobian: Annotated[bool, typer.Option(
        "--jacobian", rich_help_panel="Higher derivatives",
        help="The Jacobian d out / d x of the output for every input (shape out.shape + x.shape).")] = False,
    order: Annotated[int | None, typer.Option(
        "--order", metavar="N", rich_help_panel="Higher derivatives",
        help="Derivatives 1..N of a scalar output with respect to its one scalar input.")] = None,
    rows: Annotated[str | None, typer.Option(
        "--rows", metavar="FILE", rich_help_panel="Rows and files",
        help="Evaluate at every row of FILE (- for stdin): CSV/TSV whose header names the variables, or NDJSON "
             "(one {\"name\": value} object a line). Writes one answer per row.")] = None,
    delimiter: Annotated[str | None, typer.Option(
        "--delimiter", "-d", metavar="CHAR", rich_help_panel="Rows and files",
        help="Field delimiter of the --rows CSV (default: from the extension or sniffed: , tab ;).")] = None,
    fail_fast: Annotated[bool, typer.Option(
        "--fail-fast", rich_help_panel="Rows and files", help="Stop at the first row that fails.")] = False,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE", rich_help_panel="Rows and files",
        help="Write the result to FILE (atomically), format from the extension: .json .jsonl .csv .tsv .npz")] = None,
    out_format: Annotated[OutFormat | None, typer.Option(
        "--format", rich_help_panel="Rows and files", help="Output format (default: table; rows mode: as the input).",
        show_default=False)] = None,
    save: Annotated[list[str] | None, typer.Option(
        "--save", metavar="NAME=FILE", rich_help_panel="Rows and files",
        help="Write NAME's gradient to FILE (.npy .npz .json .txt), atomically. Repeatable.")] = None,
    raw: Annotated[bool, typer.Option(
        "--raw", "-r", rich_help_panel="Rows and files",
        help="Print only the gradients: one tensor a line, elements space-separated, full precision.")] = False,
):
    """Evaluate EXPRESSION, run backward() and print the output and every tensor's .grad.

    Example: [bold]gradcli eval "(x**2).sum()" x=[1,2,3][/]
    """
    def valid_options():
        from gradcli.cli import options

        options.check_eval(timeout=timeout, check_timeout=check_timeout, check_limit=check_limit,
                           max_length=max_length, max_depth=max_depth, max_nodes=max_nodes,
                           max_elements=max_elements, max_exponent=max_exponent, seed=seed, order=order,
                           max_memory=max_memory)

    expression = expression.strip()  # " -x^2": see _expression_may_start_with_minus
    # rows mode bounds each row by --timeout (gradcli/rows.py), not the whole stream
    from gradcli.io.outputs import check_distinct_files, input_file  # before the memory limit starts

    with _user_errors(debug, json_out), _guarded(None if rows is not None else timeout, memory_mb=max_memory,
                                                 validate=valid_options):

        check_distinct_files(
            [("-o " + output if output else "-o", output),
             *((f"--save {spec}", spec.partition("=")[2]) for spec in save or [])],
            [*((spec, input_file(spec.partition("=")[2])) for spec in [*(assignments or []), *(const or [])]),
             *((f"--inputs {path}", path) for path in inputs_files or []),
             ("--rows " + rows if rows else "--rows", rows)])
        import numpy as np

        from gradcli.calc.calculator import (
            attach_checks,
            attach_derivatives,
            evaluate_expression,
            produced_non_finite,
        )
        from gradcli.engine import dtypes
        from gradcli.io.inputs import LazyGenerator, bind_inputs_file, parse_assignment, parse_value

        limits = _limits(max_length, max_depth, max_nodes, max_elements, max_exponent, timeout)
        np_dtype = np.dtype(dtype.value)
        rng = LazyGenerator(seed)  # numpy.random only if a value asks for it
        if rows == "-":
            from gradcli.calc.rows import check_stdin_once

            check_stdin_once(rows, [*(assignments or []), *(const or []), f"grad_output={grad_output or ''}"])
        from gradcli.safety.guard import deadline

        # rows mode times each row, not the stream: the shared values (a FIFO, a gzip bomb) get --timeout here
        with deadline(timeout if rows is not None else None, f"reading the values took longer than {timeout:g} s",
                      hint="raise it with --timeout"):
            inputs = _assignments(assignments or [], np_dtype, rng, limits, parse_assignment)
            consts = _assignments(const or [], np_dtype, rng, limits, parse_assignment)
            for path in inputs_files or []:
                bind_inputs_file(inputs, path, dtype=np_dtype, limits=limits)
            gout = None if grad_output is None else parse_value(grad_output, dtype=np_dtype, rng=rng,
                                                                limits=limits)
        fmt = None if out_format is None else out_format.value
        if rows is not None:  # rows mode: gradcli/rows.py
            from gradcli.calc.rows import run_rows_command

            raise typer.Exit(run_rows_command(
                expression, rows, inputs, consts, gout, dtype=dtypes.by_name(dtype.value), limits=limits, rng=rng,
                delimiter=delimiter, fail_fast=fail_fast, output=output, fmt=fmt, json_flag=json_out, raw=raw,
                saves=save, check=bool(check), check_timeout=check_timeout, strict=strict))
        result = evaluate_expression(expression, inputs, consts, grad_output=gout,
                                     dtype=dtypes.by_name(dtype.value), limits=limits)
        attach_checks(result, check=check, check_limit=check_limit, check_timeout=check_timeout, latex=latex,
                      gradcheck=gradcheck, dtype=dtypes.by_name(dtype.value))
        attach_derivatives(result, hessian=hessian, jacobian=jacobian, order=order,
                           dtype=dtypes.by_name(dtype.value), limits=limits)
        if output or fmt or raw or save:  # files and raw output: gradcli/outputs.py
            from gradcli.io.outputs import emit_single

            emit_single(result, output=output, fmt=fmt, raw=raw, json_flag=json_out, saves=save or [],
                        no_color=no_color, console_factory=_console)
            if raw or output:  # the table and JSON carry the warnings; bare numbers and files cannot
                for warning in result.warnings:
                    sys.stderr.write(f"gradcli: warning: {warning}\n")
        elif json_out:
            from gradcli.render import json_out as render_json

            sys.stdout.write(render_json.dumps(render_json.eval_result(result)) + "\n")
        else:
            from gradcli.render.table import print_eval_result

            print_eval_result(result, _console(no_color, color))
        if result.error is not None:
            sys.stderr.write(f"gradcli: error: {result.error}\n")
            if "implicitly created only for scalar outputs" in result.error:
                sys.stderr.write("hint: pass --grad-output VALUE (the gradient= of backward), or reduce the "
                                 "output with .sum() or .mean()\n")
            raise typer.Exit(EXIT_ERROR)
        found = result.disagreements()
        for text in found:
            sys.stderr.write(f"gradcli: error: {text} — this is a gradcli bug\n")
        if found:
            sys.stderr.write("hint: please report it with this command line; --no-strict keeps exit status 0\n")
        if (found and strict is not False) or (strict and produced_non_finite(result)):
            raise typer.Exit(EXIT_NO)


def _assignments(specs, np_dtype, rng, limits, parse_assignment) -> dict:
    from gradcli.safety.errors import InputError

    values = {}
    for spec in specs:
        a = parse_assignment(spec, dtype=np_dtype, rng=rng, limits=limits)
        if a.name in values:
            raise InputError(f"'{a.name}' is given twice", source=spec, span=(0, len(a.name)))
        values[a.name] = a.value
    return values


@app.command("ops")
def ops_command(
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
):
    """List every supported operation with its signature and a one-line description."""
    from gradcli.engine.ops import LINALG, REGISTRY

    entries = []
    for name, spec in sorted(REGISTRY.items()) + sorted(("linalg." + n, s) for n, s in LINALG.items()):
        forms = [f for f, ok in (("torch", spec.torch and not spec.linalg), ("torch.linalg", spec.linalg),
                                 ("F", spec.functional), ("method", spec.method)) if ok]
        entries.append({"name": name, "signature": spec.signature, "description": spec.doc,
                        "category": spec.category, "forms": forms})
    if json_out:
        from gradcli.render import json_out as render_json

        sys.stdout.write(render_json.dumps({"ops": entries}) + "\n")
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, header_style="bold", show_edge=False)
    for col in ("name", "signature", "forms", "description"):
        table.add_column(col)
    for e in entries:  # Text, not markup: "[min, max]" in a description must print
        table.add_row(*map(Text, (e["name"], e["signature"], ", ".join(e["forms"]), e["description"])))
    _console(no_color, color).print(table)


@app.command("run")
def run_command(
    file: Annotated[str, typer.Argument(help="A PyTorch autograd program (.py), or - for standard input.")],
    arg: Annotated[list[str] | None, typer.Option(
        "--arg", metavar="NAME=VALUE", help="Bind a global before the program runs: a plain number as a Python "
                                            "int/float, any other value (list, @file, randn(..)) as a float32 "
                                            "tensor.")] = None,
    debug: DebugOpt = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Wall-time limit of the program, in seconds.",
                                           rich_help_panel="Limits")] = 30.0,
    max_memory: Annotated[int, typer.Option("--max-memory", metavar="MB", rich_help_panel="Limits",
                                            help="Memory the program may take, in MB.")] = 2048,
):
    """Run a PyTorch autograd snippet on gradcli's engine and print what PyTorch would print."""
    with _user_errors(debug):
        from gradcli.run import run_source
        from gradcli.run.checker import check_arguments

        # --arg values and the program are read under the limits too (a FIFO that never ends, a gzip bomb)
        with _guarded(timeout, "reading the program and its --arg values", memory_mb=max_memory,
                      validate=lambda: _valid_run_options(timeout, max_memory)):
            source, name, bindings, limits = _run_inputs(file, arg, timeout, max_memory)
            for warning in check_arguments(source, name, list(bindings)):
                sys.stderr.write(f"gradcli: warning: {warning}\n")
        code = run_source(source, name, stdout=sys.stdout, stderr=sys.stderr, bindings=bindings, limits=limits)
    raise typer.Exit(code)


def _valid_run_options(timeout, max_memory):
    from gradcli.cli.options import check_run

    check_run(timeout=timeout, max_memory=max_memory)


def _run_inputs(file, arg, timeout, max_memory):
    """`gradcli run`'s program text, its name, the --arg bindings and its limits."""
    from pathlib import Path

    from gradcli.cli.options import source_text
    from gradcli.io.inputs import run_arguments
    from gradcli.run import RunLimits
    from gradcli.safety.errors import InputError

    bindings = run_arguments(arg or [], max_elements=RunLimits().max_tensor_elements)
    # at most max_source_chars characters of UTF-8 (4 bytes each) are read: endless stdin is refused, not read
    cap = 4 * RunLimits().max_source_chars

    def capped(stream, name):
        data = stream.read(cap + 1)
        if len(data) > cap:
            raise InputError(f"{name} is longer than {cap:,} bytes, the most a program may have "
                             f"(max_source_chars={RunLimits().max_source_chars:,})")
        return data

    if file == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        source, name = (capped(sys.stdin, "<stdin>") if stdin is None
                        else source_text(capped(stdin, "<stdin>"), "<stdin>")), "<stdin>"
    else:
        path = Path(file)
        if not path.is_file():
            raise InputError(f"no such file: {file}")
        with path.open("rb") as f:
            source, name = source_text(capped(f, file), file), file
    return source, name, bindings, RunLimits(max_seconds=timeout, max_memory_mb=max_memory)


@app.command("check", context_settings={"ignore_unknown_options": True})
def check_command(
    function: Annotated[str, typer.Argument(
        help="The function, in homework notation: x^2 sin(x), 3x e^(2x), ln(x)/x, x^2 + y^2 = 25 ...",
        show_default=False)],
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
        "--timeout", help="Time budget of the whole check (and of each sympy step), in seconds.")] = 5.0,
    json_out: JsonOpt = False,
    no_color: NoColorOpt = False,
    color: ColorOpt = ColorMode.auto,
    debug: DebugOpt = False,
    latex: Annotated[bool, typer.Option("--latex", help="Print the function and derivatives in LaTeX.")] = False,
    steps: Annotated[bool, typer.Option("--steps", help="Also show the derivative step by step, naming each "
                                                       "rule.")] = False,
    plot: Annotated[bool, typer.Option("--plot", help="Also plot f, f' and your answer in the terminal.")] = False,
):
    """Check a derivative: is --expect the derivative of FUNCTION? Without --expect, print the derivative.

    Example: [bold]gradcli check "x^2 sin(x)" --wrt x --expect "2x sin(x) + x^2 cos(x)"[/]
    Exit code 0: correct, 1: incorrect, 2: an error (or undecided).
    """
    def valid_options():
        from gradcli.cli import options

        options.seconds(timeout, "--timeout")

    with _user_errors(debug, json_out), _guarded(timeout, "the check", validate=valid_options):
        from gradcli.homework.check import check_derivative

        report = check_derivative(function, expect or [], wrt=wrt, order=order, at=_point(at), timeout=timeout,
                                  variables=var or (), dependent=dependent, hessian=hessian,
                                  formulas="all" if json_out else "needed")
        data = report.to_dict()
        from gradcli.homework.notation import annotate_check

        annotate_check(report, data, latex=latex, display=not json_out)
        if json_out:
            from gradcli.render import json_out as render_json

            sys.stdout.write(render_json.dumps(data) + "\n")
        else:
            from gradcli.render.symbolic_render import print_check_report

            print_check_report(data, _console(no_color, color))
            if steps:
                from gradcli.homework.steps import print_check_steps

                print_check_steps(report, _console(no_color, color), latex=latex)
            if plot:
                from gradcli.homework.plot import plot_check

                plot_check(report, _console(no_color, color))
    raise typer.Exit(report.exit_code)


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
    debug: DebugOpt = False,
    timeout: TimeoutOpt = _D.max_seconds,
    torch_names: Annotated[bool | None, typer.Option(
        "--torch-names/--no-torch-names", show_default=False,
        help="Show PyTorch's grad_fn names (AddBackward0 ...); default: yes for PyTorch syntax, no for homework "
             "notation.")] = None,
):
    """Show how backward() computed the gradients: the graph with each node's value, incoming gradient and
    local rule, and for scalar functions the chain rule step by step.

    Example: [bold]gradcli explain "x**2 * sin(x)" x=1.5[/]
    """
    expression = expression.strip()  # " -x^2": see _expression_may_start_with_minus
    def valid_options():
        from gradcli.cli import options

        options.check_explain(timeout=timeout, seed=seed)

    with _user_errors(debug, json_out), _guarded(timeout, validate=valid_options):
        import numpy as np

        from gradcli.homework.explain import explain, to_dict
        from gradcli.io.inputs import LazyGenerator, parse_assignment, parse_value

        limits = _limits(_D.max_length, _D.max_depth, _D.max_nodes, _D.max_elements, _D.max_exponent, timeout)
        rng = LazyGenerator(seed)  # numpy.random only if a value asks for it
        f64 = np.dtype("float64")
        inputs = _assignments(assignments or [], f64, rng, limits, parse_assignment)
        consts = _assignments(const or [], f64, rng, limits, parse_assignment)
        gout = None if grad_output is None else parse_value(grad_output, dtype=f64, rng=rng, limits=limits)
        explanation = explain(expression, inputs, consts, grad_output=gout, limits=limits)
        if dot:
            from gradcli.render.explain_render import to_dot

            sys.stdout.write(to_dot(explanation) + "\n")
        elif json_out:
            from gradcli.render import json_out as render_json

            sys.stdout.write(render_json.dumps(to_dict(explanation)) + "\n")
        else:
            from gradcli.render.explain_render import print_explanation

            print_explanation(explanation, _console(no_color, color), torch_names=torch_names)


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
    debug: DebugOpt = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Time budget of the whole command, in seconds.",
                                           rich_help_panel="Limits")] = 30.0,
):
    """Differentiate step by step, naming the rule at each step (sum, product, quotient, chain ...).

    Example: [bold]gradcli steps "x^2 sin x"[/]
    """
    def valid_options():
        from gradcli.cli import options

        options.seconds(timeout, "--timeout")

    with _user_errors(debug), _guarded(timeout, "the derivation", validate=valid_options):
        from gradcli.homework.steps import derive_text, print_derivation

        print_derivation(derive_text(function, wrt, dependent=dependent), _console(no_color, color), latex=latex)


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
        from gradcli.cli import options

        options.seconds(timeout, "--timeout")

    with _user_errors(debug), _guarded(timeout, "the plot", validate=valid_options):
        from gradcli.homework.plot import print_plot, sample, write_image
        from gradcli.io.outputs import check_distinct_files

        check_distinct_files([(f"--png {png}", png), (f"--svg {svg}", svg)])
        data = sample(function, wrt=wrt, start=start, stop=stop, order=order, expect=expect)
        print_plot(data, _console(no_color, color), width=width, height=height)
        for path in (png, svg):
            if path:
                write_image(data, path)
                sys.stdout.write(f"wrote {path}\n")


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
    debug: DebugOpt = False,
    max_elements: MaxElementsOpt = _D.max_elements,
    timeout: Annotated[float, typer.Option("--timeout", help="Wall-time limit of each line, in seconds.",
                                           rich_help_panel="Limits")] = _D.max_seconds,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", metavar="MB", rich_help_panel="Limits",
        help="Memory the session (its bound tensors included) may take beyond its start-up, in MB.")]
    = _D.max_memory_mb,
):
    """An interactive session: x = [1,2,3] binds a tensor, an expression is evaluated as by eval.

    Reads one line at a time from a pipe too ([bold]gradcli repl < session.txt[/]): one answer per line, errors
    on stderr; exit code 0, or 2 if any line failed.  :help lists the session commands.
    """
    def valid_options():
        from gradcli.cli import options

        options.seconds(timeout, "--timeout")
        options.megabytes(max_memory)
        options.count(max_elements, "--max-elements")

    from gradcli.calc.repl import interactive_streams

    # the session runs in a supervised worker under the memory limit; a line stuck in one numpy call past
    # --timeout (or Ctrl-C that it cannot act on) ends the worker from outside (gradcli/guard.py)
    with _user_errors(debug), _guarded(None, "the session", memory_mb=max_memory, validate=valid_options,
                                       interrupts_worker=interactive_streams()):
        from dataclasses import replace

        from gradcli.calc import repl

        limits = replace(_limits(_D.max_length, _D.max_depth, _D.max_nodes, max_elements, _D.max_exponent,
                                 timeout), max_memory_mb=max_memory)
        settings = repl.Settings(json=json_out, check=None if check else False, hessian=hessian,
                                 dtype=dtype.value, seed=seed, limits=limits, debug=debug)
        code = repl.run(settings, _console(no_color, color))
    raise typer.Exit(code)


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@app.command("completion")
def completion_command(shell: Annotated[Shell, typer.Argument(help="bash, zsh or fish.")]):
    """Print the shell completion script: eval "$(gradcli completion bash)" in ~/.bashrc
    (zsh: in ~/.zshrc; fish: gradcli completion fish > ~/.config/fish/completions/gradcli.fish)."""
    from gradcli.cli.terminal import completion_script

    sys.stdout.write(completion_script(shell.value) + "\n")


def _point(specs: list[str] | None) -> dict | None:
    """--at x=1.5 --at y=2 (or x=1.5,y=2) as {name: value}."""
    if not specs:
        return None
    import numpy as np

    from gradcli.io.inputs import parse_assignment
    from gradcli.safety.errors import InputError
    from gradcli.safety.limits import Limits

    point = {}
    for spec in (part for text in specs for part in text.split(",")):
        a = parse_assignment(spec, dtype=np.dtype("float64"), rng=np.random.default_rng(0), limits=Limits())
        if a.value.ndim:
            raise InputError(f"--at needs one number per variable, got {spec}", source=spec)
        if a.name in point:
            raise InputError(f"--at gives '{a.name}' twice", source=spec, span=(0, len(a.name)))
        point[a.name] = float(a.value)
    return point


_EXPRESSION_COMMANDS = frozenset({"eval", "check", "explain", "steps", "plot"})


def _expression_may_start_with_minus(argv: list[str]) -> None:
    """`gradcli eval "-x^2" x=1`: an expression right after the command that starts with a minus is the
    expression, not an unknown option (short options are two characters: -c, -o; `--` works as well).
    A short option glued to its value (`-cz=4`) stays an option: it starts with a short option of the command
    and names a variable before its `=`; "-torch.norm(x, p=2)" does neither.  A leading space makes click take
    it as an argument; the readers strip it."""
    if len(argv) > 2 and argv[1] in _EXPRESSION_COMMANDS:
        text = argv[2]
        if not text.startswith("-") or text.startswith("--") or len(text) <= 2:
            return
        name = text[2:].partition("=")[0]
        glued_option = "=" in text and text[:2] in _short_options(argv[1]) and (name.isidentifier() or not name)
        if not glued_option:
            argv[2] = " " + text


def _short_options(command_name: str) -> set[str]:
    command = typer.main.get_command(app).commands.get(command_name)
    return {opt for param in getattr(command, "params", ()) for opt in (*param.opts, *param.secondary_opts)
            if len(opt) == 2 and opt.startswith("-")}


def main() -> None:
    from gradcli.cli.options import undecodable_argument
    from gradcli.cli.terminal import (
        keep_only_invoked_command,
        plain_help_when_asked,
        prepare_process,
        usage_error_exit_code,
    )
    from gradcli.safety.guard import own_process

    message = undecodable_argument(sys.argv[1:])
    if message is not None:
        sys.stderr.write(message + "\n")
        raise SystemExit(EXIT_ERROR)
    _expression_may_start_with_minus(sys.argv)
    prepare_process()
    keep_only_invoked_command(app, sys.argv[1:])
    plain_help_when_asked(sys.argv[1:])
    own_process()  # one command per process: its limits may end the process (see gradcli/guard.py)
    try:
        code = app(prog_name="gradcli", standalone_mode=False)
    except OSError as err:  # outside any command's own handling (--help, ops, completion): a full disk
        sys.stderr.write(f"gradcli: error: could not complete the command: {err.strerror or err}\n")
        code = EXIT_ERROR
    except Exception as err:  # click's usage errors: gradcli's one-line form, not typer's panel
        code = usage_error_exit_code(err)
        if code is None:
            raise
    sys.exit(code if isinstance(code, int) else 0)


def run() -> None:
    """The `gradcli` program: `main`, then leave without the interpreter's teardown.

    Tearing down typer, numpy and sympy module by module takes longer than the work of a small command
    (~20 ms of a 200 ms `eval`, more with sympy loaded); a command has closed its files and saved its history
    in its own `finally` blocks by now, so only the standard streams are left to flush."""
    import os

    from gradcli.cli.terminal import fill_closed_streams

    fill_closed_streams()
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("text"), as the interpreter would print it
        sys.stderr.write(f"{code}\n")
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError as err:  # e.g. a full disk: say so (a closed pipe ends the process by SIGPIPE instead)
            os.write(2, f"gradcli: error: could not write the output: {err.strerror or err}\n".encode())
            code = code or EXIT_ERROR
    os._exit(code)
