"""CPU-time budgets (issue 30 item 5): a budget counts what the computation costs, not how long a busy
machine takes to give it the CPU.  Sleeping (wall time passes, no CPU is used) stands in for the load."""

from __future__ import annotations

import time

import pytest

from gradcli.safety.guard import CpuDeadline, TimeLimit
from gradcli.verify.sympy_forms import SymbolicTimeout, bounded, cpu_bounded


def spin(seconds: float) -> None:
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


def test_waiting_does_not_use_a_cpu_budget():
    start = time.perf_counter()
    with CpuDeadline(0.1, "too long"):
        time.sleep(0.4)  # the machine busy elsewhere: 0.4 s pass, almost no CPU for us
    assert time.perf_counter() - start >= 0.4


def test_computing_uses_it_up():
    start = time.process_time()
    with pytest.raises(TimeLimit, match="too long"), CpuDeadline(0.2, "too long"):
        spin(10)
    assert time.process_time() - start < 2


def test_nested_budgets_each_report_their_own():
    with pytest.raises(TimeLimit, match="inner"), CpuDeadline(5, "outer"), CpuDeadline(0.1, "inner"):
        spin(10)
    with pytest.raises(TimeLimit, match="outer"), CpuDeadline(0.1, "outer"), CpuDeadline(5, "inner"):
        spin(10)


def test_a_finished_block_leaves_nothing_armed():
    with CpuDeadline(0.1, "done"):
        pass
    spin(0.3)  # no late exception lands here


def test_sympy_budgets_of_check_are_cpu_time():
    assert cpu_bounded(0.1, lambda: (time.sleep(0.3), "done")[1]) == "done"
    with pytest.raises(SymbolicTimeout):
        bounded(0.1, time.sleep, 0.3)  # the wall-time budget, for comparison: a slow machine fails it
    with pytest.raises(SymbolicTimeout, match="CPU"):
        cpu_bounded(0.1, spin, 10)
