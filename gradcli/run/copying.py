"""Python's `copy` module for programs: `copy.deepcopy` and `copy.copy` of tensors, modules (the program's own
nn.Module subclasses and torch's layers), the program's plain objects and the containers holding them.

deepcopy walks only values a program can hold: tensors (torch's Tensor.__deepcopy__: leaves only, the data, its
requires_grad and .grad copied, a meta tensor staying meta; a Parameter's own __deepcopy__ copies no .grad),
modules (a new object of the same class whose parameters, buffers, sub-modules, hooks and plain attributes are
deep copies), the program's
plain objects, lists, tuples, dicts (OrderedDict, defaultdict), sets, and what Python treats as atomic (numbers,
strings, None, dtypes, devices, functions and classes, shared as Python shares them).  A value reached twice is
copied once (Python's memo), so parameters tied in the original are tied in the copy.
"""

from __future__ import annotations

import collections
import copy as python_copy

import numpy as np

from gradcli.engine import dtypes, meta
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.modules import Module, Parameter
from gradcli.engine.tensor import Device, Size, Tensor
from gradcli.run.classes import ProgramObject
from gradcli.run.numpy_api import NumpyRefused

NON_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  "
            "If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, "
            "see https://github.com/pytorch/pytorch/pull/103001")
ATOMIC = (type(None), bool, int, float, complex, str, bytes, dtypes.DType, Device, Size, range, type(Ellipsis))


def _copy_tensor(t: Tensor, memo: dict) -> Tensor:
    if not t.is_leaf:
        raise TorchRuntimeError(NON_LEAF)
    if t.is_meta:
        array = meta.meta_array(t.array.shape, t.array.dtype, t.array.meta_strides)
    else:
        array = np.array(t.array, copy=True)
    data = Tensor._make(array, None)
    if isinstance(t, Parameter):  # Parameter.__deepcopy__: its data cloned, requires_grad kept, no .grad
        new = Parameter(data, requires_grad=t.requires_grad)
        memo[id(t)] = new
        return new
    new = data.requires_grad_(True) if t.requires_grad else data
    memo[id(t)] = new
    if t._grad is not None:
        new._grad = deepcopy(t._grad, memo)
    return new


def _copy_module(module: Module, memo: dict) -> Module:
    new = object.__new__(type(module))
    memo[id(module)] = new
    for key, value in module.__dict__.items():
        if key == "program_class":  # the program's class: shared, as Python shares classes
            object.__setattr__(new, key, value)
        else:
            object.__setattr__(new, key, deepcopy(value, memo))
    return new


def deepcopy(value, memo: dict | None = None):
    """copy.deepcopy of a value a program holds."""
    memo = {} if memo is None else memo
    if isinstance(value, ATOMIC) or isinstance(value, np.generic):
        return value
    found = memo.get(id(value))
    if found is not None:
        return found
    if isinstance(value, Tensor):
        return _copy_tensor(value, memo)
    if isinstance(value, Module):
        return _copy_module(value, memo)
    if isinstance(value, ProgramObject):
        new = ProgramObject(value.program_class)
        memo[id(value)] = new
        new.attributes.update((k, deepcopy(v, memo)) for k, v in value.attributes.items())
        return new
    if type(value) is list:
        new = []
        memo[id(value)] = new
        new.extend(deepcopy(v, memo) for v in value)
        return new
    if type(value) is tuple:
        new = tuple(deepcopy(v, memo) for v in value)
        return memo.setdefault(id(value), new)
    if type(value) in (dict, collections.OrderedDict):
        new = type(value)()
        memo[id(value)] = new
        for k, v in value.items():
            new[deepcopy(k, memo)] = deepcopy(v, memo)
        return new
    if type(value) is collections.defaultdict:
        new = collections.defaultdict(value.default_factory)
        memo[id(value)] = new
        for k, v in value.items():
            new[deepcopy(k, memo)] = deepcopy(v, memo)
        return new
    if type(value) in (set, frozenset):
        return type(value)(deepcopy(v, memo) for v in value)
    if isinstance(value, np.ndarray):
        return value.copy()
    if callable(value):  # functions, lambdas, classes, bound methods: atomic for Python's deepcopy too
        return value
    raise NumpyRefused(f"copy.deepcopy of a {type(value).__name__} (gradcli run deep-copies tensors, modules, the "
                       "program's objects and lists, tuples, dicts and sets of them)")


def shallow_copy(value):
    """copy.copy: a new container (or object, or module) holding the same values; a tensor or an atomic value is
    Python's copy.copy of it (torch gives a tensor a new tensor only through deepcopy: copy.copy shares it)."""
    if isinstance(value, Module):
        new = object.__new__(type(value))
        for key, item in value.__dict__.items():
            copied = item.copy() if isinstance(item, collections.OrderedDict) and key.startswith("_") else item
            object.__setattr__(new, key, copied)
        return new
    if isinstance(value, ProgramObject):
        new = ProgramObject(value.program_class)
        new.attributes.update(value.attributes)
        return new
    if type(value) in (list, dict, collections.OrderedDict, set, collections.defaultdict):
        return python_copy.copy(value)
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, Tensor):
        raise NumpyRefused("copy.copy of a tensor (use t.clone() for a copy of its data, or copy.deepcopy(t))")
    if isinstance(value, (*ATOMIC, tuple, frozenset)) or callable(value):
        return value
    raise NumpyRefused(f"copy.copy of a {type(value).__name__} (gradcli run copies tensors, modules, the program's "
                       "objects and lists, tuples, dicts and sets)")


MEMBERS = {"deepcopy": deepcopy, "copy": shallow_copy}
