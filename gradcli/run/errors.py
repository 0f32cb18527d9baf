"""How a run ends early.  Each error renders the exact text for stderr and carries the exit code."""

from __future__ import annotations


class RunError(Exception):
    exit_code = 2

    def render(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


class Refused(RunError):
    """The program uses something outside the supported subset: found by the static check (with the
    column), or, for what only values reveal, while running (at the statement's line)."""

    def __init__(self, what: str, line: int, column: int | None = None):
        super().__init__(what)
        self.what, self.line, self.column = what, line, column

    def render(self) -> str:
        where = f"line {self.line}" if self.column is None else f"line {self.line}, column {self.column}"
        return f"gradcli run does not support {self.what} ({where})"


class LimitReached(RunError):
    """The program exceeded one of the RunLimits."""

    def __init__(self, what: str, line: int | None = None):
        super().__init__(what)
        self.what, self.line = what, line

    def render(self) -> str:
        where = f" at line {self.line}" if self.line else ""
        return f"gradcli run: limit exceeded{where}: {self.what}"


class OutputFailed(RunError):
    """Writing the program's output failed (a full disk, a closed stdout): gradcli's failure to deliver, not
    the program's error, so it reads like every other command's (exit 2)."""

    def __init__(self, err: OSError):
        super().__init__(err.strerror or str(err))
        self.reason = err.strerror or str(err)

    def render(self) -> str:
        return f"gradcli: error: could not complete the command: {self.reason}"


class ProgramFailed(RunError):
    """The program raised an exception, as it would under Python and PyTorch: shown as Python shows it."""

    exit_code = 1

    def __init__(self, type_name: str, message: str, line: int):
        super().__init__(message)
        self.type_name, self.message, self.line = type_name, message, line

    def render(self) -> str:
        error = f"{self.type_name}: {self.message}" if self.message else self.type_name
        return f"gradcli run: error at line {self.line}\n{error}"
