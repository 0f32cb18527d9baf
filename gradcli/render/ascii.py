"""ASCII stand-ins for gradcli's symbols: for a terminal that cannot print them (cli/terminal.py) and for
text that must be ASCII (the comments of `check --latex`).  Imports nothing heavy: it runs at start-up."""

from __future__ import annotations

import unicodedata

# What a terminal that cannot encode gradcli's symbols gets instead (LANG=C, PYTHONIOENCODING=ascii).
ASCII_FALLBACKS = {
    "∂": "d", "·": "*", "✓": "ok", "✗": "x", "≠": "!=", "≤": "<=", "≥": ">=", "…": "...", "‖": "|",
    "Δ": "delta", "→": "->", "←": "<-", "×": "x", "—": "-", "–": "-", "′": "'", "″": "''", "ⁿ": "^n",
    "−": "-", "∪": " U ", "±": "+-", "≈": "~", "∈": " in ", "⋅": "*",
    "√": "sqrt", "∞": "inf", "π": "pi", "σ": "sigma", "∑": "sum", "•": "*", "“": '"', "”": '"', "’": "'",
    **{sup: "^" + str(digit) for digit, sup in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")},
    "⁻": "^-",
    **{sub: str(digit) for digit, sub in enumerate("₀₁₂₃₄₅₆₇₈₉")},
}
_HORIZONTAL = set("─━═╌╍┄┅┈┉╴╶╸╺")
_VERTICAL = set("│┃║╎╏┆┇┊┋╵╷╹╻")


def ascii_fallback(char: str) -> str:
    """The ASCII stand-in of one character that the output encoding cannot encode."""
    if char in ASCII_FALLBACKS:
        return ASCII_FALLBACKS[char]
    if "\u2500" <= char <= "\u257f":  # box drawing
        return "-" if char in _HORIZONTAL else "|" if char in _VERTICAL else "+"
    if "\u2580" <= char <= "\u259f":  # block elements
        return "#"
    if "\u2800" <= char <= "\u28ff":  # braille dots (terminal plots)
        return " " if char == "\u2800" else "*"

    # modifier letters and other compatibility forms (ᶜ, ᵢ, ﬁ): their ASCII base, ^ for a superscript
    kind, _, base = unicodedata.decomposition(char).partition(" ")
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    if plain:
        return ("^" if kind == "<super>" else "") + plain
    return "?"


def ascii_text(text: str) -> str:
    """A run of unencodable characters in ASCII: ‖·‖ -> norm, x² -> x^2, aᶜ⁻¹ -> a^(c-1)."""
    text = text.replace("‖·‖", "norm")
    out, superscript = [], []
    for char in text + "\0":
        fallback = ascii_fallback(char) if char != "\0" else ""
        if fallback.startswith("^") and len(fallback) > 1:
            superscript.append(fallback[1:])
            continue
        if superscript:
            exponent = "".join(superscript)
            out.append("^" + (exponent if len(superscript) == 1 else f"({exponent})"))
            superscript = []
        out.append(fallback)
    return "".join(out)
