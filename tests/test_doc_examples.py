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
`<!-- examples-test: skip (why) -->`; it is reported as skipped, never silently left out.
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
                marker = next((SKIP.search(lines[j]) for j in range(max(k - 2, 0), k) if SKIP.search(lines[j])), None)
                found.append(Example(document, k + 1, _commands(body),
                                     None if marker is None else marker.group(1).strip(" ()—-") or "marked"))
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


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_example_prints_what_the_document_shows(example: Example, tmp_path):
    if example.skip is not None:
        pytest.skip(f"marked in {example.id}: {example.skip}")
    cwd = _scratch(tmp_path)
    env = _environment(tmp_path)
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


def _matches(actual: list[str], expected: list[str]) -> bool:
    """Line by line; a shown line that ends in `...` stands for a longer line that starts with what it shows."""
    return len(actual) == len(expected) and all(
        a == e or (e.endswith("...") and len(e) > 3 and a.startswith(e[:-3].rstrip()))
        for a, e in zip(actual, expected))
