"""The meta device, copy.deepcopy, torch.func.stack_module_state, load_state_dict(assign=True) and timeit, each
against what PyTorch 2.13 printed for a small program (tests/meta_device_cases.py, goldens from
scripts/make_meta_device_goldens.py); and what needs no golden: a meta tensor costs no memory and its ops no
work, an op without a shape rule is refused by name, a deep copy is independent of its original.  Needs no torch."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from meta_device_cases import CASES

from gradcli.run import run_source

GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "meta_device.json").read_text())


def run(source: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "prog.py", stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_every_case_has_a_golden():
    assert set(CASES) == set(GOLDENS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_prints_what_pytorch_prints(name):
    code, out, err = run(CASES[name])
    golden = GOLDENS[name]
    assert out == golden["stdout"]
    assert err == golden["stderr"]
    assert code == golden["code"]


def test_a_deep_copy_is_independent_of_its_original():
    """Every way of changing the copy (its parameters in place, a new attribute value, its list, its gradient)
    leaves the original as it printed before."""
    code, out, err = run(
        "import copy\nimport torch\nimport torch.nn as nn\n"
        "class M(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.lin = nn.Linear(2, 2)\n"
        "        self.names = ['a']\n"
        "m = M()\n"
        "m.lin.weight.grad = torch.ones(2, 2)\n"
        "before = repr((m.lin.weight, m.lin.bias, m.lin.weight.grad, m.names))\n"
        "c = copy.deepcopy(m)\n"
        "with torch.no_grad():\n"
        "    c.lin.weight.mul_(0)\n"
        "    c.lin.bias.fill_(7)\n"
        "c.names.append('b')\n"
        "t = torch.ones(2, requires_grad=True)\n"
        "t.grad = torch.ones(2)\n"
        "u = copy.deepcopy(t)\n"
        "u.grad.add_(5)\n"
        "with torch.no_grad():\n"
        "    u.mul_(3)\n"
        "print(t, t.grad, c.lin.weight.grad)\n"
        "c.lin = nn.Linear(3, 3)\n"
        "print(before == repr((m.lin.weight, m.lin.bias, m.lin.weight.grad, m.names)))\n"
        "print(m.lin.in_features, m.names, c.names)\n")
    assert (code, err) == (0, ""), err
    assert out == "tensor([1., 1.], requires_grad=True) tensor([1., 1.]) None\nTrue\n2 ['a'] ['a', 'b']\n"


def test_a_huge_meta_tensor_costs_no_memory_and_its_ops_no_time():
    """The tutorial's (1024, 3, 65536, 65536) input, 13 * 10**12 elements: a float32 CPU tensor of it would be 52 TB."""
    source = ("import torch\nt = torch.rand(2**10, 3, 2**16, 2**16, device='meta')\n"
              "conv = torch.nn.Conv2d(3, 5, 2, device='meta')\n"
              "for _ in range(200):\n"
              "    out = torch.relu(conv(t)).sum(dim=(2, 3)).view(-1)\n"
              "print(out.shape, t.numel())\n")
    start = time.perf_counter()
    code, out, err = run(source)
    assert (code, err) == (0, ""), err
    assert out == "torch.Size([5120]) 13194139533312\n"
    assert time.perf_counter() - start < 20  # ~0.1 s; a single computed op of this size could never finish


def test_meta_tensors_draw_no_random_numbers():
    """torch.rand on the meta device leaves the default generator where it was (known: seed 0's first draw)."""
    code, out, _ = run("import torch\ntorch.manual_seed(0)\nx = torch.rand(1000, device='meta')\n"
                       "with torch.device('meta'):\n    lin = torch.nn.Linear(100, 100)\nprint(torch.rand(1))\n")
    assert (code, out) == (0, "tensor([0.4963])\n")


def test_the_default_device_is_restored_after_a_run_stopped_inside_its_block():
    from gradcli.engine import state
    from gradcli.engine.creation import zeros
    code, _, _ = run("import torch\nwith torch.device('meta'):\n    x = torch.ones(2)\n    y = torch.cumsum(x, 0)\n")
    assert code == 2  # refused inside the block
    code, _, _ = run("import torch\nwith torch.device('meta'):\n    raise ValueError('stop')\n")
    assert code == 1
    assert state.DEFAULT_DEVICE.get() is None and not zeros(2).is_meta
