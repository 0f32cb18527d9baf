"""The Python API: what the commands give, as data.

    >>> import gradcli
    >>> r = gradcli.grad("(x**2).sum()", x=[1, 2, 3])
    >>> float(r.output), r.grads["x"].tolist(), r.check
    (14.0, [2.0, 4.0, 6.0], 'agrees')

    >>> f = gradcli.compile("sin(x)*y**2 + exp(-x*y)")
    >>> out = f(x=[0.0, 1.0], y=[2.0, 3.0])          # one row per element, as `eval --rows`
    >>> out.output.round(6).tolist(), out.grads["y"].round(6).tolist()
    ([1.0, 7.623026], [0.0, 4.999039])

    >>> gradcli.check("x^2 sin x", expect="2x sin x + x^2 cos x").verdict
    'correct'

Errors are `gradcli.GradcliError` (bad input: `.message`, `.hint`, `.span` into `.source`) and the engine's
PyTorch-named errors (`gradcli.EngineError`), the same limits as the command line (`gradcli.Limits`).
"""

from __future__ import annotations

import contextvars
import functools
import io
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from gradcli.calc.calculator import calculate
from gradcli.calc.rows import RowError, RowEvaluator
from gradcli.engine import dtypes
from gradcli.engine.errors import EngineError
from gradcli.engine.kernels import mode as kernel_mode
from gradcli.homework.check import check_derivative  # sympy itself is imported only when a check runs
from gradcli.lang.evaluation import const_array, engine_settings
from gradcli.run import RunLimits, run_source
from gradcli.safety.errors import GradcliError, InputError
from gradcli.safety.guard import deadline
from gradcli.safety.limits import Limits

__all__ = ["grad", "compile", "check", "run_program", "GradResult", "Compiled", "ColumnsResult", "CheckResult",
           "RunResult", "RunLimits", "GradcliError", "EngineError", "Limits"]

_DTYPES = {"float64": dtypes.float64, "float32": dtypes.float32}


def _dtype(name: str) -> dtypes.DType:
    try:
        return _DTYPES[name]
    except (KeyError, TypeError):
        raise InputError(f"dtype must be float64 or float32, not {name!r}", hint='e.g. dtype="float32"') from None


_VALUE_HINT = "give a number, a list of numbers or a real numpy array"


def _array(name: str, value, dtype: dtypes.DType, limits: Limits, *, const: bool = False) -> np.ndarray:
    """A value as an array: floating in `dtype`; a constant (`const`) of integers or booleans keeps its type
    as torch.tensor gives it (int64, bool), so class indices can be given, as `eval --const t=[0]`."""
    if isinstance(value, str):
        raise InputError(f"{name}: give a number, a list or a numpy array, not a string",
                         hint="the command line's value syntax (randn(3), @file) is for the command line")
    if value is None or isinstance(value, (bytes, bytearray, memoryview)):
        raise InputError(f"{name}: not a numeric value ({type(value).__name__})", hint=_VALUE_HINT)
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as err:
        raise InputError(f"{name}: not a numeric array ({err})", hint=_VALUE_HINT) from None
    if array.dtype.kind == "c":
        raise InputError(f"{name}: complex values are not supported (gradcli computes with real numbers)",
                         hint="pass the real and imaginary parts as two tensors")
    if array.dtype.kind not in "biuf":
        what = "numbers too large for a float" if array.dtype.kind == "O" and _huge_int(array) else \
            f"values of type {array.dtype}"
        raise InputError(f"{name}: not a numeric array ({what})", hint=_VALUE_HINT)
    if array.size > limits.max_elements:
        raise InputError(f"{name} has {array.size} elements, more than the limit of {limits.max_elements}")
    if const and array.dtype.kind in "iub":
        return const_array(array, dtype)
    with np.errstate(over="ignore"):
        return array.astype(dtype.np, copy=False)


def _huge_int(array: np.ndarray) -> bool:
    return any(isinstance(v, int) for v in array.flat)


def _expression(expression) -> str:
    if not isinstance(expression, str):
        raise InputError(f"the expression must be a string, not {type(expression).__name__}",
                         hint='e.g. gradcli.grad("(x**2).sum()", x=[1, 2, 3])')
    return expression


def _mapping(name: str, value) -> Mapping:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(f"{name} must be a dict of names to values, not {type(value).__name__}",
                         hint=f'e.g. {name}={{"z": 4}}')
    return value


def _limits(limits, kind=Limits):
    if limits is None:
        return kind()
    if not isinstance(limits, kind):
        raise InputError(f"limits must be gradcli.{kind.__name__}(...), not {type(limits).__name__}",
                         hint=f"e.g. limits=gradcli.{kind.__name__}(max_seconds=5)")
    return limits


def _isolated(fn):
    """Run each API call in a copy of the caller's context (the engine's settings are context variables:
    nothing a call sets is seen by the caller or another thread afterwards), and leave the warning filters as
    they were (importing numpy or sympy on first use adds some)."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        before = list(warnings.filters)
        try:
            return contextvars.copy_context().run(fn, *args, **kwargs)
        finally:
            if len(warnings.filters) != len(before):
                drop_import_filters(before)

    return call


def drop_import_filters(before: list) -> None:
    """Remove the warning filters that importing numpy or sympy added since `before` (never the caller's):
    sympy's SymPyDeprecationWarning "once", numpy's "size changed" and RankWarning ones."""
    known = {id(f) for f in before}
    for f in [f for f in warnings.filters if id(f) not in known and _library_filter(f)]:
        warnings.filters.remove(f)
    warnings._filters_mutated()


def _library_filter(f) -> bool:
    module = getattr(f[2], "__module__", "") or ""
    return module.split(".")[0] in ("numpy", "sympy", "mpmath") or "size changed" in getattr(f[1], "pattern", "")


@dataclass
class GradResult:
    """One evaluation and backward, as `gradcli eval --json` reports it."""

    expression: str
    output: np.ndarray
    grads: dict[str, np.ndarray | None]
    values: dict[str, np.ndarray]
    check: str  # the sympy cross-check: "agrees", "convention", "disagrees", "skipped" or "off"
    check_detail: dict = field(default_factory=dict)
    error: str | None = None  # backward's error (PyTorch's text), e.g. a non-scalar output without grad_output

    def __repr__(self) -> str:
        grads = ", ".join(f"{n}={g!r}" for n, g in self.grads.items())
        return f"GradResult(output={self.output!r}, grads={{{grads}}}, check={self.check!r})"


def _bits(bits: str | None, default: str = kernel_mode.FAST) -> str:
    """The kernels a call computes with: `bits` ('fast' or 'torch'), else GRADCLI_BITS, else `default`."""
    try:
        return kernel_mode.parse(bits) if bits is not None else kernel_mode.from_environment(default)
    except ValueError as err:
        raise InputError(str(err) if bits is not None else f"GRADCLI_BITS: {err}",
                         hint="'fast': numpy's kernels, within the ulps docs/deviations.md states; "
                              "'torch': PyTorch's own bits") from None


@_isolated
def grad(expression: str, *, consts: Mapping | None = None, grad_output=None, check: bool | None = None,
         dtype: str = "float64", limits: Limits | None = None, bits: str | None = None, **values) -> GradResult:
    """Evaluate `expression` with `values` as tensors that require grad (and `consts` as ones that do not),
    run backward (with `grad_output` for a non-scalar output) and cross-check with sympy as `eval` does
    (check=None: when the inputs are small; True: always; False: never).  `bits`: 'fast' (the default, or
    GRADCLI_BITS) or 'torch' (PyTorch's own bits from the elementwise kernels), for this call only."""
    expression = _expression(expression)
    limits = _limits(limits)
    with kernel_mode.bits(_bits(bits)):
        return _grad(expression, consts, grad_output, check, dtype, limits, values)


def _grad(expression, consts, grad_output, check, dtype, limits, values) -> GradResult:
    dt = _dtype(dtype)
    inputs = {name: _array(name, v, dt, limits) for name, v in values.items()}
    constants = {name: _array(name, v, dt, limits, const=True) for name, v in _mapping("consts", consts).items()}
    gout = None if grad_output is None else _array("grad_output", grad_output, dt, limits)
    seconds = limits.max_seconds  # the whole call, as the command line's --timeout bounds the whole command
    with deadline(seconds, f"evaluation took longer than {seconds:g} s", hint="raise it with --timeout"):
        result = calculate(expression, inputs, constants, grad_output=gout, dtype=dt, limits=limits, check=check)
    detail = result.extras.get("symbolic", {})
    status = detail.get("status", "off")
    grads = {name: t.grad if t.requires_grad else None for name, t in result.tensors.items()}
    return GradResult(expression, np.asarray(result.output), grads,
                      {name: t.value for name, t in result.tensors.items()}, status, detail, result.error)


@dataclass
class ColumnsResult:
    """A compiled expression over columns: one output and one gradient per row."""

    output: np.ndarray
    grads: dict[str, np.ndarray]
    errors: dict[int, str]  # row index -> the error of that row (its output and grads are nan)


class Compiled:
    """An expression parsed once, evaluated over columns of values: row i binds every name to its i-th
    element, exactly as `gradcli eval EXPR --rows FILE` does for row i (batched when the expression is
    row-wise, one row at a time otherwise; the numbers are the same either way)."""

    def __init__(self, expression: str, *, consts: Mapping | None = None, dtype: str = "float64",
                 limits: Limits | None = None, bits: str | None = None):
        expression = _expression(expression)
        self.bits = _bits(bits)
        self.limits = _limits(limits)
        self.dtype = _dtype(dtype)
        consts = {n: _array(n, v, self.dtype, self.limits, const=True)
                  for n, v in _mapping("consts", consts).items()}
        self.expression = expression
        self._rows = RowEvaluator(expression, {}, consts, dtype=self.dtype, limits=self.limits)
        self._rows.batch_limit_is_final = True
        self.program, self.variables, self.rowwise = self._rows.program(())

    def __repr__(self) -> str:
        return f"gradcli.compile({self.expression!r})  # variables: {', '.join(self.variables)}"

    @_isolated
    def __call__(self, **columns) -> ColumnsResult:
        with kernel_mode.bits(self.bits):  # this call's own: concurrent calls keep theirs
            return self._call(columns)

    def _call(self, columns: dict) -> ColumnsResult:
        missing = [n for n in self.variables if n not in columns]
        if missing:
            raise InputError(f"no values given for {', '.join(missing)}", source=self.expression)
        unknown = sorted(set(columns) - set(self.variables))
        if unknown:
            raise InputError(f"the expression does not use {', '.join(unknown)}", source=self.expression)
        cols = {n: _array(n, columns[n], self.dtype, self.limits) for n in self.variables}
        lengths = {c.shape for c in cols.values()}
        if any(c.ndim != 1 for c in cols.values()) or len(lengths) > 1:
            raise InputError("columns must be one-dimensional and of equal length",
                             hint=", ".join(f"{n}: shape {c.shape}" for n, c in cols.items()))
        n = next(iter(lengths))[0] if lengths else 1
        program = self._rows.program(cols)[0]  # a column named like a constant (e, pi) is a variable
        with engine_settings(self.dtype, self.limits, budget=False):  # each row (or the batch) its own budget
            batched = self._rows.batch(program, cols, n) if self.rowwise and cols else None
            if batched is None and not self.rowwise and cols and self._rows.batchable(program):
                # full reductions of scalar rows: one pass with a batch dimension, as rows mode (issue 29, item 14)
                batched = self._rows.batch_rows(program, [{k: c[i] for k, c in cols.items()} for i in range(n)],
                                                list(cols))
            if batched is not None:
                output, grads = batched
                return ColumnsResult(np.asarray(output), {name: np.asarray(g) for name, g in grads.items()}, {})
            return self._loop(program, cols, n)

    def _loop(self, program, cols: dict, n: int) -> ColumnsResult:
        output = np.full(n, np.nan, dtype=self.dtype.np)
        grads = {name: np.full(n, np.nan, dtype=self.dtype.np) for name in cols}
        errors = {}
        for i in range(n):
            try:
                out, row_grads = self._rows.one(program, {name: c[i] for name, c in cols.items()})
            except RowError as err:
                errors[i] = str(err)
                continue
            if np.ndim(out) != 0:
                errors[i] = f"the output has shape {np.shape(out)}; a compiled function returns one number a row"
                continue
            output[i] = out
            for name, g in row_grads.items():
                grads[name][i] = 0.0 if g is None else g
        return ColumnsResult(output, grads, errors)


@_isolated
def compile(expression: str, *, consts: Mapping | None = None, dtype: str = "float64",  # noqa: A001 - the API's name
            limits: Limits | None = None, bits: str | None = None) -> Compiled:
    """Parse `expression` once; call the result with one column (1-d array) per variable.  `bits` as for
    grad, fixed when compiled."""
    return Compiled(expression, consts=consts, dtype=dtype, limits=limits, bits=bits)


@dataclass
class CheckResult:
    """The verdict of `gradcli check` on each expected answer, as data."""

    verdict: str  # "correct", "incorrect", "undecided", "agrees" (numbers only, no proof): the worst over all
    results: list[dict]  # one per answer: verdict, reason, counterexample, the derivative (the key)
    key: list[str | None]  # the true derivative of each result, as sympy writes it
    report: object  # the full homework CheckReport (what `check --json` prints: report.to_dict())

    @property
    def counterexample(self):
        return next((r["counterexample"] for r in self.results if r.get("counterexample")), None)


@_isolated
def check(function: str, expect, *, wrt=None, order: int = 1, timeout: float = 5.0,
          limits: Limits | None = None) -> CheckResult:
    """Check a derivative written in homework notation, as `gradcli check FUNCTION --expect ANSWER`."""
    expectations = [expect] if isinstance(expect, str) else list(expect)
    report = check_derivative(function, expectations, wrt=wrt, order=order, timeout=timeout, limits=limits)
    data = report.to_dict()
    verdicts = [r["verdict"] for r in data["results"]]
    for worst in ("incorrect", "undecided"):
        if worst in verdicts:
            break
    else:
        unproven = any(r["verdict"] == "correct" and r.get("proven") is False for r in data["results"])
        worst = "agrees" if unproven else verdicts[0] if verdicts else "computed"
    return CheckResult(worst, data["results"], [r["derivative"] for r in data["results"]], report)


@dataclass(frozen=True)
class RunResult:
    """What `gradcli run` would print and return."""

    exit_code: int
    stdout: str
    stderr: str


@_isolated
def run_program(program: str, *, filename: str = "<program>", args: Mapping | None = None,
        limits: RunLimits | None = None, bits: str | None = None) -> RunResult:
    """Run a PyTorch program's text on gradcli's engine, as `gradcli run`: what it printed and its exit code
    (`bits`: 'torch', PyTorch's own bits, unless GRADCLI_BITS or this says 'fast')."""
    program = _expression(program)
    limits = _limits(limits, RunLimits)
    out, err = io.StringIO(), io.StringIO()
    code = run_source(program, filename, stdout=out, stderr=err, limits=limits,
                      bindings=dict(_mapping("args", args)), bits=_bits(bits, kernel_mode.TORCH))
    return RunResult(code, out.getvalue(), err.getvalue())
