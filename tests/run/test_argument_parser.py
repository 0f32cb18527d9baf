"""torch's argument-parser errors under `gradcli run`: every torch function and Tensor method gradcli has,
called as a learner miscalls it (a number or a list where a Tensor goes, an extra positional argument, a float
dim, an int keepdim), against the message torch 2.13 gave for the same call (tests/goldens/argparse_errors.json, from
scripts/make_torch_signatures.py).  Needs no torch.

  python tests/run/test_argument_parser.py     # prints how many calls match torch
"""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest

from gradcli.run import run_source
from gradcli.run.argument_parser import hash_bytes, map_order

GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "goldens" / "argparse_errors.json").read_text())
CALLS = GOLDENS["calls"]
MARK = "@@@ "
CHUNK = 60


def program(calls: list) -> str:
    lines = ["import torch", GOLDENS["prelude"]]
    for call in calls:
        lines += ["try:", f"    {call['call']}", f"    print({MARK + 'ok'!r})",
                  "except Exception as error:", f"    print({MARK!r} + str(error))"]
    return "\n".join(lines) + "\n"


@cache
def gradcli_outcomes() -> tuple:
    """gradcli's message for every call (a chunk of calls per program; "ok" where it computed)."""
    results = []
    for start in range(0, len(CALLS), CHUNK):
        chunk = CALLS[start:start + CHUNK]
        out, err = io.StringIO(), io.StringIO()
        run_source(program(chunk), "calls.py", stdout=out, stderr=err)
        parts = out.getvalue().split(MARK)[1:]
        if len(parts) != len(chunk):
            parts = [f"the program stopped: {err.getvalue()}"] * len(chunk)
        results += [p[:-1] for p in parts]  # (print's newline)
    return tuple(results)


def torch_message(call: dict) -> str:
    text = call["torch"]
    return "ok" if text == "ok" else text.split(": ", 1)[1]


def is_parser_error(call: dict) -> bool:
    return call["torch"].startswith("TypeError: ")


# Calls torch's parser takes where gradcli's op then differs from torch (not the parser's doing), and why
# (strict: a fix must remove the entry).
OP_DIFFERENCES = {
}


@pytest.mark.parametrize("index", [
    pytest.param(i, marks=pytest.mark.xfail(reason=OP_DIFFERENCES[c["call"]], strict=True))
    if c["call"] in OP_DIFFERENCES else i for i, c in enumerate(CALLS)], ids=[c["call"] for c in CALLS])
def test_message_is_torchs(index):
    call = CALLS[index]
    got = gradcli_outcomes()[index]
    if is_parser_error(call):
        assert got == torch_message(call)
    else:  # torch took the call: no parser error here either (gradcli may still differ on what comes after)
        assert not got.startswith((f"{call['name']}(): argument", f"{call['name']}() takes",
                                   f"{call['name']}() received an invalid combination"))


def test_goldens_cover_the_classes():
    kinds = {c["kind"] for c in CALLS}
    classes = {"number first", "list first", "extra positional", "float dim", "int keepdim"}
    assert kinds == classes | {f"method, {kind}" for kind in classes} | {"example"}
    assert len({c["name"] for c in CALLS}) >= 200


if __name__ == "__main__":
    outcomes = gradcli_outcomes()
    same = sum(got == torch_message(c) for c, got in zip(CALLS, outcomes))
    errors = [(c, got) for c, got in zip(CALLS, outcomes) if is_parser_error(c)]
    print(f"{same} of {len(CALLS)} calls give torch's outcome exactly; "
          f"{sum(got == torch_message(c) for c, got in errors)} of {len(errors)} torch TypeErrors bit for bit")
    for c, got in errors:
        if got != torch_message(c):
            print(f"{c['call']}\n  torch:   {torch_message(c)!r}\n  gradcli: {got!r}")


# The iteration order of a std::unordered_map<std::string, int> filled in this order, printed by a C++ program
# built with g++ (libstdc++) on the machine that wrote this test: torch lists keywords in that order.
LIBSTDCXX_ORDERS = [
    (["dim", "keepdim"], ["keepdim", "dim"]),
    (["dim", "keepdim", "dtype", "out"], ["out", "dtype", "keepdim", "dim"]),
    (["min", "max", "out", "alpha", "beta"], ["beta", "alpha", "out", "max", "min"]),
    (["a", "bb", "ccc", "dddd", "eeeeeeeee", "input", "other", "weight", "bias", "reduction", "keepdim", "dim", "out"],
     ["reduction", "out", "weight", "dim", "input", "eeeeeeeee", "dddd", "keepdim", "other", "ccc", "bias", "bb",
      "a"]),
]


@pytest.mark.parametrize(("inserted", "iterated"), LIBSTDCXX_ORDERS)
def test_keywords_in_libstdcxx_unordered_map_order(inserted, iterated):
    assert map_order(dict.fromkeys(inserted)) == iterated
    assert hash_bytes(b"dim") == 16001712116338756485  # std::hash<std::string>{}("dim") from the same program


def test_deprecated_overloads_compute_as_torch_and_warn_once():
    """x.add_(-0.1, y), torch.addmm(beta, m, alpha, m1, m2) ...: torch's values, and its warning once per run."""
    recorded = GOLDENS["deprecated"]
    out, err = io.StringIO(), io.StringIO()
    code = run_source(recorded["program"], "deprecated.py", stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert out.getvalue() == recorded["stdout"]
    assert len(recorded["warnings"]) == 1
    assert err.getvalue() == f"gradcli run: warning at line 4\nUserWarning: {recorded['warnings'][0]}\n"
