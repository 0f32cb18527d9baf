"""The calculator behind `gradcli eval`: parse, build tensors, evaluate, backward, collect the results.

Pure data in, pure data out (no printing): the renderers turn an `EvalResult` into a table or JSON.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.engine.errors import EngineError
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import Program, parse
from gradcli.safety.errors import EvalError, InputError
from gradcli.safety.guard import TimeLimit, deadline  # noqa: F401  (TimeLimit: re-exported for callers)
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


def time_limit(seconds: float):
    """Raise TimeLimit when the evaluation runs longer than `seconds` (any thread; see `guard.deadline`)."""
    return deadline(seconds, f"evaluation took longer than {seconds:g} s", hint="raise it with --timeout")


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


def _kinds(array) -> str:
    return " and ".join(k for k, bad in (("nan", np.isnan(array).any()), ("inf", np.isinf(array).any())) if bad)


def produced_non_finite(result: EvalResult) -> bool:
    """nan or inf in the output or a gradient although every input was finite (`--strict` exits 1)."""
    return bool(non_finite_grads(result)) or (result.inputs_finite and not np.all(np.isfinite(result.output)))


def non_finite_grads(result: EvalResult) -> list[str]:
    """The tensors whose .grad holds nan or inf (`eval --strict` fails on them: exit 1)."""
    return [name for name, t in result.tensors.items() if t.grad is not None and not np.all(np.isfinite(t.grad))]


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


def attach_checks(result: EvalResult, *, check: bool | None = None, check_limit: int = 64,
                  check_timeout: float = 5.0, latex: bool = False, gradcheck: bool = False,
                  dtype: dtypes.DType = dtypes.float64) -> None:
    """`eval`'s trust features, stored in result.extras: "symbolic" (the sympy cross-check: on by default
    when the inputs have at most `check_limit` elements, forced by check=True, off with check=False) and
    "numeric" (finite differences, with `gradcheck`).  sympy is imported only if the cross-check runs."""
    if check is not False:
        size = sum(t.value.size for t in result.tensors.values())
        if result.error is not None:
            result.extras["symbolic"] = {"status": "skipped", "reason": "backward failed, no gradients to compare"}
        elif check or size <= check_limit:
            from gradcli.verify.symbolic import cross_check

            result.extras["symbolic"] = cross_check(result, timeout=check_timeout, dtype_name=dtype.name,
                                                    latex=latex)
        else:
            reason = f"too large: {size} input elements, more than --check-limit {check_limit} (--check forces it)"
            result.extras["symbolic"] = {"status": "skipped", "reason": reason}
    if gradcheck:
        from gradcli.verify.numeric import gradcheck as finite_difference_check

        result.extras["numeric"] = finite_difference_check(result, timeout=check_timeout)
    if "symbolic" in result.extras or "numeric" in result.extras:
        result.extras.setdefault("_render", []).append(lambda console: _print_checks(result, console))


def _print_checks(result: EvalResult, console) -> None:
    from gradcli.render.symbolic_render import print_checks  # rich is imported only when a table is printed

    print_checks(result.extras, console)


MAX_DERIVATIVE_ORDER = 20


def attach_derivatives(result: EvalResult, *, hessian: bool = False, jacobian: bool = False,
                       order: int | None = None, dtype: dtypes.DType = dtypes.float64,
                       limits: Limits | None = None) -> None:
    """`eval --hessian / --jacobian / --order N`: higher derivatives, stored in result.extras as numbers:
    "hessian" {"x,y": d2 out / dx dy (shape x.shape + y.shape)}, "jacobian" {"x": d out / dx (shape
    out.shape + x.shape)}, "derivatives" {"wrt", "order", "value": dN, "values": [d1, ..., dN]}.
    The expression is evaluated again on fresh tensors and differentiated through its create_graph
    gradient graph."""
    if not (hessian or jacobian or order):
        return
    from gradcli.engine import functional

    limits = limits or Limits()
    program = result.program
    names = [n for n, t in result.tensors.items() if t.requires_grad]
    out_shape = np.shape(result.output)
    sizes = {n: result.tensors[n].value.size for n in names}
    if hessian:
        if int(np.prod(out_shape)) != 1:
            raise EvalError(f"--hessian needs a scalar output; this one has shape {tuple(out_shape)}",
                            source=program.source, span=(0, len(program.source)),
                            hint="reduce it, e.g. with .sum(), or use --jacobian")
        _check_derivative_size(sum(sizes.values()) ** 2, "--hessian", program, limits)
    if jacobian:
        _check_derivative_size(int(np.prod(out_shape)) * sum(sizes.values()), "--jacobian", program, limits)
    if order is not None:
        if not 1 <= order <= MAX_DERIVATIVE_ORDER:
            raise EvalError(f"--order must be between 1 and {MAX_DERIVATIVE_ORDER}, not {order}")
        if len(names) != 1 or sizes[names[0]] != 1 or int(np.prod(out_shape)) != 1:
            raise EvalError("--order N needs one scalar input (NAME=VALUE) and a scalar output",
                            source=program.source, span=(0, len(program.source)),
                            hint="give the other tensors with --const; reduce the output with .sum()")
    with engine_settings(dtype, limits), time_limit(limits.max_seconds):
        tensors = {n: Tensor._make(np.array(result.tensors[n].value, dtype=dtype.np), None).requires_grad_(True)
                   for n in names}
        constants = {n: Tensor._make(np.array(t.value, dtype=dtype.np), None)
                     for n, t in result.tensors.items() if not t.requires_grad}
        out = _as_output(evaluate(program, EngineBackend({**tensors, **constants}, dtype)), program)
        inputs = [tensors[n] for n in names]
        try:
            if hessian:
                blocks = functional.hessian(out, inputs)
                result.extras["hessian"] = {f"{a},{b}": blocks[i, j] for i, a in enumerate(names)
                                            for j, b in enumerate(names)}
            if jacobian:
                result.extras["jacobian"] = dict(zip(names, functional.jacobian(out, inputs)))
            if order is not None:
                values = functional.nth_derivative(out, inputs[0], order)
                result.extras["derivatives"] = {"wrt": names[0], "order": order, "value": values[-1].reshape(()),
                                                "values": [v.reshape(()) for v in values]}
        except EngineError as err:
            raise EvalError(f"higher derivatives failed: {err}") from None
    if jacobian and result.error is not None and "implicitly created only for scalar outputs" in result.error:
        # backward() of a non-scalar output needs --grad-output; the Jacobian is what was asked for
        result.error = None
        result.warnings.append("the output is not a scalar: .grad needs --grad-output (the Jacobian has every "
                               "gradient)")
    result.extras.setdefault("_render", []).append(lambda console: _print_derivatives(result, console))


def _check_derivative_size(n: int, flag: str, program: Program, limits: Limits) -> None:
    if limits.max_elements is not None and n > limits.max_elements:
        raise EvalError(f"{flag} would have {n} entries, more than the limit of {limits.max_elements}",
                        source=program.source, span=(0, len(program.source)), hint="raise it with --max-elements")


def _print_derivatives(result: EvalResult, console) -> None:
    from gradcli.render.derivatives import print_derivatives  # rich is imported only when a table is printed

    print_derivatives(result.extras, console)
