"""The calculator behind `gradcli eval`: beyond the evaluation itself (lang.evaluation), its trust features
(the sympy cross-check, finite differences) and higher derivatives (Hessian, Jacobian, d^n/dx^n), stored in
the result as data.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import Tensor, dtypes, functional
from gradcli.engine.errors import EngineError
from gradcli.lang.evaluation import EvalResult, as_output, const_array, engine_settings, evaluate_expression
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import Program
from gradcli.safety.errors import EvalError, GradcliError
from gradcli.safety.guard import cpu_budget, cpu_seconds, time_limit
from gradcli.safety.limits import Limits
from gradcli.verify.numeric import NotConverged, high_precision_check
from gradcli.verify.numeric import gradcheck as finite_difference_check


def calculate(expression: str, inputs: dict[str, np.ndarray], consts: dict[str, np.ndarray] | None = None, *,
              grad_output: np.ndarray | None = None, dtype: dtypes.DType = dtypes.float64,
              limits: Limits | None = None, check: bool | None = None, check_limit: int = 64,
              check_timeout: float | None = 5.0, latex: bool = False, gradcheck: bool = False,
              hessian: bool = False, jacobian: bool = False, order: int | None = None) -> EvalResult:
    """What `gradcli eval` computes for one evaluation: the expression evaluated and differentiated, its
    cross-checks (see attach_checks) and higher derivatives (see attach_derivatives), as data."""
    result = evaluate_expression(expression, inputs, consts, grad_output=grad_output, dtype=dtype, limits=limits)
    attach_checks(result, check=check, check_limit=check_limit, check_timeout=check_timeout, latex=latex,
                  gradcheck=gradcheck, dtype=dtype)
    attach_derivatives(result, hessian=hessian, jacobian=jacobian, order=order, dtype=dtype, limits=limits)
    return result


# The default (automatic) check budget keeps `gradcli eval` of a small input within ~1 s of CPU in all (start-up
# and the evaluation take ~0.4 s): the check gets CHECK_CPU_SECONDS, sympy's import included; sympy gets what is
# left of it less NUMERIC_RESERVE for the numeric check that decides when sympy does not finish, and never less
# than MIN_SYMPY_SECONDS.  CPU time, measured as a difference: the same verdicts on a loaded machine.
CHECK_CPU_SECONDS = 0.5
NUMERIC_RESERVE = 0.1
MIN_SYMPY_SECONDS = 0.1
NUMERIC_SECONDS = 2.0  # the numeric check's own CPU budget (it takes ~10-100 ms on the inputs sympy gets)
GRADCHECK_SECONDS = 5.0  # --gradcheck's wall-time budget when --check-timeout is automatic


def attach_checks(result: EvalResult, *, check: bool | None = None, check_limit: int = 64,
                  check_timeout: float | None = 5.0, latex: bool = False, gradcheck: bool = False,
                  dtype: dtypes.DType = dtypes.float64, first: bool = False) -> None:
    """`eval`'s trust features, stored in result.extras: "symbolic" (the verdict on the gradients: on by
    default when the inputs have at most `check_limit` elements, forced by check=True, off with check=False)
    and "numeric" (finite differences, with `gradcheck`).  sympy is imported only if the check runs.

    The verdict is sympy's (exact derivatives) when sympy finishes within `check_timeout` CPU seconds (None: the
    automatic budget above), else an independent numeric check's (verify.numeric.high_precision_check), so
    a small input always gets "agrees", "disagrees" or "convention" and what decided it ("decided_by").
    `first`: the check's lines print before those already attached (a check run after the answer printed)."""
    if check is not False:
        size = sum(t.value.size for t in result.tensors.values())
        if result.error is not None:
            result.extras["symbolic"] = {"status": "skipped", "reason": "backward failed, no gradients to compare"}
        elif check or size <= check_limit:
            result.extras["symbolic"] = verdict(result, timeout=check_timeout, dtype_name=dtype.name, latex=latex)
        else:
            reason = f"too large: {size} input elements, more than --check-limit {check_limit} (--check forces it)"
            result.extras["symbolic"] = {"status": "skipped", "reason": reason}
    if gradcheck:
        result.extras["numeric"] = finite_difference_check(
            result, timeout=GRADCHECK_SECONDS if check_timeout is None else check_timeout)
    if "symbolic" in result.extras or "numeric" in result.extras:
        renders = result.extras.setdefault("_render", [])
        renders.insert(0 if first else len(renders), lambda console: _print_checks(result, console))


def verdict(result: EvalResult, *, timeout: float | None, dtype_name: str = "float64", latex: bool = False) -> dict:
    """sympy's cross-check within its CPU budget; when it cannot finish (or has no symbolic form), the numeric
    check at 30 digits decides.  The report says which ("decided_by": "sympy" or "numeric")."""
    started = cpu_seconds()
    from gradcli.verify.symbolic import cross_check  # sympy: its import counts against the automatic budget

    if timeout is None:
        budget = max(MIN_SYMPY_SECONDS, CHECK_CPU_SECONDS - (cpu_seconds() - started) - NUMERIC_RESERVE)
    else:
        budget = timeout
    report = cross_check(result, timeout=budget, dtype_name=dtype_name, latex=latex)
    if report["status"] != "skipped":
        report["decided_by"] = "sympy"
        return report
    if not all(t.grad is None or np.all(np.isfinite(t.grad)) for t in result.tensors.values()):
        # nan or inf in a gradient: only the exact derivative can tell a convention from a bug
        return {**report, "reason": f"{report['reason']}; a gradient holds nan or inf, which only sympy can judge"}
    seconds = NUMERIC_SECONDS if timeout is None else max(timeout, NUMERIC_SECONDS)
    numeric = numeric_verdict(result, timeout=seconds, dtype_name=dtype_name)
    if numeric.get("status") == "skipped":
        # no 30-digit form (an op sympy does not know): float64 central differences of the engine's forward
        # pass, which is still independent of the backward pass being checked
        differences = finite_difference_check(result, timeout=seconds)
        if differences["status"] == "skipped":
            return {**report, "reason": f"{report['reason']}; the numeric check: {numeric['reason']}"}
        differences.pop("grads", None)
        return {**differences, "decided_by": "numeric", "error_bound": None,
                "method": f"float64 central differences, eps {differences['eps']:g}, atol {differences['atol']:g}, "
                          f"rtol {differences['rtol']:g}",
                "sympy": report["reason"]}
    return {**numeric, "sympy": report["reason"]}


def numeric_verdict(result: EvalResult, *, timeout: float, dtype_name: str = "float64") -> dict:
    """verify.numeric.high_precision_check within `timeout` CPU seconds; "skipped" with the reason when it
    cannot decide (no mpmath form, not converging, out of time)."""
    from gradcli.verify.sympy_forms import NoSymbolicForm

    try:
        with engine_settings(dtypes.by_name(dtype_name), Limits()), \
                cpu_budget(timeout, lambda: NotConverged(f"it took longer than {timeout:g} s of CPU")):
            return high_precision_check(result, dtype_name=dtype_name)
    except NotConverged as err:
        return {"status": "skipped", "reason": str(err)}
    except NoSymbolicForm as err:
        return {"status": "skipped", "reason": err.message}
    except GradcliError as err:
        return {"status": "skipped", "reason": f"it could not evaluate the expression: {err.message}"}
    except (RecursionError, MemoryError, ArithmeticError, ValueError, TypeError) as err:
        return {"status": "skipped", "reason": f"it failed: {type(err).__name__}: {str(err)[:120]}"}


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
        constants = {n: Tensor._make(const_array(t.value, dtype), None)
                     for n, t in result.tensors.items() if not t.requires_grad}
        out = as_output(evaluate(program, EngineBackend({**tensors, **constants}, dtype)), program)
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
