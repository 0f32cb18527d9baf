"""Validation of command-line option values and raw arguments, before anything runs.

typer checks types; these check meaning: a time budget is a positive finite number of seconds, a limit is a
positive count.  Each bad value gets one specific message (exit 2), never an internal error later on.
"""

from __future__ import annotations

import math
import re

from gradcli.safety.errors import InputError


def seconds(value: float, flag: str) -> None:
    if math.isnan(value) or math.isinf(value) or value <= 0:
        raise InputError(f"{flag} must be a positive, finite number of seconds, not {value:g}",
                         hint=f"e.g. {flag} 10")


def count(value: int, flag: str, minimum: int = 1) -> None:
    if value < minimum:
        raise InputError(f"{flag} must be at least {minimum}, not {value}")


def seed_value(value: int, flag: str = "--seed") -> None:
    """A seed torch.manual_seed accepts: 0 to 2**64 - 1."""
    if not 0 <= value < 2 ** 64:
        raise InputError(f"{flag} must be from 0 to 2**64 - 1 (torch.manual_seed's range), not {value}")


def megabytes(value: float, flag: str = "--max-memory") -> None:
    if math.isnan(value) or math.isinf(value) or value <= 0:
        raise InputError(f"{flag} must be a positive, finite number of MB, not {value:g}", hint=f"e.g. {flag} 1024")


def exponent(value: float, flag: str = "--max-exponent") -> None:
    if math.isnan(value) or value < 0:
        raise InputError(f"{flag} must be a non-negative number (inf for no limit), not {value:g}")


def check_eval(*, timeout, check_timeout, check_limit, max_length, max_depth, max_nodes, max_elements,
               max_exponent, seed, order, max_memory=None) -> None:
    """Every option of `gradcli eval` (and the shared ones of `explain`) that typer cannot check."""
    seconds(timeout, "--timeout")
    if max_memory is not None:
        megabytes(max_memory)
    seconds(check_timeout, "--check-timeout")
    count(check_limit, "--check-limit", minimum=0)
    for value, flag in ((max_length, "--max-length"), (max_depth, "--max-depth"), (max_nodes, "--max-nodes"),
                        (max_elements, "--max-elements")):
        count(value, flag)
    exponent(max_exponent)
    seed_value(seed)
    if order is not None:
        count(order, "--order")


def print_threshold(full: bool, threshold: int | None) -> float | None:
    """--full or --threshold N (torch.set_printoptions(profile="full") or threshold=N): elements a tensor may
    have and still be printed whole; None for the default (torch's 1000)."""
    if full and threshold is not None:
        raise InputError("--full and --threshold both say how much of a tensor to print",
                         hint="give one: --full prints every element, --threshold N summarises past N")
    if threshold is not None:
        count(threshold, "--threshold", minimum=0)
    return math.inf if full else threshold


_ASSIGNMENT = re.compile(r"\s*[^\W\d]\w*\s*=(?!=)")


def expression_first(command: str, expression: str, assignments: list[str]) -> None:
    """`gradcli eval x=2 "x**2"`: a NAME=VALUE where the expression goes is an error that says the expression
    comes first, and shows the command in that order."""
    if not _ASSIGNMENT.match(expression):
        return
    rest = [a for a in assignments if not _ASSIGNMENT.match(a)]
    given = {a.split("=", 1)[0].strip() for a in assignments if _ASSIGNMENT.match(a)}
    rhs = expression.split("=", 1)[1].strip()
    if not rest and given & set(re.findall(r"[^\W\d]\w*", rhs)):  # `y = x**2` x=1: an assignment of the expression
        shown = " ".join(f'"{a}"' if any(c in a for c in " *()[]|&<>") else a for a in assignments)
        raise InputError(f"{command} takes the expression alone, not an assignment: {expression}",
                         hint=f'gradcli {command} "{rhs}" {shown}')
    shown = " ".join(f'"{a}"' if any(c in a for c in " *()[]|&<>") else a for a in [*rest[:1], expression,
                                                                                    *[a for a in assignments
                                                                                      if a not in rest[:1]]])
    raise InputError(f"the expression comes first, then the NAME=VALUE tensors; got {expression} first",
                     hint=f"gradcli {command} {shown}" if rest else
                     f'gradcli {command} "EXPRESSION" {expression}')


def check_run(*, timeout, max_memory) -> None:
    seconds(timeout, "--timeout")
    megabytes(max_memory)


def check_explain(*, timeout, seed) -> None:
    seconds(timeout, "--timeout")
    seed_value(seed)


def undecodable_argument(argv: list[str]) -> str | None:
    """The error message for the first argument that is not valid UTF-8, or None.

    Python hands undecodable argv bytes over as lone surrogates (U+DC80..U+DCFF, PEP 383): they cannot be
    printed or parsed, so they are refused here by byte value rather than failing somewhere later."""
    for position, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as err:
            raw = arg.encode("utf-8", "surrogateescape") if _escaped(arg) else None
            shown = repr(raw)[1:] if raw is not None else ascii(arg)
            bad = arg[err.start]
            byte = f"byte 0x{ord(bad) - 0xDC00:02x}" if 0xDC80 <= ord(bad) <= 0xDCFF else f"U+{ord(bad):04X}"
            return (f"gradcli: error: argument {position} ({_short(shown)}) is not valid UTF-8 text ({byte} at "
                    f"position {err.start})\nhint: gradcli reads its arguments as UTF-8; check the terminal's "
                    "or the script's encoding")
    return None


def _escaped(arg: str) -> bool:
    try:
        arg.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
