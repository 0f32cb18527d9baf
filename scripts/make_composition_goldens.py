"""Record random compositions of ops (tests/compositions.py) with PyTorch 2.13: tests/goldens/compositions.json.gz.

For every case, in float64 and float32: the output, every leaf's .grad (None where PyTorch leaves it None),
or the error's type and first line; for a subset with a scalar output, the full Hessian in float64; plus
`rows` cases (scalar leaves, several rows each) and `run` cases (the program's printed text in float32).
The test suite replays them without PyTorch (tests/test_compositions.py).

    python scripts/make_composition_goldens.py                 # the stored set (seed 2026, 12,000 expressions)
    python scripts/make_composition_goldens.py --seed 7 --n 500 --out /tmp/c.json.gz
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import math
import random
import sys
import warnings
from pathlib import Path

import torch
import torch.nn.functional as F  # noqa: F401 - in scope of the expressions

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from compositions import Generator, cases  # noqa: E402

OUT = ROOT / "tests" / "goldens" / "compositions.json.gz"
DTYPES = {"float64": torch.float64, "float32": torch.float32}


def number(x: float):
    """JSON has no nan/inf: they travel as strings, as gradcli's own JSON writes them."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def flat(t) -> list:
    return [number(float(v)) for v in t.detach().double().cpu().numpy(force=True).reshape(-1)]


def grad_output_for(case: dict, shape, index: int) -> list | None:
    if len(shape) == 0:
        return None
    rng = random.Random(index)
    return [round(rng.uniform(-1.5, 1.5), 2) for _ in range(math.prod(shape))]


def evaluate(case: dict, dtype, grad_output=None, hessian=False):
    leaves = {n: torch.tensor(leaf["values"], dtype=dtype).reshape(leaf["shape"]).requires_grad_(True)
              for n, leaf in case["leaves"].items()}
    env = {"torch": torch, **leaves}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = eval(case["expr"], {"torch": torch}, env)  # noqa: S307 - our own generated text
            if not isinstance(out, torch.Tensor):
                return {"error": ["TypeError", "not a tensor"]}, None
            result = {"shape": list(out.shape), "output": flat(out)}
            if not out.requires_grad:
                result["grads"] = {n: None for n in leaves}
                return result, out
            if grad_output is None and out.dim() != 0:
                return result, out  # the caller chooses a grad_output for this shape and evaluates again
            gout = None if grad_output is None else torch.tensor(grad_output, dtype=dtype).reshape(out.shape)
            if hessian:
                grads = torch.autograd.grad(out, list(leaves.values()), gout, create_graph=True, allow_unused=True)
                result["grads"] = {n: None if g is None else flat(g) for n, g in zip(leaves, grads)}
                result["hessian"] = _hessian(leaves, grads)
            else:
                out.backward(gout)
                result["grads"] = {n: None if t.grad is None else flat(t.grad) for n, t in leaves.items()}
            return result, out
    except Exception as err:  # noqa: BLE001 - the error is the golden
        return {"error": [type(err).__name__, str(err).split("\n")[0]]}, None


def _hessian(leaves: dict, grads) -> dict:
    blocks = {}
    names = list(leaves)
    for i, gi in enumerate(grads):
        for nj in names:
            rows = []
            for k in range(leaves[names[i]].numel()):
                if gi is None or not gi.requires_grad:
                    rows.append([0.0] * leaves[nj].numel())
                    continue
                (h,) = torch.autograd.grad(gi.reshape(-1)[k], leaves[nj], retain_graph=True, allow_unused=True)
                rows.append([0.0] * leaves[nj].numel() if h is None else flat(h))
            blocks[f"{names[i]},{nj}"] = rows
    return blocks


def record(case: dict, index: int, hessian: bool) -> dict:
    entry = {"expr": case["expr"], "leaves": case["leaves"]}
    first, out = evaluate(case, torch.float64)
    if "error" not in first and "grads" not in first:
        entry["grad_output"] = grad_output_for(case, out.shape, index)
        entry["grad_output_shape"] = list(out.shape)
    else:
        entry["grad_output"] = None
    for name, dtype in DTYPES.items():
        want_hessian = hessian and name == "float64" and out is not None and out.dim() == 0
        result, _ = evaluate(case, dtype, entry["grad_output"], hessian=want_hessian)
        entry[name] = result
    return entry


def rows_cases(seed: int, n: int, rows: int = 6) -> list[dict]:
    """Expressions over scalar leaves, each with several rows of values (what --rows batches)."""
    gen = Generator(seed)
    out = []
    while len(out) < n:
        case = gen.case()
        if any(leaf["shape"] for leaf in case["leaves"].values()) or case["shape"]:
            continue
        table = []
        for _ in range(rows):
            values = {name: gen.value() for name in case["leaves"]}
            row_case = {"expr": case["expr"], "leaves": {k: {"shape": [], "values": [v]} for k, v in values.items()}}
            result, _ = evaluate(row_case, torch.float64)
            table.append({"values": {k: number(v) for k, v in values.items()}, **result})
        out.append({"expr": case["expr"], "names": sorted(case["leaves"]), "rows": table})
    return out


def run_cases(seed: int, n: int) -> list[dict]:
    """Programs a learner could write around an expression, with what PyTorch prints (float32)."""
    out = []
    for case in cases(seed, n):
        lines = ["import torch"]
        for name, leaf in case["leaves"].items():
            shape = leaf["shape"]
            if 0 in shape:
                lines.append(f"{name} = torch.zeros({', '.join(map(str, shape))}, requires_grad=True)")
            else:
                lines.append(f"{name} = torch.tensor({_literal(leaf['values'], shape)}, requires_grad=True)")
        lines.append(f"out = {case['expr']}")
        lines.append("print(out)")
        lines.append("out.sum().backward()")
        lines += [f"print({name}.grad)" for name in case["leaves"]]
        program = "\n".join(lines) + "\n"
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(program, {})  # noqa: S102 - our own generated program
            printed, error = buffer.getvalue(), None
        except Exception as err:  # noqa: BLE001
            printed, error = buffer.getvalue(), f"{type(err).__name__}: {str(err).splitlines()[0]}"
        out.append({"program": program, "stdout": printed, "error": error})
    return out


def _literal(values: list, shape: list) -> str:
    """A nested list literal of `values` (flat) in `shape`, nan and inf written as float('nan'), float('inf')."""
    def text(v):
        return repr(float(v)) if math.isfinite(v) else f"float('{v}')"

    def nest(flat_values, dims):
        if not dims:
            return text(flat_values[0])
        step = len(flat_values) // dims[0]
        return "[" + ", ".join(nest(flat_values[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])) + "]"

    return nest(list(values), list(shape))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--n", type=int, default=12000)
    parser.add_argument("--hessians", type=int, default=1500, help="cases of the first N that record Hessians")
    parser.add_argument("--rows", type=int, default=150)
    parser.add_argument("--runs", type=int, default=150)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    torch.set_num_threads(1)
    generated = cases(args.seed, args.n)
    recorded = [record(c, i, i < args.hessians) for i, c in enumerate(generated)]
    data = {"torch": torch.__version__, "seed": args.seed, "cases": recorded,
            "rows": rows_cases(args.seed + 1, args.rows), "runs": run_cases(args.seed + 2, args.runs)}
    with gzip.open(args.out, "wt", compresslevel=9) as fh:
        json.dump(data, fh, separators=(",", ":"))
    errors = sum("error" in c["float64"] for c in recorded)
    print(f"{len(recorded)} expressions x 2 dtypes ({errors} PyTorch errors), {args.hessians} with Hessians, "
          f"{args.rows} rows cases, {args.runs} run programs -> {args.out} ({args.out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
