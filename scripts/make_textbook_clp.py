"""Build tests/corpus/textbook_clp.jsonl: a third answer key, independent of OpenStax's and APEX's.

CLP-1 Differential Calculus, problem book (Feldman, Rechnitzer, Yeager, UBC, CC BY-NC-SA 4.0), read from the
book's own LaTeX (github.com/arechnitzer/CLP1, latex/problembook/problems/prob_s2.*.tex, commit 9f02959): the
questions of §2.2-2.14 (the definition, arithmetic of derivatives, product and quotient rules, exponentials,
trigonometric functions, the chain rule, the natural logarithm and logarithmic differentiation, implicit
differentiation, inverse trigonometric functions, higher derivatives) whose answer is a formula.

    python scripts/make_textbook_clp.py [path/to/arechnitzer+CLP1/.git]

CLP writes `\\log` for the natural logarithm (as gradcli reads `log`), `\\arcsec`, `[u]` for brackets, and leaves
many answers unsimplified; each answer is typed as a student types it from the page (translated from the LaTeX
by make_textbook_apex's reader).  A question's number is its position among the section's questions (the book
numbers them so, Q[2.9.3]).  Every form the book prints counts: the answer key's (`\\begin{answer}`), and each
line of the worked solution's last chain of equalities that is a formula of x alone (`=-\\sin(5x+3)\\cdot 5`);
the answer key's form is typed a second time as the book's LaTeX itself (gradcli reads LaTeX).

Truth is decided as in scripts/make_textbook_corpus.py, independently of gradcli: sympy's own parser reads the
plain text and the answer is compared with sympy's derivative at up to 40 points at 50 digits with mpmath (for
an equation, -F_x/F_y at points of the curve).  An answer that differs is a misprint, kept and marked.

Wrong answers, the way students err: make_textbook_apex's textual slips (sign of a term, dropped chain factor,
dropped 1/2, exponent off by one, missing product-rule term, coefficient, constant), and mistakes made from the
function by sympy: the product rule as the product of the derivatives, the quotient rule's numerator in the
wrong order, the outer derivative without the chain factor, d/dx ln u as 1/u, the power rule's exponent not
lowered.  Right answers in other forms (sympy's factor, expand, together of the book's answer) test false
rejections: an "equal" variant is kept only when the 50-digit comparison shows it equal.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import mpmath
import sympy as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_textbook_apex as apex  # noqa: E402 - scripts/ is not a package
import make_textbook_corpus as base  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "textbook_clp.jsonl"
BOOK = "CLP-1 Differential Calculus problem book (Feldman, Rechnitzer, Yeager, CC BY-NC-SA 4.0)"
SECTIONS = {
    "2.2": "2.2 Definition of the derivative",
    "2.4": "2.4 Arithmetic of derivatives",
    "2.6": "2.6 Using the arithmetic of derivatives",
    "2.7": "2.7 Derivatives of exponential functions",
    "2.8": "2.8 Derivatives of trigonometric functions",
    "2.9": "2.9 One more tool - the chain rule",
    "2.10": "2.10 The natural logarithm",
    "2.11": "2.11 Implicit differentiation",
    "2.12": "2.12 Inverse trigonometric functions",
    "2.14": "2.14 Higher order derivatives",
}
apex.FUNCS[:0] = ["arcsec", "arccsc", "arccot"]
NAMES = ["x", "y", "t", "θ", "k", "s"]
apex.NAMES[:] = list(dict.fromkeys([*apex.NAMES, *NAMES]))
SKIP_QUESTIONS = {  # (section, number): answers that are not the derivative of the stated function alone
    ("2.6", 14),  # two functions, a tangent line
    ("2.12", 5),  # a constant a: the corpus's functions have one variable
    ("2.7", 5),
    ("2.2", 17), ("2.2", 25), ("2.4", 4), ("2.7", 12), ("2.10", 30), ("2.14", 1), ("2.14", 20),  # f, g, m, n
    ("2.12", 24),  # which of two candidate derivatives is wrong
}


TEX: dict[str, str] = {}  # plain form -> the LaTeX it was translated from


def show(git: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git, "show", f"HEAD:{path}"], capture_output=True, text=True,
                          check=True).stdout


def uncomment(s: str) -> str:
    return "\n".join(re.sub(r"(?<!\\)%.*$", "", line) for line in s.splitlines())


def questions(tex: str):
    """(number, question, answer, solution) in the order the book numbers them."""
    blocks = re.findall(r"\\begin\{(M?question)\}(.*?)\\end\{\1\}(.*?)(?=\\begin\{M?question\}|\Z)",
                        uncomment(tex), re.S)
    for n, (_, question, rest) in enumerate(blocks, start=1):
        answer = re.search(r"\\begin\{answer\}(.*?)\\end\{answer\}", rest, re.S)
        solution = re.search(r"\\begin\{solution\}(.*?)\\end\{solution\}", rest, re.S)
        yield n, question, answer[1] if answer else "", solution[1] if solution else ""


def normalise(tex: str) -> str:
    """CLP's macros to the LaTeX make_textbook_apex reads."""
    s = tex.replace(r"\dfrac", r"\frac").replace(r"\tfrac", r"\frac").replace(r"\textcolor{red}", "")
    s = re.sub(r"\\log_\{?10\}?", "LOGTEN ", s).replace(r"\log", r"\ln ").replace("LOGTEN", "log10")
    s = s.replace(r"\arcsec", r"\arcsec ").replace(r"\mbox{arcsec}", r"\arcsec ")
    s = s.replace(r"\Big", "").replace(r"\big", "").replace(r"\!", "").replace(r"\\", " ").replace("&", "")
    s = re.sub(r"(?<!\\sqrt)\[([^\]]*)\]", r"(\1)", s).replace(r"\{", "(").replace(r"\}", ")")
    return s


def to_plain(tex: str) -> str:
    text = apex.plain(normalise(tex))
    text = re.sub(r"\bln\b", "log", text)  # the book's notation: log is the natural logarithm
    return text.replace("\\", "").strip().rstrip(".,;")


LHS = re.compile(r"^\s*(?:([A-Za-z])'{1,3}\s*(?:\(([a-zθ])\))?|([A-Za-z])\^\(\((\d)\)\)\s*(?:\(([a-zθ])\))?|"
                 r"\\ds\s*|)\s*$")


def function_of(question: str):
    """(function text as typed, variable, order, dependent) of a 'differentiate f' question, or None."""
    q = " ".join(question.split())
    if re.search(r"tangent|domain where|\bat \$x|at the point|limit|\\lim|one--to--one|horizontal|values of|"
                 r"Show|True or false|mistake|[Ss]elect|graph|where \$a\$|inverse|Verify|constant", q):
        return None
    order = 1
    if m := re.search(r"\\ddiff\{(\d)\}\{\}\{([a-zθ])\}\s*\\?\{(.*)\\\}", q) or \
            re.search(r"\\ddiff\{(\d)\}\{\}\{([a-zθ])\}\s*\\left\\\{(.*)\\right\\\}", q):
        return m[3], m[2], int(m[1]), None
    if m := re.search(r"\\diff\{\}\{([a-zθ]|\\theta)\}\s*(?:\\left)?\\\{(.*?)(?:\\right)?\\\}\$", q):
        return m[2], "θ" if "theta" in m[1] else m[1], 1, None
    if m := re.search(r"\\diff\{\}\{\\theta\}\s*(.*?)\$", q):
        return m[1], "θ", 1, None
    if re.search(r"f''\(x\)", q):
        order = 2
    if m := re.search(r"\\diff\{y\}\{x\}.*?if \$(.*?)\$|If \$(.*?)\$,? (?:then )?compute", q):
        return (m[1] or m[2]), "x", 1, "y"
    if not re.search(r"[Dd]ifferentiate|derivative|Evaluate \$f''", q):
        return None
    chunks = re.findall(r"\$(.*?)\$|\\\[(.*?)\\\]", q, re.S)
    for a, b in chunks:
        body = (a or b).strip().rstrip(".")
        m = re.fullmatch(r"\s*(?:\\ds\s*)?([A-Za-z])\s*\(\s*([a-zθ]|\\theta)\s*\)\s*=\s*(.*)", body, re.S) or \
            re.fullmatch(r"\s*(y)\s*=\s*(x)?(.*)", body, re.S)
        if m:
            var = "θ" if m[2] and "theta" in m[2] else (m[2] or "x")
            return m[3], var, order, None
        if "=" not in body and re.search(r"x", body) and len(body) > 3:
            return body, "x", order, None
    return None


def answers(answer: str, solution: str, var: str, order: int, dependent):
    """The forms the book prints: the answer key's, then the last lines of the solution's chain."""
    forms = []
    chunks = re.findall(r"\$(.*?)\$|\\\[(.*?)\\\]", answer, re.S)
    chunks += [("", block.replace("~", " ")) for block in re.findall(r"\\begin\{align\*?\}(.*?)\\end\{align\*?\}",
                                                                      answer, re.S)]  # one answer over two lines
    either = all("=" not in (a or b) for a, b in chunks) and re.search(r"\$,? or \$", answer)  # A, or B
    for a, b in chunks:
        if len(chunks) == 1 or either or "=" in (a or b):  # a bare formula only when it is the whole answer
            forms.extend(_forms(a or b, var, order, dependent))
    if not forms and answer.strip() and "$" not in answer and re.fullmatch(r"[\d\s]+", answer.strip()):
        forms.append(answer.strip())  # the bare '0' of 2.8.2
    for block in re.findall(r"\\begin\{align\*?\}(.*?)\\end\{align\*?\}", solution, re.S):
        lines = [line for line in re.split(r"\\\\", block) if "\\intertext" not in line]
        for line in lines[1:]:
            rhs = line.split("&=", 1)[-1] if "&=" in line else None
            if rhs and not re.search(r"\\diff|\\ddiff|\\lim|f\(|g\(|h\(|=", rhs):
                forms.extend(_forms(rhs, var, order, dependent, bare=True))
    return list(dict.fromkeys(forms))


def _forms(chunk: str, var: str, order: int, dependent, bare: bool = False):
    pieces = [p for p in re.split(r"(?<![<>!])=", chunk)]
    if bare:
        pieces = ["", *pieces]
    if len(pieces) == 1:
        pieces = ["", pieces[0]]
    left = pieces[0].replace(r"\ds", "").strip()
    if left and not (re.fullmatch(r"[A-Za-z]'+\s*(\([a-zθ]\)|\(\\theta\))?", left) or r"\diff{y}{x}" in left
                     or r"\ddiff" in left or r"\diff{}" in left or "f^{(" in left):
        return
    for form in pieces[1:]:
        form = re.sub(r"\\text\{.*?\}|\\mbox\{.*?\}|\\qquad|\\quad", "", form).strip().rstrip(".,;")
        if not form or re.search(r"\\(?:in|cup|infty|ne|neq|le|leq|ge|geq|pm)(?![A-Za-z])|<|>", form):
            continue
        try:
            TEX[to_plain(form)] = form  # the book's own LaTeX of the form, typed as well (below)
            yield to_plain(form)
        except (ValueError, IndexError):
            continue


def read(text: str):
    """sympy's reading of a CLP formula: the book's log is the natural logarithm (ln in make_textbook_corpus)."""
    return base.to_sympy(re.sub(r"\blog\b(?!_)", "ln", text), NAMES)


def truth_of(function: str, var: str, order: int, dependent, rng):
    """(function, its derivative, variables, sample points): sympy's derivative of sympy's reading."""
    if dependent:
        x, y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
        left, right = apex.top_split(function, "=")
        equation = read(left) - read(right)
        return None, -sp.diff(equation, x) / sp.diff(equation, y), ["x", "y"], base.sample(["x", "y"], rng, equation)
    f = read(function)
    return f, sp.diff(f, *[sp.Symbol(var, real=True)] * order), [var], base.sample([var], rng)


def singular(expr, var: str) -> list[list]:
    """The real points where a denominator or a logarithm's argument of the answer vanishes: where an answer
    typed from logarithmic differentiation is undefined though the derivative is not (random points miss
    them)."""
    x = sp.Symbol(var, real=True)
    found = set()
    for node in sp.preorder_traversal(expr):
        base_ = node.base if isinstance(node, sp.Pow) and node.exp.is_negative else \
            node.args[0] if isinstance(node, sp.log) else None
        if base_ is None or not base_.has(x) or not base_.is_polynomial(x):
            continue
        for root in sp.Poly(base_, x).real_roots() if sp.Poly(base_, x).degree() <= 8 else []:
            found.add(sp.Rational(root) if root.is_rational else None)

    return [[mpmath.mpf(sp.Rational(r).p) / sp.Rational(r).q] for r in found if r is not None]


def student_text(expr) -> str:
    """A sympy expression typed as a student types it (x^2, log, sqrt, abs)."""
    text = sp.sstr(expr).replace("**", "^").replace("Abs(", "abs(")
    return re.sub(r"\bexp\(", "e^(", text)


def derived_mistakes(f, var):
    """Wrong answers made from the function: the rules misapplied."""
    x = sp.Symbol(var, real=True)
    if isinstance(f, sp.Mul):
        factors = [a for a in f.args if a.has(x)]
        if len(factors) == 2:
            u, v = factors
            const = f / (u * v)
            yield "product rule as the product of the derivatives", const * sp.diff(u, x) * sp.diff(v, x)
            num, den = sp.fraction(f)
            if den.has(x) and num.has(x):
                yield "quotient rule numerator reversed", (num * sp.diff(den, x) - sp.diff(num, x) * den) / den**2
    if isinstance(f, sp.Function) and len(f.args) == 1 and f.args[0] != x:
        inner = f.args[0]
        yield "forgotten chain factor", sp.diff(f.func(x), x).subs(x, inner)
        if f.func == sp.log:
            yield "d/dx ln u as 1/u", 1 / inner
    if isinstance(f, sp.Pow) and f.exp.is_number and f.base != x:
        yield "forgotten chain factor", f.exp * f.base ** (f.exp - 1)
        yield "exponent not lowered", f.exp * f.base ** f.exp * sp.diff(f.base, x)


def equal_forms(official):
    for how in (sp.factor, sp.expand, sp.together, sp.cancel):
        try:
            yield how.__name__, how(official)
        except Exception:  # noqa: BLE001 - a form sympy cannot make is not a candidate
            continue


def main() -> None:
    git = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/arechnitzer+CLP1/repo"
    rng = random.Random(20261127)
    rows, skipped, used = [], [], Counter()
    for section, title in SECTIONS.items():
        path = f"latex/problembook/problems/prob_s{section}.tex"
        for number, question, answer, solution in questions(show(git, path)):
            if (section, number) in SKIP_QUESTIONS:
                continue
            found = function_of(question)
            if not found:
                continue
            ftex, var, order, dependent = found
            try:
                function = to_plain(ftex)
            except (ValueError, IndexError) as err:
                skipped.append((section, number, ftex, f"cannot transcribe: {err}"))
                continue
            forms = answers(answer, solution, var, order, dependent)
            if not forms:
                continue
            where = {"book": BOOK, "section": title, "exercise": number, "label": f"Q[{section}.{number}]",
                     "file": path}
            names = ["x", "y"] if dependent else [var]
            wrt = ["x"] * order if dependent else [var] * order
            try:
                f, truth, names, points = truth_of(function, var, order, dependent, rng)
            except Exception as err:  # noqa: BLE001 - listed
                skipped.append((section, number, function, f"sympy cannot read the function: {err}"))
                continue
            kept = []
            for k, form in enumerate(forms):
                try:
                    official = read(form)
                    if not {str(s) for s in official.free_symbols} <= set(names):
                        raise ValueError(f"letters outside the exercise's variables: {official.free_symbols}")
                except Exception as err:  # noqa: BLE001 - listed
                    skipped.append((section, number, form, f"sympy cannot read it: {type(err).__name__}"))
                    continue
                correct, compared = base.same(official, truth, names, points)
                if compared < 6:
                    skipped.append((section, number, form, f"only {compared} real points"))
                    continue
                if not correct and k > 0:  # a line of the solution's chain that is not yet the derivative
                    skipped.append((section, number, form, "a solution line that differs (an intermediate step)"))
                    continue
                if correct and f is not None:
                    try:
                        as_typed = base.to_sympy(re.sub(r"\blog\b(?!_)", "ln", form), NAMES, evaluate=False)
                    except TypeError:
                        as_typed = official
                    if base.undefined_where_defined(as_typed, truth, f, names, points + singular(as_typed, var)):
                        correct = False  # check's contract: an answer undefined where the derivative is
                        # defined is incorrect (logarithmic differentiation's f·(1/(x+1) + ...) at x = -1)
                row = {"function": function, "wrt": [wrt[0]], "answer": form,
                       "truth": "correct" if correct else "incorrect", "official": True,
                       "mistake": None if correct else "misprint in the book" if not base.same(
                           official, truth, names, points)[0] else "undefined where the derivative is defined",
                       "dependent": dependent,
                       "order": order, "kind": "derivative",
                       "transcribed": "from the LaTeX" + ("" if k == 0 else " (a line of the worked solution)"),
                       "evidence": f"50-digit mpmath at {compared} points", "source": where}
                rows.append(row)
                tex = " ".join(TEX.get(form, "").split())
                if k == 0 and "\\" in tex:  # the answer key's LaTeX as printed: gradcli reads LaTeX too
                    rows.append({**row, "answer": tex, "transcribed": "the book's LaTeX",
                                 "evidence": row["evidence"] + " (of its plain-text transcription)"})
                kept.append((row, official))
            if not kept or not any(r["truth"] == "correct" for r, _ in kept):
                continue
            row, official = next((r, o) for r, o in kept if r["truth"] == "correct")
            # wrong answers: one textual slip, one misapplied rule
            textual = []
            for mistake, wrong_text in apex.wrong_answers(row["answer"]):
                try:
                    wrong = read(wrong_text)
                except Exception:  # noqa: BLE001
                    continue
                equal, n = base.same(wrong, truth, names, points)
                if not equal and n >= 1:
                    textual.append((mistake, wrong_text))
            ruled = []
            if f is not None and order == 1:
                for mistake, wrong in derived_mistakes(f, var):
                    equal, n = base.same(wrong, truth, names, points)
                    if not equal and n >= 1:
                        ruled.append((mistake, student_text(wrong)))
            picked = [min(found, key=lambda m: (used[m[0]], found.index(m))) for found in (textual, ruled) if found]
            for mistake, wrong_text in picked:  # the kind of mistake used least so far: every kind appears
                used[mistake] += 1
                rows.append({**row, "answer": wrong_text, "truth": "incorrect", "official": False,
                             "mistake": mistake, "transcribed": "a typical mistake"})
            # the same derivative in another form: a right answer check must not reject
            for how, other in equal_forms(official):
                text = student_text(other)
                if text.replace(" ", "") == row["answer"].replace(" ", "") or text == "0":
                    continue
                try:
                    equal, n = base.same(read(text), truth, names, points)
                except Exception:  # noqa: BLE001
                    continue
                if equal and n >= 6:
                    rows.append({**row, "answer": text, "official": False, "mistake": None,
                                 "transcribed": f"another form of the book's answer (sympy's {how})"})
                    break
    with OUT.open("w", encoding="utf-8") as out:
        for n, row in enumerate(rows, start=1):
            out.write(json.dumps({"id": n, **row}, ensure_ascii=False) + "\n")
    official = [r for r in rows if r["official"]]
    exercises_in = {(r["source"]["section"], r["source"]["exercise"]) for r in rows}
    print(f"{len(exercises_in)} exercises, {len(rows)} rows: {len(official)} official answers "
          f"({sum(r['truth'] == 'correct' for r in official)} correct, "
          f"{sum(r['mistake'] == 'misprint in the book' for r in official)} misprints), "
          f"{sum(not r['official'] and r['truth'] == 'incorrect' for r in rows)} typical wrong answers, "
          f"{sum(not r['official'] and r['truth'] == 'correct' for r in rows)} equal forms -> {OUT}")
    print(f"{len(skipped)} answers left out:")
    for section, number, form, why in skipped:
        print(f"  {section}.{number}: {form!r}: {why}")


if __name__ == "__main__":
    main()
