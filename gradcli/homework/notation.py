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
