"""The one error type the front ends raise for bad input: a message, where it happened, and a hint.

The CLI catches it once and prints ``gradcli: error: ...``, the text with a caret under `span`, and the
hint; exit code 2.
"""

from __future__ import annotations


class GradcliError(Exception):
    def __init__(self, message: str, *, source: str | None = None, span: tuple[int, int] | None = None,
                 hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.span = span
        self.hint = hint

    def with_source(self, source: str, span: tuple[int, int] | None = None) -> GradcliError:
        """Attach the text the span refers to (if not attached yet)."""
        if self.source is None:
            self.source = source
            if self.span is None:
                self.span = span
        return self

    def render(self) -> str:
        """Plain text: the message line, the source with a caret line under the span, the hint."""
        lines = [f"gradcli: error: {self.message}"]
        if self.source is not None:
            src = self.source
            if self.span is not None:
                start, end = self.span
                # show the source line holding the span
                line_start = src.rfind("\n", 0, start) + 1
                line_end = src.find("\n", start)
                line_end = len(src) if line_end == -1 else line_end
                line = src[line_start:line_end]
                col = start - line_start
                width = max(1, min(end, line_end) - start)
                lines.append(f"  {line}")
                lines.append("  " + " " * col + "^" * width)
            else:
                lines.append(f"  {src}")
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)


class ParseError(GradcliError):
    pass


class EvalError(GradcliError):
    pass


class InputError(GradcliError):
    pass
