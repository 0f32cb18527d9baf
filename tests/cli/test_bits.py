"""The one switch between the fast kernels and PyTorch's bits (docs/deviations.md, "Kernels: fast by default"):
--bits on the commands, GRADCLI_BITS, the API's bits=, torch's bits by default in `gradcli run`.

At x = 0.4351758793969849 PyTorch 2.13's exp (MKL's vdExp, float64) is 1.5452348100195172 - measured with
torch.exp(torch.tensor([x], dtype=torch.float64)).item() - one ulp above the correctly rounded
1.545234810019517 that numpy's exp and the fast mode give."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import gradcli
from gradcli.cli.commands import app

X = "0.4351758793969849"
TORCH_EXP = 1.5452348100195172
FAST_EXP = 1.545234810019517
PROGRAM = f"import torch\nx = torch.tensor([{X}], dtype=torch.float64)\nprint(torch.exp(x).item())\n"
runner = CliRunner()


def eval_exp(*options, env=None):
    result = runner.invoke(app, ["eval", "exp(x).sum()", f"x={X}", "--json", "--no-check", *options], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["output"]["value"]


def test_eval_is_fast_by_default_and_torchs_bits_with_the_switch():
    assert eval_exp() == FAST_EXP
    assert eval_exp("--bits", "torch") == TORCH_EXP
    assert eval_exp("--bits", "fast") == FAST_EXP


def test_the_environment_sets_the_default_and_the_option_wins():
    assert eval_exp(env={"GRADCLI_BITS": "torch"}) == TORCH_EXP
    assert eval_exp(env={"GRADCLI_BITS": " Torch "}) == TORCH_EXP
    assert eval_exp("--bits", "fast", env={"GRADCLI_BITS": "torch"}) == FAST_EXP


def test_a_bad_environment_value_is_one_line_and_exit_2():
    result = runner.invoke(app, ["eval", "exp(x)", "x=1", "--no-check"], env={"GRADCLI_BITS": "exact"})
    assert result.exit_code == 2
    assert "gradcli: error: GRADCLI_BITS must be 'fast' or 'torch', not 'exact'" in result.output
    assert "Traceback" not in result.output


def test_a_bad_option_value_is_a_usage_error():
    result = runner.invoke(app, ["eval", "exp(x)", "x=1", "--bits", "exact"])
    assert result.exit_code == 2


def test_rows_and_explain_take_the_switch(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text(f"x\n{X}\n")
    for options, expected in (((), FAST_EXP), (("--bits", "torch"), TORCH_EXP)):
        result = runner.invoke(app, ["eval", "exp(x)", "--rows", str(rows), "--format", "ndjson", *options])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.splitlines()[0])["output"] == expected
    result = runner.invoke(app, ["explain", "exp(x)", f"x={X}", "--json", "--bits", "torch"])
    assert result.exit_code == 0, result.output
    assert repr(TORCH_EXP) in result.stdout


def test_run_prints_torchs_bits_by_default(tmp_path):
    program = tmp_path / "p.py"
    program.write_text(PROGRAM)
    result = runner.invoke(app, ["run", str(program)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{TORCH_EXP}\n"
    result = runner.invoke(app, ["run", str(program), "--bits", "fast"])
    assert result.stdout == f"{FAST_EXP}\n"
    result = runner.invoke(app, ["run", str(program)], env={"GRADCLI_BITS": "fast"})
    assert result.stdout == f"{FAST_EXP}\n"


def test_the_api_takes_bits_per_call():
    x = float(X)
    assert float(gradcli.grad("exp(x).sum()", x=[x], check=False).output) == FAST_EXP
    assert float(gradcli.grad("exp(x).sum()", x=[x], check=False, bits="torch").output) == TORCH_EXP
    assert float(gradcli.grad("exp(x).sum()", x=[x], check=False).output) == FAST_EXP  # nothing leaked
    f, g = gradcli.compile("exp(x)", bits="torch"), gradcli.compile("exp(x)")
    assert f(x=[x]).output.tolist() == [TORCH_EXP] and g(x=[x]).output.tolist() == [FAST_EXP]
    assert gradcli.run_program(PROGRAM).stdout == f"{TORCH_EXP}\n"
    assert gradcli.run_program(PROGRAM, bits="fast").stdout == f"{FAST_EXP}\n"
    with pytest.raises(gradcli.GradcliError, match="'fast' or 'torch'"):
        gradcli.grad("exp(x)", x=1.0, bits="exact")


def test_repl_takes_the_switch():
    session = f"x = {X}\nexp(x)\n"
    for options, expected in (((), FAST_EXP), (("--bits", "torch"), TORCH_EXP)):
        result = runner.invoke(app, ["repl", "--no-check", "--json", *options], input=session)
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout.strip().splitlines()[-1])["output"]["value"] == expected
