"""Terminal conventions: colour, usage errors, completion scripts, broken pipes, non-UTF-8 terminals.

These run `python -m gradcli` in child processes: they are about what the program does to its terminal.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

import pytest

from gradcli.cli.terminal import ascii_text, locale_is_unicode

GRADCLI = [sys.executable, "-m", "gradcli"]
ESC = "\x1b"


def environment(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update({"COLUMNS": "120", **changes})
    return env


def gradcli(*args, input=None, **env):
    return subprocess.run([*GRADCLI, *args], input=input, capture_output=True, text=True, env=environment(**env),
                          timeout=120)


def on_terminal(*args, **env) -> bytes:
    """Run gradcli with stdout on a pseudo-terminal; return what it wrote there."""
    import pty

    primary, secondary = pty.openpty()
    child = subprocess.Popen([*GRADCLI, *args], stdout=secondary, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, env=environment(TERM="xterm-256color", **env))
    os.close(secondary)
    data = b""
    try:
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            data += chunk
    finally:
        child.wait(timeout=120)
        os.close(primary)
    return data


# -- colour -----------------------------------------------------------------------------------------------

EVAL = ("eval", "(x**2).sum()", "x=[1,2,3]", "--no-check")
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@posix_only
def test_a_terminal_gets_bold_and_colour_by_default():
    assert ESC.encode() in on_terminal(*EVAL)  # so that the tests below can fail


@posix_only
@pytest.mark.parametrize("how", ["NO_COLOR", "--no-color", "--color never"])
def test_no_escape_codes_at_all_when_colour_is_off_on_a_terminal(how):
    args, env = (EVAL, {"NO_COLOR": "1"}) if how == "NO_COLOR" else ((*EVAL, *how.split()), {})
    output = on_terminal(*args, **env)
    assert b"14.0" in output and ESC.encode() not in output  # not even bold


@pytest.mark.parametrize("command", [("check", "x^2", "--wrt", "x", "--expect", "2x"), ("explain", "x**2", "x=3"),
                                     ("eval", "(x**2).sum()", "x=[1,2]")])
def test_piped_output_has_no_escape_codes(command):
    done = gradcli(*command)
    assert done.returncode == 0 and done.stdout and ESC not in done.stdout + done.stderr


@posix_only
@pytest.mark.parametrize("args, env", [(("--help",), {"NO_COLOR": "1"}), (("eval", "--help", "--no-color"), {}),
                                       (("check", "--color", "never", "--help"), {})])
def test_help_on_a_terminal_without_colour_has_no_escape_codes(args, env):
    output = on_terminal(*args, **env)
    assert b"Usage" in output and ESC.encode() not in output
    assert ESC.encode() in on_terminal(*args[:1], "--help")  # typer's help is bold otherwise


def test_color_always_colours_even_a_pipe_and_wins_over_no_color():
    assert ESC in gradcli(*EVAL, "--color", "always", NO_COLOR="1").stdout


# -- usage errors -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (("eval", "x", "x=1", "--jsn"), "gradcli: error: no such option: --jsn"),
    (("eval",), "gradcli: error: missing argument 'EXPRESSION'"),
    (("eval", "x", "x=1", "--dtype", "float16"), "gradcli: error: invalid value for '--dtype'"),
    (("eval", "x", "x=1", "--timeout", "soon"), "gradcli: error: invalid value for '--timeout'"),
    (("eval", "x", "x=1", "--color", "purple"), "gradcli: error: invalid value for '--color'"),
    (("check", "x^2", "--order", "0"), "gradcli: error: invalid value for '--order'"),
    (("frobnicate",), "gradcli: error: no such command 'frobnicate'"),
])
def test_usage_errors_are_one_line_with_a_hint_and_exit_2(args, message):
    done = gradcli(*args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines[0].lower().startswith(message.lower()), lines
    assert lines[1].startswith("hint: see gradcli") and lines[1].endswith("--help") and len(lines) == 2
    assert "╭" not in done.stderr and "Usage:" not in done.stderr


@pytest.mark.parametrize("env", [{}, {"NO_COLOR": "1"}])
def test_bare_gradcli_prints_the_help_once(env):
    done = gradcli(**env)
    assert done.returncode == 2 and done.stdout.count("Usage: gradcli") == 1 and done.stdout.count("Commands") == 1
    assert done.stderr == ""


# -- completion -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell):
    done = gradcli("completion", shell)
    assert done.returncode == 0 and "gradcli" in done.stdout and "_GRADCLI_COMPLETE" in done.stdout
    if shell == "bash" and shutil.which("bash"):
        syntax = subprocess.run(["bash", "-n"], input=done.stdout, capture_output=True, text=True)
        assert syntax.returncode == 0, syntax.stderr


def test_the_completion_script_gets_commands_and_options_from_gradcli():
    commands = gradcli(COMP_WORDS="gradcli re", COMP_CWORD="1", _GRADCLI_COMPLETE="complete_bash")
    assert commands.stdout.split() == ["repl"]
    options = gradcli(COMP_WORDS="gradcli eval --no-c", COMP_CWORD="2", _GRADCLI_COMPLETE="complete_bash")
    assert set(options.stdout.split()) == {"--no-color", "--no-check"}


def test_completion_adds_no_import_to_normal_runs():
    # typer itself loads its completion modules; gradcli's completion path must add none (nor the repl)
    probe = ("import sys; sys.argv = ['gradcli', 'eval', 'x*2', 'x=1', '--no-check', '--json']\n"
             "import typer; before = set(sys.modules)\n"
             "from gradcli.cli.main import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in set(sys.modules) - before if 'complet' in m or 'repl' in m))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=environment())
    assert done.stdout.splitlines()[-1] == "[]"


# -- broken pipes -----------------------------------------------------------------------------------------

COMMANDS = {
    "eval": ["eval", "(x**2).sum()", "x=[1,2,3]"],
    "eval --json": ["eval", "(x**2).sum()", "x=[1,2,3]", "--json"],
    "ops": ["ops"],
    "ops --json": ["ops", "--json"],
    "check": ["check", "x^2 sin(x)", "--wrt", "x", "--expect", "2x sin(x)"],  # exit 1 when not piped
    "explain": ["explain", "x**2*sin(x)", "x=1.5"],
    "run": ["run", "examples/seed_1.py"],
    "repl": ["repl"],
    "completion": ["completion", "bash"],
    "--help": ["--help"],
    "eval --help": ["eval", "--help"],
}


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this platform")
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_broken_pipe_ends_quietly_with_the_same_status_everywhere(name):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before gradcli writes a byte, as with `| head -0`
    child = subprocess.Popen([*GRADCLI, *COMMANDS[name]], stdout=write_end, stderr=subprocess.PIPE,
                             stdin=subprocess.PIPE, env=environment(), cwd=root)
    os.close(write_end)
    _, stderr = child.communicate(input=b"x = [1, 2]\n(x**2).sum()\n" if name == "repl" else b"", timeout=120)
    assert child.returncode == -signal.SIGPIPE, stderr  # 141 in the shell, as for cat, grep or sort
    assert stderr == b""  # no traceback, no "Exception ignored"


@pytest.mark.skipif(not shutil.which("bash") or not shutil.which("head"), reason="needs bash and head")
def test_a_broken_pipe_in_the_shell_is_141():
    # 100,000 numbers of JSON: far more than a pipe buffer, so gradcli is still writing when head leaves
    script = (f"{sys.executable} -m gradcli eval 'x*2' 'x=randn(100000)' --json --no-check | head -c 10 >/dev/null;"
              " echo ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=environment())
    assert done.stdout.strip() == "141" and done.stderr == ""


# -- leaving without the interpreter's teardown (gradcli.cli.main.run) ----------------------------------------

def test_everything_written_arrives_before_the_fast_exit():
    # far more than any buffer, to a pipe and to a file: every byte arrives, and the JSON is whole
    import json

    done = gradcli("eval", "(x*2).sum()", "x=arange(200000)", "--json", "--no-check")
    assert done.returncode == 0 and done.stderr == ""
    grad = json.loads(done.stdout)["tensors"]["x"]["grad"]
    assert len(grad) == 200_000 and grad[-1] == 2.0


def test_exit_codes_survive_the_fast_exit(tmp_path):
    assert gradcli("check", "x^2", "--wrt", "x", "--expect", "2x").returncode == 0
    wrong = gradcli("check", "x^2", "--wrt", "x", "--expect", "3x")
    assert wrong.returncode == 1 and "incorrect" in wrong.stdout
    bad = gradcli("eval", "x+", "x=1")
    assert bad.returncode == 2 and bad.stderr.startswith("gradcli: error:")
    with open(tmp_path / "out.json", "w") as out:
        code = subprocess.run([*GRADCLI, "eval", "x*3", "x=2", "--json", "--no-check"], stdout=out,
                              env=environment(), timeout=120).returncode
    assert code == 0 and '"grad": 3.0' in (tmp_path / "out.json").read_text()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("eval", "x*3", "x=2", "--json", "--no-check"), ("eval", "x*3", "x=2"),
                                  ("check", "x^2", "--wrt", "x", "--expect", "2x"), ("ops",), ("--help",),
                                  ("completion", "bash")])
def test_a_full_disk_is_a_one_line_error(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run([*GRADCLI, *args], stdout=full, stderr=subprocess.PIPE, text=True,
                              env=environment(), timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "gradcli: error: could not complete the command: No space left on device\n"


# -- non-UTF-8 terminals ----------------------------------------------------------------------------------

def test_ascii_stand_ins():
    assert ascii_text("∂/∂x_i = 2·x_i") == "d/dx_i = 2*x_i"
    assert ascii_text("✓ ✗ ≠ …") == "ok x != ..."
    assert ascii_text("x² aᶜ⁻¹ x₁ ‖·‖") == "x^2 a^(c-1) x1 norm"
    assert ascii_text("─│┌┴") == "-|++"


@pytest.mark.parametrize("command, expected", [
    (("eval", "(x**2).sum()", "x=[1,2,3]"), "sympy   d/dx_i = 2*x_i   agrees (max |delta| = 0)"),
    (("eval", "x**2", "x=1", "--hessian", "--no-check"), "d^2out/dadb"),
    (("check", "x^2 sin(x)", "--wrt", "x", "--expect", "2x sin(x) + x^2 cos(x)"), "ok correct: d/dx [x^2*sin(x)]"),
    (("check", "x^2", "--wrt", "x", "--expect", "3x"), "x incorrect: d/dx [x^2] != 3*x"),
    (("explain", "x**2*sin(x)", "x=1.5"), "+-- u1 = x ^ 2"),
    (("explain", "x**2*sin(x)", "x=1.5"), "d(x^2)/dx = 2x"),
    (("eval", "(x**2).sum()", "x=randn(2000)", "--no-check"), "norm"),
    (("--help",), "Usage: gradcli"),
])
def test_a_non_utf8_terminal_gets_ascii(command, expected):
    done = subprocess.run([*GRADCLI, *command], capture_output=True, env=environment(LANG="C", LC_ALL="C",
                                                                                     PYTHONIOENCODING="ascii"))
    assert done.returncode in (0, 1), done.stderr
    text = done.stdout.decode("ascii")  # every byte is ASCII
    assert expected in text and b"UnicodeEncodeError" not in done.stderr


@pytest.mark.parametrize("locale", [{"LC_ALL": "C"}, {"LANG": "C"}, {"LC_CTYPE": "POSIX"},
                                    {"LANG": "de_DE.ISO-8859-1"}, {"LANG": "C.UTF-8", "LC_CTYPE": "C"}])
@pytest.mark.parametrize("command, expected", [
    (("check", "x^2 sin(x)", "--wrt", "x", "--expect", "2x sin(x) + x^2 cos(x)"), "ok correct: d/dx [x^2*sin(x)]"),
    (("eval", "(x**2).sum()", "x=[1,2,3]"), "sympy   d/dx_i = 2*x_i   agrees"),
    (("--help",), "Usage: gradcli"),
])
def test_a_c_locale_gets_ascii_though_python_switches_it_to_utf8(locale, command, expected):
    """Python's UTF-8 mode (PEP 538/540) makes stdout UTF-8 under the C locale: the user's locale decides."""
    env = {k: v for k, v in environment().items() if k not in ("LC_ALL", "LC_CTYPE", "LANG", "PYTHONIOENCODING",
                                                                 "PYTHONUTF8")}
    done = subprocess.run([*GRADCLI, *command], capture_output=True, env={**env, **locale}, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    text = done.stdout.decode("ascii")  # every byte is ASCII
    assert expected in text


@pytest.mark.parametrize("locale, unicode", [
    ({}, True), ({"LANG": "C.UTF-8"}, True), ({"LANG": "en_US.utf8"}, True), ({"LANG": "en_US"}, True),
    ({"LANG": "C"}, False), ({"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"}, False),
    ({"LC_ALL": "C.UTF-8", "LANG": "C"}, True), ({"LC_CTYPE": "C", "LANG": "en_US.UTF-8"}, False),
    ({"LC_ALL": "", "LANG": "C"}, False), ({"LANG": "ru_RU.KOI8-R"}, False), ({"LANG": "sr_RS.UTF-8@latin"}, True),
])
def test_the_locale_that_decides_the_character_set(locale, unicode):
    assert locale_is_unicode(locale) is unicode


def test_a_non_utf8_terminal_gets_ascii_errors():
    done = subprocess.run([*GRADCLI, "eval", "x ≠ 1", "x=1"], capture_output=True,
                          env=environment(LANG="C", LC_ALL="C", PYTHONIOENCODING="ascii"))
    assert done.returncode == 2 and done.stderr.decode("ascii").startswith("gradcli: error:")


def test_a_non_utf8_terminal_reading_non_ascii_input_gets_an_error_not_a_crash():
    done = subprocess.run([*GRADCLI, "repl", "--no-check"], input="x = 1\nx * π\nx * 2\n".encode(),
                          capture_output=True, env=environment(LANG="C", LC_ALL="C", PYTHONIOENCODING="ascii"))
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert done.stderr.decode("ascii").startswith("gradcli: error: cannot parse the expression")
    assert "2.0" in done.stdout.decode("ascii")  # the session went on
