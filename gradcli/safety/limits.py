"""Every safety limit in one frozen object, passed in (and overridable by CLI flags)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_length: int = 10_000  # characters of an expression or value
    max_depth: int = 64  # nesting depth of the syntax tree
    max_nodes: int = 5_000  # syntax tree nodes
    max_elements: int = 50_000_000  # elements per tensor (400 MB in float64)
    max_exponent: float = 10_000.0  # |exponent| of a literal power such as x**1000
    max_seconds: float = 60.0  # wall time of one evaluation
    max_line_bytes: int = 4 << 20  # one line of a --rows input (read in chunks: a longer one is refused unread)
    max_memory_mb: float = 4_096.0  # address space the command may add to what it holds at start (RLIMIT_AS)
