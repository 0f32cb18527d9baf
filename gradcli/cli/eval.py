"""`gradcli eval`: an expression, its values, backward; the table, JSON, files or rows."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import ast
import sys
from typing import Annotated

import numpy as np
import typer

from gradcli.calc.calculator import attach_checks, calculate
from gradcli.calc.rows import check_stdin_once, run_rows_command
from gradcli.cli import options
from gradcli.cli.app import (
    DEFAULTS,
    EXIT_ERROR,
    EXIT_NO,
    BitsOpt,
    ColorMode,
    ColorOpt,
    DebugOpt,
    DType,
    FullOpt,
    JsonOpt,
    MaxDepthOpt,
    MaxElementsOpt,
    MaxExponentOpt,
    MaxLengthOpt,
    MaxNodesOpt,
    NoColorOpt,
    OutFormat,
    ThresholdOpt,
    TimeoutOpt,
    WidthOpt,
    app,
    console,
    guarded,
    kernel_bits,
    limits_from,
    user_errors,
)
from gradcli.engine import dtypes
from gradcli.io.inputs import LazyGenerator, read_values
from gradcli.io.outputs import check_distinct_files, emit_single, input_file
from gradcli.lang.evaluation import produced_non_finite
from gradcli.render import json_out as render_json
from gradcli.render.text import print_options
from gradcli.safety.errors import GradcliError, ParseError
from gradcli.safety.guard import deadline


def _check_after_answer(result, screen, checks: dict, dtype) -> None:
    """The check, run once the answer is on the screen: a transient spinner on a terminal, nothing elsewhere
    (the answer is flushed first, so a pipe gets it at once too)."""
    if checks["check"] is False and not checks["gradcheck"]:
        return
    screen.file.flush()
    if screen.is_terminal:
        with screen.status("checking the gradient: sympy, then numerically if it runs out of time…",
                           spinner="dots"):
            attach_checks(result, first=True, dtype=dtype, **checks)
    else:
        attach_checks(result, first=True, dtype=dtype, **checks)


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
    width: WidthOpt = None,
    full: FullOpt = False,
    threshold: ThresholdOpt = None,
    debug: DebugOpt = False,
    bits: BitsOpt = None,
    max_length: MaxLengthOpt = DEFAULTS.max_length,
    max_depth: MaxDepthOpt = DEFAULTS.max_depth,
    max_nodes: MaxNodesOpt = DEFAULTS.max_nodes,
    max_elements: MaxElementsOpt = DEFAULTS.max_elements,
    max_exponent: MaxExponentOpt = DEFAULTS.max_exponent,
    timeout: TimeoutOpt = DEFAULTS.max_seconds,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", metavar="MB", rich_help_panel="Limits",
        help="Memory the command may take beyond its start-up, in MB.")] = DEFAULTS.max_memory_mb,
    check: Annotated[bool | None, typer.Option(
        "--check/--no-check", show_default=False, rich_help_panel="Checks",
        help="Cross-check the gradients with sympy: --check forces it past --check-limit, --no-check skips it "
             "(default: only for small inputs).")] = None,
    check_limit: Annotated[int, typer.Option(
        "--check-limit", metavar="N", rich_help_panel="Checks",
        help="Run the sympy cross-check by default when the tensors have at most N elements in all.")] = 64,
    check_timeout: Annotated[float | None, typer.Option(
        "--check-timeout", metavar="SECONDS", rich_help_panel="Checks", show_default=False,
        help="CPU time sympy's cross-check may take (and --gradcheck); past it, a 30-digit numeric check "
             "decides. Default: what keeps the whole command within 1 s of CPU (at least 0.1 s).")] = None,
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
        options.check_eval(timeout=timeout, check_timeout=5.0 if check_timeout is None else check_timeout,
                           check_limit=check_limit,
                           max_length=max_length, max_depth=max_depth, max_nodes=max_nodes,
                           max_elements=max_elements, max_exponent=max_exponent, seed=seed, order=order,
                           max_memory=max_memory)
        options.print_threshold(full, threshold)
        options.expression_first("eval", expression, assignments or [])

    expression = expression.strip()  # " -x^2": see expression_may_start_with_minus
    # rows mode bounds each row by --timeout (gradcli/calc/rows.py), not the whole stream

    with user_errors(debug, json_out), guarded(None if rows is not None else timeout, memory_mb=max_memory,
                                                 validate=valid_options), kernel_bits(bits):

        check_distinct_files(
            [("-o " + output if output else "-o", output),
             *((f"--save {spec}", spec.partition("=")[2]) for spec in save or [])],
            [*((spec, input_file(spec.partition("=")[2])) for spec in [*(assignments or []), *(const or [])]),
             *((f"--inputs {path}", path) for path in inputs_files or []),
             ("--rows " + rows if rows else "--rows", rows)])

        limits = limits_from(max_length, max_depth, max_nodes, max_elements, max_exponent, timeout)
        np_dtype = np.dtype(dtype.value)
        rng = LazyGenerator(seed, np_dtype)  # PyTorch's generator after manual_seed(seed); loaded on first draw
        if rows == "-":
            check_stdin_once(rows, [*(assignments or []), *(const or []), f"grad_output={grad_output or ''}"])

        # rows mode times each row, not the stream: the shared values (a FIFO, a gzip bomb) get --timeout here
        with deadline(timeout if rows is not None else None, f"reading the values took longer than {timeout:g} s",
                      hint="raise it with --timeout"):
            values = read_values(assignments or [], const or [], inputs_files or [], grad_output, dtype=np_dtype,
                                 rng=rng, limits=limits)
        fmt = None if out_format is None else out_format.value
        dt = dtypes.by_name(dtype.value)
        if rows is not None:  # rows mode: gradcli/calc/rows.py
            raise typer.Exit(run_rows_command(
                expression, rows, values.inputs, values.consts, values.grad_output, dtype=dt, limits=limits,
                rng=rng, delimiter=delimiter, fail_fast=fail_fast, output=output, fmt=fmt, json_flag=json_out,
                raw=raw, saves=save, check=bool(check), check_timeout=5.0 if check_timeout is None else check_timeout,
                strict=strict))
        table = not (output or fmt or raw or save or json_out)
        checks = {"check": check, "check_limit": check_limit, "check_timeout": check_timeout, "latex": latex,
                  "gradcheck": gradcheck}
        # the table prints the answer as soon as it exists and the check after it; JSON and files wait for both
        try:
            result = calculate(expression, values.inputs, values.consts, grad_output=values.grad_output, dtype=dt,
                               limits=limits, hessian=hessian, jacobian=jacobian, order=order,
                               **({"check": False} if table else checks))
        except ParseError as err:
            spelled = homework_spelling(err, expression, frozenset(values.inputs) | frozenset(values.consts), limits)
            if spelled is not None:
                err.hint = (f"homework notation (2x, sin x) is read by gradcli check, explain and steps; eval reads "
                            f"PyTorch syntax, multiplication and calls written out: {spelled}")
            raise
        if output or fmt or raw or save:  # files and raw output: gradcli/io/outputs.py

            emit_single(result, output=output, fmt=fmt, raw=raw, json_flag=json_out, saves=save or [],
                        no_color=no_color, console_factory=console)
            if raw or output:  # the table and JSON carry the warnings; bare numbers and files cannot
                for warning in result.warnings:
                    sys.stderr.write(f"gradcli: warning: {warning}\n")
        elif json_out:
            sys.stdout.write(render_json.dumps(render_json.eval_result(result)) + "\n")
        else:
            from gradcli.render.table import print_eval_result

            screen = console(no_color, color, width)
            with print_options(options.print_threshold(full, threshold)):
                print_eval_result(result, screen, between=lambda: _check_after_answer(result, screen, checks, dt))
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


def homework_spelling(err: ParseError, expression: str, known: frozenset, limits) -> str | None:
    """The PyTorch spelling of an expression eval could not parse when the homework reader reads it
    (x^2 sin x -> x^2*sin(x)), or None."""
    if err.source != expression or not err.message.startswith("cannot parse"):
        return None
    from gradcli.homework.reading import pytorch_expression  # the homework reader: only on this error's path

    try:
        text, renamed = pytorch_expression(expression, known, limits)
        tree = ast.parse(text, mode="eval")
    except (GradcliError, SyntaxError, ValueError, RecursionError):
        return None
    if any(user != name for user, name in renamed.items()):
        return None
    return ast.unparse(tree).replace(" ** ", "^").replace(" * ", "*")
