"""What the textbook answer-key tests share (tests/homework/test_textbook_*_corpus.py): a corpus's rows, an
exercise's key, and the verdict `gradcli check` gives a row (its truth comes from the corpus, never from here)."""

from __future__ import annotations

import json
from pathlib import Path

from gradcli.homework.check import check_derivative
from gradcli.safety.errors import GradcliError

CORPORA = Path(__file__).parent / "corpus"


def rows(name: str) -> list[dict]:
    """The rows of tests/corpus/textbook_<name>.jsonl."""
    text = (CORPORA / f"textbook_{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def exercise(row: dict) -> tuple:
    return row["source"]["section"], row["source"]["exercise"]


def verdict(row: dict) -> str:
    """check's verdict on the row's answer: correct, incorrect, 'agrees (not proven)' or 'error: ...'."""
    try:
        report = check_derivative(row["function"], [row["answer"]], wrt=row["wrt"], order=row["order"],
                                  dependent=row["dependent"], formulas="needed")
    except GradcliError as err:
        return f"error: {err.message}"
    (result,) = report.results
    return "agrees (not proven)" if result.verdict == "correct" and not result.proven else result.verdict
