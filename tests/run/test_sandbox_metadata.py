"""The metadata a learner's program reads (`self.__class__.__name__`, `type(x).__name__`, `f.__qualname__`,
`isinstance`, `type(x) is T`) prints what CPython prints, and every known way out of the sandbox through
dunder attributes still ends in the sandbox's refusal (exit 2, "gradcli run does not support ...").
The allowed reads are compared with CPython itself running the same torch-free program (an independent
reference); those that involve torch's classes are in tests/snippets/217-219 with goldens from PyTorch."""

from __future__ import annotations

import contextlib
import io

import pytest

from gradcli.run import run_source


def run(source: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "prog.py", stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def cpython(source: str) -> str:
    """What CPython prints for a torch-free program of the test's own (never a program from outside)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "prog.py", "exec"), {"__name__": "__main__"})  # noqa: S102 - the test's own text
    return out.getvalue()


ALLOWED = [
    "class A:\n    pass\nprint(A().__class__, A().__class__.__name__, A.__name__, A.__qualname__, A.__module__)\n",
    "class A:\n    '''Doc.'''\nclass B(A):\n    pass\nprint(repr(A.__doc__), repr(B.__doc__), B().__class__ is B)\n",
    "def f():\n    '''  f does\n    things.'''\n    return 1\nprint(f.__name__, f.__qualname__, f.__module__, "
    "repr(f.__doc__))\n",
    "def outer():\n    def inner():\n        pass\n    return inner\nprint(outer().__qualname__, outer().__name__)\n",
    "g = lambda x: x\nprint(g.__name__, g.__qualname__)\n",
    "class A:\n    def m(self):\n        return 1\n    @staticmethod\n    def s():\n        pass\n"
    "print(A.m.__qualname__, A().m.__name__, A().m.__qualname__, A.s.__qualname__, A().m.__doc__)\n",
    "for v in [1, 1.5, 'a', [1], (1,), {1: 2}, None, True, len, print]:\n"
    "    print(type(v).__name__, type(v).__qualname__, type(v).__module__, v.__class__ is type(v))\n",
    "print(type(1) is int, type(1) is not float, type(1.0) is int, type([]) is type([2]), type(True) == bool)\n",
    "class A:\n    pass\nclass B(A):\n    pass\nprint(isinstance(B(), A), issubclass(B, A), issubclass(A, B), "
    "type(B()) is B, type(B()) is A, isinstance(B(), type(A())))\n",
    "class A:\n    pass\nprint(type(A).__name__, type(type(1)).__name__, A.__class__.__name__)\n",
    "print(len.__name__, print.__name__, isinstance.__name__)\n",
    "class A:\n    def __init__(self):\n        self.name = self.__class__.__name__ + '!'\nprint(A().name)\n",
    "class A:\n    def make(self):\n        return type(self)()\nprint(type(A().make()).__name__)\n",
    "print(getattr(1, '__class__'), hasattr(1, '__name__'), hasattr(int, '__name__'), f'{type(2.5).__name__:>8}|')\n",
    "try:\n    int('x')\nexcept ValueError as e:\n"
    "    print(type(e).__name__, e.__class__.__name__, type(e) is ValueError)\n",
]


@pytest.mark.parametrize("source", ALLOWED)
def test_allowed_metadata_prints_what_cpython_prints(source):
    assert run(source) == (0, cpython(source), "")


@pytest.mark.parametrize(("source", "message"), [
    ("x = 1\nprint(x.__name__)\n", "AttributeError: 'int' object has no attribute '__name__'"),
    ("class A:\n    pass\nprint(A().__qualname__)\n", "AttributeError: 'A' object has no attribute '__qualname__'"),
])
def test_missing_metadata_is_pythons_attribute_error(source, message):
    code, _, err = run(source)
    assert code == 1 and err.endswith(message + "\n"), err
    with pytest.raises(AttributeError, match=message.split(": ", 1)[1]):
        cpython(source)


# Every escape known through dunder attributes: before the program runs (static) or when the line runs.
ESCAPES = [
    "print(().__class__.__bases__[0].__subclasses__())\n",
    "print((1).__class__.__base__)\n",
    "print(type(1).__mro__)\n",
    "print(type(1).mro())\n",
    "class A:\n    pass\nprint(A.__subclasses__())\n",
    "class A:\n    pass\nprint(A.__dict__)\n",
    "class A:\n    pass\nprint(A().__dict__)\n",
    "class A:\n    pass\nprint(vars(A()))\n",
    "def f():\n    pass\nprint(f.__globals__)\n",
    "def f():\n    pass\nprint(f.__code__)\n",
    "def f():\n    pass\nprint(f.__closure__, f.__defaults__, f.__kwdefaults__)\n",
    "def f():\n    pass\nprint(f.__builtins__)\n",
    "print(print.__self__)\n",
    "print(len.__self__)\n",
    "print(__builtins__)\n",
    "__import__('os')\n",
    "print(type(1).__init__)\n",
    "print((1).__class__.__call__)\n",
    "print((1).__getattribute__('real'))\n",
    "print(type(1).__getattribute__(1, 'real'))\n",
    "print((1).__reduce_ex__(2))\n",
    "print(type(1).__dict__)\n",
    "print(type.__subclasses__(type))\n",
    "X = type('X', (), {})\n",
    "X = type('X', (object,), {'f': print})\n",
    "t = type(1)\nprint(t('5'))\n",
    "t = type(type(1))\nX = t('X', (), {})\n",
    "class A:\n    pass\nA().__class__ = int\n",
    "class A:\n    pass\nA.__name__ = 'B'\n",
    "class A:\n    pass\nA.__doc__ = 'B'\n",
    "class A:\n    pass\nsetattr(A(), '__class__', int)\n",
    "class A:\n    pass\nsetattr(A, '__name__', 'B')\n",
    "print(getattr(1, '__globals__'))\n",
    "print(getattr(type(1), '__subclasses__')())\n",
    "name = '__class__'\nprint(getattr(1, name))\n",
    "print('{0.__class__}'.format(1))\n",
    "print('{0.__class__.__bases__}'.format(1))\n",
    "print(f'{(1).__class__.__bases__}')\n",
    "print(int.__doc__)\n",
    "print((1).__module__)\n",
    "print(len.__module__, len.__qualname__)\n",
    "def g():\n    yield 1\nprint(g().gi_frame)\n",
    "def g():\n    yield 1\nprint(g().gi_code)\n",
    "try:\n    1 / 0\nexcept Exception as e:\n    print(e.__traceback__.tb_frame)\n",
    "try:\n    1 / 0\nexcept Exception as e:\n    print(e.__class__.__bases__)\n",
    "class A:\n    def f(self):\n        return self.__class__.__init__.__globals__\nA().f()\n",
    "class A:\n    def f(self):\n        return super().__getattribute__('x')\nA().f()\n",
    "class A:\n    def __getattr__(self, name):\n        return 1\n",
    "class A:\n    def __class_getitem__(cls, item):\n        return 1\n",
    "class A:\n    __class__ = int\n",
    "import sys\n",
    "import torch\nx = torch.ones(1)\nprint(x.__class__.__bases__)\n",
    "import torch\nx = torch.ones(1)\nprint(type(x).__subclasses__())\n",
    "import torch\nx = torch.ones(1)\nprint(type(x).__doc__)\n",
    "import torch\nx = torch.ones(1)\nprint(x.__module__)\n",
    "import torch\nx = torch.ones(1)\nprint(x.__dict__)\n",
    "import torch\nprint(torch.__dict__)\n",
    "import torch\nprint(torch.__file__)\n",
    "import torch\nprint(torch.relu.__module__)\n",
    "import torch\nprint(torch.nn.Module.__init__)\n",
    "import torch\nprint(type(torch.nn.Linear(1, 1))('x'))\n",
    "import torch\nprint(torch.nn.Linear(1, 1).__class__.__mro__)\n",
    "import torch\ny = (torch.ones(1, requires_grad=True) * 2).grad_fn\nprint(y.__class__.__dict__)\n",
    "import numpy as np\nprint(np.ones(1).__class__.__bases__)\n",
    "import numpy as np\nprint(np.__dict__)\n",
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\nprint(P._make([1, 2]))\n",
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\nprint(P(1, 2)._asdict())\n",
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\nprint(P.__new__)\n",
    "from collections import namedtuple\nP = namedtuple('P', 'x y')\nprint(P(1, 2).__class__.__bases__)\n",
    "from collections import defaultdict\nd = defaultdict(list)\nprint(d.default_factory.__self__)\n",
    "import itertools\nprint(itertools.chain.__dict__)\n",
    "from dataclasses import dataclass\n@dataclass\nclass A:\n    x: int = 1\nprint(A.__dataclass_fields__)\n",
    "from typing import List\nprint(List.__origin__)\n",
]


@pytest.mark.parametrize("source", ESCAPES)
def test_escapes_fail_with_the_sandboxs_refusal(source):
    code, out, err = run(source)
    assert code == 2, (code, out, err)
    assert err.startswith("gradcli run does not support "), err
