"""`check` over the textbook corpus (tests/corpus/textbook_openstax.jsonl): the verdicts counted against the
corpus's truths, the "not proven" and the wrong verdicts listed, and each check's CPU time.

    python scripts/run_textbook_corpus.py            # through the API (check_derivative), in this process
    python scripts/run_textbook_corpus.py --cli      # through the `gradcli check` command line, one process each
    python scripts/run_textbook_corpus.py --corpus apex   # tests/corpus/textbook_apex.jsonl (APEX Calculus)
    python scripts/run_textbook_corpus.py --corpus clp    # tests/corpus/textbook_clp.jsonl (CLP-1 problem book)
    python scripts/run_textbook_corpus.py --corpus ximera # tests/corpus/textbook_ximera.jsonl (Ximera's Calculus)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "textbook_openstax.jsonl"
EXIT = {0: "correct", 1: "incorrect", 3: "agrees (not proven)"}


def by_api(row: dict) -> str:
    from gradcli.homework.check import check_derivative
    from gradcli.safety.errors import GradcliError

    try:
        report = check_derivative(row["function"], [row["answer"]], wrt=row["wrt"], order=row["order"],
                                  dependent=row["dependent"], formulas="needed")
    except GradcliError as err:
        return f"error: {err.message}"
    (result,) = report.results
    return "agrees (not proven)" if result.verdict == "correct" and not result.proven else result.verdict


def by_cli(row: dict) -> str:
    argv = [sys.executable, "-m", "gradcli", "check", row["function"], "--expect", row["answer"], "--no-color"]
    if len(row["wrt"]) > 1:
        for name in row["wrt"]:
            argv += ["--wrt", name]
    elif not row["dependent"]:
        argv += ["--wrt", row["wrt"][0]]
    if row["order"] > 1:
        argv += ["--order", str(row["order"])]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=ROOT)
    return EXIT.get(done.returncode, f"error: {done.stderr.strip()[:200]}")


def main() -> None:
    corpus = CORPUS
    if "--corpus" in sys.argv:
        name = sys.argv[sys.argv.index("--corpus") + 1]
        corpus = CORPUS.with_name(f"textbook_{name}.jsonl") if "/" not in name else Path(name)
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    run = by_cli if "--cli" in sys.argv else by_api
    verdicts, seconds = [], []
    for row in rows:
        start = time.process_time() if run is by_api else time.perf_counter()
        verdicts.append(run(row))
        seconds.append((time.process_time() if run is by_api else time.perf_counter()) - start)
    correct = [(r, v) for r, v in zip(rows, verdicts, strict=True) if r["truth"] == "correct"]
    wrong = [(r, v) for r, v in zip(rows, verdicts, strict=True) if r["truth"] == "incorrect"]
    exercises = {(r["source"]["section"], r["source"].get("id") or r["source"]["exercise"]) for r in rows}
    print(f"{len(exercises)} exercises, {len(rows)} checks "
          f"({sum(r['official'] for r in rows)} official answers, "
          f"{sum(r['mistake'] == 'misprint in the book' for r in rows)} of them misprints)")
    print(f"correct answers ({len(correct)}): {dict(Counter(v for _, v in correct))}")
    print(f"wrong answers ({len(wrong)}): {dict(Counter(v for _, v in wrong))}")
    for r, v in correct:
        if v != "correct":
            print(f"  not accepted: #{r['id']} {r['function']!r} {r['answer']!r}: {v}")
    bad = [(r, v) for r, v in zip(rows, verdicts, strict=True) if v in ("correct", "incorrect") and v != r["truth"]]
    print(f"wrong verdicts: {len(bad)}")
    for r, v in bad + [(r, v) for r, v in wrong if v not in ("incorrect", "correct")]:
        print(f"  #{r['id']} {r['function']!r} {r['answer']!r}: {v}, truth {r['truth']}")
    kind = "CPU" if run is by_api else "wall"
    print(f"{kind} seconds per check: median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")


if __name__ == "__main__":
    main()
