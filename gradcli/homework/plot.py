"""`gradcli plot`: f, f′ (f″ ...) and the student's answer in the terminal (plotext) or as an image
(matplotlib, the optional extra gradcli[plot]), with the region where the answer differs from f′ marked.

The curves come from gradcli's own engine on a vector of x values (the derivative by autograd, as
`check` computes it), not from sympy.  Poles and jumps are not joined: a step larger than the visible
range breaks the line, values far outside it are dropped, and nan (outside the domain) leaves a gap.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from dataclasses import dataclass, field

import numpy as np

from gradcli import engine
from gradcli.engine import Tensor, dtypes
from gradcli.engine.errors import EngineError
from gradcli.homework.notation import echo
from gradcli.homework.reader import split_answer
from gradcli.homework.reading import pytorch_expression, result_wrt_order
from gradcli.io.outputs import atomic_file
from gradcli.lang.evaluation import engine_settings
from gradcli.lang.evaluator import EngineBackend, evaluate
from gradcli.lang.parser import parse
from gradcli.safety.errors import GradcliError
from gradcli.safety.limits import Limits

DEFAULT_RANGE = (-5.0, 5.0)
POINTS = 401
RTOL = 1e-6  # as check: |f′ - answer| <= RTOL·max(1, |f′|, |answer|) agrees
_PRIMES = ["", "′", "″", "‴"]
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Curve:
    label: str
    ys: np.ndarray  # what is drawn: nan where undefined, far outside the view, or at a pole
    values: np.ndarray | None = None  # the values as computed (nan only where undefined)


@dataclass
class PlotData:
    title: str
    wrt: str
    xs: np.ndarray
    curves: list[Curve]
    answer: Curve | None = None
    differs: np.ndarray | None = None  # mask over xs: the answer differs from the derivative there
    y_range: tuple[float, float] = (-1.0, 1.0)
    notes: list[str] = field(default_factory=list)

    def differing_intervals(self) -> list[tuple[float, float]]:
        if self.differs is None or not self.differs.any():
            return []
        runs, start = [], None
        for i, flag in enumerate(self.differs):
            if flag and start is None:
                start = i
            if not flag and start is not None:
                runs.append((float(self.xs[start]), float(self.xs[i - 1])))
                start = None
        if start is not None:
            runs.append((float(self.xs[start]), float(self.xs[-1])))
        return runs


def derivative_name(order: int, wrt: str = "x") -> str:
    return f"f{_PRIMES[order]}" if order < len(_PRIMES) else f"f⁽{order}⁾"


def sample(function: str, *, wrt: str | None = None, start: float | None = None, stop: float | None = None,
           order: int = 1, expect: str | None = None, points: int = POINTS,
           limits: Limits | None = None) -> PlotData:
    """f and its derivatives 1..order on [start, stop] (and the answer, if given), by the engine."""
    limits = limits or Limits()
    start, stop = DEFAULT_RANGE[0] if start is None else start, DEFAULT_RANGE[1] if stop is None else stop
    if not (math.isfinite(start) and math.isfinite(stop)) or start >= stop:
        raise GradcliError(f"--from {start:g} --to {stop:g} is not an interval", hint="e.g. --from -5 --to 5")
    if not 1 <= order <= 5:
        raise GradcliError(f"--order must be between 1 and 5 for a plot, not {order}")
    f = _program(function, limits)
    variables = list(f.variables.values())
    if wrt is not None and not wrt.strip():
        raise GradcliError("--wrt has an empty variable name", hint="name the variable, e.g. --wrt x")
    wrt = wrt or (variables[0] if len(variables) == 1 else None)
    if wrt is None or len(variables) > 1:
        raise GradcliError(f"plot draws a function of one variable; this one depends on {', '.join(variables)}"
                           if variables else "the function has no variable to plot against",
                           hint="fix the others with numbers")
    if variables and wrt not in variables:
        raise GradcliError(f"--wrt {wrt}: the function has no variable {wrt}", hint=f"its variable: {variables[0]}")
    xs = np.linspace(start, stop, points)
    values = _engine_curves(f, wrt, xs, order, limits)
    undefined = ~np.isfinite(values[0])
    values = [np.where(undefined, np.nan, v) for v in values]  # no derivative where f itself is undefined
    curves = [Curve(f"{derivative_name(k)}({wrt})" if k else f"f({wrt}) = {echo(function)}", ys)
              for k, ys in enumerate(values)]
    data = PlotData(echo(function), wrt, xs, curves)
    if expect is not None:
        split = split_answer(expect)  # dy/dx = ..., f''(x) = ...: the answer is the right side
        if (split.order or order) != order or set(split.wrt or [wrt]) != {wrt}:
            raise GradcliError(f"the answer says {split.lhs}, the plot compares it with "
                               f"{derivative_name(order)}({wrt})",
                               hint=f"--order {split.order}" if split.order and set(split.wrt or [wrt]) == {wrt}
                               else None)
        answer = _program(split.text, limits, frozenset(variables))
        extra = [v for v in answer.variables.values() if v != wrt]
        if extra:
            raise GradcliError(f"the answer uses {', '.join(extra)}, which the function does not")
        ys = _engine_curves(answer, wrt, xs, 0, limits)[0]
        ys = np.where(np.isfinite(values[-1]), ys, np.nan)  # drawn only where the derivative is defined
        data.answer = Curve(f"your answer = {echo(expect)}", ys)
        derivative = values[-1]
        both = np.isfinite(derivative) & np.isfinite(ys)
        scale = np.maximum(1.0, np.maximum(np.abs(np.where(both, derivative, 0)), np.abs(np.where(both, ys, 0))))
        differs = both & (np.abs(np.where(both, derivative - ys, 0)) > RTOL * scale)
        differs |= np.isfinite(derivative) & ~np.isfinite(ys)  # undefined where the derivative is defined
        data.differs = differs
    data.y_range = _visible_range([data.curves[0].ys, data.curves[1].ys])  # f and f′ set the scale
    for curve in [*data.curves, *([data.answer] if data.answer else [])]:
        curve.values = curve.ys
        curve.ys = _broken(curve.ys, data.y_range)
    return data


@dataclass
class _Program:
    program: object  # gradcli's parsed expression
    variables: dict  # its variable -> the student's name


def _program(text: str, limits: Limits, known=frozenset()) -> _Program:
    """Homework text as a program for gradcli's engine (errors point into `text`)."""
    expression, renamed = pytorch_expression(text, known, limits)
    program = parse(expression, limits)
    back = {prog: user for user, prog in renamed.items()}
    return _Program(program, {name: back.get(name, name) for name in program.variables})


def _engine_curves(hw, wrt: str, xs: np.ndarray, order: int, limits: Limits) -> list[np.ndarray]:
    """[f(xs), f′(xs), ..., f⁽ᵒʳᵈᵉʳ⁾(xs)] by gradcli's engine in float64 on the whole vector at once
    (the function is elementwise, so the gradient of the sum is the derivative at each point)."""
    with engine_settings(dtypes.float64, limits), warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        x = Tensor._make(xs.astype(np.float64), None).requires_grad_(True)
        tensors = {prog: x for prog, name in hw.variables.items() if name == wrt}
        try:
            out = evaluate(hw.program, EngineBackend(tensors, dtypes.float64))
        except EngineError as err:
            raise GradcliError(f"cannot evaluate the function: {err}") from None
        if not isinstance(out, Tensor):
            out = Tensor._make(np.asarray(float(out)), None)
        if out.array.shape not in ((), xs.shape):
            raise GradcliError("plot draws a function that gives one number for each x")
        values = [np.broadcast_to(out.array, xs.shape).astype(np.float64)]
        current = out
        for k in range(order):
            if not current.requires_grad:
                values.append(np.zeros_like(xs))
                current = Tensor._make(np.zeros_like(xs), None)
                continue
            (grad,) = engine.grad(current.sum(), x, create_graph=k < order - 1, allow_unused=True)
            if grad is None:
                values.append(np.zeros_like(xs))
                current = Tensor._make(np.zeros_like(xs), None)
                continue
            values.append(np.array(grad.array, dtype=np.float64))
            current = grad
    return values


def _visible_range(series: list[np.ndarray]) -> tuple[float, float]:
    """The y range worth showing: most of the finite values (poles would flatten everything else)."""
    finite = np.concatenate([s[np.isfinite(s)] for s in series]) if series else np.array([])
    if finite.size == 0:
        return -1.0, 1.0
    low, high = np.percentile(finite, [5, 95])
    if high - low < 1e-9:
        low, high = low - 1.0, high + 1.0
    pad = 0.15 * (high - low)
    return float(low - pad), float(high + pad)


def _broken(ys: np.ndarray, y_range: tuple[float, float]) -> np.ndarray:
    """nan where the curve leaves the visible range by far, and a nan between two points whose step is
    larger than the range (a pole or a jump): such points are never joined by a line."""
    low, high = y_range
    span = high - low
    ys = np.where(np.isfinite(ys) & (ys > low - 0.25 * span) & (ys < high + 0.25 * span), ys, np.nan)
    jumps = np.abs(np.diff(ys)) > 0.75 * span
    if jumps.any():
        ys = ys.copy()
        ys[1:][jumps] = np.nan
    return ys


# -- the terminal ---------------------------------------------------------------------------------------

_MARKERS = ["braille", "dot", "*", "o", "s", "@"]
_COLORS = ["blue", "green", "magenta", "cyan", "yellow", "white"]


def render_text(data: PlotData, *, width: int = 80, height: int = 22, color: bool = False) -> str:
    """The plot as text (plotext), with a legend and the differing region marked with x."""
    import plotext as plt

    plt.clear_figure()
    plt.plotsize(width, height)
    plt.theme("clear" if not color else "pro")
    xs = data.xs.tolist()
    for k, curve in enumerate(data.curves):
        plt.plot(xs, _listed(curve.ys), label=curve.label, marker=_MARKERS[k % len(_MARKERS)],
                 color=_COLORS[k % len(_COLORS)] if color else None)
    if data.answer is not None:
        # one legend entry for the answer; where it differs from f′ its points are drawn again as x, unlabelled
        differs = np.where(data.differs, data.answer.ys, np.nan)
        marked = bool(np.isfinite(differs).any())
        plt.plot(xs, _listed(np.where(data.differs, np.nan, data.answer.ys)),
                 label="your answer" + (" (x where ≠ f′)" if marked else ""), marker="+",
                 color="green+" if color else None)
        if marked:
            plt.plot(xs, _listed(differs), marker="x", color="red" if color else None)
    plt.ylim(*data.y_range)
    plt.xlim(float(data.xs[0]), float(data.xs[-1]))
    plt.xlabel(data.wrt)
    text = plt.build()
    plt.clear_figure()
    return text if color else _ANSI.sub("", text)


def _listed(ys: np.ndarray) -> list:
    return [float(v) if np.isfinite(v) else math.nan for v in ys]


def summary(data: PlotData) -> list[str]:
    """The lines under the plot: where the answer differs (or that it agrees on the interval)."""
    lines = list(data.notes)
    if data.answer is not None:
        runs = data.differing_intervals()
        if runs:
            where = " ∪ ".join(f"[{_short(a)}, {_short(b)}]" for a, b in runs)
            lines.append(f"your answer differs from {derivative_name(len(data.curves) - 1)} on {where}")
        else:
            lines.append(f"your answer agrees with {derivative_name(len(data.curves) - 1)} on "
                         f"[{_short(data.xs[0])}, {_short(data.xs[-1])}] (where both are defined)")
    return lines


def _short(value: float) -> str:
    from gradcli.render.symbolic_render import short_number

    return short_number(float(value))


def print_plot(data: PlotData, console, *, width: int | None = None, height: int = 22) -> None:
    from rich.text import Text

    color = console.is_terminal and not console.no_color
    width = width or max(40, min(console.width, 100))
    text = render_text(data, width=width, height=height, color=color)
    console.print(Text.from_ansi(text) if color else Text(text), soft_wrap=True)
    for line in summary(data):
        console.print(Text(line))


# -- images ---------------------------------------------------------------------------------------------

def write_image(data: PlotData, path: str) -> None:
    """The same plot as a PNG or SVG (by the file's extension) through matplotlib."""
    try:
        import matplotlib
    except ImportError:
        raise GradcliError("--png/--svg need matplotlib, which is not installed",
                           hint="pip install 'gradcli[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    if not path.lower().endswith((".png", ".svg")):
        raise GradcliError(f"{path}: the image file must end in .png or .svg")
    figure, axes = pyplot.subplots(figsize=(8, 5), dpi=100)
    styles = ["-", "--", "-.", ":", "-", "--"]
    for k, curve in enumerate(data.curves):
        axes.plot(data.xs, curve.ys, styles[k % len(styles)], label=curve.label, linewidth=2 if k == 0 else 1.6)
    if data.answer is not None:
        axes.plot(data.xs, data.answer.ys, ":", color="black", label=data.answer.label, linewidth=1.6)
        for k, (a, b) in enumerate(data.differing_intervals()):
            axes.axvspan(a, b, color="red", alpha=0.12, label="your answer ≠ f′" if k == 0 else None)
    axes.set_ylim(*data.y_range)
    axes.set_xlim(float(data.xs[0]), float(data.xs[-1]))
    axes.axhline(0, color="grey", linewidth=0.6)
    axes.set_xlabel(data.wrt)
    axes.set_title(f"f({data.wrt}) = {data.title}")
    axes.grid(alpha=0.3)
    axes.legend(loc="best")
    figure.tight_layout()

    try:
        with atomic_file(path, binary=True) as target:
            figure.savefig(target.file, format=os.path.splitext(path)[1].lstrip(".").lower() or "png")
    except OSError as err:
        raise GradcliError(f"cannot write {path}: {err.strerror or err}") from None
    finally:
        pyplot.close(figure)


def plot_check(report, console, *, start: float | None = None, stop: float | None = None) -> None:
    """`check --plot`: the function, its derivative and the answer, after the verdict."""
    from rich.text import Text

    result = report.results[0]
    wrt_order = result_wrt_order(result)
    if len(report.variables) > 1 or wrt_order is None:
        console.print(Text("plot: only functions of one variable are drawn", style="yellow"))
        return
    wrt, order = wrt_order
    data = sample(report.function_text, wrt=wrt, start=start, stop=stop, order=order, expect=result.expected_text)
    print_plot(data, console)
