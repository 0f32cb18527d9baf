"""The calculator behind `gradcli eval`: parse, build tensors, evaluate, backward, collect the results.

Pure data in, pure data out (no printing): the renderers turn an `EvalResult` into a table or JSON.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from . import engine
from .engine import Tensor, dtypes
from .engine.errors import EngineError
from .errors import EvalError, GradcliError, InputError
from .lang.evaluator import EngineBackend, evaluate
from .lang.parser import Program, parse
from .limits import Limits


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
    extras: dict = field(default_factory=dict)  # later features: "symbolic", "numeric", ...


class TimeLimit(GradcliError):
    pass


@contextmanager
def time_limit(seconds: float):
    """Interrupt the evaluation after `seconds` (main thread only; elsewhere the limit is not enforced)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum, frame):
        raise TimeLimit(f"evaluation took longer than {seconds:g} s", hint="raise it with --timeout")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def engine_settings(dtype: dtypes.DType, limits: Limits):
    """The calculator's numeric mode: `dtype` for new tensors, the size limit for every op."""
    prev_dtype, prev_limit = engine.get_default_dtype(), engine.SizeLimit.max_elements
    engine.set_default_dtype(dtype)
    engine.SizeLimit.max_elements = limits.max_elements
    try:
        with np.errstate(all="ignore"):  # nan/inf are results here, reported as warnings, not numpy noise
            yield
    finally:
        engine.set_default_dtype(prev_dtype)
        engine.SizeLimit.max_elements = prev_limit


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
    if missing:
        listing = ", ".join(missing)
        raise EvalError(f"no value given for {listing}", source=program.source,
                        span=_first_use_span(program, missing[0]),
                        hint="give values as NAME=VALUE, e.g. " + " ".join(f"{n}=1.0" for n in missing))
    with engine_settings(dtype, limits), time_limit(limits.max_seconds):
        tensors = {name: Tensor._make(np.array(v, dtype=dtype.np), None).requires_grad_(True)
                   for name, v in inputs.items()}
        constants = {name: Tensor._make(np.array(v, dtype=dtype.np), None) for name, v in consts.items()}
        out = evaluate(program, EngineBackend({**tensors, **constants}, dtype))
        out = _as_output(out, program)
        result = EvalResult(expression, program, out.array, {}, grad_output)
        used = set(program.variables)
        for name, t in {**tensors, **constants}.items():
            result.tensors[name] = TensorReport(name, t.array, t.requires_grad, used=name in used)
        result.error = _backward(out, grad_output, dtype)
        for name, t in tensors.items():
            grad = t._grad
            result.tensors[name].grad = None if grad is None else grad.array
    for name, report in result.tensors.items():
        if not report.used:
            result.warnings.append(f"{name} is not used by the expression; its .grad stays None")
        elif report.grad is not None and not np.all(np.isfinite(report.grad)):
            kinds = [k for k, bad in (("nan", np.isnan(report.grad).any()), ("inf", np.isinf(report.grad).any()))
                     if bad]
            result.warnings.append(f"{name}.grad contains {' and '.join(kinds)}")
    return result


def _as_output(out, program: Program) -> Tensor:
    if isinstance(out, tuple):
        raise EvalError("the expression gives several values (such as values and indices)",
                        source=program.source, span=(0, len(program.source)),
                        hint="pick one: add [0] or .values")
    if isinstance(out, (int, float, bool)):
        return Tensor._make(np.asarray(float(out)), None)
    if not isinstance(out, Tensor):
        raise EvalError(f"the expression gives a {type(out).__name__}, not a tensor", source=program.source,
                        span=(0, len(program.source)))
    return out


def _backward(out: Tensor, grad_output: np.ndarray | None, dtype) -> str | None:
    """Run backward as torch would; return PyTorch's error message instead of raising it."""
    gradient = None
    if grad_output is not None:
        gradient = Tensor._make(np.broadcast_to(np.asarray(grad_output, dtype=out.array.dtype), out.array.shape)
                                if np.ndim(grad_output) == 0 else np.asarray(grad_output, dtype=out.array.dtype),
                                None)
    try:
        out.backward(gradient)
    except EngineError as err:
        return str(err)
    return None


def _first_use_span(program: Program, name: str):
    import ast

    for node in ast.walk(program.tree):
        if isinstance(node, ast.Name) and node.id == name:
            return program.span(node)
    return None
