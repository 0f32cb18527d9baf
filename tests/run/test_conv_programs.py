"""nn.Conv3d, nn.ConvTranspose1d/2d/3d and the functional convolutions under `gradcli run`: printed forms, values
and gradients, output_size=, padding modes and error texts, against what PyTorch 2.13 printed for the same small
programs (tests/conv_cases.py; goldens from scripts/make_conv_goldens.py).  Needs no torch."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from conv_cases import CASES

from gradcli.run import run_source

ADDRESS = re.compile(r" at 0x[0-9a-f]+")
SET_LITERAL = re.compile(r"\{('[^{}']*'(?:, '[^{}']*')*)\}")


def canonical(text: str) -> str:
    """Addresses masked, and the items of a printed set of strings sorted: torch's padding_mode error prints a set
    literal, whose order is Python's string hashing (PYTHONHASHSEED), not torch's."""
    text = ADDRESS.sub(" at 0x…", text)
    return SET_LITERAL.sub(lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", text)
GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "conv_programs.json").read_text())


def test_every_case_has_a_golden():
    assert set(CASES) == set(GOLDENS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_prints_what_pytorch_prints(name):
    out, err = io.StringIO(), io.StringIO()
    code = run_source(CASES[name], "prog.py", stdout=out, stderr=err)
    golden = GOLDENS[name]
    assert canonical(out.getvalue()) == canonical(golden["stdout"])
    assert err.getvalue() == golden["stderr"]
    assert code == golden["code"]
