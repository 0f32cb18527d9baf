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
