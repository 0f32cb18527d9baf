r"""A third, independent answer key: CLP-1 Differential Calculus, problem book (Feldman, Rechnitzer, Yeager, UBC,
CC BY-NC-SA 4.0), read from the book's LaTeX (tests/corpus/textbook_clp.jsonl, made by
scripts/make_textbook_clp.py; truths from sympy's own parser and 50-digit mpmath, never from gradcli).  The
questions of §2.2-2.14 whose answer is a formula, in the book's notation (`log` is the natural logarithm,
`arcsec`, brackets, unsimplified forms), every form the book prints (the answer key and the worked solution's
last lines), the answer key also in the book's own LaTeX (`\dfrac`, `\log`, `\left[ \right]`); for each right
answer a textual slip (sign, chain factor, exponent, a product-rule term) and a
misapplied rule made from the function (the product rule as the product of the derivatives, the quotient
rule's numerator reversed, the chain factor forgotten, d/dx ln u as 1/u, the exponent not lowered), and the
same derivative in another form (sympy's factor, expand, together) that check must accept.

The default run checks every third exercise; the whole corpus runs with `--slow` (or GRADCLI_SLOW=1):

    python -m pytest tests/homework/test_textbook_clp_corpus.py --slow
    python scripts/run_textbook_corpus.py --corpus clp [--cli]
"""

from __future__ import annotations

import pytest
from textbook_corpus import exercise, rows, verdict

ROWS = rows("clp")



EXERCISES = list(dict.fromkeys(exercise(r) for r in ROWS))
SAMPLED = set(EXERCISES[::3]) | {exercise(r) for r in ROWS if r["official"] and r["truth"] == "incorrect"}


@pytest.fixture(scope="module", params=["sample", pytest.param("whole corpus", marks=pytest.mark.slow)])
def verdicts(request):
    rows = ROWS if request.param == "whole corpus" else [r for r in ROWS if exercise(r) in SAMPLED]
    return [(row, verdict(row)) for row in rows]


def test_the_corpus_holds_80_exercises_of_a_third_book_with_their_sources():
    official = [r for r in ROWS if r["official"]]
    assert len(EXERCISES) >= 80 and len(official) >= 180
    assert all(r["source"]["book"].startswith("CLP-1") and r["source"]["label"].startswith("Q[2.")
               and r["source"]["file"].startswith("latex/problembook/problems/prob_s2.") for r in ROWS)
    sections = {r["source"]["section"].split()[0] for r in ROWS}
    assert {"2.4", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12", "2.14"} <= sections
    # the book's notation: log is ln; higher orders; implicit; unsimplified lines of worked solutions
    assert sum(" log" in f" {r['function']}" or "(log" in r["function"] for r in official) >= 10
    assert any(r["order"] == 3 for r in ROWS) and any(r["dependent"] == "y" for r in ROWS)
    assert sum("worked solution" in r["transcribed"] for r in official) >= 15
    assert sum(r["transcribed"] == "the book's LaTeX" for r in official) >= 60  # \dfrac, \log, \arcsec, [ ]
    mistakes = {r["mistake"] for r in ROWS if not r["official"]}
    assert {"product rule as the product of the derivatives", "quotient rule numerator reversed",
            "forgotten chain factor", "d/dx ln u as 1/u", "exponent not lowered", "sign of one term"} <= mistakes
    assert sum(not r["official"] and r["truth"] == "incorrect" for r in ROWS) >= 120
    assert sum(not r["official"] and r["truth"] == "correct" for r in ROWS) >= 60  # other forms: no false "✗"


def test_the_book_answer_undefined_where_the_derivative_is_not_is_kept_as_incorrect():
    # logarithmic differentiation's f·(1/(x+1) + ...) is undefined at x = -1, where f' = 0 (check's contract)
    row, *latex = [r for r in ROWS if r["mistake"] == "undefined where the derivative is defined"]
    assert row["source"]["label"] == "Q[2.10.22]" and "1/(x+1)" in row["answer"].replace(" ", "")
    assert [r["transcribed"] for r in latex] == ["the book's LaTeX"] and exercise(row) in SAMPLED


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
