"""A tree-walking interpreter for the checked program: it walks Python's AST itself and never hands user
code to eval, exec or compile.

Every node type it can execute has one visit method, listed in `_STATEMENTS` / `_EXPRESSIONS`; those two
tables are also what the static check allows.  Values are reached only through the tables in `api`, so a
program cannot touch anything the tables do not list.  Budgets (statements, iterations, call depth, sizes,
output, memory, time) are counted here as the program runs.
"""

from __future__ import annotations

import ast
import inspect
import operator
import re
import string
import time
from collections.abc import Iterator
from functools import partial
from itertools import islice
from types import GeneratorType

import numpy as np

from gradcli.engine import state
from gradcli.engine.autograd import Function, GradModeContext, torch_node_name
from gradcli.engine.errors import EngineError, LimitExceeded, TorchRuntimeError, from_numpy
from gradcli.engine.tensor import Tensor
from gradcli.run import api, classes
from gradcli.run.errors import LimitReached, OutputFailed, ProgramFailed, Refused, RunError
from gradcli.run.limits import RunLimits
from gradcli.run.reprs import program_repr, program_str
from gradcli.safety.guard import process_memory

BREAK, CONTINUE = object(), object()  # what a statement hands back to the loop around it


class Return:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Frame:
    """A scope: its variables, the names assigned in it (a function's locals) and the scope around it."""

    __slots__ = ("vars", "local_names", "parent")

    def __init__(self, variables: dict, local_names: frozenset | None, parent: Frame | None):
        self.vars = variables
        self.local_names = local_names
        self.parent = parent


class UserFunction:
    """A function the program defined.  Callable from C too (sorted's key=), always through the interpreter."""

    __slots__ = ("name", "node", "signature", "local_names", "interpreter", "owner")
    python_type_name = "function"

    def __init__(self, name, node, signature, local_names, interpreter, owner=None):
        self.name, self.node, self.signature = name, node, signature  # name: the qualified name, C.method
        self.local_names, self.interpreter = local_names, interpreter
        self.owner = owner  # the program's class a method is defined in (for super()), else None

    def __call__(self, *args, **kwargs):
        return self.interpreter.call_function(self, args, kwargs)

    def __repr__(self) -> str:
        return f"<function {self.name} at {id(self):#x}>"


BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.MatMult: operator.matmul,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
INPLACE = {
    ast.Add: operator.iadd, ast.Sub: operator.isub, ast.Mult: operator.imul, ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv, ast.Mod: operator.imod, ast.Pow: operator.ipow,
    ast.MatMult: operator.imatmul, ast.LShift: operator.ilshift, ast.RShift: operator.irshift,
    ast.BitAnd: operator.iand, ast.BitOr: operator.ior, ast.BitXor: operator.ixor,
}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert, ast.Not: operator.not_}
COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
SEQUENCES = (str, list, tuple)
# Types is_lazy can rule out at once (the program's own generators are metered where they are made).
EAGER_TYPES = frozenset({Tensor, float, int, bool, str, list, tuple, dict, type(None), GeneratorType})
# Operators whose result can be far larger than their operands ('a' * 10**10, 9 ** 9 ** 9, 1 << 10**9) ...
GROWING_OPS = frozenset({ast.Add, ast.Mult, ast.Pow, ast.LShift, ast.Mod})
# ... unless both operands are of these types (tensors are bounded by the engine's size limit).
BOUNDED_OPERANDS = frozenset({float, Tensor})
# one conversion of printf-style formatting: %(key)s, flags, width and precision (numbers or *), the type
PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?(.)", re.S)
# containers whose `in` hashes the left operand (dict views included)
HASHING_CONTAINERS = (dict, type({}.keys()), type({}.items()))
DIGITS = re.compile(r"\d+")
MEMORY_CHECK_SECONDS = 0.01  # between two looks at the process's memory: a few tens of MB can grow meanwhile
CLOCK_EVERY_ITERATIONS = 64  # iterations between two looks at the clock inside one statement


class Interpreter:
    def __init__(self, limits: RunLimits, stdout, stderr):
        self.limits = limits
        self.stdout = stdout
        self.stderr = stderr
        self.line = 1  # of the statement running now: errors and warnings are reported there
        self.statements = 0
        self.iterations = 0
        self.depth = 0
        self.output_chars = 0
        self.unflushed = False  # printed since the last flush
        self.deadline = time.monotonic() + limits.max_seconds
        self.memory_start = _resident_bytes()
        self.next_clock_check = 0.0
        self.warned: set = set()
        self.module = Frame({}, None, None)
        self.methods: list = []  # (class, receiver) of each method call in progress, None for plain functions
        self.builtins = {**api.python_builtins(), "print": self.print, "type": api.type_of, "str": program_str,
                         "super": self.program_super, "isinstance": classes.is_instance}
        self.overrides = {(str, "format"): self.format_string, (str, "join"): self.join_strings,
                          (list, "extend"): self.extend_list}

    # -- running --------------------------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        # the engine's warnings come to this run's show_warning through a context variable, and numpy's own
        # (which torch has no counterpart of) are off in numpy's context-local error state: nothing here
        # touches the process's warning filters or showwarning, which every thread shares
        token = state.WARNINGS.set(self.show_warning)
        with np.errstate(all="ignore"):
            try:
                self.exec_block(tree.body, self.module)
            except LimitReached as error:
                if error.line is None:  # raised below the interpreter (the budget, a text too long): here
                    error.line = self.line
                raise
            except RunError:
                raise
            except LimitExceeded as error:
                raise LimitReached(f"{error} (max_tensor_elements)", self.line) from None
            except RecursionError:
                raise LimitReached("the program recursed too deeply for Python's stack", self.line) from None
            except MemoryError:
                raise self.limit("the program needed more memory than the limit", "max_memory_mb") from None
            except EngineError as error:
                raise ProgramFailed(error.torch_type, str(error), self.line) from None
            except Exception as error:  # the program's own Python error, reported as Python would
                torch_error = from_numpy(error)  # or numpy's words for shapes that do not broadcast, as torch's
                if torch_error is not None:
                    raise ProgramFailed(torch_error.torch_type, str(torch_error), self.line) from None
                raise ProgramFailed(type(error).__name__, str(error), self.line) from None
            finally:
                state.WARNINGS.reset(token)

    def show_warning(self, message, category, filename=None, lineno=None, file=None, line=None) -> None:
        """Print a UserWarning once per line and message, as Python's default filter does."""
        if not issubclass(category, UserWarning):
            return  # numpy's RuntimeWarnings have no counterpart in torch
        key = (category, str(message), self.line)
        if key not in self.warned:
            self.warned.add(key)
            self.stdout.flush()  # keep the order of prints and warnings on a terminal
            self.stderr.write(f"gradcli run: warning at line {self.line}\n{category.__name__}: {message}\n")

    # -- budgets --------------------------------------------------------------------------------------
    def limit(self, what: str, name: str):
        return LimitReached(f"{what} ({name}={getattr(self.limits, name)})", self.line)

    def tick_iteration(self) -> None:
        self.iterations += 1
        if self.iterations > self.limits.max_iterations:
            raise self.limit("too many loop iterations", "max_iterations")
        if self.iterations % CLOCK_EVERY_ITERATIONS == 0 and time.monotonic() >= self.next_clock_check:
            self.check_clock()

    def check_clock(self) -> None:
        """Wall time, and the memory the process has grown by since the run started (every 10 ms at most:
        callers compare time.monotonic() with next_clock_check first, which is all a statement costs)."""
        now = time.monotonic()
        if now > self.deadline:
            raise self.limit("the program ran too long", "max_seconds")
        self.next_clock_check = min(now + MEMORY_CHECK_SECONDS, self.deadline)
        if self.unflushed:  # what was printed survives a statement that has to be killed (gradcli/safety/guard.py)
            self.unflushed = False
            try:
                self.stdout.flush()
            except OSError as err:
                raise OutputFailed(err) from None
        if self.memory_start is not None:
            grown = (_resident_bytes() - self.memory_start) / 2**20
            if grown > self.limits.max_memory_mb:
                raise self.limit(f"the program grew by {grown:.0f} MB of memory", "max_memory_mb")

    def check_length(self, length: int) -> None:
        if length > self.limits.max_sequence_length:
            raise self.limit(f"a sequence of {length} items is too long", "max_sequence_length")

    def check_int(self, bits: int) -> None:
        if bits > self.limits.max_int_bits:
            raise self.limit(f"an integer of about {bits} bits is too large", "max_int_bits")

    def check_width(self, spec: str) -> None:
        """Format widths and precisions allocate what they ask for: '{:1000000000}' must not."""
        for digits in DIGITS.findall(spec):
            self.check_length(int(digits))

    def check_hashable(self, value) -> None:
        """Hashing a tuple recurses in C without a depth check: a deep one would crash the process."""
        if type(value) is not tuple:
            return
        limit = self.limits.max_value_depth
        heights: dict[int, int] = {}  # memo by id: a tuple built as (t, t) repeatedly is a DAG, not a tree
        stack = [(value, False)]
        while stack:
            item, children_done = stack.pop()
            if children_done:
                height = 1 + max((heights[id(c)] for c in item if type(c) is tuple), default=0)
                if height > limit:
                    raise self.limit("a tuple nested too deeply to be hashed", "max_value_depth")
                heights[id(item)] = height
            elif id(item) not in heights:
                stack.append((item, True))
                stack.extend((c, False) for c in item if type(c) is tuple and id(c) not in heights)
                if len(stack) > limit + len(item):
                    self.check_depth_of_chain(item, limit)

    def check_depth_of_chain(self, item, limit: int) -> None:
        """A cheap early answer for the usual deep value, t = (t,) repeated: follow first tuple children."""
        depth = 0
        while type(item) is tuple:
            depth += 1
            if depth > limit:
                raise self.limit("a tuple nested too deeply to be hashed", "max_value_depth")
            item = next((c for c in item if type(c) is tuple), None)

    def metered(self, iterable):
        for item in iterable:
            self.tick_iteration()
            yield item

    @staticmethod
    def is_lazy(value) -> bool:
        """A range or iterator that C code would drain unmetered (generators of the program are metered)."""
        kind = type(value)
        return kind is range or (kind not in EAGER_TYPES and isinstance(value, Iterator))

    # -- statements -----------------------------------------------------------------------------------
    def exec_block(self, body: list, frame: Frame):
        limits = self.limits
        for stmt in body:
            self.line = stmt.lineno
            self.statements += 1
            if self.statements > limits.max_statements:
                raise self.limit("too many statements executed", "max_statements")
            if time.monotonic() >= self.next_clock_check:
                self.check_clock()
            signal = _STATEMENTS[type(stmt)](self, stmt, frame)
            if signal is not None:
                return signal
        return None

    def exec_Expr(self, node, frame):
        self.eval(node.value, frame)

    def exec_Assign(self, node, frame):
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.assign(target, value, frame)

    def exec_AugAssign(self, node, frame):
        target = node.target
        value = self.eval(node.value, frame)
        if isinstance(target, ast.Name):
            frame.vars[target.id] = self.binary(node.op, self.load(target.id, frame), value, inplace=True)
        elif isinstance(target, ast.Attribute):
            obj = self.eval(target.value, frame)
            current = self.get_attribute(obj, target.attr)
            self.set_attribute(obj, target.attr, self.binary(node.op, current, value, inplace=True))
        else:
            obj = self.eval(target.value, frame)
            key = self.eval(target.slice, frame)
            self.set_item(obj, key, self.binary(node.op, obj[key], value, inplace=True))

    def exec_If(self, node, frame):
        body = node.body if self.eval(node.test, frame) else node.orelse
        return self.exec_block(body, frame)

    def exec_For(self, node, frame):
        for item in self.eval(node.iter, frame):
            self.line = node.lineno  # each pass starts at the loop's own line, as in Python's tracebacks
            self.tick_iteration()
            self.assign(node.target, item, frame)
            signal = self.exec_block(node.body, frame)
            if signal is BREAK:
                return None
            if signal is not None and signal is not CONTINUE:
                return signal
        return self.exec_block(node.orelse, frame)

    def exec_While(self, node, frame):
        while self.eval(node.test, frame):
            self.tick_iteration()
            signal = self.exec_block(node.body, frame)
            if signal is BREAK:
                return None
            if signal is not None and signal is not CONTINUE:
                return signal
            self.line = node.lineno  # the test is evaluated on the loop's own line
        return self.exec_block(node.orelse, frame)

    def exec_Break(self, node, frame):
        return BREAK

    def exec_Continue(self, node, frame):
        return CONTINUE

    def exec_Pass(self, node, frame):
        return None

    def exec_Return(self, node, frame):
        return Return(None if node.value is None else self.eval(node.value, frame))

    def exec_FunctionDef(self, node, frame):
        frame.vars[node.name] = self.make_function(node, frame, node.name, None)

    def make_function(self, node, frame, qualname: str, owner) -> UserFunction:
        args = node.args
        positional = args.posonlyargs + args.args
        defaults = [self.eval(d, frame) for d in args.defaults]
        first_default = len(positional) - len(defaults)
        params = []
        for i, arg in enumerate(positional):
            kind = inspect.Parameter.POSITIONAL_ONLY if i < len(args.posonlyargs) \
                else inspect.Parameter.POSITIONAL_OR_KEYWORD
            default = defaults[i - first_default] if i >= first_default else inspect.Parameter.empty
            params.append(inspect.Parameter(arg.arg, kind, default=default))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            params.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY,
                                            default=inspect.Parameter.empty if default is None
                                            else self.eval(default, frame)))
        return UserFunction(qualname, node, inspect.Signature(params), _local_names(node), self, owner)

    def exec_ClassDef(self, node, frame):
        """A class statement: its methods (plain, @staticmethod, @classmethod), attributes and docstring."""
        bases = [None if _is_object(base, frame) else self.eval(base, frame) for base in node.bases]
        base = bases[0] if bases else None
        if base is not None and not isinstance(base, classes.ProgramClass) and base not in classes.ALLOWED_BASES:
            raise Refused(f"a class deriving from {ast.unparse(node.bases[0])} (only torch.nn.Module, "
                          "torch.autograd.Function and the program's own classes)", node.lineno)
        cls = classes.ProgramClass(node.name, base, self)
        scope = Frame({}, None, frame)  # the class body's own namespace: later attributes may use earlier ones
        for stmt in node.body:
            self.line = stmt.lineno
            if isinstance(stmt, ast.FunctionDef):
                kind = stmt.decorator_list[0].id if stmt.decorator_list else "function"
                kind = {"staticmethod": "static", "classmethod": "class"}.get(kind, kind)
                cls.members[stmt.name] = (kind, self.make_function(stmt, scope, f"{node.name}.{stmt.name}", cls))
            elif isinstance(stmt, ast.Assign):
                value = self.eval(stmt.value, scope)
                for target in stmt.targets:
                    self.assign(target, value, scope)
        for name, value in scope.vars.items():
            cls.members.setdefault(name, value)
        frame.vars[node.name] = cls

    def program_super(self, *args):
        """super(), and super(C, obj) with C one of the program's classes."""
        if args:
            if len(args) != 2 or not isinstance(args[0], classes.ProgramClass):
                raise Refused("super() with arguments other than (a class of the program, an object)", self.line)
            cls, receiver = args
            if not classes.is_instance(receiver, cls):
                raise TypeError("super(type, obj): obj must be an instance or subtype of type")
            return classes.Super(cls, receiver)
        if not self.methods or self.methods[-1] is None:
            raise RuntimeError("super(): no arguments")
        return classes.Super(*self.methods[-1])

    def exec_With(self, node, frame):
        entered = []
        try:
            for item in node.items:
                manager = self.eval(item.context_expr, frame)
                if not isinstance(manager, GradModeContext):  # torch.no_grad(), enable_grad(), set_grad_enabled()
                    raise TypeError(f"'{type(manager).__name__}' object does not support the context manager protocol")
                manager.__enter__()
                entered.append(manager)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, None, frame)
            return self.exec_block(node.body, frame)
        finally:
            for manager in reversed(entered):
                manager.__exit__(None, None, None)

    def exec_Assert(self, node, frame):
        if not self.eval(node.test, frame):
            raise AssertionError(*(() if node.msg is None else (self.eval(node.msg, frame),)))

    def exec_Import(self, node, frame):
        modules = api.modules()
        for alias in node.names:
            if alias.asname:
                frame.vars[alias.asname] = modules[alias.name]
            else:
                top = alias.name.split(".")[0]
                frame.vars[top] = modules[top]

    def exec_ImportFrom(self, node, frame):
        module = api.modules()[node.module]
        for alias in node.names:
            frame.vars[alias.asname or alias.name] = module.members[alias.name]

    # -- names, attributes, items ---------------------------------------------------------------------
    def load(self, name: str, frame: Frame):
        scope = frame
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            if scope.local_names is not None and name in scope.local_names:
                raise UnboundLocalError(f"cannot access local variable '{name}' where it is not associated "
                                        "with a value")
            scope = scope.parent
        try:
            return self.builtins[name]
        except KeyError:
            raise NameError(f"name '{name}' is not defined") from None

    def assign(self, target, value, frame: Frame) -> None:
        kind = type(target)
        if kind is ast.Name:
            frame.vars[target.id] = value
        elif kind is ast.Tuple or kind is ast.List:
            items = list(islice(iter(value), len(target.elts) + 1))
            if len(items) != len(target.elts):
                if len(items) > len(target.elts):
                    raise ValueError(f"too many values to unpack (expected {len(target.elts)})")
                raise ValueError(f"not enough values to unpack (expected {len(target.elts)}, got {len(items)})")
            for element, item in zip(target.elts, items):
                self.assign(element, item, frame)
        elif kind is ast.Attribute:
            self.set_attribute(self.eval(target.value, frame), target.attr, value)
        else:  # ast.Subscript
            self.set_item(self.eval(target.value, frame), self.eval(target.slice, frame), value)

    def get_attribute(self, obj, name: str):
        if classes.handles(obj):
            return classes.get_attribute(obj, name)
        if type(obj) is api.Module:
            try:
                return obj.members[name]
            except KeyError:
                raise AttributeError(f"module '{obj.name}' has no attribute '{name}'") from None
        if name not in api.readable_attributes(obj):
            kind = getattr(type(obj), "python_type_name", type(obj).__name__)  # 'function', not 'UserFunction'
            raise AttributeError(f"'{kind}' object has no attribute '{name}'")
        override = self.overrides.get((type(obj), name))
        if override is not None:
            return partial(override, obj)
        if isinstance(obj, Function):  # its only attribute: torch's grad_fn.name(), a method there
            return partial(torch_node_name, obj)
        if name == "_version":  # torch's version counter as the int torch gives (gradcli shares a list)
            return obj._version[0]
        if name == "grad_fn" and obj.grad_fn is not None:
            bool(obj.grad_fn)  # torch's grad_fn(): a view's regenerated history is used (or refused) as it is read
        return getattr(obj, name)

    def set_attribute(self, obj, name: str, value) -> None:
        if classes.handles(obj):
            if self.is_lazy(value):
                value = list(self.metered(value))
            return classes.set_attribute(obj, name, value)
        if isinstance(obj, api.Module):  # torch.pi = 4: a module's members are gradcli's, fixed
            raise Refused(f"assigning to {obj.name}.{name} (a module's members cannot be replaced)", self.line)
        if not isinstance(obj, Tensor) and name not in api.readable_attributes(obj):
            raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")
        if not isinstance(obj, Tensor) or name not in api.TENSOR_SETTABLE:
            raise AttributeError(f"attribute '{name}' of '{type(obj).__name__}' objects is not writable")
        if name != "requires_grad":
            setattr(obj, name, value)
        elif value and obj.grad_fn is None and not obj.is_floating_point():
            # the property setter's wording differs from requires_grad_()'s
            raise TorchRuntimeError("only Tensors of floating point and complex dtype can require gradients")
        else:
            obj.requires_grad_(value)

    def set_item(self, obj, key, value) -> None:
        if isinstance(obj, dict):
            self.check_hashable(key)
        if self.is_lazy(value):
            value = list(self.metered(value))
        obj[key] = value

    # -- expressions ----------------------------------------------------------------------------------
    def eval(self, node, frame: Frame):
        return _EXPRESSIONS[type(node)](self, node, frame)

    def eval_Constant(self, node, frame):
        return node.value

    def eval_Name(self, node, frame):
        return self.load(node.id, frame)

    def eval_Attribute(self, node, frame):
        return self.get_attribute(self.eval(node.value, frame), node.attr)

    def eval_Subscript(self, node, frame):
        obj, key = self.eval(node.value, frame), self.eval(node.slice, frame)
        if isinstance(obj, dict):
            self.check_hashable(key)
        return obj[key]

    def eval_Slice(self, node, frame):
        parts = (node.lower, node.upper, node.step)
        return slice(*(None if part is None else self.eval(part, frame) for part in parts))

    def eval_elements(self, nodes, frame) -> list:
        values = []
        for node in nodes:
            if type(node) is ast.Starred:
                values.extend(self.metered(self.eval(node.value, frame)))
                self.check_length(len(values))
            else:
                values.append(self.eval(node, frame))
        return values

    def eval_Tuple(self, node, frame):
        return tuple(self.eval_elements(node.elts, frame))

    def eval_List(self, node, frame):
        return self.eval_elements(node.elts, frame)

    def eval_Dict(self, node, frame):
        result = {}
        for key, value in zip(node.keys, node.values):
            if key is None:  # {**other}
                result.update(self.eval(value, frame))
            else:
                key = self.eval(key, frame)
                self.check_hashable(key)
                result[key] = self.eval(value, frame)
        return result

    def eval_BinOp(self, node, frame):
        return self.binary(node.op, self.eval(node.left, frame), self.eval(node.right, frame))

    def binary(self, op, left, right, inplace: bool = False):
        kind = type(op)
        if kind in GROWING_OPS and (type(left) not in BOUNDED_OPERANDS or type(right) not in BOUNDED_OPERANDS):
            if isinstance(left, SEQUENCES) or isinstance(right, SEQUENCES):
                if inplace and type(left) is list and self.is_lazy(right):  # list += range(...) drains it in C
                    right = list(self.metered(right))
                self.guard_sequence_op(kind, left, right)
            elif kind is not ast.Add and isinstance(left, int) and isinstance(right, int):
                self.guard_int_op(kind, left, right)
        return (INPLACE if inplace else BINARY)[kind](left, right)

    def guard_sequence_op(self, kind, left, right) -> None:
        """Check the size a sequence operation would produce before Python allocates it."""
        if kind is ast.Mult:
            sequence, count = (left, right) if isinstance(left, SEQUENCES) else (right, left)
            if isinstance(count, int):
                self.check_length(len(sequence) * count)
        elif kind is ast.Add:
            if hasattr(right, "__len__") and hasattr(left, "__len__"):
                self.check_length(len(left) + len(right))
        elif kind is ast.Mod and type(left) is str:
            self.guard_percent_format(left, right)

    def guard_percent_format(self, template: str, args) -> None:
        """'%*d' % (10**9, 1) takes its width from the arguments: check those as well as written ones."""
        args = args if type(args) is tuple else (args,)
        position = 0
        for width, precision, conversion in PERCENT_FIELD.findall(template):
            if conversion == "%":
                continue
            for number in (width, precision):
                if number == "*":
                    value = args[position] if position < len(args) else 0
                    position += 1
                    if isinstance(value, int):
                        self.check_length(abs(value))
                else:
                    self.check_length(int(number or 0))
            position += 1

    def guard_int_op(self, kind, left: int, right: int) -> None:
        if kind is ast.Pow:
            if right > 0 and abs(left) > 1:
                self.check_int(left.bit_length() * right)
        elif kind is ast.Mult:
            self.check_int(left.bit_length() + right.bit_length())
        elif right > 0:  # LShift
            self.check_int(left.bit_length() + right)

    def eval_UnaryOp(self, node, frame):
        return UNARY[type(node.op)](self.eval(node.operand, frame))

    def eval_BoolOp(self, node, frame):
        is_and = type(node.op) is ast.And
        value = None
        for operand in node.values:
            value = self.eval(operand, frame)
            if bool(value) is not is_and:  # `and` stops at the first falsy value, `or` at the first truthy one
                return value
        return value

    def eval_Compare(self, node, frame):
        left = self.eval(node.left, frame)
        last = len(node.ops) - 1
        for position, (op, right_node) in enumerate(zip(node.ops, node.comparators)):
            right = self.eval(right_node, frame)
            if type(op) in (ast.In, ast.NotIn):
                if self.is_lazy(right) and type(left) is not int:
                    right = self.metered(right)  # `x in zip(...)` scans in C
                elif isinstance(right, HASHING_CONTAINERS):
                    self.check_hashable(left)
            result = COMPARE[type(op)](left, right)
            if position == last or not result:  # a chain a < b < c stops at the first false link
                return result
            left = right

    def eval_IfExp(self, node, frame):
        return self.eval(node.body if self.eval(node.test, frame) else node.orelse, frame)

    def eval_Call(self, node, frame):
        func = self.eval(node.func, frame)
        args = self.eval_elements(node.args, frame)
        kwargs = {}
        for keyword in node.keywords:
            value = self.eval(keyword.value, frame)
            pairs = value.items() if keyword.arg is None else ((keyword.arg, value),)
            for name, item in pairs:
                if name in kwargs:
                    raise TypeError(f"got multiple values for keyword argument '{name}'")
                kwargs[name] = item
        if type(func) is UserFunction:
            return self.call_function(func, args, kwargs)
        if func is dict or isinstance(getattr(func, "__self__", None), dict):  # dict(pairs), d.get(key) ...
            args = self.hash_checked_arguments(func, args)
        if func is Tensor:
            raise Refused("the legacy constructor torch.Tensor(...); use torch.tensor(...)", self.line)
        if func is sum and isinstance(args[1] if len(args) > 1 else kwargs.get("start"), SEQUENCES):
            raise Refused("sum() of lists, tuples or strings (quadratic inside C, where no limit reaches)",
                          self.line)
        for index, arg in enumerate(args):
            if self.is_lazy(arg) and not self.is_lazy_aware(func):
                args[index] = self.metered(arg)
        for name, arg in kwargs.items():
            if self.is_lazy(arg) and not self.is_lazy_aware(func):
                kwargs[name] = self.metered(arg)
        return func(*args, **kwargs)

    def hash_checked_arguments(self, func, args: list) -> list:
        if func is dict and args and not isinstance(args[0], dict):
            pairs = list(self.metered(args[0])) if self.is_lazy(args[0]) else args[0]
            for pair in pairs:
                if isinstance(pair, (tuple, list)) and pair:
                    self.check_hashable(pair[0])
            return [pairs, *args[1:]]
        if func is not dict and args:
            self.check_hashable(args[0])
        return args

    def is_lazy_aware(self, func) -> bool:
        return func is self.builtins["print"] or func is program_str or any(func is aware for aware in api.LAZY_AWARE)

    def call_function(self, function: UserFunction, args, kwargs):
        if self.depth >= self.limits.max_call_depth:
            raise self.limit("functions nest too deeply", "max_call_depth")
        try:
            bound = function.signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{function.name}() {error}") from None
        bound.apply_defaults()
        frame = Frame(dict(bound.arguments), function.local_names, self.module)
        caller_line = self.line
        self.depth += 1
        self.methods.append((function.owner, args[0]) if function.owner is not None and args else None)
        try:
            signal = self.exec_block(function.node.body, frame)
        finally:
            self.depth -= 1
            self.methods.pop()
        self.line = caller_line  # an error after the call is the caller's
        return signal.value if type(signal) is Return else None

    # -- comprehensions -------------------------------------------------------------------------------
    def bindings(self, generators, frame: Frame, scope: Frame | None = None, index: int = 0):
        """Yield the comprehension's own scope once per combination of its `for` clauses that passes the `if`s."""
        scope = scope or Frame({}, None, frame)
        clause = generators[index]
        # Python evaluates the first iterable in the enclosing scope, the others inside the comprehension
        for item in self.eval(clause.iter, frame if index == 0 else scope):
            self.tick_iteration()
            self.assign(clause.target, item, scope)
            if all(self.eval(condition, scope) for condition in clause.ifs):
                if index + 1 == len(generators):
                    yield scope
                else:
                    yield from self.bindings(generators, frame, scope, index + 1)

    def eval_ListComp(self, node, frame):
        return [self.eval(node.elt, scope) for scope in self.bindings(node.generators, frame)]

    def eval_GeneratorExp(self, node, frame):
        return (self.eval(node.elt, scope) for scope in self.bindings(node.generators, frame))

    def eval_DictComp(self, node, frame):
        result = {}
        for scope in self.bindings(node.generators, frame):
            key = self.eval(node.key, scope)
            self.check_hashable(key)
            result[key] = self.eval(node.value, scope)
        return result

    # -- strings and printing -------------------------------------------------------------------------
    def eval_JoinedStr(self, node, frame):
        return "".join([self.eval(part, frame) for part in node.values])

    def eval_FormattedValue(self, node, frame):
        value = self.eval(node.value, frame)
        if node.conversion == ord("s"):
            value = program_str(value)
        elif node.conversion == ord("r"):
            value = program_repr(value)
        elif node.conversion == ord("a"):
            value = ascii(program_repr(value))
        spec = "" if node.format_spec is None else self.eval(node.format_spec, frame)
        self.check_width(spec)
        if not spec and not isinstance(value, (str, int, float, bool, Tensor)):
            return program_str(value)  # format(x, "") is str(x): the program's str, not gradcli's repr
        return format(value, spec)

    def format_string(self, template: str, *args, **kwargs) -> str:
        """str.format without attribute or item lookups in its fields ("{0.__class__}" reaches nothing)."""
        return _SafeFormatter(self).vformat(template, args, kwargs)

    def join_strings(self, separator: str, iterable) -> str:
        parts = list(self.metered(iterable))
        self.check_length(sum(len(p) for p in parts if isinstance(p, str)) + len(separator) * len(parts))
        return separator.join(parts)

    def extend_list(self, target: list, iterable) -> None:
        items = list(self.metered(iterable)) if self.is_lazy(iterable) else iterable
        self.check_length(len(target) + len(items))
        target.extend(items)

    def print(self, *values, sep=" ", end="\n", flush=False) -> None:
        for name, text in (("sep", sep), ("end", end)):
            if text is not None and not isinstance(text, str):
                raise TypeError(f"{name} must be None or a string, not {type(text).__name__}")
        text = (" " if sep is None else sep).join(program_str(v) for v in values)
        text += "\n" if end is None else end
        self.output_chars += len(text)
        if self.output_chars > self.limits.max_output_chars:
            raise self.limit("the program printed too much", "max_output_chars")
        try:
            self.stdout.write(text)
        except OSError as err:
            raise OutputFailed(err) from None
        self.unflushed = True

    print.__qualname__ = "print"  # so its TypeErrors read like the builtin's: "print() got an unexpected ..."


class _SafeFormatter(string.Formatter):
    def __init__(self, interpreter: Interpreter):
        self.interpreter = interpreter

    def get_field(self, field_name, args, kwargs):
        if not (field_name.isdigit() or field_name.isidentifier()) or field_name.startswith("_"):
            raise Refused(f"the str.format field {{{field_name}}} (only plain names and numbers)",
                          self.interpreter.line)
        return self.get_value(int(field_name) if field_name.isdigit() else field_name, args, kwargs), field_name

    def format_field(self, value, format_spec):
        self.interpreter.check_width(format_spec)
        return format(value, format_spec)


def _is_object(base: ast.expr, frame: Frame) -> bool:
    """`class A(object):`, the old spelling of a plain class (object itself is not among the builtins)."""
    if not (isinstance(base, ast.Name) and base.id == "object"):
        return False
    while frame is not None:
        if "object" in frame.vars:
            return False
        frame = frame.parent
    return True


def _local_names(node: ast.FunctionDef) -> frozenset:
    """The names a function assigns, which are local to it throughout its body (Python's scoping rule)."""
    names = {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)}
    for child in node.body:
        names.update(n.id for n in ast.walk(child) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return frozenset(names)


def _resident_bytes() -> int | None:
    return process_memory("resident")


# Visit methods are found by name: exec_For executes ast.For, eval_BinOp evaluates ast.BinOp.
_STATEMENTS = {getattr(ast, name[5:]): method for name, method in vars(Interpreter).items()
               if name.startswith("exec_") and name != "exec_block"}
_EXPRESSIONS = {getattr(ast, name[5:]): method for name, method in vars(Interpreter).items()
                if name.startswith("eval_") and name != "eval_elements"}

# The node types a program may contain: everything the interpreter has a visit method for, and `*x` in
# calls and displays, which eval_elements handles.
SUPPORTED_NODES = frozenset(_STATEMENTS) | frozenset(_EXPRESSIONS) | {ast.Starred}
