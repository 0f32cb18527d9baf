"""The limits of one `gradcli run`: every way a program could run away, each with its own bound."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RunLimits:
    max_source_chars: int = 200_000  # length of the program text
    max_nesting: int = 100  # depth of the syntax tree (deeper would exhaust Python's own stack)
    max_statements: int = 1_000_000  # statements executed, loop bodies and function bodies included
    max_iterations: int = 1_000_000  # passes of for/while loops and comprehensions, items drawn by list() etc.
    max_call_depth: int = 100  # nested calls of the program's own functions
    max_tensor_elements: int = 32_000_000  # elements of any one tensor (128 MB in float32; nn.Conv3d's example: 26M)
    max_value_depth: int = 1_000  # nesting of a tuple used as a dict key (CPython hashes it by C recursion)
    max_sequence_length: int = 10_000_000  # length of any one list, tuple or string, and of format widths
    max_int_bits: int = 10_000  # size of a Python integer (9**9**9 must never be computed)
    max_output_chars: int = 10_000_000  # characters printed
    max_memory_mb: int = 2_048  # growth of the process's resident memory, checked every 10 ms
    max_seconds: float = 30.0  # wall time, checked before every statement

