"""What a program sees when it prints, str()s, repr()s or formats an object it reached: CPython's and PyTorch
2.13's texts (`<built-in function print>`, `<built-in method sin of type object at 0x…>`,
`<class 'torch.autograd.grad_mode.no_grad'>`), never gradcli's internals (module paths, `functools.partial`,
`<locals>`).  Addresses are the objects' own, as CPython prints them."""

from __future__ import annotations

import contextvars
import functools
import re
import types

import numpy as np

from gradcli.engine import Tensor, optim
from gradcli.engine.autograd import Function, enable_grad, no_grad, set_grad_enabled, torch_node_name
from gradcli.engine.errors import EngineError
from gradcli.engine.tensor import Device
from gradcli.engine.tensor_str import format_python_value
from gradcli.run import api, classes, interop, memory_files
from gradcli.run.errors import LimitReached

TORCH_CLASSES = {
    Tensor: "torch.Tensor", no_grad: "torch.autograd.grad_mode.no_grad",
    enable_grad: "torch.autograd.grad_mode.enable_grad",
    set_grad_enabled: "torch.autograd.grad_mode.set_grad_enabled",
    optim.SGD: "torch.optim.sgd.SGD", optim.Adam: "torch.optim.adam.Adam", api.Module: "module",
    api.TypeRef: "type", Device: "torch.device", interop.inference_mode: "torch.autograd.grad_mode.inference_mode",
}
# torch's own functions live on torch._C._VariableFunctions: one "type object" for all of them
_TORCH_FUNCTIONS_ADDRESS = id(TORCH_CLASSES)


@functools.cache
def program_names() -> dict[int, tuple[str, str]]:
    """id of every callable a module hands out -> (module, member), the first module that names it."""
    names: dict[int, tuple[str, str]] = {}
    for module in api.modules().values():
        for member, value in module.members.items():
            if callable(value) and not isinstance(value, (type, api.Module)):
                names.setdefault(id(value), (module.name, member))
    return names


def class_name(cls: type) -> str:
    if isinstance(cls, type) and issubclass(cls, EngineError):
        return cls.torch_type  # torch's errors are Python's RuntimeError, IndexError ... (LinAlgError by its C name)
    if isinstance(cls, type) and cls.__module__.startswith("numpy"):
        return f"numpy.{cls.__name__}"
    if cls in TORCH_CLASSES:
        return TORCH_CLASSES[cls]
    if cls in api.TORCH_CLASS_NAMES:
        return api.TORCH_CLASS_NAMES[cls]
    if isinstance(cls, type) and cls.__module__ == "__main__":  # a namedtuple the program made
        return f"__main__.{cls.__name__}"
    if hasattr(cls, "python_type_name"):  # the interpreter's own objects, named as Python names them
        return cls.python_type_name
    if isinstance(cls, type) and issubclass(cls, Function):
        return cls.name  # a grad_fn's class is named as the node: SumBackward0
    return cls.__name__


# the longest text str(), repr(), print or a format may build in a run (its max_sequence_length)
TEXT_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("gradcli_run_text_limit", default=None)


class _TooLong(Exception):
    pass


def check_text_size(value) -> None:
    """Before Python's str() of a container runs (in C, where no deadline reaches it): refuse one whose text
    is surely longer than TEXT_LIMIT.  Counted from below (a string its length and quotes, a number one
    character, each separator two) once per distinct object, so a list holding itself 2**30 times over
    (`a = [a, a]` thirty times) costs thirty steps, not 2**30."""
    limit = TEXT_LIMIT.get()
    if limit is None or not isinstance(value, (list, tuple, dict, set, frozenset)):
        return
    if _text_bound(value, limit) > limit:
        raise LimitReached(f"the text of this {type(value).__name__} would be longer than {limit:,} characters "
                           f"(max_sequence_length={limit})")


def _text_bound(value, limit: int) -> int:
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(obj) -> int:
        kind = type(obj)
        if kind is str:
            return len(obj) + 2
        if kind in (list, tuple, dict, set, frozenset):
            key = id(obj)
            known = sizes.get(key)
            if known is not None:
                return known
            if key in active:
                return 5  # [...]: Python's text of a container inside itself
            active.add(key)
            n = len(obj)
            total = 2 + 2 * max(n - 1, 0)
            if total > limit:
                raise _TooLong
            items = obj.items() if kind is dict else obj
            for item in items:
                if kind is dict:
                    total += size(item[0]) + size(item[1]) + 2
                else:
                    total += size(item)
                if total > limit:
                    raise _TooLong
            active.discard(key)
            sizes[key] = total
            return total
        return 1

    try:
        return size(value)
    except _TooLong:
        return limit + 1
    except RecursionError:
        return 0  # nested beyond Python's stack: str() itself says so


def program_repr(value) -> str:
    """repr() as the program's Python and PyTorch would give it."""
    check_text_size(value)
    if isinstance(value, NUMPY_OWN):
        return repr(value)  # numpy's own text: array([1., 2.], dtype=float32), np.float64(0.5)
    if isinstance(value, (list, tuple, dict)) and _holds_numpy(value):
        return _container_repr(value, frozenset())
    if isinstance(value, (Tensor, str, int, float, complex, bool, list, tuple, dict)) or value is None:
        return format_python_value(value, _repr_other) if not isinstance(value, str) else repr(value)
    return _repr_other(value)


# values a program got from numpy print as numpy prints them
NUMPY_OWN = (np.ndarray, np.generic, np.dtype)


def _holds_numpy(value, depth: int = 0, seen: set | None = None) -> bool:
    """Whether a container holds a numpy value (then Python's repr of it is numpy's text for that item).  Each
    distinct container is looked at once: `a = [a, a]` thirty times over is thirty lists, not 2**30."""
    seen = set() if seen is None else seen
    seen.add(id(value))
    items = value.items() if isinstance(value, dict) else value
    for item in items:
        for part in item if isinstance(value, dict) else (item,):
            if isinstance(part, NUMPY_OWN):
                return True
            if isinstance(part, (list, tuple, dict)) and depth < 50 and id(part) not in seen \
                    and _holds_numpy(part, depth + 1, seen):
                return True
    return False


def _container_repr(value, open_ids: frozenset) -> str:
    if isinstance(value, (list, tuple, dict)):
        if id(value) in open_ids:
            return "[...]" if isinstance(value, list) else "{...}" if isinstance(value, dict) else "(...)"
        open_ids = open_ids | {id(value)}
        if isinstance(value, dict):
            return "{" + ", ".join(f"{_container_repr(k, open_ids)}: {_container_repr(v, open_ids)}"
                                   for k, v in value.items()) + "}"
        items = [_container_repr(item, open_ids) for item in value]
        if isinstance(value, tuple) and type(value).__repr__ is tuple.__repr__:
            return "(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"
        if isinstance(value, list):
            return "[" + ", ".join(items) + "]"
    return program_repr(value)


def exception_repr(error: BaseException) -> str:
    """repr() of an exception: RuntimeError('message'), as Python gives it (torch's errors by torch's names)."""
    name = class_name(type(error))
    args = error.args
    if len(args) == 1:
        return f"{name}({program_repr(args[0])})"
    return f"{name}({', '.join(program_repr(a) for a in args)})"


_INTERNAL = re.compile(r"gradcli|functools|<locals>|np\.(float|int|bool|uint)|<bound method|<class '")


def program_str(value) -> str:
    """str(): the text itself for a string, the repr for everything a program can reach that has no str.
    Containers go through Python's own str first (in C: a huge list of numbers costs what it costs in
    Python), and through the program's reprs only if that shows anything of gradcli's."""
    if isinstance(value, (str, Device, memory_files.UUID)):  # a device prints as its name, as torch.device's __str__
        return str(value)
    if isinstance(value, (classes.ProgramObject, classes.ProgramModule)):
        return str(value)  # the program's own __str__ (or __repr__, or Python's default text)
    if isinstance(value, NUMPY_OWN) or isinstance(value, BaseException):
        return str(value)  # numpy's str of its values; an exception's message
    if isinstance(value, (list, tuple, dict)):
        check_text_size(value)
        if _holds_numpy(value):
            return _container_repr(value, frozenset())
        text = str(value)
        if not _INTERNAL.search(text):
            return text
    return format_python_value(value, _repr_other)


# hyperparameters PyTorch 2.13 keeps in every parameter group beyond the ones gradcli's optimisers use
_GROUP_DEFAULTS = {
    optim.SGD: {"differentiable": False, "foreach": None, "fused": None},
    optim.Adam: {"capturable": False, "decoupled_weight_decay": False, "differentiable": False, "foreach": None,
                 "fused": None},
}


def optimizer_repr(opt) -> str:
    """torch.optim.Optimizer.__repr__: the class, then each parameter group's settings sorted by name."""
    text = type(opt).__name__ + " ("
    for i, group in enumerate(opt.param_groups):
        settings = {**_GROUP_DEFAULTS.get(type(opt), {}), **group}
        text += f"\nParameter Group {i}\n"
        for key in sorted(settings):
            if key != "params":
                text += f"    {key}: {program_str(settings[key])}\n"
    return text + ")"


def _repr_other(value) -> str:
    if hasattr(type(value), "python_type_name") and type(value).__module__ == "gradcli.run.interpreter":
        return repr(value)  # the program's functions and generators print as Python prints them
    if isinstance(value, NUMPY_OWN):
        return repr(value)
    if isinstance(value, BaseException):
        return exception_repr(value)
    if isinstance(value, optim.Optimizer):
        return optimizer_repr(value)
    if isinstance(value, np.ndarray):
        return format_python_value(value)
    if isinstance(value, Tensor):
        return repr(value)
    if isinstance(value, api.TypeRef):
        return f"<class '{class_name(value.cls)}'>"
    if isinstance(value, type):
        return f"<class '{class_name(value)}'>"
    if isinstance(value, functools.partial):
        return _partial_repr(value)
    if isinstance(value, types.MethodType):
        owner = value.__self__
        name = value.__func__.__name__
        if isinstance(owner, Tensor):
            return f"<built-in method {name} of Tensor object at {id(owner):#x}>"
        if type(owner).__module__.startswith("gradcli.run"):  # the interpreter's own builtins: print
            return f"<built-in function {name}>"
        return f"<bound method {type(owner).__name__}.{name} of {_repr_other(owner)}>"
    known = program_names().get(id(value))
    if known is not None:
        module, member = known
        if module == "torch":
            return f"<built-in method {member} of type object at {_TORCH_FUNCTIONS_ADDRESS:#x}>"
        if module == "torch.linalg":
            return f"<built-in function linalg_{member}>"
        if module == "math":
            return f"<built-in function {member}>"
        return f"<function {member} at {id(value):#x}>"
    text = repr(value)
    if "gradcli" in text or "<locals>" in text or "functools" in text:
        return f"<built-in function {getattr(value, '__name__', type(value).__name__)}>"
    return text


def _partial_repr(value: functools.partial) -> str:
    """The interpreter binds some methods with functools.partial: str.join, grad_fn.name, its overrides."""
    name = getattr(value.func, "__name__", "method")
    owner = value.args[0] if value.args else None
    if value.func is torch_node_name:  # grad_fn.name
        name = "name"
    elif name == "join_strings":
        name = "join"
    elif name == "format_string":
        name = "format"
    kind = class_name(type(owner)) if owner is not None else "object"
    return f"<built-in method {name} of {kind} object at {id(owner):#x}>"
