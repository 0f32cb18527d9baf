r"""A fourth, independent answer key: Calculus of the Ximera/MOOCulus project (Snapp, Fowler et al., The Ohio
State University, CC BY-NC-SA 4.0), read from the book's LaTeX (tests/corpus/textbook_ximera.jsonl, made by
scripts/make_textbook_ximera.py from github.com/mooculus/calculus; truths from sympy's own parser and 50-digit
mpmath, never from gradcli).  The exercises of the differentiation sections whose prompt is a derivative with
the key's `\answer{...}` blanks: each answer as the book prints it (its LaTeX with the blanks filled, `\dd{v}`,
`\sqrt[4]{}`, `v^\frac{5}{4}`, `\sin{x}`, `\log_2`, random letters for the variable, unsimplified product- and
quotient-rule templates) and as a student types it; for each a textual slip and a misapplied rule, and the same
derivative in another form that check must accept.

The default run checks every third exercise; the whole corpus runs with `--slow` (or GRADCLI_SLOW=1):

    python -m pytest tests/homework/test_textbook_ximera_corpus.py --slow
    python scripts/run_textbook_corpus.py --corpus ximera [--cli]
"""

from __future__ import annotations

import pytest
from textbook_corpus import exercise, rows, verdict

ROWS = rows("ximera")



EXERCISES = list(dict.fromkeys(exercise(r) for r in ROWS))
SAMPLED = set(EXERCISES[::3]) | {exercise(r) for r in ROWS if r["official"] and r["truth"] == "incorrect"}


@pytest.fixture(scope="module", params=["sample", pytest.param("whole corpus", marks=pytest.mark.slow)])
def verdicts(request):
    rows = ROWS if request.param == "whole corpus" else [r for r in ROWS if exercise(r) in SAMPLED]
    return [(row, verdict(row)) for row in rows]


def test_the_corpus_holds_75_exercises_of_a_fourth_book_with_their_sources():
    official = [r for r in ROWS if r["official"]]
    assert len(EXERCISES) >= 75 and len(official) >= 180
    assert all(r["source"]["book"].startswith("Calculus (Snapp, Fowler") and "/exercises/" in r["source"]["file"]
               and r["source"]["file"].endswith(".tex") for r in ROWS)
    sections = {r["source"]["section"] for r in ROWS}
    assert {"Rules of differentiation", "Product rule and quotient rule", "Chain rule", "Implicit differentiation",
            "Derivatives of inverse functions", "Logarithmic differentiation"} <= sections
    right = [r for r in ROWS if r["truth"] == "correct"]
    wrong = [r for r in ROWS if r["truth"] == "incorrect"]
    assert len(right) >= 250 and len(wrong) >= 200
    # the book's notation: its LaTeX as printed, blanks filled; higher orders; implicit; several variables
    assert sum(r["transcribed"] == "the book's LaTeX" for r in official) >= 60
    assert sum("(filled template)" in r["transcribed"] for r in official) >= 5
    assert any(r["order"] >= 2 for r in ROWS) and any(r["dependent"] == "y" for r in ROWS)
    assert any(r["wrt"] != ["x"] for r in ROWS)  # v, w, k, θ ... as the book draws them
    mistakes = {r["mistake"] for r in ROWS if not r["official"]}
    assert {"product rule as the product of the derivatives", "forgotten chain factor", "exponent off by one",
            "sign of one term"} <= mistakes
    assert sum(not r["official"] and r["truth"] == "correct" for r in ROWS) >= 50  # other forms: no false "✗"


def test_a_real_odd_root_in_the_book_answer_is_kept_as_correct():
    # R(u) = (5u^4 + 3∛u)/(-5∛u): the book's (-11/3)·u^{8/3} is defined for u < 0 (the real cube root), as
    # the derivative is; the corpus keeps it correct and check must accept it
    rows = [r for r in ROWS if r["source"]["exercise"].startswith("basicQuotientRule5") and r["official"]]
    assert rows and all(r["truth"] == "correct" and "8/3" in r["answer"] for r in rows)
    assert all(verdict(r) == "correct" for r in rows)


def test_no_wrong_verdict(verdicts):
    wrong = [(r["id"], r["function"], r["answer"], r["truth"], v) for r, v in verdicts
             if v in ("correct", "incorrect") and v != r["truth"]]
    assert wrong == []


def test_every_notation_is_read(verdicts):
    unread = [(r["id"], r["function"], r["answer"], v) for r, v in verdicts if v.startswith("error")]
    assert unread == []


def test_correct_answers_are_accepted_and_proven(verdicts):
    missed = [(r["id"], r["function"], r["answer"], v) for r, v in verdicts
              if r["truth"] == "correct" and v != "correct"]
    assert missed == []


def test_every_wrong_answer_is_rejected(verdicts):
    accepted = [(r["id"], r["function"], r["answer"], v) for r, v in verdicts
                if r["truth"] == "incorrect" and v != "incorrect"]
    assert accepted == []
