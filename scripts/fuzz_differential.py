"""Differential fuzzer: random expressions evaluated by gradcli's Python API and by torch 2.13 side by side.

Prints every expression whose value or gradient differs (bit for bit under bits="torch", for reductions and
ordering ops in both modes). A red-team tool, not a default test: it imports torch.

    .venv/bin/python scripts/fuzz_differential.py --family sum --n 300 --seed 1
"""
from __future__ import annotations

import argparse
import random
import sys

import numpy as np
import torch

import gradcli


def views(rng: random.Random, ndim: int) -> list[str]:
    """Random view suffixes on a tensor of `ndim` dims."""
    out = [""]
    if ndim >= 2:
        out += [".t()" if ndim == 2 else ".transpose(0, 1)", ".transpose(-1, -2)"]
        perm = list(range(ndim))
        rng.shuffle(perm)
        out.append(f".permute({', '.join(map(str, perm))})")
    out += ["[1:]", "[::2]", "[..., 1:]", "[..., ::2]", "[:, ::-1]" if False else "[1:, ...]"]
    return out


def rand_shape(rng: random.Random, ndim: int) -> tuple:
    sizes = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129]
    shape = [rng.choice(sizes) for _ in range(ndim)]
    # keep it under ~300k elements
    while np.prod(shape) > 300_000:
        shape[rng.randrange(ndim)] //= 2
        shape = [max(1, s) for s in shape]
    if rng.random() < 0.15 and ndim == 2:
        shape = [rng.choice([2047, 2048, 2049, 2100, 4096]), rng.choice([1, 3, 8, 16, 17, 33, 64])]
    return tuple(shape)


def gen_sum(rng: random.Random):
    ndim = rng.choice([1, 2, 3, 4])
    shape = rand_shape(rng, ndim)
    view = rng.choice(views(rng, ndim))
    op = rng.choice(OPS)
    d = rng.choice([None, 0, 1, -1, (0, 1), (-1, 0), 2, 3, (1, 2), (0, 2, 3)])
    if isinstance(d, int) and d >= ndim:
        d = -1
    if isinstance(d, tuple) and (max(d) >= ndim or (ndim == 1 and len(d) > 1)):
        d = None
    keep = rng.choice([False, True])
    if op in ("softmax", "log_softmax", "cumsum"):
        if not isinstance(d, int):
            d = -1
        call = f"{op}(dim={d})"
    elif op == "logsumexp":
        if d is None:
            d = tuple(range(ndim))
        call = f"logsumexp(dim={d}, keepdim={keep})"
    elif op == "prod":
        if not isinstance(d, int):
            call = "prod()"
        else:
            call = f"prod(dim={d}, keepdim={keep})"
    elif op == "norm":
        call = f"norm(dim={d}, keepdim={keep})" if d is not None else "norm()"
    elif d is None:
        call = f"{op}()"
    else:
        call = f"{op}(dim={d}, keepdim={keep})"
    expr = f"x{view}.{call}"
    dtype = rng.choice(["float32", "float64"])
    x = np.array(torch.randn(*shape, dtype=getattr(torch, dtype), generator=torch.Generator().manual_seed(
        rng.randrange(10**6))).numpy())
    if op == "prod":
        x = 1 + 0.01 * x
    return expr, {"x": x}, dtype


def torch_eval(expr: str, values: dict, dtype: str, grad_output_seed: int):
    torch.set_default_dtype(getattr(torch, dtype))  # gradcli's --dtype is the default dtype too
    tv = {k: torch.tensor(v, requires_grad=k == "x") for k, v in values.items()}
    ns = dict(torch.__dict__)
    ns.update({"F": torch.nn.functional, "torch": torch})
    ns.update(tv)
    out = eval(expr, ns)  # noqa: S307 - our own generated text
    g = None
    if out.requires_grad:
        if out.dim() == 0:
            out.backward()
        else:
            g = torch.randn(out.shape, dtype=out.dtype, generator=torch.Generator().manual_seed(grad_output_seed))
            out.backward(g)
    grads = {k: (t.grad.numpy() if t.grad is not None else None) for k, t in tv.items()}
    return out.detach().numpy(), grads, (g.numpy() if g is not None else None)


def same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b)))
    return bool(np.array_equal(a, b))


def ulps(a, b) -> float:
    """The most ulps (of torch's value `b`, in its dtype) between a and b."""
    b = np.atleast_1d(np.asarray(b))
    a = np.atleast_1d(np.asarray(a))
    if a.shape != b.shape:
        return float("inf")
    sp = np.spacing(np.abs(b)).astype(np.float64) if b.dtype.kind == "f" else np.ones(b.shape)
    with np.errstate(all="ignore"):
        d = np.abs(a.astype(np.float64) - b.astype(np.float64)) / sp
    d[(np.isnan(a) & np.isnan(b)) | (a == b)] = 0
    return float(np.nanmax(d)) if d.size else 0.0


def _ties(rng: random.Random, shape: tuple, dtype: str) -> np.ndarray:
    """Values with many ties (a few distinct numbers), sometimes a nan or -0.0."""
    pool = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 3.0]
    if rng.random() < 0.2:
        pool.append(float("nan"))
    if rng.random() < 0.1:
        pool += [float("inf"), float("-inf")]
    k = rng.randint(1, len(pool))
    vals = pool[:k]
    x = np.array([rng.choice(vals) for _ in range(int(np.prod(shape)))], dtype=dtype).reshape(shape)
    if rng.random() < 0.5:  # sometimes spread values too
        mask = np.array([rng.random() < 0.5 for _ in range(x.size)]).reshape(shape)
        x[mask] = np.array([rng.uniform(-3, 3) for _ in range(int(mask.sum()))], dtype=dtype)
    return x


def gen_order(rng: random.Random):
    ndim = rng.choice([1, 2, 3])
    shape = tuple(rng.choice([1, 2, 3, 4, 5, 8, 16, 17, 33, 40]) for _ in range(ndim))
    dtype = rng.choice(["float32", "float64"])
    x = _ties(rng, shape, dtype)
    d = rng.randrange(-ndim, ndim)
    n = shape[d]
    k = rng.randint(1, n)
    view = rng.choice(["", "", ".t()" if ndim == 2 else "", "[..., ::-1]" if False else ""])
    op = rng.choice([
        f"sort(dim={d})[0]", f"sort(dim={d}, descending=True)[0]", f"sort(dim={d}, stable=True)[0]",
        f"topk({k}, dim={d})[0]", f"topk({k}, dim={d}, largest=False)[0]", f"topk({k}, dim={d}, sorted=False)[0]",
        f"quantile({rng.choice([0.0, 0.25, 0.5, 0.7, 1.0])}, dim={d})", f"median(dim={d})[0]", "median()",
        f"cummax(dim={d})[0]", f"cummin(dim={d})[0]", f"max(dim={d})[0]", f"min(dim={d})[0]", "max()", "amax()",
        f"amin(dim={d})", "sort()[0]", "argsort()", f"sort(dim={d})[1]",
        f"topk({k}, dim={d})[1]", f"median(dim={d})[1]", f"cummax(dim={d})[1]"])
    expr = f"x{view}.{op}"
    if op.endswith("[1]") or op.startswith("argsort"):
        expr = f"(x{view} * x{view}.{op}.double().mean())" if False else f"x{view}.{op}"
    return expr, {"x": x}, dtype


EXACT_UNARY = ["({}).exp()", "({}).sqrt()", "torch.sigmoid({})", "F.relu({})", "({}).abs()", "-({})", "({}) ** 2",
               "({}) ** 3", "({}) * 0.7", "({}) / 3", "({}).clamp(-0.5, 0.8)", "({}).clamp(min=0.1)",
               "F.silu({})", "F.hardtanh({})", "F.leaky_relu({}, 0.2)", "({}).reciprocal()", "({}).rsqrt()",
               "({}).square()", "torch.sign({0}) * ({0})", "F.elu({})" if False else "F.relu6({})",
               "({}).clone().add_(1.5)", "({}).clone().mul_(k)", "({}).clone().clamp_(max=0.9)",
               "({}).sin()", "({}).cos()", "({}) ** 0.5", "({}).pow(1.7)", "({}).floor()", "({}).round()",
               "({}).frac()" if False else "({}).trunc()", "F.hardsigmoid({})", "F.hardswish({})"]
EXACT_BIN = ["({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) / ({})", "torch.maximum({}, {})",
             "torch.minimum({}, {})", "torch.add({}, {}, alpha=0.3)", "torch.sub({}, {}, alpha=2)",
             "torch.where(({0}) > ({1}), {0}, {1})", "torch.clamp({}, min={})", "torch.clamp({0}, max={1})",
             "torch.fmod({}, 1.5) + ({})", "torch.remainder({}, 2.0) * ({})", "torch.hypot({}, {})",
             "torch.atan2({}, {})" if False else "torch.copysign({}, {})", "torch.lerp({}, {}, 0.3)",
             "torch.addcmul({}, {}, y, value=0.5)", "torch.addcdiv({}, {}, y.abs() + 1, value=2)"]
LEAVES = ["x", "y", "x", "k", "b", "2.5", "x * k", "x[0]", "y.flip(0)" if False else "x.t()"]


def _expr(rng, depth):
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(LEAVES)
    if rng.random() < 0.5:
        return rng.choice(EXACT_UNARY).format(_expr(rng, depth - 1))
    return rng.choice(EXACT_BIN).format(_expr(rng, depth - 1), _expr(rng, depth - 1))


def gen_elementwise(rng: random.Random):
    dtype = rng.choice(["float32", "float64"])
    n = rng.choice([1, 2, 3, 4, 5, 8, 9, 16, 17, 33])
    shape = (n, n)
    expr = _expr(rng, rng.randint(1, 4))
    if "x" not in expr:
        expr = f"({expr}) * x"
    red = rng.choice(["({}).sum()", "({}).mean()", "({})", "({}).sum(0)"])
    expr = red.format(expr)
    x = _ties(rng, shape, dtype) if rng.random() < 0.3 else np.array(
        [round(rng.gauss(0, 1.5), rng.choice([1, 2, 7])) for _ in range(n * n)], dtype=dtype).reshape(shape)
    y = np.array([round(rng.gauss(0, 1), 3) for _ in range(n * n)], dtype=dtype).reshape(shape)
    k = np.array([rng.randint(-3, 3) for _ in range(n)], dtype=np.int64)
    b = np.array([rng.random() < 0.5 for _ in range(n)])
    return expr, {"x": x, "y": y, "k": k, "b": b}, dtype


GENS = {"sum": gen_sum, "order": gen_order, "elementwise": gen_elementwise}
OPS = ["sum", "mean", "nansum", "logsumexp", "softmax", "log_softmax", "sum", "mean", "amax", "norm", "std", "var",
       "prod", "cumsum"]


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--family", default="sum")
    p.add_argument("--n", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bits", default="torch")
    p.add_argument("--ops", default="", help="comma-separated reductions for --family sum")
    args = p.parse_args()
    if args.ops:
        OPS[:] = args.ops.split(",")
    rng = random.Random(args.seed)
    bad = 0
    for i in range(args.n):
        expr, values, dtype = GENS[args.family](rng)
        try:
            t_out, t_grads, g = torch_eval(expr, values, dtype, i)
        except Exception as err:  # torch refuses: gradcli should too
            t_err = f"{type(err).__name__}: {err}".splitlines()[0]
            try:
                gradcli.grad(expr, check=False, dtype=dtype, bits=args.bits, x=values["x"],
                             consts={k: v for k, v in values.items() if k != "x"})
                print(f"[{i}] TORCH-ERR-ONLY {expr} shape={values['x'].shape} {dtype}: {t_err}")
                bad += 1
            except Exception:
                pass
            continue
        try:
            consts = {k: v for k, v in values.items() if k != "x"}
            r = gradcli.grad(expr, check=False, dtype=dtype, bits=args.bits, grad_output=g, consts=consts,
                             x=values["x"])
        except Exception as err:
            print(f"[{i}] GRADCLI-ERR {expr} shape={values['x'].shape} {dtype}: {type(err).__name__}: {err}")
            bad += 1
            continue
        problems = []
        if not same(r.output, t_out):
            problems.append(f"value ulps={ulps(r.output, t_out):.3g} "
                            f"dt={np.asarray(r.output).dtype}/{t_out.dtype} sh={np.shape(r.output)}/{t_out.shape}")
        for k, tg in t_grads.items():
            if k != "x":
                continue
            gg = r.grads.get(k)
            if not same(gg, tg):
                problems.append(f"grad[{k}] ulps={ulps(gg, tg) if gg is not None and tg is not None else 'None'}")
        if problems:
            bad += 1
            print(f"[{i}] {expr} shape={values['x'].shape} {dtype}: {'; '.join(problems)}")
            sys.stdout.flush()
    print(f"{bad} of {args.n} differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
