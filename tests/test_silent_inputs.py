"""Inputs that used to be silently dropped, overridden or misread: each is now used as meant or refused."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from gradcli.cli import app

runner = CliRunner()


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def ndjson(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# -- NDJSON rows: a key given twice (json.loads keeps the last one silently) -------------------------------

def test_ndjson_row_with_a_key_given_twice_is_refused_in_place():
    result = invoke("eval", "x*2", "--rows", "-", input='{"x": 1, "x": 2}\n{"x": 3}\n')
    assert result.exit_code == 2
    first, second = ndjson(result.stdout)
    assert first["error"]["message"] == "'x' is given twice in the row"
    assert second == {"output": 6.0, "grads": {"x": 2.0}}  # hand: 2*3, d/dx = 2
    assert "1 of 2 rows failed" in result.stderr


# -- 1,5 without brackets: a decimal comma was silently read as the vector [1, 5] -------------------------

def test_numbers_separated_by_commas_without_brackets_are_refused_with_a_hint():
    result = invoke("eval", "x.sum()", "x=1,5", "--no-check")
    assert result.exit_code == 2
    assert "gradcli: error: numbers separated by commas without brackets" in result.stderr
    assert "hint: a list is written [1,5]; a decimal point is '.'" in result.stderr
    # brackets (or parentheses) still make a list: hand sum 1 + 5
    for value in ("x=[1,5]", "x=(1,5)"):
        assert json.loads(invoke("eval", "x.sum()", value, "--no-check", "--json").stdout)["output"]["value"] == 6.0


def test_decimal_commas_in_a_semicolon_file_are_refused_row_by_row(tmp_path):
    path = tmp_path / "eu.txt"
    path.write_text("x;y\n1,5;2\n3;4\n")
    result = invoke("eval", "(x*y).sum()", "--rows", str(path))
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert lines[1].startswith("1,5;2;;;;bad value for x: numbers separated by commas without brackets")
    assert lines[2] == "3;4;12.0;4.0;3.0;"  # hand: 3*4, d/dx = y, d/dy = x


def test_run_argument_with_a_decimal_comma_is_refused(tmp_path):
    program = tmp_path / "p.py"
    program.write_text("print(n)\n")
    result = invoke("run", str(program), "--arg", "n=1,5")
    assert result.exit_code == 2
    assert "numbers separated by commas without brackets" in result.stderr
