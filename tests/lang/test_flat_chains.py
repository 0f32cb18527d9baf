"""A flat chain is not nesting (issue 17): x + x + ... with 69 terms was refused as "nested more than 64
levels deep".  Depth counts as the user wrote it (a chain of + and -, or of * and /, is one level); the
syntax tree's own depth is bounded separately, and evaluation of a long chain does not overflow Python's
recursion (1,000 terms with --max-depth raised was an internal RecursionError)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.lang.evaluation import evaluate_expression
from gradcli.lang.parser import MAX_TREE_DEPTH, parse
from gradcli.safety.errors import ParseError
from gradcli.safety.limits import Limits


@pytest.mark.parametrize("n", [69, 300, 1999])
def test_long_sums_evaluate(n):
    limits = Limits(max_nodes=10 * n)
    result = evaluate_expression("+".join(["x"] * n), {"x": np.array(1.5)}, limits=limits)
    assert result.output == pytest.approx(1.5 * n)
    assert result.tensors["x"].grad == n  # d/dx of n copies of x


def test_products_and_differences_chain_too():
    parse("*".join(["x"] * 100))
    parse(" - ".join(["x"] * 100) + " / y * z")
    result = evaluate_expression("*".join(["x"] * 100), {"x": np.array(1.01)})
    assert result.tensors["x"].grad == pytest.approx(100 * 1.01 ** 99)


def test_real_nesting_still_counts():
    deep = "sin(" * 65 + "x" + ")" * 65
    with pytest.raises(ParseError, match="nested more than 64 levels deep"):
        parse(deep)
    nested_sum = "(x + " * 65 + "x" + ")" * 65  # each right operand is a new parenthesised sum: nesting
    with pytest.raises(ParseError, match="nested more than 64 levels deep"):
        parse(nested_sum)


def test_tree_depth_is_bounded():
    with pytest.raises(ParseError, match=f"chains more than {MAX_TREE_DEPTH} operations") as info:
        parse("+".join(["x"] * (MAX_TREE_DEPTH + 10)), Limits(max_nodes=100_000))
    assert info.value.hint


def test_a_size_limit_ends_with_a_hint():
    from typer.testing import CliRunner

    from gradcli.cli.commands import app

    result = CliRunner().invoke(app, ["eval", "torch.diag(x)", "x=[1.0, 2.0, 3.0]", "--max-elements", "5",
                                      "--no-check"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("gradcli: error: diag() would create a tensor of shape (3, 3)")
    assert lines[-1] == "hint: raise the limit with --max-elements, or work on a smaller tensor"
