"""Build tests/corpus/textbook_openstax.jsonl: exercises of OpenStax Calculus (Volume 1, chapter 3
"Derivatives", sections 3.3-3.9; Volume 3, section 4.3 "Partial Derivatives") with the answers printed in the
book, from the book's own source (CNXML with MathML, github.com/openstax/osbooks-calculus-bundle, CC BY-NC-SA).

    python scripts/make_textbook_corpus.py /path/to/osbooks-calculus-bundle-checkout-or-dir-of-cnxml

Each exercise whose problem is one function (f(x) = ..., y = ..., z = ...) or one equation (implicit
differentiation), and whose solution is one formula `f′(x) = ...`, `dy/dx = ...`, `∂z/∂x = ...`, is
transcribed from MathML into the text a student types (x^2, sqrt(...), sin^2(x), e^(2x), ln(x)).  The truth of
each official answer is decided here, independently of gradcli: sympy parses the text (its own parser,
with implicit multiplication) and the answer minus sympy's derivative is compared at 12 points at 50 digits
with mpmath (for an equation, at points of the curve found by mpmath.findroot).  A wrong answer is made from
each by a typical mistake (the sign of one term, a dropped chain factor, d/dx of a product as the product of
the derivatives), kept only when the same 50-digit comparison shows it is wrong.
"""

from __future__ import annotations

import json
import random
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import mpmath
import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "textbook_openstax.jsonl"
MODULES = {  # module -> (book, section)
    "m53575": ("OpenStax Calculus Volume 1", "3.3 Differentiation Rules"),
    "m53578": ("OpenStax Calculus Volume 1", "3.5 Derivatives of Trigonometric Functions"),
    "m53581": ("OpenStax Calculus Volume 1", "3.6 The Chain Rule"),
    "m53584": ("OpenStax Calculus Volume 1", "3.7 Derivatives of Inverse Functions"),
    "m53585": ("OpenStax Calculus Volume 1", "3.8 Implicit Differentiation"),
    "m53586": ("OpenStax Calculus Volume 1", "3.9 Derivatives of Exponential and Logarithmic Functions"),
    "m53934": ("OpenStax Calculus Volume 3", "4.3 Partial Derivatives"),
    "m53938": ("OpenStax Calculus Volume 3", "4.5 The Chain Rule"),
    "m53573": ("OpenStax Calculus Volume 1", "3.2 The Derivative as a Function"),
}
M = "{http://www.w3.org/1998/Math/MathML}"
C = "{http://cnx.rice.edu/cnxml}"
FUNCTIONS = {"sin", "cos", "tan", "sec", "csc", "cot", "sinh", "cosh", "tanh", "sech", "csch", "coth", "ln", "log",
             "arcsin", "arccos", "arctan", "arcsec", "arccsc", "arccot", "exp"}


# -- MathML -> what a student types --------------------------------------------------------------------

def text(node) -> str:
    tag = node.tag.replace(M, "")
    kids = list(node)
    if tag in ("math", "mrow", "mstyle", "semantics", "mpadded"):
        return join(kids)
    if tag == "mi":
        name = (node.text or "").strip()
        return {"π": "pi"}.get(name, name)
    if tag == "mn":
        return (node.text or "").strip().replace("−", "-")
    if tag in ("mo", "mtext"):  # the book writes a leading minus and function names (sin) as text too
        op = (node.text or "").strip()
        if tag == "mtext" and not op:
            return " "
        return {"−": "-", "·": "*", "×": "*", "⋅": "*", "′": "'", "″": "''", "\u2061": "", "\u2062": ""}.get(op, op)
    if tag == "msup":
        base, exponent = kids
        b, e = text(base), text(exponent)
        if e in ("'", "''"):
            return b + e
        if e.startswith("-1") and b in FUNCTIONS:  # sin^-1: the book uses arcsin, keep as printed
            return b + "^-1"
        return wrap(b) + "^" + (e if re.fullmatch(r"\w+|\d+\.?\d*", e) else f"({e})")
    if tag == "msub":
        base, sub = kids
        return f"{text(base)}_{text(sub)}"
    if tag == "mfrac":
        top, bottom = (text(k) for k in kids)
        return f"{wrap(top)}/{wrap(bottom)}"
    if tag == "msqrt":
        return f"sqrt({join(kids)})"
    if tag == "mroot":
        body, index = (text(k) for k in kids)
        return f"cbrt({body})" if index == "3" else f"({body})^(1/{index})"
    if tag == "mfenced":
        return "(" + ", ".join(text(k) for k in kids) + ")"
    if tag in ("mspace", "none"):
        return " "
    if tag == "mover" or tag == "munder":
        return text(kids[0])
    raise ValueError(f"unknown MathML {tag}")


def join(kids) -> str:
    out = ""
    for kid in kids:
        piece = text(kid)
        if out and piece and (out[-1].isalnum() or out[-1] in ")'") and (piece[0].isalnum() or piece[0] == "("):
            if not (out[-1] == "'" and piece[0] == "(") and not (out[-1].isdigit() and piece[0].isalpha()):
                out += " "  # (7x as a student types it: sin 7x is sin(7x), sin 7 x would be sin(7)·x)
        out += piece
    return out


def wrap(t: str) -> str:
    t = t.strip()
    if re.fullmatch(r"[A-Za-z_]\w*|\d+\.?\d*|\([^()]*\)", t) or (t.startswith("(") and matched(t)):
        return t
    return f"({t})"


def matched(t: str) -> bool:
    depth = 0
    for k, ch in enumerate(t):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and k < len(t) - 1:
            return False
    return True


# -- independent truth: sympy's parser and mpmath at 50 digits -------------------------------------------

LOCAL = {"e": sp.E, "pi": sp.pi, "ln": sp.log, "arcsin": sp.asin, "arccos": sp.acos, "arctan": sp.atan,
         "arcsec": sp.asec, "arccsc": sp.acsc, "arccot": sp.acot, "sec": sp.sec, "csc": sp.csc, "cot": sp.cot,
         "cbrt": lambda u: sp.sign(u) * sp.Abs(u) ** sp.Rational(1, 3)}
TRANSFORMS = standard_transformations + (implicit_multiplication_application, convert_xor)


def to_sympy(t: str, names: list[str]):
    t = re.sub(r"(?<![A-Za-z])(sin|cos|tan|sec|csc|cot)\^-1", r"arc\1", t)  # sin^-1 x is arcsin(x) in the book
    powered = re.sub(r"(?<![A-Za-z])(sin|cos|tan|sec|csc|cot|sinh|cosh|tanh|sech|csch|coth)\^(\d+)\s*\(([^()]*)\)",
                     r"(\1(\3))^\2", t)
    powered = re.sub(r"(?<![A-Za-z])(sin|cos|tan|sec|csc|cot)\^(\d+)\s*(\w+)", r"(\1(\3))^\2", powered)
    bare = r"(?<![A-Za-z])(sin|cos|tan|sec|csc|cot|sinh|cosh|tanh|ln|arcsin|arccos|arctan|arcsec|arccsc|arccot)"
    powered = re.sub(bare + r"\s+(\d*[a-zθ](?:\^\w+)?)", r"\1(\2)", powered)
    symbols = {n: sp.Symbol(n, real=True) for n in names}
    return parse_expr(powered, local_dict={**LOCAL, **symbols}, transformations=TRANSFORMS)


def same(a, b, names, points, curve=None) -> tuple[bool, int]:
    """a == b at every point where both are real (50 digits); (equal, points compared)."""
    symbols = [sp.Symbol(n, real=True) for n in names]
    fa, fb = (sp.lambdify(symbols, e, modules="mpmath") for e in (a, b))
    compared = 0
    with mpmath.workdps(50):
        for point in points:
            try:
                va, vb = fa(*point), fb(*point)
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if any(isinstance(v, mpmath.mpc) and abs(v.imag) > 1e-40 for v in (va, vb)):
                continue
            va, vb = mpmath.re(va), mpmath.re(vb)
            compared += 1
            if abs(va - vb) > mpmath.mpf(10) ** -35 * max(1, abs(va), abs(vb)):
                return False, compared
    return True, compared


def sample(names, rng, equation=None, dependent="y"):
    points = []
    if equation is None:
        for _ in range(12):
            points.append([mpmath.mpf(rng.choice([-1, 1]) * rng.uniform(0.2, 2.5)) for _ in names])
        return points
    x, y = sp.Symbol("x", real=True), sp.Symbol(dependent, real=True)
    f = sp.lambdify([x, y], equation, modules="mpmath")
    with mpmath.workdps(50):
        for _ in range(60):
            x0 = mpmath.mpf(rng.choice([-1, 1]) * rng.uniform(0.2, 2.5))
            for y0 in (0.5, -0.5, 1.5, -1.5, 3, -3):
                try:
                    y1 = mpmath.findroot(lambda t, x0=x0: f(x0, t), y0)
                except (ValueError, ZeroDivisionError, TypeError):
                    continue
                if isinstance(y1, mpmath.mpc) or abs(f(x0, y1)) > 1e-40:
                    continue
                points.append([x0, y1] if names == ["x", dependent] else [y1, x0])
                break
            if len(points) >= 12:
                break
    return points


# -- exercises ----------------------------------------------------------------------------------------

def exercises(path: Path):
    tree = ET.parse(path)
    for section in tree.iter(f"{C}section"):
        if section.get("class") != "section-exercises":
            continue
        for exercise in section.iter(f"{C}exercise"):
            problem = exercise.find(f"{C}problem")
            solution = exercise.find(f"{C}solution")
            if problem is None or solution is None:
                continue
            try:
                yield exercise, [text(m) for m in problem.iter(f"{M}math")], \
                    [text(m) for m in solution.iter(f"{M}math")]
            except ValueError:  # a table or a graph: not a formula to type
                continue


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/osx")
    rng = random.Random(20261127)
    rows, skipped = [], []
    for module, (book, section) in MODULES.items():
        path = source / f"{module}.cnxml"
        for k, (exercise, problem, solution) in enumerate(exercises(path), start=1):
            row = build(problem, solution, rng)
            where = {"book": book, "section": section, "exercise": f"{k} of the section's exercises",
                     "id": exercise.get("id"), "module": module}
            if isinstance(row, str):
                skipped.append((module, k, row, problem, solution))
                continue
            rows.extend({**r, "source": where} for r in row)
    with OUT.open("w", encoding="utf-8") as out:
        for n, row in enumerate(rows, start=1):
            out.write(json.dumps({"id": n, **row}, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows ({sum(r['truth'] == 'correct' for r in rows)} correct answers) -> {OUT}")
    print(f"{len(skipped)} exercises skipped (not one function and one derivative formula)")


_DERIVATIVE_LHS = re.compile(r"^\s*(?:[fgyhFGzwr]\s*'+\s*(?:\(\s*\w\s*\))?|d\s*y\s*/\s*d\s*x"
                             r"|\(\s*d\s*y\s*\)\s*/\s*\(\s*d\s*x\s*\)"
                             r"|∂\s*(?P<f>\w)\s*/\s*∂\s*(?P<v>\w)|\(\s*∂\s*\w\s*\)\s*/\s*\(\s*∂\s*(?P<v2>\w)\s*\)"
                             r"|(?P<sub>[fz])_(?P<v3>[xyz]))\s*=")


def build(problem: list[str], solution: list[str], rng):
    if len(solution) != 1 or len(problem) not in (1, 2):
        return "shape"
    answer_text = solution[0]
    match = _DERIVATIVE_LHS.match(answer_text)
    bare = match is None  # "find dy/dx" in the instructions, the bare formula in the key: kept only when it
    if bare and "=" in answer_text:  # is the first derivative (else it may be another order: ambiguous)
        return "no derivative on the left"
    wrt = "x" if bare else match.group("v") or match.group("v2") or match.group("v3") or "x"
    answer = answer_text.strip() if bare else answer_text[match.end():].strip()
    if len(answer) < 1 or not re.search(r"[\w)]", answer) or answer.endswith(","):
        return "no formula"
    if "=" in answer:
        return "several equalities"
    function_text = problem[-1].strip()
    if "=" not in function_text:
        return "no function"
    lhs, rhs = (s.strip() for s in function_text.split("=", 1))
    if "=" in rhs:
        return "several equalities"
    defined = re.fullmatch(r"[fgyhFGzwr](?:\s*\([\w\s,]*\))?", lhs)
    try:
        if defined:
            names = sorted({str(s) for s in to_sympy(rhs, ["x", "y", "z", "t", "θ"]).free_symbols} | {wrt})
            f = to_sympy(rhs, names)
            truth_expr = sp.diff(f, sp.Symbol(wrt, real=True))
            equation, dependent = None, None
            typed_function = function_text if "(" in lhs and "," in lhs else rhs
        else:  # an equation: implicit differentiation, dy/dx
            names = ["x", "y"]
            left, right = to_sympy(lhs, names), to_sympy(rhs, names)
            equation = left - right
            x, y = (sp.Symbol(n, real=True) for n in names)
            truth_expr = -sp.diff(equation, x) / sp.diff(equation, y)
            dependent, typed_function = "y", function_text
        official = to_sympy(answer, names)
    except Exception as err:  # noqa: BLE001 - a formula sympy's parser cannot read is left out, counted
        return f"sympy cannot read it: {type(err).__name__}"
    if not (official.free_symbols | truth_expr.free_symbols) <= {sp.Symbol(n, real=True) for n in names}:
        return "letters sympy reads as other variables"
    points = sample(names, rng, equation)
    correct, compared = same(official, truth_expr, names, points)
    if correct and compared < 6:
        return "too few points to decide the truth"
    if bare and not correct:
        return "a bare answer that is not the first derivative (another order, or a misprint: ambiguous)"
    if equation is not None and not correct and any(same(official, truth_expr, names, [p])[0] for p in points):
        return "right on one branch of the curve only (x = cos y, dy/dx = −1/√(1−x²)): ambiguous"
    rows = [{"function": typed_function, "wrt": [wrt], "answer": answer, "truth": "correct" if correct else "incorrect",
             "official": True, "mistake": None if correct else "misprint in the book",
             "dependent": dependent, "evidence": f"50-digit mpmath at {compared} points"}]
    if not correct:
        return rows
    for kind, wrong_text in mistakes(answer):
        try:
            wrong = to_sympy(wrong_text, names)
        except Exception:  # noqa: BLE001
            continue
        equal, n = same(wrong, truth_expr, names, points)
        if not equal and n >= 1:  # a point where both are real and differ beyond 10⁻³⁵
            rows.append({**rows[0], "answer": wrong_text, "truth": "incorrect", "official": False,
                         "mistake": kind})
            break
    return rows


def mistakes(answer: str):
    """Typical wrong answers made from a right one, most realistic first."""
    terms = top_level_terms(answer)
    if len(terms) > 1:  # the sign of the last term
        head, (sign, last) = terms[:-1], terms[-1]
        flipped = "+" if sign == "-" else "-"
        yield "sign of one term", "".join(s + t for s, t in head).lstrip("+") + f" {flipped} {last}"
    chain = re.sub(r"^(\d+)\s*", "", answer)  # a dropped constant factor (the chain factor of ax)
    if chain != answer and chain:
        yield "dropped chain factor", chain
    yield "sign of the whole", f"-({answer})"


def top_level_terms(t: str) -> list[tuple[str, str]]:
    terms, depth, start, sign = [], 0, 0, "+"
    for k, ch in enumerate(t):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in "+-" and k > 0 and t[k - 1] not in "^*/(e" and t[:k].strip():
            terms.append((sign, t[start:k].strip()))
            sign, start = ch, k + 1
    terms.append((sign, t[start:].strip()))
    return [(s, x) for s, x in terms if x]


if __name__ == "__main__":
    main()
