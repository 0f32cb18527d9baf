"""Limits enforced from outside the computation: wall time, memory and Ctrl-C, even inside one numpy call.

Two layers, both context managers that leave no thread, handler or limit behind when they exit:

- `deadline(seconds, message, hint)`: a per-evaluation deadline for any caller (a CLI command, a REPL line,
  a test).  When it passes, a timer thread raises an exception in the calling thread at its next Python
  instruction; it leaves the block as `TimeLimit` (a `GradcliError`).  Usable from any thread, any number of
  times, nested.  Numpy's long loops release the GIL but only return to Python when they end, so on its own
  this fires when the current numpy call returns.
- `command(seconds, memory_mb, ...)`: for a command that owns its process (entered through
  `gradcli.cli.main`, see `own_process`).  It adds an address-space limit (`RLIMIT_AS`: an allocation past it
  fails at once, and the MemoryError becomes a clear limit error) and a watchdog thread that ends the process
  when the main thread cannot: GRACE seconds after the deadline it flushes stdout, writes the one-line error
  and exits with code 2; after Ctrl-C it prints ``gradcli: interrupted`` and exits 130 unless the main thread
  has already stopped.  The watchdog sees SIGINT through `signal.set_wakeup_fd`, which the C-level signal
  handler writes to while the main thread is stuck in numpy.  In-process callers (CliRunner tests, the REPL)
  never get the process-ending layer: `command` is then just `deadline`.
"""

from __future__ import annotations

import math
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager

from .errors import GradcliError

GRACE_SECONDS = 0.5  # the watchdog ends the process this long after a deadline the main thread missed
INTERRUPT_GRACE_SECONDS = 0.3  # ... and this long after Ctrl-C, if KeyboardInterrupt has not ended it
EXIT_ERROR, EXIT_INTERRUPTED = 2, 130


class TimeLimit(GradcliError):
    """A wall-time limit passed."""


class MemoryLimit(GradcliError):
    """The address-space limit refused an allocation."""


class _Expired(BaseException):
    """Raised asynchronously in the guarded thread.  A BaseException, so `except Exception` cannot swallow it;
    each deadline uses its own subclass, so nested deadlines each report their own limit."""


_process_owned = False


def own_process() -> None:
    """Called by the command-line entry point: this process runs one command and may be ended by `command`."""
    global _process_owned
    _process_owned = True


# -- the per-evaluation deadline ----------------------------------------------------------------------------

def _raise_in_thread(thread_id: int, exc_type) -> None:
    import ctypes  # only when a deadline fires: keeps start-up lean

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc_type) if exc_type is not None else None)


@contextmanager
def deadline(seconds: float | None, message: str, hint: str | None = None):
    """Raise TimeLimit(message, hint) in the calling thread if the block runs longer than `seconds`."""
    if seconds is None or not math.isfinite(seconds) or seconds <= 0:
        yield
        return
    expired = type("_Expired", (_Expired,), {})
    thread_id = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}
    stop = threading.Event()

    def fire():
        if stop.wait(seconds):
            return
        with lock:
            if not state["done"]:
                state["fired"] = True
                _raise_in_thread(thread_id, expired)

    timer = threading.Thread(target=fire, name="gradcli-deadline", daemon=True)
    timer.start()
    try:
        yield
    except expired:
        raise TimeLimit(message, hint=hint) from None
    finally:
        while True:  # the exception may land here, as the block ends: finish the clean-up all the same
            try:
                with lock:
                    state["done"] = True
                    if state["fired"]:
                        _raise_in_thread(thread_id, None)  # drop one not delivered yet
                stop.set()
                timer.join()
                break
            except expired:
                continue


# -- the process-level guard --------------------------------------------------------------------------------

def _address_space() -> int | None:
    """This process's virtual size in bytes (Linux), what RLIMIT_AS counts."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def _memory_limit(memory_mb: float | None, what: str):
    """Cap the address space at its current size plus `memory_mb`; restore the previous soft limit after."""
    try:
        import resource
    except ImportError:  # not on this platform: the size guard still bounds every tensor
        resource = None
    current = _address_space()
    if resource is None or current is None or memory_mb is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = current + int(memory_mb * 2**20)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY:
        wanted = min(wanted, soft)
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    try:
        yield
    except MemoryError:
        raise MemoryLimit(f"{what} needed more than the memory limit of {memory_mb:g} MB",
                          hint="use smaller tensors") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _end_process(code: int, text: str) -> None:
    """Flush what was printed (without waiting on a stuck writer), say why, and exit at once."""
    flusher = threading.Thread(target=_flush_stdout, daemon=True)
    flusher.start()
    flusher.join(0.2)
    try:
        os.write(2, text.encode("utf-8", "replace"))
    finally:
        os._exit(code)


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except Exception:  # a closed pipe: nothing left to save
        pass


class _Watchdog:
    """A thread that ends the process when the deadline has passed by GRACE seconds, or after Ctrl-C."""

    def __init__(self, seconds: float | None, timeout_text: Callable[[], str]):
        self.end = None if seconds is None else time.monotonic() + seconds + GRACE_SECONDS
        self.timeout_text = timeout_text
        self.wake_r, self.wake_w = os.pipe()
        self.stop_r, self.stop_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        self.previous_wakeup = None
        self.thread = threading.Thread(target=self.watch, name="gradcli-watchdog", daemon=True)

    def start(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self.previous_wakeup = signal.set_wakeup_fd(self.wake_w, warn_on_full_buffer=False)
        self.thread.start()

    def stop(self) -> None:
        os.write(self.stop_w, b"x")
        self.thread.join()
        if self.previous_wakeup is not None:
            signal.set_wakeup_fd(self.previous_wakeup)
        for fd in (self.wake_r, self.wake_w, self.stop_r, self.stop_w):
            os.close(fd)

    def watch(self) -> None:
        while True:
            wait = None if self.end is None else max(0.0, self.end - time.monotonic())
            ready, _, _ = select.select([self.wake_r, self.stop_r], [], [], wait)
            if self.stop_r in ready:
                return
            if self.wake_r in ready:
                signals = os.read(self.wake_r, 512)
                if signal.SIGINT in signals:
                    # KeyboardInterrupt ends the command itself if the main thread runs Python code
                    ready, _, _ = select.select([self.stop_r], [], [], INTERRUPT_GRACE_SECONDS)
                    if not ready:
                        _end_process(EXIT_INTERRUPTED, "gradcli: interrupted\n")
                    return
                continue
            if self.end is not None and time.monotonic() >= self.end:
                _end_process(EXIT_ERROR, self.timeout_text())


@contextmanager
def command(seconds: float | None, *, memory_mb: float | None = None, what: str = "the evaluation",
            hint: str | None = "raise it with --timeout", timeout_text: Callable[[], str] | None = None):
    """Bound a whole command: `seconds` of wall time and `memory_mb` of memory growth (process-owning callers).

    `timeout_text` gives what the watchdog prints when it has to end the process (by default the same
    ``gradcli: error:`` line and hint as the TimeLimit the main thread would raise).
    """
    message = f"{what} took longer than {seconds:g} s" if seconds is not None else ""
    if seconds is not None and (not math.isfinite(seconds) or seconds <= 0):
        seconds = None
    if timeout_text is None:
        def timeout_text():
            return TimeLimit(message, hint=hint).render() + "\n"
    if not _process_owned:
        with deadline(seconds, message, hint):
            yield
        return
    watchdog = _Watchdog(seconds, timeout_text)
    watchdog.start()
    try:
        with _memory_limit(memory_mb, what), deadline(seconds, message, hint):
            yield
    finally:
        watchdog.stop()
