"""The typer app every command registers on, and what the commands share: options, the one handler that
turns errors into one line and an exit code, the guard that runs a command under its limits.

Exit codes, as grep and diff: 0 success, 1 a definite "no" (a wrong derivative; autograd disagreeing with an
independent check, a gradcli bug), 2 any error.
"""

# No `from __future__ import annotations` here: typer would evaluate every option's annotation string again
# (typing.get_type_hints) each time it builds a command, ~6 ms of every start-up.
import os
import sys
from contextlib import contextmanager
from enum import Enum
from typing import Annotated

import typer

from gradcli.cli.terminal import make_console
from gradcli.render import json_out as render_json
from gradcli.safety.errors import GradcliError
from gradcli.safety.guard import command
from gradcli.safety.limits import Limits
from gradcli.version import __version__

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
def user_errors(debug: bool, json_errors: bool = False):
    """Turn every failure into one clear message on stderr and exit code 2 (a traceback only with --debug).
    With --json, stdout also gets exactly one object {"error": {"type", "message", "hint", "span"}}."""
    def as_json(kind, message, hint=None, span=None):
        if json_errors:
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


class _NoError(Exception):
    """Matches nothing: the engine's error type when the engine was never loaded."""


def _engine_error() -> type[Exception]:
    """EngineError (PyTorch's message: the user's error, not gradcli's), looked up rather than imported: a
    command that never loaded the engine (`check`) cannot have raised one, and importing the engine would cost
    it numpy's start-up."""
    errors = sys.modules.get("gradcli.engine.errors")
    return errors.EngineError if errors is not None else _NoError


def limits_from(max_length, max_depth, max_nodes, max_elements, max_exponent, timeout):
    return Limits(max_length=max_length, max_depth=max_depth, max_nodes=max_nodes, max_elements=max_elements,
                  max_exponent=max_exponent, max_seconds=timeout)


WALL_BACKSTOP = 10  # check, steps, explain: the wall-time limit is 10 × --timeout (CPU seconds) + 20 s, a backstop
# that only a call stuck in C meets


def guarded(seconds: float | None, what: str = "the evaluation", memory_mb: float | None = None,
             validate=lambda: None, interrupts_worker: bool = False):
    """The whole command under its wall-time and memory limits (see gradcli/safety/guard.py), once its option
    values are known to be valid (`validate` raises a clear error otherwise)."""
    validate()

    return command(seconds, memory_mb=Limits().max_memory_mb if memory_mb is None else memory_mb, what=what,
                   interrupts_worker=interrupts_worker)


def console(no_color: bool, color: str = "auto", width: int | None = None):
    return make_console(getattr(color, "value", color), no_color, width)


DEFAULTS = Limits()  # defaults shown in --help

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
WidthOpt = Annotated[int | None, typer.Option(
    "--width", min=20, max=1000,
    help="Fit the output to N columns (default: the terminal's width, or COLUMNS; piped: unlimited).")]
FullOpt = Annotated[bool, typer.Option(
    "--full", help="Print every element of every tensor, matrices as matrices (torch.set_printoptions("
                   "profile=\"full\")).")]
ThresholdOpt = Annotated[int | None, typer.Option(
    "--threshold", metavar="N", show_default=False,
    help="Summarise a tensor of more than N elements, its edges and min/max/norm (default 1000, as "
         "torch.set_printoptions(threshold=N)).")]
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



class Bits(str, Enum):
    fast = "fast"
    torch = "torch"


BitsOpt = Annotated[Bits | None, typer.Option(
    "--bits", show_default=False,
    help="Elementwise math kernels: fast (numpy's, within the ulps of PyTorch's that docs/deviations.md states; "
         "the default) or torch (PyTorch's own bits, up to ~100x slower on large tensors). Default: "
         "GRADCLI_BITS, else fast (torch for `run`).")]


@contextmanager
def kernel_bits(flag, default: str = "fast"):
    """The command's computation with the kernels --bits (else GRADCLI_BITS, else `default`) asks for; a bad
    GRADCLI_BITS is an error of the command.  The engine is loaded here, by the commands that compute."""
    from gradcli.engine import kernels  # numpy: only the commands that compute

    mode = kernels.mode
    try:
        chosen = mode.parse(getattr(flag, "value", flag)) if flag is not None else mode.from_environment(default)
    except ValueError:
        raise GradcliError(f"GRADCLI_BITS must be 'fast' or 'torch', not {os.environ.get(mode.ENV)!r}",
                           hint="unset it, or set it to fast or torch") from None
    with mode.bits(chosen):
        yield chosen


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"
