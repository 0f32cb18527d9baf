"""`gradcli plot` (issue 11): the sampled curves against hand-derived derivatives, poles and undefined
regions left as gaps, the differing region, text plots compared with goldens (regenerate with
GRADCLI_UPDATE_GOLDENS=1 after checking them by eye), and images written through matplotlib."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework.plot import render_text, sample, summary
from gradcli.safety.errors import GradcliError

runner = CliRunner()
GOLDENS = Path(__file__).parents[1] / "goldens" / "plots"


def test_curves_are_the_function_and_its_derivatives():
    data = sample("x^2 sin x", start=-3, stop=3, order=2, points=61)
    xs = data.xs
    f, d1, d2 = (c.values for c in data.curves)
    # by hand: (x² sin x)' = 2x sin x + x² cos x, '' = 2 sin x + 4x cos x - x² sin x
    np.testing.assert_allclose(f, xs ** 2 * np.sin(xs), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d1, 2 * xs * np.sin(xs) + xs ** 2 * np.cos(xs), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d2, 2 * np.sin(xs) + 4 * xs * np.cos(xs) - xs ** 2 * np.sin(xs), rtol=1e-12,
                               atol=1e-12)
    assert [c.label for c in data.curves] == ["f(x) = x² sin x", "f′(x)", "f″(x)"]


def test_undefined_region_is_a_gap_and_no_derivative_is_drawn_there():
    data = sample("ln(x)", start=-2, stop=2, points=41)
    negative = data.xs <= 0
    assert np.isnan(data.curves[0].values[negative]).all() and np.isnan(data.curves[1].values[negative]).all()
    positive = data.xs > 0.5
    np.testing.assert_allclose(data.curves[1].values[positive], 1 / data.xs[positive])


def test_poles_are_not_joined():
    data = sample("tan x", start=-3, stop=3, points=601)
    ys = data.curves[0].ys
    pole = np.pi / 2
    left = np.where(data.xs < pole)[0][-1]
    # no two neighbouring finite points straddle the pole: a line between them would be the vertical jump
    straddling = [i for i in range(len(ys) - 1) if data.xs[i] < pole < data.xs[i + 1]]
    assert straddling == [left]
    assert not (np.isfinite(ys[left]) and np.isfinite(ys[left + 1]))
    finite = ys[np.isfinite(ys)]
    low, high = data.y_range
    assert finite.min() >= low - 0.25 * (high - low) and finite.max() <= high + 0.25 * (high - low)


def test_the_region_where_the_answer_differs():
    # answer 2x for x² + 1 agrees everywhere; answer 2 agrees only at x = 1 (2x = 2)
    data = sample("x^2 + 1", expect="2x", start=-2, stop=2, points=41)
    assert not data.differs.any() and "agrees" in summary(data)[0]
    data = sample("x^2 + 1", expect="2", start=-2, stop=2, points=41)
    assert data.differs.sum() == 40 and not data.differs[np.isclose(data.xs, 1.0)].any()
    assert summary(data) == ["your answer differs from f′ on [-2, 0.9] ∪ [1.1, 2]"]
    # an answer undefined where the derivative is defined differs there: 1/|x| for ln(x) is fine, for ln|x|...
    data = sample("x^3", expect="3x^2 + ln(x)/ln(x) - 1", start=-1, stop=1, points=21)
    assert data.differs[data.xs <= 0].all()


@pytest.mark.parametrize("name, args", [
    ("x2sinx_answer", dict(function="x^2 sin x", expect="2x cos x", start=-4, stop=4)),
    ("tan_order2", dict(function="tan x", order=2, start=-3, stop=3)),
    ("ln_answer_agrees", dict(function="ln(x)", expect="1/x", start=-1, stop=4)),
])
def test_text_plot_goldens(name, args):
    text = render_text(sample(**args), width=72, height=18)
    path = GOLDENS / f"{name}.txt"
    if os.environ.get("GRADCLI_UPDATE_GOLDENS"):
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8")
    assert "\x1b[" not in text  # no colour codes in plain text


def test_errors():
    with pytest.raises(GradcliError, match="one variable"):
        sample("x*y")
    with pytest.raises(GradcliError, match="not an interval"):
        sample("x^2", start=2, stop=1)
    out = runner.invoke(app, ["plot", "x^2 + sin(x", "--no-color"])
    assert out.exit_code == 2 and "gradcli: error:" in out.stderr and "^" in out.stderr


def test_cli_plot_and_check_plot():
    out = runner.invoke(app, ["plot", "x^2", "--expect", "2x", "--no-color", "--width", "60"])
    assert out.exit_code == 0
    assert "f(x) = x²" in out.stdout and "your answer agrees with f′ on [-5, 5]" in out.stdout
    out = runner.invoke(app, ["check", "x^2", "--expect", "x", "--plot", "--no-color"])
    assert out.exit_code == 1
    assert "✗ incorrect" in out.stdout and "your answer differs from f′ on" in out.stdout


def test_an_answer_written_with_its_left_side_is_plotted():
    # check accepts dy/dx = 2x; --plot then stopped with "an equation here" (exit 2 after ✓ correct)
    out = runner.invoke(app, ["check", "x^2", "--expect", "dy/dx = 2x", "--plot", "--no-color"])
    assert out.exit_code == 0 and "your answer agrees with f′" in out.stdout
    out = runner.invoke(app, ["check", "x^3", "--expect", "f''(x) = 6x", "--plot", "--no-color"])
    assert out.exit_code == 0 and "your answer agrees with f″" in out.stdout
    assert not sample("x^2", expect="y = 2x", start=-2, stop=2, points=21).differs.any()
    with pytest.raises(GradcliError, match="the answer says f''"):
        sample("x^3", expect="f''(x) = 6x")  # the plot compares with f′ unless --order 2


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and header[12:16] == b"IHDR"
    return struct.unpack(">II", header[16:24])


def test_png_and_svg(tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "plot.png", tmp_path / "plot.svg"
    out = runner.invoke(app, ["plot", "x^2 sin x", "--expect", "2x cos x", "--png", str(png), "--svg", str(svg),
                              "--no-color"])
    assert out.exit_code == 0, out.output
    assert _png_size(png) == (800, 500)  # figsize 8x5 inches at 100 dpi
    assert png.stat().st_size > 10_000
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml") and "<svg" in svg.read_text(encoding="utf-8")


def test_missing_matplotlib_is_a_clear_error(monkeypatch, tmp_path):
    import builtins

    real_import = builtins.__import__

    def without_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_matplotlib)
    out = runner.invoke(app, ["plot", "x^2", "--png", str(tmp_path / "p.png"), "--no-color"])
    assert out.exit_code == 2
    assert "need matplotlib" in out.stderr and "pip install 'gradcli[plot]'" in out.stderr
