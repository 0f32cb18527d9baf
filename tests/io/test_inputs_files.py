"""Values from files and streams: every format, strict text, size gates before reading, clear errors.

Expected arrays are written by the tests themselves (np.save, json, text they compose), never taken from
gradcli; every error case asserts the exit code and the message, and that no "internal error" appears.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.io import inputs as inputs_module
from gradcli.io.inputs import max_input_bytes, parse_value, read_inputs_file
from gradcli.safety.errors import InputError
from gradcli.safety.limits import Limits

F64 = np.dtype(np.float64)
runner = CliRunner()


def value(text, stdin=None, **limits):
    return parse_value(text, dtype=F64, rng=np.random.default_rng(0), limits=Limits(**limits), stdin=stdin)


def file_value(path, **limits):
    return value(f"@{path}", **limits)


def error_of(text, stdin=None, **limits) -> str:
    with pytest.raises(InputError) as info:
        value(text, stdin=stdin, **limits)
    return info.value.message


def cli(*args, input=None):
    result = runner.invoke(app, list(args), input=input)
    assert "internal error" not in result.output and "Traceback" not in result.output
    return result


def cli_json(*args, input=None):
    result = cli(*args, "--json", "--no-check", input=input)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -- strict text: nothing is silently dropped --------------------------------------------------------------

@pytest.mark.parametrize("text,message", [
    ("1,,3\n", "line 1, column 2: empty field"),
    ("1,2,3,\n", "line 1, column 4: empty field"),
    (",1\n", "line 1, column 1: empty field"),
    ("# header comment\n1,2,3\n\n4,5\n", "line 4 has 2 values, line 2 has 3 (ragged rows)"),
    ("1 2 3\n4 5\n", "line 2 has 2 values, line 1 has 3 (ragged rows)"),
    ("1,2\n3,x\n", "line 2, column 2: 'x' is not a number"),
    ("1,2\n  \n3\n", "line 3 has 1 values, line 1 has 2 (ragged rows)"),
    ("1,2\n , \n", "line 2, column 1: empty field"),
    ("a,b\n1,2\n", "line 1 is a header (a, b), not numbers"),
    ("1,b\n1,2\n", "line 1, column 2: 'b' is not a number"),
    ("1 2 3\n4,5,6\n", "line 2, column 1: '4,5,6' is separated by commas, the first line by whitespace"),
    ("1,2,3\n4 5 6\n", "line 2, column 1: '4 5 6' is separated by spaces, the first line by commas"),
    ("1 2 # a, b\n3 4\n", None),
    ("1,0x10\n", "line 1, column 2: '0x10' is not a number"),
    ("1,1_000\n", "line 1, column 2: '1_000' is not a number"),
])
def test_text_values_are_strict_and_errors_name_line_and_column(tmp_path, text, message):
    path = tmp_path / "v.txt"
    path.write_text(text)
    if message is None:  # a comma in a comment does not make a comma-separated file
        np.testing.assert_array_equal(file_value(path), [[1.0, 2.0], [3.0, 4.0]])
        return
    with pytest.raises(InputError) as info:
        file_value(path)
    assert info.value.message == f"cannot read {path}: {message}"


def test_empty_csv_field_is_an_error_on_the_command_line(tmp_path):
    """Before: `1,,3` became [1, 3] and the gradient of the wrong tensor was printed with exit 0."""
    path = tmp_path / "x.csv"
    path.write_text("1,,3\n")
    result = cli("eval", "x.sum()", f"x=@{path}", "--no-check")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == f"gradcli: error: cannot read {path}: line 1, column 2: empty field"
    assert result.stdout == ""


def test_tsv_empty_field_is_an_error_not_a_merged_separator(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("1\t\t3\n")
    assert "line 1, column 2: empty field" in error_of(f"@{path}")
    path.write_text("1\t2\t3\n4\t5\t6\n")
    np.testing.assert_array_equal(file_value(path), [[1, 2, 3], [4, 5, 6]])


@pytest.mark.parametrize("text,expected", [
    ("7\n", 7.0),
    ("1 2 3\n", [1.0, 2.0, 3.0]),
    ("1\n2\n3\n", [1.0, 2.0, 3.0]),
    ("# a comment\n1, 2\n\n3 ,4  # trailing comment\n", [[1.0, 2.0], [3.0, 4.0]]),
    ("1\t2\n3   4\r\n", [[1.0, 2.0], [3.0, 4.0]]),
    ("1,2\r3,4\r5,6\r", [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    ("1,2\n   \n3,4\n \t\n", [[1.0, 2.0], [3.0, 4.0]]),
    ("1 2\r\n3 4\r\n5 6", [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    ("nan,inf,-inf,-1.5e-3,+2,.5\n", [np.nan, np.inf, -np.inf, -1.5e-3, 2.0, 0.5]),
])
def test_text_shapes_and_numbers(tmp_path, text, expected):
    path = tmp_path / "v.txt"
    path.write_text(text)
    np.testing.assert_array_equal(file_value(path), np.asarray(expected, dtype=np.float64))


def test_text_value_is_exact_at_full_precision(tmp_path):
    numbers = np.random.default_rng(3).standard_normal(50) * 1e-300
    path = tmp_path / "v.csv"
    path.write_text(",".join(repr(float(v)) for v in numbers) + "\n")
    np.testing.assert_array_equal(file_value(path), numbers)


def test_error_quotes_only_a_short_excerpt_of_a_bad_file(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("1 " + "z" * 100_000 + "\n")
    message = error_of(f"@{path}")
    assert "line 1, column 2" in message and len(message) < 200 + len(str(path))


def test_endless_binary_stream_is_refused_at_its_first_chunk():
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    assert error_of("@/dev/zero") == "/dev/zero is a binary file, not .npy, .npz, JSON or text"


def test_array_from_decoded_json_for_ndjson_rows():
    got = inputs_module.array_from_json([[1, 2.5], ["inf", 3]], dtype=F64, limits=Limits())
    np.testing.assert_array_equal(got, [[1.0, 2.5], [np.inf, 3.0]])
    assert inputs_module.array_from_json(4, dtype=F64, limits=Limits()).shape == ()
    for bad in (None, True, [1, None], [[1], [1, 2]], {"a": 1}, [10**400], "1"):
        with pytest.raises(InputError):
            inputs_module.array_from_json(bad, dtype=F64, limits=Limits())


def test_proc_environ_is_refused_without_quoting_it():
    if not os.path.exists("/proc/self/environ"):
        pytest.skip("no /proc")
    message = error_of("@/proc/self/environ")
    assert message == "/proc/self/environ is a binary file, not .npy, .npz, JSON or text"


# -- size gates, before reading ----------------------------------------------------------------------------

def test_file_over_the_size_gate_is_refused_before_it_is_read(tmp_path):
    limits = Limits(max_elements=10)
    path = tmp_path / "big.txt"
    with open(path, "wb") as f:  # sparse: the size says too large; reading it would find only zero bytes
        f.truncate(max_input_bytes(limits) + 1)
    message = error_of(f"@{path}", max_elements=10)
    assert message.startswith(f"{path} is larger than {max_input_bytes(limits):,} bytes")


def test_stream_over_the_size_gate_is_refused_while_reading():
    limits = Limits(max_elements=10)
    stream = io.BytesIO(b"1 " * max_input_bytes(limits))
    assert error_of("-", stdin=stream, max_elements=10).startswith("standard input is larger than")


def test_text_with_more_numbers_than_the_limit_is_refused(tmp_path):
    path = tmp_path / "v.txt"
    path.write_text("1\n" * 11)
    assert error_of(f"@{path}", max_elements=10) == f"{path} holds more than 10 numbers"
    path.write_text("1 " * 11)
    assert error_of(f"@{path}", max_elements=10) == f"{path} holds more than 10 numbers"
    path.write_text("1\n" * 10)
    assert file_value(path, max_elements=10).shape == (10,)


def test_gzip_bomb_stops_at_the_decompressed_size_gate(tmp_path):
    limits = Limits(max_elements=1000)
    path = tmp_path / "bomb.txt.gz"
    path.write_bytes(gzip.compress(b" " * 50_000_000))  # ~50 kB that would decompress to 50 MB
    assert path.stat().st_size < max_input_bytes(limits)
    assert error_of(f"@{path}", max_elements=1000).startswith(f"{path} (decompressed) is larger than")


def test_json_with_too_many_numbers_is_refused_before_parsing(tmp_path):
    path = tmp_path / "v.json"
    path.write_text(json.dumps([0] * 100))
    assert error_of(f"@{path}", max_elements=10) == f"{path} holds more than 10 numbers"


# -- .npy and .npz ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("array", [
    np.arange(6.0).reshape(2, 3), np.asfortranarray(np.arange(6.0).reshape(2, 3)), np.array(2.5),
    np.arange(4, dtype=">f4"), np.arange(5, dtype=np.int32), np.array([True, False]), np.zeros((0, 3)),
])
def test_npy_files(tmp_path, array):
    path = tmp_path / "a.npy"
    np.save(path, array)
    got = file_value(path)
    assert got.dtype == np.float64 and got.shape == array.shape
    np.testing.assert_array_equal(got, array.astype(np.float64))


class _Touch:
    """Unpickling this creates a file: proof that a value file is never unpickled."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return pathlib.Path.touch, (pathlib.Path(self.path),)


def test_npy_with_objects_is_refused_and_never_unpickled(tmp_path):
    marker, path = tmp_path / "unpickled", tmp_path / "o.npy"
    np.save(path, np.array([_Touch(marker)], dtype=object), allow_pickle=True)
    assert error_of(f"@{path}") == f"{path} holds Python objects (dtype object), not numbers"
    assert not marker.exists()


def _npy_header(shape, descr="<f8") -> bytes:
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(stream, {"descr": descr, "fortran_order": False, "shape": shape})
    return stream.getvalue()


def test_npy_size_is_checked_from_its_header_before_its_data(tmp_path):
    path = tmp_path / "huge.npy"
    path.write_bytes(_npy_header((10**12,)) + b"\0" * 16)  # claims 8 TB, holds 16 bytes
    assert error_of(f"@{path}") == f"{path} has 1000000000000 elements; the limit is 50000000"


@pytest.mark.parametrize("data,message", [
    (_npy_header((4,)) + b"\0" * 16, "is truncated: its header announces 32 bytes of data, it holds 16"),
    (_npy_header((2,), "<c16") + b"\0" * 32, "does not hold real numbers (dtype complex128)"),
    (b"\x93NUMPY\x01\x00garbage", "is not a valid .npy file"),
])
def test_bad_npy_files(tmp_path, data, message):
    path = tmp_path / "bad.npy"
    path.write_bytes(data)
    assert error_of(f"@{path}").startswith(f"{path} {message}")


def test_npz_by_key_single_array_and_errors(tmp_path):
    path = tmp_path / "m.npz"
    np.savez(path, a=np.ones(2), b=np.arange(3.0))
    np.testing.assert_array_equal(file_value(f"{path}:b"), [0.0, 1.0, 2.0])
    assert error_of(f"@{path}") == f"{path} holds 2 arrays (a, b): name one"
    assert error_of(f"@{path}:c") == f"{path} has no array 'c'; it holds: a, b"
    one = tmp_path / "one.npz"
    np.savez_compressed(one, w=np.eye(2))
    np.testing.assert_array_equal(file_value(one), np.eye(2))


def test_compressed_npz_member_is_checked_by_its_header(tmp_path):
    path = tmp_path / "z.npz"
    np.savez_compressed(path, w=np.zeros(100_000))
    assert error_of(f"@{path}:w", max_elements=1000) == f"{path}:w has 100000 elements; the limit is 1000"


def test_other_archives_and_compressions_are_refused_by_name(tmp_path):
    import bz2
    import lzma
    import zipfile

    with zipfile.ZipFile(tmp_path / "data.zip", "w") as archive:
        archive.writestr("data.csv", "1,2\n")
    assert error_of(f"@{tmp_path / 'data.zip'}") == f"{tmp_path / 'data.zip'} is a zip archive without .npy " \
                                                    "arrays, not an .npz"
    (tmp_path / "v.txt.bz2").write_bytes(bz2.compress(b"1 2\n"))
    (tmp_path / "v.txt.xz").write_bytes(lzma.compress(b"1 2\n"))
    assert error_of(f"@{tmp_path / 'v.txt.bz2'}").endswith("is bzip2-compressed; gradcli reads gzip (.gz) only")
    assert error_of(f"@{tmp_path / 'v.txt.xz'}").endswith("is xz-compressed; gradcli reads gzip (.gz) only")


def test_key_on_a_file_that_is_not_npz(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.ones(2))
    assert error_of(f"@{path}:x") == f"no such file: {path}:x"
    path = tmp_path / "t.npz"
    path.write_text("1 2\n")
    assert error_of(f"@{path}:x") == f"{path} is not a .npz file (it does not start with the .npz signature)"
    path = tmp_path / "n.npz"
    with open(path, "wb") as f:
        np.save(f, np.ones(2))
    assert error_of(f"@{path}:x") == f"{path} is a .npy file; only an .npz has keys"


# -- extensions, gzip, JSON ------------------------------------------------------------------------------------

def test_upper_case_extensions(tmp_path):
    with open(tmp_path / "A.NPY", "wb") as f:
        np.save(f, np.arange(3.0))
    (tmp_path / "B.JSON").write_text("[[1, 2], [3, 4]]")
    (tmp_path / "C.CSV").write_text("1,2\n3,4\n")
    np.testing.assert_array_equal(file_value(tmp_path / "A.NPY"), [0, 1, 2])
    np.testing.assert_array_equal(file_value(tmp_path / "B.JSON"), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(file_value(tmp_path / "C.CSV"), [[1, 2], [3, 4]])
    (tmp_path / "D.CSV").write_text("1,,2\n")
    assert "line 1, column 2: empty field" in error_of(f"@{tmp_path / 'D.CSV'}")


def test_gzip_compressed_formats(tmp_path):
    expected = np.array([[1.5, 2.0], [3.0, -4.0]])
    buffer = io.BytesIO()
    np.save(buffer, expected)
    files = {"a.npy.gz": buffer.getvalue(), "b.json.gz": json.dumps(expected.tolist()).encode(),
             "c.txt.gz": b"1.5 2\n3 -4\n", "d.CSV.GZ": b"1.5,2\n3,-4\n"}
    for name, raw in files.items():
        (tmp_path / name).write_bytes(gzip.compress(raw))
        np.testing.assert_array_equal(file_value(tmp_path / name), expected, err_msg=name)
    (tmp_path / "e.csv.gz").write_bytes(gzip.compress(b"1,,2\n"))
    assert "line 1, column 2: empty field" in error_of(f"@{tmp_path / 'e.csv.gz'}")
    (tmp_path / "bad.txt.gz").write_bytes(gzip.compress(b"1 2")[:12])
    assert error_of(f"@{tmp_path / 'bad.txt.gz'}").startswith(f"{tmp_path / 'bad.txt.gz'} is not a valid gzip file")


@pytest.mark.parametrize("text,message", [
    ("[1, null]", "holds null, which is not a number"),
    ("[1, true]", "holds true, which is not a number"),
    ('[1, "x"]', 'holds "x", which is not a number'),
    ('{"x": 1}', "holds a JSON object, not a value"),
    ("[[1, 2], [3]]", "rows of a nested list must all have the same length"),
    ("[1, 2", "as JSON: Expecting ',' delimiter at line 1, column 6"),
    ("[" * 100_000 + "]" * 100_000, "is nested too deeply"),
])
def test_bad_json_values(tmp_path, text, message):
    path = tmp_path / "v.json"
    path.write_text(text)
    assert message in error_of(f"@{path}")


def test_json_values_with_non_finite_strings(tmp_path):
    path = tmp_path / "v.json"
    path.write_text('[1, "nan", "inf", "-inf", NaN, -Infinity, 12345678901234567890]')
    np.testing.assert_array_equal(file_value(path), [1, np.nan, np.inf, -np.inf, np.nan, -np.inf,
                                                     12345678901234567890.0])


@pytest.mark.parametrize("data,message", [
    (b"1 2 \xff\xfe\n", "is not UTF-8 text (byte 0xff at offset 4)"),
    (b"1\x002\n", "is a binary file, not .npy, .npz, JSON or text"),
    (b"", "is empty"),
    (b"# only a comment\n\n", "holds no numbers"),
])
def test_undecodable_and_empty_files(tmp_path, data, message):
    path = tmp_path / "v.txt"
    path.write_bytes(data)
    assert error_of(f"@{path}") == f"{path} {message}"


def test_utf8_text_with_byte_order_mark(tmp_path):
    path = tmp_path / "v.txt"
    path.write_bytes("\ufeff1 2  # café\n".encode())
    np.testing.assert_array_equal(file_value(path), [1.0, 2.0])


def test_npy_extension_with_other_content(tmp_path):
    path = tmp_path / "v.npy"
    path.write_text("1 2 3\n")
    assert error_of(f"@{path}") == f"{path} is not a .npy file (it does not start with the .npy signature)"


def test_directory_missing_and_unreadable_files(tmp_path, monkeypatch):
    assert error_of(f"@{tmp_path}") == f"{tmp_path} is a directory, not a file"
    assert error_of(f"@{tmp_path / 'none.txt'}") == f"no such file: {tmp_path / 'none.txt'}"
    path = tmp_path / "secret.txt"
    path.write_text("1\n")

    def refuse(*args, **kwargs):  # tests run as root, where chmod 000 does not stop reading
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(inputs_module, "open", refuse, raising=False)
    assert error_of(f"@{path}") == f"permission denied: {path}"


# -- standard input, FIFOs, /dev/stdin -------------------------------------------------------------------------

def _npy_bytes(array) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


@pytest.mark.parametrize("data", [
    _npy_bytes(np.arange(4.0)), gzip.compress(_npy_bytes(np.arange(4.0))), b"[0, 1, 2, 3]", b"0 1 2 3\n",
    gzip.compress(b"0,1,2,3"),
])
def test_stdin_is_sniffed_by_content(data):
    np.testing.assert_array_equal(value("-", stdin=io.BytesIO(data)), [0.0, 1.0, 2.0, 3.0])


def test_stdin_npz_and_empty_stdin():
    buffer = io.BytesIO()
    np.savez(buffer, w=np.arange(2.0))
    np.testing.assert_array_equal(value("@-", stdin=io.BytesIO(buffer.getvalue())), [0.0, 1.0])
    assert error_of("-", stdin=io.BytesIO(b"")) == "standard input is empty"


def test_npy_on_stdin_through_the_cli():
    obj = cli_json("eval", "(x**2).sum()", "x=-", input=_npy_bytes(np.array([1.0, -2.0])))
    assert obj["tensors"]["x"]["grad"] == [2.0, -4.0]  # d/dx sum(x^2) = 2x


def test_fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(b"1,2\n3,4\n")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        np.testing.assert_array_equal(file_value(fifo), [[1.0, 2.0], [3.0, 4.0]])
    finally:
        writer.join(timeout=10)


@pytest.mark.skipif(shutil.which("bash") is None or not os.path.exists("/dev/stdin"), reason="needs bash")
def test_dev_stdin_and_process_substitution():
    script = f"'{sys.executable}' -m gradcli eval '(x*y).sum()' x=@/dev/stdin y=@<(echo 3 4) --json --no-check"
    done = subprocess.run(["bash", "-c", script], input="1 2\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    tensors = json.loads(done.stdout)["tensors"]
    assert tensors["x"]["grad"] == [3.0, 4.0] and tensors["y"]["grad"] == [1.0, 2.0]


# -- every file error through the command line: exit 2, one message --------------------------------------------

@pytest.mark.parametrize("content,name,needle", [
    (b"1,,3", "x.csv", "line 1, column 2: empty field"),
    (b"1,2\n3\n", "x.csv", "line 2 has 1 values, line 1 has 2"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00", "prog", "is a binary file"),
    (b"\xc3\x28", "x.txt", "is not UTF-8 text"),
    (b"[" * 50_000, "x.json", "is nested too deeply"),
    (_npy_header((10**12,)), "x.npy", "has 1000000000000 elements"),
    (gzip.compress(b"0 " * 2_000_000), "x.txt.gz", "(decompressed) is larger than"),
])
def test_file_errors_on_the_command_line(tmp_path, content, name, needle):
    path = tmp_path / name
    path.write_bytes(content)
    result = cli("eval", "x.sum()", f"x=@{path}", "--max-elements", "1000")
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith("gradcli: error: ") and needle in first


def test_object_npy_on_the_command_line(tmp_path):
    path = tmp_path / "o.npy"
    np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    result = cli("eval", "x.sum()", f"x=@{path}")
    assert result.exit_code == 2 and "holds Python objects" in result.stderr
    assert "never unpickles" in result.stderr


# -- --inputs FILE ----------------------------------------------------------------------------------------------

def test_inputs_json_binds_tensors_that_require_grad(tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"x": [1, 2, 3], "w": 2}))
    obj = cli_json("eval", "(w*x).sum()", "--inputs", str(path))
    # d/dx sum(w x) = w, d/dw = sum(x)
    assert obj["tensors"]["x"]["grad"] == [2.0, 2.0, 2.0] and obj["tensors"]["x"]["requires_grad"]
    assert obj["tensors"]["w"]["grad"] == 6.0


def test_inputs_npz_and_stdin(tmp_path):
    path = tmp_path / "in.NPZ"
    with open(path, "wb") as f:
        np.savez(f, x=np.array([1.0, -1.0]), b=np.float64(0.5))
    obj = cli_json("eval", "(x*b).sum()", "--inputs", str(path))
    assert obj["tensors"]["x"]["grad"] == [0.5, 0.5] and obj["tensors"]["b"]["grad"] == 0.0
    obj = cli_json("eval", "(x*b).sum()", "--inputs", "-", input='{"x": [1, 2], "b": 3}')
    assert obj["tensors"]["b"]["grad"] == 3.0


@pytest.mark.parametrize("content,extra,needle", [
    ('{"x": 1}', ["x=2"], "'x' is given twice"),
    ('{"x": 1, "x": 2}', [], "gives 'x' twice"),
    ('{"1x": 1}', [], "'1x' is not a valid tensor name"),
    ("[1, 2]", [], "is not a JSON object {name: value, ...}"),
    ('{"x": [1, null]}', [], "holds null, which is not a number"),
])
def test_inputs_errors(tmp_path, content, extra, needle):
    path = tmp_path / "in.json"
    path.write_text(content)
    result = cli("eval", "x", *extra, "--inputs", str(path), "--no-check")
    assert result.exit_code == 2 and needle in result.stderr.splitlines()[0]


def test_inputs_given_twice_across_files(tmp_path):
    (tmp_path / "a.json").write_text('{"x": 1}')
    np.savez(tmp_path / "b.npz", x=np.ones(1))
    with pytest.raises(InputError, match="'x' is given twice"):
        bindings = {}
        for name in ("a.json", "b.npz"):
            inputs_module.bind_inputs_file(bindings, str(tmp_path / name), dtype=F64, limits=Limits())


def test_inputs_npz_size_limit_counts_every_array(tmp_path):
    path = tmp_path / "in.npz"
    np.savez(path, x=np.ones(6), y=np.ones(6))
    with pytest.raises(InputError, match="holds more than 10 numbers"):
        read_inputs_file(str(path), dtype=F64, limits=Limits(max_elements=10))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(1, 6), cols=st.integers(2, 5), max_elements=st.integers(1, 40),
       newline=st.sampled_from(["\n", "\r\n", "\r"]), separator=st.sampled_from([",", ", ", " ", "\t", "  "]),
       blank_lines=st.booleans(), seed=st.integers(0, 2**16))
def test_text_is_read_whole_or_refused_never_cut(tmp_path, rows, cols, max_elements, newline, separator,
                                                 blank_lines, seed):
    table = np.random.default_rng(seed).standard_normal((rows, cols)).round(3)
    lines = [separator.join(repr(float(v)) for v in row) for row in table]
    if blank_lines:
        lines = ["# comment", ""] + [line for row in lines for line in (row, " ")]
    path = tmp_path / "t.txt"
    path.write_bytes(newline.join(lines).encode())
    if rows * cols > max_elements:
        assert error_of(f"@{path}", max_elements=max_elements) == f"{path} holds more than {max_elements} numbers"
    else:
        got = file_value(path, max_elements=max_elements)
        np.testing.assert_array_equal(got, table[0] if rows == 1 else table)


MEASURE_PARSE = """
import resource, sys
import numpy as np
from gradcli.io.inputs import parse_value
from gradcli.safety.limits import Limits
parse_value("@" + sys.argv[1], dtype=np.dtype("float64"), rng=np.random.default_rng(0), limits=Limits())
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
array = parse_value("@" + sys.argv[2], dtype=np.dtype("float64"), rng=np.random.default_rng(0), limits=Limits())
print(array.nbytes, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kB is Linux's")
def test_text_parsing_memory_is_a_small_multiple_of_the_array(tmp_path):
    """Issue 8: a 120 MB text file took 9.9 GB. Peak memory growth, measured in a child process, must stay
    within 5x the final array (the file's bytes, the array, numpy's row buffer)."""
    small, big = tmp_path / "small.txt", tmp_path / "big.txt"
    small.write_text("1 2\n")
    np.savetxt(big, np.random.default_rng(0).standard_normal((100_000, 10)), fmt="%.6f")
    done = subprocess.run([sys.executable, "-c", MEASURE_PARSE, str(small), str(big)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    array_bytes, growth = map(int, done.stdout.split())
    assert array_bytes == 8_000_000
    assert growth < 5 * array_bytes, f"parsing grew the process by {growth / array_bytes:.1f}x the array"


def _make_files(tmp: pathlib.Path) -> None:
    np.savez(tmp / "m.npz", a=np.ones(2), b=np.arange(3.0))
    with open(tmp / "U.NPY", "wb") as f:
        np.save(f, np.array([1.0, 2.0]))
    (tmp / "g.csv.gz").write_bytes(gzip.compress(b"1,2\n"))
    (tmp / "bad.gz").write_bytes(b"\x1f\x8bnot gzip at all")
    (tmp / "t.npy").write_text("1 2\n")
    (tmp / "o.json").write_text('{"x": 1}')
    (tmp / "n.json").write_text("[1, null]")
    (tmp / "e.txt").write_text("")


@pytest.mark.parametrize("spec,expected", [
    ("x=@{tmp}/m.npz:b", [0.0, 1.0, 2.0]),
    ("x=@{tmp}/U.NPY", [1.0, 2.0]),
    ("x=@{tmp}/g.csv.gz", [1.0, 2.0]),
])
def test_file_forms_on_the_command_line(tmp_path, spec, expected):
    _make_files(tmp_path)
    obj = cli_json("eval", "(x*x).sum()", spec.format(tmp=tmp_path))
    assert obj["tensors"]["x"]["value"] == expected
    assert obj["tensors"]["x"]["grad"] == [2 * v for v in expected]  # d/dx sum(x^2) = 2x


@pytest.mark.parametrize("spec,message", [
    ("x=@{tmp}", "{tmp} is a directory, not a file"),
    ("x=@{tmp}/none.csv", "no such file: {tmp}/none.csv"),
    ("x=@{tmp}/m.npz", "{tmp}/m.npz holds 2 arrays (a, b): name one"),
    ("x=@{tmp}/m.npz:c", "{tmp}/m.npz has no array 'c'; it holds: a, b"),
    ("x=@{tmp}/bad.gz", "{tmp}/bad.gz is not a valid gzip file"),
    ("x=@{tmp}/t.npy", "{tmp}/t.npy is not a .npy file (it does not start with the .npy signature)"),
    ("x=@{tmp}/o.json", "{tmp}/o.json holds a JSON object, not a value"),
    ("x=@{tmp}/n.json", "{tmp}/n.json holds null, which is not a number"),
    ("x=@{tmp}/e.txt", "{tmp}/e.txt is empty"),
    ("x=@/proc/self/environ", "/proc/self/environ is a binary file, not .npy, .npz, JSON or text"),
    ("x=@/dev/zero", "/dev/zero is a binary file, not .npy, .npz, JSON or text"),
    ("x=-", "standard input is empty"),
])
def test_file_error_messages_on_the_command_line(tmp_path, spec, message):
    if "/proc/" in spec and not os.path.exists("/proc/self/environ"):
        pytest.skip("no /proc")
    _make_files(tmp_path)
    result = cli("eval", "x.sum()", spec.format(tmp=tmp_path), "--no-check", input="")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].startswith("gradcli: error: " + message.format(tmp=tmp_path))
    assert len(result.stderr) < 600  # an excerpt at most, never the file


_PREFIXES = [b"", b"\x93NUMPY\x01\x00", b"\x93NUMPY\x02\x00", b"PK\x03\x04", b"\x1f\x8b", b"[", b"{", b"1,2\n",
             _npy_header((3,)), _npy_header((2, 2), "|O")]


@settings(max_examples=300, deadline=None)
@given(prefix=st.sampled_from(_PREFIXES), body=st.binary(max_size=200))
def test_fuzz_any_bytes_give_an_array_or_an_input_error(prefix, body):
    try:
        got = value("-", stdin=io.BytesIO(prefix + body), max_elements=1000)
    except InputError as err:
        assert err.message and len(err.message) < 400
    else:
        assert isinstance(got, np.ndarray) and got.dtype == np.float64


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("0123456789.,-+e()[]* /naifrdsolpx@_ \t")), max_size=40))
def test_fuzz_value_text_gives_an_array_or_an_input_error(text):
    try:
        got = value(text, stdin=io.BytesIO(b""), max_elements=1000)
    except InputError as err:
        assert err.message
    else:
        assert isinstance(got, np.ndarray) and got.size <= 1000


_BIG_ROWS = np.random.default_rng(5).standard_normal((6000, 3)).round(6)  # ~130 kB as text: parsed as a stream


@pytest.mark.parametrize("tail,message", [
    (b"", None),
    (b"   \n# the end\n", None),
    (b"1,,3\n", "line 6001, column 2: empty field"),
    (b"1,2\n", "line 6001 has 2 values, line 1 has 3 (ragged rows)"),
    (b"1,2,x\n", "line 6001, column 3: 'x' is not a number"),
    (b"1 2 3\n", "line 6001, column 1: '1 2 3' is separated by spaces, the first line by commas"),
    (b"1,2,\xff\n", "is not UTF-8 text (byte 0xff at offset {offset})"),
    (b"1,2,3\x00\n", "is a binary file, not .npy, .npz, JSON or text"),
])
def test_large_text_files_are_parsed_as_streams_with_the_same_strictness(tmp_path, tail, message):
    body = "".join(",".join(repr(float(v)) for v in row) + "\n" for row in _BIG_ROWS).encode()
    path = tmp_path / "big.txt"
    path.write_bytes(body + tail)
    assert len(body) > inputs_module._STREAM_HEAD_BYTES
    if message is None:
        np.testing.assert_array_equal(file_value(path), _BIG_ROWS)
        return
    got = error_of(f"@{path}")
    expected = message.format(offset=len(body) + 4)
    assert got in (f"cannot read {path}: {expected}", f"{path} {expected}")


def test_large_text_file_over_the_element_limit(tmp_path):
    path = tmp_path / "big.txt"
    np.savetxt(path, _BIG_ROWS, delimiter=",")
    assert error_of(f"@{path}", max_elements=17_999) == f"{path} holds more than 17999 numbers"
    assert file_value(path, max_elements=18_000).shape == (6000, 3)


def test_long_comment_header_before_the_data(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("#" * 100_000 + "\n" + "1 2\n3 4\n")
    np.testing.assert_array_equal(file_value(path), [[1.0, 2.0], [3.0, 4.0]])


# -- a table with a header: its columns by name ---------------------------------------------------------------

@pytest.mark.parametrize("rows", [2, 200_000])  # small: read whole; large: numpy streams it from the file
def test_a_csv_with_a_header_says_so_and_how_to_pick_a_column(tmp_path, rows):
    path = tmp_path / "big.csv"
    path.write_text("x,y\n" + "".join(f"{k},{2 * k}\n" for k in range(rows)))
    result = runner.invoke(app, ["eval", "x.sum()", f"x=@{path}", "--no-check"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == f"gradcli: error: cannot read {path}: line 1 is a header (x, y), not numbers"
    assert lines[-1] == f"hint: pick a column with @{path}:x, or evaluate at every row with --rows {path} " \
                        "(the header names the variables)"


def test_a_column_of_a_table_by_its_header_name(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("# measured\nx,y,label_free\n1,10,5\n2,20,6\n3,30,7\n")
    np.testing.assert_array_equal(file_value(f"{path}:y"), [10.0, 20.0, 30.0])
    np.testing.assert_array_equal(file_value(f"{path}:x"), [1.0, 2.0, 3.0])
    tsv = tmp_path / "data.tsv"
    tsv.write_text("a\tb\n0.5\t-1\n")
    np.testing.assert_array_equal(file_value(f"{tsv}:b"), [-1.0])
    with pytest.raises(InputError) as info:
        file_value(f"{path}:yy")
    assert info.value.message == f"{path} has no column 'yy' (its header: x, y, label_free)"
    assert info.value.hint == f"did you mean @{path}:y?"
