"""`gradcli eval`: the answer at once, a verdict always (issue 29, item 2)."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from gradcli.calc import calculator
from gradcli.cli.commands import app

runner = CliRunner()


def test_the_table_prints_the_answer_before_the_check_runs(monkeypatch):
    printed_before_check = []
    original = calculator.attach_checks

    def spy(result, **kwargs):
        import sys

        sys.stdout.flush()
        printed_before_check.append(sys.stdout.buffer.getvalue().decode())  # CliRunner's captured bytes so far
        return original(result, **kwargs)

    monkeypatch.setattr("gradcli.cli.eval.attach_checks", spy)
    result = runner.invoke(app, ["eval", "(x**2).sum()", "x=[1,2,3]", "--color", "never"])
    assert result.exit_code == 0
    assert len(printed_before_check) == 1
    assert "output  14.0" in printed_before_check[0] and "[2. 4. 6.]" in printed_before_check[0]
    assert "sympy" not in printed_before_check[0]  # the check's line comes after it
    assert result.stdout.index("[2. 4. 6.]") < result.stdout.index("sympy   ∂/∂x_i = 2·x_i   agrees")


def test_json_carries_the_verdict_in_the_same_object():
    result = runner.invoke(app, ["eval", "(x**2).sum()", "x=[1,2,3]", "--json"])
    obj = json.loads(result.stdout)
    assert obj["symbolic"]["status"] == "agrees" and obj["symbolic"]["decided_by"] == "sympy"


def test_the_issues_slow_examples_get_a_verdict_not_skipped():
    for args in (["(W@x).softmax(0).log().sum()", "W=randn(7,8)", "x=randn(8)"],
                 ["torch.linalg.det(A)", "A=randn(5,5)"]):
        result = runner.invoke(app, ["eval", *args, "--json"])
        assert result.exit_code == 0
        check = json.loads(result.stdout)["symbolic"]
        assert check["status"] == "agrees", check
        assert check["decided_by"] in ("sympy", "numeric")
        if check["decided_by"] == "numeric":
            assert check["error_bound"] < 1e-10 and "sympy took longer than" in check["sympy"]


def test_the_numeric_verdict_is_printed_with_what_decided_it():
    result = runner.invoke(app, ["eval", "torch.linalg.det(A)", "A=randn(5,5)", "--check-timeout", "0.000001",
                                 "--color", "never"])
    assert result.exit_code == 0
    assert "check   agrees — numeric (mpmath, 30 digits, |Δ| ≤ " in result.stdout
    assert "sympy took longer than 1e-06 s of CPU" in " ".join(result.stdout.split())


def test_a_wrong_gradient_caught_by_the_numeric_check_exits_1(monkeypatch):
    original = calculator.evaluate_expression

    def wrong(*args, **kwargs):
        result = original(*args, **kwargs)
        result.tensors["A"].grad = np.asarray(result.tensors["A"].grad) * 1.001
        return result

    monkeypatch.setattr(calculator, "evaluate_expression", wrong)
    result = runner.invoke(app, ["eval", "torch.linalg.det(A)", "A=randn(5,5)", "--check-timeout", "0.000001"])
    assert result.exit_code == 1
    assert "gradcli: error: autograd and 30-digit finite differences disagree" in result.output
