"""Generate tests/goldens/float32_kernels.json: PyTorch 2.13's own float32 results for the kernels of
gradcli/engine/kernels/float32.py - sin, cos and sqrt (MKL's vector math), pow (glibc's and SLEEF's powf), and the
matrix and vector products whose MKL summation order gradcli reproduces - on inputs chosen to be hard:
values near multiples of pi/2, where torch's float32 quotient picks the other side, where MKL's double value
lies within 1e-12 of a rounding boundary (found with the polynomial of float32_kernels), zeros, subnormals,
nan and inf, and the tutorial programs' own tensors.  tests/engine/test_float32_kernels.py asserts gradcli
gives every bit where the kernel claims to (and stays within an ulp where it does not).
Dev-only: the test suite never imports torch.

    python scripts/make_float32_kernel_goldens.py

Arrays are stored as base64 of their little-endian float32 bytes.
"""

from __future__ import annotations

import base64
import json
import math
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from gradcli.engine.kernels import float32 as K  # noqa: E402  (only to find inputs near rounding boundaries)

OUT = ROOT / "tests" / "goldens" / "float32_kernels.json"
F32 = np.float32


def b64(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f4").tobytes()).decode()


def neighbours(x, ulps=2):
    bits = np.asarray(x, F32).view(np.int32)
    return np.concatenate([(bits + d).view(F32) for d in range(-ulps, ulps + 1)])


def double_value(fn, x):
    """MKL's double value before rounding, as float32_kernels evaluates it (fast path only)."""
    x = np.abs(x) if fn == "cos" else x
    if fn == "sin":
        k = np.rint((x * K._INV_PI_F32).astype(np.float64))
        p = K._odd_poly(K._reduced(x, 2 * k))
        return np.where(np.fmod(k, 2) != 0, -p, p)
    k = np.rint(((x + K._HALF_PI_F32) * K._INV_PI_F32).astype(np.float64)) - 1
    p = K._odd_poly(K._reduced(x, 2 * k + 1))
    return np.where(np.fmod(k, 2) == 0, -p, p)


def near_boundaries(fn, lo, hi, tol, rng, count):
    """float32 x in [lo, hi) whose double value lies within tol (relative) of a float32 rounding boundary."""
    found = []
    a, b = int(F32(lo).view(np.int32)), int(F32(hi).view(np.int32))
    for start in range(a, b, 1 << 24):
        x = np.arange(start, min(start + (1 << 24), b), dtype=np.int32).view(F32)
        p = double_value(fn, x)
        f = p.astype(F32)
        other = np.where(p > f, np.nextafter(f, F32(np.inf)), np.nextafter(f, F32(-np.inf)))
        mid = (f.astype(np.float64) + other.astype(np.float64)) / 2
        found.append(x[np.abs(p - mid) < tol * np.abs(p)])
    found = np.concatenate(found)
    return found if found.size <= count else rng.choice(found, count, replace=False)


def trig_inputs(fn, rng):
    half_pi_multiples = (np.arange(0, 6367, 9) * (np.pi / 2)).astype(F32)
    groups = {
        "grid": np.linspace(-10, 10, 4001, dtype=F32),
        "tutorial": torch.linspace(-math.pi, math.pi, 2000).numpy(),
        "random": rng.uniform(-10000, 10000, 4000).astype(F32),
        "half_pi_multiples": neighbours(half_pi_multiples),
        "near_boundaries": np.concatenate([near_boundaries(fn, 1e-4, 1.5707964, 1e-12, rng, 1500),
                                           near_boundaries(fn, 1.5707964, 10000, 1e-12, rng, 1500)]),
        "quotient_ties": np.array([7428.29638671875, 3279.822998046875, 3710.22119140625, 6465.39794921875,
                                   6911.50439453125, 7326.1943359375, 8256.1064453125, 8840.4423828125,
                                   8922.1240234375, 9041.5048828125, 9368.23046875, 192.2122344970703,
                                   206.96104431152344], F32),
        "edges": np.array([0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-40, 1.17549435e-38, 1e-30, 1e-20, 1e-10, 1e-5,
                           1e-3, 0.1, 1.0, 10000.0, -10000.0, 9999.999, np.nan], F32),
    }
    groups["negated"] = -np.concatenate([groups["near_boundaries"], groups["quotient_ties"]])
    beyond = {"beyond": np.concatenate([rng.uniform(10000, 1e6, 2000), np.exp(rng.uniform(np.log(1e6), 88, 1000)),
                                        [np.inf, -np.inf, 3.4e38, -3.4e38, 10000.0009765625]]).astype(F32)}
    return groups, beyond


def trig(fn, rng):
    exact, beyond = trig_inputs(fn, rng)
    torch_fn = getattr(torch, fn)
    out = {}
    for kind, groups in (("exact", exact), ("within_an_ulp", beyond)):
        for name, x in groups.items():
            x = np.asarray(x, F32)
            out[name] = {"claim": kind, "x": b64(x), "torch": b64(torch_fn(torch.from_numpy(x)).numpy())}
    return out


def strided(a):
    """The same values every other element of a buffer: torch's loop then computes each one at a time."""
    return torch.from_numpy(np.stack([a, a], -1))[..., 0]


def pow_cases(rng):
    cases = {}
    x = torch.linspace(-math.pi, math.pi, 2000)
    xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))  # the nn tutorial's (x, x^2, x^3): scalar lanes
    cases["tutorial"] = {"claim": "exact", "layout": "tutorial", "x": b64(x.numpy()), "torch": b64(xx.numpy())}
    n = 3000 + 19  # not a multiple of 32: the tail of torch's vectorised loop is computed one at a time
    base = (np.exp(rng.uniform(-5, 5, n)) * np.where(rng.random(n) < 0.5, -1, 1)).astype(F32)
    for name, y in (("integer_exponents", rng.integers(-4, 6, n).astype(F32)),
                    ("real_exponents", rng.uniform(-6, 6, n).astype(F32))):
        xs = np.abs(base) if name == "real_exponents" else base
        # vector lanes: SLEEF's powf, reproduced exactly; scalar lanes: glibc's powf, within an ulp
        cases[name + "_contiguous"] = {"claim": "exact_but_tail", "layout": "contiguous", "x": b64(xs), "y": b64(y),
                                       "torch": b64(torch.pow(torch.from_numpy(xs), torch.from_numpy(y)).numpy())}
        cases[name + "_strided"] = {"claim": "within_an_ulp", "layout": "strided", "x": b64(xs), "y": b64(y),
                                    "torch": b64(torch.pow(strided(xs), strided(y)).numpy())}
    for exponent in (2.7, 1.5, 4.0, -3.0, 0.1, 1 / 3, 7.0):  # a number exponent: both lanes exact
        xs = np.abs(base)
        cases[f"number_exponent_{exponent:.4g}"] = {
            "claim": "exact", "layout": "number", "exponent": exponent, "x": b64(xs),
            "torch": b64((torch.from_numpy(xs) ** exponent).numpy())}
    y = rng.uniform(-6, 6, n).astype(F32)
    cases["number_base_1.7"] = {"claim": "exact", "layout": "number_base", "base": 1.7, "y": b64(y),
                                "torch": b64(torch.pow(1.7, torch.from_numpy(y)).numpy())}
    special = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45,
                        3e38, 1e-38, 2.0 ** 24 + 2, 2.0 ** 25], F32)
    sx, sy = (np.tile(a.ravel(), 2) for a in np.meshgrid(special, special))  # 648: vector lanes and a tail
    cases["special_contiguous"] = {"claim": "exact", "layout": "contiguous", "x": b64(sx), "y": b64(sy),
                                   "torch": b64(torch.pow(torch.from_numpy(sx), torch.from_numpy(sy)).numpy())}
    cases["special_strided"] = {"claim": "exact", "layout": "strided", "x": b64(sx), "y": b64(sy),
                                "torch": b64(torch.pow(strided(sx), strided(sy)).numpy())}
    return cases


def sqrt_cases(rng):
    """float32 sqrt: MKL's refinement of rsqrtps rounds the other way where the exact root lies more than a
    quarter ulp from the float32 it rounds to - those inputs, every group of seeds, and the edges."""
    x0 = np.arange(0x3F800000, 0x40800000, dtype=np.uint32).view(F32)
    exact = np.sqrt(x0.astype(np.float64))
    nearest = np.sqrt(x0)
    off_quarter = np.abs(exact - nearest) > 0.25 * np.spacing(nearest).astype(np.float64)
    scales = np.float32(4.0) ** rng.integers(-62, 63, 4000).astype(F32)
    groups = {
        "near_boundaries": rng.choice(x0[off_quarter], 6000, replace=False),
        "every_seed": x0[rng.integers(0, 2048, 8192) + np.arange(8192) * 2048],  # one float per rsqrtps seed
        "scaled": rng.choice(x0[off_quarter], 4000, replace=False) * scales,  # the same, times 4**k
        "random": np.exp(rng.uniform(-87, 88, 4000)).astype(F32),
        "tutorial": np.abs(torch.randn(2000, generator=torch.Generator().manual_seed(0)).numpy()) * 1e-3,
        "edges": np.array([0.0, -0.0, -1.0, 1e-45, 1e-40, 1.1754942e-38, 1.17549435e-38, 1.1754944e-38, 2e-38,
                           3.4028235e38, 3.4e38, 3.39e38, 1.0, 4.0, 2.0, np.inf, -np.inf, np.nan], F32),
    }
    return {name: {"claim": "exact", "x": b64(x), "torch": b64(torch.sqrt(torch.from_numpy(x)).numpy())}
            for name, x in ((name, np.asarray(x, F32)) for name, x in groups.items())}


def sqrt64_cases(rng):
    """float64 sqrt: MKL's value is within 0.03 ulp of the exact root, so it differs from the correctly rounded
    one near midpoints between doubles - roots within 0.03 ulp of one, random values and the edges."""
    x = rng.uniform(1, 4, 4_000_000)
    root = np.sqrt(x)
    exact = np.sqrt(x.astype(np.longdouble))  # 64 bits: the distance to the midpoint to 2**-11 ulp
    near = np.abs(((exact - root) / np.spacing(root)).astype(np.float64)) > 0.47
    groups = {
        "near_midpoints": rng.choice(x[near], 6000, replace=False),
        "random": rng.uniform(1, 4, 6000),
        "wide": np.exp(rng.uniform(-745, 709.7, 6000)),
        "edges": np.array([0.0, -0.0, -1.0, 5e-324, 2.2250738585072014e-308, 2.0 ** -960, 2.0 ** 1022,
                           np.nextafter(2.0 ** 1022, 0), 1.7976931348623157e308, 1.0, 2.0, 4.0, np.inf, -np.inf,
                           np.nan]),
    }
    return {name: {"claim": "exact", "x": b64_f8(x), "torch": b64_f8(torch.sqrt(torch.from_numpy(x)).numpy())}
            for name, x in groups.items()}


def gamma_cases(rng):
    """digamma and its derivative polygamma(1, x), as torch's scalar kernels compute them (Math.h's float and
    double overloads, with the C library's log, tan and sin, multiply-adds fused): near digamma's root at
    1.4616 (where float32 cancellation shows), negatives (the reflection), small, large and edge values."""
    x = np.concatenate([rng.uniform(1.40, 1.52, 3000), rng.uniform(-20, 0.5, 3000), rng.uniform(0.01, 50, 3000),
                        np.exp(rng.uniform(-20, 40, 2000)),
                        [0.0, -0.0, -1.0, -2.5, 0.5, 10.0, 9.999999, 1e-40, 3e38, np.inf, -np.inf, np.nan]])
    cases = {}
    for name, dtype, encode in (("float32", F32, b64), ("float64", np.float64, b64_f8)):
        xs = torch.from_numpy(x.astype(dtype))
        cases[name] = {"x": encode(xs.numpy()), "digamma": encode(torch.digamma(xs).numpy()),
                       "trigamma": encode(torch.polygamma(1, xs).numpy())}
    return cases


def exp_kernel_cases(rng):
    """sigmoid and silu, forward and backward, in float32 and float64: SLEEF's exp on the vector lanes (32
    floats or 16 doubles a step), the C library's on the tail; sizes below, at and past a step, and edges."""
    cases = {}
    for dtype, encode in ((F32, b64), (np.float64, b64_f8)):
        for n in (5, 32, 47, 1000):
            x = np.concatenate([rng.uniform(-12, 12, n - 5), [0.0, -710.0, 120.0, -120.0, 710.0]]).astype(dtype)
            g = rng.uniform(-1, 1, n).astype(dtype)
            for name, fn in (("sigmoid", torch.sigmoid), ("silu", torch.nn.functional.silu)):
                xt = torch.from_numpy(x).requires_grad_()
                y = fn(xt)
                y.backward(torch.from_numpy(g))
                cases[f"{name}_{np.dtype(dtype).name}_{n}"] = {
                    "op": name, "dtype": np.dtype(dtype).name, "x": encode(x), "g": encode(g),
                    "torch": encode(y.detach().numpy()), "torch_grad": encode(xt.grad.numpy())}
    return cases


def exp64_cases(rng):
    """exp: MKL's table-driven kernels (float64: 4.5% of arguments differ from the correctly rounded value;
    float32, the group of that name: 1%)."""
    groups = {"random": rng.uniform(-20, 20, 8000), "wide": rng.uniform(-708, 708, 4000),
              "float32": rng.uniform(-87.3, 87.3, 8000).astype(F32),
              "small": rng.uniform(-1e-3, 1e-3, 2000) * np.exp(rng.uniform(-30, 0, 2000)),
              "edges": np.array([0.0, -0.0, 1.0, -1.0, 708.0, -708.0, 708.39, -708.39, np.inf, -np.inf, np.nan])}
    return {name: {"claim": "exact", "dtype": str(x.dtype), "x": (b64 if x.dtype == F32 else b64_f8)(x),
                   "torch": (b64 if x.dtype == F32 else b64_f8)(torch.exp(torch.from_numpy(x)).numpy())}
            for name, x in groups.items()}


def lgamma64_cases(rng):
    """float64 lgamma (SLEEF's in torch; the C library's in gradcli, within a few ulps), near the zeros at 1 and
    2 where Python's math.lgamma was 1e5 ulps off, negatives, and a wide range."""
    x = np.concatenate([1 + rng.uniform(-1e-3, 1e-3, 1500), 2 + rng.uniform(-1e-3, 1e-3, 1500),
                        rng.uniform(-20, 0, 1500), rng.uniform(0.01, 50, 1500), np.exp(rng.uniform(-30, 200, 500))])
    return {"x": b64_f8(x), "torch": b64_f8(torch.lgamma(torch.from_numpy(x)).numpy())}


def b64_f8(a) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype="<f8").tobytes()).decode()


def layout(arr, transposed):
    return torch.from_numpy(np.ascontiguousarray(arr.T)).t() if transposed else torch.from_numpy(arr)


def product_cases(rng):
    cases = []

    def normal(*shape):
        return rng.standard_normal(shape).astype(F32)

    def mm(m, k, n, ta, tb, label):
        a, b = normal(m, k), normal(k, n)
        cases.append({"op": "mm", "label": label, "a": b64(a), "a_shape": [m, k], "a_t": ta, "b": b64(b),
                      "b_shape": [k, n], "b_t": tb, "torch": b64(torch.mm(layout(a, ta), layout(b, tb)).numpy())})

    # a column result with a transposed A (torch's A row-major): MKL sums in order while k <= 4
    for m in (1, 2, 3, 16, 100, 2000):
        for k in ((1, 2, 3, 4) if m < 2000 else (3,)):
            mm(m, k, 1, False, True, "column, A row-major")
            mm(m, k, 1, False, False, "column, A row-major, B contiguous")
    # a column result with A column-major (a transposed view, as a weight gradient's input.t()): any k
    for m, k in ((2, 5), (3, 16), (4, 100), (16, 100), (100, 16), (3, 1000), (2, 4000), (5, 8), (17, 33)):
        mm(m, k, 1, True, False, "column, A column-major")
        mm(m, k, 1, True, True, "column, A column-major, B a row's transpose")
    # a row result (1, n): torch swaps the operands, and b is read column-major
    for n in (2, 3, 16):
        for k in (1, 2, 3, 4, 16, 100):
            mm(1, k, n, False, False, "row")
    # a single entry: k <= 5
    for k in (1, 2, 3, 4, 5):
        mm(1, k, 1, False, False, "one entry")
    # linear(3 -> 1) as the tutorials and the optimizer tour use it: forward, then the weight gradient
    for rows in (16, 2000):
        x, w, bias, g = normal(rows, 3), normal(1, 3), normal(1), normal(rows, 1)
        wt = torch.from_numpy(w).requires_grad_()
        bt = torch.from_numpy(bias).requires_grad_()
        y = torch.nn.functional.linear(torch.from_numpy(x), wt, bt)
        y.backward(torch.from_numpy(g))
        cases.append({"op": "linear", "label": "linear 3->1", "x": b64(x), "x_shape": [rows, 3], "w": b64(w),
                      "bias": b64(bias), "g": b64(g), "torch": b64(y.detach().numpy()),
                      "torch_weight_grad": b64(wt.grad.numpy()), "torch_bias_grad": b64(bt.grad.numpy())})
    # mv: sgemv on the matrix as stored
    for rows in (1, 2, 3, 16, 2000):
        for k in ((1, 2, 3, 4) if rows < 2000 else (3,)):
            a, v = normal(rows, k), normal(k)
            cases.append({"op": "mv", "label": "mv row-major", "a": b64(a), "a_shape": [rows, k], "a_t": False,
                          "b": b64(v), "b_shape": [k], "b_t": False,
                          "torch": b64(torch.mv(torch.from_numpy(a), torch.from_numpy(v)).numpy())})
        for k in (5, 8, 100, 2000):
            if 2 <= rows and rows * k <= 4000:
                a, v = normal(rows, k), normal(k)
                cases.append({"op": "mv", "label": "mv column-major", "a": b64(a), "a_shape": [rows, k],
                              "a_t": True, "b": b64(v), "b_shape": [k], "b_t": False,
                              "torch": b64(torch.mv(layout(a, True), torch.from_numpy(v)).numpy())})
    for k in (1, 2, 3):
        for _ in range(20):
            a, v = normal(k), normal(k)
            cases.append({"op": "dot", "label": "dot", "a": b64(a), "a_shape": [k], "a_t": False, "b": b64(v),
                          "b_shape": [k], "b_t": False,
                          "torch": b64(np.array([torch.dot(torch.from_numpy(a), torch.from_numpy(v)).item()]))})
    # products of -0.0 only: mm stores 0 * C + sum (+0.), addmm C + sum (-0. + -0.)
    a, b = np.full((4, 3), -1, F32), np.zeros((3, 1), F32)
    cases.append({"op": "mm", "label": "signed zero", "a": b64(a), "a_shape": [4, 3], "a_t": False, "b": b64(b),
                  "b_shape": [3, 1], "b_t": True, "torch": b64(torch.mm(layout(a, False), layout(b, True)).numpy())})
    return cases


def main():
    rng = np.random.default_rng(20240605)
    golden = {"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
              "mkl": torch.backends.mkl.is_available(), "sin": trig("sin", rng), "cos": trig("cos", rng),
              "pow": pow_cases(rng), "products": product_cases(rng), "sqrt": sqrt_cases(rng),
              "sqrt64": sqrt64_cases(rng), "gamma": gamma_cases(rng),
              "exp_kernels": exp_kernel_cases(rng), "exp64": exp64_cases(rng),
              "lgamma64": lgamma64_cases(rng)}
    OUT.write_text(json.dumps(golden, indent=0) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
