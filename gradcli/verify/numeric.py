"""Finite-difference gradients: central differences in float64, judged as torch.autograd.gradcheck does
(|autograd - numeric| <= atol + rtol * |numeric|).  `gradcli eval --gradcheck` and the tests use it."""

from __future__ import annotations

import ast

import numpy as np

from gradcli.engine import Tensor, dtypes, no_grad
from gradcli.engine.ops import REGISTRY
from gradcli.lang.evaluation import const_array, engine_settings
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
    fixed = {name: const_array(v, dtypes.float64) for name, v in (consts or {}).items()}  # int indices stay int
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


# the calls that draw from the generator: every evaluation of the expression draws anew
RANDOM_CALLS = frozenset({name for name, spec in REGISTRY.items() if spec.category == "random"} | {
    "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like", "multinomial", "bernoulli",
    "normal", "poisson", "uniform_", "normal_", "bernoulli_", "exponential_", "random_", "geometric_", "cauchy_",
    "log_normal_"})


def random_calls(program: Program) -> list[str]:
    """The random functions an expression calls (dropout, rrelu, randn ...), in order of appearance."""
    found = []
    for node in ast.walk(program.tree):
        if isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else None
            if name in RANDOM_CALLS and name not in found:
                found.append(name)
    return found


def gradcheck(result, *, timeout: float, eps: float = EPS, atol: float = ATOL, rtol: float = RTOL) -> dict:
    """Compare an EvalResult's .grad values with central differences; the report `eval --json` shows."""
    report = {"status": "agrees", "reason": None, "eps": eps, "atol": atol, "rtol": rtol, "max_abs_diff": 0.0}
    if result.error is not None:
        return {**report, "status": "skipped", "reason": "backward failed, no gradients to compare"}
    drawn = random_calls(result.program)
    if drawn:
        return {**report, "status": "skipped",
                "reason": f"the expression draws random numbers ({', '.join(drawn)}): each evaluation of finite "
                          "differences would draw others"}
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


# -- the numeric verdict when sympy cannot finish: directional derivatives at 30 digits ---------------------------

DIGITS = 30  # mpmath's working precision: a float64 point and its neighbours are exact, round-off ~1e-30
DIRECTIONS = 2  # random directions: one catches any wrong element with probability 1; two for good measure
STEPS = (1e-4, 1e-8, 1e-12)  # relative step sizes tried, largest first, until the extrapolation converges
# |autograd - numeric| <= atol + rtol * |numeric| per element, as the sympy cross-check (verify.symbolic)
TOLERANCES = {"float64": (1e-7, 1e-9), "float32": (1e-4, 1e-5), "float16": (1e-2, 1e-2)}


class NotConverged(Exception):
    """The differences did not settle at any step size (a discontinuity near the point, nan or inf)."""


def high_precision_check(result, *, dtype_name: str = "float64", digits: int = DIGITS,
                         directions: int = DIRECTIONS, seed: int = 0) -> dict:
    """The gradient of an EvalResult checked without sympy's symbolic work and without the engine's backward:
    the same Program evaluated on mpmath numbers at `digits` digits (sympy's op table, on Floats instead of
    symbols: milliseconds per evaluation), differentiated along random directions v by central differences
    with Richardson extrapolation (three step sizes, error O(h^6)), and compared with autograd's grad · v.

    The report's "error_bound" is the extrapolation's own error estimate (the gap between its last two levels)
    plus the round-off of `digits` digits; autograd and the difference agree when they are within the sympy
    check's tolerance (per element) plus that bound.  At a kink (the one-sided slopes differ and autograd's value
    lies between them) the status is "convention", as the sympy check says.  Raises NoSymbolicForm (and the
    evaluator's errors) when the expression has no mpmath form; the caller bounds its time."""
    import mpmath
    import sympy as sp

    from gradcli.verify.symbolic import evaluate_symbolic

    rtol, atol = TOLERANCES.get(dtype_name, TOLERANCES["float64"])
    names = [n for n, t in result.tensors.items() if t.requires_grad and t.used]
    fixed = {n: _exact_constants(t.value) for n, t in result.tensors.items() if n not in names}
    method = f"mpmath, {digits} digits"
    report = {"status": "agrees", "reason": None, "decided_by": "numeric", "method": method, "digits": digits,
              "max_abs_diff": 0.0, "error_bound": 0.0, "rtol": rtol, "atol": atol}
    if not names:
        return report
    rng = np.random.default_rng(seed)
    point = {n: np.asarray(result.tensors[n].value, dtype=np.float64) for n in names}
    grads = {n: np.zeros(point[n].shape) if result.tensors[n].grad is None
             else np.asarray(result.tensors[n].grad, dtype=np.float64) for n in names}
    weights = None if result.grad_output is None else \
        np.broadcast_to(np.asarray(result.grad_output, dtype=np.float64), np.shape(result.output))
    program = result.program

    bits = int(digits * 3.33) + 16
    with mpmath.workprec(bits):
        exact = {n: [mpmath.mpf(float(x)) for x in point[n].flat] for n in names}

        def loss(step, v):
            values = dict(fixed)
            for n in names:
                shifted = np.empty(point[n].size, dtype=object)
                for i, (x, d) in enumerate(zip(exact[n], v[n].flat)):
                    shifted[i] = sp.Float._new((x + step * d)._mpf_, bits)  # exact at `bits`: no rounding to text
                values[n] = shifted.reshape(point[n].shape)
            out, _backend = evaluate_symbolic(program, values, point={})
            total = sp.Add(*(out.flat if weights is None else
                             (e * sp.Float(float(w), digits) for e, w in zip(out.flat, weights.flat))))
            value = sp.sympify(total).evalf(digits)
            if not value.is_real or not value.is_finite:
                raise NotConverged("the expression is not finite and real near the point")
            return mpmath.mpf(value)

        center = None
        for k in range(directions):
            v = {n: rng.choice([-1.0, 1.0], size=point[n].shape) * rng.uniform(0.5, 1.5, size=point[n].shape)
                 for n in names}
            autograd = mpmath.fsum(mpmath.mpf(float(g)) * mpmath.mpf(float(d))
                                   for n in names for g, d in zip(grads[n].flat, v[n].flat))
            tolerance = mpmath.fsum(abs(float(d)) * (atol + rtol * abs(float(g)))
                                    for n in names for g, d in zip(grads[n].flat, v[n].flat))
            if not mpmath.isfinite(autograd):
                raise NotConverged("autograd's gradient is not finite")
            scale = 1.0 + max(float(np.max(np.abs(point[n]), initial=0.0)) for n in names)
            if center is None:
                center = loss(0, v)
            numeric = bound = None
            for relative in STEPS:
                h = mpmath.mpf(relative * scale)
                slopes = [(loss(h / 2**j, v) - loss(-h / 2**j, v)) / (2 * h / 2**j) for j in range(3)]
                first = [(4 * slopes[j + 1] - slopes[j]) / 3 for j in range(2)]
                second = (16 * first[1] - first[0]) / 15
                roundoff = mpmath.mpf(10) ** (-digits + 2) * (1 + abs(center)) / (h / 4)
                gap = abs(second - first[1]) + roundoff
                if gap <= tolerance / 100 or relative == STEPS[-1]:
                    numeric, bound = second, gap
                    break
            diff = abs(autograd - numeric)
            report["max_abs_diff"] = max(report["max_abs_diff"], float(diff))
            report["error_bound"] = max(report["error_bound"], float(bound))
            if diff <= tolerance + bound:
                continue

            def one_sided(step, v=v, center=center):
                return (loss(step, v) - center) / step, (center - loss(-step, v)) / step

            # a kink: the one-sided slopes differ by as much at a step 10^4 times smaller (a smooth function's
            # gap shrinks with the step), and autograd's value lies between them (a subgradient: relu'(0) = 0)
            small = mpmath.mpf(STEPS[-1] * scale)
            forward, backward = one_sided(small)
            tiny_forward, tiny_backward = one_sided(small / 10**4)
            gap, tiny_gap = abs(forward - backward), abs(tiny_forward - tiny_backward)
            low, high = min(forward, backward), max(forward, backward)
            if gap > tolerance + bound and tiny_gap > gap / 2 and low - tolerance <= autograd <= high + tolerance:
                report.update(status="convention", convention="PyTorch",
                              reason=f"the point is at a kink (one-sided slopes along a random direction "
                                     f"{float(backward):.6g} and {float(forward):.6g}): gradcli follows "
                                     f"PyTorch's convention ({float(autograd):.6g})")
                continue
            if bound > tolerance:
                raise NotConverged("the differences do not settle (a discontinuity near the point?)")
            report.update(status="disagrees", direction=k,
                          reason=f"along random direction {k + 1}: autograd {float(autograd):.10g}, "
                                 f"differences {float(numeric):.10g} (|Δ| {float(diff):.3g}, error bound "
                                 f"{float(bound):.2g})",
                          disagreement=f"autograd and {digits}-digit finite differences disagree along a random "
                                       f"direction: {float(autograd):.10g} vs {float(numeric):.10g}")
            return report
    return report


def _exact_constants(value) -> np.ndarray:
    """A constant tensor as exact sympy numbers: integers as Integers, booleans as true/false, floats exactly."""
    import sympy as sp

    array = np.asarray(value)
    out = np.empty(array.shape, dtype=object)
    for idx in np.ndindex(array.shape):
        item = array[idx].item()
        out[idx] = (sp.true if item else sp.false) if isinstance(item, bool) else \
            sp.Integer(item) if isinstance(item, int) else sp.Float(item, DIGITS)
    return out
