"""Every command's README examples rendered at 60, 80, 120 and 200 columns: no line wider than the width, no
matrix row split across lines, no wrapped line of a table cell or formula starting at column 0; the width
comes from --width, else COLUMNS, else (piped) stays wide.  A few renderings are kept as snapshots under
tests/cli/snapshots/ (regenerate with GRADCLI_UPDATE_SNAPSHOTS=1 and look at them)."""

from __future__ import annotations

import json
import os
import re
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
    ["(x.sin()*x).sum()", "x=randn(100000)", "--no-check"],  # summarised: 81 columns at 80 before
    ["(A**2).sum()", "A=randn(40,40)", "--no-check"],  # a summarised matrix
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
    ["(W@x).tanh().sum()", "W=randn(2,3)", "x=[1,2,3]"],  # matrix rows ran together, numbers split
    ["W*2", "W=randn(2,3)", "--grad-output", "ones(2,3)"],
    ["torch.sigmoid(w*x + b)", "w=0.5", "x=2", "b=-1"],
    ["--const", "y=1", "ln(1 + e^(wx+b)) - y(wx+b)", "w=0.5", "x=2", "b=-1"],
]
STEPS_EXAMPLES = [["ln((x+1)/(x-1))"], ["x^2 + y^2 = 25"]]

# How a line that begins at column 0 may begin: a new item of the output, never the continuation of one
EVAL_HEADS = ("output", "tensor", "sympy", "numeric", "warning", "hessian", "jacobian", "derivatives", "a,b", "x ",
              "y ", "W ", "A ", "w ", "b ", "z ", "x,", "y,", "A,", "x  ", "RuntimeError", "n  value",
              *(f"{n}  " for n in range(1, 10)))  # the rows of --order N
EXPLAIN_HEADS = ("output", "graph", "L = ", "└", "├", "forward", "chain rule", "note", "warning", "∂", "│", "value ",
                 "grad  ")


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


# -- print options (PyTorch's: threshold 1000 elements, --full, --threshold N) ------------------------------

MATRIX = [[1.5, -2.0, 3.25, 0.0, 4.0], [5.0, 6.5, -7.0, 8.0, 9.0], [1.0, 2.0, 3.0, 4.0, 5.0],
          [-1.0, -2.0, -3.0, -4.0, -5.0], [0.5, 0.25, 0.125, 2.0, 1.0]]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_5x5_gradient_prints_whole_as_a_matrix(width):
    """torch prints up to 1000 elements whole; a 5x5 matrix was flattened to 6 values and statistics."""
    text = _run("eval", ["(A**2).sum()", f"A={MATRIX}", "--no-check"], width)
    assert _matrix_rows_on_consecutive_lines(text, [[2 * v for v in row] for row in MATRIX])  # d(sum A²)/dA = 2A
    assert _matrix_rows_on_consecutive_lines(text, MATRIX)
    assert "‖·‖" not in text and "..." not in text and "…" not in text


def _numbers(line: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+\.\d*(?:e[-+]?\d+)?", line)]


def _contains(numbers: list[float], row: list[float]) -> bool:
    return any(numbers[k:k + len(row)] == row for k in range(len(numbers) - len(row) + 1))


def _matrix_rows_on_consecutive_lines(text: str, rows: list[list[float]]) -> bool:
    lines = [_numbers(line) for line in text.splitlines()]
    return any(all(_contains(lines[i + k], row) for k, row in enumerate(rows))
               for i in range(len(lines) - len(rows) + 1))


def _grad_numbers(text: str) -> list[float]:
    block = text.split(".grad", 1)[1]
    return [float(v) for v in block.replace("[", " ").replace("]", " ").split()]


@pytest.mark.parametrize("width", (60, 200))
def test_full_prints_every_element(width):
    text = _run("eval", ["(x**2).sum()/2", "x=arange(2000)", "--no-check", "--full"], width)
    assert _grad_numbers(text) == [float(k) for k in range(2000)]  # d(sum x²/2)/dx = x
    _assert_fits(text, width, EVAL_HEADS)


def test_the_default_threshold_is_torchs_1000_elements():
    assert _grad_numbers(_run("eval", ["(x**2).sum()/2", "x=arange(1000)", "--no-check"], 80)) == \
        [float(k) for k in range(1000)]
    text = _run("eval", ["(x**2).sum()/2", "x=arange(1001)", "--no-check"], 80)
    block = text.split(".grad", 1)[1]
    assert "..." in block and "max 1000" in block and "0.    1.    2." in block and "998.  999. 1000.]" in block


def test_threshold_summarises_past_n_elements_keeping_matrices():
    """torch.set_printoptions(threshold=24): an 8x8 tensor shows 3 edge items of each dimension around '...'."""
    text = _run("eval", ["(A**2).sum()", "A=eye(8)", "--no-check", "--threshold", "24"], 40)  # one block each
    grad = text.split(".grad", 1)[1].splitlines()
    matrix = grad[:7]
    edges = [[2.0 if k == j else 0.0 for k in (0, 1, 2, 5, 6, 7)] for j in (0, 1, 2, 5, 6, 7)]  # 2 * eye(8)
    assert [_numbers(line) for line in matrix if "[" in line] == edges
    assert matrix[3].strip() == "..." and all("..." in line for line in matrix)
    assert "min 0.0  max 2.0" in grad[7] and "‖·‖ 5.6569" in grad[7]  # sqrt(8 * 4)
    assert "max 1.0" in text.split(".grad", 1)[0]  # the value too: eye(8)
    whole = _run("eval", ["(A**2).sum()", "A=eye(8)", "--no-check", "--threshold", "64"], 80)
    assert "..." not in whole and "‖·‖" not in whole


@pytest.mark.parametrize("args", [["--full", "--threshold", "5"], ["--threshold", "-1"]])
def test_print_options_errors(args):
    result = runner.invoke(app, ["eval", "x*2", "x=1", *args])
    assert result.exit_code == 2 and "gradcli: error:" in result.stderr


def test_explain_prints_matrix_rows_whole_under_the_node():
    text = _run("explain", ["(W@x).tanh().sum()", "W=[[1.5,-2,3],[0.25,4,-1]]", "x=[1,2,3]"], 80)
    lines = [line.lstrip(" │├└─") for line in text.splitlines()]
    assert "value [[ 1.5  -2.    3.  ]" in lines and "[ 0.25  4.   -1.  ]]" in [line.strip() for line in lines]


def test_repl_help_wraps_under_its_column():
    result = runner.invoke(app, ["repl", "--width", "50"], input=":help\n")
    lines = result.stdout.splitlines()
    assert lines and all(cell_len(line) <= 50 for line in lines)
    assert all(line.startswith((":", "NAME", "const", "EXPRESSION", "Ctrl-C", " " * 22)) for line in lines), lines
