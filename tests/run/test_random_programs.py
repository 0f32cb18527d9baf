"""Programs that draw from torch's CPU generator through the functions built on it (rrelu's training slopes,
...), run with `gradcli run`: their output against what PyTorch 2.13 printed (tests/goldens/random_programs.json,
recorded by scripts/make_random_program_goldens.py), values as exact Python floats.  Needs no torch."""

from __future__ import annotations

import io
import re

import pytest
from goldens import load

from gradcli.run import run_source

GOLDEN = load("random_programs.json")
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: c["name"])
def test_program_prints_what_pytorch_printed(case):
    out, err = io.StringIO(), io.StringIO()
    code = run_source(case["source"], "prog.py", stdout=out, stderr=err)
    assert code == 0, err.getvalue()  # (warnings, as torch's, go to stderr)
    got, expected = ADDRESS.sub("", out.getvalue()).splitlines(), case["stdout"].splitlines()
    for i, (line, want) in enumerate(zip(got, expected)):
        assert line == want, f"line {i + 1} of\n{case['source']}"
    assert len(got) == len(expected)
