"""Issue 15 §3: a disagreement between autograd and an independent check is a gradcli bug (stderr, exit 1);
nan/inf that the computation produced from finite inputs is a warning in every mode; and an expression that
starts with a minus and holds `=` is an expression, not an option."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.cli.main import expression_may_start_with_minus
from gradcli.engine.ops import arith


def invoke(*args, input=None):
    return CliRunner().invoke(app, list(args), input=input)


@pytest.fixture
def broken_mul(monkeypatch):
    """An engine bug on purpose: MulBackward0 hands out twice the true gradient (d(x*3)/dx would be 6)."""
    true_backward = arith.Mul.backward

    def doubled(ctx, g, a, b):
        return tuple(None if r is None else r * 2 for r in true_backward(ctx, g, a, b))

    monkeypatch.setattr(arith.Mul, "backward", staticmethod(doubled))


def test_disagreement_is_an_error_on_stderr_and_exit_1(broken_mul):
    result = invoke("eval", "x*3", "x=2")
    assert result.exit_code == 1
    assert "gradcli: error: autograd and sympy disagree on x: 6 vs 3 — this is a gradcli bug" in result.stderr
    assert "--no-strict" in result.stderr


def test_disagreement_json_carries_it(broken_mul):
    result = invoke("eval", "x*3", "x=2", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["disagreements"] == ["autograd and sympy disagree on x: 6 vs 3"]
    assert data["symbolic"]["status"] == "disagrees"


def test_no_strict_keeps_exit_0_but_still_says_it(broken_mul):
    result = invoke("eval", "x*3", "x=2", "--no-strict")
    assert result.exit_code == 0
    assert "disagree on x" in result.stderr


def test_gradcheck_disagreement_is_an_error(broken_mul):
    result = invoke("eval", "x*3", "x=2", "--no-check", "--gradcheck")
    assert result.exit_code == 1
    assert "autograd and finite differences disagree on x: 6 vs 3" in result.stderr


def test_rows_check_disagreement_exits_1(broken_mul):
    # x*y on many rows: looped or batched, Mul's doubled rule is wrong on every row
    result = invoke("eval", "x*y", "--rows", "-", "--check", input="x,y\n1,2\n3,4\n")
    assert result.exit_code == 1, result.output
    assert "disagree on 2 of 2 rows (first: line 2)" in result.stderr
    assert invoke("eval", "x*y", "--rows", "-", "--check", "--no-strict", input="x,y\n1,2\n").exit_code == 0


def test_agreement_exits_0():
    result = invoke("eval", "x*3", "x=2")
    assert result.exit_code == 0 and "agrees" in result.stdout and result.stderr == ""


OVERFLOW = ("x*10", "x=1e308")  # 1e309 is inf: produced by the computation from a finite input
WARNING = "the output contains inf though every input is finite"


def test_non_finite_output_warns_in_the_table_and_strict_exits_1():
    result = invoke("eval", *OVERFLOW)
    assert result.exit_code == 0 and WARNING in result.stdout
    assert invoke("eval", *OVERFLOW, "--strict").exit_code == 1


def test_non_finite_output_warns_in_json_raw_and_files(tmp_path):
    data = json.loads(invoke("eval", *OVERFLOW, "--json", "--no-check").stdout)
    assert any(WARNING in w for w in data["warnings"])
    raw = invoke("eval", *OVERFLOW, "-r", "--no-check")
    assert raw.stdout.strip() == "10.0" and WARNING in raw.stderr
    out = invoke("eval", *OVERFLOW, "-o", str(tmp_path / "o.json"), "--no-check")
    assert WARNING in out.stderr


def test_non_finite_from_non_finite_inputs_is_not_news():
    result = invoke("eval", "x*10", "x=inf", "--json", "--no-check")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["warnings"] == []
    assert invoke("eval", "x*10", "x=inf", "--strict", "--no-check").exit_code == 0


def test_non_finite_gradient_warns():
    data = json.loads(invoke("eval", "sqrt(x)", "x=0", "--json", "--no-check").stdout)
    assert data["tensors"]["x"]["grad"] == "inf"  # d/dx sqrt(x) = 1/(2 sqrt(x)) at 0
    assert data["warnings"] == ["x.grad contains inf"]


def test_explain_warns():
    text = invoke("explain", *OVERFLOW)
    assert text.exit_code == 0 and WARNING in text.stdout
    data = json.loads(invoke("explain", *OVERFLOW, "--json").stdout)
    assert any(WARNING in w for w in data["warnings"])


def test_rows_warn_and_strict_exits_1():
    rows = "x\n1e308\n2\ninf\n"  # line 2 overflows; line 4's inf was in the input
    result = invoke("eval", "x*10", "--rows", "-", "--no-check", input=rows)
    assert result.exit_code == 0
    assert "1 of 3 rows produced nan or inf from finite inputs" in result.stderr and "first: line 2" in result.stderr
    assert invoke("eval", "x*10", "--rows", "-", "--no-check", "--strict", input=rows).exit_code == 1
    looped = invoke("eval", "x.sum()*10", "--rows", "-", "--no-check", "--strict", input=rows)  # not batched
    assert looped.exit_code == 1 and "1 of 3 rows" in looped.stderr
    assert invoke("eval", "x*10", "--rows", "-", "--strict", input="x\n2\ninf\n").exit_code == 0


@pytest.mark.parametrize("command", ["eval", "explain"])
def test_leading_minus_with_equals_is_the_expression(command):
    argv = ["gradcli", command, "-torch.norm(x, p=2)", "x=[3,4]"]
    expression_may_start_with_minus(argv)
    result = invoke(*argv[1:], *(["--json"] if command == "eval" else []))
    assert result.exit_code == 0, result.output
    if command == "eval":
        data = json.loads(result.stdout)
        assert data["output"]["value"] == -5.0
        np.testing.assert_allclose(data["tensors"]["x"]["grad"], [-0.6, -0.8])  # -x/|x|


def test_glued_short_option_stays_an_option():
    argv = ["gradcli", "eval", "-cz=4", "x*2", "x=1"]
    expression_may_start_with_minus(argv)
    assert argv[2] == "-cz=4"
    result = invoke(*argv[1:], "--json", "--no-check")
    assert json.loads(result.stdout)["tensors"]["z"]["requires_grad"] is False
