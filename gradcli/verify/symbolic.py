"""sympy's view of an expression: the same parsed Program evaluated on symbols (`SympyBackend`),
differentiated exactly, and compared with the autograd gradients (`cross_check`, run by `gradcli eval`).

sympy takes ~0.3 s to import, so only the paths that need it import this module.
"""

from __future__ import annotations

import inspect
import math
import operator

import numpy as np
import sympy as sp

from gradcli.engine import Tensor, dtypes
from gradcli.engine.ops import REGISTRY
from gradcli.lang.evaluation import engine_settings
from gradcli.lang.evaluator import evaluate
from gradcli.render.text import format_number
from gradcli.safety import guard
from gradcli.safety.errors import GradcliError
from gradcli.safety.limits import Limits
from gradcli.verify.symbolic_ops import OPS
from gradcli.verify.sympy_forms import (
    Kink,
    NoSymbolicForm,
    Relational,
    SymbolicTimeout,
    Unavailable,
    as_tensor,
    bounded,  # noqa: F401 - homework.check calls symbolic.bounded
    constant_array,
    elementwise,
    index_key,
    number,
    point_subs,
    value_at,
    wrap,
)

# Cross-check tolerances |autograd - sympy| <= atol + rtol * |sympy|, per dtype: the derivative is
# exact; autograd's rounding grows with the depth of the expression.
TOLERANCES = {"float64": (1e-7, 1e-9), "float32": (1e-4, 1e-5), "float16": (1e-2, 1e-2)}
INDEX_LETTERS = "ijklmn"


def _operand(x):
    """A number stays a (sympy) scalar so numpy broadcasts it; everything else is an object array."""
    if isinstance(x, (int, float, np.number)) and not isinstance(x, bool):
        return number(x)
    if isinstance(x, sp.Basic):
        return x
    return as_tensor(x)


def _floor_divide(a, b):
    if a.is_Number and b.is_Number:  # as the engine: float64, 7 // 0 = inf (sympy would say zoo)
        with np.errstate(all="ignore"):
            return number(float(np.floor_divide(np.float64(float(a)), np.float64(float(b)))))
    return sp.floor(a / b)


MAX_EXACT_POWER_BITS = 4096


def _huge_power(a, b) -> bool:
    """Would number ** number be an exact rational of more than MAX_EXACT_POWER_BITS bits?"""
    if not (isinstance(a, sp.Number) and isinstance(b, sp.Number)) or not a.is_finite or not b.is_finite:
        return False
    if not isinstance(a, sp.Rational):
        return False
    bits = max(abs(a.p).bit_length(), a.q.bit_length(), 1)
    return abs(float(b)) * bits > MAX_EXACT_POWER_BITS


_BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "**": operator.pow}
_RELATIONS = {"<": sp.Lt, "<=": sp.Le, ">": sp.Gt, ">=": sp.Ge, "==": sp.Eq, "!=": sp.Ne}


def _remainder(a, b):
    """Python's % on constants; with a variable in it (the result is piecewise linear) there is no sympy form."""
    x, y = as_tensor(a), as_tensor(b)
    if any(getattr(e, "free_symbols", None) for e in (*x.flat, *y.flat)):
        raise NoSymbolicForm("no symbolic form for %")
    return elementwise(lambda p, q: number(float(np.remainder(float(p), float(q)))), x, y)


class SympyBackend:
    """The evaluator's Backend on sympy: tensors are numpy object arrays of sympy expressions, so numpy
    does the broadcasting, indexing and reshaping, and `OPS` says what each op is symbolically."""

    def __init__(self, variables: dict[str, np.ndarray], dtype=None, point: dict | None = None):
        self.variables = variables
        self.dtype = dtype
        self.point = point  # {symbol: value}: decides what depends on the values (masks, argmax indices)
        self.kinks: list[Kink] = []

    def numeric(self, array: np.ndarray, what: str) -> np.ndarray:
        """Elements evaluated at the point, as numbers (constant near the point, like torch's masks)."""
        if self.point is None:
            raise NoSymbolicForm(f"no symbolic form for {what} that depend on the values")

        def at_point(e):
            return bool(e.xreplace(self.point)) if isinstance(e, sp.logic.boolalg.Boolean) else value_at(e, self.point)

        return constant_array(np.vectorize(at_point, otypes=[object])(array))

    def indices_of(self, kept_values, x, d, keepdim):
        """Where each maximum (minimum) sits along dim d: the first match, as torch returns it."""
        if self.point is None:
            return Unavailable("the indices of max/min")
        hits = np.vectorize(lambda a, v: _vanishes(a - v, self.point, 1.0), otypes=[bool])(x, kept_values)
        index = np.argmax(hits, axis=d)
        return constant_array(np.expand_dims(index, d) if keepdim else index)

    def note_kinks(self, op: str, kind: str, *groups) -> None:
        for exprs in groups:
            exprs = tuple(sp.sympify(e) for e in exprs)
            if any(e.free_symbols for e in exprs):
                self.kinks.append(Kink(op, kind, exprs))

    # -- Backend protocol --------------------------------------------------------------------------
    def variable(self, name):
        return self.variables[name]

    def binary(self, op, a, b):
        a, b = _operand(a), _operand(b)
        if op == "**" and _huge_power(a, b):
            # as the engine computes number ** number: in float64 (2**2**2**2**2 is inf), never an exact
            # integer of millions of digits
            with np.errstate(all="ignore"):
                return number(float(np.float64(float(a)) ** np.float64(float(b))))
        if op in ("&", "|"):
            logic = sp.And if op == "&" else sp.Or
            return elementwise(lambda p, q: logic(p, q), as_tensor(a), as_tensor(b))
        if op == "%":
            return _remainder(a, b)
        if op == "//":  # floor_divide: constants only (autograd has no derivative for it)
            return elementwise(_floor_divide, as_tensor(a), as_tensor(b)) \
                if not (isinstance(a, sp.Basic) and isinstance(b, sp.Basic)) else _floor_divide(a, b)
        if isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and op != "@":
            return _BINARY[op](a, b)
        # both as object arrays: sympy would otherwise turn a numpy operand into its own Array type
        a, b = as_tensor(a), as_tensor(b)
        return wrap(np.matmul(a, b) if op == "@" else _BINARY[op](a, b))

    def unary(self, op, a):
        if op == "~":
            return elementwise(sp.Not, as_tensor(a))
        if isinstance(a, (int, float)):  # keep Python numbers Python: they may be dims (x.sum(-1))
            return -a if op == "-" else a
        a = _operand(a)
        return (-a if op == "-" else a) if isinstance(a, sp.Basic) else wrap(-a if op == "-" else a)

    def compare(self, op, a, b):
        return elementwise(_RELATIONS[op], as_tensor(a), as_tensor(b))

    def call(self, spec, args, kwargs):
        impl = _implementation(spec)
        if impl is None:
            if spec.category == "creation":
                return _creation(spec, args, kwargs)
            raise NoSymbolicForm(f"no symbolic form for {spec.name}")
        args, kwargs = _by_name(spec.fn, args, kwargs)
        return impl(self, *args, **kwargs)

    def method(self, obj, spec, args, kwargs):
        return self.call(spec, [obj, *args], kwargs)

    def attribute(self, obj, name):
        if isinstance(obj, tuple) and name in getattr(obj, "_fields", ()):
            return getattr(obj, name)
        x = as_tensor(obj)
        attributes = {"T": lambda: x.T, "mT": lambda: np.swapaxes(x, -1, -2), "H": lambda: x.T,
                      "mH": lambda: np.swapaxes(x, -1, -2), "shape": lambda: tuple(x.shape),
                      "ndim": lambda: x.ndim, "dtype": lambda: self.dtype}
        if name not in attributes:
            raise NoSymbolicForm(f"no symbolic form for .{name}")
        return attributes[name]()

    def getitem(self, obj, key):
        if isinstance(obj, (tuple, list)):
            return obj[key] if isinstance(key, slice) else obj[int(key)]
        return wrap(as_tensor(obj)[index_key(key, self)])


def _by_name(fn, args, kwargs):
    """The arguments of a call rebound to the engine function's parameter names, so that a sympy form
    depends on the names (shared with the engine), not on how the user ordered them."""
    signature = inspect.signature(fn)
    parameters = signature.parameters
    bound = signature.bind(*args, **kwargs)
    star = any(p.kind is p.VAR_POSITIONAL for p in parameters.values())
    positional, named = [], {}
    for name, value in bound.arguments.items():
        kind = parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            positional.extend(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            named.update(value)
        elif kind is inspect.Parameter.POSITIONAL_ONLY or (star and kind is inspect.Parameter.POSITIONAL_OR_KEYWORD):
            positional.append(value)
        else:
            named[name] = value
    return positional, named


def _implementation(spec):
    """The sympy form of a registered op, found by name or through any alias sharing its function."""
    name = "linalg." + spec.name if spec.linalg else spec.name
    if name in OPS:
        return OPS[name]
    if spec.linalg:
        return None

    for alias, other in REGISTRY.items():
        if other.fn is spec.fn and alias in OPS:
            return OPS[alias]
    return None


def _creation(spec, args, kwargs):
    """Constant tensors (zeros, arange, eye...) are numbers: let the engine make them."""
    if "rand" in spec.name:
        raise NoSymbolicForm(f"no symbolic form for {spec.name} (random values)")

    def plain(v):
        if isinstance(v, np.ndarray) and v.dtype == object:  # zeros_like(x) only needs x's shape
            return Tensor._make(np.zeros(v.shape), None)
        if isinstance(v, sp.Basic):
            return float(v)
        if isinstance(v, (list, tuple)):
            return type(v)(plain(e) for e in v)
        return v

    result = spec.fn(*[plain(a) for a in args], **{k: plain(v) for k, v in kwargs.items()})
    return constant_array(result.array)


# -- symbols for tensors -----------------------------------------------------------------------------

def symbol_names(name: str, shape: tuple) -> np.ndarray:
    """x for a scalar, x_0, x_1 ... for 1-D, W_0_1 for 2-D: one name per element."""
    names = np.empty(shape, dtype=object)
    for idx in np.ndindex(shape):
        names[idx] = "_".join([name, *map(str, idx)])
    return names


def integer_constant(value) -> np.ndarray:
    """An integer tensor's values as sympy's exact Integers."""
    array = np.asarray(value)
    return wrap(np.array([sp.Integer(int(v)) for v in array.flat], dtype=object).reshape(array.shape))


def tensor_symbols(name: str, shape: tuple) -> np.ndarray:
    return np.vectorize(lambda n: sp.Symbol(n, real=True), otypes=[object])(symbol_names(name, shape)) \
        if shape else wrap(sp.Symbol(name, real=True))


def evaluate_symbolic(program, symbols: dict[str, np.ndarray], dtype=None, point: dict | None = None):
    """(output as an object array, the backend with its recorded kinks)."""
    backend = SympyBackend(symbols, dtype, point)
    out = evaluate(program, backend)
    if isinstance(out, tuple):
        raise NoSymbolicForm("the expression gives several values")
    return as_tensor(out), backend


# -- the cross-check ---------------------------------------------------------------------------------

def skipped(reason: str) -> dict:
    return {"status": "skipped", "reason": reason}


def cross_check(result, *, timeout: float, dtype_name: str = "float64", latex: bool = False) -> dict:
    """Evaluate the Program of an `EvalResult` on symbols, differentiate, compare with its .grad values, within
    `timeout` seconds of CPU time (a loaded machine stretches wall time, not the verdict)."""
    try:
        with engine_settings(dtypes.by_name(dtype_name), Limits()), \
                guard.cpu_budget(timeout, lambda: SymbolicTimeout("sympy ran out of time")):
            return _cross_check(result, dtype_name, latex)
    except SymbolicTimeout:
        return skipped(f"sympy took longer than {timeout:.2g} s of CPU (raise --check-timeout)")
    except NoSymbolicForm as err:
        return skipped(err.message)
    except GradcliError as err:
        return skipped(f"sympy could not evaluate the expression: {err.message}")
    except RecursionError:
        return skipped("sympy could not evaluate the expression: nested too deeply for sympy")
    except MemoryError:
        return skipped("sympy ran out of memory")
    except Exception as err:  # noqa: BLE001 - the check is optional: its failure never fails the evaluation
        return skipped(f"sympy failed: {_short(f'{type(err).__name__}: {err}')}")


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _cross_check(result, dtype_name: str, latex: bool) -> dict:
    symbols = {name: tensor_symbols(name, t.value.shape) for name, t in result.tensors.items()}
    names = [str(s) for syms in symbols.values() for s in syms.flat]
    if len(set(names)) != len(names):
        return skipped("two tensors' element names clash (e.g. x of shape (2, 3) and x_0 of shape (3,))")
    subs = {}
    for name, t in result.tensors.items():
        if np.asarray(t.value).dtype.kind in "iu":  # an integer constant (class indices, an index): its exact
            symbols[name] = integer_constant(t.value)  # values, never symbols at a Float point
        else:
            subs.update(point_subs(symbols[name], t.value))
    out, backend = evaluate_symbolic(result.program, symbols, point=subs)
    if out.shape != np.shape(result.output):
        return skipped(f"sympy gives shape {out.shape}, autograd {np.shape(result.output)}")
    check = {"status": "agrees", "reason": None}
    if result.grad_output is None:
        loss = out.flat[0]
    else:  # what backward(gradient=g) differentiates: sum(g * output), with g as symbols too
        g_name = _fresh_name("g", symbols)
        symbols[g_name] = tensor_symbols(g_name, np.shape(result.grad_output))
        subs.update(point_subs(symbols[g_name], result.grad_output))
        loss = sp.Add(*wrap(symbols[g_name] * out).flat)
        check["grad_output_symbol"] = g_name

    if sp.sympify(loss).has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        # sympy's nan and infinities absorb terms (inf + x is inf, of derivative 0); autograd's gradients do not
        return skipped("the expression involves nan or inf, which sympy cannot differentiate through")
    derivatives = {name: _gradient(loss, symbols[name]) for name, t in result.tensors.items()
                   if t.requires_grad and t.used}
    unevaluated = [d for deriv in derivatives.values() for e in deriv.flat for d in sp.sympify(e).atoms(sp.Derivative)]
    if unevaluated:
        return skipped(f"sympy cannot differentiate {sp.sstr(unevaluated[0].expr)}")
    rtol, atol = TOLERANCES.get(dtype_name, TOLERANCES["float64"])
    scale = 1.0 + max((abs(float(v)) for v in subs.values()), default=0.0)
    mismatches, kinks, max_diff = [], [], 0.0
    outside = []  # the loss is not real at the point: the gradient there is a convention (PyTorch's nan)
    loss_is_real = None
    for name, deriv in derivatives.items():
        grad = result.tensors[name].grad
        autograd = np.zeros(deriv.shape) if grad is None else np.asarray(grad, dtype=np.float64)
        for idx in np.ndindex(deriv.shape):
            entry = {"tensor": name, "index": list(idx), "autograd": float(autograd[idx]),
                     "sympy": value_at(deriv[idx], subs)}
            undefined = not math.isfinite(entry["sympy"]) and math.isfinite(entry["autograd"])
            if undefined or _at_kink(deriv[idx], subs, scale):
                kinks.append(entry)
            elif not _close(entry["autograd"], entry["sympy"], rtol, atol):
                if math.isnan(entry["autograd"]) and loss_is_real is None:
                    loss_is_real = not math.isnan(value_at(loss, subs))
                if math.isnan(entry["autograd"]) and loss_is_real is False:
                    outside.append(entry)
                else:
                    mismatches.append(entry)
            elif math.isfinite(entry["sympy"]):
                max_diff = max(max_diff, abs(entry["autograd"] - entry["sympy"]))
    check.update(max_abs_diff=max_diff, rtol=rtol, atol=atol, **_formulas(derivatives, symbols, sp.sstr))
    if latex:
        check["latex"] = _formulas(derivatives, symbols, sp.latex)
    if mismatches:
        worst = max(mismatches, key=lambda e: _difference(e["autograd"], e["sympy"]))
        check.update(status="disagrees", mismatches=mismatches[:20],
                     reason=f"{_element(worst)}: autograd {_fmt(worst['autograd'])}, sympy {_fmt(worst['sympy'])}",
                     disagreement=f"autograd and sympy disagree on {_element(worst)}: {_fmt(worst['autograd'])} vs "
                                  f"{_fmt(worst['sympy'])}")
    elif outside:
        first = outside[0]
        check.update(status="convention", kinks=outside[:20], kink_ops=[], convention="PyTorch",
                     reason=f"{_element(first)} lies outside the expression's real domain (its value there is not a "
                            f"real number): gradcli follows PyTorch ({_fmt(first['autograd'])}), sympy's formula "
                            f"gives {_fmt(first['sympy'])}")
    elif kinks:
        ops = sorted({k.op for k in backend.kinks if _kink_active(k, subs, scale)})
        differing = [e for e in kinks if not _close(e["autograd"], e["sympy"], rtol, atol)]
        first = (differing or kinks)[0]
        where = f"a non-differentiable point of {', '.join(ops)}" if ops else \
            "a point where the derivative is undefined"
        sympy_says = f"sympy gives {_fmt(first['sympy'])}" if differing else "sympy gives the same"
        check.update(status="convention", kinks=kinks[:20], kink_ops=ops, convention="PyTorch",
                     reason=f"{_element(first)} sits at {where}: gradcli follows PyTorch's convention "
                            f"({_fmt(first['autograd'])}), {sympy_says}")
    return check


def _gradient(loss, symbols: np.ndarray) -> np.ndarray:
    deriv = np.empty(symbols.shape, dtype=object)
    for idx in np.ndindex(symbols.shape):
        deriv[idx] = sp.diff(loss, symbols[idx])
    return deriv


def _formulas(derivatives: dict, symbols: dict, printer) -> dict:
    """The element names, element formulas and (where one exists) the single index pattern, as text."""
    patterns = _patterns(derivatives, symbols)
    return {
        "symbols": {n: [printer(s) for s in symbols[n].flat] for n in derivatives},
        "formulas": {n: [printer(d) for d in derivatives[n].flat] for n in derivatives},
        "patterns": {n: {"symbol": printer(s), "formula": printer(f)} for n, (s, f) in patterns.items()},
    }


def _fresh_name(base: str, taken) -> str:
    name = base
    while name in taken or any(t.startswith(name + "_") for t in taken):
        name += "_"
    return name


def _close(got: float, exact: float, rtol: float, atol: float) -> bool:
    if not (math.isfinite(got) and math.isfinite(exact)):
        # no finite derivative on either side (sqrt at 0: inf vs sympy's zoo) counts as the same answer
        return not math.isfinite(got) and not math.isfinite(exact)
    return abs(got - exact) <= atol + rtol * abs(exact)


def _difference(a: float, b: float) -> float:
    return abs(a - b) if math.isfinite(a) and math.isfinite(b) else math.inf


def _element(entry: dict) -> str:
    return entry["tensor"] + (f"[{', '.join(map(str, entry['index']))}]" if entry["index"] else "")


def _fmt(value: float) -> str:
    return format_number(value + 0.0).removesuffix(".0")  # + 0.0 turns -0.0 into 0.0


def _vanishes(expr, subs, scale) -> bool:
    value = value_at(expr, subs)
    return math.isfinite(value) and abs(value) <= 1e-12 * scale


def _tie(exprs, subs, scale, largest=True) -> bool:
    values = [value_at(e, subs) for e in exprs]
    if len(values) < 2 or not all(math.isfinite(v) for v in values):
        return False
    best = max(values) if largest else min(values)
    return sum(abs(v - best) <= 1e-12 * scale for v in values) >= 2


def _at_kink(derivative, subs, scale) -> bool:
    """Does this derivative jump at the point, so that its value there is a convention (Heaviside(0),
    sign(0), DiracDelta(0), the boundary of a Piecewise)?  Max and Min are continuous: ties inside them
    do not matter."""
    derivative = sp.sympify(derivative)
    for f in derivative.atoms(sp.Heaviside, sp.sign, sp.DiracDelta):
        if _vanishes(f.args[0], subs, scale):
            return True
    for f in derivative.atoms(sp.Piecewise):
        for _, cond in f.args:
            if isinstance(cond, Relational) and _vanishes(cond.lhs - cond.rhs, subs, scale):
                return True
    return False


def _kink_active(kink: Kink, subs, scale) -> bool:
    if kink.kind == "zero":
        return _vanishes(kink.exprs[0], subs, scale)
    return _tie(kink.exprs, subs, scale, largest=kink.kind == "max-tie")


def _patterns(derivatives: dict, symbols: dict) -> dict:
    """{name: (x_i, formula)} for tensors whose every element follows one formula, found by renaming each
    element's symbols (and the broadcast-aligned symbols of the other tensors) to index letters."""
    found = {}
    for name, deriv in derivatives.items():
        shape = deriv.shape
        if deriv.size < 2 or len(shape) > len(INDEX_LETTERS):
            continue
        letters = INDEX_LETTERS[:len(shape)]
        forms = set()
        for idx in np.ndindex(shape):
            renames = {}
            for other, syms in symbols.items():
                offset = len(shape) - syms.ndim
                aligned = offset >= 0 and all(s in (1, shape[offset + d]) for d, s in enumerate(syms.shape))
                if syms.ndim == 0 or not aligned:
                    continue
                at = tuple(idx[offset + d] if s != 1 else 0 for d, s in enumerate(syms.shape))
                label = "_".join([other, *(letters[offset + d] if s != 1 else "0" for d, s in enumerate(syms.shape))])
                renames[syms[at]] = sp.Symbol(label, real=True)
            forms.add(sp.sympify(deriv[idx]).xreplace(renames))
            if len(forms) > 1:
                break
        if len(forms) == 1:
            found[name] = (sp.Symbol("_".join([name, *letters]), real=True), forms.pop())
    return found
