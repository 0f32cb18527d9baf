"""The `gradcli` program: argv in, one command run, an exit code out.

Only the invoked command's module is imported (typer inspects every registered command before it runs one,
and each command module imports its feature): COMMANDS names them, `gradcli.cli.commands` registers them all
for --help, a misspelt command and shell completion.
"""

import importlib
import os
import sys

import typer

from gradcli.cli.app import EXIT_ERROR, app
from gradcli.cli.options import undecodable_argument
from gradcli.cli.terminal import (
    COMPLETE_VAR,
    fill_closed_streams,
    plain_help_when_asked,
    prepare_process,
    usage_error_exit_code,
)
from gradcli.safety.guard import own_process

COMMANDS = ("eval", "check", "explain", "steps", "plot", "run", "repl", "ops", "completion")


def load_commands(argv: list[str]) -> None:
    """Register the command argv names (every command when it names none, or for shell completion)."""
    if argv and argv[0] in COMMANDS and not os.environ.get(COMPLETE_VAR):
        importlib.import_module(f"gradcli.cli.{argv[0]}")
    else:
        importlib.import_module("gradcli.cli.commands")


_EXPRESSION_COMMANDS = frozenset({"eval", "check", "explain", "steps", "plot"})


def expression_may_start_with_minus(argv: list[str]) -> None:
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
        glued_option = "=" in text and text[:2] in short_options(argv[1]) and (name.isidentifier() or not name)
        if not glued_option:
            argv[2] = " " + text


def short_options(command_name: str) -> set[str]:
    command = typer.main.get_command(app).commands.get(command_name)
    return {opt for param in getattr(command, "params", ()) for opt in (*param.opts, *param.secondary_opts)
            if len(opt) == 2 and opt.startswith("-")}


def main() -> None:
    message = undecodable_argument(sys.argv[1:])
    if message is not None:
        sys.stderr.write(message + "\n")
        raise SystemExit(EXIT_ERROR)
    load_commands(sys.argv[1:])
    expression_may_start_with_minus(sys.argv)
    prepare_process()
    plain_help_when_asked(sys.argv[1:])
    own_process()  # one command per process: its limits may end the process (see safety/guard.py)
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
