"""Generate tests/goldens/det.json: PyTorch 2.13's linalg.det and linalg.slogdet of random, integer (often
singular) and transposed (non-contiguous) square matrices up to 16x16, float64 and float32, single and
batched.  torch computes both from MKL's LU of Aᵀ (A when A is not contiguous): det = sign(P) * prod(diag U),
log|det| = sum(log|u_ii|); numpy's det goes through exp(sum(log|u_ii|)) and differs in the last bits on most
matrices.  Dev-only: the test suite never imports torch.

    python scripts/make_det_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "det.json"


def main() -> None:
    rng = np.random.default_rng(1613)
    cases = []
    for dtype in ("float64", "float32"):
        for n in (1, 2, 3, 4, 5, 6, 8, 11, 16):
            for kind in ("normal", "integer", "transposed", "batch"):
                shape = (3, n, n) if kind == "batch" else (n, n)
                a = (rng.integers(-2, 3, shape) if kind == "integer" else rng.standard_normal(shape)).astype(dtype)
                t = torch.tensor(a)
                if kind == "transposed":
                    t = t.mT  # non-contiguous: torch factors A itself, not Aᵀ
                sign, logabs = torch.linalg.slogdet(t)
                cases.append({"dtype": dtype, "kind": kind, "a": a.reshape(-1).tolist(), "shape": list(shape),
                              "det": torch.linalg.det(t).reshape(-1).tolist(),
                              "sign": sign.reshape(-1).tolist(), "logabs": logabs.reshape(-1).tolist()})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
