"""The engine's per-call settings, in context variables: the default dtype, grad mode, the size limit and the
budget of one call (its deadline, its memory and the cost model).  Each thread, and each API call (run in a
copy of its caller's context), sees its own values, so concurrent calls never see each other's limits and
a call leaves nothing behind (`tests/safety/test_api_isolation.py`).

`ContextAttribute` keeps the attribute syntax the engine always used (`GradMode.enabled = False`,
`SizeLimit.max_elements`), backed by a `contextvars.ContextVar`.

The budget is the cost model: an op whose result would not fit the memory left, or whose work (einsum,
matmul, convolution, ...: multiply-adds counted from the shapes, before anything runs) could not be done in
the time left even at PEAK_RATES, is refused up front with `LimitExceeded`; every tensor an op creates is
charged to the budget, and the deadline is looked at each time, so an expired call stops at its next op even
if the asynchronous exception of `safety.guard` was swallowed (by a `__del__`, a gc or weakref callback).
"""

from __future__ import annotations

import contextvars
import math
import time
import warnings
import weakref
from collections.abc import Callable

import numpy as np

from gradcli.engine.errors import LimitExceeded


class BudgetExceeded(LimitExceeded):
    """A call's time or memory is spent (`kind`: "time" or "memory"); the front end turns it into its own
    limit error (safety.guard's TimeLimit or MemoryLimit, run's LimitReached)."""

    def __init__(self, message: str, kind: str, hint: str | None):
        super().__init__(message)
        self.kind, self.hint = kind, hint


class ContextAttribute:
    """A class attribute whose value lives in a ContextVar (read and assigned on an instance)."""

    def __init__(self, name: str, default):
        self.var = contextvars.ContextVar(f"gradcli_{name}", default=default)

    def __get__(self, obj, owner=None):
        return self if obj is None else self.var.get()

    def __set__(self, obj, value):
        self.var.set(value)


# multiply-adds a second that no machine gradcli runs on exceeds for each kind of work: an op estimated to
# need more than remaining_seconds * rate is certain to overrun its deadline and is refused before it runs
PEAK_RATES = {"blas": 2e11, "loop": 2e10}
BIG_BYTES = 1 << 20  # arrays at least this large are uncharged when freed; smaller ones stay charged


class Budget:
    """What one call may still spend: wall time until `expiry` (time.monotonic) and `memory` bytes of tensors
    created by its ops (None: unbounded).  `time_error(detail)` and `memory_error()` make the front end's own
    limit errors (raised from inside the op, so the front end reports them as it reports its limits)."""

    __slots__ = ("expiry", "memory", "used", "time_error", "memory_error", "__weakref__")

    def __init__(self, seconds: float | None, memory_mb: float | None = None, *,
                 time_error: Callable[[str], BaseException] | None = None,
                 memory_error: Callable[[], BaseException] | None = None):
        self.expiry = time.monotonic() + seconds if seconds is not None and math.isfinite(seconds) else math.inf
        self.memory = None if memory_mb is None or not math.isfinite(memory_mb) else int(memory_mb * 2**20)
        self.used = 0
        self.time_error = time_error or (lambda detail: BudgetExceeded(f"the time limit passed{detail}", "time",
                                                                        None))
        self.memory_error = memory_error or (lambda: BudgetExceeded("the memory limit is reached", "memory", None))

    def out_of_time(self, detail: str = "") -> BaseException:
        return self.time_error(detail)

    def out_of_memory(self) -> BaseException:
        return self.memory_error()

    def expired(self) -> None:
        if time.monotonic() > self.expiry:
            raise self.out_of_time()

    def charge(self, array: np.ndarray) -> None:
        """A new tensor's array: count its memory (released again when a large one is freed) and stop the
        call if it is over its memory or past its deadline."""
        if time.monotonic() > self.expiry:
            raise self.out_of_time()
        if self.memory is None or not array.flags.owndata:
            return
        n = array.nbytes
        self.used += n
        if n >= BIG_BYTES:
            weakref.finalize(array, _release, weakref.ref(self), n)
        if self.used > self.memory:
            raise self.out_of_memory()

    def fits(self, nbytes: int) -> None:
        """Before allocating `nbytes`: refuse if they cannot fit in the memory left."""
        if self.memory is not None and self.used + nbytes > self.memory:
            raise self.out_of_memory()

    def affords(self, work: float, kind: str, what: str) -> None:
        """Before `work` multiply-adds of `kind` ("blas" or "loop"): refuse if even PEAK_RATES cannot do them in
        the time left."""
        left = self.expiry - time.monotonic()
        if left <= 0:
            raise self.out_of_time()
        if work > left * PEAK_RATES[kind]:
            raise self.out_of_time(f": {what} needs about {work:.2g} multiply-adds, more than can be done in "
                                   f"the {left:.3g} s left")


def _release(budget_ref, n: int) -> None:
    budget = budget_ref()
    if budget is not None:
        budget.used -= n


# where the engine's warnings (PyTorch's UserWarnings) go: `gradcli run` collects its program's without touching
# the process's warning filters or showwarning, which every thread shares
WARNINGS: contextvars.ContextVar[Callable[[str, type], None] | None] = contextvars.ContextVar("gradcli_warnings",
                                                                                             default=None)


def warn(message: str, category: type = UserWarning, stacklevel: int = 1, *, torch_location: bool = False) -> None:
    """warnings.warn, or the current context's own sink if one is set (see WARNINGS).  `torch_location`: torch
    warns from a line of its own (stacklevel inside torch), so Python's default filter shows the warning once
    per process, whichever line of the program reached it."""
    sink = WARNINGS.get()
    if sink is not None:
        if torch_location:
            sink(message, category, lineno=0)
        else:
            sink(message, category)
    else:
        warnings.warn(message, category, stacklevel=stacklevel + 1)


BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("gradcli_budget", default=None)
# torch.set_default_device / `with torch.device(...)`: the device torch's factory functions create on when they are
# given none (a torch.device, None for the CPU); gradcli has the CPU only, so any other one makes them fail as a
# CPU-only torch fails (tensor.check_device)
DEFAULT_DEVICE: contextvars.ContextVar = contextvars.ContextVar("gradcli_default_device", default=None)
# torch.inference_mode: tensors created while it is on are inference tensors (Tensor.is_inference)
INFERENCE: contextvars.ContextVar[bool] = contextvars.ContextVar("gradcli_inference_mode", default=False)


def charge(array: np.ndarray) -> None:
    """Charge a new tensor's array to the current call's budget, if it has one."""
    budget = BUDGET.get()
    if budget is not None:
        budget.charge(array)


def affords(work: float, kind: str, what: str) -> None:
    budget = BUDGET.get()
    if budget is not None:
        budget.affords(work, kind, what)


def fits(nbytes: int) -> None:
    budget = BUDGET.get()
    if budget is not None:
        budget.fits(nbytes)


# Forward-mode AD (tangents.py, forward_ad.py): the open dual level (an int, counting levels ever opened) or None,
# and whether forward grad is on (off inside a custom Function's forward, as torch runs it).
DUAL_LEVEL: contextvars.ContextVar[int | None] = contextvars.ContextVar("gradcli_dual_level", default=None)
FW_GRAD_ENABLED: contextvars.ContextVar[bool] = contextvars.ContextVar("gradcli_fw_grad_enabled", default=True)
