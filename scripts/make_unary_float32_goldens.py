"""Generate tests/goldens/unary_float32.json: PyTorch 2.13's float32 exp/log/sin/tanh/... on 1,000 deterministic
values, to measure how often gradcli's float32 result is PyTorch's to the bit (tests/engine/test_unary_float32.py).

    python scripts/make_unary_float32_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "unary_float32.json"
FUNCTIONS = ["exp", "log", "sin", "cos", "tan", "tanh", "exp2", "expm1", "log2", "log10", "log1p", "acos", "atan",
             "sinh", "cosh", "atanh"]
DOMAIN = {"log": "positive", "log2": "positive", "log10": "positive", "log1p": "positive", "acos": "unit",
          "atanh": "unit"}


def inputs(domain: str | None) -> np.ndarray:
    """The test rebuilds these exactly: a spread over [-20, 20] with a dense part near 0."""
    i = np.arange(1000, dtype=np.float64)
    x = np.where(i < 800, (i - 400) / 400 * 3, (i - 900) / 100 * 20)
    if domain == "positive":
        x = np.abs(x) + 1e-3
    elif domain == "unit":
        x = np.clip(x / 21, -0.99, 0.99)
    return x.astype(np.float32)


def main():
    out = {name: getattr(torch, name)(torch.from_numpy(inputs(DOMAIN.get(name)))).tolist() for name in FUNCTIONS}
    OUT.write_text(json.dumps({"torch": torch.__version__, "domain": DOMAIN, "values": out}) + "\n")
    print(f"wrote {len(out)} functions to {OUT}")


if __name__ == "__main__":
    main()
