"""A second, independent answer key: APEX Calculus, Version 3.0 (Hartman et al., CC BY-NC), read from the book's
LaTeX source (tests/corpus/textbook_apex.jsonl, made by scripts/make_textbook_apex.py; truths from sympy's own
parser and 50-digit mpmath, never from gradcli).  155 exercises of §2.3-2.7 (rules, chain rule, implicit and
logarithmic differentiation, inverse trigonometric functions, higher derivatives), §4.4 (differentials
dy = f'(x) dx), §6.5 (hyperbolic and inverse hyperbolic functions), §12.3 (partial derivatives, mixed, of three
variables) and §12.8; every form the book prints, some in the book's own LaTeX, some respelled as students
also type them (x**2, exp(), asin(); x², √, π, −, ·); the book's misprints marked (check must reject them);
one typical wrong answer for each correct one.

The default run checks a sample (every third exercise and every misprint); the whole corpus runs with
`--slow` (or GRADCLI_SLOW=1):

    python -m pytest tests/homework/test_textbook_apex_corpus.py --slow
    python scripts/run_textbook_corpus.py --corpus apex [--cli]
"""

from __future__ import annotations

import pytest
from textbook_corpus import exercise, rows, verdict

ROWS = rows("apex")



EXERCISES = list(dict.fromkeys(exercise(r) for r in ROWS))
SAMPLED = set(EXERCISES[::3]) | {exercise(r) for r in ROWS if r["mistake"] == "misprint in the book"}


@pytest.fixture(scope="module", params=["sample", pytest.param("whole corpus", marks=pytest.mark.slow)])
def verdicts(request):
    rows = ROWS if request.param == "whole corpus" else [r for r in ROWS if exercise(r) in SAMPLED]
    return [(row, verdict(row)) for row in rows]


def test_the_corpus_holds_120_exercises_of_another_book_with_their_sources():
    official = [r for r in ROWS if r["official"]]
    assert len(EXERCISES) >= 120 and len(official) >= 300
    assert all(r["source"]["book"].startswith("APEX Calculus") and r["source"]["file"].startswith("exercises/")
               for r in ROWS)
    sections = {r["source"]["section"][:4] for r in ROWS}
    assert {"2.3 ", "2.4 ", "2.5 ", "2.6 ", "2.7 ", "4.4 ", "6.5 ", "12.3"} <= sections
    # what OpenStax's chapter 3 did not stress is in it: implicit (dependent y), second implicit derivatives,
    # mixed partials, three variables, higher orders, differentials, the book's LaTeX, other spellings
    assert any(r["dependent"] == "y" and len(r["wrt"]) == 1 and r["order"] == 2 for r in ROWS)
    assert any(len(r["wrt"]) == 2 for r in ROWS) and any("z" in r["function"].split("=")[0] for r in ROWS)
    assert any(r["order"] == 4 for r in ROWS) and any(r["answer"].startswith("dy = ") for r in ROWS)
    assert sum(r["transcribed"] == "the book's LaTeX" for r in ROWS) >= 40
    assert sum(r["transcribed"].startswith("respelled") for r in ROWS) >= 40
    correct = [r for r in official if r["truth"] == "correct"]
    def item(r):
        return exercise(r), r["function"], tuple(r["wrt"]), r["order"]

    wrong = {item(r) for r in ROWS if not r["official"]}
    assert [r["id"] for r in correct if item(r) not in wrong] == []  # a typical wrong answer for each
    assert len(wrong) >= 250
    assert sum(r["mistake"] == "misprint in the book" for r in official) >= 10


def test_the_sample_is_a_quarter_of_the_corpus_across_its_sections():
    rows = [r for r in ROWS if exercise(r) in SAMPLED]
    assert len(rows) >= len(ROWS) // 4
    sections = [r["source"]["section"] for r in ROWS]
    assert {r["source"]["section"] for r in rows} >= {s for s in sections if sections.count(s) >= 8}


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
