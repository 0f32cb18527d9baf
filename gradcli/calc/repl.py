"""`gradcli repl`: an interactive (or line-by-line) calculator session, like qalc or bc.

    x = [1, 2, 3]          bind a tensor that requires grad (values as eval's NAME=VALUE)
    const z = 4            bind a tensor that does not
    (x**2).sum() * z       evaluate, backward, print exactly as `gradcli eval` prints it
    :help                  the session commands (:hessian, :check on|off, :json, :vars, :del NAME, :quit)

The evaluation, checks and rendering are calc.py's and render/'s, the ones `eval` uses; this module only
keeps the bindings and the settings between lines.  On a terminal: a prompt, readline history
(~/.gradcli_history) and tab completion.  Otherwise: no prompt, one answer per input line, flushed, and the
session ends at end of input with exit code 0, or 2 if any line failed.  On a terminal, as in Python's REPL,
a line stopped by Ctrl-C is not a failed line (exit code 0 if no line failed); from a pipe, Ctrl-C ends the
session with 130.
"""

from __future__ import annotations

import os
import pickle
import re
import select
import signal
import sys
import textwrap
import time
import traceback
from dataclasses import dataclass, field
from difflib import get_close_matches

import numpy as np

from gradcli.calc.calculator import calculate
from gradcli.engine import dtypes, random
from gradcli.engine.errors import EngineError
from gradcli.engine.kernels import mkl
from gradcli.engine.ops import LINALG, REGISTRY
from gradcli.io.inputs import LazyGenerator, check_name, parse_value
from gradcli.lang.parser import parse
from gradcli.render import json_out as render_json
from gradcli.render.text import format_array, format_shape
from gradcli.safety import guard
from gradcli.safety.errors import GradcliError, InputError
from gradcli.safety.guard import deadline
from gradcli.safety.limits import Limits

PROMPT = "gradcli> "
HISTORY_FILE = "~/.gradcli_history"
HISTORY_LENGTH = 1000
EXIT_OK, EXIT_ERROR = 0, 2
EXIT_INTERRUPTED = 130  # a piped session ended by Ctrl-C; on a terminal Ctrl-C stops one line and is no failure
LINE_SLACK = 256  # characters a line may have beyond --max-length: `const NAME = ` before a value

_BINDING = re.compile(r"\s*(const\s+)?([A-Za-z_]\w*)\s*=(?!=)(.*)", re.S)

HELP = (  # (what to type, what it does): the second column wraps under itself at the console's width
    ("NAME = VALUE", "bind a tensor that requires grad: 2, [1,2,3], randn(3,4), @file.npy ..."),
    ("const NAME = VALUE", "bind a tensor that does not require grad (its .grad stays None)"),
    ("EXPRESSION", "evaluate with the bound tensors, run backward() and print as `gradcli eval` does"),
    (":vars", "list the bound tensors"),
    (":del NAME", "forget one"),
    (":check on|off", "the sympy cross-check (on: for small inputs, as eval)"),
    (":hessian [on|off]", "also print the Hessian of a scalar output (no argument: toggle)"),
    (":json [on|off]", "print one JSON object per answer instead of a table (no argument: toggle)"),
    (":help", "this text"),
    ("Ctrl-C", "cancel the line being typed, or stop the line running; the bindings stay"),
    (":quit", "end the session (also Ctrl-D): exit code 0, or 2 if a line failed with an error (a line stopped "
              "by Ctrl-C did not fail)"),
)
HELP_COLUMN = 22


COMMANDS = (":check", ":del", ":help", ":hessian", ":json", ":quit", ":vars")


@dataclass
class Settings:
    json: bool = False
    check: bool | None = None  # None: eval's default (on for small inputs); False: off; True: forced
    hessian: bool = False
    check_limit: int = 64
    check_timeout: float = 5.0
    dtype: str = "float64"
    seed: int = 0
    limits: Limits = field(default_factory=Limits)
    debug: bool = False


class Quit(Exception):
    pass


class Session:
    """The bindings and settings of one session; `handle(line)` answers one line."""

    def __init__(self, settings: Settings, console, *, stdout=None, stderr=None, interactive: bool = False):
        self.settings = settings
        self.console = console
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.interactive = interactive
        self.inputs: dict[str, np.ndarray] = {}  # tensors that require grad
        self.consts: dict[str, np.ndarray] = {}
        self.rng = LazyGenerator(settings.seed, np.dtype(settings.dtype))
        self.failed = False

    # -- one line --------------------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Answer one line; errors are printed (and remembered for the exit code), never raised.
        Raises Quit at :quit; KeyboardInterrupt passes through to the caller."""
        text = line.strip()
        if not text or text.startswith("#"):
            return
        seconds = self.settings.limits.max_seconds
        try:
            with deadline(seconds, f"the line took longer than {seconds:g} s", hint="raise it with --timeout"):
                self._handle(line, text)
        except (Quit, KeyboardInterrupt):
            raise
        except Exception as err:  # any failure of this line; the session goes on
            self.failed = True
            if self.settings.debug:
                traceback.print_exc(file=self.stderr)
            self.stderr.write(error_text(err, self.settings.limits) + "\n")
        self.stdout.flush()

    def _handle(self, line: str, text: str) -> None:
        if text.startswith(":"):
            self.command(text)
            return
        binding = _BINDING.fullmatch(line)
        if binding:
            self.bind(binding.group(2), binding.group(3), const=bool(binding.group(1)), line=line,
                      offset=binding.start(3))
        else:
            self.evaluate(text)

    def bind(self, name: str, value_text: str, *, const: bool, line: str, offset: int) -> None:
        if value_text.strip() in ("-", "@-"):
            raise InputError("standard input is the session itself here", source=line,
                             span=(offset, len(line.rstrip())), hint="read values from a file: x = @values.npy")

        check_name(name, line.rstrip("\n"), start=_BINDING.fullmatch(line).start(2))
        value = parse_value(value_text, dtype=np.dtype(self.settings.dtype), rng=self.rng,
                            limits=self.settings.limits, source=line.rstrip("\n"), offset=offset, typed=const)
        (self.consts if const else self.inputs)[name] = value
        (self.inputs if const else self.consts).pop(name, None)
        if self.interactive:
            kind = "const" if const else "requires grad"
            self._print_value(f"{name} = ", value, f"  {format_shape(value.shape)}, {kind}")

    def evaluate(self, expression: str) -> None:
        settings = self.settings
        bound = {**self.inputs, **self.consts}
        # only the tensors the expression uses take part, as if given to `gradcli eval` on their own
        used = set(parse(expression, settings.limits, known_variables=frozenset(bound)).variables)
        dtype = dtypes.by_name(settings.dtype)
        try:
            result = calculate(expression, {n: v for n, v in self.inputs.items() if n in used},
                               {n: v for n, v in self.consts.items() if n in used}, dtype=dtype,
                               limits=settings.limits, check=settings.check, check_limit=settings.check_limit,
                               check_timeout=settings.check_timeout, hessian=settings.hessian)
        except GradcliError as err:
            if err.message.startswith("no value given for"):
                err.hint = "bind it first, e.g. " + err.message.removeprefix("no value given for ").split(",")[0] \
                    + " = 1.0"
            raise
        print_result(result, self.console, json_out=settings.json, stdout=self.stdout, stderr=self.stderr)
        if result.error is not None:
            self.failed = True

    # -- :commands -------------------------------------------------------------------------------------

    def command(self, text: str) -> None:
        name, _, arg = text.partition(" ")
        arg = arg.strip()
        settings = self.settings
        if arg and name in (":quit", ":q", ":exit", ":help", ":h", ":?", ":vars"):
            raise InputError(f"{name} takes no argument, not '{arg}'", source=text,
                             span=(text.index(arg, len(name)), len(text)))
        if name in (":quit", ":q", ":exit"):
            raise Quit
        if name in (":help", ":h", ":?"):
            for term, text in HELP:  # prose: wrapped between words, under its own column
                self.console.print(textwrap.fill(text, max(self.console.width, 40), initial_indent=term.ljust(
                    HELP_COLUMN), subsequent_indent=" " * HELP_COLUMN, break_long_words=False,
                    break_on_hyphens=False), markup=False, highlight=False, soft_wrap=True)
        elif name == ":vars":
            self.list_vars()
        elif name == ":del":
            if not arg:
                raise InputError(":del needs a name", source=text, hint="for example :del x")
            victims = arg.replace(",", " ").split()
            for victim in victims:  # all or nothing: a bad name leaves every binding in place
                if victim not in self.inputs and victim not in self.consts:
                    raise InputError(f"'{victim}' is not bound", source=text,
                                     span=(text.index(victim), text.index(victim) + len(victim)), hint="see :vars")
            for victim in victims:
                self.inputs.pop(victim, None)
                self.consts.pop(victim, None)
        elif name == ":check":
            choices = {"on": None, "off": False, "force": True}
            if arg not in choices:
                raise InputError(f":check takes on, off or force, not '{arg}'", source=text)
            settings.check = choices[arg]
            self._say(f"cross-check {arg}")
        elif name in (":json", ":hessian"):
            key = name[1:]
            if arg not in ("", "on", "off"):
                raise InputError(f"{name} takes on or off, not '{arg}'", source=text)
            setattr(settings, key, (not getattr(settings, key)) if not arg else arg == "on")
            self._say(f"{key} {'on' if getattr(settings, key) else 'off'}")
        else:
            close = get_close_matches(name, COMMANDS, n=1)
            raise InputError(f"unknown command {name}", source=text, span=(0, len(name)),
                             hint=f"did you mean {close[0]}?" if close else "see :help")

    def list_vars(self) -> None:
        if not (self.inputs or self.consts):
            self._say("no tensors bound yet (x = [1, 2, 3] binds one)")
            return
        for name, value in {**self.inputs, **self.consts}.items():
            kind = "const" if name in self.consts else "requires grad"
            self._print_value(f"{name}  {format_shape(value.shape)}  {kind}  ", value)

    def _print_value(self, head: str, value, tail: str = "") -> None:
        """`head` then the value, a matrix as a matrix: its lines under its first, numpy wrapping at the width."""
        text = format_array(value, linewidth=max(self.console.width - len(head), 20))
        self.console.print(head + text.replace("\n", "\n" + " " * len(head)) + tail, markup=False, highlight=False,
                           soft_wrap=True)

    def _say(self, text: str) -> None:
        """Confirmation and help texts: on a terminal only, so that piped output holds answers alone."""
        if self.interactive:
            self.console.print(text, markup=False, highlight=False)


def print_result(result, console, *, json_out: bool, stdout, stderr) -> None:
    """One answer, as `gradcli eval` prints it: the table (or one JSON object), then backward's error."""
    if json_out:
        stdout.write(render_json.dumps(render_json.eval_result(result)) + "\n")
    else:
        from gradcli.render.table import print_eval_result

        print_eval_result(result, console)
    if result.error is not None:
        stderr.write(f"gradcli: error: {result.error}\n")
        if "implicitly created only for scalar outputs" in result.error:
            stderr.write("hint: reduce the output with .sum() or .mean()\n")


def error_text(err: BaseException, limits: Limits | None = None) -> str:
    """The one-line (+ caret + hint) form every gradcli error takes."""
    if isinstance(err, MemoryError) or (isinstance(err, ImportError) and ("failed to map segment" in str(err)
                                                                        or "annot allocate memory" in str(err))):
        # the session's address-space limit (gradcli/safety/guard.py) refused an allocation; the line's memory is freed
        mb = (limits or Limits()).max_memory_mb
        return (f"gradcli: error: the line needed more than the memory limit of {mb:g} MB\n"
                "hint: use smaller tensors, :del tensors no longer needed, or raise the limit with --max-memory")
    if isinstance(err, GradcliError):
        return err.render()
    if isinstance(err, EngineError):
        return f"gradcli: error: {err}"
    if isinstance(err, RecursionError):
        return "gradcli: error: the expression is nested too deeply"
    return (f"gradcli: internal error: {type(err).__name__}: {err}\n"
            "hint: rerun with --debug for the traceback, and please report it")


# -- the loop ----------------------------------------------------------------------------------------------

def run(settings: Settings, console, *, stdin=None, stdout=None, stderr=None, interactive: bool | None = None) -> int:
    """Read lines until :quit or end of input; return the exit code (0, or 2 if any line failed)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if interactive is None:
        interactive = _isatty(stdin) and _isatty(stdout)
    session = Session(settings, console, stdout=stdout, stderr=stderr, interactive=interactive)
    if interactive:
        return _interactive_loop(session)
    try:
        for line in bounded_lines(stdin, settings.limits, session):
            session.handle(line)
    except Quit:
        pass
    except KeyboardInterrupt:
        stderr.write("gradcli: interrupted\n")
        return EXIT_INTERRUPTED
    return EXIT_ERROR if session.failed else EXIT_OK


def bounded_lines(stdin, limits: Limits, session: Session):
    """The lines of `stdin`, none read past `limits.max_length` (+ room for `const NAME = `): a longer line is
    skipped in pieces and reported, so a line with no end (a 500 MB paste, /dev/zero) never fills memory."""
    cap = limits.max_length + LINE_SLACK
    number = 0
    while True:
        line = stdin.readline(cap + 1)
        if not line:
            return
        number += 1
        if len(line) <= cap or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):  # the rest of the line, a piece at a time
            line = stdin.readline(1 << 16)
        session.failed = True
        session.stderr.write(f"gradcli: error: line {number} is longer than {cap:,} characters\n"
                             "hint: the limit is --max-length (of an expression or value); read large values "
                             "from a file: x = @values.npy\n")
        session.stdout.flush()


def interactive_streams() -> bool:
    """Standard input and output are a terminal: the session is interactive (a prompt, Ctrl-C cancels a line)."""
    return _isatty(sys.stdin) and _isatty(sys.stdout)


def _interactive_loop(session: Session) -> int:
    history = _setup_readline(session)
    # on a real terminal each line runs in a child process: Ctrl-C (or --timeout) inside one long C call (a BLAS
    # product, an einsum) then ends that child, never the session and its bindings
    isolate = hasattr(os, "fork") and _has_fd(session.stdout) and _has_fd(session.stderr)
    session.console.print("gradcli repl: x = [1,2,3] binds a tensor; :help for more, Ctrl-D to leave",
                          markup=False, highlight=False)
    try:
        while True:
            try:
                line = input(PROMPT)
            except EOFError:
                session.stdout.write("\n")
                break
            except KeyboardInterrupt:  # Ctrl-C at the prompt cancels the line
                session.stdout.write("\n")
                continue
            try:
                if isolate:
                    handle_in_child(session, line)
                else:
                    session.handle(line)
            except KeyboardInterrupt:  # Ctrl-C during an evaluation ends that evaluation only
                session.stderr.write("gradcli: interrupted\n")
            except Quit:
                break
    finally:
        if history is not None:
            history()
    return EXIT_ERROR if session.failed else EXIT_OK


def _has_fd(stream) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


_SESSION_MODULES = ("gradcli", "sympy", "mpmath", "rich")  # what a line imports late, imported by the session too


def handle_in_child(session: Session, line: str) -> None:
    """`session.handle(line)` in a forked child, which prints the answer itself and hands back what the line
    changed (bindings, settings, the generator's state, whether it failed, :quit).  Ctrl-C gives the child
    INTERRUPT_GRACE_SECONDS to stop by itself, then ends it; a child still running GRACE_SECONDS past the line's
    --timeout is ended too; either way the session's bindings are as before the line."""
    text = line.strip()
    if not text or text.startswith("#"):
        return
    inputs, consts, modules = dict(session.inputs), dict(session.consts), set(sys.modules)
    session.stdout.flush()
    session.stderr.flush()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the line, then its changes down the pipe; never returns
        os.close(read_end)
        _child_line(session, line, inputs, consts, modules, write_end)
    os.close(write_end)
    seconds = session.settings.limits.max_seconds
    ends = time.monotonic() + seconds + guard.GRACE_SECONDS if seconds and seconds > 0 else None
    data = bytearray()
    outcome = None  # None: finished; "interrupted"; "timeout"
    try:
        while True:
            wait = None if ends is None else max(0.0, ends - time.monotonic())
            if not select.select([read_end], [], [], wait)[0]:
                outcome = "timeout"
                break
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                break
            data += chunk
    except KeyboardInterrupt:
        outcome = "interrupted"
    finally:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot leave the child behind
        try:
            status = _end_child(pid, read_end, interrupted=outcome == "interrupted", kill=outcome == "timeout")
        finally:
            signal.signal(signal.SIGINT, previous)
    if outcome == "interrupted":
        raise KeyboardInterrupt
    if outcome == "timeout":
        session.failed = True
        session.stderr.write(guard.TimeLimit(f"the line took longer than {seconds:g} s",
                                             hint="raise it with --timeout").render() + "\n")
        return
    try:
        changes = pickle.loads(bytes(data))
    except Exception:  # the child died before it could hand its changes back (a crash, the memory cap)
        code = os.waitstatus_to_exitcode(status) if status is not None else None
        if code == EXIT_INTERRUPTED:  # the terminal's Ctrl-C reached the child, which stopped, before the session
            raise KeyboardInterrupt from None  # a line the user stopped, as above: not a failed line (exit 0)
        session.failed = True
        why = f" ({signal.Signals(-code).name})" if code is not None and code < 0 else ""
        session.stderr.write(f"gradcli: error: the line's computation crashed{why}; the session goes on\n")
        return
    _apply_changes(session, changes)


def _child_line(session: Session, line: str, inputs: dict, consts: dict, modules: set, fd: int) -> None:
    code = 0
    try:
        guard.detach_from_supervisor()  # its --timeout is raised here, or the session ends the child
        quit_ = interrupted = False
        try:
            session.handle(line)
        except Quit:
            quit_ = True
        except KeyboardInterrupt:
            interrupted = True
        session.stdout.flush()
        session.stderr.flush()
        if interrupted:
            code = EXIT_INTERRUPTED
            return
        changes = {
            "inputs": {n: v for n, v in session.inputs.items() if inputs.get(n) is not v},
            "consts": {n: v for n, v in session.consts.items() if consts.get(n) is not v},
            "gone": [n for n in (*inputs, *consts) if n not in session.inputs and n not in session.consts],
            "settings": session.settings, "failed": session.failed, "quit": quit_,
            "generator": random.default_state(),
            "modules": [m for m in set(sys.modules) - modules if m.partition(".")[0] in _SESSION_MODULES],
            "mkl": mkl.loaded(),
        }
        payload = memoryview(pickle.dumps(changes, protocol=pickle.HIGHEST_PROTOCOL))
        while payload:
            payload = payload[os.write(fd, payload):]
    except KeyboardInterrupt:  # Ctrl-C after the line, while its changes were written: stopped all the same
        code = EXIT_INTERRUPTED
    except BaseException:  # noqa: BLE001 - nothing of the child may reach the session's loop
        code = 2
    finally:
        os._exit(code)


def _end_child(pid: int, fd: int, *, interrupted: bool, kill: bool):
    """Wait for the child (a Ctrl-C: INTERRUPT_GRACE_SECONDS for it to stop by itself, then SIGKILL; a timeout:
    SIGKILL at once); its wait status."""
    try:
        if kill:
            os.kill(pid, signal.SIGKILL)
        elif interrupted:
            os.kill(pid, signal.SIGINT)  # Ctrl-C typed at the terminal reached it already; `kill -INT` did not
            ends = time.monotonic() + guard.INTERRUPT_GRACE_SECONDS
            while time.monotonic() < ends:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    return status
                time.sleep(0.01)
            os.kill(pid, signal.SIGKILL)
        return os.waitpid(pid, 0)[1]
    except (ChildProcessError, ProcessLookupError):
        return None
    finally:
        os.close(fd)


def _apply_changes(session: Session, changes: dict) -> None:
    for name in changes["gone"]:
        session.inputs.pop(name, None)
        session.consts.pop(name, None)
    for name, value in changes["inputs"].items():
        session.consts.pop(name, None)
        session.inputs[name] = value
    for name, value in changes["consts"].items():
        session.inputs.pop(name, None)
        session.consts[name] = value
    session.settings = changes["settings"]
    session.failed = changes["failed"]
    random.restore_default_state(changes["generator"])
    for module in sorted(changes["modules"]):  # the next line's child starts with them loaded (sympy: once)
        try:
            __import__(module)
        except Exception:  # noqa: BLE001 - only a start-up cost is at stake
            pass
    if changes.get("mkl") and not mkl.loaded():  # the next lines' children find MKL loaded (~0.1 s each)
        mkl.library()  # loading runs no OpenMP region: the children start their own threads (measured, no hang)
    if changes["quit"]:
        raise Quit


def _isatty(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _setup_readline(session: Session):
    """History and tab completion; returns the function that saves the history (None without readline)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return None
    path = os.path.expanduser(HISTORY_FILE)
    try:
        readline.read_history_file(path)
    except (OSError, ValueError):
        pass
    readline.set_history_length(HISTORY_LENGTH)
    readline.set_completer(Completer(session).complete)
    readline.set_completer_delims(" \t\n()[]{},+-*/%@=<>!&|^~:;'\"")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")

    def save():
        try:
            readline.write_history_file(path)
        except OSError:  # not writable: the session simply has no history
            pass

    return save


class Completer:
    """readline's completer: op names, torch./F./linalg. paths, methods after a dot, bound tensors, :commands."""

    def __init__(self, session: Session):
        self.session = session
        self.matches: list[str] = []

    def candidates(self, text: str) -> list[str]:
        if text.startswith(":"):
            return [c for c in COMMANDS if c.startswith(text)]
        head, dot, tail = text.rpartition(".")
        if dot:
            if head in ("torch.linalg", "linalg"):
                pool = LINALG
            elif head in ("torch", "F", "torch.nn.functional"):
                pool = [*REGISTRY, "linalg"] if head == "torch" else [n for n, s in REGISTRY.items() if s.functional]
            else:  # a method on a tensor or an expression
                pool = [n for n, s in REGISTRY.items() if s.method]
            return sorted(f"{head}.{n}" for n in pool if n.startswith(tail))
        names = [*self.session.inputs, *self.session.consts, *REGISTRY, "torch", "F", "const"]
        return sorted({n for n in names if n.startswith(text)})

    def complete(self, text: str, state: int) -> str | None:
        if state == 0:
            try:
                self.matches = self.candidates(text)
            except Exception:  # a completer must never raise into readline
                self.matches = []
        return self.matches[state] if state < len(self.matches) else None
