"""One expression evaluated on tensors and differentiated: what every feature starts from.

`evaluate_expression` parses, builds the leaf tensors, evaluates over the engine, runs backward as PyTorch
would and returns an `EvalResult` (pure data: the renderers turn it into a table or JSON).  The calculator
(calc), explain (homework) and the checks (verify) all build on it.
"""

from __future__ import annotations

import ast
import re
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from gradcli.engine import Tensor, dtypes, state
from gradcli.engine.errors import EngineError
from gradcli.engine.ops import sizes
from gradcli.engine.state import Budget
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import Program, parse
from gradcli.safety.errors import EvalError, InputError
from gradcli.safety.guard import MemoryLimit, TimeLimit, current_deadline, time_limit
from gradcli.safety.limits import Limits


@dataclass
class TensorReport:
    name: str
    value: np.ndarray
    requires_grad: bool
    grad: np.ndarray | None = None
    used: bool = True


@dataclass
class EvalResult:
    expression: str
    program: Program
    output: np.ndarray | None
    tensors: dict[str, TensorReport]
    grad_output: np.ndarray | None = None
    error: str | None = None  # PyTorch's error when backward could not run (the output is still shown)
    warnings: list[str] = field(default_factory=list)
    inputs_finite: bool = True  # every tensor value and the grad_output were finite
    extras: dict = field(default_factory=dict)  # later features: "symbolic", "numeric", ...

    def disagreements(self) -> list[str]:
        """What the independent checks (sympy, finite differences) found autograd got wrong: each is a gradcli
        bug, so `eval` says it on stderr and exits 1 unless --no-strict."""
        return [check["disagreement"] for check in (self.extras.get(k) for k in ("symbolic", "numeric"))
                if check and check.get("status") == "disagrees" and check.get("disagreement")]


@contextmanager
def engine_settings(dtype: dtypes.DType, limits: Limits, *, budget: bool = True):
    """The calculator's numeric mode: `dtype` for new tensors, the size limit for every op and (unless
    `budget=False`: rows mode gives each row its own, see `call_budget`) the budget of the block, all in
    context variables: another thread's call never sees them, and they are gone when the block ends."""
    tokens = (dtypes._DefaultsType.float_dtype.var.set(dtype),
              sizes._SizeLimitType.max_elements.var.set(limits.max_elements))
    try:
        with np.errstate(all="ignore"):  # nan/inf are results here, reported as warnings, not numpy noise
            if budget:
                with call_budget(limits):
                    yield
            else:
                yield
    finally:
        sizes._SizeLimitType.max_elements.var.reset(tokens[1])
        dtypes._DefaultsType.float_dtype.var.reset(tokens[0])


@contextmanager
def call_budget(limits: Limits, what: str = "evaluation", thing: str = "the evaluation"):
    """The time and memory of one evaluation (engine/state.py's Budget: the cost model, the memory its tensors
    take, its deadline looked at by every op): running out raises the guard's TimeLimit or MemoryLimit from
    inside the op, with the messages the guard itself would give."""
    seconds, memory = limits.max_seconds, limits.max_memory_mb
    budget = Budget(seconds, memory,
                    time_error=lambda detail: TimeLimit(f"{what} took longer than {seconds:g} s{detail}",
                                                        hint="raise it with --timeout"),
                    memory_error=lambda: MemoryLimit(f"{thing} needed more than the memory limit of {memory:g} MB",
                                                     hint="use smaller tensors, or raise the limit with --max-memory"))
    outer = current_deadline()
    if outer is not None and outer.expiry <= budget.expiry:  # the deadline that will fire first: its words
        budget.expiry = outer.expiry
        budget.time_error = lambda detail: outer.error(outer.message + detail, outer.hint)
    token = state.BUDGET.set(budget)
    try:
        yield budget
    finally:
        state.BUDGET.reset(token)


def const_array(value, dtype: dtypes.DType) -> np.ndarray:
    """A constant's array as the calculator holds it: integers int64 and booleans bool, as `torch.tensor` types
    them (class indices, index tensors), anything else floating in `dtype`."""
    array = np.asarray(value)
    if array.dtype.kind == "b":
        return np.array(array, dtype=np.bool_)
    if array.dtype.kind in "iu":
        return np.array(array, dtype=np.int64)
    return np.array(array, dtype=dtype.np)


def evaluate_expression(expression: str, inputs: dict[str, np.ndarray], consts: dict[str, np.ndarray] | None = None,
                        *, grad_output: np.ndarray | None = None, dtype: dtypes.DType = dtypes.float64,
                        limits: Limits | None = None) -> EvalResult:
    limits = limits or Limits()
    consts = consts or {}
    clash = sorted(set(inputs) & set(consts))
    if clash:
        raise InputError(f"'{clash[0]}' is given both as a tensor and as --const")
    given = frozenset(inputs) | frozenset(consts)
    program = parse(expression, limits, known_variables=given)
    missing = [n for n in program.variables if n not in given]
    if missing and missing[0] in ("np", "numpy", "scipy", "jnp"):  # np.sin(x): numpy's, not an autograd op
        called = re.search(rf"\b{missing[0]}\s*\.\s*(\w+)", program.source)
        fn = called.group(1) if called else "sin"
        raise EvalError(f"{missing[0]}.{fn} is not part of an expression: gradcli differentiates PyTorch's operations",
                        source=program.source, span=_first_use_span(program, missing[0]),
                        hint=f"write torch's spelling, torch.{fn}(...) or x.{fn}(); `gradcli ops` lists them")
    notation = next((n for n in missing if n == "π" or "·" in n), None)
    if notation is not None:  # math notation a newcomer types: Python reads π and x·y as names
        if "·" in notation:
            raise EvalError(f"'·' is not multiplication in eval: {notation} is read as one name",
                            source=program.source, span=_first_use_span(program, notation),
                            hint=f"write {notation.replace('·', '*')} (gradcli check, explain and steps read ·)")
        raise EvalError("no value given for π: eval spells the constant pi", source=program.source,
                        span=_first_use_span(program, notation), hint="write pi (or bind π=VALUE to use it as a name)")
    if missing:
        listing = ", ".join(missing)
        raise EvalError(f"no value given for {listing}", source=program.source,
                        span=_first_use_span(program, missing[0]),
                        hint="give values as NAME=VALUE, e.g. " + " ".join(f"{n}=1.0" for n in missing))
    with engine_settings(dtype, limits), time_limit(limits.max_seconds):
        tensors = {name: Tensor._make(np.array(v, dtype=dtype.np), None).requires_grad_(True)
                   for name, v in inputs.items()}
        constants = {name: Tensor._make(const_array(v, dtype), None) for name, v in consts.items()}
        try:
            out = evaluate(program, EngineBackend({**tensors, **constants}, dtype))
        except EvalError as err:
            if err.hint is None:
                err.hint = index_dtype_hint(err.message, program, inputs, consts)
            raise
        out = as_output(out, program)
        result = EvalResult(expression, program, out.array, {}, grad_output)
        used = set(program.variables)
        for name, t in {**tensors, **constants}.items():
            result.tensors[name] = TensorReport(name, t.array, t.requires_grad, used=name in used)
        result.error = backward_error(out, grad_output, dtype)
        for name, t in tensors.items():
            grad = t._grad
            result.tensors[name].grad = None if grad is None else grad.array
    given = [*inputs.values(), *consts.values(), *([] if grad_output is None else [grad_output])]
    result.inputs_finite = all(np.all(np.isfinite(v)) for v in given)
    if result.inputs_finite and not np.all(np.isfinite(result.output)):
        result.warnings.append(f"the output contains {_kinds(result.output)} though every input is finite "
                               "(an overflow, or a point outside a function's domain)")
    for name, report in result.tensors.items():
        if not report.used:
            result.warnings.append(f"{name} is not used by the expression; its .grad stays None")
        elif report.grad is not None and not np.all(np.isfinite(report.grad)):
            result.warnings.append(f"{name}.grad contains {_kinds(report.grad)}")
    return result


# torch's errors when a floating tensor reaches an argument that takes class indices or an index tensor
_INDEX_DTYPE_ERRORS = ("expected target dtype to be Long or Byte", "expected scalar type Long but found",
                       "Expected dtype int32", "Expected dtype int64", "dtype of indices should be Long",
                       "only applicable to index tensor", "Expected tensor for argument #1 'indices'",
                       "tensors used as indices must be long")


def index_dtype_hint(message: str, program: Program, inputs: dict, consts: dict) -> str | None:
    """A hint for torch's error when a floating tensor is given where class indices belong: name the tensor
    and the --const that types it as int64."""
    if not any(text in message for text in _INDEX_DTYPE_ERRORS):
        return None
    used = set(program.variables)
    floats = [(n, v) for n, v in {**consts, **inputs}.items() if n in used and np.asarray(v).dtype.kind == "f"]
    integral = [(n, np.asarray(v)) for n, v in floats
                if np.all(np.isfinite(v)) and np.all(np.asarray(v) == np.trunc(v))]
    candidates = integral or [(n, np.asarray(v)) for n, v in floats] or [("t", np.asarray([0]))]
    # in the expression's order: embedding's indices (its argument #1) come first, a loss's target or an
    # index_select/gather index after the input it selects from
    order = program.variables
    candidates = sorted(candidates, key=lambda c: order.index(c[0]) if c[0] in order else len(order),
                        reverse="argument #1" not in message)
    name, value = candidates[0]
    shown = np.trunc(value).astype(np.int64) if np.all(np.isfinite(value)) else np.asarray([0])
    text = str(shown.tolist()).replace(" ", "")
    if len(text) > 40 or shown.size > 8:
        text = f"long(@{name}.npy)"
    where = "" if name in consts else f" ({name} requires grad, so it is floating)"
    kind = "class indices" if "target" in message else "indices"
    return (f"pass the {kind} as integers: --const {name}={text}{where}; a list of integers is int64, "
            "as torch.tensor([0]) is")


def _kinds(array) -> str:
    return " and ".join(k for k, bad in (("nan", np.isnan(array).any()), ("inf", np.isinf(array).any())) if bad)


def produced_non_finite(result: EvalResult) -> bool:
    """nan or inf in the output or a gradient although every input was finite (`--strict` exits 1)."""
    return bool(non_finite_grads(result)) or (result.inputs_finite and not np.all(np.isfinite(result.output)))


def non_finite_grads(result: EvalResult) -> list[str]:
    """The tensors whose .grad holds nan or inf (`eval --strict` fails on them: exit 1)."""
    return [name for name, t in result.tensors.items() if t.grad is not None and not np.all(np.isfinite(t.grad))]


def as_output(out, program: Program) -> Tensor:
    if isinstance(out, tuple):
        fields = getattr(out, "_fields", None) or ("values", "indices")
        raise EvalError(f"the expression gives several values ({', '.join(fields)})",
                        source=program.source, span=(0, len(program.source)),
                        hint=f"take one: add .{fields[0]} (or [0])" + (f", or .{fields[1]}" if len(fields) > 1 else ""))
    if isinstance(out, (int, float, bool)):
        return Tensor._make(np.asarray(float(out)), None)
    if not isinstance(out, Tensor):
        raise EvalError(f"the expression gives a {type(out).__name__}, not a tensor", source=program.source,
                        span=(0, len(program.source)))
    return out


def backward_error(out: Tensor, grad_output: np.ndarray | None, dtype) -> str | None:
    """Run backward as torch would; return PyTorch's error message instead of raising it. `grad_output`
    must have the output's shape, as torch's `gradient=` must: a scalar for a (2,) output is torch's
    "Mismatch in shape" error, never broadcast."""
    gradient = None
    if grad_output is not None:
        gradient = Tensor._make(np.asarray(grad_output, dtype=out.array.dtype), None)
    try:
        out.backward(gradient)
    except EngineError as err:
        return str(err)
    return None


def _first_use_span(program: Program, name: str):
    for node in ast.walk(program.tree):
        if isinstance(node, ast.Name) and node.id == name:
            return program.span(node)
    return None


