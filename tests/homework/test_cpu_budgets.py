"""The homework commands' budgets count CPU time (issue 30 item 5): a machine busy with other work makes
them slower, never cuts their work short.  Waiting (here: sleeping, which uses no CPU) stands for the
time other processes take from this one."""

from __future__ import annotations

import time

import sympy as sp
from typer.testing import CliRunner

from gradcli.cli.commands import app
from gradcli.homework import textbook

x = sp.Symbol("x", real=True)


def test_the_textbook_search_is_not_cut_short_by_waiting(monkeypatch):
    def slow_identity(e):
        time.sleep(0.6)  # 0.6 s of wall time, no CPU: another process had the core
        return e

    monkeypatch.setattr(textbook, "_candidates", lambda: [("as computed", slow_identity), ("factor", sp.factor)])
    # x² + 2x + 1 as computed; factored, (x + 1)² is fewer operations: found only if the search goes on
    form = textbook.textbook_form(x ** 2 + 2 * x + 1, budget=0.3)
    assert form == (x + 1) ** 2


def test_steps_and_explain_say_their_budget_is_cpu_time():
    runner = CliRunner()
    for command in (["steps", "x^2 sin x"], ["explain", "x^2 sin(x)", "x=1.5"]):
        result = runner.invoke(app, [*command, "--timeout", "0.000001"])
        assert result.exit_code == 2
        assert "s of CPU time" in result.output, result.output


def test_candidates_off_the_curve_cost_no_root_searches(monkeypatch):
    """x³ + y²x = 3 has points only for 0 < x < ∛3: at every other candidate x, 9 root searches of 30 steps
    each used to fail (3440 searches, most of the check's CPU time); a scan of y now skips them.  The
    verdict and the points are the same."""
    import mpmath

    from gradcli.homework.check import check_derivative

    searches = []
    findroot = mpmath.findroot
    monkeypatch.setattr(mpmath, "findroot", lambda *args, **kwargs: searches.append(1) or findroot(*args, **kwargs))
    (result,) = check_derivative("x^3+y^2x-3=0", ["-(3x^2+y^2)/(2x y)"], wrt="x").results
    assert result.verdict == "correct" and result.proven is True and result.points == 40
    assert len(searches) < 600
