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
