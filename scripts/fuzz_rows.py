"""Rows-mode fuzzer: `gradcli eval EXPR --rows -` must give every row exactly (bit for bit) its single
evaluation (gradcli.grad on that row's values), in both --bits modes and dtypes; torch's value is reported too.

    .venv/bin/python scripts/fuzz_rows.py --n 100 --seed 1
"""
from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys

import numpy as np

import gradcli

UNARY = ["sin({})", "exp({})", "torch.sigmoid({})", "relu({})", "tanh({})", "abs({})", "({}).clamp(-0.5, 0.7)",
         "torch.where({0} > 0, {0}, 0.1 * {0})", "({})**2", "({})**3", "sqrt(abs({}) + 1)", "F.softplus({})",
         "torch.erf({})", "torch.lgamma(abs({}) + 0.5)", "torch.maximum({0}, 0.25 * {0})", "-{}", "({}) / 3",
         "torch.clamp({}, min=0)", "F.gelu({})", "F.silu({})", "log1p(abs({}))", "torch.atan({})"]
BIN = ["({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) / (abs({}) + 1)", "torch.maximum({}, {})",
       "torch.add({}, {}, alpha=0.5)", "torch.sub({}, {}, alpha=2)", "torch.minimum({}, {})"]


def expr_of(rng: random.Random, leaves: list, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(leaves)
    if rng.random() < 0.55:
        return rng.choice(UNARY).format(expr_of(rng, leaves, depth - 1))
    return rng.choice(BIN).format(expr_of(rng, leaves, depth - 1), expr_of(rng, leaves, depth - 1))


def reduce_of(rng: random.Random, e: str, ndim: int) -> str:
    choices = ["({}).sum()", "({}).mean()"]
    if ndim >= 1:
        choices += ["({}).sum(-1).sum()", "torch.logsumexp({}, -1).sum()", "({}).softmax(-1)[..., 0].sum()",
                    "({}).log_softmax(dim=0).sum()", "({}).norm()", "({}).sum(0, keepdim=True).mean()",
                    "(({}) * ({})).sum()" if False else "({}).mean(dim=-1).sum()", "({})[..., :2].sum()",
                    "({})[-1].sum()"]
    if ndim == 2:
        choices += ["({}).T.sum(0).sum()", "(({}) @ W).sum()", "({}).transpose(0, 1)[0].sum()",
                    "({}).unsqueeze(0).sum((1, 2)).sum()", "({}).reshape(-1).sum()"]
    return rng.choice(choices).format(e)


def rand_value(rng: random.Random, shape: tuple, ints: bool):
    def one():
        if ints:
            return rng.randint(-3, 3)
        r = rng.random()
        if r < 0.03:
            return "nan"
        if r < 0.1:
            return rng.choice([0.0, -0.0, 1.0, -1.0, 0.5])
        return round(rng.gauss(0, 1.5), rng.choice([1, 3, 17]))
    if not shape:
        return one()
    return [rand_value(rng, shape[1:], ints) for _ in range(shape[0])]


def to_np(v, dtype):
    def conv(a):
        if isinstance(a, list):
            return [conv(b) for b in a]
        return float("nan") if a == "nan" else float(a)
    return np.array(conv(v), dtype=dtype)


def same(a, b) -> bool:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    nan = np.isnan(a) | np.isnan(b)  # JSON's "nan" has no sign
    return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=True)) and \
        bool(np.array_equal(np.signbit(a) & ~nan, np.signbit(b) & ~nan))


def decode(v):
    if isinstance(v, list):
        return [decode(a) for a in v]
    if isinstance(v, str):
        return float(v)
    return v


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rows", type=int, default=6)
    args = p.parse_args()
    rng = random.Random(args.seed)
    bad = 0
    for it in range(args.n):
        ndim = rng.choice([0, 1, 1, 2])
        n = rng.choice([1, 2, 3, 4, 5, 8, 16, 17, 32, 33])
        xshape = () if ndim == 0 else ((n,) if ndim == 1 else (n, rng.choice([2, 3, 4])))
        mixed = rng.random() < 0.3
        leaves = ["x", "y", "x", "2.5", "x"] if rng.random() < 0.8 else ["x", "x * y"]
        body = expr_of(rng, leaves, rng.randint(1, 4))
        expr = reduce_of(rng, body, ndim) if ndim else body
        dtype = rng.choice(["float64", "float32"])
        bits = rng.choice(["fast", "torch"])
        wshape = (xshape[-1], 2) if ndim == 2 else None
        rows = []
        for _ in range(args.rows):
            shp = xshape
            if mixed and ndim == 1 and rng.random() < 0.4:
                shp = (rng.choice([1, 2, 3, 5, 33]),)
            row = {"x": rand_value(rng, shp, rng.random() < 0.15), "y": rand_value(rng, (), rng.random() < 0.2)}
            if wshape:
                row["W"] = rand_value(rng, wshape, False)
            rows.append(row)
        used = [k for k in rows[0] if re.search(rf"\b{k}\b", expr)]
        if "x" not in used:
            continue
        lines = "".join(json.dumps({k: r[k] for k in used}) + "\n" for r in rows).replace('"nan"', "NaN")
        cmd = [".venv/bin/gradcli", "eval", expr, "--rows", "-", "--format", "ndjson", "--dtype", dtype,
               "--bits", bits, "--no-check"]
        proc = subprocess.run(cmd, input=lines, capture_output=True, text=True, timeout=300)
        outs = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
        if len(outs) != len(rows):
            print(f"[{it}] ROWCOUNT {len(outs)} != {len(rows)}: {expr!r} {proc.stderr[:200]}")
            bad += 1
            continue
        for i, (row, got) in enumerate(zip(rows, outs)):
            vals = {k: to_np(row[k], dtype) for k in used}
            try:
                single = gradcli.grad(expr, check=False, dtype=dtype, bits=bits, **vals)
            except Exception as err:
                if "error" not in got:
                    print(f"[{it}] row {i}: single fails ({type(err).__name__}: {err}) but rows gives {got}: {expr!r}")
                    bad += 1
                continue
            if "error" in got:
                print(f"[{it}] row {i}: rows error {got['error']} but single ok: {expr!r} {vals}")
                bad += 1
                continue
            diffs = []
            if not same(decode(got["output"]), single.output):
                diffs.append(f"output rows={got['output']} single={single.output.tolist()}")
            for k in used:
                g = single.grads.get(k)
                if not same(decode(got["grads"][k]), g):
                    diffs.append(f"grad {k}: rows={got['grads'][k]} single={g.tolist()}")
            if diffs:
                bad += 1
                shown = json.dumps({k: row[k] for k in used})
                print(f"[{it}] row {i} {dtype} bits={bits}: {expr!r}\n   row={shown}\n   " + "\n   ".join(diffs))
                sys.stdout.flush()
                break
    print(f"{bad} differences in {args.n} expressions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
