"""An external answer key (issue 30): 216 exercises of OpenStax Calculus (Vol. 1 §3.2-3.9, 4.2, 4.10, 5.5-5.7,
6.7, 6.9; Vol. 3 §4.3, 4.5, 4.6; 135 derivatives, 81 antiderivatives verified by differentiating them) with the
answers printed in the book, transcribed from the book's own source as a student types them, and one typical
wrong answer each (tests/corpus/textbook_openstax.jsonl, made by
scripts/make_textbook_corpus.py and scripts/textbook_transcriptions.py, whose truths come from sympy's own
parser and 50-digit mpmath, never from gradcli).  The book's misprinted answers are in it, marked: `check`
must reject them.

The default run checks a sample (every fourth exercise and every misprint, ~1/4 of the corpus); the whole
corpus runs with `--slow` (or GRADCLI_SLOW=1):

    python -m pytest tests/homework/test_textbook_corpus.py --slow
    python scripts/run_textbook_corpus.py [--cli]     # the counts, the "not proven" listed, CPU time per check
"""

from __future__ import annotations

import pytest
from textbook_corpus import rows, verdict

ROWS = rows("openstax")
EXERCISES = list(dict.fromkeys(r["source"]["id"] for r in ROWS))
SAMPLED = set(EXERCISES[::4]) | {r["source"]["id"] for r in ROWS if r["mistake"] == "misprint in the book"}


@pytest.fixture(scope="module", params=["sample", pytest.param("whole corpus", marks=pytest.mark.slow)])
def verdicts(request):
    rows = ROWS if request.param == "whole corpus" else [r for r in ROWS if r["source"]["id"] in SAMPLED]
    return [(row, verdict(row)) for row in rows]


def test_the_corpus_holds_200_exercises_of_the_book_with_their_sources():
    official = [r for r in ROWS if r["official"]]
    assert len(EXERCISES) >= 200 and len(official) >= 200
    assert all(r["source"]["book"].startswith("OpenStax Calculus") and r["source"]["id"] and r["source"]["section"]
               for r in ROWS)
    # the book prints answers to its odd-numbered exercises only: the numbers are the book's
    assert all(r["source"]["exercise"] % 2 == 1 for r in ROWS)
    correct = [r for r in official if r["truth"] == "correct"]
    def item(r):
        return r["source"]["id"], r["source"].get("part"), tuple(r["wrt"]), r["order"]

    wrong = {item(r) for r in ROWS if not r["official"]}
    missing = [r["id"] for r in correct if item(r) not in wrong]
    assert missing == []  # a typical wrong answer for each correct one
    assert sum(r["mistake"] == "misprint in the book" for r in official) >= 2


def test_the_sample_is_a_quarter_of_the_corpus_across_its_sections():
    rows = [r for r in ROWS if r["source"]["id"] in SAMPLED]
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


def test_correct_answers_are_accepted(verdicts):
    correct = [(r, v) for r, v in verdicts if r["truth"] == "correct"]
    missed = [(r["id"], r["function"], r["answer"], v) for r, v in correct if v != "correct"]
    assert len(missed) <= 0.02 * len(correct), missed


def test_every_wrong_answer_is_rejected(verdicts):
    accepted = [(r["id"], r["function"], r["answer"], v) for r, v in verdicts
                if r["truth"] == "incorrect" and v != "incorrect"]
    assert accepted == []
