"""`gradcli run FILE --arg NAME=VALUE`: globals bound before the program runs."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.engine import Tensor
from gradcli.io.inputs import parse_run_argument, run_arguments
from gradcli.safety.errors import InputError
from gradcli.safety.limits import Limits

runner = CliRunner()

PROGRAM = """import torch
print(type(n), n, type(lr), lr, type(big), big, type(neg), neg)
print(x, x.dtype, x.requires_grad)
w = torch.ones(3, requires_grad=True)
(w * x * n).sum().backward()
print(w.grad)
"""
# What PyTorch 2.13 prints for PROGRAM after n, lr, big, neg = 3, 0.1, 1000.0, -2; x = torch.tensor([1., 2., 3.])
TORCH_OUTPUT = """<class 'int'> 3 <class 'float'> 0.1 <class 'float'> 1000.0 <class 'int'> -2
tensor([1., 2., 3.]) torch.float32 False
tensor([3., 6., 9.])
"""


def test_arguments_bind_globals_as_pytorch_would_see_them(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    result = runner.invoke(app, ["run", str(path), "--arg", "n=3", "--arg", "lr=0.1", "--arg", "big=1e3",
                                 "--arg", "neg=-2", "--arg", "x=[1,2,3]"])
    assert result.exit_code == 0, result.output
    assert result.stdout == TORCH_OUTPUT


def test_one_script_serves_many_runs_with_file_values(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text("print(x.dtype, x.shape)\nprint((x * 2).sum())\n")
    data = tmp_path / "x.npy"
    np.save(data, np.array([[0.5, 1.5], [2.0, 3.0]]))  # float64 on disk: bound as float32 all the same
    result = runner.invoke(app, ["run", str(path), "--arg", f"x=@{data}"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "torch.float32 torch.Size([2, 2])\ntensor(14.)\n"


@pytest.mark.parametrize("spec,expected", [
    ("n=7", 7), ("n=-0", 0), ("n=+5", 5), ("f=2.0", 2.0), ("f=1e-3", 1e-3), ("f=-inf", -np.inf), ("f=pi", np.pi),
])
def test_plain_numbers_are_python_numbers(spec, expected):
    name, got = parse_run_argument(spec, limits=Limits())
    assert name == spec.split("=")[0] and got == expected and type(got) is type(expected)


def test_other_values_are_float32_tensors():
    for spec, shape in (("x=[1,2,3]", (3,)), ("x=randn(2,3)", (2, 3)), ("x=1/2", ()), ("x=zeros(0)", (0,))):
        _, got = parse_run_argument(spec, limits=Limits())
        assert isinstance(got, Tensor) and got.array.dtype == np.float32 and got.array.shape == shape
        assert not got.requires_grad


@pytest.mark.parametrize("args,needle", [
    (["--arg", "n=1", "--arg", "n=2"], "'n' is given twice"),
    (["--arg", "1n=1"], "'1n' is not a valid tensor name"),
    (["--arg", "n"], "expected NAME=VALUE"),
    (["--arg", "x=zeros(-1)"], "bad arguments for zeros()"),
    (["--arg", "x=randn(100000,1000)"], "the limit is 32000000"),
])
def test_bad_arguments_exit_2_before_the_program_runs(tmp_path, args, needle):
    path = tmp_path / "prog.py"
    path.write_text("print('ran')\n")
    result = runner.invoke(app, ["run", str(path), *args])
    assert result.exit_code == 2 and needle in result.stderr and "ran" not in result.stdout


def test_run_arguments_checks_names_once():
    with pytest.raises(InputError, match="given twice"):
        run_arguments(["a=1", "a=[1]"], max_elements=10)
