"""`gradcli eval` end to end: the seeds' examples as commands, JSON shape, exit codes, error messages."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def run_json(*args, input=None):
    """--json without the sympy cross-check (tested in test_symbolic.py): the engine's own answer."""
    result = run(*args, "--json", "--no-check", input=input)
    return result, (json.loads(result.stdout) if result.stdout.strip() else None)


def test_seed_sum_of_squares_as_a_command():
    result, obj = run_json("eval", "(x**2).sum()", "x=[1,2,3]")
    assert result.exit_code == 0
    assert obj["output"] == {"value": 14.0, "shape": []}
    assert obj["tensors"]["x"]["grad"] == [2.0, 4.0, 6.0]


def test_seed_linear_with_const():
    result, obj = run_json("eval", "w*x + b", "x=2", "w=3", "b=1", "--const", "z=4")
    assert result.exit_code == 0
    grads = {n: t["grad"] for n, t in obj["tensors"].items()}
    assert grads == {"x": 3.0, "w": 2.0, "b": 1.0, "z": None}
    assert obj["tensors"]["z"]["requires_grad"] is False
    assert obj["output"]["value"] == 7.0


def test_seed_square_at_two():
    result, obj = run_json("eval", "x**2", "x=2")
    assert obj["tensors"]["x"]["grad"] == 4.0


def test_table_output_shows_value_and_grad():
    result = run("eval", "(x**2).sum()", "x=[1,2,3]", "--no-color")
    assert result.exit_code == 0
    assert "14.0" in result.stdout
    assert "[2. 4. 6.]" in result.stdout
    assert "\x1b[" not in result.stdout  # no colour codes when not a terminal


def test_json_is_one_strict_object_with_non_finite_as_strings():
    result, obj = run_json("eval", "torch.sqrt(x).sum()", "x=[0,4]")
    assert result.exit_code == 0
    assert obj["tensors"]["x"]["grad"] == ["inf", 0.25]
    assert any("inf" in w for w in obj["warnings"])
    json.loads(result.stdout, parse_constant=lambda c: pytest.fail(f"non-strict JSON constant {c}"))
    assert len(result.stdout.strip().splitlines()) == 1


def test_unused_tensor_keeps_none_grad_and_is_reported():
    result, obj = run_json("eval", "x*2", "x=1", "y=[1,2]")
    assert obj["tensors"]["y"]["grad"] is None and obj["tensors"]["y"]["used"] is False
    assert any("y is not used" in w for w in obj["warnings"])


def test_non_scalar_output_without_grad_output_is_torch_error_exit_2():
    result = run("eval", "x**2", "x=[1,2]", "--no-color")
    assert result.exit_code == 2
    assert "[1. 4.]" in result.stdout  # the value is still shown
    assert "grad can be implicitly created only for scalar outputs" in result.stderr


def test_grad_output_is_the_backward_gradient():
    result, obj = run_json("eval", "x**2", "x=[1,2,3]", "--grad-output", "[1,0,2]")
    assert result.exit_code == 0
    assert obj["tensors"]["x"]["grad"] == [2.0, 0.0, 12.0]


def test_grad_output_shape_mismatch_is_an_error():
    result = run("eval", "x**2", "x=[1,2,3]", "--grad-output", "[1,0]")
    assert result.exit_code == 2
    assert "Mismatch in shape" in result.stderr


# torch 2.13: x = torch.tensor([1., 2.], requires_grad=True); (x**2).backward(torch.tensor(1.)) raises this
TORCH_SCALAR_MISMATCH = ("RuntimeError: Mismatch in shape: grad_output[0] has a shape of torch.Size([]) and output[0] "
                         "has a shape of torch.Size([2]).")


@pytest.mark.parametrize("command", ["eval", "explain"])
def test_scalar_grad_output_is_not_broadcast_to_a_vector_output(command):
    """A silently wrong input: `--grad-output 1` on a (2,) output was broadcast to [1, 1]; torch refuses it."""
    result = run(command, "x**2", "x=[1,2]", "--grad-output", "1", "--no-color")
    assert result.exit_code == 2
    assert TORCH_SCALAR_MISMATCH.removeprefix("RuntimeError: ") in result.stderr
    assert "[2. 4.]" not in result.stdout


def test_scalar_grad_output_of_a_scalar_output_weights_it():
    result, obj = run_json("eval", "x**2", "x=2", "--grad-output", "3")
    assert result.exit_code == 0 and obj["tensors"]["x"]["grad"] == 12.0  # 3 * 2x


@pytest.mark.parametrize("expr,needle", [
    ("sigmod(x)", "did you mean `sigmoid`"),
    ("__import__('os')", "names starting with '_' are not allowed"),
    ("x.__class__", "names starting with '_' are not allowed"),
    ("lambda: x", "lambda is not allowed"),
    ("[v for v in x]", "comprehension is not allowed"),
    ("x + 'a'", "a string is not allowed here"),
    ("x.sum(", "never closed"),
    ("2x", "multiplication and calls written out: 2*x"),
    ("x +* 2", "invalid syntax"),
    ("x**100000", "exceeds the limit"),
])
def test_bad_expressions_give_one_clear_error_with_caret(expr, needle):
    result = run("eval", expr, "x=[1,2]")
    assert result.exit_code == 2
    assert result.stderr.startswith("gradcli: error:")
    assert needle in result.stderr
    assert "^" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("expr, spelled", [("x^2 sin x", "x^2*sin(x)"), ("2x + 3", "2*x + 3"),
                                           ("e^(2x) arcsin(x)", "e^(2*x)*asin(x)"), ("x^2 sin(x y)", "x^2*sin(x*y)")])
def test_homework_notation_in_eval_names_the_commands_that_read_it_and_the_eval_spelling(expr, spelled):
    result = run("eval", expr, "x=0.3", "y=0.7", "--no-check")
    assert result.exit_code == 2
    hint = result.stderr.splitlines()[-1]
    assert "gradcli check, explain and steps" in hint and hint.endswith(": " + spelled)
    # the spelling it shows is what the homework reader computes (explain reads homework notation)
    _, ours = run_json("eval", spelled, "x=0.3", "y=0.7")
    expected = json.loads(run("explain", expr, "x=0.3", "y=0.7", "--json").stdout)["output"]
    assert ours["output"]["value"] == pytest.approx(expected, rel=1e-15)


def _homework_function_names():
    from gradcli.homework.reader import ALIASES, FUNCTIONS
    from gradcli.lang import names

    return sorted(n for n in set(ALIASES) | set(FUNCTIONS) if n.isidentifier() and names.resolve_function((n,)) is None
                  and not n.startswith(("max", "min", "log")))


@pytest.mark.parametrize("name", _homework_function_names())
def test_math_notation_that_eval_does_not_read_gets_its_pytorch_spelling(name):
    """ln(x) -> did you mean `log(x)`: every function name the homework reader reads and eval does not, and
    the spelling named evaluates to what check/explain read NAME(x) as."""
    result = run("eval", f"{name}(x)", "x=1.5")
    assert result.exit_code == 2 and f"unknown function '{name}'" in result.stderr
    hint = result.stderr.splitlines()[-1]
    assert hint.startswith("hint: did you mean `") and "gradcli check, explain and steps" in hint, hint
    spelled = hint.split("`")[1]
    for x in ("1.5", "0.5"):
        expected = json.loads(run("explain", f"{name}(x)", f"x={x}", "--json").stdout)["output"]
        _, ours = run_json("eval", spelled, f"x={x}")
        if isinstance(expected, float):
            assert ours["output"]["value"] == pytest.approx(expected, rel=1e-15), (x, spelled)
        else:
            assert ours["output"]["value"] == expected


def test_a_value_generator_with_arithmetic_is_torchs_draw_scaled():
    # torch.manual_seed(0); torch.randn(2, 2, dtype=torch.float64) / 20 -> first element 1.5409961082440433 / 20
    _, obj = run_json("eval", "A.sum()", "A=randn(2,2)/20")
    assert obj["tensors"]["A"]["value"][0][0] == 1.5409961082440433 / 20


@pytest.mark.parametrize("args, hint", [
    (["x=2", "x**2"], 'hint: gradcli eval "x**2" x=2'),
    (["x=2", "y=3", "x*y"], 'hint: gradcli eval "x*y" x=2 y=3'),
])
def test_eval_says_the_expression_comes_first(args, hint):
    result = run("eval", *args)
    assert result.exit_code == 2 and "the expression comes first" in result.stderr
    assert result.stderr.splitlines()[-1] == hint


@pytest.mark.parametrize("args, hint", [
    (["y = x**2", "x=1"], 'hint: gradcli eval "x**2" x=1'),
    (["f = (x*y).sum()", "x=[1,2]", "y=[3,4]"], 'hint: gradcli eval "(x*y).sum()" "x=[1,2]" "y=[3,4]"'),
])
def test_eval_of_an_assignment_says_to_drop_the_left_side(args, hint):
    # `gradcli eval "y = x**2" x=1` was told the expression comes first and to type "EXPRESSION" y = x**2
    result = run("eval", *args)
    assert result.exit_code == 2 and "takes the expression alone, not an assignment" in result.stderr
    assert result.stderr.splitlines()[-1] == hint


@pytest.mark.parametrize("expr, hint", [
    ("x.max(dim=0)", "take one: add .values (or [0]), or .indices"),
    ("x.max(dim=0) * 2", "take one: .values (or [0]), or .indices"),
    ("torch.sort(x).exp()", ".values"),
])
def test_a_values_indices_result_gets_a_hint_about_values(expr, hint):
    result = run("eval", expr, "x=[1,3,2]")
    assert result.exit_code == 2 and hint in result.stderr.splitlines()[-1], result.stderr


def test_ops_filters_by_name():
    result = run("ops", "softmax", "--no-color", "--width", "200")
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.stdout.splitlines()[1:] if line.strip()]
    assert "softmax" in names and "log_softmax" in names and all("softmax" in n for n in names)
    data = json.loads(run("ops", "linalg.", "--json").stdout)
    assert data["ops"] and all(op["name"].startswith("linalg.") for op in data["ops"])
    result = run("ops", "sofmax")
    assert result.exit_code == 2 and "did you mean `softmax`" in result.stderr


def test_ops_loss_lists_every_loss():  # cross_entropy, kl_div and the BCEs were missing: no "loss" in their names
    names = {op["name"] for op in json.loads(run("ops", "loss", "--json").stdout)["ops"]}
    # torch.nn.functional's loss functions gradcli has (PyTorch 2.13's docs, "Loss functions")
    assert {"binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "kl_div", "nll_loss",
            "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "poisson_nll_loss", "gaussian_nll_loss",
            "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss", "triplet_margin_loss",
            "cosine_embedding_loss", "multi_margin_loss", "multilabel_soft_margin_loss"} <= names
    assert {op["name"] for op in json.loads(run("ops", "losses", "--json").stdout)["ops"]} == names
    assert all("loss" in n or n in {"binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy",
                                    "kl_div"} for n in names)


def test_check_help_lists_every_exit_code():
    text = " ".join(run("check", "--help").stdout.split())
    assert all(f"{code}: " in text for code in (0, 1, 2, 3))  # 3: CheckReport.exit_code's "agrees, not proven"
    assert "3: agrees at every point, not proven" in text


def test_missing_names_are_listed():
    result = run("eval", "x*y + z", "x=1")
    assert result.exit_code == 2
    assert "no value given for y, z" in result.stderr


def test_caret_points_at_the_failing_operation():
    result = run("eval", "x @ y", "x=[1,2]", "y=[1,2,3]")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert "inconsistent tensor size" in lines[0]
    assert lines[1] == "  x @ y" and lines[2] == "  ^^^^^"


def test_bad_value_is_reported_with_caret():
    result = run("eval", "x", "x=[1,2")
    assert result.exit_code == 2
    assert "cannot read the value" in result.stderr


def test_value_generators_are_seeded_and_shaped():
    _, a = run_json("eval", "W.sum()", "W=randn(3,4)", "--seed", "7")
    _, b = run_json("eval", "W.sum()", "W=randn(3,4)", "--seed", "7")
    assert a["tensors"]["W"]["value"] == b["tensors"]["W"]["value"]
    assert np.shape(a["tensors"]["W"]["value"]) == (3, 4)
    assert a["tensors"]["W"]["grad"] == np.ones((3, 4)).tolist()


def test_values_from_file_and_stdin(tmp_path):
    path = tmp_path / "x.npy"
    np.save(path, np.array([1.0, 2.0]))
    _, obj = run_json("eval", "(x*y).sum()", f"x=@{path}", "y=-", input="[3, 4]")
    assert obj["tensors"]["x"]["grad"] == [3.0, 4.0]
    assert obj["tensors"]["y"]["grad"] == [1.0, 2.0]


def test_float32_mode():
    _, obj = run_json("eval", "(x*0.1).sum()", "x=[1,2]", "--dtype", "float32")
    assert obj["tensors"]["x"]["grad"] == [pytest.approx(0.1, rel=1e-7)] * 2


def test_limits_are_enforced_with_hints():
    result = run("eval", "x.sum()", "x=zeros(1000)", "--max-elements", "100")
    assert result.exit_code == 2 and "limit is 100" in result.stderr
    result = run("eval", "x" + "+x" * 50, "x=1", "--max-length", "20")
    assert result.exit_code == 2 and "--max-length" in result.stderr
    result = run("eval", "(x[:, None] * x).sum()", "x=zeros(2000)", "--max-elements", "10000")
    assert result.exit_code == 2 and "exceeds the limit" in result.stderr


def test_huge_integer_power_never_runs():
    result, obj = run_json("eval", "x * 9**9**9", "x=1", "--max-exponent", "1e12")
    assert result.exit_code == 0
    assert obj["tensors"]["x"]["grad"] == "inf"


def test_deep_nesting_is_refused_not_crashing():
    result = run("eval", "(" * 500 + "x" + ")" * 500, "x=1")
    assert result.exit_code == 2 and "Traceback" not in result.stderr


def test_version_and_ops_listing():
    assert run("--version").stdout.startswith("gradcli ")
    obj = json.loads(run("ops", "--json").stdout)
    names = {e["name"] for e in obj["ops"]}
    assert {"exp", "sum", "matmul", "softmax", "relu"} <= names


def test_python_dash_m_entry_point():
    proc = subprocess.run([sys.executable, "-m", "gradcli", "eval", "x**2", "x=3", "--json"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["tensors"]["x"]["grad"] == 6.0


def test_time_limit_interrupts_long_evaluations():
    result = run("eval", "(x.exp().sin().exp().sin().exp()).sum()", "x=zeros(20000000)", "--timeout", "0.05")
    assert result.exit_code == 2
    assert "longer than 0.05 s" in result.stderr


@pytest.mark.parametrize("expression, fn", [("np.sin(x)", "sin"), ("np.exp(x).sum()", "exp"),
                                            ("numpy.tanh(x)", "tanh")])
def test_numpy_spelling_names_torchs(expression, fn):
    # was "no value given for np" with the hint "np=1.0"
    result = run("eval", expression, "x=[1,2]")
    assert result.exit_code == 2 and "is not part of an expression" in result.stderr
    assert f"torch.{fn}(...) or x.{fn}()" in result.stderr and "np=1.0" not in result.stderr


def test_a_tensor_named_np_is_still_a_tensor():
    _, obj = run_json("eval", "np * 2", "np=3")
    assert obj["output"]["value"] == 6.0 and obj["tensors"]["np"]["grad"] == 2.0
