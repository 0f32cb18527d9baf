"""LaTeX as students type it (`\\frac{x}{\\sqrt{x^2+1}}`, `2e^{2x}\\cos x`, `\\left(\\ln 2\\right)2^t`), rewritten
into the homework notation the reader parses: fractions and roots become parenthesised divisions and powers,
`\\cdot` a product, `\\sin` a function name, `\\theta` a Greek letter; braces the reader understands (`e^{2x}`,
`z_{xx}`) stay.  A command it does not know is an error naming it, never dropped silently."""

from __future__ import annotations

import re

from gradcli.safety.errors import ParseError

_FUNCTIONS = frozenset("""sin cos tan sec csc cot arcsin arccos arctan arcsec arccsc arccot sinh cosh tanh sech csch
coth arsinh arcosh artanh ln log exp sqrt cbrt""".split())
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
          "eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
          "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
          "chi": "χ", "psi": "ψ", "omega": "ω"}
_SYMBOLS = {"cdot": "*", "times": "*", "ast": "*", "div": "/", "lvert": "|", "rvert": "|", "vert": "|", "mid": "|",
            "lbrace": "(", "rbrace": ")", "{": "(", "}": ")", "lparen": "(", "rparen": ")", "lbrack": "[",
            "rbrack": "]", "|": "|", "prime": "'", "partial": "∂", "nabla": "∇"}  # \infty: an error (was read o·o)
_SPACES = frozenset({",", ";", ":", "!", " ", "quad", "qquad", "displaystyle", "textstyle", "limits"})
_SIZES = frozenset({"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr",
                    "Biggl", "Biggr", "middle"})
_FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac"})
_PROSE = frozenset({"text", "textrm"})  # words in these are prose (\text{ for all }), never a product of letters
_NAMED = frozenset("arcsinh arccosh arctanh arsech arcsch arcoth sgn sign abs exp log10 log2".split())
_WRAPPERS = frozenset({"operatorname", "mathrm", "text", "textrm", "mathit", "mathbf", "boldsymbol", "mathsf"})


def is_latex(text: str) -> bool:
    return "\\" in text


# \frac{dy}{dx}, \frac{d^2y}{dx^2}, \frac{\partial f}{\partial x}, \frac{d}{dx}: Leibniz's notation, not a division
_LEIBNIZ = re.compile(r"\\[dtc]?frac\s*\{\s*(d|∂|\\partial)\s*(\^\s*\{?\s*\d\s*\}?)?\s*((?:[^{}\\]|\\[A-Za-z]+)*)\}"
                      r"\s*\{\s*((?:(?:d|∂|\\partial)\s*(?:[^{}\\\s^]+|\\[A-Za-z]+)\s*(?:\^\s*\{?\s*\d\s*\}?)?\s*)+)\}")


def _greek_letters(text: str) -> str:
    return _GREEK_COMMAND.sub(lambda m: "∂" if m.group(1) == "partial" else _GREEK.get(m.group(1), m.group(0)), text)


def _leibniz(match: re.Match) -> str:
    if any(name not in _GREEK and name != "partial" for name in _GREEK_COMMAND.findall(match.group(0)[1:])[1:]):
        return match.group(0)  # \frac{d}{dx}\sin ...: not one of Leibniz's quotients (handled as a fraction)
    power = re.sub(r"[\s{}]", "", match.group(2) or "")
    bottom = re.sub(r"[{}\s]", "", _greek_letters(match.group(4)))
    top = "∂" if "partial" in match.group(1) else match.group(1)
    return f"{top}{power}{_greek_letters(match.group(3)).strip()}/{bottom.strip()} "


# an upright d (\mathrm{d}x, \text{d}y) is the d of a differential; a prime as a superscript (f^{\prime}) a '
_UPRIGHT_D = re.compile(r"\\(?:mathrm|text|textrm|operatorname)\s*\{\s*d\s*\}")
_PRIME = re.compile(r"\^\s*(?:\{\s*((?:\\prime\s*)+)\}|(\\prime))")
# \frac{dr}{d\theta}: a Greek variable in Leibniz's notation, as the letter the reader knows
_GREEK_COMMAND = re.compile(r"\\([A-Za-z]+)")


def _primes(match: re.Match) -> str:
    return "'" * (match.group(0).count("\\prime"))


def to_homework(text: str) -> str:
    """The homework notation `text` stands for (unchanged when it has no backslash command)."""
    if not is_latex(text):
        return text
    text = _PRIME.sub(_primes, _UPRIGHT_D.sub("d", text))
    return _convert(_LEIBNIZ.sub(_leibniz, text), 0, text, stop=None)[0]


def _convert(text: str, i: int, source: str, stop: str | None) -> tuple[str, int]:
    """Convert from i up to the closing `stop` brace (None: the end); (converted text, index after it)."""
    out: list[str] = []
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "}" and stop == "}" and depth == 0:
            return "".join(out), i + 1
        if c == "{" and not "".join(out).rstrip().endswith(("^", "_")):
            body, i = _convert(text, i + 1, source, stop="}")  # a bare group only groups: 3^x{x^2}2x
            out.append(f"({body})" if body.strip() else "")
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c != "\\":
            out.append(c)
            i += 1
            continue
        name, i = _command(text, i, source)
        expanded, i = _expand(name, text, i, source)
        out.append(expanded)
    if stop is not None:
        raise ParseError("a '{' is not closed", source=source)
    return "".join(out), i


def _command(text: str, i: int, source: str) -> tuple[str, int]:
    """The command name after the backslash at i (letters, or one other character), and the index after it."""
    j = i + 1
    if j >= len(text):
        raise ParseError("a '\\' ends the expression", source=source)
    if text[j].isalpha():
        while j < len(text) and text[j].isalpha():
            j += 1
        return text[i + 1:j], j
    return text[j], j + 1


def _argument(text: str, i: int, source: str) -> tuple[str, int]:
    """One argument at i: a {...} group (converted) or a single character or command."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        raise ParseError("a LaTeX command is missing its argument", source=source)
    if text[i] == "{":
        return _convert(text, i + 1, source, stop="}")
    if text[i] == "\\":
        name, j = _command(text, i, source)
        return _expand(name, text, j, source)
    return text[i], i + 1


def _function(name: str, text: str, i: int, source: str) -> tuple[str, int]:
    r"""\sin, \ln ... with their scripts (\sin^{-1}, \log_{10}) and an argument in braces (\sin{x},
    \cos^2{x}) as the reader writes them: sin^{-1}, log_{10}, sin(x).  A bare argument (\sin x,
    \sin 2\pi x) is left to the reader, kept apart from the name."""
    out = " " + name
    while i < len(text) and text[i] in "^_":
        mark = text[i]
        script, i = _argument(text, i + 1, source)
        out += mark + "{" + script + "}"
        while i < len(text) and text[i] == " ":
            i += 1
    if i < len(text) and text[i] == "{":
        body, i = _convert(text, i + 1, source, stop="}")
        return out + "(" + body + ")", i
    return out + (" " if i < len(text) and text[i].isalnum() else ""), i


def _expand(name: str, text: str, i: int, source: str) -> tuple[str, int]:
    """The plain text of command `name` whose arguments start at i, and the index after them."""
    if name in _FRACTIONS:
        top, i = _argument(text, i, source)
        bottom, i = _argument(text, i, source)
        return f"(({top})/({bottom}))", i
    if name == "sqrt":
        j = i
        while j < len(text) and text[j] == " ":
            j += 1
        index = None
        if j < len(text) and text[j] == "[":
            close = text.find("]", j)
            if close < 0:
                raise ParseError("a '[' after \\sqrt is not closed", source=source)
            index, i = to_homework(text[j + 1:close]), close + 1
        body, i = _argument(text, i, source)
        return (f"sqrt({body})" if index is None else f"(({body})^(1/({index})))"), i
    if name in _WRAPPERS:
        body, i = _argument(text, i, source)
        words = [w for w in re.findall(r"[^\W\d_]{2,}", body) if w not in _FUNCTIONS | _NAMED]
        if name in _PROSE and words:  # \text{ for all } x: words, not a formula; never read as a product
            raise ParseError(f"gradcli does not read the words in \\{name}{{{body}}}", source=source,
                             hint="give the formula alone")
        return body, i
    if name.isalpha():  # TeX drops the spaces after a command word: \sin\pi x is sin(πx), \pi x is πx
        while i < len(text) and text[i] == " ":
            i += 1
    if name in _FUNCTIONS:
        return _function(name, text, i, source)
    if name in _GREEK:
        return _GREEK[name], i
    if name in _SYMBOLS:
        return _SYMBOLS[name], i
    if name in _SIZES:
        return "", i + 1 if i < len(text) and text[i] == "." else i  # \left. and \right. are no delimiter
    if name in _SPACES:
        return " ", i
    raise ParseError(f"gradcli does not read the LaTeX command \\{name}", source=source,
                     hint="write it as plain text, e.g. sqrt(x), (a)/(b), sin(x), x^2")
