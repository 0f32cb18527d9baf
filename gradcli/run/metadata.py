"""The metadata a program may read about its values: `obj.__class__` (what `type(obj)` gives), and the
`__name__`, `__qualname__`, `__module__` and `__doc__` of a class or a function, as CPython and PyTorch give
them (`self.__class__.__name__` in a hook, `type(x).__name__`, `f.__qualname__`).

Every answer is a string, None, or a class as `type()` gives it to a program (a `TypeRef` or the program's
`ProgramClass`), whose attributes are these five again: nothing here hands out a Python object that leads
further (`__bases__`, `__mro__`, `__subclasses__`, `__globals__`, `__dict__`, `__code__` stay refused by the
static check, and are never looked up).
"""

from __future__ import annotations

import types

from gradcli.run import api, classes, interop, reprs
from gradcli.run.errors import Refused

READABLE = api.READABLE_DUNDER_ATTRIBUTES
# The object __doc__ of torch's and Python's own classes and functions would be their documentation, which
# gradcli does not carry.
_NO_DOC = ("the __doc__ of torch's and Python's own classes and functions (gradcli does not carry their "
           "documentation); __doc__ is readable on the program's own classes and functions")


def read(obj, name: str, line: int | None, builtins: dict | None = None):
    """`obj.<name>` for a name in READABLE, or the AttributeError CPython raises, or a refusal.  `builtins`:
    the run's builtins by id (print, isinstance ... are the interpreter's own functions), named as Python's."""
    if name == "__class__":
        return api.type_of(obj)
    if isinstance(obj, classes.ProgramClass):
        return {"__name__": obj.name, "__qualname__": obj.name, "__module__": "__main__", "__doc__": obj.doc}[name]
    if isinstance(obj, api.TypeRef):
        return _class_metadata(obj.cls, name, line)
    if isinstance(obj, classes.BoundMethod):  # a bound method forwards these to its function, as in CPython
        return read(obj.function, name, line, builtins)
    function = _program_function(obj)
    if function is not None:
        return _function_metadata(function, name)
    builtin = (builtins or {}).get(id(obj))
    if builtin is None and callable(obj) and not isinstance(obj, (type, api.Module)):
        builtin = _builtin_name(obj)
    if builtin is not None:
        if name == "__name__":
            return builtin
        raise Refused(f"the attribute .{name} of torch's and Python's own functions (.__name__ is readable)", line)
    if isinstance(obj, api.Module):
        if name == "__name__":
            return obj.name
        raise Refused(f"the attribute .{name} of a module (its .__name__ is readable)", line)
    # an instance: CPython has no __name__/__qualname__ on it; __module__ and __doc__ come from its class
    if name in ("__module__", "__doc__"):
        if isinstance(obj, (classes.ProgramObject, classes.ProgramModule)):
            return "__main__" if name == "__module__" else obj.program_class.doc
        raise Refused(f"the attribute .{name} of a {reprs.class_name(type(obj))} object (read it on the class: "
                      f"type(x).{name})", line)
    kind = reprs.class_name(type(obj)) if not isinstance(obj, (classes.ProgramObject, classes.ProgramModule)) \
        else obj.program_class.name
    raise AttributeError(f"'{kind.rsplit('.', 1)[-1]}' object has no attribute '{name}'")


def _class_metadata(cls, name: str, line: int | None):
    if name == "__doc__":
        raise Refused(_NO_DOC, line)
    dotted = reprs.class_name(cls)
    module, _, qualname = dotted.rpartition(".")
    if not module:  # Python's own (int, list, collections.OrderedDict), or the interpreter's standing for one
        module = "builtins" if cls.__module__.startswith("gradcli") else cls.__module__
    if name == "__module__":
        return module
    return qualname  # torch's classes are not nested: __name__ and __qualname__ agree


def _program_function(obj):
    """The program's own function behind `obj` (a def or lambda, or one under a torch grad-mode decorator)."""
    kind = type(obj).__name__
    if kind == "UserFunction":
        return obj
    if isinstance(obj, interop.GradModeFunction):
        return obj  # functools.wraps-style: torch's decorators keep the function's name
    return None


def _function_metadata(function, name: str):
    qualname = function.name
    node = getattr(function, "node", None)
    if name == "__name__":
        return getattr(node, "name", None) or qualname.rsplit(".", 1)[-1]
    if name == "__qualname__":
        return qualname
    if name == "__module__":
        return "__main__"
    if node is None or not hasattr(node, "body") or not isinstance(node.body, list):
        inner = getattr(function, "function", None)
        return _function_metadata(inner, name) if inner is not None else None
    first = node.body[0] if node.body else None
    if first is not None and type(first).__name__ == "Expr" and type(first.value).__name__ == "Constant" \
            and isinstance(first.value.value, str):
        return first.value.value
    return None


def _builtin_name(obj) -> str | None:
    """The __name__ of a torch or Python function a program reached (torch.relu, F.mse_loss, len, print)."""
    known = reprs.program_names().get(id(obj))
    if known is not None:
        return known[1]
    if isinstance(obj, types.MethodType) and type(obj.__self__).__module__.startswith("gradcli.run"):
        return obj.__func__.__name__  # the interpreter's own builtins: print, getattr ...
    if isinstance(obj, types.BuiltinFunctionType) and getattr(obj, "__module__", None) == "builtins":
        return obj.__name__
    if getattr(obj, "__module__", None) == "gradcli.run.api" and getattr(obj, "__name__", "") == "type_of":
        return "type"
    return None
