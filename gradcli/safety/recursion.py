"""Python's recursion limit, raised while any call that needs it runs: one value for the whole process (Python
has no other), so concurrent calls share one raise and the last to finish puts the original back.  Saving and
restoring it around each call instead would let one thread's restore cut another's limit short, or leave a
raised limit behind when calls end out of order (issue 31)."""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager

_lock = threading.Lock()
_holders: list[int] = []  # the limit each running block asked for
_original: list[int] = []  # the limit before the first of them


@contextmanager
def recursion_limit(at_least: int = 0, *, extra: int = 0):
    """Python's recursion limit is at least `at_least`, and at least `extra` more than the process's own,
    inside the block (and never lowered under another running block); the process's own limit is back once
    the last such block has ended."""
    with _lock:
        if not _holders:
            _original[:] = [sys.getrecursionlimit()]
        wanted = max(at_least, _original[0] + extra)
        _holders.append(wanted)
        if sys.getrecursionlimit() < wanted:
            sys.setrecursionlimit(wanted)
    try:
        yield
    finally:
        with _lock:
            _holders.remove(wanted)
            if not _holders:
                sys.setrecursionlimit(_original.pop())
