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


@pytest.mark.parametrize("mode", ["fast", "torch"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_exp_in_place_gives_the_bits_of_exp(mode, dtype):
    x = np.concatenate([np.random.default_rng(3).standard_normal(257) * 30,
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 709.7, -745.2, 88.7, -103.9]]).astype(dtype)
    with kernels.bits(mode), np.errstate(all="ignore"):
        expected = kernels.exp(x)
        y = x.copy()
        result = kernels.exp_(y)
    assert result is y
    np.testing.assert_array_equal(result.view(f"u{x.itemsize}"), expected.view(f"u{x.itemsize}"))


def test_logsumexp_holds_one_full_size_temporary():
    """torch computes (x - max).exp_() and grad * (x - result).exp(): logsumexp of a large matrix must not hold two
    temporaries of its size at once (fresh memory's page faults cost as much as the exp: 2x the time of torch)."""
    import tracemalloc

    from gradcli import engine as E

    x = E.Tensor(np.random.default_rng(0).standard_normal((500, 400)), requires_grad=True)
    size = x.array.nbytes
    x.detach().logsumexp(dim=1)  # the summation's per-thread scratch buffer and plan: made once, then reused
    tracemalloc.start()
    try:
        loss = x.logsumexp(dim=1).sum()
        forward_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        loss.backward()
        backward_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert forward_peak < 1.5 * size
    assert backward_peak < 1.5 * size + size  # the gradient itself, stored in x.grad
    m = x.array.max(axis=1, keepdims=True)
    softmax = np.exp(x.array - m) / np.exp(x.array - m).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(x.grad.array, softmax, rtol=1e-13)
