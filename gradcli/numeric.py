"""Finite-difference gradients: central differences in float64, judged as torch.autograd.gradcheck does
(|autograd - numeric| <= atol + rtol * |numeric|).  `gradcli eval --gradcheck` and the tests use it."""

from __future__ import annotations

import numpy as np

from .engine import Tensor, dtypes, no_grad
from .lang.evaluator import EngineBackend, evaluate
from .lang.parser import Program
from .limits import Limits

# torch.autograd.gradcheck's defaults
EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3


def finite_difference_grads(program: Program, inputs: dict[str, np.ndarray], consts: dict | None = None,
                            grad_output: np.ndarray | None = None, *, eps: float = EPS,
                            limits: Limits | None = None) -> dict[str, np.ndarray]:
    """d L / d every element of every input by (L(x + eps) - L(x - eps)) / (2 eps), where L is the
    output (one element) or sum(grad_output * output), all in float64."""
    from .calc import engine_settings

    point = {name: np.array(v, dtype=np.float64) for name, v in inputs.items()}
    fixed = {name: np.array(v, dtype=np.float64) for name, v in (consts or {}).items()}
    weights = None if grad_output is None else np.asarray(grad_output, dtype=np.float64)

    def loss() -> float:
        # fresh tensors each time: an in-place op in the expression must not edit the point
        tensors = {name: Tensor._make(v.copy(), None) for name, v in {**point, **fixed}.items()}
        with no_grad():
            out = evaluate(program, EngineBackend(tensors, dtypes.float64))
        out = np.asarray(out.array if isinstance(out, Tensor) else out, dtype=np.float64)
        return float(np.sum(out * weights)) if weights is not None else float(out.reshape(()))

    grads = {}
    with engine_settings(dtypes.float64, limits or Limits()):
        for name, values in point.items():
            grad = np.empty(values.shape)
            for idx in np.ndindex(values.shape):
                original = values[idx]
                values[idx] = original + eps
                plus = loss()
                values[idx] = original - eps
                minus = loss()
                values[idx] = original
                grad[idx] = (plus - minus) / (2 * eps)
            grads[name] = grad
    return grads


def gradcheck(result, *, timeout: float, eps: float = EPS, atol: float = ATOL, rtol: float = RTOL) -> dict:
    """Compare an EvalResult's .grad values with central differences; the report `eval --json` shows."""
    from .calc import TimeLimit, time_limit

    report = {"status": "agrees", "reason": None, "eps": eps, "atol": atol, "rtol": rtol, "max_abs_diff": 0.0}
    if result.error is not None:
        return {**report, "status": "skipped", "reason": "backward failed, no gradients to compare"}
    inputs = {n: t.value for n, t in result.tensors.items() if t.requires_grad and t.used}
    consts = {n: t.value for n, t in result.tensors.items() if not (t.requires_grad and t.used)}
    try:
        with time_limit(timeout):
            numeric = finite_difference_grads(result.program, inputs, consts, result.grad_output, eps=eps)
    except TimeLimit:
        return {**report, "status": "skipped", "reason": f"finite differences took longer than {timeout:g} s"}
    mismatches, max_diff = [], 0.0
    for name, approx in numeric.items():
        grad = result.tensors[name].grad
        autograd = np.zeros(approx.shape) if grad is None else np.asarray(grad, dtype=np.float64)
        for idx in np.ndindex(approx.shape):
            a, n = float(autograd[idx]), float(approx[idx])
            if not np.isfinite(a):
                continue  # an infinite derivative has no finite difference to compare with
            if abs(a - n) <= atol + rtol * abs(n):
                max_diff = max(max_diff, abs(a - n))
            else:
                mismatches.append({"tensor": name, "index": list(idx), "autograd": a, "numeric": n})
    report["max_abs_diff"] = max_diff
    report["grads"] = numeric
    if mismatches:
        worst = max(mismatches, key=lambda e: abs(e["autograd"] - e["numeric"]))
        where = worst["tensor"] + (f"[{', '.join(map(str, worst['index']))}]" if worst["index"] else "")
        report.update(status="disagrees", mismatches=mismatches[:20],
                      reason=f"{where}: autograd {worst['autograd']:.6g}, finite differences {worst['numeric']:.6g}")
    return report
