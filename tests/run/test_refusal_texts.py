"""Every refusal `gradcli run` can print names the construct and what to write instead, on one line, as a
PyTorch user reads it.  The tables of refusals (constructs, builtins, torch/numpy/random names) are walked
entry by entry; every place in gradcli/run that raises a refusal is found in the source and reached by a
program below (except the few no program text can reach, listed with the reason)."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest

from gradcli.run import checker, interop, numpy_api, run_source

RUN = Path(__file__).resolve().parents[2] / "gradcli" / "run"
# The engine's modules that raise errors.Unsupported, which `gradcli run` reports as refusals.
ENGINE_REFUSING = [RUN.parent / "engine" / "meta.py", RUN.parent / "engine" / "autograd.py"]
# What to write instead: a verb of advice, or a pointer to the list of what is there.
ALTERNATIVE = re.compile(r"\b(use|write|call|read|pass|put|bind|choose|define|rename|derive|drop|move|name it|"
                         r"import the|raise|keep|convert|compute|save|print|let|check|build|assign|unpack|draw|"
                         r"lists|offers|is readable|are readable|name the|see|rebind|remove)\b")


def run(source: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "prog.py", stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


TABLES = {
    "construct": checker.CONSTRUCT_NAMES, "builtin": checker.BUILTIN_HINTS, "torch": checker.UNSUPPORTED_HINTS,
    "tensor method": checker.TENSOR_METHOD_HINTS,
    "numpy": numpy_api.REFUSED_HINTS, "random": interop.RANDOM_REFUSED, "literal": checker.LITERAL_HINTS,
}


@pytest.mark.parametrize(("table", "key"), [(t, k) for t, entries in TABLES.items() for k in entries])
def test_every_table_entry_says_what_to_use_instead(table, key):
    text = TABLES[table][key]
    assert ALTERNATIVE.search(text), f"{table} {key}: {text!r} names no alternative"
    assert "\n" not in text


# One program per place that refuses (the static check, the interpreter, classes, numpy, torch's surface).
PROGRAMS = [
    "import torch\nwith torch.device('mps'):\n    x = torch.ones(2)\n", "x = eval('1', {})\n",
    "import os\nprint(os.path.exists('/etc/passwd'))\n",
    "import torch\nx = torch.ones(2, requires_grad=True)\ny = x.cumsum(0)\nprint(y.grad_fn._saved_dim)\n",
    "import torch\nm = torch.nn.Linear(2, 1)\ntorch.func.functional_call(m, {'weight': torch.ones(1, 2)}, "
    "(torch.ones(2),), strict=True)\n",
    "import torch\nm = torch.nn.Linear(2, 1)\n"
    "torch.func.functional_call(m, {'w': torch.ones(1, 2)}, (torch.ones(2),))\n",
    "import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n        return x\ntorch.save(M(), 'm.pt')\n"
    "m = torch.load('m.pt', weights_only=False)\n",
    "import torch\nfrom torch.autograd.function import once_differentiable\nclass F(torch.autograd.Function):\n"
    "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    @once_differentiable\n"
    "    def backward(ctx, g):\n        return g * 2\nx = torch.ones(2, requires_grad=True)\n"
    "y = (F.apply(x) ** 2).sum()\n"
    "g, = torch.autograd.grad(y, x, create_graph=True)\n",
    "x = {1, 2}\n", "x = 1j\n", "x = b'a'\n", "f = open('data.txt')\n", "x = input()\n",
    "import torch\ntorch.foo_bar(1)\n", "import torch\nx = torch.ones(2)\ny = x.bfloat16()\n",
    "import torch\nx = torch.ones(2)\nprint(x.index)\n",
    "import torch\ntorch.set_num_threads(torch.get_num_threads() + 1)\n",
    "import torch\ntorch.typename(torch.nn.Linear(1, 1))\n",
    "import torch\nx = torch.nn.Transformer(2, 2)\n",
    "import math\nmath.gcd_x(1)\n",
    "import numpy as np\nnp.foo_bar(1)\n", "import numpy as np\nnp.load('w.npy')\n", "import random\nrandom.foo(1)\n",
    "import functools\nf = functools.lru_cache\n", "from torch import foo_bar\n", "from torch import *\n",
    "x = 1\nprint(x.foo_bar)\n", "print(getattr(1, 'foo_bar'))\n", "print((1).__dict__)\n",
    "import torch\nx = torch.ones(2)\nx._version = 3\n", "x = 1\nprint(x._secret)\n",
    "name = 'real'\nprint(getattr(1, name))\n", "def g():\n    print((yield 1))\n",
    "@staticmethod\ndef f():\n    pass\n", "def deco(f):\n    return f\nclass A:\n    @deco\n    @staticmethod\n"
    "    def f():\n        pass\n", "def deco(f):\n    return f\nclass A:\n    @property\n    @deco\n    def f(self):\n"
    "        pass\n", "def deco(f):\n    return f\nclass A:\n    @property\n    def f(self):\n        return 1\n"
    "    @f.setter\n    @deco\n    def f(self, v):\n        pass\n",
    "def f():\n    class A:\n        pass\n", "class A(metaclass=type):\n    pass\n", "@print\nclass A:\n    pass\n",
    "class A:\n    pass\nclass B(A, A):\n    pass\n", "class A(vars()):\n    pass\n",
    "class A:\n    for i in range(3):\n        pass\n", "import sys\n", "from . import x\n", "from sys import path\n",
    "__x = 1\n", "class A(int):\n    pass\n", "import torch\nx = torch.ones(1)\ndel x.data\n",
    "import torch\nm = torch.nn.Linear(1, 1)\nname = '__class__'\nsetattr(m, name, 1)\n",
    "import torch\nimport torch.autograd.forward_ad as fwAD\nwith fwAD.dual_level():\n"
    "    y = torch.cummax(fwAD.make_dual(torch.ones(3), torch.ones(3)), 0)\n",
    "import itertools\nx = list(itertools.accumulate(['a', 'b']))\n", "from collections import deque\n",
    "from collections import namedtuple\nP = namedtuple('P', ['f%d' % i for i in range(2000)])\n",
    "from typing import NamedTuple\n", "import itertools\nx = itertools.tee\n",
    "import numpy as np\nx = np.ndarray((2,))\n", "from dataclasses import dataclass\nf = dataclass(print)\n",
    "from dataclasses import dataclass\nclass A:\n    pass\n@dataclass\nclass B(A):\n    x: int = 1\n",
    "def dataclass(c):\n    return c\n@dataclass\nclass A:\n    pass\n", "@print\nclass A:\n    pass\n",
    "class A:\n    def f(self):\n        return super(int, 3)\nA().f()\n",
    "import torch\nx = torch.ones(1)\nx._foo = 1\n", "import torch\nopt = torch.optim.SGD([torch.ones(1, "
    "requires_grad=True)], lr=0.1)\nopt._foo = 1\n", "import math\nmath.pi = 3\n", "x = sum([[1]] * 3, [])\n",
    "print('{x[0]}'.format(x=[1]))\n",
    "class A:\n    def __init__(self):\n        self._parameters = 1\nimport torch\nm = torch.nn.Linear(1, 1)\n"
    "print(m._parameters)\n", "import torch\nm = torch.nn.Linear(1, 1)\nm._parameters = 1\n",
    "print(len.__module__)\n", "import torch\nprint(torch.__doc__)\n",
    "import torch\nprint(torch.ones(1).__module__)\n",
    "print(int.__doc__)\n", "t = type(1)\nt('5')\n", "X = type('X', (), {})\n",
    "import numpy as np\nx = np.array(['a', 'b'])\n", "import numpy as np\nx = np.zeros(2, dtype='U3')\n",
    "import numpy as np\nx = np.float64(1).astype('U3')\n",
    "import numpy as np\nx = np.ones(2)\nprint(x.view())\n",
    "import numpy as np\nimport torch\nt = torch.from_numpy(np.ones(2, dtype=np.uint16))\n",
    "import torch\nclass A:\n    pass\ntorch.save(A(), 'a.pt')\n", "import torch\ntorch.save(1, 3)\n",
    "import torch\ntorch.load(3)\n", "import torch\ntorch.load('b.pt')\n",
    "import torch\ntorch.unique(torch.ones(2, requires_grad=True))\n",
    "import torch\ntorch.unique(torch.ones(2), sorted=False)\n",
    "import torch\ny = torch.linalg.matrix_rank(torch.ones(2, 2))\n",
    "import torch\ntorch.backends.cudnn.deterministic = True\n",
    "import copy\nx = copy.deepcopy(iter([1]))\n", "import copy\nx = copy.copy(iter([1]))\n",
    "import copy\nimport torch\nx = copy.copy(torch.ones(1))\n", "import timeit\ntimeit.timeit('x = 1')\n",
    "import torch\nx = torch.ones(2, device='meta')\ny = torch.cumsum(x, 0)\n",
    "import torch\nx = torch.ones(2, device='meta', requires_grad=True)\n(x * 2).sum().backward()\n",
    "import torch\nx = torch.ones(2, device='meta')\nprint(x[torch.tensor([0])])\n",
    "import torch\nx = torch.ones(1, 1, 4, 4, device='meta')\ny = torch.nn.functional.max_pool2d(x, 2, "
    "return_indices=True)\n",
    "import torch\nx = torch.ones(2, device='meta')\nprint(torch.allclose(x, x))\n",
    "import torch\nx = torch.ones(2, device='meta')\nx[0] = 1\n",
]
# Refusals no program text reaches (each is a second line of defence behind the static check).
UNREACHABLE = {
    "raising gradcli's own errors": "a program never holds one of gradcli's errors: they cannot be caught",
    "yield inside an expression": "the static check refuses it first (the interpreter's copy is a guard)",
    "numpy values of dtype ": "a numpy value of another dtype comes only from an array of it, refused first",
    "backward through meta tensors (": "backward() and autograd.grad of a meta tensor are refused at their roots "
                                       "(autograd.py), and no CPU tensor is computed from a meta one: a meta node's "
                                       "own refusal is a guard",
}


@pytest.fixture(scope="module")
def refusals() -> dict[str, str]:
    found = {}
    for source in PROGRAMS:
        code, _, err = run(source)
        assert code == 2, (source, err)
        found[source] = err
    return found


def test_every_refusal_is_one_line_with_an_alternative(refusals):
    for source, err in refusals.items():
        assert err.startswith("gradcli run does not support ") and err.count("\n") == 1, (source, err)
        text = err[len("gradcli run does not support "):]
        text = re.sub(r" \(line \d+(, column \d+)?\)\n$", "", text)
        assert ALTERNATIVE.search(text), f"{source!r} is refused with no alternative: {err!r}"


def _refusal_prefixes() -> dict[str, str]:
    """{the literal start of each refusal message raised in gradcli/run: where it is}."""
    prefixes = {}
    for path in [*sorted(RUN.glob("*.py")), *ENGINE_REFUSING]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in ("Refused", "refuse", "NumpyRefused", "Unsupported"):
                continue
            first = node.args[0]
            if isinstance(first, ast.BinOp):
                first = first.left
            text = ""
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                text = first.value
            elif isinstance(first, ast.JoinedStr) and first.values and isinstance(first.values[0], ast.Constant):
                text = first.values[0].value
            if len(text) >= 6:
                prefixes[text] = f"{path.name}:{node.lineno}"
    return prefixes


def test_every_place_that_refuses_is_reached_by_a_program(refusals):
    prefixes = _refusal_prefixes()
    assert len(prefixes) >= 30  # the walk finds the refusals (a broken walk would pass everything)
    printed = "\n".join(refusals.values())
    missing = {text: where for text, where in prefixes.items()
               if "support " + text not in printed and not any(text.startswith(u) for u in UNREACHABLE)}
    assert not missing, f"refusals no program above reaches: {missing}"
