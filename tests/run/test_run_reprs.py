"""`gradcli run` prints what CPython and PyTorch print for every object a program can reach, never gradcli's
internals (issue 17): print(print) was <bound method print of <gradcli.run.interpreter.Interpreter ...>>."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from gradcli import engine
from gradcli.run import api
from gradcli.run.reprs import program_repr, program_str


def run_program(tmp_path, text: str) -> subprocess.CompletedProcess:
    program = tmp_path / "p.py"
    program.write_text(text)
    return subprocess.run([sys.executable, "-m", "gradcli", "run", str(program)], capture_output=True, text=True,
                          timeout=60)


FORBIDDEN = re.compile(r"gradcli|functools|<locals>|partial\(|\.py\b|engine\.|run\.")


def reachable():
    """Every name of every module a program can import, the builtins, and a tensor's methods."""
    for module in api.modules().values():
        for name, value in module.members.items():
            yield f"{module.name}.{name}", value
    builtins = {**api.python_builtins(), "type": api.type_of, "str": program_str}
    for name, value in builtins.items():
        yield name, value
    t = engine.tensor([[1.0, 2.0]], requires_grad=True)
    for name in sorted(api.tensor_attributes()):
        try:
            value = getattr(t, name)
        except Exception:  # noqa: BLE001 - a property that needs another shape: not a callable anyway
            continue
        if callable(value):
            yield f"Tensor.{name}", value
    y = (t * 2).sum()
    yield "grad_fn", y.grad_fn
    yield "type(grad_fn)", api.TypeRef(type(y.grad_fn))


@pytest.mark.parametrize("name,value", list(reachable()), ids=lambda v: v if isinstance(v, str) else "")
def test_no_internal_name_in_any_repr(name, value):
    texts = (program_repr(value), program_str(value), program_repr([value]), program_repr(api.TypeRef(type(value))))
    for text in texts:
        assert not FORBIDDEN.search(text), f"{name}: {text}"


PROGRAM = """\
import torch
import math
import torch.nn.functional as F
x = torch.tensor([1.0], requires_grad=True)
y = (x * 2).sum()
print(print)
print(str(print))
print(f"{print!r}")
print(torch.no_grad)
print(type(torch))
print(type(y.grad_fn))
print(type(type(1)))
print(math.sin)
print(len)
print(torch.optim.SGD)
print(torch.Tensor)
print(', '.join(['a', 'b']))
a = [1]
a.append(a)
print(a)
d = {'k': 1}
d['self'] = d
print(d)
"""

# What CPython 3.11 with PyTorch 2.13 prints (recorded); addresses differ run to run and are not compared.
EXPECTED = """\
<built-in function print>
<built-in function print>
<built-in function print>
<class 'torch.autograd.grad_mode.no_grad'>
<class 'module'>
<class 'SumBackward0'>
<class 'type'>
<built-in function sin>
<built-in function len>
<class 'torch.optim.sgd.SGD'>
<class 'torch.Tensor'>
a, b
[1, [...]]
{'k': 1, 'self': {...}}
"""


def test_printed_reprs_are_pythons_and_pytorchs(tmp_path):
    result = run_program(tmp_path, PROGRAM)
    assert result.returncode == 0, result.stderr
    assert result.stdout == EXPECTED


def test_methods_print_with_their_owner(tmp_path):
    result = run_program(tmp_path, "import torch\nx = torch.tensor([1.0])\ny = (x * 1).requires_grad_()\n"
                       "print('abc'.join)\nprint(torch.sin)\nprint(x.sum)\nprint((y * 2).grad_fn.name)\n")
    lines = [re.sub(r"0x[0-9a-f]+", "0x…", line) for line in result.stdout.splitlines()]
    assert lines == ["<built-in method join of str object at 0x…>", "<built-in method sin of type object at 0x…>",
                     "<built-in method sum of Tensor object at 0x…>",
                     "<built-in method name of MulBackward0 object at 0x…>"], result.stderr


def test_format_spec_on_tensors_as_pytorch(tmp_path):
    """A 0-d tensor formats as its number; any other with a spec is PyTorch's TypeError (recorded)."""
    result = run_program(tmp_path, 'import torch\nt = torch.tensor(3.5)\nprint(f"{t:>20}")\nprint(f"{t:.2f}")\n'
                       'u = torch.tensor([1.0, 2.0])\nprint(f"{u}")\nprint(f"{u:>20}")\n')
    assert result.stdout == "                 3.5\n3.50\ntensor([1., 2.])\n"
    assert result.returncode == 1
    assert result.stderr.strip().endswith("TypeError: unsupported format string passed to Tensor.__format__")


OPTIMIZERS = """\
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
print(opt)
opt2 = torch.optim.Adam([w], lr=0.01)
print(opt2)
"""

# recorded from PyTorch 2.13
OPTIMIZERS_EXPECTED = (
    'SGD (\n'
    'Parameter Group 0\n'
    '    dampening: 0\n'
    '    differentiable: False\n'
    '    foreach: None\n'
    '    fused: None\n'
    '    lr: 0.1\n'
    '    maximize: False\n'
    '    momentum: 0.9\n'
    '    nesterov: False\n'
    '    weight_decay: 0\n'
    ')\n'
    'Adam (\n'
    'Parameter Group 0\n'
    '    amsgrad: False\n'
    '    betas: (0.9, 0.999)\n'
    '    capturable: False\n'
    '    decoupled_weight_decay: False\n'
    '    differentiable: False\n'
    '    eps: 1e-08\n'
    '    foreach: None\n'
    '    fused: None\n'
    '    lr: 0.01\n'
    '    maximize: False\n'
    '    weight_decay: 0\n'
    ')\n'
)


def test_optimizers_print_their_parameter_groups(tmp_path):
    result = run_program(tmp_path, OPTIMIZERS)
    assert result.stdout == OPTIMIZERS_EXPECTED, result.stderr
