"""The cost model: the work of the ops whose time grows faster than their result (products, contractions,
matrix algebra), counted in multiply-adds from the operands' shapes before the op runs.

`costed` wraps such an op (registry.register does it for every name in WORK): while a call has a budget
(`engine.state.Budget`: an API call, a `run`), work the time left cannot cover even at the peak rate of its
kind is refused with `LimitExceeded`, as the size guard refuses a result too large.  A rule returns
(multiply-adds, kind): "blas" for what numpy hands to BLAS or LAPACK, "loop" for numpy's own loops (einsum
of two operands is evaluated term by term: 'ij,kl->' of two 3000x3000 matrices is 8.1e13 of them).  A rule
that cannot read its arguments returns None: the op then reports its own error.
"""

from __future__ import annotations

import functools

import numpy as np

from gradcli.engine.ops.sizes import numel, shape_of
from gradcli.engine.state import BUDGET


def _matmul_work(a, b, *args, **kwargs):
    sa, sb = shape_of(a), shape_of(b)
    if sa is None or sb is None or not sa or not sb:
        return None
    k = sa[-1]
    rows = numel(sa[:-1])
    cols = sb[-1] if len(sb) > 1 else 1
    batch = numel(sb[:-2]) if len(sb) > 2 and len(sa) <= 2 else 1
    return rows * k * cols * batch, "blas"


def _addmm_work(input, mat1, mat2, *args, **kwargs):
    return _matmul_work(mat1, mat2)


def _einsum_work(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if len(operands) < 2 or not isinstance(equation, str):
        return None
    shapes = [shape_of(op) for op in operands]
    if any(s is None for s in shapes):
        return None
    terms = equation.replace(" ", "").split("->")[0].split(",")
    if len(terms) != len(shapes) or "." in equation:
        return None
    if len(operands) > 2:  # numpy plans the contraction (optimize=True): its own count of the work
        try:
            path = np.einsum_path(equation, *[np.broadcast_to(np.zeros((), np.int8), s) for s in shapes],
                                  optimize="greedy")[1]
        except ValueError:
            return None
        line = next((x for x in path.splitlines() if "Optimized FLOP count" in x), None)
        return (float(line.split(":")[1]), "loop") if line else None
    sizes = {}
    for term, shape in zip(terms, shapes):
        if len(term) != len(shape):
            return None
        for c, s in zip(term, shape):
            sizes[c] = max(sizes.get(c, 1), int(s))
    work = 1
    for s in sizes.values():
        work *= s
    return work, "loop"


def _tensordot_work(a, b, dims=2, *args, **kwargs):
    sa, sb = shape_of(a), shape_of(b)
    if sa is None or sb is None:
        return None
    if isinstance(dims, int):
        contracted = numel(sa[len(sa) - dims:]) if dims else 1
    else:
        contracted = numel([sa[int(d)] for d in dims[0]])
    return numel(sa) * numel(sb) // max(contracted, 1), "blas"


def _cubic_work(input, *args, **kwargs):
    """Matrix algebra on (..., n, n): about n**3 a matrix."""
    shape = shape_of(input)
    if shape is None or len(shape) < 2:
        return None
    n = max(shape[-2], shape[-1])
    return numel(shape[:-2]) * n ** 3, "blas"


def _matrix_power_work(input, n, *args, **kwargs):
    work = _cubic_work(input)
    return None if work is None else (work[0] * max(abs(int(n)), 1).bit_length() * 2, "blas")


def _multi_dot_work(tensors, *args, **kwargs):
    shapes = [shape_of(t) for t in tensors]
    if any(s is None or not s for s in shapes):
        return None
    return sum(numel(s) * (shapes[i + 1][-1] if len(shapes[i + 1]) > 1 else 1)
               for i, s in enumerate(shapes[:-1])), "blas"


def _linear_work(input, weight, *args, **kwargs):
    si, sw = shape_of(input), shape_of(weight)
    if si is None or sw is None or not si:
        return None
    return numel(si) * (sw[0] if len(sw) > 1 else 1), "blas"


def _cdist_work(x1, x2, *args, **kwargs):
    s1, s2 = shape_of(x1), shape_of(x2)
    if s1 is None or s2 is None or len(s1) < 2 or len(s2) < 2:
        return None
    return numel(s1) * s2[-2], "loop"


def _kron_work(a, b, *args, **kwargs):
    sa, sb = shape_of(a), shape_of(b)
    return None if sa is None or sb is None else (numel(sa) * numel(sb), "loop")


WORK = {
    "matmul": _matmul_work, "mm": _matmul_work, "bmm": _matmul_work, "mv": _matmul_work, "inner": _tensordot_work,
    "addmm": _addmm_work, "einsum": _einsum_work, "tensordot": _tensordot_work, "linear": _linear_work,
    "multi_dot": _multi_dot_work, "cdist": _cdist_work, "kron": _kron_work,
    "matrix_power": _matrix_power_work, "matrix_exp": lambda input, *a, **k: (
        None if _cubic_work(input) is None else (_cubic_work(input)[0] * 20, "blas")),
    **{name: _cubic_work for name in ("det", "inverse", "inv", "solve", "slogdet", "logdet", "cholesky",
                                      "svdvals", "eigh", "eigvalsh", "qr", "pinv", "lstsq", "matrix_norm")},
}


def costed(name: str, fn, rule):
    """`fn` preceded by its cost rule whenever the call has a budget."""

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        budget = BUDGET.get()
        if budget is not None:
            try:
                cost = rule(*args, **kwargs)
            except (TypeError, ValueError, IndexError, AttributeError, KeyError, OverflowError):
                cost = None  # invalid arguments: the op itself says what is wrong
            if cost is not None:
                budget.affords(cost[0], cost[1], f"{name}()")
        return fn(*args, **kwargs)

    return checked
