"""Rows mode echoes text columns byte for byte (issue 17): bytes that are not UTF-8 go out as they came in
(they became U+FFFD), a NUL byte fails its row instead of being copied raw, and quoted fields round-trip
through Python's csv module (hypothesis over generated text)."""

from __future__ import annotations

import csv
import io
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GRADCLI = [sys.executable, "-m", "gradcli"]


def rows(data: bytes, *extra) -> subprocess.CompletedProcess:
    return subprocess.run([*GRADCLI, "eval", "x*2", "--rows", "-", "--no-check", *extra], input=data,
                          capture_output=True, timeout=60)


def test_invalid_utf8_is_echoed_byte_for_byte():
    result = rows(b"name,x\ncaf\xe9,1\n\xff\xfe,2\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split(b"\n")
    assert lines[1] == b"caf\xe9,1,2.0,2.0,"
    assert lines[2] == b"\xff\xfe,2,4.0,2.0,"


def test_invalid_utf8_survives_into_a_file(tmp_path):
    out = tmp_path / "out.csv"
    assert rows(b"name,x\ncaf\xe9,1\n", "-o", str(out)).returncode == 0
    assert out.read_bytes().split(b"\n")[1] == b"caf\xe9,1,2.0,2.0,"


def test_nul_byte_fails_its_row_and_is_not_copied():
    result = rows(b"name,x\nok,1\nn\x00l,2\n")
    assert result.returncode == 2
    assert b"\x00" not in result.stdout and b"\x00" not in result.stderr
    table = list(csv.reader(io.StringIO(result.stdout.decode())))
    assert table[1] == ["ok", "1", "2.0", "2.0", ""]
    assert table[2][0] == "n\\0l" and "NUL byte" in table[2][-1]


TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r\n\x85\u2028\u2029"
                                      "\x0b\x0c\x1c\x1d\x1e"), max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=5))
def test_quoted_fields_round_trip(values):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["name", "x", "note"])
    for i, (name, note) in enumerate(values):
        writer.writerow([name, i, note])
    result = rows(buffer.getvalue().encode())
    assert result.returncode == 0, result.stderr
    table = list(csv.reader(io.StringIO(result.stdout.decode(), newline="")))
    assert [row[0] for row in table[1:]] == [name for name, _ in values]
    assert [row[2] for row in table[1:]] == [note for _, note in values]
    assert [float(row[3]) for row in table[1:]] == [2.0 * i for i in range(len(values))]
