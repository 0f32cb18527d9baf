"""`gradcli eval --rows FILE --check`: the sympy cross-check for every row, differentiated ONCE.

The expression is evaluated on symbols (gradcli.symbolic), differentiated, and the derivative formulas are
compiled with sympy's lambdify to numpy, so each chunk of rows is checked in one vectorised pass.  Verdicts
follow the single-evaluation cross-check: `agrees`; `convention` where the derivative jumps at the row's
point (relu or abs at 0: the value there is a convention, gradcli follows PyTorch) or is undefined;
`disagrees` otherwise.  A row that differs in float64 is re-evaluated with 30-digit arithmetic, as the
single cross-check does, before it is called `disagrees`.  sympy is imported only on this path.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from gradcli.safety.errors import GradcliError
from gradcli.verify import symbolic

MAX_EXACT_RECHECKS = 1000  # rows per run re-evaluated at 30 digits when float64 says they differ


class _Formulas:
    def __init__(self, status: str, reason: str | None = None):
        self.status = status
        self.reason = reason


class RowsChecker:
    def __init__(self, evaluator, *, timeout: float):
        self.ev = evaluator
        self.timeout = timeout
        self._cache: dict[int, _Formulas] = {}
        self.rechecks = 0
        self.rtol, self.atol = symbolic.TOLERANCES.get(evaluator.dtype.name, symbolic.TOLERANCES["float64"])

    # -- building, once per program -----------------------------------------------------------------
    def formulas(self, program_info) -> _Formulas:
        key = id(program_info[0])
        if key not in self._cache:
            try:
                self._cache[key] = symbolic.bounded(self.timeout, self._build, program_info)
            except symbolic.SymbolicTimeout:
                self._cache[key] = _Formulas("skipped", f"sympy took longer than {self.timeout:g} s")
            except GradcliError as err:
                self._cache[key] = _Formulas("skipped", err.message)
        return self._cache[key]

    def _build(self, program_info) -> _Formulas:
        program, wanted, _ = program_info
        ev = self.ev
        if ev.grad_output is not None and np.ndim(ev.grad_output) != 0:
            return _Formulas("skipped", "--grad-output with a non-scalar value")
        symbols = {n: symbolic.tensor_symbols(n, ()) for n in wanted}
        for n, v in {**ev.inputs, **ev.consts}.items():
            symbols[n] = symbolic.tensor_symbols(n, np.shape(v))
        out, _ = symbolic.evaluate_symbolic(program, symbols)
        if out.shape != ():
            return _Formulas("skipped", "the output is not a scalar")
        loss = out.flat[0] * (1 if ev.grad_output is None else symbolic.number(float(ev.grad_output)))
        grad_names = ev.grad_names(wanted)
        derivatives = {n: [sp.diff(loss, s) for s in symbols[n].flat] for n in grad_names}
        flat = [d for ds in derivatives.values() for d in ds]
        if any(sp.sympify(d).atoms(sp.Derivative) for d in flat):
            return _Formulas("skipped", "sympy cannot differentiate the expression")
        args = [s for n in symbols for s in symbols[n].flat]
        kink_args = []
        for d in flat:
            d = sp.sympify(d)
            kink_args += [f.args[0] for f in d.atoms(sp.Heaviside, sp.sign, sp.DiracDelta)]
            kink_args += [c.lhs - c.rhs for p in d.atoms(sp.Piecewise) for _, c in p.args
                          if isinstance(c, symbolic.Relational)]
        f = _Formulas("ready")
        f.names = list(symbols)
        f.grad_names = grad_names
        f.sizes = {n: len(derivatives[n]) for n in grad_names}
        f.derivatives = derivatives
        f.symbols = symbols
        f.numeric = sp.lambdify(args, flat, modules="numpy")
        f.kinks = sp.lambdify(args, kink_args, modules="numpy") if kink_args else None
        return f

    # -- checking a chunk ---------------------------------------------------------------------------
    def verdicts(self, program_info, columns: dict, grads: dict, n: int, outputs) -> list[str]:
        f = self.formulas(program_info)
        if f.status != "ready":
            return ["skipped"] * n
        values = []
        shared = {**self.ev.inputs, **self.ev.consts}
        for name in f.names:
            if name in columns:
                values.append(np.asarray(columns[name], dtype=np.float64))
            else:
                values.extend(float(v) for v in np.asarray(shared[name], dtype=np.float64).ravel())
        with np.errstate(all="ignore"):
            exact = [np.broadcast_to(np.asarray(v, dtype=np.float64), (n,)) for v in _call(f.numeric, values)]
            kink_values = [np.broadcast_to(np.asarray(v, dtype=np.float64), (n,))
                           for v in _call(f.kinks, values)] if f.kinks is not None else []
        scale = 1.0 + np.max(np.abs([np.broadcast_to(v, (n,)) for v in values]), axis=0) if values else np.ones(n)
        at_kink = np.zeros(n, dtype=bool)
        for k in kink_values:
            at_kink |= np.isfinite(k) & (np.abs(k) <= 1e-12 * scale)
        differs = np.zeros(n, dtype=bool)
        undefined = np.zeros(n, dtype=bool)
        j = 0
        for name in f.grad_names:
            g = grads.get(name)
            for e in range(f.sizes[name]):
                got = _column(g, n, f.sizes[name], e)
                want = exact[j]
                j += 1
                finite = np.isfinite(got) & np.isfinite(want)
                close = np.where(finite, np.abs(got - want) <= self.atol + self.rtol * np.abs(want),
                                 ~np.isfinite(got) & ~np.isfinite(want))
                undefined |= ~np.isfinite(want) & np.isfinite(got)
                differs |= ~close
        kink = at_kink | undefined
        verdicts = np.where(kink, "convention", np.where(differs, "disagrees", "agrees")).tolist()
        for i in np.flatnonzero(differs & ~kink):
            if self.rechecks >= MAX_EXACT_RECHECKS:
                break
            self.rechecks += 1
            verdicts[i] = self._exact_verdict(f, columns, grads, n, int(i))
        return verdicts

    def _exact_verdict(self, f, columns, grads, n, i) -> str:
        """The single cross-check's arithmetic for one row: 30-digit values of the exact derivative."""
        shared = {**self.ev.inputs, **self.ev.consts}
        subs = {}
        for name in f.names:
            value = columns[name][i] if name in columns else shared[name]
            subs.update(symbolic.point_subs(f.symbols[name], np.asarray(value, dtype=np.float64)))
        for name in f.grad_names:
            for e, d in enumerate(f.derivatives[name]):
                got = float(_column(grads.get(name), n, f.sizes[name], e)[i])
                if not symbolic._close(got, symbolic.value_at(d, subs), self.rtol, self.atol):
                    return "disagrees"
        return "agrees"


def _call(fn, values):
    out = fn(*values)
    return out if isinstance(out, list) else [out]


def _column(g, n: int, size: int, element: int) -> np.ndarray:
    """Element `element` of a gradient for every row, as float64 (nan where there is none)."""
    if g is None:
        return np.full(n, math.nan)
    if isinstance(g, np.ndarray) and g.dtype != object and g.shape[:1] == (n,):
        return g.reshape(n, -1)[:, element].astype(np.float64) if g.ndim > 1 else g.astype(np.float64)
    return np.array([math.nan if v is None else float(np.asarray(v, dtype=np.float64).ravel()[element])
                     for v in g])
