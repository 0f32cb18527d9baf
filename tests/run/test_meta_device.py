"""The meta device, copy.deepcopy, torch.func.stack_module_state, load_state_dict(assign=True) and timeit, each
against what PyTorch 2.13 printed for a small program (tests/meta_device_cases.py, goldens from
scripts/make_meta_device_goldens.py); and what needs no golden: a meta tensor costs no memory and its ops no
work, an op without a shape rule is refused by name, a deep copy is independent of its original.  Needs no torch."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from meta_device_cases import CASES

from gradcli.run import run_source

GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "meta_device.json").read_text())


def run(source: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "prog.py", stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_every_case_has_a_golden():
    assert set(CASES) == set(GOLDENS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_prints_what_pytorch_prints(name):
    code, out, err = run(CASES[name])
    golden = GOLDENS[name]
    assert out == golden["stdout"]
    assert err == golden["stderr"]
    assert code == golden["code"]
