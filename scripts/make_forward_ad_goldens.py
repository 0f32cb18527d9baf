"""Record torch 2.13's forward-mode tangents for tests/forward_ad_cases.py (float64 and float32) into
tests/goldens/forward_ad.json: inputs and tangents as float hex, so the test feeds gradcli the same bits.

    .venv/bin/python scripts/make_forward_ad_goldens.py
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch
import torch.autograd.forward_ad as fwAD

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from forward_ad_cases import CASES  # noqa: E402


def hexes(a):
    return [float(v).hex() for v in np.asarray(a, dtype=np.float64).reshape(-1)]


def main():
    rng = np.random.RandomState(28)
    shapes = {"x": (3, 4), "y": (3, 4), "w": (5, 4), "b": (5,)}
    out = {"inputs": {}, "cases": {}}
    for dtype_name, dtype in (("float64", torch.float64), ("float32", torch.float32)):
        np_dtype = np.float64 if dtype is torch.float64 else np.float32
        values = {k: rng.randn(*s).astype(np_dtype) for k, s in shapes.items()}
        tangents = {k: rng.randn(*s).astype(np_dtype) for k, s in shapes.items() if k != "b"}
        out["inputs"][dtype_name] = {"values": {k: hexes(v) for k, v in values.items()},
                                     "tangents": {k: hexes(v) for k, v in tangents.items()},
                                     "shapes": shapes}
        for name, fn in CASES.items():
            with fwAD.dual_level():
                duals = {k: fwAD.make_dual(torch.from_numpy(values[k]), torch.from_numpy(tangents[k]))
                         for k in tangents}
                result = fn(torch, duals["x"], duals["y"], duals["w"], torch.from_numpy(values["b"]))
                primal, tangent = fwAD.unpack_dual(result)
                out["cases"].setdefault(name, {})[dtype_name] = {
                    "shape": list(primal.shape), "dtype": str(tangent.dtype).replace("torch.", ""),
                    "primal": hexes(primal.detach()), "tangent": hexes(tangent)}
    path = ROOT / "tests" / "goldens" / "forward_ad.json"
    path.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {path} ({len(CASES)} cases x 2 dtypes)")


if __name__ == "__main__":
    main()
