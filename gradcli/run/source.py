"""`gradcli run`'s inputs: the program text (capped before it is read in full) and its --arg bindings."""

from __future__ import annotations

import sys
from pathlib import Path

from gradcli.io.inputs import run_arguments
from gradcli.run.limits import RunLimits
from gradcli.safety.errors import InputError


def read_program(file, arg, timeout, max_memory):
    """`gradcli run`'s program text, its name, the --arg bindings and its limits."""
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


def source_text(data: bytes, name: str) -> str:
    """A program file's bytes as text: UTF-8, with or without a byte-order mark (as Python reads files)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{name} is not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})",
                         hint="gradcli run reads Python source as UTF-8") from None
