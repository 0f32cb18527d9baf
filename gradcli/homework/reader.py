"""Homework notation: the reader.  `read_homework(text)` -> a `Reading`: the syntax tree, the variables, the
sympy expression and the "read as" text that shows how the input was understood.

The notation is what students type and what Wolfram|Alpha reads:

    x^2 sin x          x²·sin(x)        ^ is power; juxtaposition multiplies (like *, left to right);
    xy, xe^x           x·y, x·e^x       a run of letters that is not a known name is a product of letters
    sinx, xsinx        sin(x), x·sin(x) (--var rate declares a multi-letter variable)
    x1, w2x2, x_1      x1, w2·x2, x_1   a letter with digits is one variable
    sin 2x, sin x y    sin(2·x), sin(x)·y   bare application takes one term: a number and the letters typed
    sin^2 x, sec^2(x)  sin(x)², sec(x)²     right after it, with their powers; application binds tighter
    sin^-1 x           arcsin(x)            than juxtaposition
    |x|, ln|x|         abs(x), ln(abs(x))
    log_2(x), log(x, 2), log10(x), log(x) (= ln x), cbrt, σ(x)/sigmoid, relu, max(0, x), min
    sech csch coth, arcsec arccsc arccot (asec ...), arsinh ...

The reader never evaluates text.  A tree is made of tuples:
    ("num", Fraction, text)  ("var", name)  ("const", "e" | "pi")  ("neg", a)
    ("add" | "sub" | "mul" | "div" | "pow", a, b)  ("call", name, (args...))  ("eq", lhs, rhs)
Function names in the tree are canonical (FUNCTIONS below); `log` with two arguments is (x, base).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from fractions import Fraction

from gradcli.homework import latex_reader
from gradcli.safety.errors import GradcliError, ParseError
from gradcli.safety.limits import Limits

# canonical name -> (arity, how the read-as text names it)
FUNCTIONS = {
    "sin": (1, "sin"), "cos": (1, "cos"), "tan": (1, "tan"), "sec": (1, "sec"), "csc": (1, "csc"),
    "cot": (1, "cot"), "sinh": (1, "sinh"), "cosh": (1, "cosh"), "tanh": (1, "tanh"), "sech": (1, "sech"),
    "csch": (1, "csch"), "coth": (1, "coth"), "asin": (1, "arcsin"), "acos": (1, "arccos"),
    "atan": (1, "arctan"), "asec": (1, "arcsec"), "acsc": (1, "arccsc"), "acot": (1, "arccot"),
    "asinh": (1, "arsinh"), "acosh": (1, "arcosh"), "atanh": (1, "artanh"), "asech": (1, "arsech"),
    "acsch": (1, "arcsch"), "acoth": (1, "arcoth"), "exp": (1, "exp"), "ln": (1, "ln"), "log": (2, "log"),
    "sqrt": (1, "√"), "cbrt": (1, "∛"), "abs": (1, "abs"), "sign": (1, "sign"), "sigmoid": (1, "σ"),
    "relu": (1, "relu"), "max": (2, "max"), "min": (2, "min"),
}
# what students type -> canonical name
ALIASES = {name: name for name in FUNCTIONS} | {
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsec": "asec", "arccsc": "acsc", "arccot": "acot",
    "arsinh": "asinh", "arcsinh": "asinh", "arcosh": "acosh", "arccosh": "acosh", "artanh": "atanh",
    "arctanh": "atanh", "arsech": "asech", "arcsech": "asech", "arcsch": "acsch", "arccsch": "acsch",
    "arcoth": "acoth", "arccoth": "acoth", "cosec": "csc", "ctg": "cot", "tg": "tan", "sgn": "sign", "σ": "sigmoid",
    "logistic": "sigmoid", "√": "sqrt", "∛": "cbrt", "log10": "log10", "log2": "log2", "lg": "log10",
}
INVERSE = {"sin": "asin", "cos": "acos", "tan": "atan", "sec": "asec", "csc": "acsc", "cot": "acot",
           "sinh": "asinh", "cosh": "acosh", "tanh": "atanh", "sech": "asech", "csch": "acsch", "coth": "acoth"}
CONSTANTS = {"e": "e", "pi": "pi", "π": "pi"}
GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "theta", "lambda", "mu", "nu", "rho", "sigma", "tau",
         "phi", "omega", "kappa", "eta", "zeta", "xi", "psi", "chi"}
UNSUPPORTED = {"erf", "erfc", "floor", "ceil", "round", "mod", "sinc", "arg", "re", "im", "gcd", "lcm", "Gamma",
               "lambertw", "li", "Si", "Ci", "Ei", "det", "tr"}
_NAMES = sorted({*ALIASES, "pi", *UNSUPPORTED} - {"√", "∛"}, key=len, reverse=True)
_CHARACTERS = {"·": "*", "⋅": "*", "×": "*", "∗": "*",
               "−": "-", "–": "-", "÷": "/", "π": " pi ", "√": " √ ", "∛": " ∛ ", "\u00a0": " "}
_SUPERSCRIPTS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8",
                 "⁹": "9", "⁻": "-", "⁺": "+", "ˣ": "x", "ʸ": "y", "ⁿ": "n"}
_TOKEN = re.compile(r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+(?![.\d]))?)"
                    r"|(?P<word>log(?:10|2)(?![\d.])|(?!e\d)[A-Za-z]_?\d+(?![\d.])|[A-Za-z\u0370-\u03ff\u1f00-\u1fff]+)"
                    r"|(?P<op>\*\*|[-+*/^()\[\]{},|=_√∛]))")


_CHARACTER_HINTS = {  # characters newcomers type that have a plain spelling
    **{c: f"write the fraction as ({c_text}), e.g. x^({c_text})" for c, c_text in
       (("½", "1/2"), ("⅓", "1/3"), ("¼", "1/4"), ("¾", "3/4"), ("⅔", "2/3"))},
    "ℯ": "write e for Euler's number: e^x",
    "'": "give the function, not its derivative; an answer may be written f'(x) = ... with --expect",
    "′": "give the function, not its derivative; an answer may be written f'(x) = ... with --expect",
}


class Undefined(ArithmeticError):
    """A value that is not a real number (outside the domain), or too large to be meaningful."""


@dataclass
class Reading:
    """How a piece of homework text was read."""

    text: str  # as typed
    tree: tuple
    variables: list[str]  # in order of first appearance
    notes: list[str] = field(default_factory=list)  # each place the reading is not literally what was typed

    @property
    def read_as(self) -> str:
        """The reading in homework notation, every product and bracket explicit: x² + x·y."""
        return to_text(self.tree)

    @property
    def reinterpreted(self) -> bool:
        """Whether to show `read as:` (a letter run split, a bare application, a power of a function ...)."""
        return bool(self.notes)

    @property
    def is_equation(self) -> bool:
        return self.tree[0] == "eq"

    def sympy(self, symbols: dict | None = None):
        """The sympy expression (for an equation: lhs - rhs), of real symbols named as the student named them."""
        import sympy as sp

        symbols = dict(symbols or {})
        for name in self.variables:
            symbols.setdefault(name, sp.Symbol(name, real=True))
        tree = ("sub", self.tree[1], self.tree[2]) if self.is_equation else self.tree
        return to_sympy(tree, symbols)


_LEADING_OPERATOR = re.compile(r"\s*\(?\s*((?P<d>d|∂)\s*(?:\^?\d|[²³])?\s*/\s*(?P=d)\s*[A-Za-zα-ω]\s*(?:\^?\d|[²³])?)"
                               r"\s*\)?(?=\s*\S)")


def read_homework(text: str, variables=(), limits: Limits | None = None, allow_equation: bool = False) -> Reading:
    """Read `text` in homework notation.  `variables`: multi-letter variable names declared by the user."""
    limits = limits or Limits()
    if len(text) > limits.max_length:
        raise ParseError(f"the expression is longer than {limits.max_length} characters", source=text[:80] + "…")
    text = latex_reader.to_homework(text)
    operator = _LEADING_OPERATOR.match(text)
    if operator is not None:  # d/dx (x^2) read as (d/d)·x·x² would be a product with a variable d
        raise ParseError(f"{operator.group(1)} here is the derivative, not part of the function",
                         source=text, span=operator.span(1),
                         hint="give the function alone (x^2); an answer may say d/dx(x^2) = 2x")
    parser = _Parser(text, frozenset(variables), limits)
    tree = parser.parse(allow_equation)
    return Reading(text, tree, parser.variables, parser.notes)


# -- answers: "dy/dx = ...", "f'(x) = ...", "∂f/∂x = ...", "y = ..." ---------------------------------------

_LHS = re.compile(
    r"""\s*(?:
        (?P<prime>[^\W\d_]\w*\s*(?:'+|′+|″)\s*(?:\(\s*[^\W\d_]\w*\s*\))?)           # y', f'(x), r'(θ)
      | (?P<nth>[^\W\d_]\w*\s*\^\s*[({]\s*\(?\s*(?P<n>\d+)\s*\)?\s*[)}]
                 \s*(?:\(\s*[^\W\d_]\w*\s*\))?)                                    # f^(4)(x), y^{(4)}
      | (?P<leibniz>(?:d|∂)\s*(?:\^?\d|[²³])?\s*(?:[A-Za-z]\w*)?\s*/\s*
                   (?:(?:d|∂)\s*(?P<first>[A-Za-zα-ω])\s*(?:\^?\d|[²³])?\s*)+)           # dy/dx, ∂²f/∂x∂y, dy/dθ
      | (?P<sub>[A-Za-z]_\{?(?P<subvars>[A-Za-zα-ω]+)\}?(?:\s*\([^=()]*\))?)            # f_y, f_xy, z_{xx}
      | (?P<name>[^\W\d_]\w*(?:\s*\(\s*[^\W\d_]\w*(?:\s*,\s*[^\W\d_]\w*)*\s*\))?)  # y, f(x), g(r, θ)
    )\s*=(?!=)(?P<rhs>.*)""", re.X | re.S)


@dataclass
class Answer:
    text: str  # the answer as given (right-hand side)
    label: str | None = None  # `NAME=...`: the variable this partial derivative answer is for (or a `y =` name)
    partial: str | None = None  # ∂f/∂x = ...: x
    written: str = ""  # everything the student wrote
    wrt: tuple[str, ...] = ()  # dy/dx: (x,); d²y/dx²: (x, x); ∂²f/∂x∂y: (x, y) (the variables as written)
    order: int | None = None  # the order the left side states: f''(x), y'', d²y/dx² (None: it states none)
    lhs: str = ""  # the left side as written
    operand: str | None = None  # d/dx(x²) = ...: the function the left side differentiates, as written


_LEIBNIZ_POWER = r"\s*(\^?\s*\d+|[²³])?"


def _leibniz_power(text: str | None) -> int:
    return 1 if not text else {"²": 2, "³": 3}.get(text) or int(text.lstrip("^ "))


_OPERATOR = re.compile(  # d/dx(x^2) = 2x, d/dx [x^2] = 2x, (d/dx) x^2 = 2x, d²/dx² sin x = -sin x
    r"""\s*(?P<paren>\(\s*)?(?P<d>d|∂)\s*(?P<top>\^?\d|[²³])?\s*/\s*(?P=d)\s*(?P<var>[A-Za-zα-ω])\s*(?P<bottom>\^?\d|[²³])?
        \s*(?(paren)\))\s*(?P<operand>[^=\s].*?)\s*=(?!=)(?P<rhs>.*)""", re.X | re.S)


_PARENTHESIZED_LEIBNIZ = re.compile(  # (dy)/(dx) = ..., (∂z)/(∂y) = ..., (d^2y)/(dx^2) = ...: as a fraction is
    # typed with its parts in parentheses, or copied from a rendered formula
    r"\s*\(\s*(?P<top>[d∂][^()=/]*?)\s*\)\s*/\s*\(\s*(?P<bottom>[d∂][^()=/]*?)\s*\)\s*(?==(?!=))")


_DIFFERENTIAL = re.compile(  # dy = (2x + 3) dx, dy = -16/x^5 dx: a differential, as books print f'(x) dx
    r"\s*d(?P<dep>[A-Za-zα-ω])\s*=(?!=)(?P<rhs>.*?\S)\s*(?:\*|·|⋅)?\s*d(?P<var>[A-Za-zα-ω])\s*", re.S)


def _top_level_sum(text: str) -> bool:
    """Whether `text` is a sum or difference outside any parentheses (2x + 3, not (2x + 3) or -3x·2)."""
    depth, previous = 0, ""
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if depth == 0 and ch in "+-−" and previous.strip() and previous.strip()[-1] not in "^*/·(e":
            return True
        previous += ch
    return False


def split_answer(text: str) -> Answer:
    """An answer's right-hand side, and what its left-hand side says (see `Answer`)."""
    text = latex_reader.to_homework(text)
    parenthesized = _PARENTHESIZED_LEIBNIZ.match(text)
    if parenthesized is not None:  # read as top/bottom = ...; the answer keeps what the student wrote
        lhs = text[:parenthesized.end()].strip()
        try:
            plain = split_answer(f"{parenthesized['top']}/{parenthesized['bottom']}{text[parenthesized.end():]}")
        except ParseError as err:  # the caret under the left side as the student wrote it
            raise ParseError(err.message.replace(f"{parenthesized['top']}/{parenthesized['bottom']}", lhs, 1),
                             source=text, span=(text.index(lhs), text.index(lhs) + len(lhs))) from None
        if plain.wrt:
            plain.written, plain.lhs = text, lhs
            return plain
    operator = _OPERATOR.fullmatch(text)
    if operator is not None:
        order = _leibniz_power(operator.group("top"))
        if order != _leibniz_power(operator.group("bottom")):
            lhs = text[:operator.start("rhs") - 1].strip()
            raise ParseError(f"{lhs}: the top says a derivative of order {order}, the bottom another",
                             source=text, span=(0, len(lhs)))
        operand = operator.group("operand").strip()
        if operand[:1] == "[" and operand[-1:] == "]":  # d/dx [x²]: the brackets only delimit
            operand = operand[1:-1]
        return Answer(operator.group("rhs"), written=text, wrt=(operator.group("var"),) * order, order=order,
                      lhs=text[:operator.start("rhs") - 1].strip(), operand=operand)
    differential = _DIFFERENTIAL.fullmatch(text)
    if differential is not None:
        rhs, lhs = differential.group("rhs"), f"d{differential.group('dep')}"
        if _top_level_sum(rhs):  # dy = 2x + 3 dx: is it (2x + 3) dx or 2x + 3·dx?
            raise ParseError(f"{lhs} = ... d{differential.group('var')}: the d{differential.group('var')} "
                             f"multiplies only the last term of a sum", source=text,
                             span=(differential.start("var") - 1, differential.end("var")),
                             hint=f"put the derivative in parentheses: {lhs} = ({rhs.strip()}) "
                                  f"d{differential.group('var')}")
        return Answer(rhs, written=text, wrt=(differential.group("var"),), order=1, lhs=lhs)
    match = _LHS.fullmatch(text)
    if match is None:
        return Answer(text, written=text)
    rhs = match.group("rhs")
    lhs = text[:match.start("rhs") - 1].strip()
    if match.group("leibniz"):
        partial = match.group("first") if "∂" in match.group("leibniz") else None
        top, bottom = match.group("leibniz").split("/", 1)
        wrt = tuple(name for name, power in re.findall(r"[d∂]\s*([A-Za-zα-ω])" + _LEIBNIZ_POWER, bottom)
                    for _ in range(_leibniz_power(power)))
        order = _leibniz_power(re.match(r"\s*[d∂]" + _LEIBNIZ_POWER, top).group(1))
        if order != len(wrt):
            raise ParseError(f"{lhs}: the top says a derivative of order {order}, the bottom of order {len(wrt)}",
                             source=text, span=(0, len(lhs)))
        return Answer(rhs, partial=partial, written=text, wrt=wrt, order=order, lhs=lhs)
    if match.group("sub"):  # f_xy = ∂²f/∂y∂x: each letter below is a variable differentiated by
        wrt = tuple(match.group("subvars"))
        return Answer(rhs, partial=wrt[0] if len(wrt) == 1 else None, written=text, wrt=wrt, order=len(wrt),
                      lhs=lhs)
    if match.group("nth"):
        return Answer(rhs, written=text, order=int(match.group("n")), lhs=lhs)
    if match.group("prime"):
        primes = match.group("prime")
        order = primes.count("'") + primes.count("′") + 2 * primes.count("″")
        return Answer(rhs, written=text, order=order, lhs=lhs)
    name = match.group("name")
    return Answer(rhs, label=name if "(" not in name else None, written=text)


# -- the parser ---------------------------------------------------------------------------------------

@dataclass
class _Token:
    kind: str  # num | var | const | func | op | unsupported
    value: str
    start: int  # span in the student's text
    end: int
    spaced: bool  # whitespace (or the start) before it
    run: int  # the letter run it was split from (letters typed together share a run)


class _Parser:
    def __init__(self, text: str, declared: frozenset, limits: Limits):
        self.text = text
        self.declared = declared
        self.limits = limits
        self.variables: list[str] = []
        self.notes: list[str] = []
        self.tokens = self._tokenize()
        self.i = 0
        self.abs_depth = 0
        self.depth = 0

    # tokens ----------------------------------------------------------------------------------------
    def _tokenize(self) -> list[_Token]:
        chars, origin = [], []
        for k, ch in enumerate(self.text):
            if ch in _SUPERSCRIPTS:  # x², sin⁻¹, xⁿ⁻¹: a run of superscripts is one exponent, x^(n-1)
                first = not (k and self.text[k - 1] in _SUPERSCRIPTS)
                last = not (k + 1 < len(self.text) and self.text[k + 1] in _SUPERSCRIPTS)
                rep = ("^" if first and last else "^(" if first else "") + _SUPERSCRIPTS[ch]
                rep += ")" if last and not first else ""
            else:
                rep = _CHARACTERS.get(ch, ch)
            chars.append(rep)
            origin.extend([k] * len(rep))
        plain = "".join(chars)
        origin.append(len(self.text))
        tokens: list[_Token] = []
        pos, run = 0, 0
        while pos < len(plain):
            match = _TOKEN.match(plain, pos)
            if match is None or match.end() == pos:
                if plain[pos:].strip() == "":
                    break
                bad = pos + len(plain[pos:]) - len(plain[pos:].lstrip())
                raise ParseError(f"unexpected character {plain[bad]!r}", source=self.text,
                                 span=(origin[bad], origin[bad] + 1), hint=_CHARACTER_HINTS.get(
                                     plain[bad], "type it in plain text: ^ for powers, * or a space to multiply, "
                                     "sqrt(), pi, e (², ³, ·, ×, −, π and √ are read too)"))
            first = origin[match.start(match.lastgroup)]  # spaced as typed (π is padded: " pi " in plain)
            spaced = not tokens or (first > 0 and self.text[first - 1].isspace())
            start, end = match.start(match.lastgroup), match.end(match.lastgroup)
            run += 1
            kind = match.lastgroup
            if kind == "word":
                tokens.extend(self._split_word(plain[start:end], start, origin, spaced, run))
            elif kind == "num":
                tokens.append(_Token("num", plain[start:end], origin[start], origin[end - 1] + 1, spaced, run))
            else:
                value = plain[start:end]
                value = {"**": "^", "[": "(", "]": ")"}.get(value, value)
                if value in ("√", "∛"):
                    tokens.append(_Token("func", ALIASES[value], origin[start], origin[start] + 1, spaced, run))
                else:
                    tokens.append(_Token("op", value, origin[start], origin[end - 1] + 1, spaced, run))
            pos = match.end()
        return tokens

    def _split_word(self, word: str, offset: int, origin: list[int], spaced: bool, run: int) -> list[_Token]:
        """A letter run as names: declared variables, functions, constants and Greek letter names, longest
        first; any other letter is a variable of its own (xy -> x, y; xsinx -> x, sin, x)."""
        if word in self.declared or re.fullmatch(r"[A-Za-z]_?\d+", word):  # x_1, x1: one variable
            return [_Token("var", word, origin[offset], origin[offset + len(word) - 1] + 1, spaced, run)]
        names = sorted({*self.declared, *_NAMES, *GREEK}, key=len, reverse=True)
        out, k = [], 0
        while k < len(word):
            name = next((n for n in names if word.startswith(n, k)), word[k])
            if name in UNSUPPORTED and not self._called(word, k + len(name), origin, offset):
                name = word[k]  # 6re^(r−1), 2tr: letters beside each other multiply; only re(z) is re's
            if name in self.declared or name in GREEK or (len(name) == 1 and name not in CONSTANTS | ALIASES.keys()):
                kind = "var"
            elif name in CONSTANTS:
                kind = "const"
            elif name in UNSUPPORTED:
                kind = "unsupported"
            else:
                kind = "func"
            value = ALIASES.get(name, name) if kind == "func" else CONSTANTS.get(name, name)
            out.append(_Token(kind, value, origin[offset + k], origin[offset + k + len(name) - 1] + 1,
                              spaced and k == 0, run))
            k += len(name)
        if len(out) > 1:
            self._note(f"{word} read as {'·'.join(t.value for t in out)}")
        if len(word) >= 3 and all(t.kind == "var" and len(t.value) == 1 for t in out) and \
                self._next_char_after(origin[offset + len(word) - 1] + 1) == "(":
            if word.lower() in ("sum", "mean", "prod", "norm", "dot"):  # functions of a vector
                raise ParseError(f"{word}(...) is a function of a vector, which homework notation has no way "
                                 "to declare", source=self.text,
                                 span=(origin[offset], origin[offset + len(word) - 1] + 1),
                                 hint="write its components: x^2 + y^2 for sum(x^2) over (x, y); for a "
                                      "tensor: gradcli eval \"(x**2).sum()\" x=[1,2]")
            raise ParseError(f"unknown function {word!r}", source=self.text,
                             span=(origin[offset], origin[offset + len(word) - 1] + 1),
                             hint=self._function_hint(word))
        return out

    def _called(self, word: str, end: int, origin: list[int], offset: int) -> bool:
        """Whether the name ending at `end` of the letter run `word` is followed by a bracket (re(z))."""
        if end < len(word):
            return False
        return self._next_char_after(origin[offset + len(word) - 1] + 1) == "("

    def _next_char_after(self, index: int) -> str:
        rest = self.text[index:].lstrip()
        return rest[:1]

    @staticmethod
    def _function_hint(word: str) -> str:
        close = difflib.get_close_matches(word, [n for n in ALIASES if n.isascii()], n=1)
        if close:
            return f"did you mean {close[0]}? (for a product of letters write {'*'.join(word)}; " \
                   f"for a variable: --var {word})"
        return f"for a product of letters write {'*'.join(word)}; for a variable named {word}: --var {word}"

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    # helpers ---------------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> _Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def at_op(self, *values: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == "op" and tok.value in values

    def take(self) -> _Token:
        tok = self.peek()
        if tok is None:
            raise self.error("the expression ends too early", len(self.text), len(self.text) + 1)
        self.i += 1
        return tok

    def expect(self, value: str, opened: _Token | None = None) -> _Token:
        if self.at_op(value):
            return self.take()
        tok = self.peek()
        if tok is None and opened is not None:
            closing = {"(": ")", "{": "}", "[": "]"}.get(opened.value, opened.value)
            raise self.error(f"this {opened.value!r} is never closed", opened.start, opened.end,
                             hint=f"add the {closing!r} where its bracket ends")
        where = (tok.start, tok.end) if tok else (len(self.text), len(self.text) + 1)
        raise self.error(f"expected {value!r}" + (f", found {tok.value!r}" if tok else ""), *where)

    def error(self, message: str, start: int, end: int, hint: str | None = None) -> ParseError:
        return ParseError(message, source=self.text, span=(start, max(end, start + 1)), hint=hint)

    def _enter(self, tok: _Token) -> None:
        self.depth += 1
        if self.depth > self.limits.max_depth:
            raise self.error(f"the expression is nested deeper than {self.limits.max_depth}", tok.start, tok.end)

    # grammar ---------------------------------------------------------------------------------------
    def parse(self, allow_equation: bool) -> tuple:
        if not self.tokens:
            raise ParseError("the expression is empty", source=self.text)
        tree = self.expression()
        if self.at_op("="):
            eq = self.take()
            if not allow_equation:
                raise self.error("an equation here: give the function (or answer) alone", eq.start, eq.end,
                                 hint="answers may be written y = ..., dy/dx = ..., f'(x) = ...")
            tree = ("eq", tree, self.expression())
        tok = self.peek()
        if tok is not None:
            what = "closing bracket without an opening one" if tok.value in (")", "|") else f"unexpected {tok.value!r}"
            raise self.error(what, tok.start, tok.end, hint="remove it, or add what it needs (an operand, an "
                                                            "opening bracket)")
        return tree

    def expression(self) -> tuple:
        tree = self.term()
        while self.at_op("+", "-"):
            op = self.take().value
            tree = ("add" if op == "+" else "sub", tree, self.term())
        return tree

    def term(self) -> tuple:
        tree = self.unary()
        while True:
            if self.at_op("*", "/"):
                op = self.take().value
                right = self.unary()
                if op == "/" and self._starts_factor():
                    self._note("a/b c is read as (a/b)·c")
                tree = ("mul" if op == "*" else "div", tree, right)
            elif self._starts_factor():
                tok = self.peek()
                if tok.kind == "num" and tok.value.startswith(".") and not tok.spaced:  # x.5: x·0.5? x^.5?
                    raise self.error(f"a number {tok.value} right after a name or bracket is ambiguous",
                                     tok.start, tok.end, hint=f"write *{tok.value} to multiply or ^{tok.value} "
                                                              "for a power")
                tree = ("mul", tree, self.power())
            else:
                return tree

    def _starts_factor(self) -> bool:
        tok = self.peek()
        if tok is None:
            return False
        if tok.kind in ("num", "var", "const", "func", "unsupported"):
            return True
        return tok.kind == "op" and (tok.value == "(" or (tok.value == "|" and self.abs_depth == 0))

    def unary(self) -> tuple:
        if self.at_op("-", "+"):
            tok = self.take()
            self._enter(tok)
            operand = self.unary()
            self.depth -= 1
            return ("neg", operand) if tok.value == "-" else operand
        return self.power()

    def power(self) -> tuple:
        base = self.primary()
        if self.at_op("^"):
            hat = self.take()
            self._enter(hat)
            first = self.peek()
            exponent = self.exponent()
            self.depth -= 1
            self._no_fraction_exponent(exponent, first)
            if self._starts_factor() and not self.peek().spaced:
                self._note("a^b c is read as (a^b)·c")
            return ("pow", base, exponent)
        return base

    def _no_fraction_exponent(self, exponent: tuple, first: _Token | None) -> None:
        """x^1/2, x^-1/2, x^-3/2, e^1/x: precedence makes them (x^1)/2 ..., which is never what is meant by a
        power 1 or a negative literal followed by a division; refused rather than read another way silently."""
        slash, after = self.peek(), self.peek(1)
        if first is None or slash is None or after is None or not self.at_op("/") or after.kind not in ("num", "var",
                                                                                                        "const"):
            return
        literal = exponent[1] if exponent[0] == "neg" else exponent
        if literal[0] != "num" or not (exponent[0] == "neg" or literal[1] == 1):
            return
        typed = self.text[first.start:after.end]
        raise self.error(f"^{typed} is ambiguous: precedence reads it as a power divided by {after.value}",
                         first.start, after.end,
                         hint=f"write ^({typed}) for the power {typed}, or (…^{self.text[first.start:slash.start]})/"
                              f"{after.value} for the quotient")

    def exponent(self) -> tuple:
        if self.at_op("-", "+"):
            sign = self.take().value
            operand = self.exponent()
            return ("neg", operand) if sign == "-" else operand
        return self.power()

    def primary(self) -> tuple:
        tok = self.take()
        if tok.kind == "num":
            return ("num", Fraction(tok.value), tok.value)
        if tok.kind == "var":
            if tok.value not in self.variables:
                self.variables.append(tok.value)
            return ("var", tok.value)
        if tok.kind == "const":
            return ("const", tok.value)
        if tok.kind == "unsupported":
            raise self.error(f"{tok.value} is not supported", tok.start, tok.end,
                             hint="the functions read: see `gradcli check --help` and the README's list of names")
        if tok.kind == "func":
            return self.application(tok)
        if tok.value == "(":
            self._enter(tok)
            inner = self.expression()
            self.expect(")", tok)
            self.depth -= 1
            return inner
        if tok.value == "|":
            return self.absolute(tok)
        if tok.value == "{":
            inner = self.expression()
            self.expect("}", tok)
            return inner
        raise self.error(f"unexpected {tok.value!r}" if tok.value != ")" else "closing bracket without an opening one",
                         tok.start, tok.end, hint="an operand is missing here: a number, a name or a bracket "
                                                  "(powers: x^2 or x²)")

    def absolute(self, bar: _Token) -> tuple:
        self._enter(bar)
        outer, self.abs_depth = self.abs_depth, self.abs_depth + 1
        inner = self.expression()
        self.abs_depth = outer
        if not self.at_op("|"):
            raise self.error("this | is never closed", bar.start, bar.end)
        self.take()
        self.depth -= 1
        return ("call", "abs", (inner,))

    def application(self, tok: _Token) -> tuple:
        """f(x), f x, f^2 x, f^-1(x), log_b(x), log(x, b), max(a, b)."""
        self._enter(tok)
        name = tok.value
        power = None
        if self.at_op("^"):  # sin^2 x, sin^-1 x
            self.take()
            power = self._function_power(tok)
        base = None
        if self.at_op("_") and name in ("log", "ln"):
            self.take()
            base = self.primary() if not self.at_op("(", "{") else self._bracketed()
            if not self.at_op("("):
                self._note("log_b x read as log_b(x)")
        if name in ("log10", "log2"):
            name, base = "log", ("num", Fraction(int(name[3:])), name[3:])
        if self.at_op("("):
            opened = self.take()
            args = [self.expression()]
            while self.at_op(","):
                self.take()
                args.append(self.expression())
            self.expect(")", opened)
        else:
            args = [self.bare_argument(tok)]
            if args[0][0] == "mul" or self._starts_factor():  # sin 2x, sin x y: say how it was read
                self._note(f"{tok.value} without brackets takes one term")
        tree = self._call(name, args, base, tok)
        if power is not None:
            if power == -1 and name in INVERSE:
                tree = self._call(INVERSE[name], args, None, tok)
            elif power == -1:  # ln^-1 x: the inverse function (e^x) or the reciprocal? never guessed
                raise self.error(f"{tok.value}^-1 is ambiguous: the inverse function or the reciprocal?",
                                 tok.start, tok.end, hint=f"write 1/{tok.value}(x) for the reciprocal; ^-1 names "
                                                          "the inverse only for trigonometric and hyperbolic functions")
            else:
                tree = ("pow", tree, ("num", Fraction(power), str(power)))
                self._note(f"{tok.value}^{power} x means ({tok.value} x)^{power}")
        self.depth -= 1
        return tree

    def _bracketed(self) -> tuple:
        opened = self.take()
        inner = self.expression()
        self.expect(")" if opened.value == "(" else "}", opened)
        return inner

    def _function_power(self, tok: _Token) -> int:
        braced = self.at_op("(", "{")
        if braced:
            opened = self.take()
        sign = -1 if self.at_op("-") else 1
        if self.at_op("-", "+"):
            self.take()
        number = self.peek()
        if number is None or number.kind != "num" or not number.value.isdigit():
            raise self.error(f"after {tok.value}^ write a whole number, as in {tok.value}^2(x)", tok.start, tok.end)
        self.take()
        if braced:
            self.expect(")" if opened.value == "(" else "}", opened)
        if sign == -1 and int(number.value) != 1:
            raise self.error(f"{tok.value}^-{number.value} is ambiguous: write 1/{tok.value}(x)^{number.value}",
                             tok.start, number.end)
        return sign * int(number.value)

    def _call(self, name: str, args: list, base, tok: _Token) -> tuple:
        if name in ("log", "ln"):
            if len(args) == 2 and base is None:
                args, base = [args[0]], args[1]
            if len(args) != 1:
                raise self.error(f"{tok.value} takes one argument (or log(x, base))", tok.start, tok.end)
            if base is None:
                if tok.value == "log":
                    self._note("log x is the natural logarithm ln x")
                return ("call", "ln", (args[0],))
            return ("call", "log", (args[0], base))
        if name == "max" or name == "min":
            if len(args) < 2:
                raise self.error(f"{name} takes two or more arguments: {name}(0, x)", tok.start, tok.end)
            tree = ("call", name, (args[0], args[1]))
            for extra in args[2:]:
                tree = ("call", name, (tree, extra))
            return tree
        if len(args) != 1:
            raise self.error(f"{tok.value} takes one argument, got {len(args)}", tok.start, tok.end)
        return ("call", name, (args[0],))

    def bare_argument(self, func: _Token) -> tuple:
        """The argument of `sin x`: a signed term of a number and/or the letters typed right after it, each
        with its power (sin 2x -> sin(2x), sin x^2 -> sin(x²), sin x y -> sin(x)·y), or a function, |..|."""
        tok = self.peek()
        if tok is None:
            raise self.error(f"{func.value} needs an argument", func.start, func.end,
                             hint=f"write {func.value}(x)")
        if tok.kind == "op" and tok.value in ("-", "+"):
            self.take()
            inner = self.bare_argument(func)
            return ("neg", inner) if tok.value == "-" else inner
        if tok.kind == "func":
            return self.power()
        if tok.kind == "op" and tok.value == "|":
            return self.power()
        if tok.kind not in ("num", "var", "const"):
            raise self.error(f"{func.value} needs an argument: write {func.value}(...)", func.start, func.end)
        tree = self.power()
        while True:
            nxt = self.peek()
            if nxt is None or nxt.spaced or nxt.kind not in ("var", "const", "num") or \
                    (nxt.kind == "num" and tok.kind == "num"):
                return tree
            tree = ("mul", tree, self.power())


# -- the tree as text -----------------------------------------------------------------------------------

_PRECEDENCE = {"eq": 0, "add": 1, "sub": 1, "mul": 2, "div": 2, "neg": 3, "pow": 4}
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def to_text(tree: tuple) -> str:
    """Homework notation with every product (·) and bracket the reading implies: x² + x·y, sin(2·x)·y."""
    kind = tree[0]
    if kind == "num":
        return tree[2]
    if kind == "var":
        return tree[1]
    if kind == "const":
        return "π" if tree[1] == "pi" else "e"
    if kind == "call":
        name, args = tree[1], tree[2]
        if name == "abs":
            return f"|{to_text(args[0])}|"
        if name == "log":
            base = args[1]
            base_text = to_text(base) if base[0] in ("num", "var", "const") else f"({to_text(base)})"
            return f"log_{base_text}({to_text(args[0])})"
        return f"{FUNCTIONS[name][1]}({', '.join(to_text(a) for a in args)})"
    if kind == "neg":
        return "−" + _wrap(tree[1], 3, right=True)
    left, right = tree[1], tree[2]
    if kind == "pow":
        exponent = right
        if exponent[0] == "num" and exponent[2].isdigit():
            return _wrap(left, 5) + exponent[2].translate(_SUPERSCRIPT)
        if exponent[0] in ("num", "var", "const"):
            return _wrap(left, 5) + "^" + to_text(exponent)
        return _wrap(left, 5) + f"^({to_text(exponent)})"
    symbol = {"add": " + ", "sub": " − ", "mul": "·", "div": "/", "eq": " = "}[kind]
    level = _PRECEDENCE[kind]
    if kind == "mul" and left[0] == "div":  # (1/2)·x, never 1/2·x
        return f"({to_text(left)})" + symbol + _wrap(right, 3, right=True)
    return _wrap(left, level) + symbol + _wrap(right, level + (kind in ("sub", "div", "mul")), right=True)


def _wrap(tree: tuple, level: int, right: bool = False) -> str:
    text = to_text(tree)
    if tree[0] == "neg":
        return f"({text})" if right or level > 3 else text
    return f"({text})" if _PRECEDENCE.get(tree[0], 9) < level else text


# -- the tree in sympy --------------------------------------------------------------------------------

def to_sympy(tree: tuple, symbols: dict, functions: dict | None = None):
    """The tree in sympy; `functions` overrides how a named function is built (steps keep |u| whole)."""
    import sympy as sp

    kind = tree[0]
    if kind == "num":
        return sp.Rational(tree[1].numerator, tree[1].denominator)
    if kind == "var":
        return symbols[tree[1]]
    if kind == "const":
        return sp.E if tree[1] == "e" else sp.pi
    if kind == "neg":
        return -to_sympy(tree[1], symbols, functions)
    if kind == "call":
        args = [to_sympy(a, symbols, functions) for a in tree[2]]
        return {**_SYMPY_FUNCTIONS, **(functions or {})}[tree[1]](sp, *args)
    a, b = to_sympy(tree[1], symbols, functions), to_sympy(tree[2], symbols, functions)
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    if kind == "div":
        return a / b
    if kind == "pow":
        return sp.exp(b) if a == sp.E else a ** b
    if kind == "eq":
        return a - b
    raise AssertionError(kind)


_SYMPY_FUNCTIONS = {
    "sin": lambda sp, x: sp.sin(x), "cos": lambda sp, x: sp.cos(x), "tan": lambda sp, x: sp.tan(x),
    "sec": lambda sp, x: sp.sec(x), "csc": lambda sp, x: sp.csc(x), "cot": lambda sp, x: sp.cot(x),
    "sinh": lambda sp, x: sp.sinh(x), "cosh": lambda sp, x: sp.cosh(x), "tanh": lambda sp, x: sp.tanh(x),
    "sech": lambda sp, x: sp.sech(x), "csch": lambda sp, x: sp.csch(x), "coth": lambda sp, x: sp.coth(x),
    "asin": lambda sp, x: sp.asin(x), "acos": lambda sp, x: sp.acos(x), "atan": lambda sp, x: sp.atan(x),
    "asec": lambda sp, x: sp.asec(x), "acsc": lambda sp, x: sp.acsc(x), "acot": lambda sp, x: sp.acot(x),
    "asinh": lambda sp, x: sp.asinh(x), "acosh": lambda sp, x: sp.acosh(x), "atanh": lambda sp, x: sp.atanh(x),
    "asech": lambda sp, x: sp.asech(x), "acsch": lambda sp, x: sp.acsch(x), "acoth": lambda sp, x: sp.acoth(x),
    "exp": lambda sp, x: sp.exp(x), "ln": lambda sp, x: sp.log(x), "log": lambda sp, x, b: sp.log(x) / sp.log(b),
    "sqrt": lambda sp, x: sp.sqrt(x), "cbrt": lambda sp, x: sp.real_root(x, 3) if x.is_number else sp.cbrt(x),
    "abs": lambda sp, x: sp.Abs(x), "sign": lambda sp, x: sp.sign(x),
    "sigmoid": lambda sp, x: 1 / (1 + sp.exp(-x)), "relu": lambda sp, x: sp.Max(0, x),
    "max": lambda sp, a, b: sp.Max(a, b), "min": lambda sp, a, b: sp.Min(a, b),
}


# -- the tree as a real function, in mpmath ------------------------------------------------------------

MAX_MAGNITUDE = 4000  # |value| >= 2^4000 (~1e1200) is treated as undefined: no homework value is that large


_EXP_LIMIT = [2700.0]  # the largest |u| of e^u evaluated (see real_function's exp_limit)


def real_function(tree: tuple, variables: list[str], exp_limit: float = 2700.0):
    """A Python function of len(variables) mpmath numbers -> the real value of `tree`, raising Undefined
    where the value is not real (log of a negative, division by 0 ...).  Powers with an odd denominator
    (x^(1/3), cbrt) are real roots of negative numbers, as in a calculus course.

    exp_limit: e^u with |u| above it is Undefined.  A checker finding points for a function uses a small
    limit, so that 1 + e^u never rounds away all the digits of e^u (ln(1 + e^-100) is not 0)."""
    import mpmath

    index = {name: k for k, name in enumerate(variables)}
    with mpmath.workdps(150):  # literals exact enough for any working precision used later
        compiled = _compile(tree, index, mpmath.mp)

    def function(*values):
        previous, _EXP_LIMIT[0] = _EXP_LIMIT[0], exp_limit
        try:
            return compiled(values)
        except (ZeroDivisionError, OverflowError, ValueError) as err:
            raise Undefined(str(err)) from None
        finally:
            _EXP_LIMIT[0] = previous

    return function


def _real(value, mp):
    if isinstance(value, mp.mpc):
        if value.imag != 0:
            raise Undefined("not real")
        value = value.real
    if not mp.isfinite(value) or (value != 0 and mp.mag(value) > MAX_MAGNITUDE):
        raise Undefined("not finite")
    return value


def _constant_fraction(tree: tuple) -> Fraction | None:
    """The exact value of a constant rational exponent such as 1/3, -2/3 or 0.5 (None if not one)."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "neg":
        inner = _constant_fraction(tree[1])
        return None if inner is None else -inner
    if kind in ("add", "sub", "mul", "div"):
        a, b = _constant_fraction(tree[1]), _constant_fraction(tree[2])
        if a is None or b is None or (kind == "div" and b == 0):
            return None
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b if b else None}[kind]
    return None


def _compile(tree: tuple, index: dict, mp):
    kind = tree[0]
    real = _real
    if kind == "num":
        value = mp.mpf(tree[1].numerator) / tree[1].denominator
        return lambda v: value
    if kind == "var":
        k = index[tree[1]]
        return lambda v: v[k]
    if kind == "const":
        return (lambda v: +mp.e) if tree[1] == "e" else (lambda v: +mp.pi)
    if kind == "neg":
        inner = _compile(tree[1], index, mp)
        return lambda v: -inner(v)
    if kind == "call":
        fn = _MP_FUNCTIONS[tree[1]]
        args = [_compile(a, index, mp) for a in tree[2]]
        if len(args) == 1:
            (a,) = args
            return lambda v: real(fn(mp, a(v)), mp)
        return lambda v: real(fn(mp, *(a(v) for a in args)), mp)
    a, b = _compile(tree[1], index, mp), _compile(tree[2], index, mp)
    if kind == "add":
        return lambda v: a(v) + b(v)
    if kind == "sub":
        return lambda v: a(v) - b(v)
    if kind == "mul":
        return lambda v: real(a(v) * b(v), mp)
    if kind == "div":
        return lambda v: real(a(v) / b(v), mp)
    if kind == "pow":
        fraction = _constant_fraction(tree[2])
        if tree[1] == ("const", "e"):
            return lambda v: _exp(mp, b(v))
        if fraction is not None and fraction.denominator % 2 == 1 and fraction.denominator > 1:
            p, q = fraction.numerator, fraction.denominator
            exponent = mp.mpf(p) / q

            def odd_root(v):
                base = a(v)
                if base < 0:
                    return real((-1) ** (p % 2) * mp.power(-base, exponent), mp)
                if base == 0 and p < 0:
                    raise Undefined("division by zero")
                return real(mp.power(base, exponent), mp)

            return odd_root
        if fraction is not None and fraction.denominator == 1:
            n = int(fraction)

            def integer_power(v):
                base = a(v)
                if base == 0 and n < 0:
                    raise Undefined("division by zero")
                return real(base ** n, mp)

            return integer_power
        return lambda v: _power(mp, a(v), b(v))
    raise AssertionError(kind)


def _exp(mp, x):
    if abs(x) > _EXP_LIMIT[0]:
        raise Undefined("outside the range where the digits can be trusted")
    return mp.exp(x)


def _power(mp, base, exponent):
    if base == 0:
        if exponent > 0:
            return mp.zero
        raise Undefined("0 to a power <= 0")
    if base < 0:
        raise Undefined("negative base to a real power")
    if exponent * mp.log(base) > 2700:
        raise Undefined("overflow")
    return _real(mp.power(base, exponent), mp)


def _nonzero(mp, x):
    if x == 0:
        raise Undefined("division by zero")
    return x


def _log(mp, x):
    if x <= 0:
        raise Undefined("log of a number <= 0")
    return mp.log(x)


def _cbrt(mp, x):
    return -mp.cbrt(-x) if x < 0 else mp.cbrt(x)


_MP_FUNCTIONS = {
    "sin": lambda mp, x: mp.sin(x), "cos": lambda mp, x: mp.cos(x),
    "tan": lambda mp, x: mp.sin(x) / _nonzero(mp, mp.cos(x)),
    "sec": lambda mp, x: 1 / _nonzero(mp, mp.cos(x)), "csc": lambda mp, x: 1 / _nonzero(mp, mp.sin(x)),
    "cot": lambda mp, x: mp.cos(x) / _nonzero(mp, mp.sin(x)),
    "sinh": lambda mp, x: mp.sinh(_bounded(x)), "cosh": lambda mp, x: mp.cosh(_bounded(x)),
    "tanh": lambda mp, x: mp.tanh(_bounded(x)), "sech": lambda mp, x: mp.sech(_bounded(x)),
    "csch": lambda mp, x: 1 / _nonzero(mp, mp.sinh(_bounded(x))),
    "coth": lambda mp, x: mp.cosh(_bounded(x)) / _nonzero(mp, mp.sinh(_bounded(x))),
    "asin": lambda mp, x: mp.asin(x), "acos": lambda mp, x: mp.acos(x), "atan": lambda mp, x: mp.atan(x),
    "asec": lambda mp, x: mp.acos(1 / _nonzero(mp, x)), "acsc": lambda mp, x: mp.asin(1 / _nonzero(mp, x)),
    "acot": lambda mp, x: mp.pi / 2 - mp.atan(x) if x == 0 else mp.atan(1 / x),
    "asinh": lambda mp, x: mp.asinh(x), "acosh": lambda mp, x: mp.acosh(x), "atanh": lambda mp, x: mp.atanh(x),
    "asech": lambda mp, x: mp.acosh(1 / _nonzero(mp, x)), "acsch": lambda mp, x: mp.asinh(1 / _nonzero(mp, x)),
    "acoth": lambda mp, x: mp.atanh(1 / _nonzero(mp, x)),
    "exp": _exp, "ln": _log, "log": lambda mp, x, b: _log(mp, x) / _nonzero(mp, _log(mp, b)),
    "sqrt": lambda mp, x: mp.sqrt(x) if x >= 0 else _undefined("sqrt of a negative"), "cbrt": _cbrt,
    "abs": lambda mp, x: abs(x), "sign": lambda mp, x: mp.sign(x),
    "sigmoid": lambda mp, x: 1 / (1 + _exp(mp, -x)) if x >= 0 else \
    _exp(mp, x) / (1 + _exp(mp, x)), "relu": lambda mp, x: max(x, 0 * x),
    "max": lambda mp, a, b: max(a, b), "min": lambda mp, a, b: min(a, b),
}


def _bounded(x):
    """The argument of a hyperbolic function, within the range of exp (see real_function's exp_limit)."""
    if abs(x) > _EXP_LIMIT[0]:
        raise Undefined("outside the range where the digits can be trusted")
    return x


def _undefined(why: str):
    raise Undefined(why)


# the same semantics for homework.bounds, which evaluates with error bounds
MP_FUNCTIONS = _MP_FUNCTIONS
EXP_LIMIT = _EXP_LIMIT
real_value = _real
exp_value = _exp
power_value = _power
constant_fraction = _constant_fraction

__all__ = ["Reading", "read_homework", "split_answer", "to_text", "to_sympy", "real_function", "Undefined",
           "GradcliError"]
