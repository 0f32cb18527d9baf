"""In-place ops on non-leaf tensors backpropagate as PyTorch's do (issue 15 §4): the node of an in-place op
differentiates the tensor's old value with its old history; a node that saved the tensor earlier still fails
with PyTorch's version-counter error.  Expected values recorded from PyTorch 2.13 (float64)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    ('clone_clamp', """\
y = torch.tensor([1., -1.], dtype=torch.float64,
                 requires_grad=True)
z = y.clone().clamp_(min=0)
z.sum().backward()
out = y.grad
""",
     [1.0, 0.0]),
    ('mul_then_pow', """\
y = torch.tensor([1.5, -2.], dtype=torch.float64,
                 requires_grad=True)
z = y * 2
z.pow_(3)
z.sum().backward()
out = y.grad
""",
     [54.0, 96.0]),
    ('chain', """\
y = torch.tensor([0.5, -2., 3.], dtype=torch.float64,
                 requires_grad=True)
z = y * 1
z.mul_(z)
z.add_(y)
z.div_(2)
z.clamp_(max=4)
z.sum().backward()
out = y.grad
""",
     ('RuntimeError: one of the variables needed for gradient computation has been modified by an inplace o'
     'peration: [torch.DoubleTensor [3]], which is output 0 of Clamp1, is at version 4; expected version 0'
     ' instead.')),
    ('const_mul_grad', """\
w = torch.tensor([2., 3.], dtype=torch.float64,
                 requires_grad=True)
c = torch.tensor([5., 7.], dtype=torch.float64)
c.mul_(w)
c.pow_(2)
c.sum().backward()
out = w.grad
""",
     [100.0, 294.0]),
    ('setitem', """\
y = torch.tensor([1., 2., 3.], dtype=torch.float64,
                 requires_grad=True)
z = y * y
z[1] = 0.0
z.sum().backward()
out = y.grad
""",
     [2.0, 0.0, 6.0]),
]


@pytest.mark.parametrize("name,program,expected", CASES, ids=[c[0] for c in CASES])
def test_inplace_on_non_leaf_as_pytorch(name, program, expected):
    source = "import torch\n" + program + "\nprint(out.tolist())\n"
    result = subprocess.run([sys.executable, "-m", "gradcli", "run", "-"], input=source, capture_output=True,
                            text=True, timeout=60)
    if isinstance(expected, list):
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == repr(expected)
    else:
        assert result.returncode == 1
        assert expected in result.stderr
