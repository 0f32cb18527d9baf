"""Operands of different float precision (issue 15 §4): where PyTorch refuses them (products, lerp, binary
cross-entropy, a pos_weight that requires grad) gradcli refuses with PyTorch's message; where it promotes, the
result has PyTorch's dtype.  Expected last lines recorded from PyTorch 2.13, each case a `gradcli run` program."""

from __future__ import annotations

import subprocess
import sys

import pytest

SETUP = """\
import torch
import torch.nn.functional as F
a = torch.ones(2, 2, requires_grad=True)
b = torch.ones(2, 2, dtype=torch.float64)
v32 = torch.ones(2)
v64 = torch.ones(2, dtype=torch.float64)
p = torch.tensor([1., 3.])


"""

CASES = [  # name, the expression, what PyTorch prints (the result's dtype) or its error
    ('matmul', 'torch.matmul(a, b)',
     'RuntimeError: expected m1 and m2 to have the same dtype, but got: float != double'),
    ('dot', 'torch.dot(v32, v64)',
     'RuntimeError: dot : expected both vectors to have same dtype, but found Float and Double'),
    ('mv', 'torch.mv(a, v64)',
     'RuntimeError: addmv input tensors must have the same dtype, but got Double, Float, and Double'),
    ('linear', 'F.linear(v64, a)',
     'RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float'),
    ('lerp', 'torch.lerp(v32, v64, 0.5)',
     'RuntimeError: expected dtype float for `end` but got dtype double'),
    ('mse', 'F.mse_loss(v32, v64)',
     'torch.float64'),
    ('l1', 'F.l1_loss(v32, v64)',
     'torch.float64'),
    ('bce', 'F.binary_cross_entropy(v32 * 0.5, v64 * 0.5)',
     'RuntimeError: Found dtype Double but expected Float'),
    ('bcel', 'F.binary_cross_entropy_with_logits(v32, v64)',
     'torch.float64'),
    ('smoothl1', 'F.smooth_l1_loss(v32, v64)',
     'torch.float64'),
    ('posw', 'F.binary_cross_entropy_with_logits(v32, v32, pos_weight=torch.ones(2, requires_grad=True))',
     "RuntimeError: The function 'binary_cross_entropy_with_logits' is not differentiable with respect to"
     " argument 'pos_weight'. This input cannot have requires_grad True."),
    ('mm', 'torch.mm(a, b)',
     'RuntimeError: expected m1 and m2 to have the same dtype, but got: float != double'),
    ('bmm', 'torch.bmm(a.unsqueeze(0), b.unsqueeze(0))',
     'RuntimeError: expected scalar type Float but found Double'),
    ('huber', 'F.huber_loss(v32, v64)',
     'torch.float32'),
    ('kl', "F.kl_div(v32, v64, reduction='sum')",
     'torch.float64'),
    ('nll', 'F.nll_loss(a, torch.tensor([0, 1]))',
     'torch.float32'),
    ('ce_prob', 'F.cross_entropy(a, b)',
     'torch.float64'),
    ('where', 'torch.where(v32 > 0, v32, v64)',
     'torch.float64'),
    ('outer', 'torch.outer(v32, v64)',
     'torch.float64'),
    ('clamp_bool_float', '(p >= 2).clamp(min=2.0)',
     'torch.float32'),
    ('clamp_bool_int', '(p >= 2).clamp(min=2)',
     'torch.int64'),
]


@pytest.mark.parametrize("name,expression,expected", CASES, ids=[c[0] for c in CASES])
def test_mixed_precision_as_pytorch(name, expression, expected):
    program = SETUP + f"r = {expression}\nprint(r.dtype)\n"
    result = subprocess.run([sys.executable, "-m", "gradcli", "run", "-"], input=program, capture_output=True,
                            text=True, timeout=60)
    if expected.startswith("torch."):
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == expected
    else:
        assert result.returncode == 1, result.stdout
        assert result.stderr.strip().splitlines()[-1] == expected
