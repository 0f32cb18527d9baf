"""Measure the fidelity contract of gradcli's elementwise kernels against PyTorch 2.13, and record its goldens.

For every kernel of gradcli/engine/kernels/ (forward, and the backward formulas that fuse a multiply-add), in
float32 and float64: the largest distance in ulps between gradcli's result and torch's, in the default (fast)
mode and with --bits torch, over MEASURE random arguments (uniform over the op's domain and normal) plus the
special ones (zeros, subnormals, the domain's edges, huge, inf, nan).  It prints the table docs/deviations.md
shows and writes tests/goldens/kernel_contract.json.gz: per op and dtype, KEEP of those arguments (the specials
and the ones where the fast kernel is furthest from torch first) with torch's results, and the measured maxima.
tests/engine/test_kernel_contract.py holds the fast mode to tests/kernel_contract.py FAST_ULPS and the
torch mode to TORCH_ULPS on them.  Dev-only: the test suite never imports torch.

    python scripts/make_kernel_contract.py            # measure, print the table, write the golden
"""

from __future__ import annotations

import base64
import gzip
import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from gradcli import engine as E  # noqa: E402
from gradcli.engine import kernels  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from kernel_contract import CASES, FAST_ULPS, TORCH_ULPS, ulps  # noqa: E402

OUT = ROOT / "tests" / "goldens" / "kernel_contract.json.gz"
MEASURE = 200_000
KEEP = 400


def b64(a) -> str:
    a = np.ascontiguousarray(a)
    return base64.b64encode(a.astype(a.dtype.newbyteorder("<")).tobytes()).decode()


def specials(domain, dtype):
    info = np.finfo(dtype)
    lo, hi = domain
    values = [0.0, -0.0, info.tiny, -info.tiny, info.smallest_subnormal, 1e-30, -1e-30, 1e-8, -1e-8, 0.5, -0.5,
              1.0, -1.0, 2.0, -2.0, lo, hi, np.nextafter(dtype(lo), dtype(hi)), np.nextafter(dtype(hi), dtype(lo)),
              info.max, -info.max, np.inf, -np.inf, np.nan]
    return np.array(values, dtype=dtype)


def arguments(case, dtype, n, seed):
    rng = np.random.default_rng(seed)
    lo, hi = case.domain
    uniform = rng.uniform(lo, hi, n // 2)
    normal = np.clip(rng.standard_normal(n - n // 2) * min(3.0, (hi - lo) / 4), lo, hi)
    return np.concatenate([specials(case.domain, dtype), uniform.astype(dtype), normal.astype(dtype)])


def torch_result(case, x):
    t = torch.from_numpy(x.copy()).requires_grad_(case.grad)
    y = case.torch(torch, t)
    if not case.grad:
        return y.detach().numpy()
    y.sum().backward()
    return t.grad.numpy()


def gradcli_result(case, x, bits):
    with kernels.bits(bits):
        t = E.Tensor(x.copy(), requires_grad=case.grad)
        y = case.gradcli(E, t)
        if not case.grad:
            return y.array
        E.ops.sum(y).backward()
        return t.grad.array


def main():
    golden = {"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(), "cases": {}}
    print(f"{'op':<22}{'dtype':<9}{'fast max':>9}{'differ':>9}{'torch max':>10}   stated fast / torch")
    for name, case in CASES.items():
        for dtype in (np.float32, np.float64):
            key = f"{name}/{np.dtype(dtype).name}"
            x = arguments(case, dtype, MEASURE, seed=len(golden["cases"]))
            expected = torch_result(case, x)
            floor = 1.0 if case.grad else None
            fast = ulps(gradcli_result(case, x, "fast"), expected, floor)
            exact = ulps(gradcli_result(case, x, "torch"), expected, floor)
            nspecial = len(specials(case.domain, dtype))
            worst = nspecial + np.argsort(-fast[nspecial:], kind="stable")[:KEEP // 2]
            rest = np.arange(nspecial, nspecial + KEEP // 2)
            keep = np.unique(np.concatenate([np.arange(nspecial), worst, rest]))
            # torch again on the kept arguments alone: which elements its loop computes on the scalar path
            # depends on the tensor's length, and the test evaluates these as one tensor
            golden["cases"][key] = {"x": b64(x[keep]), "torch": b64(torch_result(case, x[keep])),
                                    "measured_fast_ulps": int(fast.max()), "measured_torch_ulps": int(exact.max()),
                                    "fast_differs": float(np.mean(fast > 0)), "arguments": int(x.size)}
            print(f"{name:<22}{np.dtype(dtype).name:<9}{int(fast.max()):>9}{np.mean(fast > 0):>9.2%}"
                  f"{int(exact.max()):>10}   {FAST_ULPS.get(key)} / {TORCH_ULPS.get(key, 0)}")
    OUT.write_bytes(gzip.compress(json.dumps(golden, indent=0).encode(), mtime=0))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
