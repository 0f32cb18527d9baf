"""An external answer key (issue 30): exercises of OpenStax Calculus (Vol. 1 ch. 3, Vol. 3 §4.3, §4.5) with
the answers printed in the book, transcribed from the book's own source as a student types them, and one
typical wrong answer each (tests/corpus/textbook_openstax.jsonl, made by scripts/make_textbook_corpus.py,
whose truths come from sympy's own parser and 50-digit mpmath, never from gradcli)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradcli.homework.check import check_derivative
from gradcli.safety.errors import GradcliError

CORPUS = Path(__file__).parents[1] / "corpus" / "textbook_openstax.jsonl"
ROWS = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]


def verdict(row: dict) -> str:
    try:
        report = check_derivative(row["function"], [row["answer"]], wrt=row["wrt"], dependent=row["dependent"],
                                  formulas="needed")
    except GradcliError as err:
        return f"error: {err.message}"
    (result,) = report.results
    return "agrees (not proven)" if result.verdict == "correct" and not result.proven else result.verdict


@pytest.fixture(scope="module")
def verdicts():
    return [(row, verdict(row)) for row in ROWS]


def test_the_corpus_holds_the_book_and_its_sources():
    official = [r for r in ROWS if r["official"]]
    assert len(official) >= 30
    assert all(r["source"]["book"].startswith("OpenStax Calculus") and r["source"]["id"] for r in ROWS)
    assert sum(not r["official"] for r in ROWS) >= len(official) - 2  # a typical wrong answer for each


def test_no_wrong_verdict(verdicts):
    wrong = [(r["id"], r["function"], r["answer"], r["truth"], v) for r, v in verdicts
             if v in ("correct", "incorrect") and v != r["truth"]]
    assert wrong == []


def test_correct_answers_are_accepted(verdicts):
    correct = [(r, v) for r, v in verdicts if r["truth"] == "correct"]
    missed = [(r["id"], r["function"], r["answer"], v) for r, v in correct if v != "correct"]
    assert len(missed) <= 0.02 * len(correct), missed


def test_every_wrong_answer_is_rejected(verdicts):
    accepted = [(r["id"], r["function"], r["answer"], v) for r, v in verdicts
                if r["truth"] == "incorrect" and v != "incorrect"]
    assert accepted == []
