"""Hostile and careless input: no silent wrong answers, clear errors, PyTorch fidelity (issue 8).

Expected values are worked out by hand (or are PyTorch's, noted where so), never taken from the code under test.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# -- user bindings shadow the constants pi, e, nan, inf (as in Python) --------------------------------

@pytest.mark.parametrize("name", ["pi", "e", "nan", "inf"])
@pytest.mark.parametrize("as_const", [False, True])
def test_a_tensor_named_like_a_constant_shadows_it(name, as_const):
    # x + 2*NAME at x=1, NAME=100: output 201, d/dx = 1, d/dNAME = 2 (hand-derived)
    given = ["--const", f"{name}=100"] if as_const else [f"{name}=100"]
    obj = run_json("eval", f"x + 2*{name}", "x=1", *given)
    assert obj["output"]["value"] == 201.0
    assert obj["tensors"]["x"]["grad"] == 1.0
    assert obj["tensors"][name]["grad"] == (None if as_const else 2.0)
    # the sympy cross-check differentiates by the tensor's symbol, not by the constant
    assert obj["symbolic"]["status"] == "agrees"
    if not as_const:
        assert obj["symbolic"]["formulas"][name] == ["2"]


def test_shadowed_constant_in_the_table_and_in_explain():
    result = run("eval", "x+pi", "x=1", "pi=100", "--no-color")
    assert result.exit_code == 0
    assert "101.0" in result.stdout and "4.14159" not in result.stdout
    explained = run("explain", "x*pi", "x=1", "pi=100", "--json")
    assert explained.exit_code == 0, explained.output
    obj = json.loads(explained.stdout)
    assert obj["output"] == 100.0 and obj["grads"] == {"x": 100.0, "pi": 1.0}


def test_unshadowed_constants_still_work():
    obj = run_json("eval", "x*pi + e", "x=1")
    assert obj["output"]["value"] == pytest.approx(math.pi + math.e)
    assert obj["tensors"]["x"]["grad"] == pytest.approx(math.pi)


@pytest.mark.parametrize("expression, name, message", [
    ("sin(x)", "sin", "'sin' is a tensor you gave (sin=...), so it cannot be called"),
    ("torch.sin(x)", "torch", "'torch' is a tensor you gave (torch=...) and also the namespace of torch.sin"),
    ("F.relu(x)", "F", "'F' is a tensor you gave (F=...) and also the namespace of F.relu"),
    ("x*math.pi", "math", "'math' is a tensor you gave (math=...) and also the namespace of math.pi"),
])
def test_a_tensor_named_like_a_function_or_namespace_is_never_silently_ignored(expression, name, message):
    result = run("eval", expression, "x=1", f"{name}=3")
    assert result.exit_code == 2
    assert f"gradcli: error: {message}" in result.stderr
    assert "internal error" not in result.stderr


def test_a_tensor_named_like_a_function_works_as_a_value():
    obj = run_json("eval", "sin*x + torch", "x=2", "sin=3", "torch=5")
    assert obj["output"]["value"] == 11.0
    assert obj["tensors"]["x"]["grad"] == 3.0 and obj["tensors"]["sin"]["grad"] == 2.0
    assert obj["tensors"]["torch"]["grad"] == 1.0


@pytest.mark.parametrize("name, message", [
    ("True", "'True' is a Python keyword and cannot name a tensor"),
    ("lambda", "'lambda' is a Python keyword and cannot name a tensor"),
    ("\uff58", "the tensor name '\uff58' is read as 'x' in an expression"),  # fullwidth x: NFKC gives x
])
def test_names_an_expression_cannot_refer_to_are_refused(name, message):
    result = run("eval", "y+1", "y=1", f"{name}=5")
    assert result.exit_code == 2
    assert f"gradcli: error: {message}" in result.stderr


def test_fullwidth_name_cannot_silently_pick_another_tensor():
    # Python reads the expression's fullwidth x as x: with x=1 and fullwidth-x=100 given, never answer 1
    result = run("eval", "\uff58", "x=1", "\uff58=100")
    assert result.exit_code == 2
    assert "is read as 'x'" in result.stderr


@pytest.mark.parametrize("name", ["u1", "L"])
def test_explain_refuses_input_names_that_collide_with_its_step_names(name):
    result = run("explain", f"sin(x*{name})", "x=1", f"{name}=2")
    assert result.exit_code == 2
    assert f"gradcli: error: '{name}' names a step of the explanation" in result.stderr


# -- the sympy cross-check never fails an evaluation --------------------------------------------------

@pytest.mark.parametrize("expression, value", [
    ("2**2**2**2**2*x", "2"),  # an exact 19729-digit integer in sympy (once an internal error)
    ("2**2**2**2**2**2*x", "2"),  # 2**65536 ** 2: never computed exactly
    ("x**x**x**x", "2"),
    ("x**x**x**x**x", "2"),
    ("x**nan", "1"),
    ("x*inf - x*inf", "1"),
    ("x**x", "-2"),
])
def test_the_default_cross_check_gives_the_same_exit_code_as_no_check(expression, value):
    default = run("eval", expression, f"x={value}", "--json")
    unchecked = run("eval", expression, f"x={value}", "--json", "--no-check")
    assert "internal error" not in default.output
    assert default.exit_code == unchecked.exit_code == 0, default.output
    symbolic = json.loads(default.stdout)["symbolic"]
    assert symbolic["status"] in ("agrees", "skipped", "convention"), symbolic


def test_a_huge_exact_power_follows_the_engine_in_float64():
    import sympy as sp

    from gradcli.verify.symbolic import SympyBackend

    backend = SympyBackend({})
    assert backend.binary("**", 2, 65536.0) == sp.oo  # float64 overflows, as the engine's 2.0 ** 65536.0
    assert backend.binary("**", 2, 100) == sp.Integer(2) ** 100  # small powers stay exact
    assert backend.binary("**", sp.Rational(3, 2), 3) == sp.Rational(27, 8)
    obj = run_json("eval", "2**2**2**2**2*x", "x=2")
    assert obj["output"]["value"] == "inf" and obj["tensors"]["x"]["grad"] == "inf"  # d/dx (c*x) = c = inf


def test_sympy_nan_is_skipped_not_reported_as_a_disagreement():
    # sympy's d/dx x**nan is 0 (nan is a number to it); autograd's is nan, as in PyTorch
    obj = run_json("eval", "x**nan", "x=1")
    assert obj["tensors"]["x"]["grad"] == "nan"
    assert obj["symbolic"]["status"] == "skipped" and "nan" in obj["symbolic"]["reason"]
    assert run("eval", "x**nan", "x=1").exit_code == 0
    # --strict fails on the nan gradient itself (issue 9), not on a sympy disagreement
    assert run("eval", "x**nan", "x=1", "--strict").exit_code == 1
    assert run("eval", "x**nan", "x=1", "--strict", "--no-check").exit_code == 1


def test_any_failure_inside_the_cross_check_lets_the_numeric_check_decide(monkeypatch):
    from gradcli.verify import symbolic

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a sympy bug")

    monkeypatch.setattr(symbolic, "_cross_check", broken)
    obj = run_json("eval", "x**2", "x=3")
    assert obj["tensors"]["x"]["grad"] == 6.0
    # sympy's failure is recorded; the independent numeric check gives the verdict (issue 29, item 2)
    assert obj["symbolic"]["sympy"] == "sympy failed: ZeroDivisionError: a sympy bug"
    assert obj["symbolic"]["status"] == "agrees" and obj["symbolic"]["decided_by"] == "numeric"


# -- rich markup: values, names and texts print as they are -------------------------------------------

def test_nan_and_inf_tensors_print_in_the_table():
    result = run("eval", "(x*y).sum()", "x=[inf,1]", "y=[nan,2]", "--no-color")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    x_row = next(line for line in lines if line.startswith("x "))
    y_row = next(line for line in lines if line.startswith("y "))
    assert "[inf  1.]" in x_row and "[nan  2.]" in x_row  # x's value and its .grad = y
    assert "[nan  2.]" in y_row and "[inf  1.]" in y_row


def test_large_nan_tensors_print_their_summary_in_the_table():
    # past torch's print threshold of 1000 elements (30 now print whole, as torch prints them)
    result = run("eval", "x.sum()", "x=full((2000,), nan)", "--no-color", "--no-check")
    assert result.exit_code == 0, result.output
    assert "[nan nan nan ... nan nan nan]" in result.stdout and "no finite values" in result.stdout


def test_ops_descriptions_keep_their_brackets():
    result = run("ops", "--no-color")
    assert "limit values to [min, max]" in result.stdout
    assert "out[i][j] = input[index[i][j]][j]" in result.stdout


# -- option values and raw text: a specific message each, exit 2 --------------------------------------

@pytest.mark.parametrize("option, value, message", [
    ("--timeout", "nan", "--timeout must be a positive, finite number of seconds, not nan"),
    ("--timeout", "-1", "--timeout must be a positive, finite number of seconds, not -1"),
    ("--timeout", "inf", "--timeout must be a positive, finite number of seconds, not inf"),
    ("--timeout", "0", "--timeout must be a positive, finite number of seconds, not 0"),
    ("--check-timeout", "nan", "--check-timeout must be a positive, finite number of seconds, not nan"),
    ("--check-limit", "-1", "--check-limit must be at least 0, not -1"),
    ("--max-elements", "0", "--max-elements must be at least 1, not 0"),
    ("--max-elements", "-5", "--max-elements must be at least 1, not -5"),
    ("--max-length", "0", "--max-length must be at least 1, not 0"),
    ("--max-depth", "-1", "--max-depth must be at least 1, not -1"),
    ("--max-nodes", "0", "--max-nodes must be at least 1, not 0"),
    ("--max-exponent", "nan", "--max-exponent must be a non-negative number (inf for no limit), not nan"),
    ("--max-exponent", "-1", "--max-exponent must be a non-negative number (inf for no limit), not -1"),
    ("--seed", "-1", "--seed must be from 0 to 2**64 - 1 (torch.manual_seed's range), not -1"),
    ("--seed", str(2 ** 64), f"--seed must be from 0 to 2**64 - 1 (torch.manual_seed's range), not {2 ** 64}"),
    ("--order", "0", "--order must be at least 1, not 0"),
])
def test_bad_option_values_of_eval(option, value, message):
    result = run("eval", "x+1", "x=1", option, value)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gradcli: error: {message}\n")


@pytest.mark.parametrize("command", [["explain", "x", "x=1"], ["check", "x^2", "--wrt", "x"]])
@pytest.mark.parametrize("value", ["nan", "-1", "inf", "0"])
def test_bad_timeouts_of_explain_and_check(command, value):
    result = run(*command, "--timeout", value)
    assert result.exit_code == 2
    assert "gradcli: error: --timeout must be a positive, finite number of seconds" in result.stderr


@pytest.mark.parametrize("expression, message", [
    ("x\udcff+1", "the expression is not valid UTF-8 text (byte 0xff)"),
    ("x\ud800", "the expression contains a lone surrogate U+D800"),
    ("x\x00+1", "the expression contains a NUL character"),
    ("x\u200b+1", "cannot parse the expression: invalid non-printable character U+200B"),
    ("x\u202e+1", "cannot parse the expression: invalid non-printable character U+202E"),
    ("x\uff0b1", "cannot parse the expression: invalid character '\uff0b' (U+FF0B)"),
    ("x+\U0001F600", "cannot parse the expression: invalid character '\U0001F600' (U+1F600)"),
])
def test_weird_characters_in_expressions(expression, message):
    for command in ("eval", "explain"):
        result = run(command, expression, "x=1")
        assert result.exit_code == 2
        assert result.stderr.startswith(f"gradcli: error: {message}\n"), result.stderr


def test_non_utf8_arguments_are_refused_by_the_program(tmp_path):
    import subprocess
    import sys

    code = "import sys; from gradcli.cli.main import main; sys.argv[0] = 'gradcli'; main()"
    for argv, position in (([b"eval", b"x\xff+1", b"x=1"], 2), ([b"eval", b"x+1", b"x=\xfe"], 3),
                           ([b"run", b"\xff.py"], 2), ([b"check", b"x^2", b"--wrt", b"\xc3"], 4)):
        proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, timeout=60)
        assert proc.returncode == 2
        first = proc.stderr.decode().splitlines()[0]
        assert first.startswith(f"gradcli: error: argument {position} (") and "is not valid UTF-8 text" in first


def test_run_accepts_a_utf8_byte_order_mark(tmp_path):
    program = tmp_path / "bom.py"
    program.write_bytes(b"\xef\xbb\xbfimport torch\nprint(torch.tensor([1.5, 2.0]) * 2)\n")
    result = run("run", str(program))
    assert result.exit_code == 0, result.output
    assert result.stdout == "tensor([3., 4.])\n"  # PyTorch 2.13's print
    piped = run("run", "-", input=program.read_bytes())
    assert piped.exit_code == 0 and piped.stdout == "tensor([3., 4.])\n"


def test_run_refuses_a_binary_file_by_name(tmp_path):
    program = tmp_path / "blob.py"
    program.write_bytes(b"print(1)\n\xff\xfe\x00")
    result = run("run", str(program))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gradcli: error: {program} is not UTF-8 text (byte 0xff at offset 9)")


# -- explain keeps the sign of infinities -------------------------------------------------------------

def test_explain_shows_negative_infinity():
    # log(0) = -inf (IEEE, as torch.log); sympy's log(0) is an unsigned complex infinity
    result = run("explain", "log(x)*2", "x=0", "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["output"] == "-inf"
    assert [(f["name"], f["value"]) for f in obj["forward"]] == [("u1", "-inf"), ("L", "-inf")]
    table = run("explain", "log(x)", "x=0", "--no-color")
    # explain prints a formula line, then its value (issue 11)
    lines = [line.strip() for line in table.stdout.splitlines()]
    assert lines[lines.index("L = ln(x)") + 1] == "= -inf"


def test_float64_values_of_sympy_infinities_keep_their_sign():
    import sympy as sp

    from gradcli.verify.sympy_forms import value_at

    x = sp.Symbol("x", real=True)
    at_zero = {x: sp.Float(0.0, 30)}
    assert value_at(-1 / x, at_zero) == -math.inf  # IEEE: -1/0 = -inf
    assert value_at(1 / x, at_zero) == math.inf
    assert value_at(sp.log(x), at_zero) == -math.inf
    assert value_at(3 * sp.log(x) - 1, at_zero) == -math.inf


# -- PyTorch fidelity: goldens printed by PyTorch 2.13 (/work/torchenv) for the same programs ------------

def run_program(tmp_path, source: str):
    program = tmp_path / "program.py"
    program.write_text(source)
    return run("run", str(program))


def test_float64_tensor_keeps_python_floats_exactly(tmp_path):
    result = run_program(tmp_path, """import torch
a = torch.tensor([0.1], dtype=torch.float64)
print(a == 0.1, a.item(), a)
print(torch.tensor([1e40, 1e-45], dtype=torch.float64))
print(torch.tensor(0.1, dtype=torch.float64).item() == 0.1)
print(torch.tensor([16777217.0, -2.7], dtype=torch.int64))
print(torch.tensor([0.1]).double() == 0.1)
print(torch.tensor([True, 2.5], dtype=torch.float64))
""")
    assert result.exit_code == 0, result.output
    assert result.stdout == """tensor([True]) 0.1 tensor([0.1000], dtype=torch.float64)
tensor([1.0000e+40, 1.0000e-45], dtype=torch.float64)
True
tensor([16777217,       -2])
tensor([False])
tensor([1.0000, 2.5000], dtype=torch.float64)
"""


def test_float64_tensor_in_the_engine_api():
    from gradcli import engine
    from gradcli.engine import dtypes

    assert engine.tensor([0.1, 1e40], dtype=dtypes.float64).array.tolist() == [0.1, 1e40]
    assert engine.tensor(0.1, dtype=dtypes.float64).array.item() == 0.1
    assert engine.tensor([0.1]).array.dtype == np.float32  # the default dtype is unchanged


FLOOR_DIVIDE_PROGRAM = """import torch
a = torch.tensor([7., -7., 7., -7., 0., -0., 5.5, float('inf'), float('nan'), 1.])
b = torch.tensor([2., 2., -2., -2., 3., 3., 0., 2., 1., 0.])
print(a // b)
print(torch.floor_divide(a, -b))
print(a // 2, 2 // b, -7.5 // b)
i = torch.tensor([7, -7, 7, -7, 0])
j = torch.tensor([2, 2, -2, -2, 3])
print(i // j, i // 2, i // 2.5, 7 // j)
print((i // j).dtype, (i // 2.5).dtype, (i // torch.tensor(2.)).dtype)
print(torch.tensor(7.) // torch.tensor(-0.0), torch.tensor(-7.) // torch.tensor(0.0))
print(torch.tensor([1,2], dtype=torch.float64) // torch.tensor([3.], dtype=torch.float32))
print(torch.tensor([5], dtype=torch.uint8) // torch.tensor([2], dtype=torch.uint8))
y = torch.tensor(3.0)
print(2 // y, 7.5 // torch.tensor([2]), (7 // torch.tensor([2])).dtype)
print(torch.tensor([2**62], dtype=torch.int64) // -1, torch.tensor([-2**63]) // -1)
x = torch.tensor([1.5, -2.5], requires_grad=True)
print(x // 2, (x // 2).requires_grad, x.floor_divide(2))
with torch.no_grad():
    print(x // 2)
print((x.detach() // 2).requires_grad, (x // 1).is_leaf)
z = (x.detach() // 1 * x).sum()
z.backward()
print(x.grad)
"""

FLOOR_DIVIDE_TORCH = """tensor([ 3., -4., -4.,  3.,  0., -0., inf, nan, nan, inf])
tensor([-4.,  3.,  3., -4., -0.,  0., -inf, nan, nan, -inf])
tensor([ 3., -4.,  3., -4.,  0., -0.,  2., nan, nan,  0.]) tensor([ 1.,  1., -1., -1.,  0.,  0., inf,  1.,  2., inf]) \
tensor([-4., -4.,  3.,  3., -3., -3., -inf, -4., -8., -inf])
tensor([ 3, -4, -4,  3,  0]) tensor([ 3, -4,  3, -4,  0]) tensor([ 2., -3.,  2., -3.,  0.]) tensor([ 3,  3, -4, -4,  2])
torch.int64 torch.float32 torch.float32
tensor(-inf) tensor(-inf)
tensor([0., 0.], dtype=torch.float64)
tensor([2], dtype=torch.uint8)
tensor(0.) tensor([3.]) torch.int64
tensor([-4611686018427387904]) tensor([-9223372036854775808])
tensor([ 0., -2.], grad_fn=<NotImplemented>) True tensor([ 0., -2.], grad_fn=<NotImplemented>)
tensor([ 0., -2.])
False False
tensor([ 1., -3.])
"""


def test_floor_divide_matches_pytorch(tmp_path):
    result = run_program(tmp_path, FLOOR_DIVIDE_PROGRAM)
    assert result.exit_code == 0, result.output
    assert result.stdout == FLOOR_DIVIDE_TORCH


@pytest.mark.parametrize("source, error", [
    ("print(torch.tensor([1, 2]) // torch.tensor([0, 1]))", "RuntimeError: ZeroDivisionError"),
    ("print(torch.tensor([1, 2]) // 0)", "RuntimeError: ZeroDivisionError"),
    ("print(torch.tensor([True]) // torch.tensor([True]))",
     "NotImplementedError: \"div_floor_cpu\" not implemented for 'Bool'"),
    ("x = torch.tensor([1.5, -2.5], requires_grad=True)\n(x * 2 + x // 1).sum().backward()",
     "RuntimeError: derivative for aten::floor_divide is not implemented"),
    ("x = torch.tensor([1.5], requires_grad=True)\nprint(torch.autograd.grad((x // 2).sum(), x))",
     "RuntimeError: derivative for aten::floor_divide is not implemented"),
])
def test_floor_divide_errors_match_pytorch(tmp_path, source, error):
    result = run_program(tmp_path, "import torch\n" + source + "\n")
    assert result.exit_code == 1
    assert result.stderr.rstrip("\n").endswith(error)


def test_floor_divide_in_expressions():
    # hand: [3, -3] // 2 = [1, -2] (rounded toward -inf); d/dy sum(c // 2 * y) = c // 2
    obj = run_json("eval", "(c // 2 * y).sum()", "y=[1,1]", "--const", "c=[3,-3]")
    assert obj["output"]["value"] == -1.0 and obj["tensors"]["y"]["grad"] == [1.0, -2.0]
    assert obj["symbolic"]["status"] == "agrees"
    assert run_json("eval", "x + -7 // 2", "x=0", "--no-check")["output"]["value"] == -4.0
    assert run_json("eval", "x + 7 // 0", "x=0", "--no-check")["output"]["value"] == "inf"  # float64, as torch
    # x on a requires_grad path through // : backward fails as in PyTorch, exit 2 with its message
    failed = run("eval", "(x // 2).sum()", "x=[3,-3]")
    assert failed.exit_code == 2
    assert "gradcli: error: derivative for aten::floor_divide is not implemented" in failed.stderr


def test_detach_in_expressions():
    # hand: (x.detach() * y).sum(): dL/dy = x, x gets no gradient (None, as in PyTorch)
    obj = run_json("eval", "(x.detach() * y).sum()", "x=[1,2]", "y=[3,4]")
    assert obj["tensors"]["y"]["grad"] == [1.0, 2.0] and obj["tensors"]["x"]["grad"] is None
    assert obj["symbolic"]["status"] == "agrees"
    # hand: d/dx [sin(x.detach()) * x + x] = sin(3) + 1
    obj = run_json("eval", "x.detach().sin()*x + x", "x=3")
    assert obj["tensors"]["x"]["grad"] == pytest.approx(math.sin(3) + 1, rel=1e-15)
    assert obj["symbolic"]["status"] == "agrees"
    assert run_json("eval", "torch.detach(x)*x", "x=3", "--no-check")["tensors"]["x"]["grad"] == 3.0
    explained = run("explain", "x.detach()*x", "x=3", "--json")
    assert explained.exit_code == 0 and json.loads(explained.stdout)["grads"] == {"x": 3.0}


def test_negative_zero_prints_as_pytorch(tmp_path):
    result = run_program(tmp_path, """import torch
x = torch.tensor([0.0, 1.5], requires_grad=True)
print(-x, x * -0.0, torch.tensor(-0.0), torch.tensor([-0.0, 1.0]))
(x * -0.0).sum().backward()
print(x.grad)
""")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("tensor([-0.0000, -1.5000], grad_fn=<NegBackward0>) "
                             "tensor([-0., -0.], grad_fn=<MulBackward0>) tensor(-0.) tensor([-0., 1.])\n"
                             "tensor([-0., -0.])\n")


@pytest.mark.parametrize("expression, message", [
    ("y.mean(x)", "wrong arguments for mean: dim must be an integer, not a tensor"),
    ("x.softmax(x)", "wrong arguments for softmax: dim must be an integer, not a tensor"),
    ("x.reshape(x)", "wrong arguments for reshape: shape must be an integer, not a tensor"),
    ("torch.diag(pi, x)", "wrong arguments for diag: diagonal must be an integer, not a tensor"),
    ("torch.outer(x, 2).sum()", "wrong arguments for outer: got (tensor, int)"),
    ("math.log(x)(2)", "only functions and methods can be called"),
    ("x[0](1)", "only functions and methods can be called"),
    ("(x + [x, 2]).sum()", "a list of tensors cannot be used as a value here"),
    ("(x + [[1], [2, 3]]).sum()", "a list used as a value must be a rectangular list of numbers"),
])
def test_fuzz_findings_are_clear_errors(expression, message):
    for command in ("eval", "explain"):
        result = run(command, expression, "x=[0.5,-1.5]", "y=2")
        assert result.exit_code == 2
        assert result.stderr.startswith(f"gradcli: error: {message}\n"), result.stderr


def test_lists_of_numbers_are_constants_in_tensor_ops():
    # hand: xlogy(2, [1, 4]) = [0, 2 log 4]; d/dy sum = log 1 + log 4
    obj = run_json("eval", "torch.xlogy(y, [1, 4]).sum()", "y=2")
    assert obj["output"]["value"] == pytest.approx(2 * math.log(4))
    assert obj["tensors"]["y"]["grad"] == pytest.approx(math.log(4))
    assert run_json("eval", "[1,2] @ x", "x=[3,4]")["tensors"]["x"]["grad"] == [1.0, 2.0]
