"""The student's own text, echoed with spacing and powers normalised (no sympy: `plot` uses it too)."""

from __future__ import annotations

import re

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_SUPERSCRIPTABLE = re.compile(r"\^\s*(-?\d+)(?![\d.])")


def echo(text: str) -> str:
    """What the student typed, with spacing and powers normalised (never sympy's rewrite of it):
    'x**2  *sin(x)' -> 'x²·sin(x)', 'x^2+3x' -> 'x² + 3x'."""
    text = " ".join(text.split())
    text = re.sub(r"\s*\*\*\s*", "^", text)
    text = re.sub(r"\s*\^\s*", "^", text)
    text = re.sub(r"\s*\*\s*", "·", text)
    text = _SUPERSCRIPTABLE.sub(lambda m: m.group(1).translate(SUPERSCRIPT), text)
    # binary + and -: one space each side (not a sign after an operator or bracket, not 2e-5)
    text = re.sub(r"(?<=[\w)\]²³¹⁰⁴⁵⁶⁷⁸⁹|])\s*([+\-−])\s*(?![+\-])",
                  lambda m: m.group(0) if re.search(r"\d[eE]$", m.string[:m.start()]) else f" {m.group(1)} ", text)
    text = re.sub(r"\s*=\s*", " = ", text)
    return text




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
