"""Finite-difference gradients: central differences in float64, judged as torch.autograd.gradcheck does
(|autograd - numeric| <= atol + rtol * |numeric|).  `gradcli eval --gradcheck` and the tests use it."""

from __future__ import annotations

import numpy as np

from gradcli.engine import Tensor, dtypes, no_grad
from gradcli.lang.evaluation import engine_settings
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import Program
from gradcli.safety.guard import TimeLimit, time_limit
from gradcli.safety.limits import Limits

# torch.autograd.gradcheck's defaults
EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3


def finite_difference_grads(program: Program, inputs: dict[str, np.ndarray], consts: dict | None = None,
                            grad_output: np.ndarray | None = None, *, eps: float = EPS,
                            limits: Limits | None = None) -> dict[str, np.ndarray]:
    """d L / d every element of every input by (L(x + eps) - L(x - eps)) / (2 eps), where L is the
    output (one element) or sum(grad_output * output), all in float64."""
    one_sided = one_sided_differences(program, inputs, consts, grad_output, eps=eps, limits=limits)
    return {name: (forward + backward) / 2 for name, (forward, backward) in one_sided.items()}


def one_sided_differences(program: Program, inputs: dict[str, np.ndarray], consts: dict | None = None,
                          grad_output: np.ndarray | None = None, *, eps: float = EPS,
                          limits: Limits | None = None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """(forward, backward) differences (L(x + eps) - L(x)) / eps and (L(x) - L(x - eps)) / eps for every
    element of every input; their mean is the central difference, their gap shows a kink."""
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

    differences = {}
    with engine_settings(dtypes.float64, limits or Limits()):
        center = loss() if point else 0.0
        for name, values in point.items():
            forward, backward = np.empty(values.shape), np.empty(values.shape)
            for idx in np.ndindex(values.shape):
                original = values[idx]
                values[idx] = original + eps
                plus = loss()
                values[idx] = original - eps
                minus = loss()
                values[idx] = original
                forward[idx] = (plus - center) / eps
                backward[idx] = (center - minus) / eps
            differences[name] = (forward, backward)
    return differences


def gradcheck(result, *, timeout: float, eps: float = EPS, atol: float = ATOL, rtol: float = RTOL) -> dict:
    """Compare an EvalResult's .grad values with central differences; the report `eval --json` shows."""
    report = {"status": "agrees", "reason": None, "eps": eps, "atol": atol, "rtol": rtol, "max_abs_diff": 0.0}
    if result.error is not None:
        return {**report, "status": "skipped", "reason": "backward failed, no gradients to compare"}
    inputs = {n: t.value for n, t in result.tensors.items() if t.requires_grad and t.used}
    consts = {n: t.value for n, t in result.tensors.items() if not (t.requires_grad and t.used)}
    try:
        with time_limit(timeout):
            one_sided = one_sided_differences(result.program, inputs, consts, result.grad_output, eps=eps)
    except TimeLimit:
        return {**report, "status": "skipped", "reason": f"finite differences took longer than {timeout:g} s"}

    def close(a: float, n: float) -> bool:
        return abs(a - n) <= atol + rtol * abs(n)

    numeric = {name: (forward + backward) / 2 for name, (forward, backward) in one_sided.items()}
    mismatches, kinks, max_diff = [], [], 0.0
    for name, approx in numeric.items():
        grad = result.tensors[name].grad
        autograd = np.zeros(approx.shape) if grad is None else np.asarray(grad, dtype=np.float64)
        forward, backward = one_sided[name]
        for idx in np.ndindex(approx.shape):
            a, n = float(autograd[idx]), float(approx[idx])
            if not np.isfinite(a):
                continue  # an infinite derivative has no finite difference to compare with
            if close(a, n):
                max_diff = max(max_diff, abs(a - n))
                continue
            entry = {"tensor": name, "index": list(idx), "autograd": a, "numeric": n}
            right, left = float(forward[idx]), float(backward[idx])
            low, high = min(left, right), max(left, right)
            # a kink: the one-sided slopes differ, and autograd's value is one of the slopes in between
            # (a subgradient, as relu'(0) = 0 or abs'(0) = 0): PyTorch's convention, as the sympy check says
            if not close(left, right) and (low <= a <= high or close(a, low) or close(a, high)):
                kinks.append({**entry, "left": left, "right": right})
            else:
                mismatches.append(entry)
    report["max_abs_diff"] = max_diff
    report["grads"] = numeric
    if kinks:
        report["kinks"] = kinks[:20]
    if not mismatches and kinks:
        first = kinks[0]
        where = first["tensor"] + (f"[{', '.join(map(str, first['index']))}]" if first["index"] else "")
        report.update(status="convention", convention="PyTorch",
                      reason=f"{where} sits at a kink (left slope {first['left']:.6g}, right slope "
                             f"{first['right']:.6g}): gradcli follows PyTorch's convention ({first['autograd']:.6g})")
    if mismatches:
        worst = max(mismatches, key=lambda e: abs(e["autograd"] - e["numeric"]))
        where = worst["tensor"] + (f"[{', '.join(map(str, worst['index']))}]" if worst["index"] else "")
        report.update(status="disagrees", mismatches=mismatches[:20],
                      reason=f"{where}: autograd {worst['autograd']:.6g}, finite differences {worst['numeric']:.6g}",
                      disagreement=f"autograd and finite differences disagree on {where}: {worst['autograd']:.6g} "
                                   f"vs {worst['numeric']:.6g}")
    return report
