"""`gradcli eval EXPR --rows FILE|-`: every row answered as its own single evaluation, in order, bad rows
in place, CSV/TSV/NDJSON in and out, streaming, and the vectorised path agreeing with the per-row loop."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gradcli.calc import rows as rows_module
from gradcli.cli.commands import app
from gradcli.engine import dtypes, kernels
from gradcli.io import outputs as outputs_module
from gradcli.lang.evaluation import evaluate_expression
from gradcli.lang.parser import parse
from gradcli.render import json_out

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["eval", *args], input=input)


def ndjson(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def csv_rows(text: str, delimiter=",") -> list[dict]:
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- rows == single evaluation (the defining property) -----------------------------------------------

LEAVES = ["x", "y", "x", "y", "0.5", "2.0", "pi"]
UNARY = ["sin({})", "exp({})", "torch.tanh({})", "sigmoid({})", "relu({})", "abs({})", "sqrt({})", "log({})",
         "F.softplus({})", "({}).square()", "({})**2", "({})**0.5", "-({})", "clamp({}, min=-1, max=1)",
         "F.gelu({})", "({}).sum()", "torch.stack([{0}, {0}]).mean()", "({}).reshape(1)[0]"]
BINARY = ["({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) / ({})", "({}) ** ({})", "maximum({}, {})",
          "where(({0}) > ({1}), {0}, {1})", "atan2({}, {})"]


@st.composite
def expressions(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(LEAVES))
    if draw(st.booleans()):
        return draw(st.sampled_from(UNARY)).format(draw(expressions(depth - 1)))
    return draw(st.sampled_from(BINARY)).format(draw(expressions(depth - 1)), draw(expressions(depth - 1)))


VALUES = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.1, 1e-300, 1e300, math.inf, -math.inf, math.nan]),
                   st.floats(-5, 5, allow_nan=False))


def single(expression: str, point: dict, shared: dict | None = None, consts: dict | None = None,
           dtype=None) -> dict:
    """What `gradcli eval EXPR x=.. y=..` answers, as rows mode should write it (or an error marker)."""
    np_dtype = np.float64 if dtype is None else dtype.np
    inputs = {n: np.array(v, dtype=np_dtype) for n, v in point.items()}
    inputs.update({n: np.array(v, dtype=np_dtype) for n, v in (shared or {}).items()})
    try:
        result = evaluate_expression(expression, inputs, consts or {}, **({} if dtype is None else {"dtype": dtype}))
    except Exception:
        return {"error": True}
    if result.error is not None:
        return {"error": True}
    used = set(result.program.variables)
    obj = json_out.jsonable(json_out.eval_result(result))
    return {"output": obj["output"]["value"],
            "grads": {n: t["grad"] for n, t in obj["tensors"].items() if n in used or n in (shared or {})}}


def as_answer(record: dict) -> dict:
    if "error" in record:
        return {"error": True}
    return {"output": record["output"], "grads": record["grads"]}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression=expressions(), points=st.lists(st.tuples(VALUES, VALUES), min_size=1, max_size=6))
def test_rows_equal_single_evaluations(expression, points):
    try:
        program = parse(expression, known_variables=frozenset({"x", "y"}))
    except Exception:
        return
    names = [n for n in ("x", "y") if n in program.variables]
    if not names:
        return
    lines = [json.dumps({n: v for n, v in zip(("x", "y"), p) if n in names}, allow_nan=True) for p in points]
    result = run("--rows", "-", "--", expression, input="\n".join(lines) + "\n")
    records = ndjson(result.stdout)
    assert len(records) == len(points)
    for record, p in zip(records, points):
        expected = single(expression, {n: v for n, v in zip(("x", "y"), p) if n in names})
        assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(expected, sort_keys=True), (expression, p)
    assert result.exit_code == (2 if any("error" in r for r in records) else 0)


@settings(max_examples=25, deadline=None)
@given(expression=expressions(), points=st.lists(st.tuples(VALUES, VALUES), min_size=2, max_size=8))
def test_csv_rows_equal_single_evaluations_with_a_shared_tensor(expression, points):
    expression = f"({expression}) * w"
    try:
        program = parse(expression, known_variables=frozenset({"x", "y", "w"}))
    except Exception:
        return
    text = "x,y\n" + "".join(f"{a!r},{b!r}\n" for a, b in points)
    result = run("--rows", "-", "--format", "ndjson", "--", expression, "w=1.5", input=text)
    records = ndjson(result.stdout)
    assert len(records) == len(points)
    for record, (a, b) in zip(records, points):
        point = {n: v for n, v in (("x", a), ("y", b)) if n in program.variables}
        expected = single(expression, point, {"w": 1.5})
        assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_elementwise_expressions_are_vectorised_and_others_are_not():
    def rowwise(text):
        return rows_module.is_rowwise(parse(text, known_variables=frozenset({"x", "y"})))

    assert rowwise("sin(x)*y**2 + exp(-x*y)")
    assert rowwise("F.softplus(x) + torch.where(x > y, x, y).clamp(min=0) + x.sigmoid() + pi")
    assert not rowwise("x.sum()")  # a reduction: over the batch it would mix rows
    assert not rowwise("x[0]")
    assert not rowwise("(x @ y)")
    assert not rowwise("x ** y")  # numpy's scalar-exponent shortcut: see is_rowwise
    assert not rowwise("x.pow(y)")
    assert not rowwise("torch.float_power(x, y)")  # a pow too
    assert not rowwise("torch.where(x > 0)[0]")  # one argument: the indices where it holds, over the batch
    assert not rowwise("F.prelu(x, y)")  # the weight follows dim 1, which a batch of rows shifts
    assert rowwise("torch.hypot(x, y) + torch.logaddexp(x, y) + F.hardswish(x) + torch.fmod(x, 0.5)")


def test_batch_path_is_taken_for_scalar_rows(monkeypatch, tmp_path):
    calls = []
    original = rows_module.RowEvaluator.one

    def counting_one(self, program, row):
        calls.append(row)
        return original(self, program, row)

    monkeypatch.setattr(rows_module.RowEvaluator, "one", counting_one)
    path = write(tmp_path, "p.csv", "x,y\n" + "".join(f"{i},{i + 1}\n" for i in range(50)))
    result = run("x*y", "--rows", path)
    assert result.exit_code == 0
    assert calls == []  # no row went through the loop
    assert len(csv_rows(result.stdout)) == 50
    calls.clear()
    result = run("(x*y).sum()", "--rows", path)  # a full reduction: batched too (issue 29, item 14)
    assert result.exit_code == 0 and calls == []
    result = run("(x*y).reshape(1)[0]", "--rows", path)  # reshape and indexing: batched too
    assert result.exit_code == 0 and calls == []
    result = run("(x*y).reshape(1).cumsum(0)[0]", "--rows", path)  # cumsum: batched too
    assert result.exit_code == 0 and calls == []
    result = run("(x*y).reshape(1).cummax(0)[0][0]", "--rows", path)  # cummax has no batching rule: the loop
    assert result.exit_code == 0 and len(calls) == 50


# -- CSV ---------------------------------------------------------------------------------------------

def test_csv_output_columns_and_full_precision(tmp_path):
    path = write(tmp_path, "points.csv", "x,y,label\n0.1,0.2,a\n3,-1,b\n")
    result = run("x*y + x", "--rows", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "x,y,label,output,grad_x,grad_y,error"
    # hand: d/dx (x*y + x) = y + 1, d/dy = x; Python's own float arithmetic gives the exact doubles
    assert lines[1] == f"0.1,0.2,a,{0.1 * 0.2 + 0.1!r},{0.2 + 1!r},0.1,"
    assert lines[2] == "3,-1,b,0.0,0.0,3.0,"


def test_tsv_by_extension_and_semicolons_sniffed(tmp_path):
    tsv = write(tmp_path, "p.tsv", "x\ty\n2\t3\n")
    out = run("x*y", "--rows", tsv).stdout.splitlines()
    assert out == ["x\ty\toutput\tgrad_x\tgrad_y\terror", "2\t3\t6.0\t3.0\t2.0\t"]
    semi = write(tmp_path, "p.txt", "x;y\n2;3\n")
    assert run("x*y", "--rows", semi).stdout.splitlines()[1] == "2;3;6.0;3.0;2.0;"
    forced = write(tmp_path, "q.csv", "x|y\n2|3\n")
    assert run("x*y", "--rows", forced, "-d", "|").stdout.splitlines()[1] == "2|3|6.0|3.0|2.0|"
    # --format changes the output delimiter; the input columns are re-joined
    assert run("x*y", "--rows", tsv, "--format", "csv").stdout.splitlines()[1] == "2,3,6.0,3.0,2.0,"


def test_shared_tensor_gets_its_own_grad_per_row_and_const_applies(tmp_path):
    path = write(tmp_path, "p.csv", "x\n1\n2\n")
    rows = csv_rows(run("w*x + b + z", "--rows", path, "w=3", "b=0.5", "--const", "z=10").stdout)
    # hand: out = 3x + 10.5; d/dx = w = 3; d/dw = x; d/db = 1; z is a const (no column)
    assert [r["output"] for r in rows] == ["13.5", "16.5"]
    assert [r["grad_x"] for r in rows] == ["3.0", "3.0"]
    assert [r["grad_w"] for r in rows] == ["1.0", "2.0"]
    assert [r["grad_b"] for r in rows] == ["1.0", "1.0"]
    assert "grad_z" not in rows[0]


def test_bad_rows_are_answered_in_place(tmp_path):
    path = write(tmp_path, "p.csv", "x,y\n1,2\n,3\n2,abc\n1,2,3\n4,5\n@/etc/passwd,1\n")
    result = run("x*y", "--rows", path)
    assert result.exit_code == 2
    rows = csv_rows(result.stdout)
    assert len(rows) == 6
    assert rows[0]["output"] == "2.0" and rows[0]["error"] == ""
    assert rows[1]["output"] == "" and "empty value for x" in rows[1]["error"]
    assert "bad value for y" in rows[2]["error"]
    assert "3 fields" in rows[3]["error"]
    assert rows[4]["output"] == "20.0" and rows[4]["error"] == ""
    assert "file" in rows[5]["error"]
    assert "4 of 6 rows failed" in result.stderr and "line 3" in result.stderr


def test_fail_fast_stops_at_the_first_failure(tmp_path):
    path = write(tmp_path, "p.csv", "x\n1\n\n,\n3\n")
    result = run("x*2", "--rows", path, "--fail-fast")
    assert result.exit_code == 2
    rows = csv_rows(result.stdout)
    assert len(rows) == 2 and rows[1]["error"]
    assert "fail-fast" in result.stderr


def test_missing_column_is_one_error_before_any_row(tmp_path):
    path = write(tmp_path, "p.csv", "x,z\n1,2\n")
    result = run("x*y", "--rows", path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "no value given for y" in result.stderr and "columns: x, z" in result.stderr


def test_column_named_like_a_constant_answers_as_single_eval_does(tmp_path):
    path = write(tmp_path, "p.jsonl", '{"e": 2, "x": 3}\n')
    record = ndjson(run("e*x", "--rows", path).stdout)[0]
    assert json.dumps(as_answer(record), sort_keys=True) == \
        json.dumps(single("e*x", {"e": 2.0, "x": 3.0}), sort_keys=True)


@pytest.mark.parametrize("name", ["t", "max", "sum", "sin"])
def test_column_named_like_a_function_answers_as_single_eval_does(tmp_path, name):
    # `gradcli eval "sin(t)*x" t=1 x=3` binds t; a CSV column t was refused with "'t' is a function"
    path = write(tmp_path, "p.csv", f"{name},x\n2,3\n")
    expression = f"{name}*x + x"
    record = ndjson(run(expression, "--rows", path, "--json").stdout)[0]
    assert json.dumps(as_answer(record), sort_keys=True) == \
        json.dumps(single(expression, {name: 2.0, "x": 3.0}), sort_keys=True)
    assert record["output"] == 9.0 and record["grads"] == {name: 3.0, "x": 3.0}


def test_vector_values_in_quoted_csv_fields(tmp_path):
    path = write(tmp_path, "p.csv", 'x,y\n"[1, 2]",3\n4,5\n')
    rows = csv_rows(run("(x*y).sum()", "--rows", path).stdout)
    assert [r["grad_x"] for r in rows] == ["[3.0, 3.0]", "5.0"]  # d/dx_i sum(x*y) = y
    assert [r["grad_y"] for r in rows] == ["3.0", "4.0"]  # d/dy = sum(x)


def test_quoted_fields_and_crlf(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b'\xef\xbb\xbfx,name\r\n2,"a, b"\r\n')
    result = run("x**2", "--rows", str(path))
    assert result.stdout.splitlines() == ["x,name,output,grad_x,error", '2,"a, b",4.0,4.0,']


# -- NDJSON ------------------------------------------------------------------------------------------

def test_ndjson_values_conventions_and_errors(tmp_path):
    text = ('{"x": 2, "y": 3}\n'
            '\n'
            '{"x": [1, 2], "y": 3}\n'
            '{"x": "nan", "y": 1}\n'
            '{"x": true, "y": 1}\n'
            '[1, 2]\n'
            '{"y": 1}\n'
            '{"x": [1, 2], "y": [1, 2, 3]}\n')
    result = run("(x*y).sum()", "--rows", write(tmp_path, "p.jsonl", text))
    records = ndjson(result.stdout)
    assert records[0] == {"output": 6.0, "grads": {"x": 3.0, "y": 2.0}}
    assert records[1] == {"output": 9.0, "grads": {"x": [3.0, 3.0], "y": 3.0}}
    assert records[2] == {"output": "nan", "grads": {"x": 1.0, "y": "nan"}}
    assert records[3]["line"] == 5 and records[3]["error"]["type"] == "InputError"
    assert records[4] == {"line": 6, "error": {"type": "InputError", "message": records[4]["error"]["message"]}}
    assert records[5]["error"]["message"] == "no value given for x"
    assert records[6]["line"] == 8 and "must match the size" in records[6]["error"]["message"]
    assert len(records) == 7  # the blank line is not a row
    assert result.exit_code == 2


def test_backward_error_is_a_row_error():
    result = run("x*2", "--rows", "-", input='{"x": 1}\n{"x": [1, 2]}\n')
    records = ndjson(result.stdout)
    assert records[0] == {"output": 2.0, "grads": {"x": 2.0}}
    assert records[1]["error"] == {"type": "RuntimeError",
                                   "message": "grad can be implicitly created only for scalar outputs"}


def test_stdin_is_sniffed():
    as_csv = run("x+1", "--rows", "-", input="x\n1\n")
    assert as_csv.stdout.splitlines() == ["x,output,grad_x,error", "1,2.0,1.0,"]
    as_json = run("x+1", "--rows", "-", input='  {"x": 1}\n')
    assert ndjson(as_json.stdout) == [{"output": 2.0, "grads": {"x": 1.0}}]


def test_ndjson_to_csv_and_json_array():
    text = '{"x": 1, "id": "a"}\n{"x": 2, "id": "b"}\n'
    out = run("x**2", "--rows", "-", "--format", "csv", input=text).stdout.splitlines()
    assert out == ["x,id,output,grad_x,error", "1,a,1.0,2.0,", "2,b,4.0,4.0,"]
    array = json.loads(run("x**2", "--rows", "-", "--format", "json", input=text).stdout)
    assert array == [{"output": 1.0, "grads": {"x": 2.0}}, {"output": 4.0, "grads": {"x": 4.0}}]
    assert ndjson(run("x**2", "--rows", "-", "--json", input=text).stdout)[1] == {"output": 4.0,
                                                                                   "grads": {"x": 4.0}}


# -- chunks and streaming ----------------------------------------------------------------------------

def test_chunks_bound_memory_and_keep_order(monkeypatch, tmp_path):
    n = 1000
    lines = [f"{i * 0.25},{i % 7}" if i % 97 else "oops," for i in range(n)]
    path = write(tmp_path, "p.csv", "x,y\n" + "\n".join(lines) + "\n")
    whole = run("x*y + sin(x)", "--rows", path).stdout
    sizes = []
    original = rows_module.RowsRun._finish

    def recording(self, chunk):
        sizes.append(len(chunk))
        return original(self, chunk)

    monkeypatch.setattr(rows_module, "CHUNK_ROWS", 64)
    monkeypatch.setattr(rows_module, "READ_BYTES", 256)
    monkeypatch.setattr(rows_module.RowsRun, "_finish", recording)
    chunked = run("x*y + sin(x)", "--rows", path).stdout
    assert chunked == whole
    assert max(sizes) <= 64 + 40 and sum(sizes) == n
    rows = csv_rows(whole)
    assert len(rows) == n
    assert all(rows[i]["error"] for i in range(0, n, 97))
    i = 5  # hand: d/dx (x*y + sin x) = y + cos x
    assert float(rows[i]["grad_x"]) == (i % 7) + math.cos(i * 0.25)


@pytest.mark.parametrize("form", ["ndjson", "csv"])
def test_a_pipe_is_answered_line_by_line(form):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # gradcli must flush by itself
    proc = subprocess.Popen([sys.executable, "-m", "gradcli", "eval", "x*3", "--rows", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        answers = []
        if form == "csv":
            proc.stdin.write(b"x\n")
            proc.stdin.flush()
            assert _readline(proc.stdout, timeout=30) == "x,output,grad_x,error\n"
        for value in (1, 2):
            proc.stdin.write((f'{{"x": {value}}}\n' if form == "ndjson" else f"{value}\n").encode())
            proc.stdin.flush()
            answers.append(_readline(proc.stdout, timeout=30))  # before stdin is closed
        if form == "ndjson":
            assert [json.loads(a) for a in answers] == [{"output": 3.0, "grads": {"x": 3.0}},
                                                         {"output": 6.0, "grads": {"x": 3.0}}]
        else:
            assert answers == ["1,3.0,3.0,\n", "2,6.0,3.0,\n"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0


def _readline(stream, timeout):
    import select

    deadline = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([stream], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            raise AssertionError(f"no answer within {timeout} s (got {line!r})")
        chunk = os.read(stream.fileno(), 1)
        if not chunk:
            break
        line += chunk
    return line.decode()


# -- the cross-check in rows mode ----------------------------------------------------------------------

def test_check_column_per_row(tmp_path):
    path = write(tmp_path, "p.csv", "x,y\n1,2\n0,3\n-1,0\n")
    rows = csv_rows(run("relu(x)*y + abs(y)", "--rows", path, "--check").stdout)
    # relu'(0) and abs'(0) are conventions (as single eval's cross-check says); row 1 is smooth
    assert [r["check"] for r in rows] == ["agrees", "convention", "convention"]
    records = ndjson(run("sin(x)*y", "--rows", path, "--check", "--format", "ndjson").stdout)
    assert {r["check"] for r in records} == {"agrees"}
    assert "check" not in csv_rows(run("sin(x)*y", "--rows", path).stdout)[0]  # off by default


def test_check_finds_a_wrong_gradient(monkeypatch, tmp_path):
    """Break sin's backward rule: the vectorised check must notice, row by row."""
    from gradcli.engine.ops import elementwise

    path = write(tmp_path, "p.csv", "x\n0.5\n0\n")
    node_class = type(elementwise.sin(_tensor(0.5)).grad_fn)
    monkeypatch.setattr(node_class, "backward", staticmethod(lambda ctx, g, x: (g * 2.0,)))
    rows = csv_rows(run("sin(x)", "--rows", path, "--check").stdout)
    assert rows[0]["check"] == "disagrees"  # 2.0 vs cos(0.5)
    assert rows[1]["check"] == "disagrees"  # 2.0 vs cos(0) = 1


def _tensor(v):
    from gradcli.engine import Tensor

    return Tensor(np.array(v), requires_grad=True)


def test_timeout_is_per_row(monkeypatch, tmp_path):
    """A row that runs past --timeout fails alone; the rows after it are still answered."""
    from gradcli.engine.ops import elementwise

    node_class = type(elementwise.exp(_tensor(0.5)).grad_fn)
    forward = node_class.forward

    def slow_at_two(ctx, x):
        if np.any(x == 2.0):
            time.sleep(2)
        return forward(ctx, x)

    monkeypatch.setattr(node_class, "forward", staticmethod(slow_at_two))
    path = write(tmp_path, "p.csv", "x\n1\n2\n3\n")
    result = run("exp(x)", "--rows", path, "--timeout", "0.3")
    rows = csv_rows(result.stdout)
    assert [r["error"] for r in rows] == ["", "a row's evaluation took longer than 0.3 s", ""]
    assert float(rows[2]["grad_x"]) == math.exp(3)
    assert result.exit_code == 2


def test_stdin_cannot_be_read_twice():
    result = run("x*y", "--rows", "-", "y=-", input="x\n1\n")
    assert result.exit_code == 2 and "already the --rows input" in result.stderr


def test_header_only_and_empty_inputs(tmp_path):
    result = run("x*2", "--rows", write(tmp_path, "h.csv", "x\n"))
    assert result.exit_code == 0 and result.stdout == "x,output,grad_x,error\n"
    result = run("x*2", "--rows", write(tmp_path, "e.csv", "\n\n"))
    assert result.exit_code == 2 and "has no rows" in result.stderr


def test_rows_mode_imports_neither_sympy_nor_rich(tmp_path):
    path = write(tmp_path, "p.csv", "x\n1\n")
    code = ("import sys; from gradcli.cli.commands import app\n"
            "try:\n    app(['eval', 'x*2', '--rows', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('sympy', 'rich') if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=60)
    assert done.stderr.strip().endswith("[]"), done.stderr


def test_progress_bar_only_for_a_terminal_and_a_long_input(monkeypatch):
    with rows_module._progress(10 * rows_module.PROGRESS_BYTES) as progress:
        assert progress is None  # stderr is not a terminal under pytest
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with rows_module._progress(100) as progress:
        assert progress is None  # short input
    with rows_module._progress(10 * rows_module.PROGRESS_BYTES) as progress:
        assert callable(progress)
        progress(rows_module.PROGRESS_BYTES)


def test_an_ndjson_key_the_expression_does_not_read_is_said_once_not_dropped_silently():
    result = run("x*2", "--rows", "-", input='{"x": 1, "w": 3}\n{"x": 2, "w": 4, "v": 1}\n{"x": 3, "w": 5}\n')
    assert result.exit_code == 0
    assert [r["grads"] for r in ndjson(result.stdout)] == [{"x": 2.0}] * 3  # d(2x)/dx, by hand
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == ["gradcli: warning: 'w' (line 1) is not used by the expression; it is ignored",
                        "gradcli: warning: 'v' (line 2) is not used by the expression; it is ignored"]


@pytest.mark.parametrize("text, hint", [("x;y\n1;2\n", "pass -d ';'"), ("x\ty\n1\t2\n", "pass -d $'\\t'")])
def test_a_csv_file_with_another_delimiter_gets_a_hint(tmp_path, text, hint):
    result = run("x*y", "--rows", write(tmp_path, "data.csv", text))
    assert result.exit_code == 2 and hint in result.stderr


# -- rows of equal shapes, reductions included, in one batched pass (issue 29, item 14) -------------------------

SHAPES = st.sampled_from([(), (1,), (2,), (3,), (1, 3), (3, 1)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression=expressions(), shape=SHAPES, y_scalar=st.booleans(), data=st.data())
def test_vector_rows_equal_single_evaluations(expression, shape, y_scalar, data):
    try:
        program = parse(expression, known_variables=frozenset({"x", "y"}))
    except Exception:
        return
    names = [n for n in ("x", "y") if n in program.variables]
    if not names:
        return
    shapes = {"x": shape, "y": () if y_scalar else shape}
    size = {n: int(np.prod(shapes[n])) for n in names}
    points = data.draw(st.lists(st.fixed_dictionaries({n: st.lists(VALUES, min_size=size[n], max_size=size[n])
                                                       for n in names}), min_size=2, max_size=6))
    rows = [{n: np.array(p[n], dtype=np.float64).reshape(shapes[n]) for n in names} for p in points]
    lines = [json.dumps({n: r[n].tolist() for n in names}, allow_nan=True) for r in rows]
    result = run("--rows", "-", "--", expression, input="\n".join(lines) + "\n")
    records = ndjson(result.stdout)
    assert len(records) == len(rows)
    for record, row in zip(records, rows):
        expected = single(expression, row)
        assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(expected, sort_keys=True), (expression, row)


# rows of any length and the ops with a batching rule (calc/batching.py): dims, products, indexing, softmax, norms
VECTOR_UNARY = [
    "sin({})", "exp({})", "torch.tanh({})", "sigmoid({})", "relu({})", "sqrt({})", "log({})", "F.softplus({})",
    "({})**2", "({})**0.5", "-({})", "clamp({}, min=-1, max=1)", "F.gelu({})", "F.silu({})", "({}).sum()",
    "({}).mean()", "({}).sum(-1)", "({}).sum(dim=0, keepdim=True)", "({}).mean(0)", "torch.softmax({}, -1)",
    "F.log_softmax({}, dim=0)", "torch.logsumexp({}, -1)", "({}).norm()", "torch.norm({}, p=1)",
    "torch.linalg.vector_norm({}, 3)", "({})[0]", "({})[..., 1:]", "({})[-1]", "({}).T", "({}).unsqueeze(0)",
    "({}).reshape(-1)", "({}).t()", "({}).squeeze()", "({}).transpose(0, -1)", "({})[None, :2]",
    # issue 29: running totals, joins, masks, integer-tensor indices (k = [0, -1, 0], an int64 constant)
    "({}).cumsum(-1)", "torch.cumsum({}, 0)", "({}).cumprod(-1)", "torch.cumprod({}, dim=0)",
    "torch.cat([{0}, ({0}).flip(-1)], -1)", "torch.stack([{0}, 2 * ({0})])", "torch.stack(({0}, {0}), dim=-1)",
    "({0})[({0}) > 0]", "({0})[({0}) == ({0})]", "({0})[({0}) > -10]", "({})[k]", "({})[..., k]", "({})[0, k]",
    "torch.index_select({}, -1, k)", "({}).index_select(0, k)", "torch.gather({}, -1, k)",
    "({}).gather(0, k[:1])", "({}).flatten()", "({}).flatten(0, -1)", "({}).flip(0)", "({}).permute(-1, 0)",
    "torch.cat([{}, c], 0)", "({}).amax()", "({}).amax(-1)", "torch.amin({}, dim=0, keepdim=True)",
    "torch.amax(torch.stack([{0}, -({0})]), 0)",
]
VECTOR_BINARY = ["({}) + ({})", "({}) * ({})", "({}) / ({})", "maximum({}, {})", "where(({0}) > ({1}), {0}, {1})",
                 "({}) @ ({})", "torch.dot(({}).reshape(-1), ({}).reshape(-1))", "({}) @ ({}).T",
                 "torch.mv(W, ({}).reshape(-1)[:3]) * ({}).sum()", "torch.cat([{}, {}])",
                 "torch.stack([{}, {}], -1)", "({0})[({1}) > 0]"]
VECTOR_SHAPES = st.sampled_from([(), (1,), (2,), (3,), (5,), (8,), (9,), (17,), (33,), (2, 3), (3, 3), (4, 1),
                                 (1, 4), (3, 5)])


@st.composite
def vector_expressions(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["x", "y", "x", "y", "0.5", "c"]))
    if draw(st.booleans()):
        return draw(st.sampled_from(VECTOR_UNARY)).format(draw(vector_expressions(depth - 1)))
    return draw(st.sampled_from(VECTOR_BINARY)).format(draw(vector_expressions(depth - 1)),
                                                        draw(vector_expressions(depth - 1)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression=vector_expressions(), shape=VECTOR_SHAPES, y_scalar=st.booleans(),
       dtype=st.sampled_from(["float64", "float64", "float32"]), bits=st.sampled_from(["fast", "fast", "torch"]),
       data=st.data())
def test_rows_of_any_length_with_batched_ops_equal_single_evaluations(expression, shape, y_scalar, dtype, bits,
                                                                       data):
    """Rows mode gives each row exactly (bit for bit) its single `gradcli eval`, for rows of up to 33 elements and
    expressions of sums over dims, softmax, norms, products, indexing and reshapes (one batched pass) in both
    dtypes and both kernel modes (torch's: the kernels' scalar lanes decided on each row's layout)."""
    expression = f"({expression}).sum()"
    try:
        program = parse(expression, known_variables=frozenset({"x", "y", "W", "c", "k"}))
    except Exception:
        return
    names = [n for n in ("x", "y") if n in program.variables]
    if not names:
        return
    shapes = {"x": shape, "y": () if y_scalar else shape}
    size = {n: int(np.prod(shapes[n])) for n in names}
    values = st.one_of(VALUES, st.floats(-3, 3, allow_nan=False), st.floats(-3, 3, allow_nan=False))
    points = data.draw(st.lists(st.fixed_dictionaries({n: st.lists(values, min_size=size[n], max_size=size[n])
                                                       for n in names}), min_size=2, max_size=5))
    rows = [{n: np.array(p[n], dtype=np.float64).reshape(shapes[n]) for n in names} for p in points]
    shared = {"W": np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]])} if "W" in program.variables else {}
    consts = {"c": np.resize(np.array([2.0, -0.5, 1.25, 0.75]), shape[-1:] or ())} if "c" in program.variables \
        else {}  # broadcast along a row's last dim
    if "k" in program.variables:
        consts["k"] = np.array([0, -1, 0])  # an integer list: int64, as torch.tensor([0, -1, 0])
    lines = [json.dumps({n: r[n].tolist() for n in names}, allow_nan=True) for r in rows]
    args = ["--rows", "-", "--dtype", dtype, "--bits", bits]
    for name, value in consts.items():
        args += ["--const", f"{name}={value.tolist()}"]
    args += ["--", expression] + [f"W={shared['W'].tolist()}" for _ in shared]
    result = run(*args, input="\n".join(lines) + "\n")
    records = ndjson(result.stdout)
    assert len(records) == len(rows), result.output
    for record, row in zip(records, rows):
        with kernels.bits(bits):
            expected = single(expression, row, shared, consts, dtype=dtypes.by_name(dtype))
        expected.get("grads", {}).pop("c", None)
        expected.get("grads", {}).pop("k", None)
        assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(expected, sort_keys=True), (expression, row)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bits", ["fast", "torch"])
def test_long_rows_take_torch_vector_and_scalar_lanes_as_each_row_alone(monkeypatch, dtype, bits):
    """Rows of 40 and 70 elements (past a vector of lanes: torch computes the head of a row in SIMD lanes and the
    tail one element at a time, and they differ in sigmoid's exp, float32's pow, maximum's choice between -0.0
    and 0.0) in one batched pass: every row exactly as its single evaluation."""
    expression = "(sigmoid(x) + F.silu(x) * 3 + x**2.5 + maximum(x, -x) + clamp(x, min=0.0)).sum() / (x * x).sum()"
    rng = np.random.default_rng(11)
    rows = []
    for n in (40, 40, 40, 70, 70):
        values = rng.normal(size=n) * 4
        values[rng.integers(0, n, 6)] = 0.0
        values[rng.integers(0, n, 6)] = -0.0
        rows.append({"x": np.abs(values) if n == 70 else values})

    def per_row(*args, **kwargs):
        raise AssertionError("went row by row")

    with monkeypatch.context() as patched:
        patched.setattr(rows_module.RowEvaluator, "one", per_row)
        text = "".join(json.dumps({"x": r["x"].tolist()}) + "\n" for r in rows)
        result = run("--rows", "-", "--dtype", dtype, "--bits", bits, "--", expression, input=text)
    assert result.exit_code == 0, result.output
    for record, row in zip(ndjson(result.stdout), rows):
        with kernels.bits(bits):
            expected = single(expression, row, dtype=dtypes.by_name(dtype))
        assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(expected, sort_keys=True)


@pytest.mark.parametrize("expression,shape", [
    ("(x.sin()*x).sum()", (3,)), ("(x.sin()*x + y).sum()", ()),
    ("(x / x.sum()).pow(2).sum() + torch.exp(x).mean()", (2,)),
    ("(x * y).sum() * w", (3,)), ("torch.sum(x**2) - (x * c).sum()", (1, 3)),
])
def test_reductions_and_vector_rows_run_in_one_batched_pass(monkeypatch, expression, shape):
    rng = np.random.default_rng(3)
    rows = [{"x": rng.normal(size=shape).tolist(), "y": rng.normal(size=shape).tolist()} for _ in range(50)]
    expected = [single(expression, {n: np.array(r[n]) for n in ("x", "y") if n in expression},
                       {"w": 0.5} if " w" in expression else None,
                       {"c": np.array([1, 2, 3])} if "c)" in expression else None) for r in rows]

    def per_row(*args, **kwargs):
        raise AssertionError("went row by row")

    monkeypatch.setattr(rows_module.RowEvaluator, "one", per_row)
    text = "\n".join(json.dumps({n: r[n] for n in ("x", "y") if n in expression}) for r in rows) + "\n"
    shared = ["w=0.5"] if " w" in expression else []
    consts = ["--const", "c=[1, 2, 3]"] if "c)" in expression else []
    result = run("--rows", "-", *consts, "--", expression, *shared, input=text)
    assert result.exit_code == 0, result.output
    answers = [as_answer(r) for r in ndjson(result.stdout)]
    for e in expected:
        e["grads"].pop("c", None)  # a constant: no .grad column in rows mode
    assert json.dumps(answers, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_rows_are_batched_by_shape_and_a_shape_of_its_own_goes_alone(monkeypatch):
    calls = []
    original = rows_module.RowEvaluator.one

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(rows_module.RowEvaluator, "one", counted)
    rows = ['{"x": [1.0, 2.0, 3.0]}', '{"x": [1.0, 2.0]}', '{"x": [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]}',
            '{"x": [-1.0, 0.0, 3.0]}', '{"x": [0.25, 2.0]}', '{"x": [[1.0, 2.0, 3.0]]}']
    result = run("--rows", "-", "--", "(x.sin()*x).sum()", input="\n".join(rows) + "\n")
    assert result.exit_code == 0
    assert len(calls) == 2  # the 3-vectors in one pass, the 2-vectors in another; (6,) and (1, 3) alone
    for record, row in zip(ndjson(result.stdout), rows):
        assert as_answer(record) == single("(x.sin()*x).sum()", {"x": np.array(json.loads(row)["x"])})


def test_batchable_expressions():
    def batchable(text):
        return rows_module.is_batchable(parse(text, known_variables=frozenset({"x", "y", "W"})))

    assert batchable("(x.sin()*x + y).sum()") and batchable("x / x.sum() + torch.mean(x.exp())")
    assert batchable("x.sum(0)") and batchable("x.sum(dim=-1, keepdim=True).mean()") and batchable("x.softmax(0)[1]")
    assert batchable("x[0].sum()") and batchable("x.reshape(3).sum()")
    # a row's products go one at a time (their single evaluations take BLAS kernels a stacked product does not)
    assert not batchable("(x @ y).sum()") and not batchable("(W @ x).softmax(0)[1]") and not batchable("x.dot(y)")
    assert batchable("torch.logsumexp(W, dim=1).sum() + x.norm() + W.T[0, 1:].sum()")
    assert batchable("x.cumsum(0).sum()") and batchable("x[x > 0].sum()") and batchable("torch.stack([x, y]).sum()")
    assert batchable("torch.cat([x, x.flip(0)]).gather(0, i).sum() + x.flatten().permute(0).sum()")
    assert not batchable("(x ** y).sum()") and not batchable("where(x > 0)[0].sum()")
    assert not batchable("x.cummax(0)[0].sum()") and not batchable("x.prod()") and not batchable("x.std()")
    assert batchable("x.amax() + x.amin(0).sum()") and not batchable("x.max()")


@pytest.mark.parametrize("expression", ["(x*x).sum()", "(x*x).reshape(3)[0]"])  # batched, row by row
def test_ndjson_rows_that_overflow_are_warned_about(expression):
    text = '{"x": [1, 2, 3]}\n{"x": [1e308, 1e308, 1]}\n'
    result = run("--rows", "-", "--", expression, input=text)
    assert result.exit_code == 0
    assert "1 of 2 rows produced nan or inf from finite inputs" in result.output and "first: line 2" in result.output
    assert run("--rows", "-", "--strict", "--", expression, input=text).exit_code == 1


def test_batched_full_reduction_of_a_negative_zero_row_is_torchs_positive_zero():
    # torch.tensor(-0.0).sum() is 0.0 (ATen adds into a 0-filled output); the batched pass returned the row
    result = run("--rows", "-", "--", "(x).sum()", input='{"x": 0.0}\n{"x": -0.0}\n')
    assert [r["output"] for r in ndjson(result.stdout)] == [0.0, 0.0]
    assert not any(math.copysign(1, r["output"]) < 0 for r in ndjson(result.stdout))


@pytest.mark.parametrize("expression", ["(y * (x @ x)).sum()", "(y * (x @ z)).sum()", "(y * x.sum()).sum()"])
def test_a_row_broadcast_over_a_size_one_dim_keeps_the_zeros_sign_of_single_evaluation(tmp_path, expression):
    # found by the property test: alone, the row sums its gradient over the added dim (0 + -0.0 = +0.0, as
    # torch); the batch's size-1 dim did not sum, so x.grad was -0.0 in rows mode
    path = write(tmp_path, "z.jsonl", '{"x": [0.0], "y": [0.0], "z": [0.0]}\n{"x": [0.0], "y": [-0.0], "z": [0.0]}\n')
    used = {name: v for name, v in {"x": [0.0], "y": [-0.0], "z": [0.0]}.items() if name in expression}
    record = ndjson(run(expression, "--rows", path).stdout)[1]
    assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(single(expression, used), sort_keys=True)


# -- NDJSON read and written in bulk (issue 29, item 14: 100k rows of 3-vectors took 2.3 s of JSON per row) ------

def _json_record_alone(text: str):
    """What a line read by json.loads alone gives (the reading before orjson): its object, or the error text."""
    try:
        obj = json.loads(text, object_pairs_hook=rows_module.unique_keys)
    except rows_module.DuplicateKey as err:
        return f"{err} in the row"
    except ValueError as err:
        return f"not valid JSON: {err}"
    return obj if isinstance(obj, dict) else "not a JSON object: each line needs {\"name\": value, ...}"


JSON_PIECES = ['{"x": 1.5}', '{"x": [1, 2.5, -0.0]}', '{"x": NaN}', '{"x": -Infinity}', '{"x": 1e400}',
               '{"x": 123456789012345678901234567890}', '{"x": 18446744073709551616}', '{"x": 2.4703282292062328e-324}',
               '{"x": 0.30000000000000004441}', '{"x": 1, "x": 2}', '{"x": 1, "x" : 2}', '{"x" :1,"y":{"x":1}}',
               '{"s": "a\\":b", "x": 1}', '[{"x": 1}]', '3', '"x"', 'null', '{"x": 1', '{"x": 1} {"x": 2}',
               '{"x": 1},{"x": 2}', '1, [2', '3]', '{"x": "\\ud800"}', '{"x": true}', '{"é": 2}', '{"x": 1e-5}',
               '{"x": 9007199254740993}', '{"x": -9223372036854775809}', '{"x": [[1, 2], [3]]}', '{}', ' {"x": 2} ']


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.one_of(st.sampled_from(JSON_PIECES),
                                st.floats(allow_nan=False, allow_infinity=False).map(lambda v: f'{{"x": {v!r}}}'),
                                st.text(max_size=12).map(lambda t: json.dumps({t: 1.0, "x": t}))),
                      min_size=1, max_size=8))
def test_ndjson_lines_read_in_bulk_are_what_json_loads_reads_each_line(lines):
    """orjson reads a chunk's lines; every line must be exactly what json.loads reads alone (the values, NaN,
    Infinity and big integers, a repeated key refused, each error on its own line and with json's message)."""
    got = rows_module._json_records(lines)
    assert len(got) == len(lines)
    for text, record in zip(lines, got):
        expected = _json_record_alone(text)
        actual = record.message if isinstance(record, rows_module.RowError) else record
        assert json.dumps(actual, allow_nan=True) == json.dumps(expected, allow_nan=True), text
        if isinstance(expected, dict):
            assert [type(v) for v in actual.values()] == [type(v) for v in expected.values()] or \
                all(float(a) == float(e) for a, e in zip(actual.values(), expected.values())
                    if not isinstance(e, (list, dict, str)))


def test_a_bad_line_among_clean_ones_is_named_by_its_own_line_number(tmp_path):
    good = [json.dumps({"x": [0.5 * i, 1.0, -2.0]}) for i in range(6)]
    lines = good[:2] + ['{"x": [1, 2, 3}'] + good[2:4] + ['{"x": [1.0, 2.0, 3.0], "x" : [1, 1, 1]}'] + good[4:]
    result = run("(x.sin()*x).sum()", "--rows", write(tmp_path, "v.jsonl", "\n".join(lines) + "\n"))
    records = ndjson(result.stdout)
    assert result.exit_code == 2 and len(records) == 8
    assert records[2]["line"] == 3 and records[2]["error"]["message"].startswith("not valid JSON: Expecting ','")
    assert records[5] == {"line": 6, "error": {"type": "InputError", "message": "'x' is given twice in the row"}}
    assert "2 of 8 rows failed; first: line 3: not valid JSON" in result.stderr
    for k in (0, 1, 3, 4, 6, 7):
        assert as_answer(records[k]) == single("(x.sin()*x).sum()", {"x": np.array(json.loads(lines[k])["x"])})


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("expression,shape", [("(x.sin()*x).sum()", (3,)), ("x.sin()*x", ()),
                                              ("(x.exp() * x).sum(-1).sum() + y.sum()", (2, 3))])
def test_clean_ndjson_chunks_are_read_and_written_in_bulk(monkeypatch, dtype, expression, shape):
    """A chunk of clean rows is read by orjson and numpy (no json.loads, no value read row by row), evaluated in
    one pass and written all at once (no json.dumps per row), the lines exactly those of the row-by-row path."""
    rng = np.random.default_rng(5)
    values = rng.normal(size=(40, *shape)) * np.logspace(-8, 20, 40).reshape(40, *(1,) * len(shape))
    values.reshape(40, -1)[3, 0], values.reshape(40, -1)[7, 0] = -0.0, 1e-5
    text = "".join(json.dumps({"x": v.tolist(), "y": [1.0, 2.0] if "y" in expression else 0}) + "\n"
                   for v in values)
    rows = [{"x": v, **({"y": np.array([1.0, 2.0])} if "y" in expression else {})} for v in values]
    expected = [single(expression, r, dtype=dtypes.by_name(dtype)) for r in rows]

    def refused(*args, **kwargs):
        raise AssertionError("read or written one row at a time")

    with monkeypatch.context() as patched:
        patched.setattr(rows_module, "_json_record", refused)
        patched.setattr(rows_module.ValueReader, "json", refused)
        patched.setattr(rows_module.RowEvaluator, "one", refused)
        patched.setattr(outputs_module, "_dumps", refused)
        result = run("--rows", "-", "--dtype", dtype, "--", expression, input=text)
    assert result.exit_code == 0, result.output
    assert [as_answer(r) for r in ndjson(result.stdout)] == expected
    for line, e in zip(result.stdout.splitlines(), expected):  # the text json.dumps writes, byte for byte
        assert line == json.dumps(json_out.jsonable(e), ensure_ascii=False)


@settings(max_examples=100, deadline=None)
@given(shape=st.sampled_from([(4,), (3, 2), (2, 1, 3), (5, 0), (0,)]),
       dtype=st.sampled_from([np.float64, np.float32]),
       data=st.data())
def test_bulk_json_texts_are_json_dumps_of_each_row(shape, dtype, data):
    n = shape[0]
    flat = data.draw(st.lists(st.one_of(st.floats(width=32 if dtype is np.float32 else 64), st.sampled_from(
        [0.0, -0.0, 1e-4, 9.999e-5, 1e16, 9.999999999999998e15, 5e-324, math.inf, -math.inf, math.nan])),
        min_size=math.prod(shape), max_size=math.prod(shape)))
    column = np.array(flat, dtype=np.float64).astype(dtype).reshape(shape)
    texts = outputs_module.json_texts(column, n)
    if column.size == 0:
        assert texts is None  # empty rows: written row by row
        return
    assert texts == [json.dumps(json_out.jsonable(row), allow_nan=False) for row in column]


def test_a_line_nested_too_deeply_is_that_rows_error_not_an_internal_error():
    text = '{"x": ' + "[" * 100_000 + "]" * 100_000 + '}\n{"x": [1.0, 2.0]}\n'
    result = run("--rows", "-", "--", "x.sum()", input=text)
    records = ndjson(result.stdout)
    assert result.exit_code == 2 and "internal error" not in result.output
    assert records[0]["line"] == 1 and records[0]["error"]["message"].startswith("not valid JSON: nested deeper")
    assert records[1] == {"output": 3.0, "grads": {"x": [1.0, 1.0]}}


@pytest.mark.parametrize("expression,shape", [
    ("(x.cumsum(0) * x).sum() + torch.cumprod(x, -1).sum()", (4,)), ("x.cumsum(dim=1)[:, -1].sum()", (2, 3)),
    ("torch.cat([x, x.flip(0), c]).sum() * torch.stack([x, 2 * x], -1).sum()", (3,)),
    ("x[x == x].sum()", (3,)), ("(x[x.abs() < 100] ** 2).sum()", (2, 3)),
    ("x[k].sum() + torch.index_select(x, 0, k).sum() + x.gather(0, k).prod(0)", (3,)),
    ("x[..., k].sum() + x.flatten().sum() + x.permute(1, 0)[2, 1]", (2, 3)),
    ("x.amax() + x.amin(-1).sum() + torch.amax(x.round(), 0, keepdim=True).sum()", (2, 3)),
])
def test_cumulative_joins_masks_and_index_tensors_run_in_one_batched_pass(monkeypatch, expression, shape):
    """Issue 29: rows of cumsum/cumprod, cat/stack, boolean masks picking as many elements in each row, integer
    tensors as indices, index_select/gather, flatten/permute/flip in one pass, each row its single evaluation."""
    rng = np.random.default_rng(7)
    rows = [rng.normal(size=shape) + 0.5 for _ in range(30)]  # no zeros: cumprod's gradient has one formula
    consts = {"c": np.array([1.5, -2.0]), "k": np.array([0, -1, 0])}
    expected = [single(expression.replace(".prod(0)", ".sum()"), {"x": r},
                       consts={n: v for n, v in consts.items() if n in expression}) for r in rows]

    def per_row(*args, **kwargs):
        raise AssertionError("went row by row")

    monkeypatch.setattr(rows_module.RowEvaluator, "one", per_row)
    text = "".join(json.dumps({"x": r.tolist()}) + "\n" for r in rows)
    args = [a for n, v in consts.items() if n in expression for a in ("--const", f"{n}={v.tolist()}")]
    result = run("--rows", "-", *args, "--", expression.replace(".prod(0)", ".sum()"), input=text)
    assert result.exit_code == 0, result.output
    for record, e in zip(ndjson(result.stdout), expected):
        e["grads"] = {n: g for n, g in e["grads"].items() if n == "x"}
        assert json.dumps(as_answer(record), sort_keys=True) == json.dumps(e, sort_keys=True)


def test_rows_whose_masks_pick_different_counts_or_whose_cumprod_meets_a_zero_go_row_by_row_and_later_chunks_batch():
    ev = rows_module.RowEvaluator("x[x > 0].sum() + x.cumprod(0).sum()", {}, {})
    program, wanted, _ = ev.program([])
    uneven = ev.batch_rows(program, [{"x": np.array([1.0, -1.0])}, {"x": np.array([1.0, 2.0])}], wanted)
    zero = ev.batch_rows(program, [{"x": np.array([1.0, 0.0])}, {"x": np.array([1.0, 2.0])}], wanted)
    assert uneven is None and zero is None  # these rows one at a time ...
    even = ev.batch_rows(program, [{"x": np.array([1.0, -1.0])}, {"x": np.array([-3.0, 2.0])}], wanted)
    assert even is not None  # ... not the expression: rows whose masks pick as many are batched
    for k, row in enumerate(([1.0, -1.0], [-3.0, 2.0])):
        out, grads = ev.one(program, {"x": np.array(row)})
        assert even[0][k] == out and np.array_equal(even[1]["x"][k], grads["x"])


@pytest.mark.parametrize("expression,row", [("x.permute(-1, 0).sum()", 0.0), ("x.permute(1, 0).sum()", [1.0, 2.0]),
                                            ("x.permute(1, 0, 2).sum()", [[1.0, 2.0]]),
                                            ("torch.cat([x, x]).sum()", 2.0), ("x[k].sum()", [1.0])])
def test_an_ops_error_in_a_row_alone_is_that_rows_error_in_a_batch(expression, row):
    """Found by the property test: a number's permute(-1, 0) is torch's error alone and was answered batched."""
    text = "".join(json.dumps({"x": row}) + "\n" for _ in range(3))
    result = run("--rows", "-", "--const", "k=[0, 2]", "--", expression, input=text)
    expected = single(expression, {"x": np.array(row)}, consts={"k": np.array([0, 2])})
    assert "error" in expected
    assert [as_answer(r) for r in ndjson(result.stdout)] == [expected] * 3 and result.exit_code == 2


def test_a_product_row_is_its_single_evaluation_to_the_bit():
    """Products go one row at a time: a stacked matmul took other kernels than each row's mv and its backward
    (the red team's repro: x.grad[0][2] was -29.43217257242765; the single evaluation and torch give
    -29.432172572427653)."""
    line = ('{"x": [[-6.686708523688793e-187, 1.7186240373779906, 0.0], [NaN, 1e-300, -0.0]], '
            '"y": [[1.478793464499418, 3.868533514086028, -0.7707771902721134], [-1.0, 1.0, 0.1]]}\n')
    other = '{"x": [[1, 2, 3], [4, 5, 6]], "y": [[1, 2, 3], [4, 5, 6]]}\n'
    result = run("(((torch.mv(W, x.reshape(-1)[:3]) * c.sum()).sum()) / clamp(y, min=-1, max=1)).sum()",
                 "--rows", "-", "--const", "c=[2.0,-0.5,1.25]", "W=[[0.5,-1.0,2.0],[1.5,0.25,-3.0]]",
                 input=line + other)
    first = ndjson(result.output)[0]
    assert first["grads"]["x"][0][2] == -29.432172572427653  # torch 2.13's value
