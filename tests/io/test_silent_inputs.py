"""Inputs that used to be silently dropped, overridden or misread: each is now used as meant or refused."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app

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


# -- gradcli run --arg: overwritten before it is read, or never read ---------------------------------------

def _program(tmp_path, text):
    path = tmp_path / "p.py"
    path.write_text(text)
    return str(path)


def test_run_argument_the_program_overwrites_before_reading_is_refused(tmp_path):
    program = _program(tmp_path, "import torch\nn = 3\nx = torch.tensor([1.0], requires_grad=True)\n"
                                 "(x*n).sum().backward()\nprint(x.grad)\n")
    result = invoke("run", program, "--arg", "n=10")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gradcli: error: --arg n is overwritten at line 2 of {program} ")
    assert result.stdout == ""
    # an import rebinds too
    assert "--arg torch is overwritten at line 1" in invoke("run", program, "--arg", "torch=1").stderr


def test_run_argument_read_first_is_used_and_an_unread_one_is_warned(tmp_path):
    program = _program(tmp_path, "n += 1\nm = [k for k in range(2)]\nprint(n)\n")
    result = invoke("run", program, "--arg", "n=1", "--arg", "q=5")
    assert result.exit_code == 0
    assert result.stdout == "2\n"  # hand: 1 + 1, as Python prints an int
    assert result.stderr == f"gradcli: warning: --arg q is never read by {program}; it has no effect\n"


# -- repl: a failed :del leaves every binding; arguments of argument-less commands; names eval refuses -----

def _session(text):
    """A piped session in-process: (exit code, stdout, stderr)."""
    import io

    from gradcli.calc.repl import Settings, run
    from gradcli.cli.terminal import make_console

    out, err = io.StringIO(), io.StringIO()
    console = make_console("never")
    console.file = out
    code = run(Settings(check=False), console, stdin=io.StringIO(text), stdout=out, stderr=err, interactive=False)
    return code, out.getvalue(), err.getvalue()


def test_repl_del_with_an_unbound_name_deletes_nothing():
    code, out, err = _session("x = 1\ny = 2\n:del x nosuch\n:json\nx + y\n")
    assert code == 2 and "'nosuch' is not bound" in err
    assert json.loads(out)["output"]["value"] == 3.0  # x is still bound: hand 1 + 2


def test_repl_commands_without_arguments_refuse_one():
    code, out, err = _session("x = 1\n:vars extra\n:help me\n:quit now\n:json\nx * 2\n")
    assert code == 2
    for command, arg in ((":vars", "extra"), (":help", "me"), (":quit", "now")):
        assert f"gradcli: error: {command} takes no argument, not '{arg}'" in err
    assert json.loads(out)["output"]["value"] == 2.0  # the session went on past ':quit now'


def test_repl_refuses_a_name_no_expression_can_use():
    code, out, err = _session("const _c = 1\n:vars\n")
    assert code == 2 and "'_c' is not a valid tensor name" in err and out == ""


# -- check --at: a variable given twice (the last won) or one the function lacks (ignored) -----------------

def test_check_at_refuses_a_variable_given_twice_or_unknown():
    twice = invoke("check", "x^2*y", "--wrt", "x", "--at", "x=1", "--at", "x=2", "--at", "y=3")
    assert twice.exit_code == 2 and "gradcli: error: --at gives 'x' twice" in twice.stderr
    unknown = invoke("check", "x^2", "--wrt", "x", "--at", "z=1", "--at", "x=2")
    assert unknown.exit_code == 2
    assert "gradcli: error: --at z=...: z is not a variable of the function (its variables: x)" in unknown.stderr
    good = invoke("check", "x^2*y", "--wrt", "x", "--at", "x=2,y=3", "--json")
    assert json.loads(good.stdout)["results"][0]["at"]["derivative"] == 12.0  # hand: 2xy at (2, 3)


@pytest.mark.parametrize("args", [["check", "x^2*y", "--wrt", "", "--expect", "2xy"],
                                  ["check", "x^2*y", "--wrt", "x,,y", "--expect", "2x"],
                                  ["steps", "x^2", "--wrt", " "],
                                  ["plot", "x^2", "--wrt", ""]])
def test_an_empty_wrt_is_an_error_not_a_silent_default(args):
    # `--wrt ""` used to be dropped, and the derivative taken by the function's only variable
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "--wrt" in result.stderr and "empty variable name" in result.stderr
