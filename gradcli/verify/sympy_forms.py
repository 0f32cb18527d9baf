"""The pieces of sympy's view of an expression that the op table (symbolic_ops) and the cross-check
(symbolic) share: sympy values as tensors (object arrays), amax/amin, kinks, exact values at a point, and
sympy's time budget."""

from __future__ import annotations

import math
from collections import namedtuple
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import sympy as sp

from gradcli.lang.names import CONSTANTS
from gradcli.safety import guard
from gradcli.safety.errors import GradcliError
from gradcli.verify.sympy_startup import install_sympy_placeholder

install_sympy_placeholder()  # skip sympy.combinatorics on the first addition (see the module)

# Cross-check tolerances |autograd - sympy| <= atol + rtol * |sympy|, per dtype: the derivative is
# exact; autograd's rounding grows with the depth of the expression.
class NoSymbolicForm(GradcliError):
    """The expression uses something sympy cannot express; the cross-check is skipped, naming it."""


class SymbolicTimeout(GradcliError):
    pass


@contextmanager
def time_budget(seconds: float):
    """Interrupt sympy after `seconds` with SymbolicTimeout (safety's one deadline mechanism, on its SIGALRM
    timer, unsupervised: the caller carries on without sympy's answer)."""
    message = f"sympy took longer than {seconds:g} s"
    with guard.alarm_session(), guard.Deadline(seconds, message, supervise=False,
                                               error=lambda message, hint: SymbolicTimeout(message)):
        yield


def bounded(seconds: float, fn, *args, **kwargs):
    """fn(*args) within a time budget; SymbolicTimeout when it runs out."""
    with time_budget(seconds):
        return fn(*args, **kwargs)


def cpu_bounded(seconds: float, fn, *args, **kwargs):
    """fn(*args) within a budget of the process's CPU time (a busy machine does not shrink it);
    SymbolicTimeout when it runs out."""
    message = f"sympy used more than {seconds:g} s of CPU time"
    with guard.CpuDeadline(seconds, message, error=lambda message, hint: SymbolicTimeout(message)):
        return fn(*args, **kwargs)


# -- reductions that stay cheap for tensors ----------------------------------------------------------

class amax(sp.Function):  # noqa: N801 - printed as amax(...), like torch.amax
    """Max over a tensor's elements, kept unevaluated: sympy's Max compares every pair of symbolic
    arguments and becomes unusable past ~12 elements.  Its derivative follows sympy's Max:
    Heaviside(a_k - max(rest)), so ties get Heaviside(0) = 1/2."""

    _numeric = staticmethod(sp.Max)

    @classmethod
    def eval(cls, *args):
        if len(args) == 1:
            return args[0]
        if all(a.is_number for a in args):
            return cls._numeric(*args)
        return None

    def fdiff(self, argindex=1):
        k = argindex - 1
        rest = self.func(*(self.args[:k] + self.args[k + 1:]))
        return sp.Heaviside(self._lead(self.args[k], rest))

    @staticmethod
    def _lead(arg, rest):
        return arg - rest


class amin(amax):  # noqa: N801
    _numeric = staticmethod(sp.Min)

    @staticmethod
    def _lead(arg, rest):
        return rest - arg


# -- the backend -------------------------------------------------------------------------------------

ReturnTypes = namedtuple("ReturnTypes", ["values", "indices"])
Relational = sp.core.relational.Relational


@dataclass(frozen=True)
class Kink:
    """Where an op is not differentiable: the expression is 0 (kind "zero"), or the largest ("max-tie") or
    smallest ("min-tie") of `exprs` is shared."""

    op: str
    kind: str
    exprs: tuple


class Unavailable:
    """A value sympy cannot give (e.g. the indices of max): fine to carry around, an error to use."""

    def __init__(self, what: str):
        self.what = what


def number(value):
    """A Python number as an exact sympy number (0.1 -> 1/10, math.pi -> pi)."""
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, (bool, np.bool_)):
        return sp.true if value else sp.false
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    value = float(value)
    if math.isnan(value):
        return sp.nan
    if math.isinf(value):
        return sp.oo if value > 0 else -sp.oo
    for constant, symbol in ((CONSTANTS["pi"], sp.pi), (CONSTANTS["e"], sp.E)):
        if value == constant:  # the names pi and e, evaluated to floats by the evaluator
            return symbol
    return sp.Integer(int(value)) if value.is_integer() else sp.Rational(repr(value))


def wrap(value) -> np.ndarray:
    """Any result as an object array (numpy returns bare objects for 0-d results)."""
    if isinstance(value, np.ndarray) and value.dtype == object:
        return value
    if isinstance(value, np.ndarray):
        return constant_array(value)
    array = np.empty((), dtype=object)
    array[()] = sp.sympify(value)
    return array


def constant_array(array: np.ndarray) -> np.ndarray:
    out = np.empty(array.shape, dtype=object)
    for idx in np.ndindex(array.shape):
        value = array[idx]
        out[idx] = number(value.item() if isinstance(value, np.generic) else value)
    return out


def as_tensor(x) -> np.ndarray:
    if isinstance(x, Unavailable):
        raise NoSymbolicForm(f"no symbolic form for {x.what}")
    if isinstance(x, (list, tuple)):
        return np.stack([as_tensor(e) for e in x]) if x else np.empty((0,), dtype=object)
    if isinstance(x, np.ndarray) and x.dtype == object:
        return x
    return wrap(number(x) if not isinstance(x, np.ndarray) else x)


def elementwise(fn, *arrays) -> np.ndarray:
    return wrap(np.frompyfunc(fn, len(arrays), 1)(*arrays))


def dims_of(dim, ndim: int) -> tuple:
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if not isinstance(dim, (tuple, list)) else dim
    n = max(ndim, 1)
    return tuple(sorted(int(d) % n for d in dims)) if ndim else ()


def shape_args(shape) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


# what `+`, `<` ... mean on sympy values
def index_key(key, backend=None):
    """A key for numpy indexing: ints, slices, and index or mask tensors as numeric arrays."""
    if isinstance(key, tuple):
        return tuple(index_key(k, backend) for k in key)
    if isinstance(key, (slice, type(None), type(Ellipsis))):
        return key
    if isinstance(key, (list, np.ndarray, Unavailable)):
        array = as_tensor(key)
        if backend is not None and any(e.free_symbols for e in array.flat):
            backend.note_kinks("a mask", "zero", *[(e.lhs - e.rhs,) for e in array.flat
                                                   if isinstance(e, Relational)])
            array = backend.numeric(array, "masks")
        if all(e in (sp.true, sp.false) for e in array.flat):
            return np.array([e == sp.true for e in array.flat], dtype=bool).reshape(array.shape)
        if all(getattr(e, "is_Integer", False) for e in array.flat):
            return np.array([int(e) for e in array.flat], dtype=np.int64).reshape(array.shape)
        raise NoSymbolicForm("no symbolic form for indexing with values that depend on the inputs")
    return int(key)


def value_at(expr, subs: dict) -> float:
    """The real value of `expr` at a point (nan where it is not real or not a number, inf for sympy's zoo)."""
    # xreplace, not subs: far faster, and the 30-digit Floats carry the arithmetic past float64 cancellations
    try:
        value = sp.sympify(expr).xreplace(subs)
        if not value.has(sp.zoo):
            value = value.evalf(30)
    except (TypeError, ValueError):  # e.g. a derivative sympy left unevaluated
        return math.nan
    if value.has(sp.zoo):  # complex infinity has no sign: the float64 arithmetic autograd does gives one
        return float64_value(expr, subs)
    if value in (sp.oo, -sp.oo):
        return math.inf if value == sp.oo else -math.inf
    try:
        c = complex(value)
    except (TypeError, ValueError):
        return math.nan
    if abs(c.imag) > 1e-12 * max(1.0, abs(c.real)):
        return math.nan
    return c.real


_FLOAT64_FUNCTIONS = {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh,
                      "cosh": np.cosh, "tanh": np.tanh, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
                      "Abs": np.abs, "sign": np.sign, "cot": lambda v: 1 / np.tan(v), "sec": lambda v: 1 / np.cos(v),
                      "csc": lambda v: 1 / np.sin(v)}


def float64_value(expr, subs: dict) -> float:
    """`expr` at the point in IEEE float64 arithmetic (1/0 = inf, -1/0 = -inf, log(0) = -inf), as autograd
    computes it; inf when some part has no float64 form (sympy's zoo, read as an unsigned infinity)."""

    def walk(e):
        if e in subs:
            return np.float64(float(subs[e]))
        if e.is_Number:
            if e is sp.zoo or e is sp.nan:
                raise ValueError(e)
            return np.float64(float(e))
        if e is sp.pi or e is sp.E:
            return np.float64(float(e))
        args = [walk(a) for a in e.args]
        if e.is_Add:
            return np.sum(args, dtype=np.float64)
        if e.is_Mul:
            return np.prod(args, dtype=np.float64)
        if e.is_Pow:
            return np.power(args[0], args[1])
        function = _FLOAT64_FUNCTIONS.get(type(e).__name__)
        if function is None or len(args) != 1:
            raise ValueError(e)
        return function(args[0])

    try:
        with np.errstate(all="ignore"):
            return float(walk(sp.sympify(expr)))
    except (ValueError, TypeError, AttributeError):
        return math.inf


def point_subs(symbols: np.ndarray, values: np.ndarray) -> dict:
    """{symbol: exact Float} for every element (30 digits hold a binary double exactly)."""
    values = np.broadcast_to(np.asarray(values, dtype=np.float64), symbols.shape)
    return {s: sp.Float(float(v), 30) for s, v in zip(symbols.flat, values.flat)}


