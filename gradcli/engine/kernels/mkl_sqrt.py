"""torch.sqrt of float32 and float64 arrays, to the bit.

torch's CPU build hands sqrt of a whole tensor to MKL's vector math (aten/src/ATen/cpu/vml.h: vmsSqrt and
vmdSqrt with VML_HA), and MKL's kernels on this CPU (AMD EPYC, AVX512; MKL 2024.2 picks its SSE/AVX2 code,
mkl_vml_kernel_sSqrt_H8HAynn and dSqrt_H8HAynn, read from libtorch_cpu.so) are not correctly rounded: both
start from the CPU's 12-bit `rsqrtps` estimate y of 1/sqrt(x) and refine it.

- float32 (_sqrt32): Newton steps in float32, each operation rounded; the result differs from the correctly
  rounded root on 17% of [1, 4) (wherever the exact root lies more than a quarter ulp from it, about every
  other time).
- float64 (_sqrt64): the estimate of x's leading float32 bits, then e = 1 - x*y*y and a cubic in e for
  (1 - e)**-0.5 - 1, in double, with x split so its products are exact: within 0.03 ulp of the exact root
  before the last additions, which round it the other way on about 1.4% of arguments.

rsqrtps depends on the exponent's parity and the top 12 mantissa bits only, and scales exactly with the
exponent, so its 8192 values on [1, 4) are all the kernels need.  They are stored as offsets (0-3 steps of
2**-12) from 1/sqrt of each group's midpoint, fitted to torch's float32 and float64 results by
scripts/make_sqrt_seeds.py; with them _sqrt32 agrees with torch on all 2**32 floats (--verify) and
_sqrt64 on every double tried (tests/goldens/float32_kernels.json, "sqrt" and "sqrt64").  Zero, subnormals,
negatives, inf, nan and the largest values take MKL's other path: the correctly rounded root (nan positive).
"""

from __future__ import annotations

import base64

import numpy as np

from gradcli.engine.kernels import loops, native

F32, F64 = np.float32, np.float64

_RSQRT_SEED_OFFSETS = (
    "AABVVQAAVVUAAFVVVQFVVQAAVVUAABUAAABVVVUFVVUAAFUAAABVFQAAVVUAAFVVAABVFQAAVQAAAAEAVQFVVQFVVVUAFQBVBVVV"
    "VQABABUAVQBVAVUFVRVVFVUVVVVVVVUVVRVVFVUFVQFVAVUAFQAFAAAVVQVVABUAAVVVBVVABVVQRVVVVUAABVBAARVQQQVVUEEF"
    "VVBBFVVQQQUVUEAFFVBAAQUQVVVVUUUVVVBAAQUAVVVVUEEBBQBVFVVQQFBRUUFVVVUAEBAQAFBQUEBQUFBAUFBQQFBQUEBQUFBA"
    "UFBQABAQEFVVVVVFUVFRQFAQEFVVVVVBUVBQVWVVVQABQBAUBUVRVBVVVQQBQBAEBUFQFAVFUVQVRVFVFUVVVRVFVVUVRVVVFUVR"
    "VBVFURQFQRAEBUEQWVZVVVUVRVEQBFEUVVVVVRAEURRVVWVVEARRFFUUVVUQABAEUQRRFFUUVVVVVWVVEAQQBBEEEQRRBFEEUQRR"
    "BFEEUQRRBFEEVVVWVRVVVVUUUVVRBFFFEQQQQRBVVVZVFFFFEQQQQQAVVVVRBBFFEFVVVlUEEUUQVVVVUQQRQQAVUUURVVVWUUQV"
    "UUVUFVVVVVlVVkAEEAFEBBFBRBQRRUQUEUVEFRFFRBURRUQUEUFEFBFBRAQQAUAEAAFVWVVFVRVRRUQUEQFVVVVmEVFVVQARERFV"
    "VVVlERERVVVVVWYREVFVVVVVZhEREVFVVVVVABERERERVVVVVVVVABERERERERERVVVVREREREREREREVVVVVVVVVVVVVVVVVVVV"
    "VVVVVVVVVVVVVVVVVVVVVVVVRURERERERERERJmZVVVVVVVVVVVVREREVVVEBBERVVVmVkREVVVEABERVVVVVUREERFVVVZVREQV"
    "EVVVVlVERBERVUVVVUQAERFFRFURVVVWVUQAEREBREQQEVVEVBVVVVRVWVVlAUQEEBFERBQRVURUEVVFVBVVVVRVVVVUVVVVVVVV"
    "VVVVWVVVVVVVVVVVVVRVVVVUBBFFRAARRAQAAUQAVVVZVUVVVVVEFVVFBBFFRAABRABVVVVVRBVVRAQRRARVVVlVRBVVRAARRABV"
    "VVVFRBFFBFVUVWVEEEFUVVVVZUQQQRRVVVVlRBBBFFVUUVUEEEAQRRRRVFVVVWVEEEEURRRRVFVVVWVEEEAQRRRRFFVUUVUAAQQQ"
    "BBFEEEURRRRFFVUUVVVVVFVWVVVZVllVBBEEEAQRRBBEEUQQRBFEEEQRRRBFEUUQRRFEEEQRRBBEEUQQFFUUVRRVFEUURRRFEEUQ"
    "RBBEEARlWVVZVVVVVVRVFFUURRRFEEQQBGVZVVVVVVRVFEUURRBEEARVVVVVFFUURRAERVFRFFVVUVVVVQAAQBAAAEAQVVWVZVVV"
    "VVVVVVVVURRFURAEQRBVVVVVURRFURAEQRBVVUVREARBEFEURVEEURRFFFVVRVVlVVUEEAQABBEEAQQRBAEEEQQBBBEEAQQQBABV"
    "ZVVFVVUVRRRRFEEEEQQAVVUVRRRRBAFZZRVFFFFFVQQAAUQEEUVUFVVVVQQAAUQEEUFEFBFFRBVRRVQVVUVVVVVFVVVVRVVVVUVV"
    "FVVFVBVRRUQVEUFEBBEBQAQAEBEVVVVVFBERVQQAEBEVEVVVBAARERURVVUEABARFRERVVlVVVUEEBERFREREVlVVVUEAAAABAAQ"
    "ERURERFVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVUVEREREREREREQEAAAAVVVVVURERERERAAAVVVVRURERERVVVVVQUREVFFV"
    "VWVBREQUUVVVVUBEBBBRRURUVVVVVUBEABBRREQUUVVFVFVVVVVABAAQQEQAEEFEBBBRREQQUUREEFVVVVVVVVVVVVRVVVVUFVVF"
    "VBFVRBQRRUQQEUQEEAFEVVVVVVVUFVVEFBFEBBABBFVVFVVFFBFEBBAABFVUEVVEEEEEVVVVVUQQQQRVVVVVRBBBBFVUUUUEEEAA"
    "RRRRRFVVVVVEEEAARRRRRFVVUUUEEEAARBBBBEUUUQRVVFFEEEEQQRRBFFEUUVRRVFFUUVRRVVFVUVVRVVFVUVVRVVFVUVVRVVFU"
    "UVRRVFEUURRRFEEUQRBBEEAQQBAAZVVVUUVRVFUEURRFAEEQRFVVVVlFURRVBEEQRQAAAARFURRVBEEQBFVVVVUEURRFAAAABEVR"
    "FEUAQBAERVEURQAAEARFURRFVVVVVQRBEEVVVVVVBEEQBEVRFEVVVVVVBEEQBEVRFEVVVVVVBEEQAARBEARFURRFVVVVRVVVVVUE"
    "QRAEAQAABEEQBAVBEARFURAERVEUBUVRFEVVURRFVVUURVVVFEVVVRRFVVUURVVVFEVVURRFRVEURUVRFARFURAERQAABAFVVVVV"
    "FUVVVRRFRVEUBEVBEAQEQQAABABVRVVVFEVFURAEBUEAAAQAVUVVURQFRUEQAAQBVUVVURQFRUEQAAQAFUVVURQEBUFVVVVVFAVF"
    "QRAABAAVRUVREAQEABVFRVEQBAQAFUVFURAEBAAVRUVBEAAEABQFRUFVVVVRBAQFBUVFRVUAAAQEBAUFRUVFVVUABAQEBAUFRUVF"
    "VVUAAAQEBAQFBQVFRUVFVVVVAAQEBAQFBQUFRUVFRUVVVQAAAAAEBAQEBAQFBQUFBUVFRUVFRUVFVVVVVVUAAAAABAQEBAQEBAQE"
    "BAQEBAQFBQUFBQUFBQUFBQUFBQUFBQU="
)
_rsqrt_seeds_cache: list[np.ndarray] = []


def rsqrt_seed_base() -> np.ndarray:
    """Bits of float32(1/sqrt(m)), cut to 12 mantissa bits, for the midpoint m of each of the 8192 groups of
    floats in [1, 4) that share their exponent and top 12 mantissa bits."""
    midpoints = (np.uint32(0x3F800000) + (np.arange(8192, dtype=np.uint32) << 11) + np.uint32(0x400)).view(F32)
    return (1 / np.sqrt(midpoints.astype(F64))).astype(F32).view(np.uint32) & np.uint32(0xFFFFF800)


def rsqrt_seeds(offsets: np.ndarray | None = None) -> np.ndarray:
    """The 8192 estimates as int32 bits of float32 (from the stored offsets, or from `offsets` when fitting)."""
    if offsets is not None:
        return (rsqrt_seed_base() + (offsets.astype(np.uint32) << 11)).view(np.int32)
    if not _rsqrt_seeds_cache:
        packed = np.frombuffer(base64.b64decode("".join(_RSQRT_SEED_OFFSETS)), np.uint8)
        _rsqrt_seeds_cache.append(rsqrt_seeds(np.stack([(packed >> s) & 3 for s in (0, 2, 4, 6)], axis=1).ravel()))
    return _rsqrt_seeds_cache[0]


def sqrt(x: np.ndarray) -> np.ndarray:
    """torch.sqrt of a float32 or float64 array (numpy's for any other dtype)."""
    dtype = getattr(x, "dtype", None)
    compiled = native.mkl_sqrt() if dtype in (F32, F64) else None
    if compiled is not None:  # the same operations compiled (native_math.c)
        return compiled(x, rsqrt_seeds())
    if dtype == F32:
        return loops.in_blocks(lambda block: _sqrt32(block, rsqrt_seeds()), np.asarray(x))
    if dtype == F64:
        return loops.in_blocks(lambda block: _sqrt64(block, rsqrt_seeds()), np.asarray(x))
    return np.sqrt(x)


# -- float32 --------------------------------------------------------------------------------------------------

def _refined32(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """MKL's refinement of the estimate y ~ 1/sqrt(x), operation by operation (float32, each op rounded)."""
    half = F32(0.5)
    s, h = x * y, y * half
    e = half - s * h
    s, h = s * e + s, h * e + h
    return (x - s * s) * h + s


def _sqrt32(x: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=F32)
    bits = x.view(np.int32)
    exponent = (bits >> 23) & 0xFF
    with np.errstate(all="ignore"):
        # y = the seed of x's group in [1, 4), scaled by 2**-k for x = 4**k * x0
        seed = seeds[(((exponent + 1) & 1) << 12) | ((bits >> 11) & 0xFFF)]
        y = (seed - (((exponent - 127) >> 1) << 23)).view(F32)
        out = np.asarray(_refined32(x, y))
    special = (bits < 0x00800000) | (bits >= 0x7F7FF001)  # zero, subnormal, negative (sign bit), inf, nan, huge
    if special.any():
        out[special] = _special(x[special])
    return out


# -- float64 --------------------------------------------------------------------------------------------------

# the cubic of (1 - e)**-0.5 - 1 = e * (C1 + C2 e + C3 e**2 + C4 e**3), MKL's coefficients (from its data)
_C1, _C2, _C3, _C4 = (float.fromhex(h) for h in ("0x1.ffffffffffe71p-2", "0x1.80000000000f6p-2",
                                                 "0x1.40000b13001d9p-2", "0x1.1800032338cbbp-2"))
_HIGH_26_BITS = np.int64(-(1 << 27))  # 0xfffffffff8000000: sign, exponent and the mantissa's top 25 bits


def _refined64(x0: np.ndarray, y: np.ndarray) -> np.ndarray:
    """MKL's float64 refinement of the estimate y ~ 1/sqrt(x0), operation by operation (each rounded).  x0 is
    split into 26 and 27 significant bits, so that its products with y (12 bits) and y * y (24) are exact."""
    x_hi = (x0.view(np.int64) & _HIGH_26_BITS).view(F64)
    x_lo = x0 - x_hi
    w = y * y
    e = (1.0 - x_hi * w) - x_lo * w
    t = (((e * _C4 + _C3) * e + _C2) * e + _C1) * e
    return x_hi * y + (x_lo * y + (t * y) * x0)


def _sqrt64(x: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=F64)
    bits = x.view(np.int64)
    exponent = (bits >> 52) & 0x7FF
    half_k = (exponent - 1023) >> 1
    with np.errstate(all="ignore"):
        # MKL scales y by 2**-k; here x is scaled into [1, 4) instead and the root back (exact either way)
        x0 = x * ((1023 - 2 * half_k) << 52).view(F64)
        y = seeds[(((exponent + 1) & 1) << 12) | ((bits >> 40) & 0xFFF)].view(F32).astype(F64)
        out = np.asarray(_refined64(x0, y) * ((1023 + half_k) << 52).view(F64))
    high = bits >> 32
    special = (high < 0x00100000) | (high >= 0x7FD00000)  # zero, subnormal, negative, inf, nan, >= 2**1022
    if special.any():
        out[special] = _special(x[special])
    return out


def _special(x: np.ndarray) -> np.ndarray:
    """MKL's path for the arguments its kernels leave out: the correctly rounded root, and a positive nan for a
    negative argument (numpy's is negative)."""
    return np.where(x < 0, x.dtype.type(np.nan), np.sqrt(x))
