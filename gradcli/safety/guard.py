"""Limits enforced from outside the computation: wall time, memory and Ctrl-C, even inside one numpy call.

Two layers, both context managers that leave no thread, handler or limit behind when they exit:

- `Deadline(seconds, message, hint)` / `deadline(...)`: the one wall-time limit for any unit of work (a whole
  command, a row of rows mode, a REPL line, a sympy call, a test).  When it passes, an exception is raised in
  the guarded thread at its next Python instruction (SIGALRM in the main thread, a timer thread elsewhere); it
  leaves the block as `TimeLimit` (a `GradcliError`) or the caller's own error.  Usable from any thread, any
  number of times, nested.  Numpy's long loops only return to Python when they end, so on its own this fires
  when the current numpy call returns.
- `command(seconds, memory_mb, ...)`: for a command that owns its process (entered through
  `gradcli.cli.main`, see `own_process`).  It adds an address-space limit (`RLIMIT_AS`: an allocation past it
  fails at once, and the MemoryError becomes a clear limit error), and it forks: the child does the work, the
  parent only supervises.  GRACE seconds after a deadline the child missed (stuck in one long C call), the
  parent kills it, writes the one-line error and exits 2; after Ctrl-C it gives the child a moment to stop by
  itself (``gradcli: interrupted``, exit 130) and otherwise ends it and says so; a child that crashes becomes
  a clear error.  When the guarded block ends, the child says so, and its exit (reporting, freeing a large
  graph) is no longer timed, so a limit is reported once.  SIGTERM/SIGHUP to the parent end the child too.
  A watchdog thread could not promise this: a C loop that holds the GIL (``str()`` of a huge list,
  ``np.add.at``) stops every thread of its process.  In-process callers (CliRunner tests, the REPL)
  never get this layer: `command` is then just `deadline`.
"""

from __future__ import annotations

import contextvars
import math
import mmap
import os
import select
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager

from gradcli.safety.errors import GradcliError

try:
    import resource
except ImportError:  # not on this platform: the size guard still bounds every tensor
    resource = None

GRACE_SECONDS = 0.5  # the supervisor ends the worker this long after a deadline the worker missed
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


# -- the deadline: one mechanism for a command, a row, a REPL line, a sympy call --------------------------------
#
# Two ways to deliver the same exception.  By default a timer thread raises it in the guarded thread with
# PyThreadState_SetAsyncExc (checked only between bytecodes of Python code).  Inside `alarm_session()` — rows
# mode's loop over rows and each sympy call, short blocks of gradcli's own code — deadlines of the main thread
# share one SIGALRM timer set to the earliest expiry instead: entering and leaving costs a clock read and a
# `setitimer`, no thread, so a row can afford one.  The handler raises the expired deadline's own exception
# class, again every REPEAT_SECONDS in case a bare `except:` (sympy has some) ate it, and never inside this
# module's own bookkeeping.  A signal handler can also run inside C code that checks for signals (the compiler,
# a garbage-collector callback), which is why a whole command or a program run keeps the thread.

REPEAT_SECONDS = 0.1
_alarms = hasattr(signal, "setitimer")
_stack: list[Deadline] = []  # the main thread's active deadlines, outermost first
_timer_expiry = math.inf  # what the SIGALRM timer is set to (time.monotonic)
_previous_handler = None  # the SIGALRM handler before ours, while ours is installed
_sessions = 0  # `alarm_session` depth: keep the handler installed between deadlines


class Deadline:
    """A wall-time limit on the block it guards: `with Deadline(seconds, message, hint): ...` raises
    `error(message, hint)` (TimeLimit by default) if the block runs past `seconds`.  Nested deadlines each report
    their own limit.  In a supervised worker the parent ends the worker should the block still run GRACE_SECONDS
    past the limit (stuck in one long C call), printing `supervisor_text()` (see `arm`); `supervise=False` for a
    soft limit whose caller carries on without the result (sympy's).  Reusable, not re-entrant."""

    __slots__ = ("seconds", "message", "hint", "error", "supervisor_text", "supervise", "expired", "expiry",
                 "token", "done", "timer", "context_token", "thread")

    def __init__(self, seconds: float | None, message: str, hint: str | None = None, *, error=None,
                 supervisor_text: Callable[[], str] | None = None, supervise: bool = True):
        self.seconds = seconds if seconds is not None and math.isfinite(seconds) and seconds > 0 else None
        self.message, self.hint = message, hint
        self.error = error or (lambda message, hint: TimeLimit(message, hint=hint))
        self.supervisor_text, self.supervise = supervisor_text, supervise
        self.expired = type("_Expired", (_Expired,), {})
        self.token = self.timer = self.context_token = self.thread = None
        self.expiry, self.done = math.inf, True

    def __enter__(self):
        if self.seconds is None:
            return self
        self.expiry = time.monotonic() + self.seconds
        outer = current_deadline()
        if outer is not None and outer.expiry <= self.expiry:
            return self  # an enclosing deadline of this thread passes first and says so: no second timer
        self.done = False
        self.thread = threading.get_ident()
        self.context_token = _CURRENT.set(self)
        if self.supervise:
            self.token = arm(self.seconds, self.supervisor_text or self._text)
        if _sessions and _alarms and threading.current_thread() is threading.main_thread():
            _push(self)
        else:
            self.timer = _ThreadTimer(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.seconds is None:
            return False
        pending = None
        while True:  # an exception may land during the clean-up (off the main thread): finish it all the same
            try:
                self._leave()
                break
            except _Expired as landed:
                if not isinstance(landed, self.expired):
                    pending = landed  # an outer deadline's: it goes on up
        if exc_type is not None and issubclass(exc_type, self.expired):
            raise self.error(self.message, self.hint) from None
        if pending is not None:
            raise pending
        return False

    def _leave(self):
        if self.done:
            return
        self.done = True
        if self.context_token is not None:
            _CURRENT.reset(self.context_token)
            self.context_token = None
        disarm(self.token)
        self.token = None
        if self.timer is not None:
            timer, self.timer = self.timer, None
            timer.stop()
        else:
            _pop(self)

    def _text(self) -> str:
        return self.error(self.message, self.hint).render() + "\n"


_CURRENT: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("gradcli_deadline", default=None)


def current_deadline() -> Deadline | None:
    """The innermost deadline guarding this thread (this context) now, if any: an evaluation's own budget
    (engine/state.py) stops with its message when it sees it has passed."""
    d = _CURRENT.get()  # (a context copied into another thread carries it along: that thread's is not it)
    return d if d is not None and not d.done and d.thread == threading.get_ident() else None


def deadline(seconds: float | None, message: str, hint: str | None = None,
             supervisor_text: Callable[[], str] | None = None) -> Deadline:
    """Raise TimeLimit(message, hint) if the block runs longer than `seconds` (see `Deadline`)."""
    return Deadline(seconds, message, hint, supervisor_text=supervisor_text)


@contextmanager
def alarm_session():
    """Keep the SIGALRM handler installed between the deadlines of the block (rows mode: one per row), saving
    the handler swap each would otherwise cost; the previous handler is back when the block ends."""
    global _sessions
    _sessions += 1
    try:
        yield
    finally:
        _sessions -= 1
        if not _stack and not _sessions:
            _uninstall()


def _push(d: Deadline) -> None:
    global _previous_handler
    if _previous_handler is None:
        _previous_handler = signal.signal(signal.SIGALRM, _on_alarm) or signal.SIG_DFL
    _stack.append(d)
    if d.expiry < _timer_expiry:
        _set_timer(d.expiry)


def _pop(d: Deadline) -> None:
    try:
        _stack.remove(d)
    except ValueError:
        return
    if not _stack:
        _set_timer(math.inf)
        if not _sessions:
            _uninstall()
    elif d.expiry <= _timer_expiry:
        _set_timer(min(x.expiry for x in _stack))


def _uninstall() -> None:
    global _previous_handler
    if _previous_handler is not None and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, _previous_handler)
        _previous_handler = None


def _set_timer(expiry: float, repeat: float = 0.0) -> None:
    global _timer_expiry
    _timer_expiry = expiry
    if expiry == math.inf:
        signal.setitimer(signal.ITIMER_REAL, 0)
    else:
        signal.setitimer(signal.ITIMER_REAL, max(expiry - time.monotonic(), 1e-6), repeat)


def _on_alarm(signum, frame) -> None:
    now = time.monotonic()
    for d in _stack:
        if d.expiry <= now and not d.done:
            if frame is not None and frame.f_globals is globals():
                _set_timer(now + 1e-3)  # inside a deadline's own bookkeeping: right after it
                return
            _set_timer(now + REPEAT_SECONDS, REPEAT_SECONDS)
            raise d.expired
    if _stack:
        _set_timer(min(x.expiry for x in _stack))


def _raise_in_thread(thread_id: int, exc_type) -> None:
    import ctypes  # only when a deadline fires off the main thread: keeps start-up lean

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc_type) if exc_type is not None else None)


class _ThreadTimer:
    """A deadline off the main thread: a timer thread raises its exception in the guarded thread."""

    def __init__(self, d: Deadline, start: bool = True):
        self.thread_id = threading.get_ident()
        self.lock = threading.Lock()
        self.finished = self.fired = False
        self.stop_event = threading.Event()
        self.expired, self.seconds = d.expired, d.seconds
        self.thread = threading.Thread(target=self.fire, name="gradcli-deadline", daemon=True)
        if start:
            self.thread.start()

    def fire(self):
        if not self.stop_event.wait(self.seconds):
            self.keep_firing()

    def keep_firing(self):
        """Raise in the guarded thread, and again every REPEAT_SECONDS until stopped (a gc callback or a
        `__del__` that swallowed one does not end the deadline)."""
        while True:
            with self.lock:
                if self.finished:
                    return
                self.fired = True
                _raise_in_thread(self.thread_id, self.expired)
            if self.stop_event.wait(REPEAT_SECONDS):
                return

    def stop(self):
        with self.lock:
            self.finished = True
            if self.fired:
                _raise_in_thread(self.thread_id, None)  # drop one not delivered yet
        self.stop_event.set()
        self.thread.join()


# -- deadlines the supervisor enforces too ------------------------------------------------------------------
#
# A deadline inside a supervised worker (a REPL line, a row of rows mode, one evaluation) is also written to a
# page shared with the supervising parent: its expiry (time.monotonic, the same clock in both processes) and
# the error text.  Should the worker still be inside it GRACE_SECONDS after it expired (stuck in one long C
# call, where no exception can land), the parent ends the worker with that text, as for the whole command's
# deadline.  Outside a supervised worker `arm` does nothing.

_SLOT_BYTES = 4096
_SLOT_HEADER = struct.Struct("dQI")  # expiry (0: none), generation, length of the text
_slot = None  # the shared page (mmap), in the worker and its supervisor
_armed: dict[int, tuple[float, Callable[[], str]]] = {}
_armed_lock = threading.Lock()
_generation = 0


def arm(seconds: float | None, text: Callable[[], str]) -> int | None:
    """Tell the supervisor (if any) that the work from now on must end within `seconds`, or it prints `text()`
    and ends the worker.  Returns the token for `disarm`.  Cheap: no system call."""
    if _slot is None or seconds is None or not math.isfinite(seconds) or seconds <= 0:
        return None
    with _armed_lock:
        token = _generation + 1
        _armed[token] = (time.monotonic() + seconds, text)
        _publish()
    return token


def disarm(token: int | None) -> None:
    if token is None or _slot is None:
        return
    with _armed_lock:
        if _armed.pop(token, None) is not None:
            _publish()


def _publish() -> None:
    """The earliest armed expiry and its text on the shared page (called with _armed_lock held)."""
    global _generation
    _generation += 1
    if _armed:
        expiry, text = min(_armed.values(), key=lambda item: item[0])
        data = text().encode("utf-8", "replace")[:_SLOT_BYTES - _SLOT_HEADER.size]
    else:
        expiry, data = 0.0, b""
    _slot[_SLOT_HEADER.size:_SLOT_HEADER.size + len(data)] = data
    _SLOT_HEADER.pack_into(_slot, 0, expiry, _generation, len(data))


def detach_from_supervisor() -> None:
    """In a child process the worker forked for one unit of work (a REPL line): its deadlines are its own, raised
    in it as usual, but never published to the supervisor, which would end the worker (the session) for them;
    the worker that forked it ends it from outside instead (gradcli/calc/repl.py)."""
    global _slot, _settled_fd
    _slot = None
    _settled_fd = None
    _armed.clear()


def _read_slot(slot) -> tuple[float, int, bytes]:
    expiry, generation, length = _SLOT_HEADER.unpack_from(slot, 0)
    return expiry, generation, bytes(slot[_SLOT_HEADER.size:_SLOT_HEADER.size + length])


# -- the process-level guard --------------------------------------------------------------------------------

def process_memory(kind: str) -> int | None:
    """This process's `"virtual"` size (what RLIMIT_AS counts) or `"resident"` memory in bytes, where /proc
    tells it (Linux); None elsewhere."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[("virtual", "resident").index(kind)]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def _memory_limit(memory_mb: float | None, what: str):
    """Cap the address space at its current size plus `memory_mb`; restore the previous soft limit after."""
    current = process_memory("virtual")
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
    except (MemoryError, ImportError, RuntimeError, SystemError) as error:
        if not _out_of_memory(error):
            raise
        raise MemoryLimit(f"{what} needed more than the memory limit of {memory_mb:g} MB",
                          hint="use smaller tensors, or raise the limit with --max-memory") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _out_of_memory(error: BaseException | None) -> bool:
    """Whether `error`, or what it was raised from, is the address-space cap refusing memory: a MemoryError; a
    module first imported under the cap (numpy.random for randn, sympy's mpmath, which sympy re-raises as its
    own ImportError) failing to map its shared library, or failing as a SystemError; a timer thread failing to
    map its stack (but typer.Exit is a RuntimeError too)."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, MemoryError):
            return True
        text = str(error)
        if isinstance(error, ImportError) and ("failed to map segment" in text or "annot allocate memory" in text):
            return True
        if type(error) is RuntimeError and "can't start new thread" in text:
            return True
        if type(error) is SystemError and "without" in text and "exception" in text:
            return True  # an import that ran out of memory under the cap, as CPython 3.11 reports it
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


SLOT_POLL_SECONDS = 0.1  # how often the supervisor looks at the worker's own deadlines


def _supervise(child: int, child_done: int, settled: int, seconds: float | None,
               timeout_text: Callable[[], str], slot, interrupts_worker: bool) -> None:
    """The parent's whole job after the fork: wait for the worker, end it if it overruns (the command's
    deadline, or one the worker armed, see `arm`) or on Ctrl-C, and exit with its exit code.  Never returns.

    `interrupts_worker` (an interactive session): Ctrl-C belongs to the worker, which cancels the line
    itself; the supervisor ends it only if the deadline armed at that moment is still armed after the grace."""
    end = None if seconds is None else time.monotonic() + seconds + GRACE_SECONDS
    interrupted = None
    interrupted_generation = None
    # signals arrive as bytes on a pipe, so no exception can land between two steps of this loop
    signals_r, signals_w = os.pipe()
    os.set_blocking(signals_w, False)

    def note(signum, frame):
        os.write(signals_w, bytes([signum]))

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, note)
    while True:
        now = time.monotonic()
        wakes = [t for t in (end, interrupted and interrupted + INTERRUPT_GRACE_SECONDS,
                             slot is not None and now + SLOT_POLL_SECONDS) if t]
        ready, _, _ = select.select([child_done, signals_r, settled], [], [],
                                    max(0.0, min(wakes) - now) if wakes else None)
        if child_done in ready:
            break
        if settled in ready:  # the work is over and the worker reports it itself: no deadline for its exit
            os.read(settled, 1)
            end = None
        if signals_r in ready:
            for signum in os.read(signals_r, 64):
                if signum != signal.SIGINT:  # terminated: take the worker along
                    os.kill(child, signal.SIGKILL)
                    os.waitpid(child, 0)
                    _remove_worker_temps()
                    os._exit(128 + signum)
                if interrupted is None:  # the worker got it too from the terminal: a moment to stop itself
                    interrupted = time.monotonic()
                    if interrupts_worker:
                        expiry, interrupted_generation, _ = _read_slot(slot)
                        if not expiry:  # at the prompt: the worker's own business
                            interrupted = None
        now = time.monotonic()
        if slot is not None:
            expiry, generation, text = _read_slot(slot)
            if expiry and now >= expiry + GRACE_SECONDS:
                _end_worker(child, EXIT_ERROR, text.decode("utf-8", "replace"))
            if interrupted is not None and interrupts_worker and generation != interrupted_generation:
                interrupted = None  # the line that was running has ended: the worker stopped it itself
        if interrupted is not None and now >= interrupted + INTERRUPT_GRACE_SECONDS:
            _end_worker(child, EXIT_INTERRUPTED, "gradcli: interrupted\n")
        if end is not None and now >= end:
            _end_worker(child, EXIT_ERROR, timeout_text())
    code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    _remove_worker_temps()  # nothing, unless the worker died before it could
    if code < 0:  # the worker died of a signal
        if -code == signal.SIGINT:
            os._exit(EXIT_INTERRUPTED)
        if -code == getattr(signal, "SIGPIPE", None):  # the reader went away (| head): end quietly, as it did
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGPIPE)
        name = signal.Signals(-code).name
        os.write(2, f"gradcli: error: the computation crashed ({name}); nothing was lost but its output\n"
                    "hint: please report it, with the command that caused it\n".encode())
        os._exit(EXIT_ERROR)
    os._exit(code)


def _end_worker(child: int, code: int, text: str) -> None:
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    _remove_worker_temps()
    os.write(2, text.encode("utf-8", "replace"))
    os._exit(code)


_TEMPS_BYTES = 1 << 16
_temps_slot = None  # the worker: where it lists its unfinished temporary files (NUL-separated)
_temps_of_worker = None  # the supervisor: the same page, read once the worker is gone
_temps: set[bytes] = set()


def register_temp(path: str) -> None:
    """An output file's temporary file exists (gradcli/io/outputs.py): should the supervisor have to end this
    worker (SIGTERM, SIGHUP, Ctrl-C, a limit), it removes the file; the worker may be stuck in C code."""
    _temps.add(os.fsencode(os.path.abspath(path)))
    _write_temps()


def unregister_temp(path: str) -> None:
    _temps.discard(os.fsencode(os.path.abspath(path)))
    _write_temps()


def _write_temps() -> None:
    if _temps_slot is None:
        return
    data = b"\0".join(sorted(_temps)) + b"\0\0"
    if len(data) <= _TEMPS_BYTES:
        _temps_slot[:len(data)] = data


def _remove_worker_temps() -> None:
    """The supervisor, after the worker is gone: remove the temporary files it had not finished."""
    if _temps_of_worker is None:
        return
    data = bytes(_temps_of_worker[:])
    for path in data.split(b"\0\0", 1)[0].split(b"\0"):
        if path:
            try:
                os.unlink(path)
            except OSError:
                pass


_supervised = False  # this process is the worker under a supervising parent
_settled_fd: int | None = None  # the worker tells the supervisor here that the guarded work is over


def _fork_supervisor(seconds: float | None, timeout_text: Callable[[], str], interrupts_worker: bool = False) -> None:
    """Split into a supervising parent and a worker child; return in the child (the parent never returns).

    A watchdog thread would not do: a long C loop that holds the GIL (str() of a huge list, np.add.at)
    keeps every other thread of the process from running; another process is never held up."""
    global _supervised, _settled_fd, _slot

    sys.stdout.flush()  # what is buffered now must be written once, not by both processes
    sys.stderr.flush()
    global _temps_slot
    done_r, done_w = os.pipe()
    settled_r, settled_w = os.pipe()
    slot = mmap.mmap(-1, _SLOT_BYTES)  # anonymous and shared: the worker's writes are the parent's reads
    temps = mmap.mmap(-1, _TEMPS_BYTES)
    child = os.fork()
    if child:
        os.close(done_w)  # the pipe reads end-of-file when the worker exits: select can wait on it
        os.close(settled_w)
        global _temps_of_worker
        _temps_of_worker = temps
        _supervise(child, done_r, settled_r, seconds, timeout_text, slot, interrupts_worker)
    _slot = slot
    _temps_slot = temps
    os.close(done_r)
    os.close(settled_r)
    _supervised, _settled_fd = True, settled_w
    _die_with_parent()


def _die_with_parent() -> None:
    """Linux: should the supervisor be killed outright (SIGKILL), the worker goes too."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@contextmanager
def command(seconds: float | None, *, memory_mb: float | None = None, what: str = "the evaluation",
            hint: str | None = "raise it with --timeout", timeout_text: Callable[[], str] | None = None,
            interrupts_worker: bool = False):
    """Bound a whole command: `seconds` of wall time and `memory_mb` of memory growth.

    In a process-owning command the work goes on in a forked worker under a supervising parent (once per
    process); `timeout_text` is what the parent prints if it has to end the worker (by default the same
    ``gradcli: error:`` line and hint as the TimeLimit the worker raises itself when it can).
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
    forked = not _supervised and hasattr(os, "fork")
    if forked:
        _fork_supervisor(seconds, timeout_text, interrupts_worker)
    try:
        # the deadline's thread (its stack) exists before the address space is capped: a small cap then
        # refuses the work, not the thread that times it
        with deadline(seconds, message, hint, timeout_text), _memory_limit(memory_mb, what):
            yield
    finally:
        if forked:  # whatever is left (reporting an error, freeing a large graph) is no longer timed
            os.write(_settled_fd, b"s")


def time_limit(seconds: float):
    """Raise TimeLimit when the evaluation runs longer than `seconds` (any thread; see `guard.deadline`)."""
    return deadline(seconds, f"evaluation took longer than {seconds:g} s", hint="raise it with --timeout")


# -- CPU-time budgets: what a computation costs, not how busy the machine is ------------------------------
#
# A wall-time budget measures the machine: on a loaded 2-core machine a check that needs 2 s of CPU takes 8 s.
# `CpuDeadline` counts this process's CPU time (time.process_time: user + system, all threads) instead.  A
# watcher thread polls the clock and raises in the guarded thread, as `_ThreadTimer` does (no signal handler:
# the block may compile or parse).  A computation stuck in one C call is not interrupted by it; a wall-time
# `Deadline` or `command` around it stays the backstop for that.

CPU_POLL_SECONDS = 0.02


class _CpuWatcher(_ThreadTimer):
    """`_ThreadTimer` on the process's CPU clock."""

    def __init__(self, seconds: float, expired):
        self.start_cpu = time.process_time()
        holder = type("_Budget", (), {"expired": expired, "seconds": seconds})
        super().__init__(holder, start=False)  # CpuDeadline starts it once it holds it (a tiny budget fires at once)

    def used(self) -> float:
        return time.process_time() - self.start_cpu

    def fire(self):
        # the CPU clock cannot run faster than the wall clock: never wait past what the budget has left
        while not self.stop_event.wait(min(CPU_POLL_SECONDS, max(0.0, self.seconds - self.used()))):
            if self.used() >= self.seconds:
                self.keep_firing()
                return


class CpuDeadline:
    """`with CpuDeadline(seconds, message, hint): ...` raises `error(message, hint)` (TimeLimit by default) once
    the block has used `seconds` of the process's CPU time.  Nestable, any thread; reusable, not re-entrant."""

    __slots__ = ("seconds", "message", "hint", "error", "expired", "watcher")

    def __init__(self, seconds: float | None, message: str, hint: str | None = None, *, error=None):
        self.seconds = seconds if seconds is not None and math.isfinite(seconds) and seconds > 0 else None
        self.message, self.hint = message, hint
        self.error = error or (lambda message, hint: TimeLimit(message, hint=hint))
        self.expired = type("_Expired", (_Expired,), {})
        self.watcher = None

    def __enter__(self):
        if self.seconds is not None:
            self.watcher = _CpuWatcher(self.seconds, self.expired)
            try:
                self.watcher.thread.start()
            except RuntimeError:  # no thread can start (a memory cap): the wall-time backstop remains
                self.watcher = None
            except BaseException as landed:  # the budget ran out before the block began: never leave it firing
                self.__exit__(type(landed), landed, None)
                raise
        return self

    def __exit__(self, exc_type, exc, tb):
        pending = None
        while self.watcher is not None:  # an exception may land during the clean-up: finish it all the same
            try:
                self.watcher.stop()
                self.watcher = None
            except _Expired as landed:
                if not isinstance(landed, self.expired):
                    pending = landed
        if exc_type is not None and issubclass(exc_type, self.expired):
            raise self.error(self.message, self.hint) from None
        if pending is not None:
            raise pending
        return False


CPU_BACKSTOP_FACTOR = 20  # a cpu_budget's wall-time backstop is this many times longer (a blocked call)


@contextmanager
def cpu_budget(seconds: float | None, error: Callable[[], BaseException]):
    """Raise `error()` once the block has used `seconds` of this process's CPU time: a `CpuDeadline`, with a
    wall-time `Deadline` CPU_BACKSTOP_FACTOR times longer (at least 2 s more) for a block that waits, or is
    stuck in one C call, without using CPU."""
    if seconds is None or not math.isfinite(seconds) or seconds <= 0:
        yield
        return
    raise_error = lambda message, hint: error()  # noqa: E731 - both limits raise the caller's error
    with Deadline(max(seconds * CPU_BACKSTOP_FACTOR, seconds + 2.0), "", supervise=False, error=raise_error), \
            CpuDeadline(seconds, "", error=raise_error):
        yield


def cpu_seconds() -> float:
    """This process's CPU time so far (user + sys), the clock `CpuDeadline` counts."""
    return time.process_time()
