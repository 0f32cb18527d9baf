"""Generate tests/goldens/rng.json: PyTorch 2.13's CPU random numbers after torch.manual_seed, bit for bit, for
gradcli.engine.random (tests/engine/test_random.py replays them without torch).  Every function, seeds
{0, 1, 42, 2**32 + 5}, sizes 1, 15, 16, 17 (both sides of the vectorised normal path), 1000 and 10**6, float32
and float64, and sequences of mixed draws after one seed (the cached normal value, the stream's position).
Small results are stored whole; larger ones as the SHA-256 of their bytes plus a few values to show a
difference.

    python scripts/make_rng_goldens.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "goldens" / "rng.json"
SEEDS = [0, 1, 42, 2 ** 32 + 5]
SIZES = [1, 15, 16, 17, 1000, 10 ** 6]
DTYPES = {"float32": torch.float32, "float64": torch.float64}

# name -> (torch call, applies to a dtype?)
DRAWS = {
    "rand": lambda n, dt: torch.rand(n, dtype=dt),
    "randn": lambda n, dt: torch.randn(n, dtype=dt),
    "normal_": lambda n, dt: torch.empty(n, dtype=dt).normal_(2.5, 0.3),
    "uniform_": lambda n, dt: torch.empty(n, dtype=dt).uniform_(-0.37, 0.37),
    "bernoulli_": lambda n, dt: torch.empty(n, dtype=dt).bernoulli_(0.3),
    "bernoulli": lambda n, dt: torch.bernoulli(torch.linspace(0, 1, n, dtype=dt)),
    "randint": lambda n, dt: torch.randint(-3, 10, (n,)),
    "randint_wide": lambda n, dt: torch.randint(0, 2 ** 30, (n,)),
    "randperm": lambda n, dt: torch.randperm(n),
    "exponential_": lambda n, dt: torch.empty(n, dtype=dt).exponential_(1.5),
    "multinomial": lambda n, dt: torch.multinomial(torch.linspace(0.1, 1, n, dtype=dt), min(n, 5)),
    "multinomial_one": lambda n, dt: torch.multinomial(torch.linspace(0.1, 1, n, dtype=dt).reshape(1, n), 1),
    "multinomial_replacement": lambda n, dt: torch.multinomial(torch.linspace(0.1, 1, 7, dtype=dt), n, True),
    "linear_init": lambda n, dt: torch.cat([p.detach().reshape(-1) for p in torch.nn.Linear(n, 2, dtype=dt)
                                            .parameters()]),
}
INTEGER = {"randint", "randint_wide", "randperm"}
SEQUENCE = [("randn", 3), ("rand", 17), ("randint", 5), ("randn", 20), ("randn", 1), ("uniform_", 16),
            ("randperm", 7), ("normal_", 5), ("multinomial", 9), ("exponential_", 3), ("linear_init", 4),
            ("multinomial_replacement", 4), ("randn", 2)]


def record(t: torch.Tensor) -> dict:
    a = t.numpy()
    if a.size <= 17:
        return {"values": a.tolist()}
    return {"sha256": hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest(), "head": a[:4].tolist()}


def main():
    cases = []
    for name, draw in DRAWS.items():
        for dtype, dt in DTYPES.items():
            if name in INTEGER and dtype == "float64":
                continue  # integer draws do not depend on the float dtype
            for seed in SEEDS:
                for n in SIZES:
                    if name == "randperm" and n > 1000:
                        continue  # sequential by nature; 1000 covers it
                    torch.manual_seed(seed)
                    cases.append({"draw": name, "dtype": dtype, "seed": seed, "n": n, **record(draw(n, dt))})
    sequences = []
    for dtype, dt in DTYPES.items():
        for seed in SEEDS:
            torch.manual_seed(seed)
            sequences.append({"dtype": dtype, "seed": seed,
                              "draws": [{"draw": name, "n": n, **record(DRAWS[name](n, dt))} for name, n in SEQUENCE]})
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases, "sequences": sequences}) + "\n")
    print(f"wrote {len(cases)} cases and {len(sequences)} sequences to {OUT}")


if __name__ == "__main__":
    main()
