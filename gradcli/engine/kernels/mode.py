"""Which kernels compute the elementwise math: "fast" (numpy's vectorised ufuncs, within the ulps of torch that
docs/deviations.md states and tests/engine/test_kernel_contract.py measures) or "torch" (the emulations of the
vendor kernels torch 2.13 calls, to the bit).  The choice is a context variable, so concurrent API calls and
threads each keep their own; `GRADCLI_BITS=torch` in the environment sets the default of a process."""

from __future__ import annotations

import contextlib
import contextvars
import os

FAST, TORCH = "fast", "torch"
CHOICES = (FAST, TORCH)
ENV = "GRADCLI_BITS"


def parse(value: str) -> str:
    """'fast' or 'torch' (any case, surrounding blanks ignored); ValueError naming the choices otherwise."""
    mode = str(value).strip().lower()
    if mode not in CHOICES:
        raise ValueError(f"bits must be 'fast' or 'torch', not {value!r}")
    return mode


def from_environment(default: str = FAST) -> str:
    """The mode GRADCLI_BITS asks for, else `default` (ValueError for a value that is neither)."""
    value = os.environ.get(ENV, "")
    return parse(value) if value.strip() else default


def _initial() -> str:
    try:
        return from_environment()
    except ValueError:  # the commands report a bad value; the engine alone falls back to the default
        return FAST


_DEFAULT = _initial()
BITS: contextvars.ContextVar[str] = contextvars.ContextVar("gradcli_bits", default=_DEFAULT)


def current() -> str:
    return BITS.get()


def exact() -> bool:
    """True when torch's bits are asked for."""
    return BITS.get() == TORCH


@contextlib.contextmanager
def bits(mode: str | None):
    """Compute with `mode` ('fast' or 'torch'; None keeps the current one) inside the block."""
    if mode is None:
        yield current()
        return
    token = BITS.set(parse(mode))
    try:
        yield BITS.get()
    finally:
        BITS.reset(token)
