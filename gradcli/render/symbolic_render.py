"""Human output of the trust features: the sympy/numeric lines under `gradcli eval`'s table, and the
one-line formula style (x²·sin(x)) that `check` and `explain` share.

Works on the plain data the checks store in `EvalResult.extras`, so it needs neither sympy nor the engine.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from gradcli.render.ascii import ascii_text
from gradcli.render.wrap import print_wrapped, wrap_text

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_STYLES = {"agrees": "green", "disagrees": "bold red", "convention": "yellow", "skipped": "dim"}
MAX_FORMULA = 160  # characters of one formula shown in the table footer
MAX_LINES = 4  # lines one formula may take at the console's width; longer ones are shown as their count
INDENT = " " * 8  # the formulas under "sympy   "
HANGING = 4  # a formula's continuation lines, further in


def prettify(formula: str) -> str:
    """sympy's one-line text made readable: x**2*sin(x) -> x²·sin(x), other powers as ^."""
    formula = re.sub(r"\*\*(\d+)(?![.\d(])", lambda m: m.group(1).translate(_SUPERSCRIPT), formula)
    return re.sub(r"\bAbs\(", "abs(", formula).replace("**", "^").replace("*", "·")


def subscript_digits(name: str) -> str:
    """u3 -> u₃ (explain's names for intermediate values)."""
    return re.sub(r"(?<=[A-Za-z])(\d+)\b", lambda m: m.group(1).translate(_SUBSCRIPT), name)


def derivative_lines(symbolic: dict, width: int | None = None) -> list[str]:
    """'∂/∂x_i = 2·x_i' for each input: its index pattern, its few element formulas, or a count.  With a
    `width`, an input whose formulas would need more than MAX_LINES lines there each is shown as its count
    (the formulas stay in --json and --latex)."""
    latex = "latex" in symbolic
    source = symbolic["latex"] if latex else symbolic
    lines = []
    for name, formulas in source.get("formulas", {}).items():
        pattern = source["patterns"].get(name)
        if pattern is not None:
            equations = [_equation(pattern["symbol"], pattern["formula"], latex)]
        elif len(formulas) <= 4:
            equations = [_equation(s, f, latex) for s, f in zip(source["symbols"][name], formulas)]
        else:
            equations = []
        if not equations or (width is not None and not latex and any(
                len(wrap_text(e, width - len(INDENT), HANGING)) > MAX_LINES for e in equations)):
            count = len(formulas)
            equations = [f"∂/∂{name}: {count} element formula{'s' if count != 1 else ''} (see --json)"]
        lines.extend(equations)
    return lines


def _equation(symbol: str, formula: str, latex: bool) -> str:
    if latex:
        return rf"\frac{{\partial L}}{{\partial {symbol}}} = {formula}"
    text = prettify(formula)
    if len(text) > MAX_FORMULA:
        text = text[:MAX_FORMULA] + "… (see --json)"
    return f"∂/∂{symbol} = {text}"


def short_number(value: float) -> str:
    from gradcli.render.text import format_number  # numpy: only the outputs that print arrays load it

    return format_number(value + 0.0).removesuffix(".0")  # + 0.0 turns -0.0 into 0.0


def verdict_text(check: dict) -> str:
    if check["status"] == "agrees":
        return f"agrees (max |Δ| = {short_number(check['max_abs_diff'])})"
    return f"{check['status']}: {check['reason']}"


def numeric_verdict_text(check: dict) -> str:
    """The verdict of the numeric check that decided when sympy could not: what decided, its error bound, why."""
    bound = check.get("error_bound")
    how = f"numeric ({check['method']}" + (f", |Δ| ≤ {bound:.2g})" if bound is not None else ")")
    text = f"{check['status']} — {how}" + (f": {check['reason']}" if check["status"] != "agrees" else "")
    return text + (f"; {check['sympy']}" if check.get("sympy") else "")


def print_checks(extras: dict, console: Console) -> None:
    """The lines after the eval table: sympy's formulas and verdict, then the numeric check."""
    symbolic = extras.get("symbolic")
    if symbolic is not None and symbolic.get("decided_by") == "numeric":
        print_wrapped(console, Text.assemble(("check   ", "bold"), numeric_verdict_text(symbolic),
                                             style=_STYLES[symbolic["status"]]), len(INDENT))
    elif symbolic is not None:
        width = console.width
        lines = derivative_lines(symbolic, width)
        verdict = Text(verdict_text(symbolic), style=_STYLES[symbolic["status"]])
        one_line = "   ".join(lines)
        if len(INDENT) + cell_len(one_line) + 3 + len(verdict) <= min(width, 100) and "\n" not in one_line:
            console.print(Text.assemble(("sympy   ", "bold"), one_line + ("   " if one_line else ""), verdict))
        else:
            print_wrapped(console, Text.assemble(("sympy   ", "bold"), verdict), len(INDENT))
            for line in lines:
                for part in wrap_text(INDENT + line, width, len(INDENT) + HANGING):
                    console.print(part, soft_wrap=True)
        if symbolic.get("grad_output_symbol"):
            console.print(Text(f"        L = sum({symbolic['grad_output_symbol']} * output), "
                               f"{symbolic['grad_output_symbol']} = --grad-output", style="dim"))
    numeric = extras.get("numeric")
    if numeric is not None:
        detail = (f"central differences, eps {short_number(numeric['eps'])}, atol {short_number(numeric['atol'])}, "
                  f"rtol {short_number(numeric['rtol'])}")
        verdict = Text(verdict_text(numeric), style=_STYLES[numeric["status"]])
        print_wrapped(console, Text.assemble(("numeric ", "bold"), verdict, (f"   ({detail})", "dim")), len(INDENT))


# -- gradcli check ------------------------------------------------------------------------------------

_MARKS = {"correct": ("✓", "bold green"), "incorrect": ("✗", "bold red"), "undecided": ("?", "bold yellow")}


def derivative_label(wrt: str, order: int, partial: bool) -> str:
    """d/dx, d²/dx², ∂/∂x ..."""
    d = "∂" if partial else "d"
    power = str(order).translate(_SUPERSCRIPT) if order > 1 else ""
    return f"{d}{power}/{d}{wrt}{power}"


def homework_formula(formula: str) -> str:
    """sympy's text of a derivative in the check's notation: x²·cos(x), ln(x)."""
    return re.sub(r"\blog\(", "ln(", prettify(formula))


def print_check_report(report: dict, console: Console) -> None:
    """`gradcli check`: how the input was read, one verdict per derivative, the counterexample when wrong,
    who decided."""
    read = report["read"]
    function = read["read_as"] if read else report["function"]
    if read and read["reinterpreted"]:
        print_wrapped(console, Text(f"read as: {function}", style="cyan"))
    for r in report["results"]:
        label = f"{r['label']} [{function}]"
        derivative = homework_formula(r["derivative"]) if r["derivative"] else None
        answer = r["read"]["read_as"] if r["read"] else r["expected"]
        if r["verdict"] == "computed":
            print_wrapped(console, Text(f"{label} = {derivative or '(sympy has no form for it)'}"))
        elif r["verdict"] == "correct" and r.get("proven") is False:
            mark, style = _MARKS["correct"]
            print_wrapped(console, Text.assemble((f"{mark} agrees at {r['points']} points (not proven)", style),
                                        f": {label} = {answer}"))
        elif r["verdict"] == "correct":
            mark, style = _MARKS["correct"]
            print_wrapped(console, Text.assemble((f"{mark} correct", style), f": {label} = {answer}"))
        else:
            mark, style = _MARKS[r["verdict"]]
            print_wrapped(console, Text.assemble((f"{mark} {r['verdict']}", style), f": {label} ≠ {answer}"))
            if derivative:
                print_wrapped(console, Text(f"  the derivative is {derivative}"))
        if r["read"] and r["read"]["reinterpreted"]:
            print_wrapped(console, Text(f"  your answer read as: {answer}", style="cyan"))
        example = r["counterexample"]
        if example is not None and r["verdict"] == "incorrect":
            yours = "is undefined" if example["expected"] is None else f"gives {_short(example['expected'])}"
            print_wrapped(console, Text(f"  at {_point(example['point'])}: your answer {yours}, the derivative is "
                               f"{_short(example['derivative'])}"))
        if r.get("hint"):
            print_wrapped(console, Text(f"  hint: {r['hint']}", style="yellow"))
        if r["decided_by"] or r["verdict"] == "undecided":
            who = f"decided by {r['decided_by']}" if r["decided_by"] else "not decided"
            print_wrapped(console, Text(f"  {who}: {r['reason']}", style="dim"))
        if r["at"] is not None:
            parts = [f"f = {_short(report['at']['function'])}", f"{r['label']} = {_short(r['at']['derivative'])}"]
            if r["at"]["expected"] is not None:
                parts.append(f"your answer = {_short(r['at']['expected'])}")
            print_wrapped(console, Text(f"  at {_point(report['at']['point'])}: " + ", ".join(parts)))
    if report.get("hessian"):
        names = [v for v in report["variables"] if v != report.get("implicit")]
        print_wrapped(console, Text(f"Hessian of {function} (rows and columns {', '.join(names)}):"))
        for a, row in zip(names, report["hessian"]):
            cells = [f"∂²/∂{a}∂{b} = {homework_formula(e) if e else '?'}" if a != b else
                     f"∂²/∂{a}² = {homework_formula(e) if e else '?'}" for b, e in zip(names, row)]
            print_wrapped(console, Text("  " + "    ".join(cells)))
    if report["symbolic_note"]:
        print_wrapped(console, Text(f"note: no formula from sympy ({report['symbolic_note']}); the numbers decided",
                           style="yellow"))


def latex_label(wrt: list[str], partial: bool, implicit: str | None = None) -> str:
    """d/dx, ∂²/∂x∂y, dy/dx in LaTeX: \\frac{d}{dx}, \\frac{\\partial^{2}}{\\partial x \\partial y}, \\frac{dy}{dx}."""
    n = len(wrt)
    power = f"^{{{n}}}" if n > 1 else ""
    if implicit:
        return f"\\frac{{d{power} {implicit}}}{{d {wrt[0]}{power}}}"
    d = "\\partial " if partial else "d "
    groups: list[list] = []
    for name in wrt:
        if groups and groups[-1][0] == name:
            groups[-1][1] += 1
        else:
            groups.append([name, 1])
    below = " ".join(f"{d}{name}" + (f"^{{{k}}}" if k > 1 else "") for name, k in groups)
    return f"\\frac{{{d.strip()}{power}}}{{{below}}}"


def print_check_report_latex(report: dict, console: Console) -> None:
    """`gradcli check --latex`: every line LaTeX, so that it can go into a .tex file as it is: the equations
    in math, the verdicts and numbers as ASCII `%` comments."""
    def comment(text: str) -> None:
        console.print(Text("% " + ascii_text(text)), soft_wrap=True)

    def math(text: str) -> None:
        console.print(Text(text), soft_wrap=True)

    function = report.get("parsed") or report["function"]
    implicit = report.get("implicit")
    partial = len(report["variables"]) > 1 and not implicit
    for r in report["results"]:
        label = latex_label(r["wrt"], partial, implicit)
        lhs = label if implicit else f"{label}\\left[{function}\\right]"
        if implicit:
            comment(f"{r['label']} for {report['function']}")
        answer = r.get("expected_parsed")
        if r["verdict"] == "computed":
            math(f"{lhs} = {r['derivative']}" if r["derivative"] else f"% {r['label']}: sympy has no form for it")
        elif r["verdict"] == "correct":
            comment("correct" if r.get("proven") is not False else f"agrees at {r['points']} points (not proven)")
            math(f"{lhs} = {answer}")
        else:
            comment(r["verdict"])
            math(f"{lhs} \\neq {answer}")
            if r["derivative"]:
                comment("the derivative is")
                math(f"{lhs} = {r['derivative']}")
        example = r["counterexample"]
        if example is not None and r["verdict"] == "incorrect":
            yours = "is undefined" if example["expected"] is None else f"gives {_short(example['expected'])}"
            comment(f"at {_point(example['point'])}: your answer {yours}, the derivative is "
                    f"{_short(example['derivative'])}")
        if r.get("hint"):
            comment(f"hint: {r['hint']}")
        if r["decided_by"] or r["verdict"] == "undecided":
            comment(f"decided by {r['decided_by']}: {r['reason']}" if r["decided_by"] else
                    f"not decided: {r['reason']}")
        if r["at"] is not None:
            parts = [f"f = {_short(report['at']['function'])}", f"{r['label']} = {_short(r['at']['derivative'])}"]
            if r["at"]["expected"] is not None:
                parts.append(f"your answer = {_short(r['at']['expected'])}")
            comment(f"at {_point(report['at']['point'])}: " + ", ".join(parts))
    if report.get("hessian_latex"):
        names = [v for v in report["variables"] if v != implicit]
        comment(f"Hessian of {report['function']} (rows and columns {', '.join(names)})")
        rows = " \\\\ ".join(" & ".join(e if e is not None else "?" for e in row) for row in report["hessian_latex"])
        math(f"\\begin{{pmatrix}} {rows} \\end{{pmatrix}}")
    if report["symbolic_note"]:
        comment(f"note: no formula from sympy ({report['symbolic_note']}); the numbers decided")


def _short(value: float) -> str:
    """As numpy prints a float with precision 6 (without importing numpy): 2.223244, 9.88148e-12.  A value
    beyond floats arrives as text (5.8e+883) and is shown as it is."""
    if isinstance(value, str):
        return value
    value = float(value) + 0.0
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == 0 or 1e-4 <= abs(value) < 1e8:
        return f"{value:.6f}".rstrip("0").rstrip(".")
    mantissa, exponent = f"{value:.6e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent):+03d}"


def _point(point: dict) -> str:
    return ", ".join(f"{name} = {_short(value)}" for name, value in point.items())
