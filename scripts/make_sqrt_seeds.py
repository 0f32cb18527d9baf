"""Fit the rsqrt seeds of gradcli/engine/kernels/mkl_sqrt.py to PyTorch 2.13's own float32 and float64 sqrt.

torch hands sqrt to MKL's vector math, whose kernels on this CPU start from the CPU's `rsqrtps` estimate -
12 bits, a function of the exponent's parity and the top 12 mantissa bits, so 8192 values - and refine it
(sqrt_kernel's docstring).  The estimate is the one thing numpy cannot compute.  For each of the 8192 groups
of 2048 floats in [1, 4) this script tries the four 12-bit candidates from 1/sqrt of the group's midpoint up
and keeps the one with which both refinements give torch's sqrt: on every float32 of the group, and on 256
doubles of it (random, and squares of midpoints between doubles, where the float64 kernel's rounding is
decided).  It prints the offsets, two bits each, for _RSQRT_SEED_OFFSETS.  Dev-only (imports torch).

    python scripts/make_sqrt_seeds.py            # fit and print the constant
    python scripts/make_sqrt_seeds.py --verify   # and compare sqrt_kernel with torch on all 2**32 float32s
"""

from __future__ import annotations

import base64
import sys
import textwrap
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from gradcli.engine.kernels import mkl_sqrt as K  # noqa: E402

F32, F64 = np.float32, np.float64
GROUPS, WIDTH, DOUBLES = 8192, 2048, 256


def float64_samples(rng) -> np.ndarray:
    """(GROUPS, DOUBLES) doubles, each row inside its group: half random, half squares of midpoints."""
    low = np.arange(0x3F800000, 0x40800000, WIDTH, dtype=np.uint32).view(F32).astype(F64)[:, None]
    high = np.r_[low[1:, 0], 4.0][:, None]
    x = low + (high - low) * rng.random((GROUPS, DOUBLES))
    root = np.sqrt(x[:, DOUBLES // 2:])
    squares = (root + np.spacing(root) / 2) ** 2  # near the square of a midpoint between two doubles
    x[:, DOUBLES // 2:] = np.clip(squares, low, np.nextafter(high, 0))
    return x


def fit() -> np.ndarray:
    x32 = np.arange(0x3F800000, 0x40800000, dtype=np.uint32).view(F32).reshape(GROUPS, WIDTH)
    want32 = torch.from_numpy(x32.ravel().copy()).sqrt().numpy().reshape(x32.shape)
    x64 = float64_samples(np.random.default_rng(0))
    want64 = torch.from_numpy(x64.ravel().copy()).sqrt().numpy().reshape(x64.shape)
    fits = np.zeros((4, GROUPS), bool)
    for offset in range(4):
        seeds = K.rsqrt_seeds(np.full(GROUPS, offset))
        fits[offset] = (np.all(K._sqrt32(x32.ravel(), seeds).reshape(x32.shape) == want32, axis=1)
                        & np.all(K._sqrt64(x64.ravel(), seeds).reshape(x64.shape) == want64, axis=1))
    if not fits.any(axis=0).all():
        sys.exit(f"no 12-bit seed fits groups {np.flatnonzero(~fits.any(axis=0))[:10]}")
    ambiguous = np.flatnonzero(fits.sum(axis=0) > 1)
    print(f"{GROUPS - ambiguous.size} groups fit one seed, {ambiguous.size} several: {ambiguous}", file=sys.stderr)
    return np.argmax(fits, axis=0).astype(np.uint8)  # the lowest fitting offset


def verify() -> int:
    bad = 0
    with np.errstate(all="ignore"):
        for high in range(256):
            x = (np.arange(1 << 24, dtype=np.uint32) | np.uint32(high << 24)).view(F32)
            got, expected = K.sqrt(x), torch.from_numpy(x.copy()).sqrt().numpy()
            same = (got.view(np.uint32) == expected.view(np.uint32)) | (np.isnan(got) & np.isnan(expected))
            bad += int((~same).sum())
    print(f"sqrt_kernel.sqrt differs from torch.sqrt on {bad} of 2**32 float32s", file=sys.stderr)
    return bad


def main() -> None:
    offsets = fit()
    packed = (offsets[0::4] | offsets[1::4] << 2 | offsets[2::4] << 4 | offsets[3::4] << 6).astype(np.uint8)
    text = base64.b64encode(packed.tobytes()).decode()
    print("_RSQRT_SEED_OFFSETS = (")
    for line in textwrap.wrap(text, 100):
        print(f'    "{line}"')
    print(")")
    if "--verify" in sys.argv and verify():
        sys.exit(1)


if __name__ == "__main__":
    main()
