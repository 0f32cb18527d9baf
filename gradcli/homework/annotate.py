"""`check`'s data dressed for display: the course's textbook forms when a derivative is printed, else the
student's own text echoed (textbook, and with it sympy's printers, loads only when it is needed)."""

from __future__ import annotations

from gradcli.homework.notation import echo


def annotate_check(report, data: dict, *, latex: bool = False, display: bool = True) -> dict:
    """`check`'s data with the course's forms (see `textbook.annotate_check`).  sympy is imported only when
    a derivative is printed (no answer given, or a wrong one) or with --latex: a correct verdict with the
    answer echoed as typed needs none."""
    printed = any(r.derivative is not None and r.verdict != "correct" for r in report.results)
    if latex or printed:
        from gradcli.homework.textbook import annotate_check as with_textbook

        return with_textbook(report, data, latex=latex, display=display)
    if display and "parsed" in data:  # a renderer that prints sympy's reading of the function
        data["parsed"] = echo(report.function_text)
        for result, row in zip(report.results, data["results"]):
            if result.expected_text is not None and "expected_parsed" in row:
                row["expected_parsed"] = echo(result.expected_text)
                if result.verdict == "correct":
                    row["derivative"] = row["expected_parsed"]  # the answer as the student typed it
    return data
