"""Terminal conventions shared by every command: colour, broken pipes, non-UTF-8 terminals, usage errors.

Imports nothing heavy at module level (it runs on every start-up); rich is imported only to build a console.
"""

from __future__ import annotations

import codecs
import errno
import os
import signal
import sys

from gradcli.render.ascii import ASCII_FALLBACKS, ascii_fallback, ascii_text  # noqa: F401 - shared here

COLOR_CHOICES = ("auto", "always", "never")
COMPLETE_VAR = "_GRADCLI_COMPLETE"  # set by the completion scripts when they call gradcli

class ClosedStream:
    """Stands in for a standard stream the process was started without (`>&-`, `2>&-`, `<&-`): using it
    raises OSError "standard output is closed", which the commands report as any other system failure
    (exit 2), so no traceback and no exit code changes its meaning."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, name: str):
        self.name = name
        self.buffer = self

    def _closed(self, *args, **kwargs):
        raise OSError(errno.EBADF, f"standard {self.name} is closed")

    write = read = readline = readlines = writelines = fileno = _closed

    def __iter__(self):
        self._closed()

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return self.name == "input"

    def writable(self) -> bool:
        return self.name != "input"


def fill_closed_streams() -> None:
    """A standard file descriptor that is closed gets /dev/null underneath (so no file gradcli opens later
    takes its number and receives what was meant for the terminal), and sys.stdin/stdout a ClosedStream;
    a closed stderr simply discards messages, so the exit code still tells the outcome."""
    for fd, name, word in ((0, "stdin", "input"), (1, "stdout", "output"), (2, "stderr", "error")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        if name == "stderr":
            sys.stderr = open(fd, "w", closefd=False)  # noqa: SIM115 - lives as long as the process
        else:
            setattr(sys, name, ClosedStream(word))


def _encode_fallback(err: UnicodeError):
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return ascii_text(err.object[err.start:err.end]), err.end


def install_ascii_fallback(*streams, environ=None) -> None:
    """Streams whose encoding cannot carry ∂, · or ✓ print ASCII stand-ins instead of raising
    UnicodeEncodeError, and so do streams of a user whose locale says the terminal is not UTF-8
    (LC_ALL=C, LANG=C, LC_CTYPE=POSIX, a Latin-1 locale): Python's UTF-8 mode turns the C locale's streams
    into UTF-8 ones, so their encoding alone does not tell.  Other streams are left untouched."""
    try:
        codecs.lookup_error("gradcli-ascii")
    except LookupError:
        codecs.register_error("gradcli-ascii", _encode_fallback)
    ascii_locale = not locale_is_unicode(user_locale_environment() if environ is None else environ)
    for stream in streams:
        if _cannot_encode(stream):
            stream.reconfigure(errors="gradcli-ascii")
        elif ascii_locale and hasattr(stream, "reconfigure") and not isinstance(stream, ClosedStream):
            stream.reconfigure(encoding="ascii", errors="gradcli-ascii")


_LOCALE_VARS = ("LC_ALL", "LC_CTYPE", "LANG")


def user_locale_environment() -> dict:
    """The locale variables as the user set them.  Python's start-up replaces a C locale's LC_CTYPE by
    C.UTF-8 in os.environ (PEP 538), so on Linux they are read from the environment the process was started
    with (/proc/self/environ); elsewhere from os.environ, a LC_CTYPE=C.UTF-8 that Python set itself (it then
    runs in UTF-8 mode unasked) not counted."""
    try:
        with open("/proc/self/environ", "rb") as f:
            pairs = (item.partition(b"=") for item in f.read().split(b"\0"))
            return {k.decode(errors="replace"): v.decode(errors="replace") for k, _, v in pairs
                    if k.decode(errors="replace") in _LOCALE_VARS}
    except OSError:
        pass
    found = {name: os.environ[name] for name in _LOCALE_VARS if name in os.environ}
    coerced = sys.flags.utf8_mode and not os.environ.get("PYTHONUTF8") and "utf8" not in sys._xoptions
    if coerced and found.get("LC_CTYPE") == "C.UTF-8" and not found.get("LC_ALL"):
        found["LC_CTYPE"] = "C"
    return found


def locale_is_unicode(environ) -> bool:
    """Does the user's locale (LC_ALL, else LC_CTYPE, else LANG, as the C library reads them) name a
    UTF-8 character set?  C and POSIX do not, nor does a locale with another codeset (en_US.ISO-8859-1).
    A locale that names no codeset (en_US), or none set at all, is left to the stream's own encoding."""
    for name in _LOCALE_VARS:
        value = environ.get(name, "")
        if not value:
            continue
        value = value.partition("@")[0]
        if value in ("C", "POSIX"):
            return False
        codeset = value.partition(".")[2].lower().replace("-", "").replace("_", "")
        return codeset in ("", "utf8")
    return True


def _cannot_encode(stream) -> bool:
    """Is `stream` a text stream whose encoding lacks gradcli's symbols (ASCII, Latin-1 ...)?"""
    encoding = getattr(stream, "encoding", None)
    if not encoding or not hasattr(stream, "reconfigure"):
        return False
    try:
        "∂·✓─".encode(encoding)
    except UnicodeEncodeError:
        return True
    except LookupError:
        return False
    return False


def prepare_process() -> None:
    """Start-up of the `gradcli` program (not of in-process uses such as tests).

    A broken pipe (`gradcli ... | head -1`) ends the process the way it ends cat, grep and sort: killed by
    SIGPIPE, silently, exit status 141 (128 + 13) in the shell, for every command and at any moment
    (also while typer prints --help, or when Python flushes stdout at exit).  gradcli holds no sockets,
    so the default disposition has no other effect."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if hasattr(signal, "SIGXFSZ"):  # past a file-size limit (ulimit -f) a write fails with EFBIG instead of
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # killing the process: one error line, no half file
    install_ascii_fallback(sys.stdout, sys.stderr)
    if _cannot_encode(sys.stdin):  # non-ASCII input on such a terminal: U+FFFD, which the parsers reject clearly
        sys.stdin.reconfigure(errors="replace")
    if os.environ.get(COMPLETE_VAR):  # a completion script asks for completions: register typer's shells
        from typer.completion import completion_init

        completion_init()


def plain_help_when_asked(argv: list[str]) -> None:
    """typer prints --help through its own rich console, which under NO_COLOR drops colours but keeps bold:
    with colour off, give it no colour system at all (typer.rich_utils is imported only for help)."""
    asking_help = not argv or "--help" in argv or "-h" in argv
    color_off = (bool(os.environ.get("NO_COLOR")) and "always" not in argv and "--color=always" not in argv) \
        or "--no-color" in argv or "--color=never" in argv or \
        any(a == "--color" and b == "never" for a, b in zip(argv, argv[1:]))
    if asking_help and color_off:
        from typer import rich_utils

        rich_utils.COLOR_SYSTEM = None


def wants_color(color: str = "auto", no_color: bool = False, stream=None) -> bool:
    """--color always|never|auto: auto means colour only on a terminal and only without NO_COLOR
    (https://no-color.org: set and not empty); --no-color is --color never; an explicit
    --color always wins over NO_COLOR, as a command-line flag should."""
    if color == "always":
        return True
    if color == "never" or no_color:
        return False
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def make_console(color: str = "auto", no_color: bool = False, width: int | None = None):
    """A rich console for stdout.  Without colour it has no colour system at all, so not even bold or dim
    reach the output: no escape codes whatsoever.  Its width: --width when given, else COLUMNS when set, else
    the terminal's; piped without either, wide enough not to fold rows (160 columns at least)."""
    from rich.console import Console

    colored = wants_color(color, no_color)
    console = Console(color_system="auto" if colored else None, force_terminal=True if color == "always" else None,
                      no_color=False, highlight=False, soft_wrap=False, emoji=False, width=width)
    if width is None and not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console.width = max(console.width, 160)  # piped output: do not fold rows at 80 columns
    return console


def usage_error_exit_code(err: BaseException) -> int | None:
    """click's usage errors (unknown option, missing argument, bad value) in gradcli's one-line form on
    stderr, instead of typer's boxed panel.  Returns the exit code, or None if `err` is not click's."""
    import typer

    try:
        from typer._click import exceptions  # typer >= 0.28 vendors click
    except ImportError:  # pragma: no cover - older typer
        from click import exceptions

    if isinstance(err, typer.Abort):
        sys.stderr.write("gradcli: interrupted\n")
        return 130
    if not isinstance(err, exceptions.ClickException):
        return None
    ctx = getattr(err, "ctx", None)
    if type(err).__name__ == "NoArgsIsHelpError" and ctx is not None:
        # the error was made from ctx.get_help(), which in rich mode has printed the help already and returned
        # "" (calling it again printed the help twice); in plain mode it returned the text, printed here
        text = err.format_message()
        if text.strip():
            sys.stdout.write(text.rstrip("\n") + "\n")
        return 2
    message = err.format_message().strip().removesuffix(".")
    message = message[:1].lower() + message[1:] if message[:2] != message[:2].upper() else message
    lines = [f"gradcli: error: {message}"]
    if isinstance(err, exceptions.UsageError):
        command = ctx.command_path if ctx is not None else "gradcli"
        lines.append(f"hint: see {command} --help")
    sys.stderr.write("\n".join(lines) + "\n")
    return 2 if isinstance(err, exceptions.UsageError) else err.exit_code


def completion_script(shell: str) -> str:
    """typer's completion script for `shell`.  The script asks `gradcli` itself for completions
    (_GRADCLI_COMPLETE=complete_bash gradcli ...), so it always knows the current commands and options; the
    completion code is imported only on those calls, never on normal runs."""
    from typer._completion_shared import get_completion_script

    return get_completion_script(prog_name="gradcli", complete_var=COMPLETE_VAR, shell=shell)
