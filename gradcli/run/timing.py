"""Python's `timeit` module for programs: `timeit.default_timer()`, `timeit.timeit(stmt, number=)`,
`timeit.repeat(stmt, repeat=, number=)` and `timeit.Timer(stmt)` with its `timeit` and `repeat`, running the
program's own function (a callable statement: gradcli never evaluates text).  The times are the wall clock's, as
Python's; each call of the statement counts as one loop iteration against max_iterations."""

from __future__ import annotations

import time

from gradcli.run.numpy_api import NumpyRefused

default_timer = time.perf_counter


def _statement(stmt, what: str):
    if isinstance(stmt, str):
        if stmt.strip() in ("", "pass"):
            return None
        raise NumpyRefused(f"{what} with a statement given as text (gradcli run never evaluates text: pass a "
                           "function, e.g. timeit.timeit(lambda: f(x), number=100))")
    if not callable(stmt):
        raise ValueError("stmt is neither a string nor callable")
    return stmt


class Timer:
    """timeit.Timer(stmt, setup): a callable statement (and setup) timed over `number` calls."""

    def __init__(self, stmt="pass", setup="pass", timer=None, globals=None, *, tick=None):  # noqa: A002 - Python's
        self.stmt = _statement(stmt, "timeit.Timer")
        self.setup = _statement(setup, "timeit.Timer")
        self.timer = timer or default_timer
        self.tick = tick

    def timeit(self, number=1000000) -> float:
        if self.setup is not None:
            self.setup()
        start = self.timer()
        for _ in range(number):
            if self.tick is not None:
                self.tick()
            if self.stmt is not None:
                self.stmt()
        return self.timer() - start

    def repeat(self, repeat=5, number=1000000) -> list:
        return [self.timeit(number) for _ in range(repeat)]


def members(tick) -> dict:
    """The timeit module of one run: its loops tick the run's iteration count."""
    def make_timer(stmt="pass", setup="pass", timer=None, globals=None):  # noqa: A002 - Python's name
        return Timer(stmt, setup, timer, globals, tick=tick)

    def timeit(stmt="pass", setup="pass", timer=None, number=1000000, globals=None):  # noqa: A002
        return make_timer(stmt, setup, timer).timeit(number)

    def repeat(stmt="pass", setup="pass", timer=None, repeat=5, number=1000000, globals=None):  # noqa: A002
        return make_timer(stmt, setup, timer).repeat(repeat, number)

    return {"default_timer": default_timer, "timeit": timeit, "repeat": repeat, "Timer": make_timer}
