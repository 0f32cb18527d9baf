"""Which operand maximum/minimum return on a tie of -0.0 and 0.0, element by element, against PyTorch 2.13
(tests/goldens/kernel_ties.json, scripts/make_kernel_goldens.py): torch's vectorised loop returns the second,
its element-by-element tail the first, and gradcli.engine.kernels says which elements each path computes.
And `--rows`, whose batch must give each row what its own single evaluation gives."""

from __future__ import annotations

import json

import numpy as np
import pytest
from goldens import load
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.engine import Tensor, kernels
from gradcli.engine.ops.activations import hardtanh
from gradcli.engine.ops.elementwise import relu
from gradcli.engine.ops.elementwise_math import clamp_any, maximum, minimum

GOLDEN = load("kernel_ties.json")
OPS = {"maximum": maximum, "minimum": minimum, "clamp_min": lambda x, bound: clamp_any(x, min=bound),
       "clamp_max": lambda x, bound: clamp_any(x, max=bound)}
UNARY = {"relu": relu, "clamp_min_number": lambda x: clamp_any(x, min=0.0),
         "clamp_max_number": lambda x: clamp_any(-x, max=-0.0), "hardtanh": lambda x: hardtanh(x, 0.0, 1.0)}


def layout(arr, transposed):
    return np.ascontiguousarray(arr.swapaxes(-1, -2)).swapaxes(-1, -2) if transposed and arr.ndim >= 2 else arr


def expand(run_lengths):
    bits, value = [], False
    for count in run_lengths:
        bits += [value] * count
        value = not value
    return np.array(bits, dtype=bool)


def case_id(c):
    return f"{c['op']}-{c['dtype']}-{c['shape']}-{c['other']}-{'T' if c['transposed'] else 'C'}-{int(c['swap'])}"


@pytest.mark.skipif(GOLDEN["threads"] != kernels.THREADS, reason="recorded with another thread count")
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=case_id)
def test_tie_operand_matches_torch(case):
    shape, other, dt = tuple(case["shape"]), tuple(case["other"]), case["dtype"]
    if case["swap"]:
        x, y = layout(np.zeros(shape, dtype=dt), case["transposed"]), np.full(other, -0.0, dtype=dt)
    else:
        x, y = layout(np.full(shape, -0.0, dtype=dt), case["transposed"]), np.zeros(other, dtype=dt)
    out = OPS[case["op"]](Tensor._make(x, None), Tensor._make(y, None)).array
    np.testing.assert_array_equal(np.signbit(out).reshape(-1), expand(case["signbit"]))


@pytest.mark.parametrize("case", GOLDEN["unary"], ids=lambda c: f"{c['op']}-{c['dtype']}-{c['n']}")
def test_number_bounds_and_relu_keep_the_input_on_a_tie(case):
    x = Tensor._make(np.full(case["n"], -0.0, dtype=case["dtype"]), None)
    np.testing.assert_array_equal(np.signbit(UNARY[case["op"]](x).array), expand(case["signbit"]))


def test_golden_covers_both_paths():
    # a golden where every element took one path could not catch a wrong split
    bits = [expand(c["signbit"]) for c in GOLDEN["cases"]]
    assert any(b.all() for b in bits) and any(not b.any() for b in bits) and any(0 < b.sum() < b.size for b in bits)


def run_cli(*args, input=None):
    return CliRunner().invoke(app, list(args), input=input)


def test_rows_batch_gives_each_row_its_single_evaluation():
    # found by test_rows_equal_single_evaluations: at x = -0.0 both sides are a signed zero and a row (one element)
    # takes torch's scalar path, which keeps maximum's first operand, -0.0
    expression = "maximum(where(x*2.0 > x*0.5, x*2.0, x*0.5), relu(2.0*x))"
    rows = run_cli("eval", "--rows", "-", "--json", expression, input="x\n-0.0\n0.0\n-0.0\n")
    outputs = [json.loads(line)["output"] for line in rows.stdout.splitlines()]
    singles = [json.loads(run_cli("eval", expression, f"x={v}", "--json", "--no-check").stdout)["output"]["value"]
               for v in ("-0.0", "0.0", "-0.0")]
    assert [np.signbit(v) for v in outputs] == [np.signbit(v) for v in singles] == [True, False, True]
