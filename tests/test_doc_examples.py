"""Every console example in README.md and docs/*.md is run and its printed output compared, so none can go stale.

An example is a fenced block holding lines that start with `$ gradcli`: each `$ ` line is a shell command (with
its `> ` continuation lines), the lines under it, up to the next command, what it prints (standard output and
standard error, as on a terminal).  Commands run one after the other in a scratch directory holding a copy of
examples/, as `bash -c` with this checkout's `gradcli` first on the PATH, piped (so no COLUMNS: the
width a pipe gets, unlimited, unless the example says --width), colour off; values drawn
by randn(...) are the same every run (seed 0, PyTorch's generator).  Only this is normalised: spaces at the ends
of lines (tables pad their last column), blank lines at the end of an output; a shown line that ends in `...`
(a long JSON line) stands for a line that starts with it.  `$ cat FILE` of a file that does
not exist yet shows the file the next commands read: it is written with the lines shown.  `$ echo $?` prints the
previous command's exit status.  A trailing `(exit code N)` line is compared with the exit status.

A block that cannot run here (it times a machine, or writes into the repository) says so just before its fence:
`<!-- examples-test: skip (why) -->`; it is reported as skipped, never silently left out.  A block shown as
on a terminal says so the same way: `<!-- examples-test: columns N -->` runs it with COLUMNS=N;
`<!-- examples-test: terminal -->` runs its one command on a pseudo-terminal of 80 columns, typing each line
shown after a `gradcli> ` prompt when that prompt appears, and compares the whole screen (echo included).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIP = re.compile(r"<!--\s*examples-test:\s*skip\b(.*?)-->")
COLUMNS = re.compile(r"<!--\s*examples-test:\s*columns\s+(\d+)\b.*?-->")
TERMINAL = re.compile(r"<!--\s*examples-test:\s*terminal\b.*?-->")
PROMPT = "gradcli> "
FENCE = re.compile(r"^(```+|~~~+)")
EXIT_CODE = re.compile(r"^\(exit code (\d+)\)$")


@dataclass
class Command:
    text: str
    expected: list[str] = field(default_factory=list)


@dataclass
class Example:
    document: Path
    line: int
    commands: list[Command]
    skip: str | None = None
    columns: int | None = None  # COLUMNS for the block's commands (as on a terminal that wide)
    terminal: bool = False  # its command runs on a pseudo-terminal, the lines after each prompt typed

    @property
    def id(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def examples() -> list[Example]:
    found = []
    for document in DOCUMENTS:
        lines = document.read_text().splitlines()
        k = 0
        while k < len(lines):
            fence = FENCE.match(lines[k])
            if not fence:
                k += 1
                continue
            end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith(fence.group(1))), len(lines))
            body = lines[k + 1:end]
            if any(line.startswith("$ gradcli") for line in body):
                before = lines[max(k - 2, 0):k]
                marker = next((SKIP.search(line) for line in before if SKIP.search(line)), None)
                columns = next((int(COLUMNS.search(line).group(1)) for line in before if COLUMNS.search(line)), None)
                found.append(Example(document, k + 1, _commands(body),
                                     None if marker is None else marker.group(1).strip(" ()—-") or "marked",
                                     columns, any(TERMINAL.search(line) for line in before)))
            k = end + 1
    return found


def _commands(body: list[str]) -> list[Command]:
    commands: list[Command] = []
    for line in body:
        if line.startswith("$ "):
            commands.append(Command(line[2:]))
        elif line.startswith("> ") and commands and not commands[-1].expected:
            commands[-1].text += "\n" + line[2:]
        elif commands:
            commands[-1].expected.append(line)
    return commands


EXAMPLES = examples()


def _normalised(lines: list[str]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def _scratch(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "docs").mkdir()  # a plot written as into the repository's docs/ lands here
    return tmp_path


def _environment(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "PYTHONIOENCODING",
                                                             "LC_ALL", "LC_CTYPE", "COLUMNS", "LINES")}
    env.update(NO_COLOR="1", TERM="dumb", LANG="C.UTF-8", HOME=str(tmp_path),
               PYTHONUNBUFFERED="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    return env


def test_examples_are_found():
    """So that a change to the block format cannot turn this whole test into nothing."""
    assert len(EXAMPLES) >= 20
    assert sum(len(e.commands) for e in EXAMPLES) >= 50


def test_every_example_runs():
    """Issue 29: every `$ gradcli` block is executed (a session at the prompt on a pseudo-terminal, a plot at 80
    columns, a program shown with `$ cat`); a skip marker is for a block that truly cannot run, and none is left."""
    assert [e.id for e in EXAMPLES if e.skip is not None] == []
    assert any(e.terminal for e in EXAMPLES) and any(e.columns for e in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_example_prints_what_the_document_shows(example: Example, tmp_path):
    if example.skip is not None:
        pytest.skip(f"marked in {example.id}: {example.skip}")
    cwd = _scratch(tmp_path)
    env = _environment(tmp_path)
    if example.columns is not None:
        env["COLUMNS"] = str(example.columns)
    if example.terminal:
        assert len(example.commands) == 1, f"{example.id}: a terminal block holds one command"
        command = example.commands[0]
        actual = _normalised(_on_terminal(command.text, command.expected, cwd, env))
        assert _matches(actual, _normalised(command.expected)), f"{example.id}: $ {command.text}\n" + "\n".join(actual)
        return
    status = 0
    for command in example.commands:
        expected = _normalised(command.expected)
        cat = re.fullmatch(r"cat (\S+)", command.text)
        if cat and not (cwd / cat.group(1)).exists():  # the file the next commands read
            (cwd / cat.group(1)).write_text("\n".join(expected) + "\n")
            continue
        if command.text == "echo $?":
            assert expected == [str(status)], f"{example.id}: $ echo $?"
            continue
        done = subprocess.run(["bash", "-c", command.text], cwd=cwd, env=env, capture_output=False,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
        status = done.returncode
        actual = _normalised(done.stdout.decode("utf-8", "replace").splitlines())
        shown = EXIT_CODE.match(expected[-1]) if expected else None
        if shown:
            assert status == int(shown.group(1)), f"{example.id}: $ {command.text}: exit status {status}"
            expected = _normalised(expected[:-1])
        assert _matches(actual, expected), f"{example.id}: $ {command.text}\n" + "\n".join(actual)


def _on_terminal(command: str, shown: list[str], cwd: Path, env: dict) -> list[str]:
    """The screen of `command` run on a pseudo-terminal of 40 x 80 with each line shown after a prompt typed
    once the prompt appears: its lines, escape sequences dropped."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    import time

    typed = [line[len(PROMPT):] for line in shown if line.startswith(PROMPT)]
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))

    def controlling_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdin=secondary, stdout=secondary,
                             stderr=secondary, close_fds=True, start_new_session=True,
                             preexec_fn=controlling_terminal)
    os.close(secondary)
    screen = bytearray()

    def read_until(token: bytes, seconds: float = 120.0) -> None:
        start, ends = len(screen), time.monotonic() + seconds
        while token not in screen[start:] and time.monotonic() < ends:
            if select.select([primary], [], [], 0.1)[0]:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:  # the child closed the terminal
                    return
                if not chunk:
                    return
                screen.extend(chunk)
            elif child.poll() is not None:
                return

    try:
        read_until(PROMPT.encode())
        for line in typed:
            os.write(primary, line.encode() + b"\n")
            read_until(PROMPT.encode())
        child.wait(timeout=60)
        read_until(b"\x00", 0.5)  # what is left
    finally:
        if child.poll() is None:
            child.kill()
        os.close(primary)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.decode("utf-8", "replace")).replace("\r\n", "\n")
    return [line.rsplit("\r", 1)[-1] for line in text.split("\n")]


def _matches(actual: list[str], expected: list[str]) -> bool:
    """Line by line; a shown line that ends in `...` stands for a longer line that starts with what it shows."""
    return len(actual) == len(expected) and all(
        a == e or (e.endswith("...") and len(e) > 3 and a.startswith(e[:-3].rstrip()))
        for a, e in zip(actual, expected))
