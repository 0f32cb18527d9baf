"""Generate tests/goldens/fuzz_regressions.json: the random compositions on which the live fuzz
(`pytest tests/test_compositions.py --live --live-seed N`) once found gradcli differing from PyTorch 2.13,
recorded with PyTorch as make_composition_goldens.py records every case, and replayed by
tests/test_compositions.py::test_fuzz_regression without torch — so a bug the fuzz found stays found.
Add a (seed, index) pair when the fuzz reports one, then rerun:

    python scripts/make_fuzz_regressions.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

import make_composition_goldens as maker  # noqa: E402
import torch  # noqa: E402
from compositions import cases  # noqa: E402

OUT = ROOT / "tests" / "goldens" / "fuzz_regressions.json"

# (seed, index, what was wrong)
FOUND = [
    (103, 1166, "float32 cumsum/var accumulated in float32 (torch keeps double): logsumexp gradient 1% off"),
    (113, 599, "cumsum of a leading -0.0 kept -0.0 (torch's running sum starts at +0.0): atan2 tie lost"),
    (117, 711, "hardtanh's gradient at nan: torch's vectorised lanes give 0, its scalar tail the gradient"),
    (142, 273, "clamp by a tensor on a tie of -0.0 and 0.0 took numpy's operand, not torch's lane's: atan2 sign"),
    (144, 1468, "relu(-0.0) was 0.0 (torch keeps -0.0): atan2 of it gave pi for -pi"),
]


def _fuzz_differential_case(family: str, seed: int, index: int) -> dict:
    """Case `index` of scripts/fuzz_differential.py's family and seed, as a composition case: x is the leaf,
    the other values (y, k, b) constants written into the expression."""
    import random

    import fuzz_differential as fuzz

    rng = random.Random(seed)
    for _ in range(index + 1):
        expr, values, dtype = fuzz.GENS[family](rng)
    x = values["x"].astype("float64")
    for name in ("y", "k", "b"):
        if name in values and re.search(rf"\b{name}\b", expr):
            raise ValueError(f"{expr}: constants are not carried over; pick a case over x alone")
    leaf = {"shape": list(x.shape), "values": x.reshape(-1).tolist()}
    return {"expr": re.sub(r"\bx\b", "a", expr), "leaves": {"a": leaf}}


# (fuzz_differential family, seed, index, what was wrong): scripts/fuzz_differential.py's findings
FOUND_DIFFERENTIAL = [
    ("elementwise", 11, 1220, "where's gradient laid out row-major where torch's follows a transposed condition: "
     "the sum back to a broadcast x[0] added in another order (60 ulps)"),
]


def main():
    entries = []
    for seed, index, why in FOUND:
        case = list(cases(seed, index + 1))[index]
        entry = maker.record(case, index, hessian=False)
        entry["found"] = f"seed {seed} #{index}: {why}"
        entries.append(entry)
    for family, seed, index, why in FOUND_DIFFERENTIAL:
        entry = maker.record(_fuzz_differential_case(family, seed, index), index, hessian=False)
        entry["found"] = f"fuzz_differential {family} seed {seed} #{index}: {why}"
        entries.append(entry)
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": entries}, indent=1) + "\n")
    print(f"wrote {len(entries)} cases to {OUT}")


if __name__ == "__main__":
    main()
