"""torch's Python argument parser, for the errors a program gets from it: `torch.exp(2.0)` is
`exp(): argument 'input' (position 1) must be Tensor, not float`, `torch.log(t, 3)` is `log() takes 1 positional
argument but 2 were given`, `torch.sum(2.0, x)` lists the signatures it could have meant.

torch parses every call of a builtin against the signature strings of its parser (generated into
`torch_signatures.SIGNATURES` by scripts/make_torch_signatures.py) before it computes anything: the rules below
are torch/csrc/utils/python_arg_parser.cpp's (FunctionSignature::parse, PythonArgParser::print_error) and
invalid_arguments.cpp's (format_invalid_args), the messages theirs character for character.  Only the verdict
and the message are reproduced: the op itself still binds its arguments as Python does.
"""

from __future__ import annotations

import types
import weakref

import numpy as np

from gradcli.engine import state
from gradcli.engine.dtypes import DType
from gradcli.engine.errors import TorchTypeError
from gradcli.engine.random import Generator
from gradcli.engine.tensor import Device, Tensor
from gradcli.run.torch_signatures import METHODS, SIGNATURES

# The parser's parameter types (python_arg_parser.cpp's type_map) and the names its messages give them.
TYPE_CODES = {
    "Tensor": "tensor", "Scalar": "scalar", "int64_t": "int", "SymInt": "symint", "double": "double",
    "complex": "complex", "TensorList": "tensorlist", "c10::List<::std::optional<Tensor>>": "tensorlist",
    "c10::List<c10::optional<Tensor>>": "tensorlist", "IntArrayRef": "intlist", "SymIntArrayRef": "symintlist",
    "ArrayRef<double>": "floatlist", "Generator": "generator", "bool": "bool", "Storage": "storage",
    "PyObject*": "object", "ScalarType": "dtype", "Layout": "layout", "MemoryFormat": "memory_format",
    "QScheme": "qscheme", "Device": "device", "DeviceIndex": "int", "Stream": "stream", "std::string": "string",
    "c10::string_view": "string", "::std::string_view": "string", "Dimname": "dimname",
    "DimnameList": "dimnamelist", "ScalarList": "scalarlist",
}
TYPE_NAMES = {
    "tensor": "Tensor", "scalar": "Number", "int": "int", "symint": "int", "double": "float", "complex": "complex",
    "tensorlist": "tuple of Tensors", "intlist": "tuple of ints", "symintlist": "tuple of ints",
    "floatlist": "tuple of floats", "generator": "torch.Generator", "bool": "bool", "storage": "torch.Storage",
    "object": "object", "dtype": "torch.dtype", "layout": "torch.layout", "memory_format": "torch.memory_format",
    "qscheme": "torch.qscheme", "device": "torch.device", "stream": "torch.Stream", "string": "str",
    "dimname": "name", "dimnamelist": "tuple of names", "scalarlist": "tuple of Scalars",
}
# torch's functions that let a Python number stand for a Tensor (should_allow_numbers_as_tensors)
NUMBERS_AS_TENSORS = frozenset(
    f"{base}{suffix}" for base in ("add", "div", "divide", "mul", "multiply", "sub", "subtract", "true_divide",
                                   "floor_divide") for suffix in ("", "_", "_out")) | {"to", "_to_copy", "copy_"}
NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"), "other": ("x2",)}
PYTHON_SCALAR_TYPES = (int, float, bool, complex)
NUMBERS = (int, float, complex, np.number)  # THPUtils_checkScalar (numpy's scalars too)


class Param:
    __slots__ = ("name", "code", "size", "optional", "allow_none", "keyword_only", "default", "names")

    def __init__(self, text: str, keyword_only: bool):
        type_str, _, name = text.partition(" ")
        self.allow_none = "?" in type_str
        type_str = type_str.replace("?", "")
        self.size = 0
        if "[" in type_str:
            type_str, _, size = type_str.partition("[")
            self.size = int(size.rstrip("]"))
        self.code = TYPE_CODES[type_str]
        name, eq, default = name.partition("=")
        self.name, self.optional, self.default = name, bool(eq), default if eq else None
        if default == "None":
            self.allow_none = True
        self.keyword_only = keyword_only
        self.names = (name, *NUMPY_NAMES.get(name, ()))

    def type_name(self) -> str:
        return TYPE_NAMES[self.code]

    def describe(self) -> str:
        text = f"{self.type_name()} {self.name}"
        return text if self.default is None else f"{text} = {self.default}"


class Signature:
    __slots__ = ("name", "params", "hidden", "deprecated", "min_args", "max_args", "max_pos_args",
                 "numbers_as_tensors", "varargs_intlist")

    def __init__(self, text: str):
        self.name, _, rest = text.partition("(")
        body, _, marker = rest.rpartition(")")
        self.hidden = marker in ("|hidden", "|deprecated")
        self.deprecated = marker == "|deprecated"
        self.params = []
        keyword_only = False
        for part in body.split(", ") if body else ():
            if part == "*":
                keyword_only = True
            else:
                self.params.append(Param(part, keyword_only))
        self.numbers_as_tensors = self.name in NUMBERS_AS_TENSORS
        self.max_args = len(self.params)
        self.min_args = sum(not p.optional for p in self.params)
        self.max_pos_args = sum(not p.keyword_only for p in self.params)
        self.varargs_intlist = self.max_pos_args == 1 and self.params[0].code in ("intlist", "symintlist")

    def describe(self) -> str:
        """FunctionSignature::toString: the form the lists of `expected one of` show."""
        parts = []
        keyword = False
        for p in self.params:
            if p.keyword_only and not keyword:
                parts.append("*")
                keyword = True
            parts.append(p.describe())
        return "(" + ", ".join(parts) + ")"

    def parse(self, args: tuple, kwargs: dict, raise_error: bool) -> bool:
        """FunctionSignature::parse: whether the call binds to this signature (with `raise_error`, torch's
        TypeError saying why not)."""
        nargs = len(args)
        if nargs > self.max_pos_args and not self.varargs_intlist:
            if raise_error:
                self.extra_args(nargs)
            return False
        remaining = len(kwargs)
        pos = 0
        for i, param in enumerate(self.params):
            is_kwd = False
            obj = MISSING
            if pos < nargs:
                if param.keyword_only:
                    if raise_error:
                        self.extra_args(nargs)
                    return False
                obj = args[pos]
            elif kwargs:
                for key in param.names:
                    if key in kwargs:
                        obj = kwargs[key]
                        break
                is_kwd = True
            if (obj is MISSING and param.optional) or (obj is None and param.allow_none):
                pass
            elif obj is MISSING:
                if raise_error:
                    self.missing_args(i)
                return False
            else:
                ok, failed = check(param, obj, i, self.numbers_as_tensors)
                if not ok:
                    if self.varargs_intlist and pos == 0 and not is_kwd:
                        if intlist_ok(args, param.size, param.code == "symintlist")[0]:
                            return VARARGS  # every positional argument taken as the one list (zeros(2, 3))
                    if not raise_error:
                        return False
                    if not is_kwd and nargs > self.max_pos_args:  # zeros(2.0, 3): too many, not "must be"
                        self.extra_args(nargs)
                    if is_kwd:
                        raise TorchTypeError(f"{self.name}(): argument '{param.name}' must be {param.type_name()}, "
                                             f"not {type_name(obj)}")
                    if failed is not None:
                        raise TorchTypeError(
                            f"{self.name}(): argument '{param.name}' (position {pos + 1}) must be "
                            f"{param.type_name()}, but found element of type {type_name(obj[failed])} at pos {failed}")
                    raise TorchTypeError(f"{self.name}(): argument '{param.name}' (position {pos + 1}) must be "
                                         f"{param.type_name()}, not {type_name(obj)}")
            if not is_kwd:
                pos += 1
            elif obj is not MISSING:
                remaining -= 1
        if pos < nargs:  # reshape([2, 2], 1): one list taken, an argument left over
            if raise_error:
                self.extra_args(nargs)
            return False
        if remaining > 0:
            if raise_error:
                self.extra_kwargs(kwargs, nargs)
            return False
        return True

    def extra_args(self, nargs: int):
        if self.min_args != self.max_pos_args:
            raise TorchTypeError(f"{self.name}() takes from {self.min_args} to {self.max_pos_args} positional "
                                 f"arguments but {nargs} were given")
        raise TorchTypeError(f"{self.name}() takes {self.max_pos_args} positional argument"
                             f"{'' if self.max_pos_args == 1 else 's'} but {nargs} {'was' if nargs == 1 else 'were'} "
                             "given")

    def missing_args(self, index: int):
        missing = [f'"{p.name}"' for p in self.params[index:] if not p.optional]
        # (torch's "s" is on the singular: its condition is the wrong way round)
        raise TorchTypeError(f"{self.name}() missing {len(missing)} required positional argument"
                             f"{'s' if len(missing) == 1 else ''}: {', '.join(missing)}")

    def extra_kwargs(self, kwargs: dict, nargs: int):
        names = [p.name for p in self.params]
        for key in kwargs:
            if not isinstance(key, str):
                raise TorchTypeError("keywords must be strings")
            if key not in names:
                raise TorchTypeError(f"{self.name}() got an unexpected keyword argument '{key}'")
            if names.index(key) < nargs:
                raise TorchTypeError(f"{self.name}() got multiple values for argument '{key}'")
        raise TorchTypeError("invalid keyword arguments")


MISSING = object()
VARARGS = "varargs"  # (truthy) parse's answer when it took the positional arguments as one list of ints


def type_name(obj) -> str:
    """Python's tp_name of a value, as torch's messages print it (torch's own types by their C names)."""
    if isinstance(obj, Tensor):
        return type(obj).__name__
    if isinstance(obj, DType):
        return "torch.dtype"
    if isinstance(obj, Device):
        return "torch.device"
    if isinstance(obj, Generator):
        return "torch._C.Generator"
    cls = type(obj)
    if cls.__name__ == "Size" and isinstance(obj, tuple):
        return "torch.Size"
    if cls.__module__ == "numpy":
        return f"numpy.{cls.__name__}"
    return cls.__name__


def is_long(obj) -> bool:  # THPUtils_checkLong
    return (isinstance(obj, int) and not isinstance(obj, bool)) or isinstance(obj, np.integer)


def is_double(obj) -> bool:  # THPUtils_checkDouble
    return isinstance(obj, (float, int, np.floating, np.integer))


def is_index(obj) -> bool:  # THPUtils_checkIndex: an int, or anything with __index__ but a bool
    if isinstance(obj, bool):
        return False
    if is_long(obj):
        return True
    if isinstance(obj, Tensor):
        return obj.numel() == 1 and obj.dtype.is_integer
    return False


def intlist_ok(obj, size: int, sym: bool):
    """is_int_list / is_int_or_symint_list: (accepted, the index of the element that failed or None)."""
    if isinstance(obj, (tuple, list)):
        if not obj or is_index(obj[0]):
            return True, None
        return False, 0
    return size > 0 and is_index(obj), None  # (a one-element integer tensor too: torch.sum(x, torch.tensor(1)))


def check(param: Param, obj, argnum: int, numbers_as_tensors: bool):
    """FunctionParameter::check: (accepted, failed element index)."""
    code = param.code
    if code == "tensor":
        return isinstance(obj, Tensor) or (numbers_as_tensors and isinstance(obj, NUMBERS)), None
    if code in ("intlist", "symintlist"):
        return intlist_ok(obj, param.size, code == "symintlist")
    if code in ("scalar", "complex", "double"):
        if isinstance(obj, NUMBERS) and (code != "double" or not isinstance(obj, complex)):
            return True, None
        return isinstance(obj, Tensor) and not obj.requires_grad and obj.dim() == 0, None
    if code in ("int", "symint"):
        if code == "symint":
            return is_index(obj), None
        if is_long(obj):
            return True, None
        return isinstance(obj, Tensor) and obj.dtype.is_integer and not obj.requires_grad and obj.dim() == 0, None
    if code == "bool":
        return isinstance(obj, bool), None
    if code == "tensorlist":
        if not isinstance(obj, (tuple, list)):
            return False, None
        for index, item in enumerate(obj):
            if not isinstance(item, Tensor):  # thrown even while trying the other signatures
                raise TorchTypeError(f"expected Tensor as element {index} in argument {argnum}, but got "
                                     f"{type_name(item)}")
        return True, None
    if code == "floatlist":
        return isinstance(obj, (tuple, list)) and (not obj or isinstance(obj[0], (float, int, complex))), None
    if code == "scalarlist":
        return isinstance(obj, (tuple, list)) and all(isinstance(i, (int, float, complex)) for i in obj), None
    if code == "dtype":
        return isinstance(obj, DType) or any(obj is t for t in PYTHON_SCALAR_TYPES), None  # (no Tensor ==)
    if code == "generator":
        return isinstance(obj, Generator), None
    if code == "device":
        return is_long(obj) or isinstance(obj, (str, Device)), None
    if code == "string":
        return isinstance(obj, str), None
    if code == "object":
        return True, None
    if code == "dimname":
        return obj is None or isinstance(obj, str), None
    if code == "dimnamelist":
        return (isinstance(obj, (tuple, list)) and all(i is None or isinstance(i, str) for i in obj)) or \
            (param.size == 1 and (obj is None or isinstance(obj, str))), None
    return False, None  # storage, layout, memory format, qscheme, stream: values a program cannot make here


class Parser:
    """PythonArgParser: a function's signatures, deprecated ones tried last."""

    def __init__(self, texts):
        signatures = [Signature(t) for t in texts]
        self.signatures = [s for s in signatures if not s.deprecated] + [s for s in signatures if s.deprecated]
        self.name = signatures[0].name
        self.accepted: set = set()  # the call_key of calls taken whatever their values

    def check(self, args: tuple, kwargs: dict):
        """Raise torch's TypeError if no signature takes the call (raw_parse, then print_error); then the
        unpacking of a tuple of ints torch does once it has chosen the signature.  A call whose arguments have
        the types of one taken before is taken without parsing (the per-call cost of a dict look-up).  A call
        only a deprecated signature takes (x.add_(-0.1, y)) gets torch's warning, and its arguments rebound to
        the signature that replaced it, returned as (args, kwargs)."""
        key = call_key(args, kwargs)
        if key in self.accepted:
            return None
        signature = self.parse(args, kwargs)
        if signature.deprecated:
            return self.deprecated(signature, args, kwargs)
        if key is not None and len(self.accepted) < MAX_KEYS and types_decide(signature, args, kwargs):
            self.accepted.add(key)
            return None
        return unpack_indices(signature, args, kwargs)

    def deprecated(self, signature: Signature, args: tuple, kwargs: dict):
        """PythonArgParser::check_deprecated (TORCH_WARN_ONCE: once per run), and the call as the current
        signature with the same parameter names takes it."""
        sink = state.WARNINGS.get()
        if sink is None or sink not in DEPRECATION_WARNED:
            if sink is not None:
                DEPRECATION_WARNED.add(sink)
            current = [f"\n\t{s.name}{s.describe()}" for s in self.signatures if not s.hidden]
            state.warn(f"This overload of {signature.name} is deprecated:\n\t{signature.name}{signature.describe()}"
                       + ("\nConsider using one of the following signatures instead:" + "".join(current)
                          if current else "") +
                       " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)",
                       UserWarning, stacklevel=3)
        values = dict(zip([p.name for p in signature.params], args))
        values.update(kwargs)
        names = set(values)
        for target in self.signatures:
            if not target.deprecated and names <= {p.name for p in target.params}:
                return (tuple(values[p.name] for p in target.params if not p.keyword_only and p.name in values),
                        {p.name: values[p.name] for p in target.params if p.keyword_only and p.name in values})
        return None

    def parse(self, args: tuple, kwargs: dict) -> Signature:
        if len(self.signatures) == 1:
            signature = self.signatures[0]
            taken = signature.parse(args, kwargs, True)
        else:
            for signature in self.signatures:
                taken = signature.parse(args, kwargs, False)
                if taken:
                    break
            else:
                self.print_error(args, kwargs)
        for i, param in enumerate(signature.params):
            if param.code in ("intlist", "symintlist"):
                if taken is VARARGS:
                    value = args if i == 0 else None
                else:
                    value = args[i] if i < len(args) and not param.keyword_only else \
                        next((kwargs[k] for k in param.names if k in kwargs), None)
                if isinstance(value, (tuple, list)):
                    for index, item in enumerate(value):
                        if not is_index(item) if param.code == "symintlist" else not (is_long(item) or (
                                isinstance(item, Tensor) and is_index(item))):
                            raise TorchTypeError(
                                f"{self.name}(): argument '{param.name}' failed to unpack the object at pos "
                                f"{index + 1} with error \"type must be tuple of ints,but got {type_name(item)}\"")
        return signature

    def print_error(self, args: tuple, kwargs: dict):
        """PythonArgParser::print_error: the one plausible signature's own error, or the list of them all."""
        num_args = len(args) + len(kwargs)
        plausible = [s for s in self.signatures if s.min_args <= num_args <= s.max_args and not s.hidden]
        if len(plausible) == 1:
            plausible[0].parse(args, kwargs, True)
        options = [s.describe() for s in self.signatures if not s.hidden]
        raise TorchTypeError(format_invalid_args(args, kwargs, f"{self.name}()", options))


def _as_index(param, value):
    """What torch's parser hands an int or int-list parameter for `value`: a one-element integer tensor's value
    (THPUtils_unpackIndex: `__index__`), in a list each element's; anything else unchanged."""
    if param is None:
        return value
    if param.code == "scalar":  # a 0-d tensor as a number: its value, of its kind (torch.arange(torch.tensor(3)))
        if isinstance(value, Tensor) and value.array.ndim == 0 and not value.requires_grad:
            return value.array.item()
        return value
    if param.code not in ("int", "symint", "intlist", "symintlist"):
        return value
    if isinstance(value, Tensor):
        return int(value.array.reshape(-1)[0]) if value.array.size == 1 and value.dtype.is_integer else value
    if isinstance(value, SEQUENCES) and any(isinstance(item, Tensor) for item in value):
        return type(value)(_as_index(param, item) if isinstance(item, Tensor) else item for item in value)
    return value


def unpack_indices(signature: Signature, args: tuple, kwargs: dict):
    """The call with every tensor the chosen signature takes as an int (a dim, a size, an index) replaced by its
    value, as (args, kwargs); None when there is none (`x.sum(torch.tensor(1))` is `x.sum(1)`)."""
    if not any(isinstance(v, Tensor) or (isinstance(v, SEQUENCES) and any(isinstance(i, Tensor) for i in v))
               for v in (*args, *kwargs.values())):
        return None
    params = signature.params
    if signature.varargs_intlist and args and not (len(args) == 1 and isinstance(args[0], SEQUENCES)):
        new_args = tuple(_as_index(params[0], a) for a in args)  # every positional argument one element
    else:
        new_args = tuple(_as_index(params[i] if i < len(params) else None, a) for i, a in enumerate(args))
    by_name = {name: p for p in params for name in p.names}
    new_kwargs = {k: _as_index(by_name.get(k), v) for k, v in kwargs.items()}
    return new_args, new_kwargs


DEPRECATION_WARNED: weakref.WeakSet = weakref.WeakSet()  # the runs' warning sinks that showed it
MAX_KEYS = 256
SEQUENCES = (list, tuple)


def call_key(args: tuple, kwargs: dict):
    """The types of a call's arguments (of a list's or tuple's elements too) and its keywords' names, or None
    for a long sequence."""
    key = (*map(type, args), *map(type, kwargs.values()), *kwargs) if kwargs else tuple(map(type, args))
    if list not in key and tuple not in key:
        return key
    key = []
    for value in (*args, *kwargs.values()) if kwargs else args:
        cls = type(value)
        if cls is list or cls is tuple:
            if len(value) > 8:
                return None
            key.append((cls, *map(type, value)))
        else:
            key.append(cls)
    if kwargs:
        key.append(tuple(kwargs))
    return tuple(key)


def types_decide(signature: Signature, args: tuple, kwargs: dict) -> bool:
    """Whether `signature` takes every call with these argument types, whatever their values: not when it
    took a Tensor as a number or an int (that depends on its shape, dtype and requires_grad), a Python type as
    a dtype, or every positional argument as one list of ints."""
    if signature.varargs_intlist and len(args) > 1:
        return False
    position = 0
    for param in signature.params:
        if position < len(args):
            value = args[position]
            position += 1
        else:
            value = next((kwargs[k] for k in param.names if k in kwargs), None)
        if isinstance(value, type):
            return False
        if param.code not in ("tensor", "tensorlist", "object"):
            if isinstance(value, Tensor) or (isinstance(value, SEQUENCES) and
                                             any(isinstance(item, Tensor) for item in value)):
                return False
    return True


# -- invalid_arguments.cpp -------------------------------------------------------------------------------------

def parse_option(text: str):
    """_parseOption: the (name, type) pairs torch reads back from a printed signature.  With defaults in the
    printed form (`bool keepdim = False`) its reading takes the default as the name and `bool keepdim =` as the
    type, so such an argument never matches: reproduced as it is."""
    body = text[1:-1]
    arguments = []
    for arg in body.split(", "):
        start = 0
        nullable = False
        if arg[start:start + 1] == "#":
            start += 1
        if arg[start:start + 1] == "[":
            nullable = True
            start += 1
            arg = arg[:len(arg) - len(" or None]")]
        end = arg.rfind(" ")
        name = arg[end + 1:]
        if end < 0:  # the "*" of the keyword-only marker reads as an argument of its own, named and typed "*"
            end = len(arg)
        elif "..." in arg:
            end -= 4
        arguments.append((name, arg[start:end], nullable))
    return arguments, "..." in body


def type_matches(type_str: str, nullable: bool, obj) -> bool:
    if nullable and obj is None:
        return True
    name = type_name(obj)
    if type_str == "float":
        return name in ("float", "int", "long")
    if type_str == "int":
        return name in ("int", "long")
    return name == type_str


def arg_count_match(arguments, variadic: bool, args, kwargs) -> bool:
    got = len(args) + len(kwargs)
    return got == len(arguments) or (variadic and got > len(arguments))


def describe_value(obj) -> str:
    if isinstance(obj, (tuple, list)):
        inner = ", ".join(type_name(item) for item in obj)
        if isinstance(obj, tuple):
            return f"{type_name(obj)} of ({inner}{',' if len(obj) == 1 else ''})"
        return f"{type_name(obj)} of [{inner}]"
    return type_name(obj)


def formatted_arg_desc(arguments, variadic: bool, args, kwargs) -> str:
    """_formattedArgDesc (not on a terminal: a mismatch between !marks!)."""
    parts = []
    values = list(args)
    for i in range(len(args) + len(kwargs)):
        is_kwarg = i >= len(args)
        if is_kwarg:
            key = arguments[i][0]
            if key not in kwargs:  # std::unordered_map::at: torch fails here with an internal error
                raise TorchTypeError("unordered_map::at")
            obj = kwargs[key]
        else:
            obj = values[i]
        if i < len(arguments):
            matching = type_matches(arguments[i][1], arguments[i][2], obj)
        else:
            matching = variadic and type_matches(arguments[-1][1], arguments[-1][2], obj)
        text = (f"{arguments[i][0]}=" if is_kwarg else "") + describe_value(obj)
        parts.append(f"{text}, " if matching else f"!{text}!, ")
    text = "".join(parts)
    return f"({text[:-2] if args else text})"


def arg_desc(args, kwargs) -> str:
    """_argDesc.  Its last ", " is cut only when there are positional arguments: a method called with keywords
    alone reads `got (dim=float, )`."""
    text = "".join([f"{type_name(a)}, " for a in args] + [f"{k}={type_name(kwargs[k])}, " for k in map_order(kwargs)])
    return f"({text[:-2] if args else text})"


def unmatched_kwargs(arguments, kwargs) -> list:
    start = max(len(arguments) - len(kwargs), 0)
    names = [name for name, _, _ in arguments[start:]]
    return [key for key in map_order(kwargs) if key not in names]


MASK64 = (1 << 64) - 1
MUL = 0xC6A4A7935BD1E995


def shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def hash_bytes(data: bytes, seed: int = 0xC70F6907) -> int:
    """libstdc++'s std::_Hash_bytes (64-bit), std::hash<std::string>."""
    aligned = len(data) & ~7
    h = (seed ^ (len(data) * MUL)) & MASK64
    for p in range(0, aligned, 8):
        word = (shift_mix((int.from_bytes(data[p:p + 8], "little") * MUL) & MASK64) * MUL) & MASK64
        h = ((h ^ word) * MUL) & MASK64
    if len(data) & 7:
        h = ((h ^ int.from_bytes(data[aligned:], "little")) * MUL) & MASK64
    return shift_mix((shift_mix(h) * MUL) & MASK64)


def map_order(kwargs: dict) -> list:
    """The order a libstdc++ std::unordered_map<std::string, ...> filled in `kwargs`' order iterates in (torch
    copies the keywords into one to format its message): a key whose bucket is empty goes to the front of the
    list, one whose bucket is not to the front of its bucket's run; 13 buckets (the first insertion asks for 11
    and gets the next prime of the policy's table; the rehash after 13 keys is not reproduced)."""
    keys = list(kwargs)
    buckets = 13
    nodes: list = []
    for key in keys:
        bucket = hash_bytes(key.encode()) % buckets
        first = next((i for i, (_, b) in enumerate(nodes) if b == bucket), 0)
        nodes.insert(first, (key, bucket))
    return [key for key, _ in nodes]


def format_invalid_args(args, kwargs, function_name: str, options: list) -> str:
    message = f"{function_name} received an invalid combination of arguments - "
    if len(options) == 1:
        arguments, variadic = parse_option(options[0])
        unmatched = unmatched_kwargs(arguments, kwargs) if kwargs else []
        if unmatched:
            return message + "got unrecognized keyword arguments: " + ", ".join(unmatched)
        got = formatted_arg_desc(arguments, variadic, args, kwargs) \
            if arg_count_match(arguments, variadic, args, kwargs) else arg_desc(args, kwargs)
        return message + f"got {got}, but expected {options[0]}"
    message += f"got {arg_desc(args, kwargs)}, but expected one of:\n"
    for option in options:
        arguments, variadic = parse_option(option)
        message += f" * {option}\n"
        if arg_count_match(arguments, variadic, args, kwargs):
            unmatched = unmatched_kwargs(arguments, kwargs) if kwargs else []
            if unmatched:
                message += "      didn't match because some of the keywords were incorrect: " + \
                           ", ".join(unmatched) + "\n"
            else:
                message += "      didn't match because some of the arguments have invalid types: " + \
                           formatted_arg_desc(arguments, variadic, args, kwargs) + "\n"
    return message


# -- the boundary ------------------------------------------------------------------------------------------------

PARSERS: dict[str, Parser] = {}


def parser(name: str) -> Parser | None:
    """The parser of torch.NAME (None for a function torch defines in Python, which has no such parser)."""
    found = PARSERS.get(name)
    if found is None and name in SIGNATURES:
        found = PARSERS[name] = Parser(SIGNATURES[name])
    return found


def checked(fn, name: str):
    """torch.NAME as a program calls it: its arguments through torch's parser first (fn itself if torch.NAME
    has no parser)."""
    found = parser(name)
    if found is None or not callable(fn):
        return fn
    accepted = found.accepted

    def call(*args, **kwargs):
        if (tuple(map(type, args)) if not kwargs else
                (*map(type, args), *map(type, kwargs.values()), *kwargs)) not in accepted:
            rebound = found.check(args, kwargs)
            if rebound is not None:
                args, kwargs = rebound
        return fn(*args, **kwargs)

    call.__name__ = call.__qualname__ = getattr(fn, "__name__", name)
    call.__wrapped__ = fn
    call.arguments_checked = True
    return call


class NoArguments:
    """A Tensor method CPython calls without arguments (METH_NOARGS): Python's own messages."""

    accepted = frozenset({()})

    def __init__(self, name: str):
        self.name = name

    def check(self, args: tuple, kwargs: dict) -> None:
        if kwargs:
            raise TorchTypeError(f"TensorBase.{self.name}() takes no keyword arguments")
        if args:
            raise TorchTypeError(f"TensorBase.{self.name}() takes no arguments ({len(args)} given)")


METHOD_PARSERS: dict = {}


def method_parser(name: str):
    """The parser of Tensor.NAME (its self not among the arguments), or None."""
    found = METHOD_PARSERS.get(name)
    if found is None and name in METHODS:
        texts = METHODS[name]
        found = METHOD_PARSERS[name] = Parser(texts) if texts else NoArguments(name)
    return found


CHECKED_METHODS: dict = {}  # (class, name) -> the checking function, or None where torch has no parser


def checked_method(tensor, name: str):
    """tensor.NAME with its calls through torch's parser first, or None if Tensor.NAME has no parser: still a
    method bound to the tensor, for what prints it (`<built-in method sum of Tensor object at 0x…>`).  One
    checking function per class and name, bound to the tensor as Python binds the method itself."""
    key = (type(tensor), name)
    function = CHECKED_METHODS.get(key, MISSING)
    if function is MISSING:
        function = CHECKED_METHODS[key] = checking_function(type(tensor), name)
    return None if function is None else types.MethodType(function, tensor)


def checking_function(cls, name: str):
    found = method_parser(name)
    if found is None:
        return None
    original = getattr(cls, name)
    if not isinstance(original, types.FunctionType):  # (a method that is not a plain function: looked up per call)
        original = None
    accepted = found.accepted

    def function(self, *args, **kwargs):
        if (tuple(map(type, args)) if not kwargs else
                (*map(type, args), *map(type, kwargs.values()), *kwargs)) not in accepted:
            rebound = found.check(args, kwargs)
            if rebound is not None:
                args, kwargs = rebound
        if original is None:
            return getattr(self, name)(*args, **kwargs)
        return original(self, *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    return function
