"""Build tests/corpus/textbook_openstax.jsonl: exercises of OpenStax Calculus (Volume 1 §3.2-3.9, 4.2, 4.10,
5.5-5.7, 6.7, 6.9; Volume 3 §4.3, 4.5, 4.6) with the answers printed in the book, from the book's own source (CNXML
with MathML, github.com/openstax/osbooks-calculus-bundle, CC BY-NC-SA; read at commit 8dbc2ce1, 2026-07-15).

    python scripts/make_textbook_corpus.py /path/to/osbooks-calculus-bundle-checkout-or-dir-of-cnxml

Each exercise whose problem is one function (f(x) = ..., y = ..., z = ...) or one equation (implicit
differentiation), and whose solution is one formula `f′(x) = ...`, `dy/dx = ...`, `∂z/∂x = ...`, is
transcribed from MathML into the text a student types (x^2, sqrt(...), sin^2(x), e^(2x), ln(x)), left sides as
printed.  The others with a formula for an answer (a second or third derivative, a pair of partials, an answer
key that names the substitution first, x(t) and y(t) substituted into w(x, y), an antiderivative to verify by
differentiating it) are typed by hand in scripts/textbook_transcriptions.py.  Each row keeps its source: book,
section, the exercise number the book prints (a chapter numbers its exercises consecutively; the book answers
the odd ones), the CNXML id.

The truth of each official answer is decided here, independently of gradcli: sympy parses the text (its own
parser, with implicit multiplication and exact decimals) and the answer is compared with sympy's derivative at
up to 40 points (three scales, both signs) at 50 digits with mpmath (for an equation, at points of the curve
found by mpmath.findroot); an answer that differs is a misprint of the book, kept and marked.  An answer
undefined where the derivative is defined (check's contract calls it wrong) is left out and listed.  A wrong
answer is made from each correct one by a typical mistake (the sign of one term, a dropped chain factor, the
sign of the whole as from a quotient rule's order), kept only when the same 50-digit comparison shows it wrong.
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
    rationalize,
    standard_transformations,
)
from textbook_transcriptions import HAND  # noqa: E402 - scripts/ is on the path when run as a script

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "textbook_openstax.jsonl"
V1, V3 = "OpenStax Calculus Volume 1", "OpenStax Calculus Volume 3"
MODULES = {  # module -> (book, section): the sections whose exercises go into the corpus
    "m53573": (V1, "3.2 The Derivative as a Function"),
    "m53575": (V1, "3.3 Differentiation Rules"),
    "m53576": (V1, "3.4 Derivatives as Rates of Change"),
    "m53578": (V1, "3.5 Derivatives of Trigonometric Functions"),
    "m53581": (V1, "3.6 The Chain Rule"),
    "m53584": (V1, "3.7 Derivatives of Inverse Functions"),
    "m53585": (V1, "3.8 Implicit Differentiation"),
    "m53586": (V1, "3.9 Derivatives of Exponential and Logarithmic Functions"),
    "m53605": (V1, "4.2 Linear Approximations and Differentials"),
    "m53621": (V1, "4.10 Antiderivatives"),
    "m53634": (V1, "5.5 Substitution"),
    "m53635": (V1, "5.6 Integrals Involving Exponential and Logarithmic Functions"),
    "m53636": (V1, "5.7 Integrals Resulting in Inverse Trigonometric Functions"),
    "m53650": (V1, "6.7 Integrals, Exponential Functions, and Logarithms"),
    "m53653": (V1, "6.9 Calculus of the Hyperbolic Functions"),
    "m53934": (V3, "4.3 Partial Derivatives"),
    "m53938": (V3, "4.5 The Chain Rule"),
    "m53940": (V3, "4.6 Directional Derivatives and the Gradient"),
}
CHAPTERS = [  # the modules of each chapter in the collection's order (collections/*.collection.xml): the
    # book numbers a chapter's exercises consecutively through its sections
    ["m53495", "m53573", "m53575", "m53576", "m53578", "m53581", "m53584", "m53585", "m53586"],
    ["m53604", "m53605", "m53611", "m53612", "m53613", "m53596", "m53614", "m53619", "m53620", "m53621"],
    ["m53624", "m53631", "m53632", "m53633", "m53634", "m53635", "m53636"],
    ["m53640", "m53642", "m53643", "m53644", "m53648", "m53649", "m53650", "m53651", "m53653"],
    ["m53946", "m53933", "m53934", "m53937", "m53938", "m53940", "m53942", "m53943"],
]
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
        return (node.text or "").strip().replace("−", "-").replace("–", "-")
    if tag in ("mo", "mtext"):  # the book writes a leading minus and function names (sin) as text too
        op = (node.text or "").strip()
        if tag == "mtext" and not op:
            return " "
        return {"−": "-", "–": "-", "·": "*", "×": "*", "⋅": "*", "′": "'", "″": "''", "\u2061": "",
                "\u2062": ""}.get(op, op)
    if tag == "msup":
        base, exponent = kids
        b, e = text(base), text(exponent)
        if e in ("'", "''"):
            return b + e
        if e.startswith("-1") and b in FUNCTIONS:  # sin^-1: the book uses arcsin, keep as printed
            return b + "^-1"
        # 2^(4x), not 2^4x (which reads 2⁴·x): a bare exponent only for a number or a one-letter name
        return wrap(b) + "^" + (e if re.fullmatch(r"[A-Za-zθ]|pi|\d+\.?\d*", e) else f"({e})")
    if tag == "msub":
        base, sub = kids
        return f"{text(base)}_{text(sub)}"
    if tag == "mfrac":
        top, bottom = (text(k) for k in kids)
        if re.fullmatch(r"[d∂]\s*\w", top) and re.fullmatch(r"[d∂]\s*\w", bottom):
            return f"{top}/{bottom}".replace(" ", "")  # dy/dx, ∂z/∂y: as typed
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
         "sech": sp.sech, "csch": sp.csch, "coth": sp.coth, "arcsinh": sp.asinh, "arccosh": sp.acosh,
         "arctanh": sp.atanh, "abs": sp.Abs, "Abs": sp.Abs, "log10": lambda u: sp.log(u, 10),
         "log2": lambda u: sp.log(u, 2), "log3": lambda u: sp.log(u, 3),
         "cbrt": lambda u: sp.sign(u) * sp.Abs(u) ** sp.Rational(1, 3)}
TRANSFORMS = standard_transformations + (rationalize, implicit_multiplication_application, convert_xor)  # 0.0003: 3/10⁴
_TRIG = r"sin|cos|tan|sec|csc|cot|sinh|cosh|tanh|sech|csch|coth"
_NAMED = _TRIG + r"|ln|arcsin|arccos|arctan|arcsec|arccsc|arccot|arcsinh|arccosh|arctanh|log10|log2|log3"


def _power_of_call(t: str) -> str:
    """sech^2(sqrt(x^2+1)) -> (sech(sqrt(x^2+1)))^2, parentheses nested or not."""
    while match := re.search(rf"(?<![A-Za-z])({_TRIG}|ln)\^(\d+)\s*\(", t):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(t)):
            depth += (t[end] == "(") - (t[end] == ")")
            if depth == 0:
                break
        t = f"{t[:match.start()]}({match[1]}{t[match.end() - 1:end + 1]})^{match[2]}{t[end + 1:]}"
    return t


def to_sympy(t: str, names: list[str], evaluate: bool = True):
    """The textbook's notation read by sympy's own parser (not gradcli's): sin^-1 x is arcsin(x), sin^2 x is
    (sin x)^2, sin 7x is sin(7x), log_3 is the base-3 logarithm, |u| and [u] as printed."""
    t = t.replace("[", "(").replace("]", ")")
    t = re.sub(r"\|([^|]*)\|", r" Abs(\1)", t)
    t = re.sub(r"log_(\d+)", r"log\1", t)
    t = re.sub(rf"(?<![A-Za-z])({_TRIG})\^-1", r"arc\1", t)  # sin^-1 x is arcsin(x) in the book
    powered = _power_of_call(t)
    powered = re.sub(rf"(?<![A-Za-z])({_TRIG}|ln)\^(\d+)\s*(\w+)", r"(\1(\3))^\2", powered)
    powered = re.sub(rf"(?<![A-Za-z])({_NAMED})(?![A-Za-z])\s*(\d+(?:\.\d+)?(?![\w.(^])|\d*(?:[a-zθ]|pi)(?![A-Za-z(])"
                     r"(?:\^\w+)?)", r"\1(\2)", powered)  # ln 2, sin 7x, cos x^2 as printed
    symbols = {n: sp.Symbol(n, real=True) for n in names}
    return parse_expr(powered, local_dict={**LOCAL, **symbols}, transformations=TRANSFORMS, evaluate=evaluate)


def _no_delta(expr):
    """sympy's derivative of cbrt's sign(u)·|u|^(1/3) holds DiracDelta(u), 0 wherever it is evaluated here."""
    return expr.replace(sp.DiracDelta, lambda *args: sp.S.Zero) if expr.has(sp.DiracDelta) else expr


def same(a, b, names, points, curve=None) -> tuple[bool, int]:
    """a == b at every point where both are real (50 digits); (equal, points compared)."""
    symbols = [sp.Symbol(n, real=True) for n in names]
    fa, fb = (sp.lambdify(symbols, _no_delta(e), modules="mpmath") for e in (a, b))
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


def undefined_where_defined(answer, derivative, function, names, points) -> int:
    """Points where the function and its derivative are real and the answer is not: check's contract calls
    such an answer wrong (the derivative of t is 1 at t = 2, where e^(ln(1-t))/(1-t) is undefined).  Real
    means every step of the formula is real: e^(ln(1-t)) at t = 2 passes through ln(-1)."""
    symbols = [sp.Symbol(n, real=True) for n in names]

    def steps(expr):
        return [sp.lambdify(symbols, e, modules="mpmath") for e in sp.preorder_traversal(expr) if e.free_symbols]

    def real(fns, point):
        for fn in fns:
            try:
                v = fn(*point)
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                return False
            if (isinstance(v, mpmath.mpc) and abs(v.imag) > 1e-40) or not mpmath.isfinite(v):
                return False
        return True

    fa, fd, ff = steps(answer), steps(_no_delta(derivative)), steps(function)
    with mpmath.workdps(50):
        return sum(real(fd, p) and real(ff, p) and not real(fa, p) for p in points)


def sample(names, rng, equation=None, dependent="y"):
    points = []
    if equation is None:  # three scales, both signs: arcsin(x^2) lives in (-1, 1), sec^-1(x/3) beyond 3
        for low, high in [(0.2, 2.5)] * 14 + [(0.05, 0.95)] * 13 + [(2.1, 6.0)] * 13:
            points.append([mpmath.mpf(rng.choice([-1, 1]) * rng.uniform(low, high)) for _ in names])
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

def cnxml(source: Path, module: str) -> Path:
    """A module's CNXML in a checkout of the bundle (modules/mNNNNN/index.cnxml) or in a flat directory."""
    nested = source / "modules" / module / "index.cnxml"
    return nested if nested.exists() else source / f"{module}.cnxml"


def all_exercises(path: Path):
    """(exercise, its position among the section's exercises) for every exercise, answered or not."""
    tree = ET.parse(path)
    position = 0
    for section in tree.iter(f"{C}section"):
        if section.get("class") != "section-exercises":
            continue
        for exercise in section.iter(f"{C}exercise"):
            position += 1
            yield exercise, position


def book_numbers(source: Path) -> dict[str, int]:
    """The number the book prints before each exercise: a chapter numbers its exercises consecutively."""
    numbers = {}
    for chapter in CHAPTERS:
        count = 0
        for module in chapter:
            for exercise, _ in all_exercises(cnxml(source, module)):
                count += 1
                numbers[exercise.get("id")] = count
    return numbers


def maths(exercise) -> tuple[list[str], list[str]] | None:
    problem, solution = exercise.find(f"{C}problem"), exercise.find(f"{C}solution")
    if problem is None or solution is None:
        return None
    try:
        return [text(m) for m in problem.iter(f"{M}math")], [text(m) for m in solution.iter(f"{M}math")]
    except ValueError:  # a table or a graph: not a formula to type
        return [], []


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/osx")
    rng = random.Random(20261127)
    numbers = book_numbers(source)
    rows, skipped, answered = [], [], 0
    for module, (book, section) in MODULES.items():
        for exercise, position in all_exercises(cnxml(source, module)):
            found = maths(exercise)
            if found is None:
                continue  # the book prints answers to the odd-numbered exercises only
            answered += 1
            key = exercise.get("id")
            where = {"book": book, "section": section, "exercise": numbers.get(key),
                     "position_in_section": position, "id": key, "module": module}
            if key in HAND:
                built = []
                for item in HAND[key]:
                    made = build_item(*item, rng)
                    if isinstance(made, str):
                        skipped.append((module, position, made, *found))
                    else:
                        built.extend(made)
                if not built:
                    continue
            else:
                built = build(*found, rng)
            if isinstance(built, str):
                skipped.append((module, position, built, *found))
                continue
            for r in built:
                part = r.pop("part", None)
                rows.append({**r, "source": {**where, **({"part": part} if part else {})}})
    with OUT.open("w", encoding="utf-8") as out:
        for n, row in enumerate(rows, start=1):
            out.write(json.dumps({"id": n, **row}, ensure_ascii=False) + "\n")
    official = [r for r in rows if r["official"]]
    print(f"{answered} answered exercises read, {len({r['source']['id'] for r in rows})} in the corpus: "
          f"{len(official)} official answers ({sum(r['truth'] == 'correct' for r in official)} correct, "
          f"{sum(r['truth'] == 'incorrect' for r in official)} misprints), "
          f"{len(rows) - len(official)} typical wrong answers -> {OUT}")
    print(f"{len(skipped)} answered exercises left out (a value, a tangent line, a graph, f and g given by a "
          f"table, a constant named by a letter):")
    for module, position, why, problem, solution in skipped:
        print(f"  {module} #{position}: {why}: {problem[-1:] } -> {solution[:1]}")


NAMES = ["x", "y", "z", "t", "θ", "r", "h", "s", "u", "v", "a", "n", "d", "G", "m_1", "m_2"]


def build_item(function_text: str, answer: str, options: dict, rng):
    """One hand-transcribed item: its truth (sympy's derivative, 50-digit mpmath) and a typical mistake."""
    options = dict(options)
    kind = options.get("kind", "derivative")
    wrt = options.get("wrt", "x")
    wrt_list = [wrt] * options.get("order", 1) if isinstance(wrt, str) else list(wrt)
    rhs = function_text.split("=", 1)[1] if "=" in function_text else function_text
    f = to_sympy(rhs, NAMES)
    official = to_sympy(answer, NAMES)
    names = sorted({str(s) for s in f.free_symbols | official.free_symbols} | set(wrt_list))
    if not {str(s) for s in f.free_symbols | official.free_symbols} <= set(NAMES):
        raise ValueError(f"letters sympy reads as other variables in {function_text!r} / {answer!r}")
    truth = sp.diff(f, *[sp.Symbol(v, real=True) for v in wrt_list])
    points = sample(names, rng)
    correct, compared = same(official, truth, names, points)
    if correct and compared < 6:
        raise ValueError(f"too few real points to decide {function_text!r} / {answer!r}")
    as_typed = to_sympy(answer, NAMES, evaluate=False)  # e^(ln(1-t)) as typed, not sympy's 1 - t
    if correct and undefined_where_defined(as_typed, truth, f, names, points):
        return (f"the answer {answer!r} is undefined where the derivative of {function_text!r} is defined "
                "(the book asks about a smaller domain than check's contract)")
    base = {"function": function_text, "wrt": wrt_list if len(set(wrt_list)) > 1 else [wrt_list[0]],
            "order": 1 if len(set(wrt_list)) > 1 else len(wrt_list), "answer": answer,
            "truth": "correct" if correct else "incorrect", "official": True,
            "mistake": None if correct else "misprint in the book", "dependent": None, "kind": kind,
            "transcribed": "by hand", "evidence": f"50-digit mpmath at {compared} points",
            **({"part": options["part"]} if "part" in options else {}),
            **({"note": options["note"]} if "note" in options else {})}
    rows = [base]
    if not correct:
        return rows
    # the typical mistake: in the derivative typed as the answer, or (an antiderivative to verify) in the
    # antiderivative the student found
    target = function_text if kind == "antiderivative" else answer
    typical = [("the previous derivative", options["wrong"])] if "wrong" in options else list(mistakes(target))
    for mistake, wrong_text in typical:
        try:
            wrong = to_sympy(wrong_text.split("=", 1)[-1], NAMES)
        except Exception:  # noqa: BLE001
            continue
        if kind == "antiderivative":
            equal, n = same(official, sp.diff(wrong, *[sp.Symbol(v, real=True) for v in wrt_list]), names, points)
        else:
            equal, n = same(wrong, truth, names, points)
        if not equal and n >= 1:
            rows.append({**base, "official": False, "truth": "incorrect", "mistake": mistake,
                         **({"function": wrong_text} if kind == "antiderivative" else {"answer": wrong_text})})
            break
    return rows


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
            typed_function = function_text.rstrip(".")  # f(x) = ..., y = ..., z = ...: as printed
        else:  # an equation: implicit differentiation, dy/dx
            names = ["x", "y"]
            left, right = to_sympy(lhs, names), to_sympy(rhs, names)
            equation = left - right
            x, y = (sp.Symbol(n, real=True) for n in names)
            if not equation.has(y) or not equation.has(x):
                return "not a curve in x and y (x = 1: a bound of the exercise)"
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
    if correct and equation is None and undefined_where_defined(to_sympy(answer, names, evaluate=False),
                                                                truth_expr, f, names, points):
        return "the answer is undefined where the derivative is defined (a smaller domain than check's contract)"
    if bare and not correct:
        return "a bare answer that is not the first derivative (another order, or a misprint: ambiguous)"
    if equation is not None and not correct and any(same(official, truth_expr, names, [p])[0] for p in points):
        return "right on one branch of the curve only (x = cos y, dy/dx = −1/√(1−x²)): ambiguous"
    left = "" if bare else answer_text[:match.end()].strip() + " "  # f'(x) = ..., dy/dx = ...: as printed
    rows = [{"function": typed_function, "wrt": [wrt], "answer": left + answer,
             "truth": "correct" if correct else "incorrect",
             "official": True, "mistake": None if correct else "misprint in the book",
             "dependent": dependent, "order": 1, "kind": "derivative", "transcribed": "from the MathML",
             "evidence": f"50-digit mpmath at {compared} points"}]
    if not correct:
        return rows
    for kind, wrong_text in mistakes(answer):
        try:
            wrong = to_sympy(wrong_text, names)
        except Exception:  # noqa: BLE001
            continue
        equal, n = same(wrong, truth_expr, names, points)
        if not equal and n >= 1:  # a point where both are real and differ beyond 10⁻³⁵
            rows.append({**rows[0], "answer": left + wrong_text, "truth": "incorrect", "official": False,
                         "mistake": kind})
            break
    return rows


def mistakes(answer: str):
    """Typical wrong answers made from a right one, most realistic first."""
    terms = top_level_terms(answer)
    if len(terms) > 1 and not re.search(r"/\(2\s*[\w(]|\(\d+[a-zθ]\)|^\d", answer):  # the sign of the last term
        head, (sign, last) = terms[:-1], terms[-1]
        flipped = "+" if sign == "-" else "-"
        yield "sign of one term", "".join(s + t for s, t in head).lstrip("+") + f" {flipped} {last}"
    chain = re.sub(r"^(\d+)\s*", "", answer)  # a dropped constant factor (the chain factor of ax)
    if chain != answer and chain:
        yield "dropped chain factor", chain
    halved = re.sub(r"/\(2\s*(?=[\w(])", "/(", answer, count=1)  # 1/(2sqrt(x)) as 1/sqrt(x): the ½ of √ lost
    if halved != answer:
        yield "dropped factor 1/2", halved
    inner = re.sub(r"\((\d+)([a-zθ])\)", r"(\2)", answer, count=1)  # cos(3x) as cos(x): a chain rule inside
    if inner != answer:
        yield "argument's coefficient dropped", inner
    power = re.search(r"\^(\d+)(?!\d)", answer)  # x^3 as x^4: an exponent off by one
    if power and power.group(1) not in ("0", "1"):
        yield "exponent off by one", f"{answer[:power.start()]}^{int(power.group(1)) + 1}{answer[power.end():]}"
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
