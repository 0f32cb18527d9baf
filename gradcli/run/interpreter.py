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
import random
import re
import string
import time
from collections.abc import Iterator
from functools import cached_property, partial
from itertools import islice
from types import GeneratorType

import numpy as np

from gradcli.engine import forward_ad, state
from gradcli.engine.autograd import Function, GradMode, GradModeContext, register_node_hook, torch_node_name
from gradcli.engine.custom_function import FunctionCtx
from gradcli.engine.errors import EngineError, LimitExceeded, TorchRuntimeError, Unsupported, from_numpy
from gradcli.engine.modules import Module as TorchModule
from gradcli.engine.tensor import INFERENCE_TENSOR_VERSION, Device, Tensor
from gradcli.run import (
    api,
    argument_parser,
    checker,
    classes,
    graph_view,
    interop,
    memory_files,
    metadata,
    numpy_api,
    reprs,
    saved_view,
    torch_surface,
)
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
    """A scope: its variables, the names assigned in it (a function's locals), the names it declares
    `global` or `nonlocal`, and the scope around it."""

    __slots__ = ("vars", "local_names", "parent", "declared", "function")

    def __init__(self, variables: dict, local_names: frozenset | None, parent: Frame | None,
                 declared: dict | None = None, function: UserFunction | None = None):
        self.vars = variables
        self.local_names = local_names
        self.parent = parent
        self.declared = declared  # name -> "global" | "nonlocal"
        self.function = function  # the call this frame is for (None for the module, classes, comprehensions)


class UserFunction:
    """A function (or lambda) the program defined, with the scope it was defined in.  Callable from C too
    (sorted's key=, map), always through the interpreter."""

    __slots__ = ("name", "node", "signature", "local_names", "interpreter", "owner", "closure", "declared",
                 "yielding")
    python_type_name = "function"

    def __init__(self, name, node, signature, scope, interpreter, owner=None, closure=None):
        self.name, self.node, self.signature = name, node, signature  # name: the qualified name, C.method
        self.local_names, self.declared, self.yielding = scope
        self.interpreter = interpreter
        self.owner = owner  # the program's class a method is defined in (for super()), else None
        self.closure = closure  # the frame the function was defined in: its free names are looked up there

    def __call__(self, *args, **kwargs):
        return self.interpreter.call_function(self, args, kwargs)

    def __repr__(self) -> str:
        return f"<function {self.name} at {id(self):#x}>"


class ProgramGenerator:
    """What calling a program's generator function gives: its body runs up to each `yield` as it is iterated,
    counted (statements, loop passes, call depth) as any other code of the program."""

    __slots__ = ("name", "steps", "interpreter", "method", "running", "grad_mode")
    python_type_name = "generator"

    def __init__(self, name: str, steps, interpreter, method):
        self.name, self.steps, self.interpreter, self.method = name, steps, interpreter, method
        self.running = False
        self.grad_mode = None  # under @torch.no_grad() and the like: the grad mode each step runs in

    def __iter__(self):
        return self

    def __next__(self):
        interpreter = self.interpreter
        if self.running:
            raise ValueError("generator already executing")
        if interpreter.depth >= interpreter.limits.max_call_depth:
            raise interpreter.limit("functions nest too deeply", "max_call_depth")
        caller_line = interpreter.line
        interpreter.depth += 1
        interpreter.methods.append(self.method)
        self.running = True
        previous_mode = GradMode.enabled
        if self.grad_mode is not None:
            GradMode.enabled = self.grad_mode
        try:
            value = next(self.steps)
        except StopIteration as stop:  # the generator returned: StopIteration carries what it returned
            interpreter.line = caller_line
            returned = stop.value.value if type(stop.value) is Return else None
            raise (StopIteration() if returned is None else StopIteration(returned)) from None
        finally:
            if self.grad_mode is not None:
                GradMode.enabled = previous_mode
            self.running = False
            interpreter.depth -= 1
            interpreter.methods.pop()
        interpreter.line = caller_line
        return value

    def __repr__(self) -> str:
        return f"<generator object {self.name} at {id(self):#x}>"


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
OPERATOR_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "** or pow()",
    ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
}
UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert, ast.Not: operator.not_}
COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: lambda a, b: _identity(a) is _identity(b),
    ast.IsNot: lambda a, b: _identity(a) is not _identity(b),
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
SEQUENCES = (str, list, tuple)


def _identity(value):
    """What `is` compares: the class a TypeRef stands for (`type(x) is torch.Tensor`, `type(a) is type(b)`)."""
    return value.cls if type(value) is api.TypeRef else value


# Types is_lazy can rule out at once (the program's own generators are metered where they are made).
EAGER_TYPES = frozenset({Tensor, float, int, bool, str, list, tuple, dict, type(None), GeneratorType,
                         ProgramGenerator, np.ndarray})
# What a program's `try` never catches: gradcli's own refusals and limits, and Python running out of stack or
# memory (the program is stopped, as gradcli stops it elsewhere).
UNCATCHABLE = (RunError, LimitExceeded, RecursionError, MemoryError, numpy_api.NumpyRefused,
               forward_ad.NoForwardFormula, Unsupported)
NUMPY_VALUES = (np.ndarray, np.generic)
# entered and left by gradcli, not the program
TORCH_MANAGERS = (GradModeContext, *torch_surface.CONTEXT_MANAGERS, memory_files.TemporaryDirectory)
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
        self.handling: list = []  # the exceptions being handled by `except` blocks, innermost last
        self.finished = False  # the run is over (a generator collected later must not touch the grad mode)
        self.pending = None  # what stopped a __del__ that the program may not swallow, raised at the next statement
        self.builtins = {**api.python_builtins(), "print": self.print, "type": api.type_of, "str": program_str,
                         "super": self.program_super, "isinstance": classes.is_instance, "repr": program_repr,
                         "issubclass": classes.is_subclass, "getattr": self.program_getattr,
                         "hasattr": self.program_hasattr, "setattr": self.program_setattr,
                         "delattr": self.program_delattr, "__name__": "__main__",
                         "pow": self.program_pow, "eval": self.program_eval}

        self.eval_builtin = self.builtins["eval"]  # the one bound method a program's `eval` names
        self.builtin_names = {id(value): name for name, value in self.builtins.items() if callable(value)}
        self.overrides = {(str, "format"): self.format_string, (str, "join"): self.join_strings,
                          (str, "replace"): self.replace_string,
                          **{(str, name): partial(self.pad_string, name) for name in ("center", "ljust", "rjust",
                                                                                    "zfill")},
                          (list, "extend"): self.extend_list}

    @cached_property
    def modules(self) -> dict:
        """The modules a program imports, made at its first import: this run's generators for Python's random
        module and numpy's legacy global one, seeded from the system as a new Python process seeds them,
        until the program seeds them."""
        return api.run_modules(random.Random(), np.random.RandomState(), self.limits, self.tick_iteration)

    # -- running --------------------------------------------------------------------------------------
    def run(self, tree: ast.Module) -> None:
        self.program_tree = tree  # the context eval() checks its strings in
        try:
            self.run_program(tree)
        finally:
            self.finished = True

    def finalize(self, obj, call) -> None:
        """Run a program object's __del__ (`call`) as CPython runs it: an exception it raises is printed and
        ignored; what gradcli stops (a limit, a refusal) is raised at the next statement instead.  Never once the
        run is over: the program's code runs only inside its limits."""
        if self.finished or self.pending is not None:
            return
        line = self.line
        try:
            call()
        except (Exception, LimitExceeded) as error:
            if isinstance(error, UNCATCHABLE):
                self.pending = error
            else:
                self.stdout.flush()
                name = f"{obj.program_class.name}.__del__"
                self.stderr.write(f"Exception ignored in: <function {name} at 0x…>\n"
                                  f"{_exception_name(type(error))}: {error}\n")
        except BaseException as error:  # the guard's deadline: the run ends at the next statement
            self.pending = error
        finally:
            self.line = line

    def finish_module(self) -> None:
        """What CPython does to __main__ at exit: its names set to None (those starting with one '_' first), so the
        __del__ of objects only they hold runs, inside the run's limits."""
        names = list(self.module.vars)
        for name in [n for n in names if n.startswith("_") and not n.startswith("__")] + \
                [n for n in names if not n.startswith("_")]:
            self.module.vars[name] = None
        if self.pending is not None:
            error, self.pending = self.pending, None
            raise error

    def run_program(self, tree: ast.Module) -> None:
        # the engine's warnings come to this run's show_warning through a context variable, and numpy's own
        # (which torch has no counterpart of) are off in numpy's context-local error state: nothing here
        # touches the process's warning filters or showwarning, which every thread shares
        token = state.WARNINGS.set(self.show_warning)
        with np.errstate(all="ignore"):
            try:
                self.exec_block(tree.body, self.module)
                self.finish_module()
            except RunError as error:
                if getattr(error, "line", 0) is None:  # raised below the interpreter (the budget, a text too
                    error.line = self.line              # long), or where no line is known: the statement's
                raise
            except (numpy_api.NumpyRefused, forward_ad.NoForwardFormula, Unsupported) as error:
                raise Refused(str(error), self.line) from None
            except LimitExceeded as error:
                raise LimitReached(f"{error} (max_tensor_elements)", self.line) from None
            except RecursionError:
                raise LimitReached("the program recursed too deeply for Python's stack", self.line) from None
            except MemoryError:
                raise self.limit("the program needed more memory than the limit", "max_memory_mb") from None
            except EngineError as error:
                raise ProgramFailed(error.torch_type, str(error), getattr(error, "gradcli_line", self.line)) from None
            except Exception as error:  # the program's own Python error, reported as Python would
                line = getattr(error, "gradcli_line", self.line)
                # or numpy's words for shapes that do not broadcast inside a torch op, as torch's
                torch_error = None if getattr(error, "gradcli_numpy", False) else from_numpy(error)
                if torch_error is not None:
                    raise ProgramFailed(torch_error.torch_type, str(torch_error), line) from None
                raise ProgramFailed(_exception_name(type(error)), str(error), line) from None
            finally:
                state.WARNINGS.reset(token)

    def show_warning(self, message, category, filename=None, lineno=None, file=None, line=None) -> None:
        """Print a UserWarning once per line and message, as Python's default filter does."""
        if not issubclass(category, (UserWarning, FutureWarning)):  # what Python's default filters show
            return  # numpy's RuntimeWarnings have no counterpart in torch
        key = (category, str(message), None if lineno == 0 else self.line)  # 0: a line of torch's own
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
            if self.pending is not None:  # a limit or refusal inside a __del__ (CPython would have swallowed it)
                error, self.pending = self.pending, None
                raise error
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

    def exec_AnnAssign(self, node, frame):
        """x: int = 5 binds x (the annotation is never evaluated, as under `from __future__ import annotations`);
        `x: int` alone binds nothing."""
        if node.value is not None:
            self.assign(node.target, self.eval(node.value, frame), frame)

    def exec_Assign(self, node, frame):
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.assign(target, value, frame)

    def exec_AugAssign(self, node, frame):
        target = node.target
        value = self.eval(node.value, frame)
        if isinstance(target, ast.Name):
            self.store(target.id, self.binary(node.op, self.load(target.id, frame), value, inplace=True), frame)
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
        decorators = [self.eval(d, frame) for d in node.decorator_list]  # evaluated before the function is made
        function = self.make_function(node, frame, self.qualified_name(node.name, frame), None, frame)
        self.store(node.name, self.decorate(function, decorators, node.name), frame)

    def qualified_name(self, name: str, frame: Frame) -> str:
        return name if frame is self.module else f"{_function_of(frame)}.<locals>.{name}"

    def decorate(self, function, decorators: list, name: str):
        """Apply decorators bottom-up, as Python does.  torch's grad modes wrap the function; anything else is
        called with it (the program's own decorators, torch.compile, functools.wraps(...))."""
        for decorator in reversed(decorators):
            wrapped = interop.grad_mode_decorator(decorator, function, getattr(function, "name", name))
            function = wrapped if wrapped is not None else self.call(decorator, [function], {})
        return function

    def call(self, func, args: list, kwargs: dict):
        if type(func) is UserFunction:
            return self.call_function(func, args, kwargs)
        if not callable(func):
            raise TypeError(f"'{type(func).__name__}' object is not callable")
        return func(*args, **kwargs)

    def make_function(self, node, frame, qualname: str, owner, closure: Frame) -> UserFunction:
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
        if args.vararg is not None:
            params.append(inspect.Parameter(args.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            params.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY,
                                            default=inspect.Parameter.empty if default is None
                                            else self.eval(default, frame)))
        if args.kwarg is not None:
            params.append(inspect.Parameter(args.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
        return UserFunction(qualname, node, inspect.Signature(params), _function_scope(node), self, owner, closure)

    def eval_Lambda(self, node, frame):
        return self.make_function(node, frame, self.qualified_name("<lambda>", frame), None, frame)

    def exec_ClassDef(self, node, frame):
        """A class statement: its methods (plain, @staticmethod, @classmethod), attributes and docstring."""
        bases = [None if _is_object(base, frame) else self.eval(base, frame) for base in node.bases]
        base = bases[0] if bases else None
        if base is not None and not isinstance(base, classes.ProgramClass) and base not in classes.ALLOWED_BASES:
            raise Refused(f"a class deriving from {ast.unparse(node.bases[0])} (derive from torch.nn.Module, "
                          "torch.autograd.Function or a class of the program, and keep the other as an attribute)",
                          node.lineno)
        cls = classes.ProgramClass(node.name, base, self)
        cls.doc = ast.get_docstring(node, clean=False)
        scope = Frame({}, None, frame)  # the class body's own namespace: later attributes may use earlier ones
        for stmt in node.body:
            self.line = stmt.lineno
            if isinstance(stmt, ast.FunctionDef):
                cls.members[stmt.name] = scope.vars[stmt.name] = self.make_method(stmt, node.name, cls, scope, frame)
            elif isinstance(stmt, ast.Assign):
                value = self.eval(stmt.value, scope)
                for target in stmt.targets:
                    self.assign(target, value, scope)
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                self.assign(stmt.target, self.eval(stmt.value, scope), scope)
        for name, value in scope.vars.items():  # a function assigned in the body (act = lambda self: ...) is a method
            cls.members.setdefault(name, ("function", value) if type(value) is UserFunction else value)
        if node.decorator_list:  # @dataclass (the only class decorator the check lets through)
            if self.eval(node.decorator_list[0], frame) is not classes.DATACLASS:
                raise Refused("class decorators other than dataclasses.dataclass (write the class's __init__ "
                              "yourself)", node.lineno)
            fields = [(stmt.target.id, scope.vars.get(stmt.target.id, classes.MISSING_FIELD))
                      for stmt in node.body if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)]
            classes.make_dataclass(cls, fields)
        frame.vars[node.name] = cls

    def make_method(self, node, class_name: str, cls, scope: Frame, frame: Frame):
        """A class member from a def: ("function" | "static" | "class", callable) or a Property.  The method's
        free names are looked up around the class, not in its body (Python's rule)."""
        decorators = node.decorator_list
        builtin = decorators[0].id if decorators and isinstance(decorators[0], ast.Name) \
            and decorators[0].id in ("staticmethod", "classmethod", "property") else None
        if builtin is not None:
            decorators = decorators[1:]
        setter = decorators and isinstance(decorators[0], ast.Attribute) and decorators[0].attr == "setter"
        values = [self.eval(d, scope) for d in decorators]
        function = self.make_function(node, scope, f"{class_name}.{node.name}", cls, frame)
        if setter:  # @x.setter: the property x defined above, with this setter
            return self.call(values[0], [function], {})
        function = self.decorate(function, values, node.name)
        if builtin == "property":
            return classes.Property(function, None, node.name)
        if builtin is None and type(function) not in (UserFunction, interop.GradModeFunction):
            return function  # a decorator that made something else of it: a plain class attribute, as in Python
        return ({"staticmethod": "static", "classmethod": "class"}.get(builtin, "function"), function)

    def program_super(self, *args):
        """super(), and super(C, obj) with C one of the program's classes."""
        if args:
            if len(args) != 2 or not isinstance(args[0], classes.ProgramClass):
                raise Refused("super() with arguments other than (a class of the program, an object) (write super() "
                              "without arguments)", self.line)
            cls, receiver = args
            if not classes.is_instance(receiver, cls):
                raise TypeError("super(type, obj): obj must be an instance or subtype of type")
            return classes.Super(cls, receiver)
        if not self.methods or self.methods[-1] is None:
            raise RuntimeError("super(): no arguments")
        return classes.Super(*self.methods[-1])

    def exec_With(self, node, frame):
        entered = self.enter_managers(node, frame)
        try:
            signal = self.exec_block(node.body, frame)
        except UNCATCHABLE:
            self.exit_managers(entered, None, program_code=False)
            raise
        except Exception as raised:
            error = self.program_error(raised)
            if self.exit_managers(entered, error):
                return None  # a manager's __exit__ returned true: the exception is suppressed
            raise error from None
        self.exit_managers(entered, None)
        return signal

    def exit_managers(self, entered: list, error, program_code: bool = True) -> bool:
        """Leave the managers innermost first; True if one of the program's __exit__ methods suppressed `error`.
        After gradcli stopped the program (program_code=False) only torch's grad modes are restored."""
        suppressed = False
        for manager in reversed(entered):
            if isinstance(manager, TORCH_MANAGERS):
                manager.__exit__(None, None, None)
            elif program_code:
                if error is not None and not suppressed:
                    # (type, value, traceback): the traceback is never the program's to see
                    suppressed = bool(self.call(manager, [type(error), error, None], {}))
                    error = None if suppressed else error
                else:
                    self.call(manager, [None, None, None], {})
        return suppressed

    def enter_managers(self, node, frame) -> list:
        entered = []
        try:
            for item in node.items:
                manager = self.eval(item.context_expr, frame)
                if isinstance(manager, Device):  # the default device of torch's factory functions inside it
                    if manager.type not in ("cpu", "cuda", "meta"):
                        raise Refused(f"torch.device('{manager}') as a context manager (gradcli computes on the CPU "
                                      "and the meta device only, as a torch built without CUDA: use "
                                      "torch.device('cpu') or torch.device('meta'), or no device at all)", self.line)
                    manager = torch_surface.DeviceMode(manager)
                if isinstance(manager, torch_surface.DeviceMode):
                    value = manager.__enter__()  # `as d` binds the device itself
                    entered.append(manager)
                elif isinstance(manager, TORCH_MANAGERS):  # no_grad(), enable_grad(), the profiler, detect_anomaly()
                    value = manager.__enter__()
                    entered.append(manager)
                    value = value if isinstance(manager, (torch_surface.profile, memory_files.TemporaryDirectory)) \
                        else None
                else:
                    enter, leave = self.context_methods(manager)
                    value = self.call(enter, [], {})
                    entered.append(leave)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, value, frame)
        except UNCATCHABLE:
            self.exit_managers(entered, None, program_code=False)
            raise
        except BaseException:
            self.exit_managers(entered, None)
            raise
        return entered

    def context_methods(self, manager):
        """__enter__ and __exit__ of an object of the program's classes, bound to it."""
        cls = classes.class_of(manager)
        found = (cls.lookup("__enter__"), cls.lookup("__exit__")) if cls is not None else (None, None)
        if found[0] is None or found[1] is None:
            kind = cls.name if cls is not None else type(manager).__name__
            missing = "__exit__" if found[0] is not None else "__enter__"
            raise TypeError(f"'{kind}' object does not support the context manager protocol (missed {missing} "
                            "method)" if cls is not None else
                            f"'{kind}' object does not support the context manager protocol")
        return classes.bind(manager, *found[0]), classes.bind(manager, *found[1])

    # -- exceptions -----------------------------------------------------------------------------------------
    def exec_Try(self, node, frame):
        try:
            signal = self.try_handlers(node, frame)
        except UNCATCHABLE:
            raise  # gradcli stops the program: no handler and no finally block of the program runs
        except Exception:
            if node.finalbody:
                final = self.exec_block(node.finalbody, frame)
                if final is not None:
                    return final  # return/break/continue in finally drops the exception, as in Python
            raise
        if node.finalbody:
            final = self.exec_block(node.finalbody, frame)
            if final is not None:
                return final
        return signal

    def try_handlers(self, node, frame):
        try:
            signal = self.exec_block(node.body, frame)
        except UNCATCHABLE:
            raise
        except Exception as raised:
            error = self.program_error(raised)
            handler = self.matching_handler(node, error, frame)
            if handler is None:
                raise error from None
            return self.run_handler(handler, error, frame)
        if signal is None and node.orelse:
            return self.exec_block(node.orelse, frame)
        return signal

    def program_error(self, raised: Exception) -> Exception:
        """The exception as the program sees it: numpy's shape errors inside torch ops in torch's words, and
        the line it was raised at kept for the report if it is raised again."""
        error = raised
        if not getattr(raised, "gradcli_numpy", False) and not isinstance(raised, EngineError):
            error = from_numpy(raised) or raised
        if getattr(error, "gradcli_line", None) is None:
            try:
                error.gradcli_line = self.line
            except AttributeError:
                pass
        return error

    def matching_handler(self, node, error, frame):
        for handler in node.handlers:
            if handler.type is None:
                return handler
            self.line = handler.lineno
            spec = self.eval(handler.type, frame)
            for cls in spec if isinstance(spec, tuple) else (spec,):
                if not (isinstance(cls, type) and issubclass(cls, BaseException)):
                    raise TypeError("catching classes that do not inherit from BaseException is not allowed")
            if isinstance(error, spec):
                return handler
        return None

    def run_handler(self, handler, error, frame):
        if handler.name is not None:
            self.store(handler.name, error, frame)
        self.handling.append(error)
        try:
            return self.exec_block(handler.body, frame)
        finally:
            self.handling.pop()
            if handler.name is not None:  # Python unbinds the name at the end of the handler
                self.scope_of(handler.name, frame).vars.pop(handler.name, None)

    def exec_Raise(self, node, frame):
        if node.exc is None:
            if not self.handling:
                raise RuntimeError("No active exception to reraise")
            raise self.handling[-1]
        error = self.eval(node.exc, frame)
        if node.cause is not None:
            cause = self.eval(node.cause, frame)
            if cause is not None and not isinstance(cause, BaseException) \
                    and not (isinstance(cause, type) and issubclass(cause, BaseException)):
                raise TypeError("exception causes must derive from BaseException")
        if isinstance(error, type) and issubclass(error, BaseException):
            error = error()
        if not isinstance(error, BaseException):
            raise TypeError("exceptions must derive from BaseException")
        if isinstance(error, UNCATCHABLE):  # never reachable by a program; kept out all the same
            raise Refused("raising gradcli's own errors (raise RuntimeError, ValueError ... with your message)",
                          self.line)
        if getattr(error, "gradcli_line", None) is None:  # raised before: Python reports where it was first raised
            try:
                error.gradcli_line = self.line
            except AttributeError:
                pass
        raise error

    def exec_Global(self, node, frame):
        return None  # the declaration takes effect when the function is made (_function_scope)

    def exec_Nonlocal(self, node, frame):
        return None

    def exec_Assert(self, node, frame):
        if not self.eval(node.test, frame):
            raise AssertionError(*(() if node.msg is None else (self.eval(node.msg, frame),)))

    def exec_Import(self, node, frame):
        modules = self.modules
        for alias in node.names:
            if alias.asname:
                self.store(alias.asname, modules[alias.name], frame)
            else:
                top = alias.name.split(".")[0]
                self.store(top, modules[top], frame)

    def exec_ImportFrom(self, node, frame):
        if node.module == "__future__":
            return  # every feature is already Python 3's behaviour
        module = self.modules[node.module]
        for alias in node.names:
            self.store(alias.asname or alias.name, module.members[alias.name], frame)

    # -- names, attributes, items ---------------------------------------------------------------------
    def load(self, name: str, frame: Frame):
        scope = frame
        if frame.declared and frame.declared.get(name) == "global":
            scope = self.module
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

    def store(self, name: str, value, frame: Frame) -> None:
        if frame.declared and name in frame.declared:
            frame = self.scope_of(name, frame)
        frame.vars[name] = value

    def scope_of(self, name: str, frame: Frame) -> Frame:
        """The frame a name assigned in `frame` lives in: the module's for `global`, the nearest enclosing
        function's that has it for `nonlocal`."""
        declared = frame.declared.get(name) if frame.declared else None
        if declared is None:
            return frame
        if declared == "global":
            return self.module
        scope = frame.parent
        while scope is not None:
            if scope.local_names is not None and name in scope.local_names:
                return self.scope_of(name, scope)
            if scope.declared and scope.declared.get(name) == "nonlocal":
                return self.scope_of(name, scope)
            scope = scope.parent
        raise ProgramFailed("SyntaxError", f"no binding for nonlocal '{name}' found", self.line)

    def assign(self, target, value, frame: Frame) -> None:
        kind = type(target)
        if kind is ast.Name:
            self.store(target.id, value, frame)
        elif (kind is ast.Tuple or kind is ast.List) and any(type(e) is ast.Starred for e in target.elts):
            self.assign_starred(target.elts, value, frame)
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

    def assign_starred(self, elements: list, value, frame: Frame) -> None:
        """first, *rest = value: the starred name takes a list of what the others leave (drained under the
        iteration limit, as any loop)."""
        star = next(i for i, e in enumerate(elements) if type(e) is ast.Starred)
        items = list(self.metered(value)) if self.is_lazy(value) else list(value)
        self.check_length(len(items))
        after = len(elements) - star - 1
        if len(items) < len(elements) - 1:
            raise ValueError(f"not enough values to unpack (expected at least {len(elements) - 1}, got {len(items)})")
        for element, item in zip(elements[:star], items):
            self.assign(element, item, frame)
        self.assign(elements[star].value, items[star:len(items) - after], frame)
        for element, item in zip(elements[star + 1:], items[len(items) - after:]):
            self.assign(element, item, frame)

    def exec_Delete(self, node, frame):
        for target in node.targets:
            self.delete(target, frame)

    def delete(self, target, frame: Frame) -> None:
        """del name, del seq[i], del d[key], del obj.attr (the program's own objects), del a, b."""
        kind = type(target)
        if kind is ast.Name:
            scope = self.scope_of(target.id, frame) if frame.declared and target.id in frame.declared else frame
            if target.id not in scope.vars:
                raise NameError(f"name '{target.id}' is not defined")
            del scope.vars[target.id]
        elif kind is ast.Tuple or kind is ast.List:
            for element in target.elts:
                self.delete(element, frame)
        elif kind is ast.Subscript:
            obj, key = self.eval(target.value, frame), self.eval(target.slice, frame)
            if not isinstance(obj, (list, dict)):
                kind_name = getattr(type(obj), "python_type_name", reprs.class_name(type(obj)).rsplit(".", 1)[-1])
                raise TypeError(f"'{kind_name}' object doesn't support item deletion")
            del obj[key]
        else:  # ast.Attribute
            self.delete_attribute(self.eval(target.value, frame), target.attr)

    def delete_attribute(self, obj, name: str) -> None:
        """del obj.name on the program's own objects, a torch module (a parameter, buffer, sub-module or plain
        attribute, as Module.__delattr__) and an autograd.Function's ctx."""
        if isinstance(obj, classes.ProgramObject):
            if name not in obj.attributes:
                raise AttributeError(f"'{obj.program_class.name}' object has no attribute '{name}'")
            del obj.attributes[name]
        elif isinstance(obj, FunctionCtx) and name not in FunctionCtx.METHODS:
            if name not in obj.attributes:
                raise AttributeError(f"'{obj.function_name}' object has no attribute '{name}'")
            del obj.attributes[name]
        elif isinstance(obj, TorchModule) and not name.startswith("_"):
            if name not in obj.own_attributes():
                raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")
            obj.__delattr__(name)
        else:
            raise Refused(f"del of the attribute .{name} of a {type(obj).__name__} (assign it None instead)",
                          self.line)

    def checked_name(self, name) -> str:
        """The name given to setattr/delattr as a value: a string, and no dunder."""
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        if name.startswith("__"):
            raise Refused(f"the attribute name {name!r} ({checker.DUNDER_ADVICE})", self.line)
        return name

    def program_setattr(self, obj, name, value) -> None:
        self.set_attribute(obj, self.checked_name(name), value)

    def program_delattr(self, obj, name) -> None:
        self.delete_attribute(obj, self.checked_name(name))

    def repr_of(self, value) -> str:
        return program_repr(value)

    def pad_string(self, method: str, text: str, width, *fill):
        """str.center/ljust/rjust/zfill, their width bounded as any string's length."""
        if isinstance(width, int):
            self.check_length(width)
        return getattr(text, method)(width, *fill)

    def replace_string(self, text: str, old, new, count=-1):
        """str.replace, its result's length bounded before it is built."""
        if isinstance(old, str) and isinstance(new, str) and isinstance(count, int):
            found = text.count(old) if old else len(text) + 1
            if count >= 0:
                found = min(found, count)
            self.check_length(len(text) + found * max(len(new) - len(old), 0))
        return text.replace(old, new, count)

    def program_pow(self, base, exp, mod=None):
        """pow(): with a modulus Python's (bounded by it), else what `base ** exp` is, under the same limits."""
        if mod is not None:
            return pow(base, exp, mod)
        return self.binary(ast.Pow(), base, exp)

    def program_eval(self, source=None, *scopes, frame=None, **kwargs):
        """eval(string): the string parsed as one expression by Python's ast (never compiled or run by Python),
        checked as the program was, and evaluated by this interpreter under the run's limits, in the calling
        function's scope (the program's globals when eval is called indirectly)."""
        if scopes or kwargs:
            raise Refused("eval() with globals or locals (pass the string alone: it is evaluated where eval is "
                          "called)", self.line)
        if not isinstance(source, str):
            if source is None:
                raise TypeError("eval expected at least 1 argument, got 0")
            raise TypeError("eval() arg 1 must be a string, bytes or code object")
        if len(source) > self.limits.max_source_chars:
            raise self.limit(f"eval() of a string of {len(source)} characters", "max_source_chars")
        try:
            tree = ast.parse(source.lstrip(" \t"), "<string>", mode="eval")
        except SyntaxError as error:
            raise SyntaxError(error.msg, ("<string>", error.lineno, error.offset, error.text)) from None
        except (RecursionError, MemoryError):
            raise self.limit("the string given to eval() nests too deeply to parse", "max_nesting") from None
        try:
            checker.check_expression(self.program_tree, tree.body, SUPPORTED_NODES, self.limits.max_nesting)
        except Refused as refused:
            raise Refused(f"{refused.what}, in the string given to eval()", self.line) from None
        except LimitReached as limit:
            raise LimitReached(limit.what, self.line) from None
        if self.depth >= self.limits.max_call_depth:  # eval inside eval: one level of nesting, as a call is
            raise self.limit("functions nest too deeply", "max_call_depth")
        self.depth += 1
        try:
            return self.eval(tree.body, frame if frame is not None else self.module)
        finally:
            self.depth -= 1

    def program_getattr(self, obj, name, *default):
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        if len(default) > 1:
            raise TypeError(f"getattr expected at most 3 arguments, got {2 + len(default)}")
        try:
            return self.get_attribute(obj, name)
        except AttributeError:
            if default:
                return default[0]
            raise

    def program_hasattr(self, obj, name) -> bool:
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        try:
            self.get_attribute(obj, name)
        except AttributeError:
            return False
        return True

    def get_attribute(self, obj, name: str):
        if name in metadata.READABLE:
            return metadata.read(obj, name, self.line, self.builtin_names)
        if classes.handles(obj):
            return classes.get_attribute(obj, name)
        if saved_view.handles(obj, name):
            return saved_view.read(obj, name, self.line)
        if name.startswith("_") and not (isinstance(obj, Tensor) and name in api.PRIVATE_TENSOR_ATTRIBUTES):
            if name.startswith("__"):
                raise Refused(f"the attribute .{name} ({checker.DUNDER_ADVICE})", self.line)
            if type(obj) in (UserFunction, ProgramGenerator) or not hasattr(obj, name):
                kind = getattr(type(obj), "python_type_name", type(obj).__name__)
                raise AttributeError(f"'{kind}' object has no attribute '{name}'")
            raise classes.private_refused(obj, name)
        if numpy_api.handles(obj):
            return numpy_api.get_attribute(obj, name)
        if type(obj) is api.Module:
            try:
                return obj.members[name]
            except KeyError:
                raise AttributeError(f"module '{obj.name}' has no attribute '{name}'") from None
        if isinstance(obj, tuple) and type(obj) in api.NAMEDTUPLES and name in type(obj)._fields:
            return getattr(obj, name)  # a namedtuple's field
        if name not in api.readable_attributes(obj):
            if isinstance(obj, Tensor) and name in checker.TENSOR_METHOD_HINTS:  # x.index, x.name: torch has them
                raise Refused(f"the tensor method .{name} ({checker.TENSOR_METHOD_HINTS[name]})", self.line)
            kind = getattr(type(obj), "python_type_name", type(obj).__name__)  # 'function', not 'UserFunction'
            raise AttributeError(f"'{kind}' object has no attribute '{name}'")
        override = self.overrides.get((type(obj), name))
        if override is not None:
            return partial(override, obj)
        if isinstance(obj, Function):
            if name == "next_functions":
                return graph_view.next_functions(obj)
            if name == "register_hook":  # Node.register_hook: hook(grad_inputs, grad_outputs) after the node runs
                return partial(register_node_hook, obj)
            return partial(torch_node_name, obj)  # torch's grad_fn.name(), a method there
        if isinstance(obj, graph_view.AccumulateGrad):
            return obj.variable if name == "variable" else obj.name if name == "name" else ()
        if name == "_version":  # torch's version counter as the int torch gives (gradcli shares a list)
            if isinstance(obj, Tensor) and obj.is_inference():
                raise TorchRuntimeError(INFERENCE_TENSOR_VERSION)
            return obj._version[0]
        if name == "grad_fn" and obj.grad_fn is not None:
            bool(obj.grad_fn)  # torch's grad_fn(): a view's regenerated history is used (or refused) as it is read
        if isinstance(obj, Tensor):  # through torch's argument parser, where Tensor.NAME has one
            method = argument_parser.checked_method(obj, name)
            if method is not None:
                return method
        return getattr(obj, name)

    def set_attribute(self, obj, name: str, value) -> None:
        if classes.handles(obj):
            if self.is_lazy(value):
                value = list(self.metered(value))
            return classes.set_attribute(obj, name, value)
        if name.startswith("_"):
            raise Refused(f"assigning .{name} on a {type(obj).__name__} (names starting with '_' only on the "
                          "program's own objects; keep the value in a variable of the program)", self.line)
        if isinstance(obj, api.Module) and obj.writable:  # torch.pi = ...: the run's own torch
            obj.members[name] = value
            return None
        if isinstance(obj, api.Module):  # math.pi = 4, torch.nn.X = ...: shared by every run, fixed
            raise Refused(f"assigning to {obj.name}.{name} (only torch's own members may be rebound: bind a name "
                          "of the program's own)", self.line)
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
        elif type(obj) is np.ndarray:
            numpy_api.check_elements(numpy_api.index_elements(obj, key))
            return self.numpy_op(operator.getitem, obj, key)
        return obj[key]

    def numpy_op(self, op, left, right):
        """An operator numpy computes (neither operand a tensor): numpy's own errors, numeric results only."""
        try:
            result = op(left, right)
        except Exception as error:
            error.gradcli_numpy = True
            raise
        return numpy_api.check_result(result)

    def tensor_with_array(self, op, kind, tensor: Tensor, array: np.ndarray) -> Tensor:
        """`tensor <op> ndarray`: torch hands both to numpy (Tensor.__array__, so torch's error for a tensor that
        requires grad) and wraps numpy's result as a tensor: numpy's type promotion, no history."""
        left = tensor.numpy()
        self.guard_numpy_operands(kind, left, array)
        return Tensor._make(np.asarray(self.numpy_op(op, left, array)), None)

    def guard_numpy_operands(self, kind, left, right):
        """The elements numpy would allocate for `left <op> right`, checked before it does."""
        if kind is ast.MatMult:
            numpy_api.check_elements(numpy_api.rule_matmul((left, right), {}))
        else:
            numpy_api.check_elements(numpy_api.operand_elements(left, right))

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
        if isinstance(left, Tensor) and type(right) is np.ndarray and not inplace:
            return self.tensor_with_array(BINARY[kind], kind, left, right)
        if type(left) is np.ndarray and isinstance(right, Tensor):
            # numpy defers to the tensor, whose reflected operators take no arrays: Python's TypeError
            if kind is ast.Add:
                raise TypeError("Concatenation operation is not implemented for NumPy arrays, use np.concatenate() "
                                "instead. Please do not rely on this error; it may not be given on all Python "
                                "implementations.")
            raise TypeError(f"unsupported operand type(s) for {OPERATOR_SYMBOLS[kind]}{'=' if inplace else ''}: "
                            "'numpy.ndarray' and 'Tensor'")
        if (isinstance(left, NUMPY_VALUES) or isinstance(right, NUMPY_VALUES)) and not isinstance(left, Tensor) \
                and not isinstance(right, Tensor) and not isinstance(left, SEQUENCES[:1]) \
                and not isinstance(right, SEQUENCES[:1]):
            if isinstance(left, np.ndarray) or isinstance(right, np.ndarray):
                self.guard_numpy_operands(kind, left, right)
                return self.numpy_op((INPLACE if inplace else BINARY)[kind], left, right)
            if isinstance(left, SEQUENCES) or isinstance(right, SEQUENCES):  # a list * np.int64(n) repeats it
                self.guard_sequence_op(kind, left, right)
            return self.numpy_op((INPLACE if inplace else BINARY)[kind], left, right)
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
            if isinstance(count, (int, np.integer)):
                self.check_length(len(sequence) * int(count))
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
        *first, last = node.values
        for operand in first:
            value = self.eval(operand, frame)
            if bool(value) is not is_and:  # `and` stops at the first falsy value, `or` at the first truthy one
                return value
        return self.eval(last, frame)  # the last operand's truth is never asked (`None or tensor([1., 2.])`)

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
            if isinstance(left, Tensor) and type(right) is np.ndarray and type(op) not in (ast.In, ast.NotIn, ast.Is,
                                                                                       ast.IsNot):
                result = self.tensor_with_array(COMPARE[type(op)], type(op), left, right)
                if position == last or not result:
                    return result
                left = right
                continue
            if isinstance(left, np.ndarray) or isinstance(right, np.ndarray):
                if not isinstance(left, Tensor) and not isinstance(right, Tensor):
                    self.guard_numpy_operands(type(op), left, right)
                    result = self.numpy_op(COMPARE[type(op)], left, right)
                    if position == last:
                        return result
                    if not result:
                        return result
                    left = right
                    continue
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
        if func is self.eval_builtin:  # in the caller's scope, as Python's eval
            return self.program_eval(*args, frame=frame, **kwargs)
        if isinstance(func, type) and issubclass(func, np.generic):  # np.float32(x): x may be a list
            return numpy_api.construct_scalar(func, args, kwargs)
        if func is dict or isinstance(getattr(func, "__self__", None), dict):  # dict(pairs), d.get(key) ...
            args = self.hash_checked_arguments(func, args)
        if func is Tensor:  # the legacy constructor: torch.Tensor([1, 2]), torch.Tensor(2, 3)
            func = torch_surface.TENSOR_CONSTRUCTOR
        if func is sum and isinstance(args[1] if len(args) > 1 else kwargs.get("start"), SEQUENCES):
            raise Refused("sum() of lists, tuples or strings (quadratic inside C, where no limit reaches: use "
                          "list.extend or ''.join)",
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
            if not isinstance(pairs, (list, tuple)):  # a one-shot iterator (named_parameters()): read it once
                pairs = list(pairs)
            for pair in pairs:
                if isinstance(pair, (tuple, list)) and pair:
                    self.check_hashable(pair[0])
            return [pairs, *args[1:]]
        if func is not dict and args:
            self.check_hashable(args[0])
        return args

    def is_lazy_aware(self, func) -> bool:
        return func is self.builtins["print"] or func is program_str or any(func is aware for aware in api.LAZY_AWARE) \
            or isinstance(getattr(func, "__self__", None), random.Random) or getattr(func, "lazy_aware", False)

    def call_function(self, function: UserFunction, args, kwargs):
        if self.depth >= self.limits.max_call_depth:
            raise self.limit("functions nest too deeply", "max_call_depth")
        try:
            bound = function.signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{function.name}() {error}") from None
        bound.apply_defaults()
        frame = Frame(dict(bound.arguments), function.local_names, function.closure or self.module,
                      function.declared, function)
        method = (function.owner, args[0]) if function.owner is not None and args else None
        if function.yielding:  # a generator function: its body runs as the generator is iterated
            return ProgramGenerator(function.name, self.gen_block(function.node.body, frame), self, method)
        caller_line = self.line
        self.depth += 1
        self.methods.append(method)
        try:
            if type(function.node) is ast.Lambda:
                value = self.eval(function.node.body, frame)
            else:
                signal = self.exec_block(function.node.body, frame)
                value = signal.value if type(signal) is Return else None
        finally:
            self.depth -= 1
            self.methods.pop()
        self.line = caller_line  # an error after the call is the caller's
        return value

    # -- generators: the statements around a `yield`, run as Python generators ---------------------------------
    def gen_block(self, body: list, frame: Frame):
        yielding = frame.function.yielding
        limits = self.limits
        for stmt in body:
            self.line = stmt.lineno
            self.statements += 1
            if self.statements > limits.max_statements:
                raise self.limit("too many statements executed", "max_statements")
            if time.monotonic() >= self.next_clock_check:
                self.check_clock()
            if id(stmt) in yielding:
                signal = yield from _GENERATOR_STATEMENTS[type(stmt)](self, stmt, frame)
            else:
                signal = _STATEMENTS[type(stmt)](self, stmt, frame)
            if signal is not None:
                return signal
        return None

    def gen_Expr(self, node, frame):
        yield from self.gen_yield(node.value, frame)

    def gen_yield(self, node, frame):
        if type(node) is ast.YieldFrom:
            for item in self.eval(node.value, frame):
                self.tick_iteration()
                yield item
            return None
        yield None if node.value is None else self.eval(node.value, frame)
        return None  # gradcli's generators are iterated, never sent values: `x = yield` gives None

    def gen_Assign(self, node, frame):
        value = yield from self.gen_yield(node.value, frame)
        for target in node.targets:
            self.assign(target, value, frame)

    def gen_If(self, node, frame):
        body = node.body if self.eval(node.test, frame) else node.orelse
        return (yield from self.gen_block(body, frame))

    def gen_For(self, node, frame):
        for item in self.eval(node.iter, frame):
            self.line = node.lineno
            self.tick_iteration()
            self.assign(node.target, item, frame)
            signal = yield from self.gen_block(node.body, frame)
            if signal is BREAK:
                return None
            if signal is not None and signal is not CONTINUE:
                return signal
        return (yield from self.gen_block(node.orelse, frame))

    def gen_While(self, node, frame):
        while self.eval(node.test, frame):
            self.tick_iteration()
            signal = yield from self.gen_block(node.body, frame)
            if signal is BREAK:
                return None
            if signal is not None and signal is not CONTINUE:
                return signal
            self.line = node.lineno
        return (yield from self.gen_block(node.orelse, frame))

    def gen_With(self, node, frame):
        entered = self.enter_managers(node, frame)
        try:
            return (yield from self.gen_block(node.body, frame))
        except GeneratorExit:
            if self.finished:  # collected after the run: the process's grad mode is no longer the program's
                entered = []
            raise
        finally:
            for manager in reversed(entered):
                manager.__exit__(None, None, None)

    def gen_Try(self, node, frame):
        try:
            signal = yield from self.gen_try_handlers(node, frame)
        except UNCATCHABLE:
            raise
        except Exception:
            if node.finalbody:
                final = yield from self.gen_block(node.finalbody, frame)
                if final is not None:
                    return final
            raise
        if node.finalbody:
            final = yield from self.gen_block(node.finalbody, frame)
            if final is not None:
                return final
        return signal

    def gen_try_handlers(self, node, frame):
        try:
            signal = yield from self.gen_block(node.body, frame)
        except UNCATCHABLE:
            raise
        except Exception as raised:
            error = self.program_error(raised)
            handler = self.matching_handler(node, error, frame)
            if handler is None:
                raise error from None
            if handler.name is not None:
                self.store(handler.name, error, frame)
            self.handling.append(error)
            try:
                return (yield from self.gen_block(handler.body, frame))
            finally:
                self.handling.remove(error)
                if handler.name is not None:
                    self.scope_of(handler.name, frame).vars.pop(handler.name, None)
        if signal is None and node.orelse:
            return (yield from self.gen_block(node.orelse, frame))
        return signal

    def eval_Yield(self, node, frame):  # pragma: no cover - the check allows yields only where gen_* runs them
        raise Refused("yield inside an expression (write it as a statement: `yield x`, `y = yield x`)",
                      self.line)

    eval_YieldFrom = eval_Yield

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
            raise Refused(f"the str.format field {{{field_name}}} (only plain names and numbers: compute the value "
                          "first and pass it, '{}'.format(x[0]))",
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


_SCOPES: dict[int, tuple] = {}  # id(function node) -> its scope, computed once per definition site


def _function_scope(node) -> tuple:
    """(local names, {name: "global" | "nonlocal"}, ids of the statements that contain a yield) of a def or
    lambda: the names it binds anywhere in its own body are local to it throughout (Python's scoping rule),
    but for those it declares global or nonlocal; nested functions, lambdas, classes and comprehensions are
    scopes of their own."""
    known = _SCOPES.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    names = {arg.arg for arg in ast.walk(node.args) if isinstance(arg, ast.arg)}
    declared: dict = {}
    yielding: set = set()

    def visit(child, statements: tuple) -> None:
        if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
            names.add(child.name)
            for part in (*child.decorator_list, *getattr(child.args, "defaults", ()),
                         *[d for d in getattr(child.args, "kw_defaults", ()) if d is not None],
                         *getattr(child, "bases", ())):
                visit(part, statements)
            return
        if isinstance(child, ast.Lambda):
            for part in (*child.args.defaults, *[d for d in child.args.kw_defaults if d is not None]):
                visit(part, statements)
            return
        if isinstance(child, (ast.ListComp, ast.DictComp, ast.GeneratorExp, ast.SetComp)):
            visit(child.generators[0].iter, statements)  # evaluated in the enclosing scope; the rest is its own
            return
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            names.add(child.id)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in child.names)
        elif isinstance(child, ast.ExceptHandler) and child.name:
            names.add(child.name)
        elif isinstance(child, ast.Global):
            declared.update(dict.fromkeys(child.names, "global"))
        elif isinstance(child, ast.Nonlocal):
            declared.update(dict.fromkeys(child.names, "nonlocal"))
        elif isinstance(child, (ast.Yield, ast.YieldFrom)):
            yielding.update(statements)
        if isinstance(child, ast.stmt):
            statements = (*statements, id(child))
        for grandchild in ast.iter_child_nodes(child):
            visit(grandchild, statements)

    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    for child in body:
        visit(child, ())
    scope = (frozenset(names - declared.keys()), declared or None, frozenset(yielding))
    _SCOPES[id(node)] = (node, scope)
    return scope


def _function_of(frame: Frame) -> str:
    """The qualified name of the function whose call `frame` belongs to (for names defined inside it)."""
    while frame is not None and frame.function is None:
        frame = frame.parent
    return frame.function.name if frame is not None else "<module>"


def _exception_name(cls: type) -> str:
    """An exception's name as Python's traceback prints it: module-qualified unless a builtin."""
    if cls.__module__ == "builtins":
        return cls.__qualname__
    if cls.__module__.startswith("numpy"):
        return f"{cls.__module__}.{cls.__qualname__}"
    return cls.__name__


def _resident_bytes() -> int | None:
    return process_memory("resident")


# Visit methods are found by name: exec_For executes ast.For, eval_BinOp evaluates ast.BinOp.
_STATEMENTS = {getattr(ast, name[5:]): method for name, method in vars(Interpreter).items()
               if name.startswith("exec_") and name != "exec_block"}
_EXPRESSIONS = {getattr(ast, name[5:]): method for name, method in vars(Interpreter).items()
                if name.startswith("eval_") and name != "eval_elements"}
_GENERATOR_STATEMENTS = {getattr(ast, name[4:]): method for name, method in vars(Interpreter).items()
                         if name.startswith("gen_") and name[4:5].isupper()}

# The node types a program may contain: everything the interpreter has a visit method for, and `*x` in
# calls and displays, which eval_elements handles.
SUPPORTED_NODES = frozenset(_STATEMENTS) | frozenset(_EXPRESSIONS) | {ast.Starred}
