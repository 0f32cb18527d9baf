"""The one deadline mechanism (safety.guard.Deadline) as its users need it: rows (one per row, reused), sympy
(its own error, unsupervised, inside a command's deadline), and nothing left behind — no timer armed, the
previous SIGALRM handler back."""

from __future__ import annotations

import signal
import time

import pytest

from gradcli.safety import guard
from gradcli.verify.sympy_forms import SymbolicTimeout, bounded, time_budget


def spin():
    while True:
        pass


def nothing_left_behind(previous_handler):
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is previous_handler


def test_deadline_restores_the_alarm_handler_and_timer():
    previous = signal.getsignal(signal.SIGALRM)
    with pytest.raises(guard.TimeLimit):
        with guard.deadline(0.05, "late"):
            spin()
    nothing_left_behind(previous)
    with guard.deadline(5, "never"):
        pass
    nothing_left_behind(previous)


def test_sympy_budget_raises_its_own_error_inside_a_command_deadline():
    previous = signal.getsignal(signal.SIGALRM)
    with guard.deadline(10, "the command"):
        with pytest.raises(SymbolicTimeout, match="sympy took longer than 0.1 s"):
            bounded(0.1, spin)
        # the command's deadline is still armed, and still fires with its own message
        with pytest.raises(guard.TimeLimit, match="the row"):
            with guard.deadline(0.05, "the row"):
                spin()
    nothing_left_behind(previous)


def test_outer_deadline_passing_inside_a_sympy_budget_is_the_outer_limit():
    with pytest.raises(guard.TimeLimit, match="the command"):
        with guard.deadline(0.1, "the command"), time_budget(10):
            spin()


def test_a_swallowed_expiry_fires_again():
    # sympy has bare `except:` clauses; the deadline repeats until the block is left
    start = time.monotonic()
    with pytest.raises(guard.TimeLimit):
        with guard.deadline(0.05, "late"):
            for _ in range(3):
                try:
                    spin()
                except BaseException:  # noqa: BLE001 - what a careless library does
                    pass
            spin()
    assert time.monotonic() - start < 3


def test_one_deadline_per_row_in_a_session_keeps_the_handler_installed():
    previous = signal.getsignal(signal.SIGALRM)
    row = guard.Deadline(5, "a row's evaluation took longer than 5 s")
    with guard.alarm_session():
        for _ in range(1000):
            with row:
                pass
        assert signal.getsignal(signal.SIGALRM) is not previous  # no handler swap per row
        with pytest.raises(guard.TimeLimit, match="a row"):
            with guard.Deadline(0.05, "a row's evaluation took too long"):
                spin()
    nothing_left_behind(previous)


def test_a_finished_block_is_not_interrupted_afterwards():
    with guard.deadline(0.05, "short"):
        pass
    time.sleep(0.15)  # an alarm left armed would raise here
