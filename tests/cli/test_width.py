"""Every command's README examples rendered at 60, 80, 120 and 200 columns: no line wider than the width, no
matrix row split across lines, no wrapped line of a table cell or formula starting at column 0; the width
comes from --width, else COLUMNS, else (piped) stays wide.  A few renderings are kept as snapshots under
tests/cli/snapshots/ (regenerate with GRADCLI_UPDATE_SNAPSHOTS=1 and look at them)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.render.text import format_array

runner = CliRunner()
WIDTHS = (60, 80, 120, 200)
SNAPSHOTS = Path(__file__).parent / "snapshots"

EVAL_EXAMPLES = [
    ["(x**2).sum()", "x=[1,2,3]"],
    ["w*x + b", "x=2", "w=3", "b=1", "--const", "z=4", "--no-check"],
    ["(W@x).tanh().sum()", "W=randn(2,3)", "x=[1,2,3]"],
    ["(W@x).tanh().sum()", "W=randn(4,6)", "x=randn(6)"],
    ["(x @ A @ x) * y.sum()", "x=[1,2,3]", "y=[2,3]", "A=[[1,2,3],[4,5,6],[7,8,9]]", "--hessian", "--no-check"],
    ["x**3", "x=2", "--order", "3", "--no-check"],
    ["x**2", "x=1", "--hessian", "--no-check"],
    ["x*2", "x=1", "--jacobian", "--no-check"],
]
CHECK_EXAMPLES = [
    ["x^2 sin x", "--expect", "2x cos x"],
    ["x^2 + xy", "--wrt", "x", "--expect", "2x"],
    ["10^x", "--expect", "2.302585·10^x"],
    ["x^2 y + y^3", "--hessian"],
    ["x^2 + y^2 = 25", "--wrt", "x", "--expect", "dy/dx = -x/sqrt(25 - x^2)"],
    ["e^(2x) arcsin(x)"],
    ["x^2 sin x", "--expect", "2x sin x + x^2 cos x", "--steps"],
]
EXPLAIN_EXAMPLES = [
    ["torch.sigmoid(w*x + b)", "w=0.5", "x=2", "b=-1"],
    ["--const", "y=1", "ln(1 + e^(wx+b)) - y(wx+b)", "w=0.5", "x=2", "b=-1"],
]
STEPS_EXAMPLES = [["ln((x+1)/(x-1))"], ["x^2 + y^2 = 25"]]

# How a line that begins at column 0 may begin: a new item of the output, never the continuation of one
EVAL_HEADS = ("output", "tensor", "sympy", "numeric", "warning", "hessian", "jacobian", "derivatives", "a,b", "x ",
              "y ", "W ", "A ", "w ", "b ", "z ", "x,", "y,", "A,", "x  ", "RuntimeError", "n  value",
              *(f"{n}  " for n in range(1, 10)))  # the rows of --order N
EXPLAIN_HEADS = ("output", "graph", "L = ", "└", "├", "forward", "chain rule", "note", "warning", "∂", "│")


def _run(command, args, width=None, env=None):
    argv = [command, *args] + (["--width", str(width)] if width else [])
    result = runner.invoke(app, argv, env=env)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _assert_fits(text, width, heads=None, wide=None):
    """No line wider than `width`; a line at column 0 starts a new item: it begins with one of `heads`, or
    it is the beginning of a line that starts at column 0 in the `wide` rendering too."""
    starts = [line for line in (wide or "").splitlines() if line and not line[0].isspace()]
    for line in text.splitlines():
        assert cell_len(line) <= width, f"{cell_len(line)} > {width}: {line!r}"
        if line and not line[0].isspace():
            ok = (heads is not None and line.startswith(heads)) or any(w.startswith(line.rstrip()) for w in starts)
            assert ok, f"a continuation at column 0: {line!r}"


def _wide(command, args):
    return _run(command, args, 1000)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", EVAL_EXAMPLES, ids=lambda a: a[0])
def test_eval_fits_the_width_and_keeps_matrix_rows_whole(args, width):
    text = _run("eval", args, width)
    _assert_fits(text, width, EVAL_HEADS)
    data = json.loads(runner.invoke(app, ["eval", "--json", *args]).stdout)
    for tensor in data["tensors"].values():
        for key in ("value", "grad"):
            array = np.asarray(tensor[key] if tensor[key] is not None else [])
            if array.ndim == 2 and array.size <= 24:  # each printed row that fits on one line, as numpy prints it
                for row in format_array(array).splitlines():
                    if cell_len(row) + 9 <= width:
                        assert any(row.strip() in line for line in text.splitlines()), (row, text)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", CHECK_EXAMPLES, ids=lambda a: " ".join(a))
def test_check_fits_the_width(args, width):
    _assert_fits(_run("check", args, width), width, wide=_wide("check", args))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", EXPLAIN_EXAMPLES, ids=lambda a: " ".join(a))
def test_explain_fits_the_width(args, width):
    _assert_fits(_run("explain", args, width), width, EXPLAIN_HEADS, wide=_wide("explain", args))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", STEPS_EXAMPLES, ids=lambda a: a[0])
def test_steps_fits_the_width(args, width):
    _assert_fits(_run("steps", args, width), width, wide=_wide("steps", args))


@pytest.mark.parametrize("width", WIDTHS)
def test_ops_fits_the_width(width):
    text = _run("ops", [], width)
    for line in text.splitlines():
        assert cell_len(line) <= width, line
    assert "sort(input" in text


@pytest.mark.parametrize("width", (60, 80))
def test_repl_answers_fit_the_width(width):
    session = "x = [1,2,3]\n(x**2).sum()\nW = randn(2,3)\n(W@x).tanh().sum()\n"
    result = runner.invoke(app, ["repl", "--width", str(width)], input=session)
    assert result.exit_code == 0, result.output
    _assert_fits(result.stdout, width, EVAL_HEADS + ("x = ", "W = ", "gradcli repl"))


def test_columns_sets_the_width_when_piped_and_otherwise_rows_are_not_folded():
    args = ["(W@x).tanh().sum()", "W=randn(4,6)", "x=randn(6)", "--no-check"]
    narrow = _run("eval", args, env={"COLUMNS": "70"})
    assert max(cell_len(line) for line in narrow.splitlines()) <= 70
    wide = _run("eval", args, env={"COLUMNS": ""})
    assert max(cell_len(line) for line in wide.splitlines()) > 80  # the table, one line per matrix row
    assert wide.splitlines()[1].startswith("tensor")
    assert _run("eval", args, width=70) == narrow  # --width is COLUMNS's equal


def test_a_long_formula_is_wrapped_at_operators_with_a_hanging_indent():
    text = _run("eval", ["(W@x).tanh().sum()", "W=randn(2,3)", "x=[1,2,3]"], 80)
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.lstrip().startswith("∂/∂x_0"))
    continuation = lines[first + 1]
    assert continuation.startswith(" " * 12) and continuation.lstrip()[0] in "+-", continuation


def test_a_formula_that_needs_many_lines_is_summarised():
    text = _run("eval", ["(W@x).tanh().sum()", "W=randn(2,3)", "x=[1,2,3]"], 40)
    assert "∂/∂x: 3 element formulas" in text


SNAPSHOT_CASES = {
    "eval_tanh_80": ("eval", ["(W@x).tanh().sum()", "W=randn(2,3)", "x=[1,2,3]"], 80),
    "eval_tanh_60": ("eval", ["(W@x).tanh().sum()", "W=randn(2,3)", "x=[1,2,3]"], 60),
    "check_steps_60": ("check", ["x^2 sin x", "--expect", "2x sin x + x^2 cos x", "--steps"], 60),
    "explain_60": ("explain", ["torch.sigmoid(w*x + b)", "w=0.5", "x=2", "b=-1"], 60),
    "steps_60": ("steps", ["ln((x+1)/(x-1))"], 60),
}


@pytest.mark.parametrize("name", list(SNAPSHOT_CASES))
def test_snapshots(name):
    command, args, width = SNAPSHOT_CASES[name]
    text = _run(command, args, width)
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("GRADCLI_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()
