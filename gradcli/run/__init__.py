"""`gradcli run`: execute a PyTorch autograd program on gradcli's engine and print what PyTorch prints.

The program is parsed with Python's `ast`, checked as a whole against the supported subset (nothing runs
if any part is unsupported), then executed by gradcli's own interpreter under `RunLimits`.
Exit codes: 0 ran to the end; 1 the program raised an error (PyTorch's or Python's, printed as they would
print it after a `gradcli run: error at line L` line); 2 unsupported construct or exceeded limit.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager

from gradcli.engine import SizeLimit, dtypes, kernels, random, state, tensor_str
from gradcli.engine.autograd import GradMode
from gradcli.run import reprs, torch_settings
from gradcli.run.checker import check_program
from gradcli.run.errors import LimitReached, ProgramFailed, RunError
from gradcli.run.interpreter import SUPPORTED_NODES, Interpreter
from gradcli.run.limits import RunLimits
from gradcli.safety import guard
from gradcli.safety.recursion import recursion_limit

__all__ = ["RunLimits", "run_source"]

# Python frames the interpreter may stack: a few per level of syntax, a dozen per call of the program's
# functions.  Python's default of 1000 is too few for max_call_depth=100; pure-Python frames cost no C
# stack in 3.11+, so a higher limit is safe.
PYTHON_RECURSION_LIMIT = 20_000


def run_source(source: str, filename: str, *, stdout, stderr, limits: RunLimits | None = None,
               bindings: dict | None = None, bits: str = "torch") -> int:
    """Run `source` (named `filename` in messages); write its output to `stdout`, diagnostics to `stderr`.
    `bindings` are globals defined before the program starts (`gradcli run --arg NAME=VALUE`).  `bits`: the
    elementwise kernels (gradcli/engine/kernels/): torch's own bits by default, as the program would print them
    under PyTorch, or "fast"."""
    limits = limits or RunLimits()
    try:
        tree = _parse(source, filename, limits)
        check_program(tree, SUPPORTED_NODES, limits.max_nesting)
        interpreter = Interpreter(limits, stdout, stderr)
        interpreter.module.vars.update(bindings or {})
        # a generator of its own with a fresh seed, as a new PyTorch process has, until torch.manual_seed
        with random.own_default_generator(None), _engine_state(limits), _outside_limits(limits, interpreter), \
                kernels.bits(bits):
            interpreter.run(tree)
    except RunError as error:
        stdout.flush()  # what the program printed comes before the error, on a terminal too
        stderr.write(error.render() + "\n")
        return error.exit_code
    return 0


def _parse(source: str, filename: str, limits: RunLimits) -> ast.Module:
    if len(source) > limits.max_source_chars:
        raise LimitReached(f"the program has {len(source)} characters (max_source_chars={limits.max_source_chars})")
    try:
        return ast.parse(source, filename)
    except SyntaxError as error:
        raise ProgramFailed(type(error).__name__, error.msg, error.lineno or 1) from None
    except (RecursionError, MemoryError):
        raise LimitReached("the program nests too deeply to parse") from None
    except ValueError as error:  # null bytes
        raise ProgramFailed("SyntaxError", str(error), 1) from None


@contextmanager
def _outside_limits(limits: RunLimits, interpreter: Interpreter):
    """Wall time and memory enforced from outside the interpreter (inside one statement, one numpy call too)."""
    def too_long(line=None):
        return LimitReached(f"the program ran too long (max_seconds={limits.max_seconds})",
                            interpreter.line if line is None else line)

    try:
        # the supervising process cannot know the line the worker reached
        with guard.command(limits.max_seconds, memory_mb=limits.max_memory_mb, what="the program",
                           timeout_text=lambda: LimitReached(too_long().what).render() + "\n"):
            yield
    except guard.TimeLimit:
        raise too_long() from None
    except guard.MemoryLimit:
        raise LimitReached(f"the program needed more memory than the limit (max_memory_mb={limits.max_memory_mb})",
                           interpreter.line) from None


@contextmanager
def _engine_state(limits: RunLimits):
    """PyTorch's defaults for the run (float32, grad mode on), the tensor size limit and the run's budget (the
    cost model: work its time left cannot cover is refused up front, engine/state.py), in context variables:
    a program's `torch.set_default_dtype` or `no_grad` never reaches another thread's run, or the caller."""
    def too_long(detail: str = ""):
        return LimitReached(f"the program ran too long (max_seconds={limits.max_seconds}){detail}")

    budget = state.Budget(limits.max_seconds, time_error=too_long)
    tokens = ((dtypes._DefaultsType.float_dtype.var, dtypes.float32),
              (SizeLimit.__class__.max_elements.var, limits.max_tensor_elements),
              (GradMode.__class__.enabled.var, True), (state.BUDGET, budget),
              (reprs.TEXT_LIMIT, limits.max_sequence_length), (state.DEFAULT_DEVICE, None),
              *torch_settings.DEFAULTS)
    tokens = [(var, var.set(value)) for var, value in tokens]
    tokens.append((tensor_str._PRINT_OPTS, tensor_str.fresh_print_options()))  # torch.set_printoptions's
    try:
        with recursion_limit(PYTHON_RECURSION_LIMIT):
            yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)
