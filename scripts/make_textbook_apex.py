"""Build tests/corpus/textbook_apex.jsonl: a second textbook's answer key, independent of OpenStax's.

APEX Calculus, Version 3.0 (G. Hartman et al., CC BY-NC 3.0), read from the book's own LaTeX source
(github.com/APEXCalculus/APEXCalculus_Source, commit 9eefb4f): the exercises of §2.3-2.7 (rules, product and
quotient, chain rule, implicit and logarithmic differentiation, inverse functions), §4.4 (differentials), §6.5
(hyperbolic and inverse hyperbolic functions), §12.3 (partial derivatives, mixed and of three variables) and
§12.8 (implicit differentiation by partials), with the answers the book prints, every form the book gives
(`f'(x) = 10(4x^3-x)^9(12x^2-1) = (120x^2-10)(4x^3-x)^9` is two answers).

    python scripts/make_textbook_apex.py [path/to/APEXCalculus_Source/.git]

Each exercise file holds {problem}{solution} in LaTeX; the exercise number is its position in the section's
exercise list (exercises/NN_MM_exercises.tex, sets expanded), as the book prints it.  Each answer is typed
twice where it is a formula: as a student types it in plain text (translated from the LaTeX here, with a few
answers retyped by hand in PLAIN where a literal translation is not what a student types, e.g. `ln t e^t`
as `ln(t) e^t`), and, for every third exercise, the book's LaTeX itself (`\\frac{2}{\\sqrt{1-4t^2}}`, with the
book's macro \\fp as f').  The truth of each is decided as in scripts/make_textbook_corpus.py, independently
of gradcli: sympy's own parser reads the plain text, and the answer is compared with sympy's derivative (for an
equation, -F_x/F_y or sympy's idiff for the second derivative) at up to 40 points at 50 digits with mpmath.
An answer that differs is a misprint of the book, kept and marked (check must reject it).  A LaTeX row shares
the truth of the plain row it was typed from.  A typical wrong answer is made from each correct one (the sign
of one term, a dropped chain factor, a missing product-rule term, an exponent off by one, a coefficient off by
a factor), kept only when the 50-digit comparison shows it wrong.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import sympy as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_textbook_corpus as base  # noqa: E402 - scripts/ is not a package

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "textbook_apex.jsonl"
BOOK = "APEX Calculus, Version 3.0 (Hartman et al., CC BY-NC)"
SECTIONS = {
    "02_03": "2.3 Basic Differentiation Rules",
    "02_04": "2.4 The Product and Quotient Rules",
    "02_05": "2.5 The Chain Rule",
    "02_06": "2.6 Implicit Differentiation",
    "02_07": "2.7 Derivatives of Inverse Functions",
    "04_04": "4.4 Differentials",
    "06_05": "6.5 Hyperbolic Functions",
    "12_03": "12.3 Partial Derivatives",
    "12_08": "12.5 The Multivariable Chain Rule",
}
base.LOCAL.update({"arcsech": lambda u: sp.acosh(1 / u), "arccsch": lambda u: sp.asinh(1 / u),
                   "arccoth": lambda u: sp.atanh(1 / u)})
NAMES = ["x", "y", "z", "t", "θ", "r", "s", "w"]

# -- the book's source --------------------------------------------------------------------------------


def show(git: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git, "show", f"HEAD:{path}.tex"], capture_output=True, text=True,
                          check=True).stdout


def groups(s: str) -> list[str]:
    """The top-level {...} groups of an exercise file: problem, solution."""
    out, i = [], 0
    while (j := s.find("{", i)) >= 0:
        depth = 0
        for k in range(j, len(s)):
            if s[k] == "{" and s[k - 1] != "\\":
                depth += 1
            elif s[k] == "}" and s[k - 1] != "\\":
                depth -= 1
                if depth == 0:
                    break
        out.append(s[j + 1:k])
        i = k + 1
    return out


def exercises(git: str, section: str):
    """(number as printed, instruction, file, problem, solution) in the section's order."""
    n, lines = 0, show(git, f"exercises/{section}_exercises").splitlines()
    for line in lines:
        line = line.strip()
        if line.startswith("%"):
            continue
        if m := re.match(r"\\exinput\{(.*?)\}", line):
            n += 1
            yield n, "", m[1], *groups(show(git, m[1]))[:2]
        elif m := re.match(r"\\exsetinput\{(.*?)\}", line):
            s = show(git, m[1])
            instruction = " ".join(groups(s[:s.find("\\exinput")]))
            for mm in re.finditer(r"\\exinput\{(.*?)\}", s):
                n += 1
                yield n, instruction, mm[1], *groups(show(git, mm[1]))[:2]


# -- LaTeX -> what a student types -----------------------------------------------------------------------

FUNCS = ["arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sech", "csch", "coth", "sin", "cos", "tan",
         "sec", "csc", "cot", "ln", "log", "exp"]


def _arg(s: str, i: int) -> tuple[str, int]:
    """One TeX argument at s[i]: a braced group or a single token."""
    while i < len(s) and s[i] == " ":
        i += 1
    if s[i] == "{":
        depth = 0
        for k in range(i, len(s)):
            depth += (s[k] == "{") - (s[k] == "}")
            if depth == 0:
                return s[i + 1:k], k + 1
    if s[i] == "\\":
        m = re.match(r"\\[A-Za-z]+", s[i:])
        return m[0], i + len(m[0])
    return s[i], i + 1


def _simple(t: str) -> bool:
    return bool(re.fullmatch(r"-?(\d+\.?\d*|\d*[A-Za-zθ]|pi)", t.strip()))


def plain(tex: str) -> str:
    s = tex
    for junk in (r"\ds", r"\displaystyle", r"\left", r"\right", r"\bigg", r"\Bigg", r"\big", r"\Big",
                 r"\,", r"\;", r"\!", r"\qquad", r"\quad"):
        s = s.replace(junk, " " if junk in (r"\qquad", r"\quad") else "")
    s = s.replace(r"\fpp", "f''").replace(r"\fp", "f'").replace(r"\cdot", "*").replace("~", " ")
    s = s.replace(r"\pi", "pi ").replace(r"\theta", "θ ").replace(r"\lvert", "|").replace(r"\rvert", "|")
    text = re.sub(r"\s+", " ", _convert(s)).strip()
    text = re.sub(r"\^\(\((\d+)\)\)", r"^(\1)", text)  # f^{(4)}(x): f^(4)(x)
    return re.sub(r"(θ|pi)\s+(?=[\^)+\-*/,=]|$)", r"\1", text)  # θ^4, pi/2: no space left by \theta


def _convert(s: str) -> str:
    out, i = "", 0
    while i < len(s):
        c = s[i]
        if s.startswith(r"\frac", i):
            a, i = _arg(s, i + 5)
            b, i = _arg(s, i)
            a, b = _convert(a).strip(), _convert(b).strip()
            num = a if re.fullmatch(r"-?\d*[A-Za-zθ]?|-?\d+\.?\d*", a) else f"({a})"
            den = b if re.fullmatch(r"\d+\.?\d*|[A-Za-zθ]", b) else f"({b})"
            if re.fullmatch(r"\d+", a) and re.fullmatch(r"\d+", b):  # 3/5 y: typed (3/5) y
                out += (" " if out.rstrip() and out.rstrip()[-1] in ")0123456789" else "") + f"({a}/{b})"
            elif re.fullmatch(r"-?\d+", a) and out.rstrip() and (out.rstrip()[-1].isalnum() or out.rstrip()[-1] == ")"):
                out += f" * {num}/{den}"  # cos(u) 1/sqrt(1-x^2): typed with a *
            else:
                out += f"{num}/{den}"
        elif s.startswith(r"\sqrt", i):
            i += 5
            index = None
            if s[i] == "[":
                end = s.index("]", i)
                index, i = s[i + 1:end], end + 1
            a, i = _arg(s, i)
            a = _convert(a).strip()
            out += f"sqrt({a})" if index is None else f"cbrt({a})" if index == "3" else f"({a})^(1/{index})"
        elif c == "^":
            a, i = _arg(s, i + 1)
            a = _convert(a).strip()
            out += "^" + (a if re.fullmatch(r"\d+|[A-Za-zθ]|pi|-1", a) else f"({a})")
            after = s[i] if i < len(s) else ""
            if re.search(rf"(?:{'|'.join(FUNCS)})\^(\d+|-1)$", out) and (after.isalnum() or after in ("\\", "θ")):
                out += " "  # sin^2 x, sin^-1 x as typed
        elif c == "\\":
            m = re.match(r"\\([A-Za-z]+)", s[i:])
            name = m[1]
            i += len(m[0])
            if name in FUNCS:  # sin x sin y as typed: a space between a product's factors
                out += (" " if out and (out[-1].isalnum() or out[-1] in ")θ") else "") + name
                while i < len(s) and s[i] == " " and i + 1 < len(s) and s[i + 1] == "^":
                    i += 1  # \sin ^{-1}: sin^-1
                if i < len(s) and (s[i].isalnum() or s[i] in "\\θ"):
                    out += " "
            else:
                raise ValueError(f"unknown macro \\{name} in {s!r}")
        elif c == "{" or c == "}":
            i += 1  # a bare group sets nothing apart on the page
        else:
            out += c
            i += 1
    return out


def top_split(t: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(t):
        depth += (ch in "({[") - (ch in ")}]")
        if depth == 0 and t.startswith(sep, k):
            parts.append(t[start:k])
            start = k + len(sep)
    return [*parts, t[start:]]


# -- what each exercise asks ---------------------------------------------------------------------------

# plain text a student would type where the literal translation of the book is not it (file -> {old: new})
PLAIN = {
    "exercises/02_07_ex_20": {"ln te^t": "ln(t) e^t"},  # f(t) = ln t e^t: (ln t)·e^t as printed
    "exercises/02_04_ex_36": {"3/2 ": "(3/2) "},
}
SKIP_ANSWERS = {
    # the book's answer to a different function: its f(x) = x^2e^2 + 2^y = 5 problem is printed with e^2, the
    # answer (with e^x) is for x^2 e^x; kept as a misprint below, not skipped
}


def lhs_kind(lhs: str, var: str) -> tuple[list[str], str] | None:
    """The derivative a left side names: (wrt list, dependent or '')."""
    lhs = lhs.replace(" ", "")
    if m := re.fullmatch(r"[A-Za-z](''*)(?:\((.*)\))?", lhs):
        primes = len(m[1])
        return ([var] * primes, "") if primes else None
    if m := re.fullmatch(r"[A-Za-z]\^\(+(\d+)\)+(?:\((.*)\))?", lhs):  # f^(4)(x)
        return [var] * int(m[1]), ""
    if m := re.fullmatch(r"[A-Za-z]_\(?([xyz]+)\)?", lhs) or re.fullmatch(r"[A-Za-z]_([xyz])", lhs):
        return list(m[1]), ""
    if lhs in ("dy/dx", "(dy)/(dx)"):
        return ["x"], "y"
    if lhs in ("(d^2y)/(dx^2)", "d^2y/dx^2"):
        return ["x", "x"], "y"
    if lhs == "dy":
        return [var], ""
    return None


def items(section: str, number: int, instruction: str, path: str, problem: str, solution: str):
    """(function text, variables, wrt list, dependent, [answer forms (plain, latex)], part) of an exercise."""
    maths = re.findall(r"\$([^$]*)\$", problem)
    if not maths or "Tangent" in solution or "Normal line" in solution or "lim" in problem:
        return
    statement = maths[0].split(r"\label")[0]
    statement = re.split(r",\s*\\quad|,\s*\\qquad|\\quad at", statement)[0].rstrip(", ")
    try:
        fplain = plain(statement)
    except ValueError:
        return
    for old, new in PLAIN.get(path, {}).items():
        fplain = fplain.replace(old, new)
    if "," in fplain.split("=")[-1] or "<" in fplain or ">" in fplain:
        return
    lhs_rhs = top_split(fplain, "=")
    if len(lhs_rhs) != 2:
        return
    lhs, rhs = lhs_rhs
    m = re.fullmatch(r"\s*([A-Za-z])\s*\(([^()]*)\)\s*", lhs) or re.fullmatch(r"\s*([yz])\s*", lhs)
    equation = m is None or (lhs.strip() == "y" and "y" in rhs)
    if equation:
        variables, var = ["x", "y"], "x"
    else:
        variables = [v.strip() for v in m[2].split(",")] if m.lastindex and m.lastindex >= 2 else ["x"]
        var = variables[0]
    for chunk in re.findall(r"\$([^$]*)\$", solution):
        try:
            text = plain(chunk.split(r"\label")[0])
        except ValueError:
            continue
        for old, new in PLAIN.get(path, {}).items():
            text = text.replace(old, new)
        pieces = [p.strip() for p in top_split(text, "=")]
        kind = lhs_kind(pieces[0], var) if len(pieces) > 1 else None
        if kind is None and len(pieces) == 1 and section in ("06_05", "02_06") and \
                re.search(r"derivative|dy|find", instruction + problem):
            kind, forms = (["x"], "y" if equation else ""), pieces  # the bare formula of a 'find dy/dx'
        elif kind is None:
            continue
        else:
            forms = pieces[1:]
        wrt, dep = kind
        if dep and not equation or equation and not dep and section != "02_06":
            continue
        if wrt and wrt[0] != var and not any(w in variables for w in wrt):
            continue
        tex_chunks = [p.strip() for p in top_split(chunk.split(r"\label")[0], "=")]
        tex_forms = tex_chunks[1:] if len(tex_chunks) == len(pieces) and len(pieces) > 1 else \
            tex_chunks if len(pieces) == 1 else [None] * len(forms)
        for k, form in enumerate(forms):
            if not form or "dx" in form.replace("(dx)", "") and not form.endswith("dx"):
                continue
            tex = tex_forms[k] if k < len(tex_forms) else None
            left = pieces[0] if len(pieces) > 1 else ""
            if pieces[0] == "dy":  # dy = (2x+3)dx: the derivative is the factor of dx
                left, form = f"dy = {form}", re.sub(r"\s*\*?\s*dx$", "", form)
                form = form[1:-1] if form.startswith("(") and base.matched(form) else form
            yield fplain.strip(), variables, wrt, dep, form, tex, left


def truth_of(function: str, variables, wrt, dependent, rng):
    rhs = top_split(function, "=")
    names = sorted(set(variables) | set(wrt))
    if dependent:
        x, y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
        equation = base.to_sympy(rhs[0], NAMES) - base.to_sympy(rhs[1], NAMES)
        if len(wrt) == 1:
            truth = -sp.diff(equation, x) / sp.diff(equation, y)
        else:
            first = -sp.diff(equation, x) / sp.diff(equation, y)
            truth = sp.diff(first, x) + sp.diff(first, y) * first
        return None, truth, ["x", "y"], base.sample(["x", "y"], rng, equation), equation
    f = base.to_sympy(rhs[-1], NAMES)
    truth = sp.diff(f, *[sp.Symbol(v, real=True) for v in wrt])
    return f, truth, names, base.sample(names, rng), None


def wrong_answers(answer: str):
    """Typical mistakes, most realistic first: make_textbook_corpus's, a missing product-rule term, a
    coefficient off by a factor."""
    yield from base.mistakes(answer)
    terms = base.top_level_terms(answer)
    if len(terms) > 1:
        head = terms[:-1]
        yield "missing product-rule term", "".join(s + t for s, t in head).lstrip("+")
    yield "coefficient off by a factor", f"2({answer})"
    yield "off by a constant", f"{answer} + 1"


FUNCTION_NAMES = "arcsin|arccos|arctan|sinh|cosh|tanh|sech|csch|coth|sin|cos|tan|sec|csc|cot|ln|sqrt"


def respell(answer: str, k: int) -> str | None:
    """The same answer in another spelling students type: Python's ** with exp() and asin(), or Unicode's
    x², √(x), π, − and ·, alternately."""
    if k % 2:
        text = re.sub(r"(?<![A-Za-z])e\^\(([^()]*)\)", r"exp(\1)", answer)
        text = re.sub(r"(?<![A-Za-z])e\^([A-Za-zθ])(?![A-Za-z(])", r"exp(\1)", text)
        text = re.sub(r"\b(sin|cos|tan|sec|csc|cot|sinh|cosh|tanh)\^-1\s*", r"a\1", text)
        text = re.sub(r"\b(sin|cos|tan|sec|csc|cot|sinh|cosh|tanh)\^(\d)\s*\(([^()]*)\)", r"\1(\3)^\2", text)
        text = re.sub(r"\b(sin|cos|tan|sec|csc|cot|sinh|cosh|tanh)\^(\d)\s*([A-Za-zθ])(?![A-Za-z(])", r"\1(\3)^\2",
                      text)
        text = text.replace("^", "**")
    else:
        text = re.sub(r"(?<=[A-Za-zθ)])\^2(?![\d.])", "²", answer)
        text = re.sub(r"(?<=[A-Za-zθ)])\^3(?![\d.])", "³", text)
        text = text.replace("sqrt(", "√(").replace("pi", "π").replace("-", "−").replace("*", "·")
    return text if text != answer else None


def unicode_back(text: str) -> str:
    """A Unicode spelling back in the ASCII sympy's parser reads (to check the respelling kept the answer)."""
    for new, old in (("²", "^2"), ("³", "^3"), ("√(", "sqrt("), ("π", "pi"), ("−", "-"), ("·", "*")):
        text = text.replace(new, old)
    return re.sub(r"\ba(sin|cos|tan|sec|csc|cot|sinh|cosh|tanh)\b", r"arc\1", text).replace("exp(", "e^(")


def main() -> None:
    git = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/APEXCalculus+APEXCalculus_Source/repo/.git"
    rng = random.Random(20261127)
    rows, skipped, seen = [], [], set()
    exercise_index = 0
    for section, title in SECTIONS.items():
        for number, instruction, path, problem, solution in exercises(git, section):
            found = list(items(section, number, instruction, path, problem, solution))
            if not found:
                continue
            exercise_index += 1
            latex_too = exercise_index % 3 == 0
            where = {"book": BOOK, "section": title, "exercise": number, "file": path + ".tex"}
            for function, variables, wrt, dependent, form, tex, left in found:
                key = (function, tuple(wrt), form)
                if key in seen:  # the same exercise printed in two sections
                    continue
                seen.add(key)
                try:
                    f, truth, names, points, equation = truth_of(function, variables, wrt, dependent, rng)
                    official = base.to_sympy(form, NAMES)
                    if not {str(s) for s in official.free_symbols | truth.free_symbols} <= set(names):
                        raise ValueError(f"letters outside the exercise's variables: {official.free_symbols}")
                except Exception as err:  # noqa: BLE001 - counted and listed
                    skipped.append((path, form, f"sympy cannot read it: {type(err).__name__}: {err}"))
                    continue
                correct, compared = base.same(official, truth, names, points)
                if correct and compared < 6 or not compared:
                    skipped.append((path, form, f"only {compared} real points"))
                    continue
                try:  # e^(ln(1-t)) as typed, not sympy's 1 - t
                    as_typed = base.to_sympy(form, NAMES, evaluate=False)
                except TypeError:  # cbrt's lambda takes no evaluate=
                    as_typed = official
                if correct and f is not None and base.undefined_where_defined(as_typed, truth, f, names, points):
                    skipped.append((path, form, "undefined where the derivative is defined"))
                    continue
                order = len(wrt)
                wrt_field = wrt if len(set(wrt)) > 1 else [wrt[0]]
                typed = left if left.startswith("dy =") else f"{left} = {form}" if left and exercise_index % 2 \
                    else form
                row = {"function": function, "wrt": wrt_field, "answer": typed,
                       "truth": "correct" if correct else "incorrect", "official": True,
                       "mistake": None if correct else "misprint in the book", "dependent": dependent or None,
                       "order": order if len(set(wrt)) == 1 else 1, "kind": "derivative",
                       "transcribed": "from the LaTeX", "evidence": f"50-digit mpmath at {compared} points",
                       "source": where}
                if len(set(wrt)) > 1:
                    row["order"] = 1
                rows.append(row)
                if latex_too and tex and "\\" in tex:
                    latex = tex.replace(r"\fpp", "f''").replace(r"\fp", "f'").replace(r"\ds", "")
                    latex = f"dy = {latex.strip()}" if left.startswith("dy =") else latex.strip()
                    rows.append({**row, "answer": latex, "transcribed": "the book's LaTeX",
                                 "evidence": row["evidence"] + " (of its plain-text transcription)"})
                respelled = respell(form, exercise_index)
                if respelled and exercise_index % 3 == 1:
                    try:
                        same_answer = base.same(base.to_sympy(unicode_back(respelled), NAMES), official, names,
                                                points)[0]
                    except Exception:  # noqa: BLE001
                        same_answer = False
                    if same_answer:
                        rows.append({**row, "answer": respelled, "transcribed": "respelled as students also type it",
                                     "evidence": row["evidence"] + " (of its plain-text transcription)"})
                if not correct:
                    continue
                candidates = []
                for mistake, wrong_text in wrong_answers(form):
                    try:
                        wrong = base.to_sympy(wrong_text, NAMES)
                    except Exception:  # noqa: BLE001
                        continue
                    equal, n = base.same(wrong, truth, names, points)
                    if not equal and n >= 1:
                        candidates.append((mistake, wrong_text))
                if candidates:
                    mistake, wrong_text = candidates[len(rows) % min(3, len(candidates))]
                    rows.append({**row, "answer": wrong_text, "truth": "incorrect", "official": False,
                                 "mistake": mistake, "transcribed": "a typical mistake in the plain text"})
    with OUT.open("w", encoding="utf-8") as out:
        for n, row in enumerate(rows, start=1):
            out.write(json.dumps({"id": n, **row}, ensure_ascii=False) + "\n")
    official = [r for r in rows if r["official"]]
    exercises_in = {(r["source"]["section"], r["source"]["exercise"]) for r in rows}
    print(f"{len(exercises_in)} exercises, {len(rows)} rows: {len(official)} official answers "
          f"({sum(r['truth'] == 'correct' for r in official)} correct, "
          f"{sum(r['mistake'] == 'misprint in the book' for r in official)} misprints; "
          f"{sum(r['transcribed'] == 'the book' + chr(39) + 's LaTeX' for r in rows)} typed in LaTeX), "
          f"{len(rows) - len(official)} typical wrong answers -> {OUT}")
    print(f"{len(skipped)} answers left out:")
    for path, form, why in skipped:
        print(f"  {path}: {form!r}: {why}")


if __name__ == "__main__":
    main()
