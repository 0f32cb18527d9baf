"""Build tests/corpus/textbook_ximera.jsonl: a fourth answer key, independent of OpenStax's, APEX's and CLP's.

Calculus (Bart Snapp, Jim Fowler et al., the Ximera/MOOCulus project at Ohio State, CC BY-NC-SA 4.0; the
exercise files say "Creative Commons 3.0 By-NC" or "CC-By-SA-NC"), read from the book's own LaTeX
(github.com/mooculus/calculus, */exercises/*.tex, commit 6de1b414): the exercises of the differentiation
sections (rules, product and quotient rules, the chain rule, inverse functions, implicit and logarithmic
differentiation, higher derivatives, partial derivatives) whose answer is a formula.

    python scripts/make_textbook_ximera.py [path/to/mooculus+calculus/.git]

Ximera prints the expected answer of each blank in `\\answer{...}` (the online book checks the student's input
against it; the PDF prints it in a box).  A prompt that is one blank (`\\dd{v}p(v) = \\answer{...}`) prints the
derivative; a prompt with several blanks inside a printed template (`\\left(\\answer{..}\\right) \\cos(n) + ..`)
prints the derivative once its blanks are filled with the key's answers: that filled template is the book's
answer.  Each answer is typed twice: as the book's LaTeX itself (gradcli reads LaTeX; `\\answer{X}` becomes the
group `{X}`, in parentheses where the blank holds a sum that is multiplied), and as a student types it from the
page (translated by make_textbook_apex's reader).  A chain of prompts `= A = B` gives each of A and B; a form that
is not yet the derivative (a simplification step, `k^{-9}`) is left out and listed.

Truth is decided as in scripts/make_textbook_corpus.py, independently of gradcli: sympy's own parser reads the
plain text and the answer is compared with sympy's derivative at up to 40 points at 50 digits with mpmath (for
an equation, -F_x/F_y at points of the curve).  An answer that differs is a misprint, kept and marked.

Wrong answers, the way students err: make_textbook_apex's textual slips and make_textbook_clp's misapplied rules
(the product rule as the product of the derivatives, the quotient rule's numerator reversed, the forgotten chain
factor, d/dx ln u as 1/u, the exponent not lowered); right answers in other forms (sympy's factor, expand,
together) test false rejections.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_textbook_apex as apex  # noqa: E402 - scripts/ is not a package
import make_textbook_clp as clp  # noqa: E402
import make_textbook_corpus as base  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "textbook_ximera.jsonl"
BOOK = "Calculus (Snapp, Fowler et al., Ximera/MOOCulus, The Ohio State University, CC BY-NC-SA 4.0)"
COMMIT = "6de1b414"
SECTIONS = {  # the book's directories -> section titles
    "definitionOfTheDerivative": "Definition of the derivative",
    "derivativeAsAFunction": "The derivative as a function",
    "rulesOfDifferentiation": "Rules of differentiation",
    "productAndQuotientRules": "Product rule and quotient rule",
    "chainRule": "Chain rule",
    "derivativesOfInverseFunctions": "Derivatives of inverse functions",
    "implicitDifferentiation": "Implicit differentiation",
    "logarithmicDifferentiation": "Logarithmic differentiation",
    "higherOrderDerivativesAndGraphs": "Higher order derivatives and graphs",
    "partialDerivativesAndTheGradientVector": "Partial derivatives and the gradient vector",
    "directionalDerivativeAndChainRule": "The directional derivative and the chain rule",
}
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
NAMES = [*"xyztuvwsrkmnpqhabcgdθ", "θ"]
VAR = r"(?:[A-Za-z]|\\theta)"
RNG = random.Random(20261127)


def show(git: str, path: str) -> str:
    return subprocess.run(["git", "--git-dir", git, "show", f"{COMMIT}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def files(git: str, section: str) -> list[str]:
    out = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", "--name-only", COMMIT, f"{section}/exercises/"],
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if p.endswith(".tex")]


def group(s: str, i: int) -> tuple[str, int]:
    """The braced group starting at s[i] == '{': (its inside, the index after it)."""
    depth = 0
    for k in range(i, len(s)):
        depth += (s[k] == "{") - (s[k] == "}")
        if depth == 0:
            return s[i + 1:k], k + 1
    raise ValueError("unbalanced braces")


def fill(tex: str) -> str:
    """The prompt with each blank filled by the key's answer: \\answer{X} -> {X}, or {(X)} where a sum in the
    blank is multiplied by what stands next to it (the printed box sets it apart)."""
    out, i = "", 0
    while (k := tex.find(r"\answer", i)) >= 0:
        j = k + len(r"\answer")
        while tex[j] == " ":
            j += 1
        if tex[j] == "[":  # \answer[tolerance=...]{X}
            j = tex.index("]", j) + 1
        inner, end = group(tex, j)
        inner = inner.strip()
        if re.fullmatch(r"\\[A-Za-z]+", inner):  # a blank holding a function's name: \answer{\tan}(...)
            out += tex[i:k] + inner + " "
            i = end
            continue
        before, after = tex[:k].rstrip(), tex[end:].lstrip()
        multiplied = (before[-1:].isalnum() or before.endswith(("\\cdot", ")", "}"))) and not before.endswith(
            ("\\left(", "(", "{", "=")) or after[:1] in ("^", "(") or after[:1].isalpha() or after.startswith("\\c")
        summed = any(d == 0 and ch in "+-" and p > 0 for p, (ch, d) in enumerate(_depths(inner)))
        out += tex[i:k] + ("{(" + inner + ")}" if summed and multiplied else "{" + inner + "}")
        i = end
    return out + tex[i:]


def _depths(t: str):
    depth = 0
    for ch in t:
        depth += ch in "({[" and 1 or 0
        depth -= ch in ")}]" and 1 or 0
        yield ch, depth


def normalise(tex: str) -> str:
    """Ximera's macros to the LaTeX make_textbook_apex reads."""
    s = tex.replace(r"\dfrac", r"\frac").replace(r"\tfrac", r"\frac").replace(r"\,", "").replace(r"\!", "")
    s = re.sub(r"\\mathrm\{e\}", "e", s)
    s = re.sub(r"\\log_\{?(\d+)\}?", r"LOGBASE\1 ", s)  # \log_2: the base-2 logarithm
    s = s.replace(r"\ln", r"\ln ").replace(r"\log", r"\ln ").replace(r"\Bigl", "").replace(r"\Bigr", "")
    s = re.sub(r"\\theta\s*", "θ ", s)
    s = re.sub(r"\\(" + "|".join(apex.FUNCS) + r")\s*\{([^{}]*)\}", r"\\\1(\2)", s)  # \sin{x}: sin(x)
    s = re.sub(r"\^\\frac\{(\d+)\}\{(\d+)\}", r"^{\1/\2}", s)  # v^\frac{5}{4}
    s = re.sub(r"\^\\frac(\d)(\d)", r"^{\1/\2}", s)
    s = re.sub(r"\\operatorname\{(\w+)\}", r"\\\1", s)
    return s


def to_plain(tex: str) -> str:
    text = apex.plain(normalise(tex))
    text = re.sub(r"LOGBASE(\d+)", r"log_\1", text)
    return text.replace("\\", "").strip().rstrip(".,;")


def blocks(tex: str):
    tex = "\n".join(re.sub(r"(?<!\\)%.*$", "", line) for line in tex.splitlines())
    yield from enumerate(re.findall(r"\\begin\{exercise\}(.*?)\\end\{exercise\}", tex, re.S), start=1)


# a derivative on the left of a prompt: \dd{v}p(v), \dd[^2]{x^2}..., p'(v), p''(v), \ddx f(x), dy/dx, \pp{x}f(x,y),
# f_x(x,y)
LHS = re.compile(
    r"(?P<dd>\\dd(?:\[\^(?P<ddn>\d)\s*(?P<ddf>[A-Za-z]?)\])?\{(?P<ddv>" + VAR + r")(?:\^\d)?\}\s*(?P<ddname>[A-Za-z])?"
    r"(?:\((?P<ddargs>[^()]*)\))?)"
    r"|(?P<pr>(?P<prname>[A-Za-z])(?P<primes>'{1,3})\s*\((?P<prarg>" + VAR + r")\))"
    r"|(?P<dydx>\\frac\{d\s*y\}\{d\s*x\})"
    r"|(?P<pp>\\pp\{(?P<ppv>" + VAR + r")\}\s*(?P<ppname>[A-Za-z])?\s*(?:\((?P<ppargs>[^()]*)\))?)"
    r"|(?P<sub>(?P<subname>[A-Za-z])_\{?(?P<subv>[a-z]{1,2})\}?\s*\((?P<subargs>[^()]*)\))"
    r"|(?P<ddx>\\ddx\s*(?P<ddxname>[A-Za-z])\s*\(x\))"
)
# d/dx applied to a printed expression: \ddx\left[\vphantom{\ddx}5^x\right] &= ..., \frac{d}{dx} \sec^{-1}(x^2) = ...
INLINE = re.compile(r"(?:\\ddx|\\frac\{d\}\{d\s*x\}|\\dd\{x\})(?P<expr>[^=$&]*?)(?:\\begin\{prompt\}\s*)?&?\s*=")
END = re.compile(r"\\end\{prompt\}|\\\]|\$|\\\\|\\end\{align|\\end\{equation|\n\s*\n")


def prompts(block: str):
    """(lhs match, [printed right-hand sides]) of each derivative prompt with a blank."""
    for m in LHS.finditer(block):
        rest = block[m.end():]
        lead = re.match(r"\s*(?:\\\)|\$)?\s*(?:\\begin\{prompt\}\s*)?(?:\\\[|\$)?\s*=", rest)
        if not lead:
            continue
        body = rest[lead.end():]
        stop = END.search(body)
        rhs = body[:stop.start()] if stop else body
        if r"\answer" not in rhs:
            continue
        forms = [p.strip() for p in apex.top_split(rhs, "=") if p.strip()]
        yield m, forms


def inline(block: str):
    """(expression, [printed right-hand sides]) of each d/dx of a printed expression with a blank."""
    for m in INLINE.finditer(block):
        expr = m["expr"].replace(r"\vphantom{\ddx}", "").strip()
        expr = re.sub(r"^\\left\[(.*)\\right\]$", r"\1", expr, flags=re.S).strip()
        if not expr or re.fullmatch(r"[A-Za-z]\s*\(x\)", expr) or "answer" in expr or r"\eval" in expr or \
                re.search(r"\b[fgh]\s*\(|\}_\{", expr):
            continue
        body = block[m.end():]
        stop = END.search(body)
        rhs = body[:stop.start()] if stop else body
        if r"\answer" in rhs:
            yield expr, [p.strip() for p in apex.top_split(rhs, "=") if p.strip()]


def definition(block: str, name: str, args: str):
    """The printed definition NAME(args) = BODY in the exercise's mathematics."""
    pattern = re.escape(name) + r"\s*\(\s*" + re.escape(args).replace(r"\ ", r"\s*").replace(",", r"\s*,\s*") + \
        r"\s*\)\s*=\s*"
    for math in re.findall(r"\$(.*?)\$|\\\[(.*?)\\\]", block, re.S):
        text = math[0] or math[1]
        if m := re.search(pattern, text):
            body = text[m.end():]
            body = re.split(r"\\end\{prompt\}|\\begin\{prompt\}|\\quad|\\text", body)[0]
            return body.strip().rstrip(".,;")
    return None


def equation(block: str, before: int):
    """The last displayed or inline equation in x and y printed before the prompt."""
    found = None
    for m in re.finditer(r"\$(.*?)\$|\\\[(.*?)\\\]", block[:before], re.S):
        text = (m[1] or m[2]).strip().rstrip(".,;")
        if text.count("=") == 1 and "y" in text and r"\answer" not in text and "prompt" not in text and \
                not re.search(r"\\frac\{d|\\dd|'|\(\s*-?\d", text):
            found = text
    return found


def exercises(git: str):
    for section, title in SECTIONS.items():
        for path in files(git, section):
            for number, block in blocks(show(git, path)):
                for m, forms in prompts(block):
                    yield section, title, path, number, block, m, forms
                for expr, forms in inline(block):
                    yield section, title, path, number, block, expr, forms


def _as_function(eq: str, var: str, order: int):
    """dy/dx of y = f(x) printed as an equation: a function of x when y is not on the right."""
    if m := re.fullmatch(r"\s*y\s*=\s*(.*)", eq, re.S):
        if not re.search(r"(?<![A-Za-z\\])y(?![A-Za-z])", m[1]):
            return m[1], [var] * order, order, None
    return eq, [var], order, "y"


def item(block: str, m):
    """(function LaTeX, wrt list, order, dependent) of a prompt, or None."""
    if isinstance(m, str):  # d/dx of a printed expression
        return m, ["x"], 1, None
    if m["dd"]:
        var, order = m["ddv"], int(m["ddn"] or 1)
        name = m["ddname"] or m["ddf"]
        if name == "y" and not m["ddargs"]:
            eq = equation(block, m.start())
            return _as_function(eq, "x", 1) if eq and var == "x" and order == 1 else None
        if not name or (m["ddargs"] is not None and m["ddargs"].replace(" ", "") != var):
            return None
        body = definition(block, name, var)
        return (body, [var] * order, order, None) if body else None
    if m["pr"]:
        var, order = m["prarg"], len(m["primes"])
        body = definition(block, m["prname"], var)
        if body is None and m["prname"] == "y":
            body = _explicit(block)
        return (body, [var] * order, order, None) if body else None
    if m["dydx"]:
        eq = equation(block, m.start())
        return _as_function(eq, "x", 1) if eq else None
    if m["pp"] or m["sub"]:
        name = m["ppname"] or m["subname"]
        args = m["ppargs"] or m["subargs"]
        wrt = [m["ppv"]] if m["pp"] else list(m["subv"])
        if not name or not args:
            return None
        body = definition(block, name, args)
        return (body, wrt, len(wrt), None) if body else None
    if m["ddx"]:
        body = definition(block, m["ddxname"], "x")
        return (body, ["x"], 1, None) if body else None
    return None


def _explicit(block: str):
    for math in re.findall(r"\$(.*?)\$|\\\[(.*?)\\\]", block, re.S):
        text = (math[0] or math[1]).strip()
        if mm := re.fullmatch(r"y\s*=\s*(.*?)[.,]?", text, re.S):
            if "y" not in mm[1]:
                return mm[1]
    return None


def real_roots(expr):
    """u^(8/3) as the book means it: the real cube root, defined for u < 0 (sympy's principal power is not)."""
    def odd(p):  # the exponent of an unevaluated reading is 8*3^-1: evaluated first
        return isinstance(p, base.sp.Pow) and (e := p.exp.doit()).is_Rational and not e.is_Integer and e.q % 2 == 1

    def real(p):
        return base.sp.sign(p.base) ** p.exp.doit().p * base.sp.Abs(p.base) ** p.exp.doit()

    return expr.replace(odd, real)


def main() -> None:
    git = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mooculus+calculus/repo"
    rows, skipped, used = [], [], Counter()
    for section, title, path, number, block, m, forms in exercises(git):
        found = item(block, m)
        where = {"book": BOOK, "section": title, "exercise": f"{Path(path).stem} #{number}",
                 "label": f"{section}/{Path(path).stem}" + (f" #{number}" if number > 1 else ""),
                 "file": path}
        if not found:
            skipped.append((where["label"], m if isinstance(m, str) else m[0], "no function printed for it"))
            continue
        ftex, wrt, order, dependent = found
        try:
            function = to_plain(ftex)
            if dependent:
                f, truth, names, points = clp.truth_of(function, "x", 1, "y", RNG)
            else:
                f = base.to_sympy(function, NAMES)
                symbols = {str(s) for s in f.free_symbols}
                names = sorted(symbols | set(wrt), key=lambda n: NAMES.index(n) if n in NAMES else len(NAMES))
                truth = f
                for v in wrt:
                    truth = truth.diff(base.sp.Symbol(v, real=True))
                points = base.sample(names, RNG)
        except Exception as err:  # noqa: BLE001 - listed
            skipped.append((where["label"], ftex, f"cannot read the function: {type(err).__name__}: {err}"))
            continue
        kept = []
        for k, form in enumerate(forms):
            tex = " ".join(fill(form).split()).rstrip(".,;").rstrip()  # the sentence's period is not the answer
            try:
                text = to_plain(tex)
                official = base.to_sympy(text, NAMES)
                if not {str(s) for s in official.free_symbols} <= set(names):
                    raise ValueError(f"letters outside the exercise's variables: {official.free_symbols}")
            except Exception as err:  # noqa: BLE001 - listed
                skipped.append((where["label"], tex, f"sympy cannot read it: {type(err).__name__}"))
                continue
            correct, compared = base.same(official, truth, names, points)
            if compared < 6:
                skipped.append((where["label"], tex, f"only {compared} real points"))
                continue
            if not correct and (k < len(forms) - 1 or len(forms) > 1):
                skipped.append((where["label"], tex, "a prompt's form that is not the derivative (a step)"))
                continue
            if correct and f is not None:
                try:
                    as_typed = base.to_sympy(text, NAMES, evaluate=False)
                except TypeError:
                    as_typed = official
                as_typed = real_roots(as_typed)
                single = names[0] if len(names) == 1 else None
                extra = clp.singular(as_typed, single) if single else []
                if base.undefined_where_defined(as_typed, truth, f, names, points + extra):
                    correct = False
            row = {"function": function, "wrt": wrt[:1] if len(set(wrt)) == 1 else wrt, "answer": text,
                   "truth": "correct" if correct else "incorrect", "official": True,
                   "mistake": None if correct else "misprint in the book" if not base.same(
                       official, truth, names, points)[0] else "undefined where the derivative is defined",
                   "dependent": dependent, "order": order if len(set(wrt)) == 1 else 1, "kind": "derivative",
                   "transcribed": "from the LaTeX" + (" (filled template)" if tex.count("{") and
                                                      form.count(r"\answer") > 1 else ""),
                   "evidence": f"50-digit mpmath at {compared} points", "source": where}
            rows.append({**row, "answer": tex, "transcribed": "the book's LaTeX",
                         "evidence": row["evidence"] + " (of its plain-text transcription)"})
            rows.append(row)
            kept.append((row, official))
        if not kept or not any(r["truth"] == "correct" for r, _ in kept):
            continue
        row, official = next((r, o) for r, o in kept if r["truth"] == "correct")
        textual = []
        for mistake, wrong_text in apex.wrong_answers(row["answer"]):
            try:
                wrong = base.to_sympy(wrong_text, NAMES)
            except Exception:  # noqa: BLE001
                continue
            equal, n = base.same(wrong, truth, names, points)
            if not equal and n >= 1:
                textual.append((mistake, wrong_text))
        ruled = []
        if f is not None and order == 1 and len(names) == 1:
            for mistake, wrong in clp.derived_mistakes(f, names[0]):
                equal, n = base.same(wrong, truth, names, points)
                if not equal and n >= 1:
                    ruled.append((mistake, clp.student_text(wrong)))
        picked = [min(found, key=lambda m: (used[m[0]], found.index(m))) for found in (textual, ruled) if found]
        if len(textual) > 1:  # a second slip of another kind: sign, chain factor, exponent, a lost term
            rest = [t for t in textual if t[0] != picked[0][0]]
            if rest:
                picked.append(min(rest, key=lambda m: (used[m[0]], rest.index(m))))
        for mistake, wrong_text in picked:
            used[mistake] += 1
            rows.append({**row, "answer": wrong_text, "truth": "incorrect", "official": False,
                         "mistake": mistake, "transcribed": "a typical mistake"})
        for how, other in clp.equal_forms(official):
            text = clp.student_text(other)
            if text.replace(" ", "") == row["answer"].replace(" ", "") or text == "0":
                continue
            try:
                equal, n = base.same(base.to_sympy(text, NAMES), truth, names, points)
            except Exception:  # noqa: BLE001
                continue
            if equal and n >= 6:
                rows.append({**row, "answer": text, "official": False, "mistake": None,
                             "transcribed": f"another form of the book's answer (sympy's {how})"})
                break
    # one row per (function, answer): a prompt printed in two files (a shared exercise) is checked once
    unique = list({(r["function"], tuple(r["wrt"]), r["answer"], r["order"]): r for r in rows}.values())
    with OUT.open("w", encoding="utf-8") as out:
        for n, row in enumerate(unique, start=1):
            out.write(json.dumps({"id": n, **row}, ensure_ascii=False) + "\n")
    official = [r for r in unique if r["official"]]
    exercises_in = {(r["source"]["section"], r["source"]["exercise"]) for r in unique}
    print(f"{len(exercises_in)} exercises, {len(unique)} rows: {len(official)} official answers "
          f"({sum(r['truth'] == 'correct' for r in official)} correct, "
          f"{sum(r['mistake'] == 'misprint in the book' for r in official)} misprints), "
          f"{sum(not r['official'] and r['truth'] == 'incorrect' for r in unique)} typical wrong answers, "
          f"{sum(not r['official'] and r['truth'] == 'correct' for r in unique)} equal forms -> {OUT}")
    print(f"{len(skipped)} prompts left out:")
    for label, form, why in skipped:
        print(f"  {label}: {form[:90]!r}: {why}")


if __name__ == "__main__":
    main()
