"""Files and raw output: -o/--output (atomic), --format, --save, -r/--raw, and --json on errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.io import outputs

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["eval", *args], input=input)


def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# -- raw ---------------------------------------------------------------------------------------------

def test_raw_prints_only_gradients_in_argument_order():
    result = run("x*y", "x=2", "y=3", "-r")
    assert result.exit_code == 0
    assert result.stdout == "3.0\n2.0\n"  # d/dx xy = y, d/dy = x


def test_raw_full_precision_vectors_and_none():
    result = run("(x*y).sum() + 0*z", "x=[0.1,0.2]", "y=0.3", "z=1", "--const", "c=2", "--raw")
    lines = result.stdout.splitlines()
    # hand: d/dx = y for each element, d/dy = sum(x) (Python's own 0.1 + 0.2), d/dz = 0; the const is not listed
    assert lines == ["0.3 0.3", repr(0.1 + 0.2), "0.0"]
    unused = run("x*2", "x=1", "u=5", "-r").stdout.splitlines()
    assert unused == ["2.0", "None"]


def test_raw_matrix_is_one_line():
    result = run("(W**2).sum()", "W=[[1,2],[3,4]]", "-r", "--no-check")
    assert result.stdout == "2.0 4.0 6.0 8.0\n"


# -- -o and --format ----------------------------------------------------------------------------------

def test_output_json_matches_stdout_json(tmp_path):
    target = tmp_path / "r.json"
    result = run("x**3", "x=2", "-o", str(target), "--no-check")
    assert result.exit_code == 0 and result.stdout == ""
    on_stdout = json.loads(run("x**3", "x=2", "--json", "--no-check").stdout)
    assert json.loads(target.read_text()) == on_stdout
    assert on_stdout["tensors"]["x"]["grad"] == 12.0  # 3 x^2 at 2
    assert leftovers(tmp_path) == ["r.json"]


def test_output_csv_tsv_and_format(tmp_path):
    run("x*y", "x=2", "y=[1,2]", "--grad-output", "[1,1]", "-o", str(tmp_path / "r.csv"), "--no-check")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
    assert rows == [{"x": "2.0", "y": "[1.0, 2.0]", "output": "[2.0, 4.0]", "grad_x": "3.0",
                     "grad_y": "[2.0, 2.0]", "error": ""}]
    tsv = run("x*y", "x=2", "y=3", "--format", "tsv", "--no-check").stdout.splitlines()
    assert tsv == ["x\ty\toutput\tgrad_x\tgrad_y\terror", "2.0\t3.0\t6.0\t3.0\t2.0\t"]
    line = run("x*y", "x=2", "y=3", "--format", "ndjson", "--no-check").stdout
    assert line.count("\n") == 1 and json.loads(line)["output"]["value"] == 6.0


def test_output_npz(tmp_path):
    target = tmp_path / "r.npz"
    assert run("(W@v).sum()", "W=[[1,2],[3,4]]", "v=[1,1]", "-o", str(target), "--no-check").exit_code == 0
    with np.load(target, allow_pickle=False) as data:
        assert float(data["output"]) == 10.0
        np.testing.assert_array_equal(data["grad_W"], [[1, 1], [1, 1]])  # d/dW_ij = v_j
        np.testing.assert_array_equal(data["grad_v"], [4, 6])  # column sums of W


def test_rows_to_npz(tmp_path):
    source = tmp_path / "p.csv"
    source.write_text("x,y\n1,2\n3,4\n,1\n")
    target = tmp_path / "out.npz"
    result = run("x*y", "--rows", str(source), "-o", str(target))
    assert result.exit_code == 2  # one bad row: still written, with the message in `error`
    with np.load(target, allow_pickle=False) as data:
        np.testing.assert_array_equal(data["output"][:2], [2.0, 12.0])
        np.testing.assert_array_equal(data["grad_x"][:2], [2.0, 4.0])
        assert np.isnan(data["output"][2])
        assert list(data["error"]) == ["", "", "empty value for x"]


def test_unknown_extension_and_conflicting_formats(tmp_path):
    result = run("x*2", "x=1", "-o", str(tmp_path / "r.xyz"))
    assert result.exit_code == 2 and "extension" in result.stderr
    result = run("x*2", "x=1", "--json", "-r")
    assert result.exit_code == 2 and "conflicting" in result.stderr
    assert leftovers(tmp_path) == []


# -- --save -------------------------------------------------------------------------------------------

def test_save_every_format(tmp_path):
    paths = {ext: tmp_path / f"g{ext}" for ext in (".npy", ".npz", ".json", ".txt")}
    args = [f"--save=W={p}" for p in paths.values()]
    result = run("(W**2).sum()", "W=[[1,2],[3,0.1]]", "--no-check", *args)
    assert result.exit_code == 0, result.output
    expected = np.array([[2.0, 4.0], [6.0, 0.2]])  # 2 W
    np.testing.assert_array_equal(np.load(paths[".npy"]), expected)
    with np.load(paths[".npz"]) as data:
        np.testing.assert_array_equal(data["grad_W"], expected)
    assert json.loads(paths[".json"].read_text()) == expected.tolist()
    assert paths[".txt"].read_text() == "2.0 4.0\n6.0 0.2\n"
    # the text file reads back as a value, exactly
    again = json.loads(run("W.sum()", f"W=@{paths['.txt']}", "--json", "--no-check").stdout)
    assert again["tensors"]["W"]["value"] == expected.tolist()


def test_save_errors(tmp_path):
    assert "nothing to save" in run("x*2", "x=1", "--const", "c=1", f"--save=c={tmp_path}/c.npy").stderr
    assert "no tensor named" in run("x*2", "x=1", f"--save=q={tmp_path}/q.npy").stderr
    assert "use one of" in run("x*2", "x=1", f"--save=x={tmp_path}/x.bin").stderr
    assert leftovers(tmp_path) == []


# -- atomic writes ---------------------------------------------------------------------------------------

def test_failed_evaluation_leaves_no_file_and_keeps_the_old_one(tmp_path):
    target = tmp_path / "r.json"
    target.write_text("old\n")
    result = run("x**2", "x=[1,2]", "-o", str(target), "--save", f"x={tmp_path}/g.npy", "--no-check")
    assert result.exit_code == 2  # backward of a non-scalar output fails
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == ["r.json"]


def test_rows_run_failing_midway_leaves_no_partial_file(tmp_path):
    source = tmp_path / "p.jsonl"
    source.write_text('{"x": 1}\n{"x": [1, 2]}\n')
    target = tmp_path / "out.npz"
    # rows of different shapes cannot be stacked into one .npz array: the run fails at the end
    result = run("(x*2).sum()", "--rows", str(source), "-o", str(target))
    assert result.exit_code == 2 and "cannot stack" in result.stderr
    assert leftovers(tmp_path) == ["p.jsonl"]


def test_fail_fast_leaves_no_file(tmp_path):
    source = tmp_path / "p.csv"
    source.write_text("x\n1\n,\n2\n")
    result = run("x*2", "--rows", str(source), "--fail-fast", "-o", str(tmp_path / "o.csv"))
    assert result.exit_code == 2
    assert leftovers(tmp_path) == ["p.csv"]


def test_interrupted_write_is_discarded(tmp_path):
    target = tmp_path / "x.csv"
    with pytest.raises(KeyboardInterrupt):
        with outputs.atomic_file(target) as f:
            f.file.write("partial")
            raise KeyboardInterrupt
    assert leftovers(tmp_path) == []


def test_rows_output_file_is_complete(tmp_path):
    source = tmp_path / "p.csv"
    source.write_text("x\n" + "".join(f"{i}\n" for i in range(100)))
    target = tmp_path / "o.csv"
    result = run("x**2", "--rows", str(source), "-o", str(target))
    assert result.exit_code == 0 and result.stdout == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert [float(r["grad_x"]) for r in rows] == [2.0 * i for i in range(100)]
    assert leftovers(tmp_path) == ["o.csv", "p.csv"]


# -- --json on errors ----------------------------------------------------------------------------------

def test_json_error_object_for_a_parse_error():
    result = run("sigmod(x)", "x=1", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": {"type": "ParseError", "message": "unknown function 'sigmod'",
                                                   "hint": json.loads(result.stdout)["error"]["hint"],
                                                   "span": [0, 6]}}
    assert "did you mean" in json.loads(result.stdout)["error"]["hint"]
    assert result.stderr.startswith("gradcli: error: unknown function 'sigmod'")
    assert result.stdout.count("\n") == 1


def test_json_error_object_for_bad_input_and_rows():
    result = run("x*2", "x=[1,", "--json")
    obj = json.loads(result.stdout)
    assert result.exit_code == 2 and obj["error"]["type"] == "InputError" and obj["error"]["span"] is not None
    result = run("x*2", "--rows", "/no/such/file.csv", "--json")
    assert json.loads(result.stdout)["error"] == {"type": "InputError", "message": "no such file: /no/such/file.csv",
                                                  "hint": None, "span": None}


def test_no_json_object_without_json():
    result = run("sigmod(x)", "x=1")
    assert result.exit_code == 2 and result.stdout == ""


def test_json_errors_from_check_and_explain():
    for args in (["check", "x^^2", "--json"], ["explain", "sigmod(x)", "x=1", "--json"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2
        obj = json.loads(result.stdout)
        assert set(obj["error"]) == {"type", "message", "hint", "span"}
        assert result.stderr.startswith("gradcli: error:")


# -- numbers as text: float_texts is repr, only faster -------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(arrays(np.float64, st.integers(0, 40), elements=st.floats(allow_nan=True, allow_infinity=True)))
def test_float_texts_is_repr_of_every_float64(values):
    assert outputs.float_texts(values) == [repr(v) for v in values.tolist()]


def test_float_texts_is_repr_at_every_magnitude_and_bit_pattern():
    rng = np.random.default_rng(7)
    edges = [0.0, -0.0, 1e-4, np.nextafter(1e-4, 0), 1e16, np.nextafter(1e16, 0), -1e16, 5e-324, 1.5e308,
             np.inf, -np.inf, np.nan, 0.1, 1 / 3, 2.0 ** 53, 9999999999999998.0, 123.0]
    bits = rng.integers(0, 2**63, size=200_000, dtype=np.uint64).view(np.float64)  # every exponent, subnormals
    scaled = rng.normal(size=200_000) * 10.0 ** rng.integers(-8, 20, size=200_000)
    for values in (np.array(edges), bits, -bits, scaled):
        assert outputs.float_texts(values) == list(map(repr, values.tolist()))


def test_float_texts_of_float32_are_the_float64_reprs_of_its_values():
    values = np.array([0.1, 1e-5, 3.3e20, 2.5], dtype=np.float32)
    assert outputs.float_texts(values) == [repr(float(v)) for v in values]


def _jsonable_one_by_one(value):
    """The --json convention number by number: nan and infinities as strings, other numbers as they are."""
    if isinstance(value, list):
        return [_jsonable_one_by_one(v) for v in value]
    if value != value:
        return "nan"
    return {float("inf"): "inf", float("-inf"): "-inf"}.get(value, value)


@settings(max_examples=200, deadline=None)
@given(arrays(st.sampled_from([np.float64, np.float32]), st.lists(st.integers(0, 4), min_size=0, max_size=3),
              elements=st.floats(allow_nan=True, allow_infinity=True, width=32)))
def test_json_of_whole_arrays_is_the_convention_number_by_number(values):
    from gradcli.render import json_out

    assert json_out.jsonable(values) == _jsonable_one_by_one(values.tolist())
