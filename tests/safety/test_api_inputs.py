"""Issue 31, item 6: every wrong-type input to the API is a GradcliError with a message and a hint (never
a raw TypeError, OverflowError or a silently wrong number), PyTorch's own errors where a program asks for a
negative size, an assignment's message for an assignment, and no warning filter left behind."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import gradcli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value, words", [
    (None, "not a numeric value (NoneType)"),  # was nan
    (b"12", "not a numeric value (bytes)"),  # was 12.0
    (np.array([1 + 2j]), "complex values are not supported"),  # was the real part, with a ComplexWarning
    (10**400, "numbers too large for a float"),  # was a raw OverflowError
    ([1, 10**400], "numbers too large for a float"),
    ({"a": 1}, "not a numeric array"),
    ("1.5", "not a string"),
])
def test_a_value_of_the_wrong_type_is_an_input_error(value, words):
    with pytest.raises(gradcli.GradcliError) as caught:
        gradcli.grad("x", x=value)
    assert words in caught.value.message
    assert caught.value.hint


@pytest.mark.parametrize("call, words", [
    (lambda: gradcli.grad("x", x=1, consts=[1, 2]), "consts must be a dict"),
    (lambda: gradcli.grad("x", x=1, limits="x"), "limits must be gradcli.Limits"),
    (lambda: gradcli.grad(None, x=1), "the expression must be a string, not NoneType"),
    (lambda: gradcli.grad(123, x=1), "the expression must be a string, not int"),
    (lambda: gradcli.grad(b"x", x=1), "the expression must be a string, not bytes"),
    (lambda: gradcli.grad("x", x=1, dtype=None), "dtype must be float64 or float32"),
    (lambda: gradcli.compile(None), "the expression must be a string"),
    (lambda: gradcli.compile("x", consts=3), "consts must be a dict"),
    (lambda: gradcli.compile("x")(x=[None]), "not a numeric array"),
    (lambda: gradcli.run_program(b"print(1)"), "must be a string, not bytes"),
    (lambda: gradcli.run_program("print(1)", limits=gradcli.Limits()), "limits must be gradcli.RunLimits"),
    (lambda: gradcli.run_program("print(1)", args=[1]), "args must be a dict"),
])
def test_an_argument_of_the_wrong_type_is_an_input_error(call, words):
    with pytest.raises(gradcli.GradcliError) as caught:
        call()
    assert words in caught.value.message
    assert caught.value.hint


@pytest.mark.parametrize("program, error", [
    # torch 2.13.0's own texts (recorded by running each line with torch)
    ("print(torch.randn(-1))", "RuntimeError: Trying to create tensor with negative dimension -1: [-1]"),
    ("print(torch.ones(2, -3))", "RuntimeError: Trying to create tensor with negative dimension -3: [2, -3]"),
    ("print(torch.zeros(2, -3))", "RuntimeError: zeros: Dimension size must be non-negative."),
    ("print(torch.full((-1,), 1.0))", "RuntimeError: Trying to create tensor with negative dimension -1: [-1]"),
    ("print(torch.ones(2).new_zeros(-1))", "RuntimeError: Trying to create tensor with negative dimension -1: [-1]"),
    ("print(torch.randint(0, 3, (-1,)))", "RuntimeError: Trying to create tensor with negative dimension -1: [-1]"),
])
def test_a_negative_size_is_pytorchs_error(program, error):
    r = gradcli.run_program("import torch\n" + program + "\n")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines()[-1] == error


def test_assigning_to_a_shared_module_member_is_refused_as_an_assignment():
    for program in ("import math\nmath.pi = 4\n", "import torch.nn as nn\nnn.Linear = 4\n",
                    "import torch\ntorch.nn.functional.relu = abs\n"):
        r = gradcli.run_program(program)
        assert r.exit_code == 2 and r.stdout == ""
        assert "assigning to" in r.stderr and "only torch's own members" in r.stderr and "no attribute" not in r.stderr


def test_a_program_rebinds_torchs_members_for_its_own_run_only():
    # d2l's appendix: `torch.pi = torch.acos(torch.zeros(1)) * 2` (torch allows it; torch's own code never reads it)
    r = gradcli.run_program("import torch\ntorch.pi = torch.acos(torch.zeros(1)) * 2\nprint(torch.pi)\n"
                            "from torch import pi\nprint(pi * 2)\n")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "tensor([3.1416])\ntensor([6.2832])\n", "")
    assert gradcli.run_program("import torch\nprint(torch.pi)\n").stdout == "3.141592653589793\n"


def test_the_first_call_adds_no_warning_filter():
    code = textwrap.dedent("""
        import warnings
        before = list(warnings.filters)
        import gradcli
        gradcli.grad("(x**2).sum()", x=[1, 2, 3])  # imports numpy and sympy on first use
        gradcli.compile("sin(x)")(x=[1.0])
        gradcli.check("x^2", expect="2x")
        print(warnings.filters == before)
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "True", done.stderr
