"""`gradcli eval` with class indices (issue 29, item 1), end to end: the issue's command, JSON's integers,
the error and hint for a float target, and the rows mode, the REPL and the Python API giving the same
numbers.  The values are PyTorch 2.13's (tests/goldens/class_indices.json, scripts/make_class_index_goldens.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

import gradcli
from gradcli.calc.repl import Settings, run
from gradcli.cli.commands import app
from gradcli.cli.terminal import make_console

runner = CliRunner()
RECORDED = json.loads((Path(__file__).parents[1] / "goldens" / "class_indices.json").read_text())["cases"]
ISSUE = next(c for c in RECORDED if c["consts"] == {"t": "[0]"} and c["expression"] == "F.cross_entropy(z, t)")
LOSS, GRAD = ISSUE["output"], ISSUE["grads"]["z"]  # torch: 0.41703001627783354, [[-0.34099886, ...]]


def test_the_issues_command_gives_torchs_loss():
    result = runner.invoke(app, ["eval", "F.cross_entropy(z, t)", "z=[[2.0,1.0,0.1]]", "--const", "t=[0]", "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert abs(obj["output"]["value"] - LOSS) < 1e-15
    np.testing.assert_allclose(obj["tensors"]["z"]["grad"], GRAD, rtol=1e-13)
    assert obj["symbolic"]["status"] == "agrees"  # sympy handles the integer constant
    assert '"value": [0]' in result.stdout  # int64 shown as an integer, not 0.0


def test_the_table_shows_an_int64_constant_as_integers():
    result = runner.invoke(app, ["eval", "F.cross_entropy(z, t)", "z=[[2.0,1.0,0.1],[1,2,3]]", "--const", "t=[0,2]",
                                 "--no-check"])
    assert result.exit_code == 0
    assert "[0 2]" in result.stdout and "[0. 2.]" not in result.stdout


def test_a_float_target_gets_torchs_error_and_a_hint():
    result = runner.invoke(app, ["eval", "F.cross_entropy(z, t)", "z=[[2.0,1.0,0.1]]", "--const", "t=[0.]"])
    assert result.exit_code == 2
    assert "gradcli: error: expected target dtype to be Long or Byte, but got Double" in result.output
    assert "hint: pass the class indices as integers: --const t=[0]" in result.output
    assert "batch_size" not in result.output


def test_a_target_that_requires_grad_gets_a_hint_naming_it():
    result = runner.invoke(app, ["eval", "F.cross_entropy(z, t)", "z=[[2.0,1.0,0.1]]", "t=[0]"])
    assert result.exit_code == 2
    assert "--const t=[0] (t requires grad, so it is floating)" in result.output


def test_rows_mode_agrees_with_single_evaluations(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("a,b\n2.0,1.0\n0.5,-1.0\n")
    expression = "F.cross_entropy(torch.stack([a, b, a*b]).reshape(1, 3), t)"
    out = runner.invoke(app, ["eval", expression, "--rows", str(rows), "--const", "t=[2]", "--format", "json",
                              "--no-check"])
    assert out.exit_code == 0, out.output
    answers = json.loads(out.stdout)
    for (a, b), answer in zip([(2.0, 1.0), (0.5, -1.0)], answers):
        single = gradcli.grad(expression, a=a, b=b, consts={"t": [2]}, check=False)
        assert answer["output"] == float(single.output)
        assert answer["grads"] == {"a": float(single.grads["a"]), "b": float(single.grads["b"])}


def test_the_repl_and_the_api_give_the_same_numbers():
    out, err = io.StringIO(), io.StringIO()
    console = make_console("never")
    console.file = out
    code = run(Settings(json=True, check=False), console, stdin=io.StringIO("const t = [0]\nz = [[2.0,1.0,0.1]]\n"
                                                                           "F.cross_entropy(z, t)\n"),
               stdout=out, stderr=err, interactive=False)
    assert code == 0, err.getvalue()
    obj = json.loads(out.getvalue().strip().splitlines()[-1])
    assert abs(obj["output"]["value"] - LOSS) < 1e-15
    api = gradcli.grad("F.cross_entropy(z, t)", z=[[2.0, 1.0, 0.1]], consts={"t": [0]})
    assert abs(float(api.output) - LOSS) < 1e-15 and api.check == "agrees"
    np.testing.assert_allclose(api.grads["z"], GRAD, rtol=1e-13)
    compiled = gradcli.compile("F.cross_entropy(torch.stack([z, 1.0 + 0*z, 0.1 + 0*z]).reshape(1, 3), t)",
                               consts={"t": [0]})
    assert abs(float(compiled(z=[2.0]).output[0]) - LOSS) < 1e-15


def _cross_entropy_grad(z: np.ndarray, t: np.ndarray) -> np.ndarray:
    """d mean(cross_entropy) / dz by hand: (softmax(z) - onehot(t)) / batch."""
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    p[np.arange(len(t)), t] -= 1
    return p / len(t)


def test_the_cross_check_reads_class_indices_above_one():
    # sympy's check evaluated an integer constant as Float symbols, so class 2 became class 1: it called the
    # (correct) gradient a disagreement and exited 1 with "this is a gradcli bug"
    z, t = np.array([[1.0, 2.0, 3.0], [0.5, 0.1, -1.0]]), np.array([2, 0])
    result = runner.invoke(app, ["eval", "F.cross_entropy(z, t)", "z=[[1.,2.,3.],[0.5,0.1,-1]]", "--const",
                                 "t=[2,0]", "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    np.testing.assert_allclose(obj["tensors"]["z"]["grad"], _cross_entropy_grad(z, t), rtol=1e-12)
    assert obj["symbolic"]["status"] == "agrees" and obj["symbolic"]["decided_by"] == "sympy"
    for expression, value in [("F.nll_loss(x, t)", "x=[[1.,2.,3.,4.]]"), ("W.index_select(0, t).sum()",
                                                                         "W=[[1.,2.],[3.,4.],[5.,6.]]")]:
        result = runner.invoke(app, ["eval", expression, value, "--const", "t=[3]" if "nll" in expression
                                     else "t=[2,1]", "--json"])
        assert result.exit_code == 0 and json.loads(result.stdout)["symbolic"]["status"] == "agrees", result.output


def test_the_numeric_check_keeps_an_index_constant_integer():
    # the finite-difference check cast every constant to float64: embedding refused its float indices (exit 2)
    result = runner.invoke(app, ["eval", "F.embedding(t, W).pow(2).sum()", "W=[[1.,2.],[3.,4.],[5.,6.]]", "--const",
                                 "t=[2,1]", "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["tensors"]["W"]["grad"] == [[0.0, 0.0], [6.0, 8.0], [10.0, 12.0]]  # 2 W[i] at rows 2 and 1
    assert obj["symbolic"]["status"] == "agrees"


def test_the_float_target_hint_names_the_target_not_the_input():
    # the hint named the first integral-valued float tensor: --const logits=[1,2,3] for the loss's input
    result = runner.invoke(app, ["eval", "F.cross_entropy(logits, target)", "logits=[1.0,2.0,3.0]", "target=2"])
    assert result.exit_code == 2
    assert "--const target=2" in result.output and "--const logits" not in result.output
    result = runner.invoke(app, ["eval", "F.embedding(t, W).sum()", "W=[[1.0,2.0],[3.,4.]]", "t=[1,0]"])
    assert result.exit_code == 2 and "--const t=[1,0]" in result.output  # embedding's indices come first
