"""Evaluate a validated Program on a backend: the autograd engine here, sympy symbols in symbolic.py.

The evaluator only walks the tree; what `+`, a call or an index *means* is the backend's business, so the
same parsed expression runs on Tensors and on symbols.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any, Protocol

import numpy as np

from gradcli.engine import Tensor
from gradcli.engine.errors import EngineError, from_numpy
from gradcli.engine.tensor import Size
from gradcli.lang import names
from gradcli.lang.parser import Program, dotted_name
from gradcli.safety.errors import EvalError, GradcliError
from gradcli.safety.recursion import recursion_limit

_BINOP_SYMBOLS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.BitXor: "**",
                  ast.MatMult: "@", ast.FloorDiv: "//", ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|"}
_UNARY_SYMBOLS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
_CMP_SYMBOLS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


class Backend(Protocol):
    def variable(self, name: str) -> Any: ...
    def binary(self, op: str, a, b) -> Any: ...
    def unary(self, op: str, a) -> Any: ...
    def compare(self, op: str, a, b) -> Any: ...
    def call(self, spec, args: list, kwargs: dict) -> Any: ...
    def method(self, obj, spec, args: list, kwargs: dict) -> Any: ...
    def attribute(self, obj, name: str) -> Any: ...
    def getitem(self, obj, key) -> Any: ...


def evaluate(program: Program, backend: Backend):
    # each level of the syntax tree is two Python frames here; a long flat chain (x + x + ... with
    # thousands of terms, parser.MAX_TREE_DEPTH at most) needs more than the default recursion limit
    if program.tree_depth > 150:
        with recursion_limit(extra=4 * program.tree_depth):
            return _Evaluator(program, backend).eval(program.tree.body)
    return _Evaluator(program, backend).eval(program.tree.body)


class _Evaluator:
    def __init__(self, program: Program, backend: Backend):
        self.program = program
        self.backend = backend

    def fail(self, node, message, hint=None):
        raise EvalError(message, source=self.program.source, span=self.program.span(node), hint=hint)

    def eval(self, node):
        method = getattr(self, "eval_" + type(node).__name__)
        try:
            return method(node)
        except GradcliError as err:
            raise err.with_source(self.program.source, self.program.span(node)) from None
        except EngineError as err:
            self.fail(node, str(err), hint=getattr(err, "hint", None))
        except (TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError) as err:
            self.fail(node, _clean_python_error(err))

    def eval_Constant(self, node):
        return node.value

    def eval_Name(self, node):
        if node.id in self.program.variables:  # a tensor the user named pi or e shadows the constant, as in Python
            return self.backend.variable(node.id)
        constant = names.resolve_constant((node.id,))
        if constant is not None:
            return constant
        return self.backend.variable(node.id)

    def eval_BinOp(self, node):
        left = self.eval(node.left)
        right = self.eval(node.right)
        op = _BINOP_SYMBOLS[type(node.op)]
        try:
            return self.backend.binary(op, left, right)
        except (EngineError, TypeError, ValueError, OverflowError) as err:
            self.fail(node, _clean_python_error(err) if not isinstance(err, EngineError) else str(err))

    def eval_UnaryOp(self, node):
        operand = self.eval(node.operand)
        try:
            return self.backend.unary(_UNARY_SYMBOLS[type(node.op)], operand)
        except (EngineError, TypeError, ValueError) as err:
            self.fail(node, _clean_python_error(err) if not isinstance(err, EngineError) else str(err))

    def eval_Compare(self, node):
        left = self.eval(node.left)
        right = self.eval(node.comparators[0])
        return self.backend.compare(_CMP_SYMBOLS[type(node.ops[0])], left, right)

    def eval_Attribute(self, node):
        path = dotted_name(node)
        if path is not None and path[0] in ("torch", "F", "nn", "math"):
            return names.resolve_constant(path)
        return self.backend.attribute(self.eval(node.value), node.attr)

    def eval_Call(self, node):
        args = [self.eval(a) for a in node.args]
        kwargs = {kw.arg: self.eval(kw.value) for kw in node.keywords}
        func = node.func
        path = dotted_name(func)
        if path is not None and (len(path) == 1 or path[0] in ("torch", "F", "nn", "math")):
            spec = names.resolve_function(path)
            return self.backend.call(spec, args, kwargs)
        # a method call on a value: x.sum(dim=0)
        obj = self.eval(func.value)
        return self.backend.method(obj, names.resolve_method(func.attr), args, kwargs)

    def eval_Subscript(self, node):
        obj = self.eval(node.value)
        key = self.eval(node.slice)
        return self.backend.getitem(obj, key)

    def eval_Slice(self, node):
        parts = [None if p is None else _as_index(self.eval(p)) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def eval_Tuple(self, node):
        return tuple(self.eval(e) for e in node.elts)

    def eval_List(self, node):
        return [self.eval(e) for e in node.elts]


def _as_index(value):
    """Floats that are whole numbers work as indices and dims (literals may have become floats)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _clean_python_error(err: Exception) -> str:
    text = str(err)
    return text[0].lower() + text[1:] if text else type(err).__name__


class EngineBackend:
    """Expressions on the autograd engine: operators on Tensors, Python numbers computed as float64."""

    def __init__(self, variables: dict[str, Tensor], dtype):
        self.variables = variables
        self.dtype = dtype

    def variable(self, name):
        return self.variables[name]

    def _scalar_tensor(self, value):
        return Tensor._make(np.asarray(value, dtype=self.dtype.np), None)

    def _constant_list(self, value, tuples=True):
        """A list of numbers where a tensor is expected (x + [1, 2]): a constant tensor, as the calculator
        reads values; anything else in a list is refused here rather than failing inside an op."""
        if not isinstance(value, list) and not (tuples and isinstance(value, tuple)):
            return value
        fields = getattr(value, "_fields", None)
        if fields:  # x.max(dim=0) is (values, indices), as in torch: say which part to take
            op = getattr(value, "op", None) or type(value).__name__
            raise EvalError(f"{op}(...) gives ({', '.join(fields)}), not one tensor",
                            hint=f"take one: .{fields[0]} (or [0])" + (f", or .{fields[1]}" if len(fields) > 1 else ""))
        if _holds_tensor(value):
            raise EvalError("a list of tensors cannot be used as a value here", hint="use torch.stack([...])")
        try:
            array = np.array(value, dtype=self.dtype.np)
        except (ValueError, TypeError):
            raise EvalError("a list used as a value must be a rectangular list of numbers") from None
        return Tensor._make(array, None)

    def binary(self, op, a, b):
        a, b = self._constant_list(a), self._constant_list(b)
        if _is_number(a) and _is_number(b):
            # Both plain numbers: float64 arithmetic, so no Python big-integer power ever runs.
            a, b = np.float64(a), np.float64(b)
            if op in ("&", "|"):
                raise EvalError(f"{op} needs bool or integer tensors on both sides", hint="e.g. (x > 0) & (x < 1)")
            with np.errstate(all="ignore"):
                result = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b != 0 else _divide(a, b),
                          "**": a ** b, "//": np.floor_divide(a, b), "%": np.remainder(a, b)}.get(op)
            if result is None:
                raise EvalError("@ needs tensors on both sides")
            return float(result)
        if op == "@":
            a = self._scalar_tensor(a) if _is_number(a) else a
            b = self._scalar_tensor(b) if _is_number(b) else b
            return a @ b
        if op in ("&", "|") and not (isinstance(a, Tensor) or isinstance(b, Tensor)):
            raise EvalError(f"{op} needs bool or integer tensors", hint="e.g. (x > 0) & (x < 1)")
        return {"+": _add, "-": _sub, "*": _mul, "/": _div, "**": _pow, "//": _floordiv, "%": _mod, "&": _and,
                "|": _or}[op](a, b)

    def unary(self, op, a):
        if op == "~":
            if not isinstance(a, Tensor):
                raise EvalError("~ needs a bool or integer tensor", hint="e.g. ~(x > 0)")
            return ~a
        if _is_number(a):
            return -a if op == "-" else a
        return -a if op == "-" else a

    def compare(self, op, a, b):
        if _is_number(a) and _is_number(b):
            a = self._scalar_tensor(a)
        return {"<": _lt, "<=": _le, ">": _gt, ">=": _ge, "==": _eq, "!=": _ne}[op](a, b)

    def call(self, spec, args, kwargs):
        if spec.category in _TENSOR_ARGUMENT_CATEGORIES and spec.name not in _TENSOR_LIST_OPS:
            # their tuples may be dims, as in normalize(x, 2, (0,)); ctc_loss's are lengths, as torch's int lists
            tuples = spec.category not in ("nn", "linalg") and spec.name != "ctc_loss"
            args[:] = [self._constant_list(a, tuples) for a in args]
            if spec.category not in ("nn", "linalg"):  # their keywords may be dims
                kwargs.update({k: self._constant_list(v) for k, v in kwargs.items()})
        if args and _is_number(args[0]) and spec.category != "creation" \
                and not any(isinstance(a, Tensor) for a in args):
            args[0] = self._scalar_tensor(args[0])  # a calculator accepts sin(2)
        return _call_op(spec, spec.fn, args, kwargs)

    def method(self, obj, spec, args, kwargs):
        obj = self._constant_list(obj)
        if spec.category in _TENSOR_ARGUMENT_CATEGORIES:
            args = [self._constant_list(a, spec.category not in ("nn", "linalg")) for a in args]
        if not isinstance(obj, Tensor):
            obj = self._scalar_tensor(obj) if _is_number(obj) else obj
            if not isinstance(obj, Tensor):
                raise EvalError(f"{type(obj).__name__} has no method '{spec.name}'")
        return _call_op(spec, spec.fn, [obj, *args], kwargs)

    def attribute(self, obj, name):
        if isinstance(obj, tuple) and name in getattr(obj, "_fields", ()):  # (values, indices), (sign, logabsdet)
            return getattr(obj, name)
        if isinstance(obj, Tensor) and name in ("T", "mT", "H", "mH", "shape", "ndim", "dtype"):
            return getattr(obj, name)
        raise EvalError(f"{_kind(obj)} has no attribute '{name}'")

    def getitem(self, obj, key):
        key = _normalise_key(key)
        if isinstance(obj, (tuple, list)):
            if isinstance(key, slice):  # x.shape[-1:] is a torch.Size, as F.layer_norm(x, x.shape[-1:]) needs
                return Size(obj[key]) if isinstance(obj, Size) else tuple(obj[key])
            if not isinstance(key, int):
                raise EvalError("a tuple can only be indexed with an integer or a slice")
            if not -len(obj) <= key < len(obj):
                raise EvalError(f"index {key} is out of range for a result of {len(obj)} values")
            return obj[key]
        if not isinstance(obj, Tensor):
            raise EvalError(f"{_kind(obj)} cannot be indexed")
        return obj[key]


# ops whose positional arguments are tensors or numbers (never dims or shapes given as lists)
_TENSOR_ARGUMENT_CATEGORIES = frozenset({"arithmetic", "elementwise", "activation", "comparison", "no-gradient",
                                         "loss", "nn", "linalg"})


def _holds_tensor(value) -> bool:
    return isinstance(value, Tensor) or (isinstance(value, (list, tuple)) and any(map(_holds_tensor, value)))


# ops whose arguments include a list of tensors (not a constant written as a list)
_TENSOR_LIST_OPS = frozenset({"einsum", "multi_dot", "vstack", "hstack", "row_stack", "meshgrid"})


# parameters that take integers (dims, sizes): a tensor there is an error, as in torch
_INTEGER_PARAMETERS = frozenset({"dim", "dims", "dim0", "dim1", "dim2", "axis", "shape", "size", "sizes", "repeats",
                                 "shifts", "diagonal", "offset", "keepdim", "chunks", "split_size_or_sections",
                                 "start_dim", "end_dim", "correction", "unbiased", "steps", "n", "m"})
# ...except where torch also takes a tensor of them
_TENSOR_ALLOWED = frozenset({("repeat_interleave", "repeats")})


def _check_integer_arguments(spec, fn, args, kwargs):
    if spec.name in ("max", "min"):  # torch.max(x, other): a tensor in the dim slot is the elementwise form
        return
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return  # the call itself reports wrong arguments
    for name, value in bound.arguments.items():
        if name in _INTEGER_PARAMETERS and _holds_tensor(value) and (spec.name, name) not in _TENSOR_ALLOWED:
            raise EvalError(f"wrong arguments for {spec.name}: {name} must be an integer, not a tensor",
                            hint=f"usage: {spec.signature}")


def _call_op(spec, fn, args, kwargs):
    _check_integer_arguments(spec, fn, args, kwargs)
    try:
        return fn(*args, **kwargs)
    except AttributeError:  # a number or list where the op needs a tensor: torch.diag(2.0, x)
        kinds = ", ".join(_kind(a).removeprefix("a ") for a in args)
        raise EvalError(f"wrong arguments for {spec.name}: got ({kinds})", hint=f"usage: {spec.signature}") from None
    except TypeError as err:
        if isinstance(err, EngineError):
            raise
        # Python's message names our internal function; say it in the user's terms instead
        detail = str(err).split(") ", 1)[-1] if ") " in str(err) else str(err)
        raise EvalError(f"wrong arguments for {spec.name}: {detail}", hint=f"usage: {spec.signature}") from None
    except ValueError as err:  # numpy's words for shapes that do not broadcast: say them as torch does
        translated = from_numpy(err)
        if translated is None:
            raise
        raise translated from None


def _divide(a, b):
    with np.errstate(all="ignore"):
        return np.float64(a) / np.float64(b)


def _kind(obj) -> str:
    if isinstance(obj, Tensor):
        return "a tensor"
    if isinstance(obj, tuple):
        return "a tuple"
    return f"a {type(obj).__name__}"


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _normalise_key(key):
    if isinstance(key, tuple):
        return tuple(_normalise_key(k) for k in key)
    return _as_index(key)


def _add(a, b):
    return a + b


def _sub(a, b):
    return a - b


def _mul(a, b):
    return a * b


def _div(a, b):
    return a / b


def _pow(a, b):
    return a ** b


def _floordiv(a, b):
    return a // b


def _mod(a, b):
    return a % b if isinstance(a, Tensor) else b.__rmod__(a)


def _and(a, b):
    return a & b if isinstance(a, Tensor) else b & a


def _or(a, b):
    return a | b if isinstance(a, Tensor) else b | a


def _lt(a, b):
    return a < b


def _le(a, b):
    return a <= b


def _gt(a, b):
    return a > b


def _ge(a, b):
    return a >= b


def _eq(a, b):
    return a == b


def _ne(a, b):
    return a != b
