"""Classes a program defines: plain classes (methods and attributes), subclasses of torch.nn.Module and of
torch.autograd.Function, and single inheritance among them.

Nothing here is a Python class made from the program's text: a program's class is a `ProgramClass`
(its methods are the interpreter's UserFunctions), a plain instance is a `ProgramObject` holding a dict,
and a module instance is a `ProgramModule` (the engine's Module, which registers parameters and
sub-modules as torch does) that looks its methods up in the program's class.  Every attribute a program
reads or writes goes through `get_attribute` / `set_attribute` here, which only ever consult those
dicts and the tables of public methods below: there is no path to Python's own attributes.
"""

from __future__ import annotations

from functools import partial
from weakref import WeakKeyDictionary

from gradcli.engine import custom_function, modules, optim
from gradcli.engine.custom_function import FunctionCtx
from gradcli.engine.errors import TorchRuntimeError
from gradcli.run.errors import Refused

# The public methods and attributes of the engine's objects, by class (subclasses included).
MODULE_METHODS = frozenset("""
forward parameters named_parameters buffers named_buffers children named_children modules named_modules
zero_grad train eval training requires_grad_ to cpu cuda float double half add_module register_module
register_buffer register_parameter state_dict load_state_dict apply get_submodule get_parameter extra_repr
register_forward_hook register_forward_pre_hook register_full_backward_hook register_full_backward_pre_hook
register_backward_hook to_empty
""".split())
CONTAINER_METHODS = frozenset({"append", "extend"})
DICT_CONTAINER_METHODS = frozenset({"keys", "items", "values", "update", "pop", "clear"})
LAYER_METHODS = frozenset({"reset_parameters"})
OPTIMIZER_ATTRIBUTES = frozenset({"zero_grad", "step", "param_groups", "add_param_group", "defaults", "state",
                                  "state_dict", "load_state_dict"})


class AutogradFunction:
    """torch.autograd.Function as a base class for a program's classes (it is never instantiated)."""

    def __init__(self, *args, **kwargs):
        raise TorchRuntimeError("Legacy autograd function with non-static forward method is deprecated. Please "
                                "use new-style autograd function with static forward method. (Example: "
                                "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


ALLOWED_BASES = {modules.Module: "module", AutogradFunction: "function"}


class ProgramClass:
    """A class statement's result."""

    __slots__ = ("name", "base", "kind", "members", "interpreter", "doc")
    python_type_name = "type"

    def __init__(self, name: str, base, interpreter):
        self.name = name
        self.base = base  # None, a ProgramClass, or an entry of ALLOWED_BASES
        if base is None:
            self.kind = "plain"
        elif isinstance(base, ProgramClass):
            self.kind = base.kind
        else:
            self.kind = ALLOWED_BASES[base]
        self.members: dict = {}  # name -> value; methods are ("function" | "static" | "class", UserFunction)
        self.interpreter = interpreter
        self.doc = None  # the class statement's docstring: its __doc__

    def lookup(self, name: str):
        """(owner class, member) for `name` along the chain of program classes, or None."""
        cls = self
        while isinstance(cls, ProgramClass):
            if name in cls.members:
                return cls, cls.members[name]
            cls = cls.base
        return None

    def is_subclass_of(self, other) -> bool:
        cls = self
        while isinstance(cls, ProgramClass):
            if cls is other:
                return True
            cls = cls.base
        return cls is other if cls is not None else False

    def __call__(self, *args, **kwargs):
        if self.kind == "function":
            return AutogradFunction()
        if self.kind == "module":
            obj = ProgramModule.__new__(ProgramModule)
            object.__setattr__(obj, "program_class", self)
        else:
            obj = ProgramObject(self)
        found = self.lookup("__init__")
        if found is not None:
            owner, (_, function) = found
            if type(function).__name__ == "UserFunction":
                result = self.interpreter.call_function(function, (obj, *args), kwargs)
            else:  # what @dataclass wrote
                result = function(obj, *args, **kwargs)
            if result is not None:
                raise TypeError(f"__init__() should return None, not '{type(result).__name__}'")
        elif self.kind == "module":
            modules.Module.__init__(obj, *args, **kwargs)
        elif args or kwargs:
            raise TypeError(f"{self.name}() takes no arguments")
        return obj

    def __repr__(self) -> str:
        return f"<class '__main__.{self.name}'>"


class ProgramObject:
    """An instance of a program's plain class: its attributes in a dict."""

    __slots__ = ("program_class", "attributes", "__weakref__")
    python_type_name = "object"

    def __init__(self, cls: ProgramClass):
        self.program_class = cls
        self.attributes: dict = {}

    def __repr__(self) -> str:
        text = program_text(self, "__repr__")
        return f"<__main__.{self.program_class.name} object at {id(self):#x}>" if text is None else text

    def __str__(self) -> str:
        text = program_text(self, "__str__")
        return repr(self) if text is None else text

    def __del__(self):
        finalize(self)

    def __eq__(self, other):
        found = self.program_class.lookup("__eq__")  # only a @dataclass writes one
        return NotImplemented if found is None else bind(self, *found)(other)

    __hash__ = object.__hash__


def finalize(obj) -> None:
    """The program's __del__ of `obj`, when CPython would call it: as the last reference to the object goes (the
    interpreter's references are the program's), run by the interpreter (Interpreter.finalize)."""
    cls = getattr(obj, "program_class", None)
    found = cls.lookup("__del__") if cls is not None else None
    if found is not None:
        interpreter = getattr(found[0], "interpreter", None)
        if interpreter is not None:
            interpreter.finalize(obj, bind(obj, *found))


class ProgramModule(modules.Module):
    """An instance of a program's nn.Module subclass."""

    program_class: ProgramClass

    def __del__(self):
        finalize(self)

    def _get_name(self) -> str:
        return self.program_class.name

    def __call__(self, *args, **kwargs):
        found = self.program_class.lookup("forward")
        if found is None:
            raise NotImplementedError(f'Module [{self._get_name()}] is missing the required "forward" function')
        return self.call_with_hooks(bind(self, found[0], found[1]), args, kwargs)

    def extra_repr(self) -> str:
        found = self.program_class.lookup("extra_repr")
        return bind(self, found[0], found[1])() if found is not None else ""

    def __repr__(self) -> str:
        text = program_text(self, "__repr__")
        return modules.module_repr(self, repr) if text is None else text

    def __str__(self) -> str:
        text = program_text(self, "__str__")
        return repr(self) if text is None else text


def program_text(obj, name: str) -> str | None:
    """What the program's own __str__ or __repr__ gives for `obj` (run by the interpreter), or None."""
    found = obj.program_class.lookup(name)
    if found is None:
        return None
    result = bind(obj, *found)()
    if not isinstance(result, str):
        raise TypeError(f"{name} returned non-string (type {type(result).__name__})")
    return result


class BoundMethod:
    """A program's method bound to an instance (or, for a classmethod, to the class)."""

    __slots__ = ("function", "owner", "receiver")
    python_type_name = "method"

    def __init__(self, function, owner: ProgramClass, receiver):
        self.function, self.owner, self.receiver = function, owner, receiver

    def __call__(self, *args, **kwargs):
        # the program's function (a UserFunction), or what a decorator made of it
        return self.function(self.receiver, *args, **kwargs)

    def __repr__(self) -> str:
        name = getattr(self.function, "name", "method")
        return f"<bound method {name} of {_receiver_repr(self.receiver)}>"


class Property:
    """@property in a program's class: reading the attribute calls the getter, assigning it the setter."""

    __slots__ = ("fget", "fset", "name")
    python_type_name = "property"

    def __init__(self, fget, fset=None, name: str = ""):
        self.fget, self.fset, self.name = fget, fset, name

    def setter(self, fset):
        return Property(self.fget, fset, self.name)

    def getter(self, fget):
        return Property(fget, self.fset, self.name)

    def __repr__(self) -> str:
        return f"<property object at {id(self):#x}>"


def _receiver_repr(receiver) -> str:
    return repr(receiver)


class Super:
    """super(): attribute lookup that starts after `cls` in the receiver's chain of classes."""

    __slots__ = ("cls", "receiver")
    python_type_name = "super"

    def __init__(self, cls: ProgramClass, receiver):
        self.cls, self.receiver = cls, receiver

    def __repr__(self) -> str:
        return f"<super: <class '{self.cls.name}'>, <{self.cls.name} object>>"


def bind(receiver, owner: ProgramClass, member):
    """What reading a class member through `receiver` gives, as Python's descriptors do."""
    if type(member) is Property:
        return member if isinstance(receiver, ProgramClass) else member.fget(receiver)
    if type(member) is tuple:
        kind, function = member
        if kind == "static":
            return function
        if kind == "class":
            return BoundMethod(function, owner, receiver if isinstance(receiver, ProgramClass)
                               else _class_of(receiver))
        if isinstance(receiver, ProgramClass):
            return function  # C.method: the plain function
        return BoundMethod(function, owner, receiver)
    return member


def _class_of(obj) -> ProgramClass:
    return obj.program_class


# -- @dataclass ---------------------------------------------------------------------------------------------------

class Dataclass:
    """dataclasses.dataclass as a program sees it: only a decorator of its class statements (`@dataclass`,
    `@dataclass()`), which gives the class an __init__ over its annotated fields, their repr and ==."""

    __slots__ = ()
    python_type_name = "function"

    def __call__(self, *args, **kwargs):
        if args or kwargs:
            raise Refused("dataclass(...) with arguments, or called on anything but a class statement (write "
                          "@dataclass over the class)", None)
        return self

    def __repr__(self) -> str:
        return f"<function dataclass at {id(self):#x}>"


DATACLASS = Dataclass()
MISSING_FIELD = object()  # a @dataclass field without a default


def make_dataclass(cls: ProgramClass, fields: list) -> None:
    """The methods @dataclass writes for `fields` [(name, default or MISSING_FIELD)] in the class statement's order."""
    seen_default = False
    for name, default in fields:
        if type(default) in (list, dict):
            raise ValueError(f"mutable default {type(default)} for field {name} is not allowed: use default_factory")
        if default is MISSING_FIELD and seen_default:
            raise TypeError(f"non-default argument '{name}' follows default argument")
        seen_default = seen_default or default is not MISSING_FIELD

    def init(obj, *args, **kwargs):
        if len(args) > len(fields):
            required = sum(1 for _, d in fields if d is MISSING_FIELD)
            takes = f"{len(fields) + 1}" if required == len(fields) else f"from {required + 1} to {len(fields) + 1}"
            raise TypeError(f"{cls.name}.__init__() takes {takes} positional argument"
                            f"{'s' if len(fields) else ''} but {len(args) + 1} were given")
        values = dict(zip([n for n, _ in fields], args))
        for key, value in kwargs.items():
            if key not in {n for n, _ in fields}:
                raise TypeError(f"{cls.name}.__init__() got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"{cls.name}.__init__() got multiple values for argument '{key}'")
            values[key] = value
        missing = [n for n, d in fields if n not in values and d is MISSING_FIELD]
        if missing:
            names = " and ".join(f"'{n}'" for n in missing) if len(missing) <= 2 else \
                ", ".join(f"'{n}'" for n in missing[:-1]) + f", and '{missing[-1]}'"
            raise TypeError(f"{cls.name}.__init__() missing {len(missing)} required positional argument"
                            f"{'s' if len(missing) > 1 else ''}: {names}")
        for name, default in fields:
            set_attribute(obj, name, values[name] if name in values else default)

    def text(obj):
        return f"{cls.name}(" + ", ".join(f"{n}={cls.interpreter.repr_of(get_attribute(obj, n))}"
                                          for n, _ in fields) + ")"

    def equal(obj, other):
        if not (isinstance(other, ProgramObject) and other.program_class is obj.program_class):
            return NotImplemented
        return tuple(get_attribute(obj, n) for n, _ in fields) == tuple(get_attribute(other, n) for n, _ in fields)

    cls.members.setdefault("__init__", ("function", init))
    cls.members.setdefault("__repr__", ("function", text))
    cls.members.setdefault("__eq__", ("function", equal))


# -- attribute access ----------------------------------------------------------------------------------------

def handles(obj) -> bool:
    """Whether attribute access on `obj` is this module's business."""
    return isinstance(obj, (ProgramClass, ProgramObject, modules.Module, Super, FunctionCtx, optim.Optimizer))


# Names starting with '_' a program assigned on a torch module (`self._cache = ...`): readable there, while the
# module's own internals (`_parameters`, `_modules` ...) stay out of reach.
_PRIVATE: WeakKeyDictionary = WeakKeyDictionary()


def private_refused(obj, name: str) -> Refused:
    kind = obj._get_name() if isinstance(obj, modules.Module) else type(obj).__name__
    return Refused(f"the attribute .{name} of a {kind} (names starting with '_' are readable only where the "
                   "program assigned them; use the public attribute or method: weight, parameters() ...)", None)


def _module_private(module: modules.Module, name: str):
    if name in _PRIVATE.get(module, ()):
        registered = module.own_attributes()
        return registered[name] if name in registered else module.__dict__[name]
    if isinstance(module, ProgramModule):
        found = module.program_class.lookup(name)
        if found is not None:
            return bind(module, *found)
    if name in module.__dict__ or hasattr(type(module), name):
        raise private_refused(module, name)
    raise AttributeError(f"'{module._get_name()}' object has no attribute '{name}'")


def _set_module_private(module: modules.Module, name: str, value) -> None:
    if name not in _PRIVATE.get(module, ()) and (name in module.__dict__ or hasattr(type(module), name)
                                                 or name in _module_internals()):
        raise Refused(f"assigning .{name} on a {module._get_name()} (a name torch.nn.Module uses itself; "
                      "choose another)", None)
    _PRIVATE.setdefault(module, set()).add(name)


def _module_internals() -> frozenset:
    global _INTERNALS
    if _INTERNALS is None:
        _INTERNALS = frozenset(vars(modules.Module()))
    return _INTERNALS


_INTERNALS = None


def get_attribute(obj, name: str):
    if name.startswith("_") and not isinstance(obj, (ProgramObject, ProgramClass, FunctionCtx)) \
            and not (name == "__init__" and isinstance(obj, Super)):  # super().__init__(...)
        if isinstance(obj, modules.Module):
            return _module_private(obj, name)
        if isinstance(obj, Super) and isinstance(obj.cls.base, ProgramClass):
            found = obj.cls.base.lookup(name)
            if found is not None:
                return bind(obj.receiver, *found)
        raise private_refused(obj, name)
    if isinstance(obj, ProgramObject):
        if name in obj.attributes:
            return obj.attributes[name]
        found = obj.program_class.lookup(name)
        if found is not None:
            return bind(obj, *found)
        raise AttributeError(f"'{obj.program_class.name}' object has no attribute '{name}'")
    if isinstance(obj, modules.Module):
        return _module_attribute(obj, name)
    if isinstance(obj, ProgramClass):
        if name == "apply" and obj.kind == "function":
            return partial(apply_function, obj)
        found = obj.lookup(name)
        if found is not None:
            return bind(obj, *found)
        raise AttributeError(f"type object '{obj.name}' has no attribute '{name}'")
    if isinstance(obj, Super):
        return _super_attribute(obj, name)
    if isinstance(obj, FunctionCtx):
        if name in FunctionCtx.METHODS:
            return getattr(obj, name)
        if name in obj.attributes:
            return obj.attributes[name]
        raise AttributeError(f"'{obj.function_name}' object has no attribute '{name}'")
    if isinstance(obj, optim.Optimizer):
        if name in OPTIMIZER_ATTRIBUTES:
            return getattr(obj, name)
        raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")
    raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")


def _module_attribute(module: modules.Module, name: str):
    own = module.own_attributes()
    if name in own:
        return own[name]
    if isinstance(module, ProgramModule):
        found = module.program_class.lookup(name)
        if found is not None:
            return bind(module, *found)
    if name in MODULE_METHODS or (name in CONTAINER_METHODS and isinstance(module, (
            modules.Sequential, modules.ModuleList, modules.ParameterList))) \
            or (name in DICT_CONTAINER_METHODS and isinstance(module, (modules.ModuleDict, modules.ParameterDict))) \
            or (name in LAYER_METHODS and hasattr(type(module), name)):
        return getattr(module, name)
    raise AttributeError(f"'{module._get_name()}' object has no attribute '{name}'")


def _super_attribute(proxy: Super, name: str):
    base = proxy.cls.base
    if isinstance(base, ProgramClass):
        found = base.lookup(name)
        if found is not None:
            return bind(proxy.receiver, *found)
        while isinstance(base, ProgramClass):
            base = base.base
    if base is modules.Module and (name == "__init__" or name in MODULE_METHODS):
        method = modules.Module.__init__ if name == "__init__" else getattr(modules.Module, name)
        return partial(method, proxy.receiver)
    if name == "__init__":
        return _object_init
    raise AttributeError(f"'super' object has no attribute '{name}'")


def _object_init(*args, **kwargs):
    if args or kwargs:
        raise TypeError("object.__init__() takes exactly one argument (the instance to initialize)")


def set_attribute(obj, name: str, value) -> None:
    prop = _property_of(obj, name)
    if prop is not None:
        if prop.fset is None:
            raise AttributeError(f"property '{name}' of '{obj.program_class.name}' object has no setter")
        prop.fset(obj, value)
        return
    if name.startswith("_"):
        if isinstance(obj, modules.Module):
            _set_module_private(obj, name, value)
        elif not isinstance(obj, (ProgramObject, ProgramClass, FunctionCtx)):
            raise Refused(f"assigning .{name} on a {type(obj).__name__} (names starting with '_' only on the "
                          "program's own objects; keep the value in a variable of the program)", None)
    if isinstance(obj, ProgramObject):
        obj.attributes[name] = value
    elif isinstance(obj, modules.Module):
        if "_parameters" not in obj.__dict__ and isinstance(obj, ProgramModule) \
                and not isinstance(value, (modules.Parameter, modules.Module)):
            object.__setattr__(obj, name, value)  # before super().__init__(): a plain attribute, as in torch
        else:
            obj.__setattr__(name, value)
    elif isinstance(obj, ProgramClass):
        obj.members[name] = value
    elif isinstance(obj, FunctionCtx):
        if name in FunctionCtx.METHODS:
            raise AttributeError(f"attribute '{name}' of '{obj.function_name}' objects is not writable")
        obj.attributes[name] = value
    elif isinstance(obj, optim.Optimizer) and name == "param_groups":
        setattr(obj, name, value)
    else:
        raise AttributeError(f"'{type(obj).__name__}' object attribute '{name}' is read-only")


def _property_of(obj, name: str) -> Property | None:
    if isinstance(obj, (ProgramObject, ProgramModule)):
        found = obj.program_class.lookup(name)
        if found is not None and type(found[1]) is Property:
            return found[1]
    return None


# -- autograd.Function ----------------------------------------------------------------------------------------

def apply_function(cls: ProgramClass, *args, **kwargs):
    """Function.apply for the program's class `cls`."""
    forward = cls.lookup("forward")
    backward = cls.lookup("backward")
    if forward is None:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")
    setup = cls.lookup("setup_context")
    forward_fn = bind(cls, *forward)

    def call_backward(ctx, *grads):
        if backward is None:
            raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                      "autograd.Function to use it with backward mode AD.")
        return bind(cls, *backward)(ctx, *grads)

    setup_fn = bind(cls, *setup) if setup is not None else None
    jvp = cls.lookup("jvp")
    jvp_fn = bind(cls, *jvp) if jvp is not None else None
    return custom_function.apply(cls.name, forward_fn, call_backward, args, kwargs, setup_context=setup_fn,
                                 call_jvp=jvp_fn)


# -- isinstance and type ---------------------------------------------------------------------------------------

def is_instance(obj, classinfo) -> bool:
    """isinstance() that also knows the program's classes."""
    if isinstance(classinfo, tuple):
        return any(is_instance(obj, item) for item in classinfo)
    if isinstance(classinfo, ProgramClass):
        cls = getattr(obj, "program_class", None) if isinstance(obj, (ProgramObject, ProgramModule)) else None
        return cls is not None and cls.is_subclass_of(classinfo)
    if classinfo is AutogradFunction:
        return False
    classinfo = getattr(classinfo, "cls", classinfo)  # type(x) of a value that is not the program's: a TypeRef
    return isinstance(obj, classinfo)


def is_subclass(cls, classinfo) -> bool:
    """issubclass() that also knows the program's classes."""
    if isinstance(classinfo, tuple):
        return any(is_subclass(cls, item) for item in classinfo)
    if isinstance(cls, ProgramClass):
        return cls.is_subclass_of(classinfo) if isinstance(classinfo, ProgramClass) else \
            cls.is_subclass_of(classinfo) or classinfo is object
    if isinstance(classinfo, ProgramClass):
        return False
    cls, classinfo = getattr(cls, "cls", cls), getattr(classinfo, "cls", classinfo)
    return issubclass(cls, classinfo)


def class_of(obj):
    """The class type() gives for an object of the program's own classes, or None."""
    if isinstance(obj, (ProgramObject, ProgramModule)):
        return obj.program_class
    return None
