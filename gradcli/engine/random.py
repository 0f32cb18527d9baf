"""PyTorch's CPU random numbers, bit for bit (torch 2.13 on an x86-64 CPU).

PyTorch's CPU generator (aten/src/ATen/CPUGeneratorImpl.cpp) is a 32-bit mt19937 seeded with the low 32 bits
of the seed; numpy's MT19937 bit generator produces the same stream once given that state.  What PyTorch does
with the stream (aten/src/ATen/core/TransformationHelper.h, DistributionsHelper.h, native/cpu/
DistributionTemplates.h, avx_mathfun.h, TensorFactories.cpp) is reproduced here with numpy, vectorised:

- uniform: float32 takes the low 24 bits of one 32-bit draw, float64 the low 53 bits of a 64-bit one (two
  32-bit draws, the first the high half), times 2**-digits; `x * (to - from) + from` in double.
- normal, 16 elements or more (contiguous): all the uniforms first, then Box-Muller on blocks of 16 (the first
  8 against the next 8), the last 16 drawn again when the size is not a multiple of 16.  float64 uses libm's
  log (numpy's differs in the last bit now and then) and cos/sin; float32 the AVX2 kernel's own cephes-style
  log/sincos in float32 (avx_mathfun.h), emulated operation by operation.
- normal, fewer than 16 elements: one double Box-Muller pair per two values, the sine half cached in the
  generator for the next normal draw (also across calls).
- geometric_, cauchy_, log_normal_: a double per element in order (serial kernels), libm's log/tan/exp.
- poisson: sample_poisson per element (Knuth below rate 10, Hoermann's rejection from there), double draws.
- random_() without bounds: a draw modulo the type's max + 1 (2**digits + 1 for floats).
- rrelu (training): for each element <= 0 in order, one double uniform(lower, upper) without FMA.
- randint: `draw % range + low`, a 32-bit draw below 2**28 values, a 64-bit one from there; randperm: a
  Fisher-Yates shuffle with 32-bit draws; bernoulli (AMD CPUs and any CPU without MKL, as here): a double
  uniform against p.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import struct

import numpy as np

from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.kernels import libm
from gradcli.engine.kernels.fused import fma32 as _fma  # the FMAs the compiler fused the kernels' multiply-adds into
from gradcli.engine.tensor import Device, Tensor

MASK32 = 0xFFFFFFFF
CHUNK = 1 << 18  # values drawn (and transformed) at a time: bounded temporaries for a large tensor
DEFAULT_SEED = 67280421310721  # torch's default_rng_seed_val (only used before any seeding is possible)


def _mt19937_key(seed: int) -> np.ndarray:
    """std::mt19937's state after seeding with the low 32 bits of `seed` (init_genrand)."""
    key = [seed & MASK32]
    for j in range(1, 624):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + j) & MASK32)
    return np.array(key, dtype=np.uint32)


# a new torch.Generator() starts from c10's default_rng_seed_val (the default generator of a process does too,
# until torch.manual_seed or torch.seed)
NEW_GENERATOR_SEED = 67280421310721
STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState)


class Generator:
    """torch.Generator on the CPU: manual_seed, initial_seed, seed, and the draws the distributions use."""

    def __init__(self, seed: int | None = None):
        self._bits = None
        self.manual_seed(int.from_bytes(os.urandom(8), "little") if seed is None else seed)

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed)
        if not -(2 ** 63) <= seed < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed & 0xFFFFFFFFFFFFFFFF
        state = np.random.MT19937(0).state
        state["state"] = {"key": _mt19937_key(self._seed), "pos": 624}
        bits = np.random.MT19937(0)
        bits.state = state
        self._bits = bits
        self.next_double_normal = None  # the cached second value of a Box-Muller pair
        return self

    def initial_seed(self) -> int:
        return self._seed

    @property
    def device(self):
        return Device("cpu")

    def seed(self) -> int:
        """A fresh non-deterministic seed, as torch.seed()."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    # -- state (torch's CPUGeneratorImplState, 5056 bytes) ------------------------------------------------

    def get_state(self):
        """Generator.get_state / torch.get_rng_state: the state as torch's uint8 tensor, byte for byte (the
        legacy THGeneratorState: seed, mt19937's left/seeded/next and 624 words, the cached double normal;
        then the cached float normal, which gradcli's draws never leave)."""
        raw = self._bits.state["state"]
        key, pos = np.asarray(raw["key"], dtype=np.uint64), int(raw["pos"])
        fresh = pos == 624 and np.array_equal(key, _mt19937_key(self._seed))
        state = bytearray(STATE_BYTES)
        struct.pack_into("<QiiQ", state, 0, self._seed, 625 - pos, 1, 0 if fresh else pos)
        state[24:24 + 624 * 8] = key.astype("<u8").tobytes()
        cached = self.next_double_normal
        struct.pack_into("<dddi", state, 5016, 0.0, 0.0 if cached is None else cached, 0.0, cached is not None)
        return Tensor._make(np.frombuffer(bytes(state), dtype=np.uint8).copy(), None)

    def set_state(self, new_state) -> Generator:
        """Generator.set_state / torch.set_rng_state: back to a state get_state returned (torch's checks)."""
        if not isinstance(new_state, Tensor):
            raise TorchTypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.array.dtype != np.uint8:
            raise TorchTypeError("RNG state must be a torch.ByteTensor")
        data = np.ascontiguousarray(new_state.array).reshape(-1).tobytes()
        if len(data) != STATE_BYTES:
            raise TorchRuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_BYTES} but found the input "
                                    f"RNG state size to be {len(data)}")
        seed, left, _seeded, _next = struct.unpack_from("<QiiQ", data, 0)
        key = np.frombuffer(data[24:24 + 624 * 8], dtype="<u8").astype(np.uint32)
        _x, normal_y, _rho, normal_valid = struct.unpack_from("<dddi", data, 5016)
        state = self._bits.state
        state["state"] = {"key": key, "pos": min(max(625 - left, 0), 624)}
        self._bits.state = state
        self._seed = seed
        self.next_double_normal = normal_y if normal_valid else None
        return self

    # -- raw draws ---------------------------------------------------------------------------------------

    def random32(self, n: int) -> np.ndarray:
        return self._bits.random_raw(n).astype(np.uint64)

    def random64(self, n: int) -> np.ndarray:
        raw = self.random32(2 * n)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]

    # -- distributions -----------------------------------------------------------------------------------

    def uniform(self, n: int, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        """n values of uniform_real_distribution<dtype>(low, high), in dtype (drawn CHUNK at a time, so the
        temporaries stay small beside the result)."""
        dtype = np.dtype(dtype)
        if n <= CHUNK:
            return self._uniform(n, dtype, low, high)
        out = np.empty(n, dtype=dtype)
        for start in range(0, n, CHUNK):
            stop = min(n, start + CHUNK)
            out[start:stop] = self._uniform(stop - start, dtype, low, high)
        return out

    def _uniform(self, n: int, dtype: np.dtype, low: float, high: float) -> np.ndarray:
        if dtype == np.float32:
            x = (self.random32(n) & np.uint64(0xFFFFFF)).astype(np.float64) * 2.0 ** -24
            lo, hi = np.float32(low), np.float32(high)
        else:
            x = (self.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
            lo, hi = np.float64(low), np.float64(high)
        if lo == 0 and hi == 1:
            return x.astype(dtype)
        return fma64(x, np.float64(hi - lo), np.float64(lo)).astype(dtype)

    def normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        """n values of torch's normal_ on a contiguous tensor of dtype."""
        dtype = np.dtype(dtype)
        if n < 16:
            values = np.array([self._normal_double() for _ in range(n)], dtype=np.float64)
            return fma64(values, np.float64(std), np.float64(mean)).astype(dtype)
        data = self.uniform(n, dtype)
        blocks = (n // 16) * 16
        fill = _normal_fill_float32 if dtype == np.float32 else _normal_fill_float64
        for start in range(0, blocks, CHUNK):  # CHUNK is a multiple of 16: whole blocks
            stop = min(blocks, start + CHUNK)
            data[start:stop] = fill(data[start:stop], mean, std)
        if n % 16:
            data[n - 16:] = fill(self.uniform(16, dtype), mean, std)
        return data

    def _normal_double(self) -> float:
        cached = self.next_double_normal
        if cached is not None:
            self.next_double_normal = None
            return cached
        u1, u2 = self.uniform(2, np.float64)
        radius = math.sqrt(-2.0 * math.log1p(-float(u2)))
        theta = 2.0 * math.pi * float(u1)
        self.next_double_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def integers(self, n: int, low: int, high: int) -> np.ndarray:
        """n values of randint(low, high) as int64: `draw % range + low`."""
        span = high - low
        draws = self.random64(n) if span >= 1 << 28 else self.random32(n)
        return ((draws % np.uint64(span)).astype(np.int64) + low).astype(np.int64)

    def full_range(self, n: int, dtype) -> np.ndarray:
        """n values of random_() with no bounds (uniform_int_distribution<T>): a 64-bit draw for int64 and
        double, a 32-bit one otherwise, modulo the type's max + 1 (for floats 2**digits + 1; bool: the low
        bit), in dtype."""
        dtype = np.dtype(dtype)
        if dtype == np.bool_:
            return (self.random32(n) & np.uint64(1)).astype(np.bool_)
        if dtype.kind == "f":
            span = (1 << {2: 11, 4: 24, 8: 53}[dtype.itemsize]) + 1
        else:
            span = int(np.iinfo(dtype).max) + 1
        draws = self.random64(n) if dtype in (np.dtype(np.int64), np.dtype(np.float64)) else self.random32(n)
        return (draws % np.uint64(span)).astype(dtype)

    def permutation(self, n: int) -> np.ndarray:
        """randperm(n): Fisher-Yates with one 32-bit draw per position."""
        if n <= 0:
            return np.zeros(0, dtype=np.int64)
        draws = (self.random32(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
        out = list(range(n))
        for i, z in enumerate(draws):  # sequential by nature: each swap depends on the ones before
            j = i + z
            out[i], out[j] = out[j], out[i]
        return np.array(out, dtype=np.int64)

    def exponential(self, n: int, lambd: float = 1.0) -> np.ndarray:
        """n values of exponential_distribution<double>(lambd) as torch's CPU kernel draws them, one 53-bit
        uniform each: -1/lambd * log1p(-u), in double (cast to the tensor's dtype by the caller)."""
        u = self.uniform(n, np.float64)
        return (-1.0 / lambd) * _libm(math.log1p, -u)

    def slopes(self, n: int, low: float, high: float) -> np.ndarray:
        """n values of at::uniform_real_distribution<double>(low, high) drawn one at a time in plain C++ (rrelu's
        training slopes, Activation.cpp): a 53-bit uniform each, `x * (high - low) + low` in double, not fused
        (that file is compiled without FMA), as doubles."""
        x = (self.random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        return x * (float(high) - float(low)) + float(low)

    def geometric(self, n: int, p: float) -> np.ndarray:
        """geometric_distribution<double>(p), one 53-bit uniform each: ceil(log(u) / log1p(-p)) (libm)."""
        u = self.uniform(n, np.float64)
        with np.errstate(divide="ignore"):
            return np.ceil(_libm(_log0, u) / math.log1p(-float(p)))

    def cauchy(self, n: int, median: float, sigma: float) -> np.ndarray:
        """cauchy_distribution<double>, one 53-bit uniform each: median + sigma * tan(pi * (u - 0.5)), the
        multiply-add fused (the kernel's file is compiled with FMA)."""
        u = self.uniform(n, np.float64)
        return fma64(_libm(math.tan, math.pi * (u - 0.5)), float(sigma), float(median))

    def log_normal(self, n: int, mean: float, std: float) -> np.ndarray:
        """lognormal_distribution<double>: exp of one scalar normal_distribution<double> draw each (Box-Muller
        pairs, the sine half cached in the generator as for small normal_ calls), times std plus mean fused."""
        values = self.normal_doubles(n)
        with np.errstate(over="ignore"):
            return _libm(_exp, fma64(values, float(std), float(mean)))

    def normal_doubles(self, n: int) -> np.ndarray:
        """n scalar normal_distribution<double> draws in a row, vectorised: the cached sine half first, then
        Box-Muller pairs (cosine, sine) from two double uniforms each, an odd last sine left in the cache."""
        out = np.empty(n, dtype=np.float64)
        start = 0
        if n and self.next_double_normal is not None:
            out[0], self.next_double_normal, start = self.next_double_normal, None, 1
        pairs = (n - start + 1) // 2
        if pairs:
            u = self.uniform(2 * pairs, np.float64)
            radius = np.sqrt(-2.0 * _libm(math.log1p, -u[1::2]))
            theta = 2.0 * math.pi * u[0::2]
            both = np.empty(2 * pairs, dtype=np.float64)
            both[0::2] = radius * _libm(math.cos, theta)
            both[1::2] = radius * _libm(math.sin, theta)
            out[start:] = both[:n - start]
            if (n - start) % 2:
                self.next_double_normal = float(both[-1])
        return out

    def poisson(self, rates: np.ndarray) -> np.ndarray:
        """torch.poisson's sample_poisson (Distributions.cpp, plain C++ without FMA) for each rate in order, as
        doubles: Knuth's product of uniforms below 10, Hoermann's transformed rejection from 10 (libm's log and
        lgamma; an int64 conversion of a value out of its range gives INT64_MIN, as the x86 instruction)."""
        out = np.empty(rates.size, dtype=np.float64)
        for i, lam in enumerate(rates.reshape(-1).tolist()):
            out[i] = self._poisson(lam)
        return out

    def _double(self) -> float:
        high, low = self._bits.random_raw(2).tolist()
        return (((high << 32) | low) & ((1 << 53) - 1)) * 2.0 ** -53

    def _poisson(self, lam: float) -> int:
        if lam >= 10:
            slam = math.sqrt(lam)
            loglam = _log0(lam)
            b = 0.931 + 2.53 * slam
            a = -0.059 + 0.02483 * b
            invalpha = 1.1239 + 1.1328 / (b - 3.4)
            vr = 0.9277 - 3.6224 / (b - 2)
            while True:
                u = self._double() - 0.5
                v = self._double()
                us = 0.5 - abs(u)
                k = _floor_to_int64((2 * a / us + b) * u + lam + 0.43)
                if us >= 0.07 and v <= vr:
                    return k
                if k < 0 or (us < 0.013 and v > us):
                    continue
                if (_log0(v) + _log0(invalpha) - _log0(a / (us * us) + b)) <= \
                        (-lam + k * loglam - _lgamma(k + 1.0)):
                    return k
        if lam == 0:
            return 0
        enlam = math.exp(-lam)
        x, prod = 0, 1.0
        while True:
            prod *= self._double()
            if prod > enlam:
                x += 1
            else:
                return x

    def standard_gamma(self, alphas: np.ndarray) -> np.ndarray:
        """torch._standard_gamma's sample_gamma (Distributions.h, compiled without FMA) for each alpha in order, in
        the alphas' dtype: Marsaglia and Tsang's rejection on double normals (the generator's cached pairs) and
        double uniforms, alpha < 1 boosted by u ** (1 / alpha); the float constants (1.0f / 3.0f, 0.0331f) and,
        for float32 alphas, the arithmetic on alpha in float as the C++ does; at least the dtype's tiny."""
        dtype = alphas.dtype
        out = np.empty(alphas.size, dtype=dtype)
        for i, alpha in enumerate(alphas.reshape(-1).tolist()):
            out[i] = max(float(np.finfo(dtype).tiny), float(self._gamma(alpha, dtype)))
        return out

    def _gamma(self, alpha: float, dtype) -> float:
        f = dtype.type  # scalar_t: the arithmetic on alpha itself
        alpha = f(alpha)
        scale = 1.0
        if alpha < 1:
            if alpha == 0:
                return 0.0
            scale *= math.pow(1 - self._double(), float(f(1) / alpha))
            alpha = f(alpha + f(1))
        d = float(f(alpha - f(F32(1) / F32(3))) if dtype == np.float32 else float(alpha) - float(F32(1) / F32(3)))
        c = 1.0 / math.sqrt(9.0 * d)
        k = float(F32(0.0331))
        while True:
            while True:
                x = self._normal_double()
                y = 1.0 + c * x
                if not y <= 0:
                    break
            v = y * y * y
            u = 1 - self._double()
            xx = x * x
            if u < 1.0 - k * xx * xx:
                return f(scale * d * v)
            if _log0(u) < 0.5 * xx + d * (1.0 - v + _log0(v)):
                return f(scale * d * v)

    def bernoulli(self, p, n: int) -> np.ndarray:
        """n booleans, uniform < p: p a number (a double uniform) or an array of n probabilities (a uniform of
        its dtype: float32 probabilities take 24-bit draws, as bernoulli_distribution<float>)."""
        dtype = p.dtype if isinstance(p, np.ndarray) and p.dtype == np.float32 else np.dtype(np.float64)
        return self.uniform(n, dtype) < np.asarray(p).reshape(-1)


def fma64(a, b, c) -> np.ndarray:
    """a * b + c in double rounded once, as the FMA instruction torch's compiled kernels use (std::fma, and the
    multiply-adds the compiler fuses): the product split exactly (Dekker), then summed with c (Knuth)."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    if not (b.ndim == 0 and (b == 1 or b == 0)) or c.ndim or c != 0:
        product = a * b
        split = 134217729.0  # 2**27 + 1
        ah = a * split
        ah = ah - (ah - a)
        bh = b * split
        bh = bh - (bh - b)
        product_error = ((ah * bh - product) + ah * (b - bh) + (a - ah) * bh) + (a - ah) * (b - bh)
        total = product + c
        virtual = total - product
        sum_error = (product - (total - virtual)) + (c - virtual)
        with np.errstate(all="ignore"):
            out = total + (product_error + sum_error)
        # inf/nan and overflow in the splitting: the plain expression is right there
        return np.where(np.isfinite(out), out, a * b + c)
    return a * b + c


# -- Box-Muller on blocks of 16 --------------------------------------------------------------------------

def _libm(fn, x: np.ndarray) -> np.ndarray:
    # torch calls libm; numpy's own float64 log differs from it in the last bit now and then
    return np.fromiter(map(fn, x.tolist()), dtype=np.float64, count=x.size)


def _log0(x: float) -> float:
    return math.log(x) if x > 0 else -math.inf


def standard_gamma_grad(alphas: np.ndarray, samples: np.ndarray) -> np.ndarray:
    """torch._standard_gamma_grad (standard_gamma_grad_one<scalar_t, double>, Distributions.h): the
    reparameterised derivative of each Gamma(alpha) sample with respect to alpha, in the alphas' dtype."""
    out = [_gamma_grad_one(float(a), float(x)) for a, x in zip(alphas.reshape(-1).tolist(),
                                                                samples.reshape(-1).tolist())]
    return np.array(out, dtype=np.float64).astype(alphas.dtype).reshape(alphas.shape)


_GAMMA_GRAD_COEF = ((0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
                    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915,
                     -0.00058392623),
                    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326,
                     0.00085092367, -1.5247877e-07))
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _f32(x: float) -> float:
    return float(F32(x))


def _digamma_one(x: float) -> float:
    """Distributions.h's digamma_one<double, double> (cephes), without FMA."""
    if x == 0:
        return math.inf
    additional = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        additional = -math.pi / math.tan(math.pi * x)
        x = 1 - x
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + 2.25175258906672110764 + additional
    y = 0.0
    if x < _f32(1.0e17):
        z = 1.0 / (x * x)
        poly = 0.0
        for coefficient in _DIGAMMA_A:
            poly = poly * z + coefficient
        y = z * poly
    return result + _log0(x) - (0.5 / x) - y + additional


def _gamma_grad_one(alpha: float, x: float) -> float:
    if x < _f32(0.8):
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        try:
            pow_x_alpha = math.pow(x, alpha)
            gamma_pdf = math.pow(x, alpha - 1) * math.exp(-x)
        except (OverflowError, ValueError):
            return 0.0
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (_log0(x) - _digamma_one(alpha)) * gamma_cdf - pow_x_alpha * series2
        with np.errstate(all="ignore"):
            result = float(np.float64(-gamma_cdf_alpha) / np.float64(gamma_pdf))
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:
        if _f32(0.9) * alpha <= x <= _f32(1.1) * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x)
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = math.pow(x - alpha - alpha * _log0(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = _log0(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        numer = x * term1
        return -stirling * numer / denom
    u = _log0(x / alpha)
    v = _log0(alpha)
    coef_v = [_GAMMA_GRAD_COEF[0][i] + u * (_GAMMA_GRAD_COEF[1][i] + u * _GAMMA_GRAD_COEF[2][i]) for i in range(8)]
    p = coef_v[0] + v * (coef_v[1] + v * (coef_v[2] + v * coef_v[3]))
    q = coef_v[4] + v * (coef_v[5] + v * (coef_v[6] + v * coef_v[7]))
    return _exp(p / q)


def sample_dirichlet(generator: Generator, alphas: np.ndarray) -> np.ndarray:
    """torch._sample_dirichlet (_s_dirichlet_cpu): a double Gamma(alpha) sample per alpha in C order (alpha
    widened to double, at least DBL_MIN), normalised by its row's sum over the last dim, rounded to the dtype
    and kept within [tiny, the float below 1]."""
    dtype = alphas.dtype
    gen = generator
    gammas = np.array([max(float(np.finfo(np.float64).tiny), gen._gamma(a, np.dtype(np.float64)))
                       for a in alphas.astype(np.float64).reshape(-1).tolist()], dtype=np.float64)
    gammas = gammas.reshape(alphas.shape)
    if alphas.shape[-1] > 2:  # torch sums the row in its reduction order; two terms need none
        raise ValueError("gradcli draws Dirichlet samples of two categories (Beta) only")
    total = gammas.sum(axis=-1, keepdims=True)
    ratio = (gammas / total).astype(dtype)
    return np.minimum(np.nextafter(dtype.type(1), dtype.type(0)), np.maximum(np.finfo(dtype).tiny, ratio))


def dirichlet_grad(x: np.ndarray, alphas: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """torch._dirichlet_grad (dirichlet_grad_one<scalar_t, double>, Distributions.h) element by element, with
    the float32 arithmetic of its scalar_t parts (and the C library's logf/powf/tanf) where the input is
    float32."""
    f = x.dtype.type
    out = [_dirichlet_grad_one(f(a), f(b), f(c), f) for a, b, c in zip(
        x.reshape(-1).tolist(), alphas.reshape(-1).tolist(), totals.reshape(-1).tolist())]
    return np.array(out, dtype=x.dtype).reshape(x.shape)


def _log_s(x, f):
    """compat_log on a scalar_t: logf for float32, log for double."""
    if f is np.float32:
        return f(libm.call("log", np.array([x], dtype=np.float32))[0])
    return _log0(float(x))


def _digamma_s(x, f):
    """digamma_one<scalar_t, double>(x) with x a scalar_t: the steps on x in scalar_t, the sums in double."""
    x = f(x)
    if x == 0:
        return f(math.inf)
    additional = 0.0
    if x < 0:
        if x == f(math.floor(x)):
            return f(math.inf)
        pi = f(math.pi)
        if f is np.float32:
            additional = float(-pi / f(libm.call("tan", np.array([pi * x], dtype=np.float32))[0]))
        else:
            additional = -math.pi / math.tan(math.pi * float(x))
        x = f(1) - x
    result = 0.0
    while x < 10:
        result -= float(f(1) / x)
        x = f(x + f(1))
    if x == 10:
        return f(result + 2.25175258906672110764 + additional)
    y = 0.0
    if x < f(_f32(1.0e17)):
        z = 1.0 / float(f(x * x))
        poly = 0.0
        for coefficient in _DIGAMMA_A:
            poly = poly * z + coefficient
        y = z * poly
    return f(result + float(_log_s(x, f)) - float(f(0.5) / x) - y + additional)


def _pow_s(x, y, f):
    return libm.scalar_pow(x, y, f) if f is np.float32 else f(math.pow(float(x), float(y)))


def _beta_grad_alpha_small(x, alpha, beta, f):
    with np.errstate(all="ignore"):
        factor = f(f(_digamma_s(alpha, f) - _digamma_s(f(alpha + beta), f)) - _log_s(x, f))
        numer = f(1)
        series = f(f(numer / alpha) * f(factor + f(f(1) / alpha)))
        for i in range(1, 11):
            ci = f(i)
            numer = f(numer * f(f(f(ci - beta) * x) / ci))
            denom = f(alpha + ci)
            series = f(series + f(f(numer / denom) * f(factor + f(f(1) / denom))))
        result = f(f(x * _pow_s(f(f(1) - x), -beta, f)) * series)
    return f(0) if np.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta, f):
    with np.errstate(all="ignore"):
        factor = f(_digamma_s(f(alpha + beta), f) - _digamma_s(beta, f))
        numer, betas, dbetas, series = f(1), f(1), f(0), f(factor / alpha)
        for i in range(1, 9):
            ci = f(i)
            numer = f(numer * f(-x / ci))
            dbetas = f(f(dbetas * f(beta - ci)) + betas)
            betas = f(betas * f(beta - ci))
            series = f(series + f(f(numer / f(alpha + ci)) * f(dbetas + f(factor * betas))))
        result = f(-_pow_s(f(f(1) - x), f(f(1) - beta), f) * series)
    return f(0) if np.isnan(result) else result


def _beta_grad_alpha_mid(x: float, alpha: float, beta: float) -> float:
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) \
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1_den = math.sqrt(2 * alpha / beta) * math.pow(total, 1.5) * axbx * axbx
    term1 = term1_num / term1_den
    term2 = 0.5 * _log0(alpha / (total * x))
    term3_num = math.sqrt(8 * alpha * beta / total)
    term3_den = beta * x + alpha * (x - 1)
    term3 = term3_num / term3_den
    term4_base = beta * _log0(beta / (total * (1 - x))) + alpha * _log0(alpha / (total * x))
    term4 = math.pow(term4_base, -1.5) if term4_base > 0 else (math.inf if term4_base == 0 else math.nan)
    term1234 = term1 + term2 * (term3 + (term4 if x < mean else -term4))
    return stirling * prefactor * term1234


_DIRICHLET_C = (
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))))


def _dirichlet_grad_one(x, alpha, total, f):
    x_, alpha_, total_ = float(x), float(alpha), float(total)
    beta = f(total - alpha)
    beta_ = total_ - alpha_
    boundary = f(f(total * x) * f(f(1) - x))
    if x <= f(0.5) and boundary < f(2.5):
        return _beta_grad_alpha_small(x, alpha, beta, f)
    if x >= f(0.5) and boundary < f(0.75):
        return f(-_beta_grad_beta_small(f(f(1) - x), beta, alpha, f))
    if alpha > 6 and beta > 6:
        return f(_beta_grad_alpha_mid(x_, alpha_, beta_))
    u = _log0(x_)
    a = _log0(alpha_) - u
    b = _log0(total_) - a
    pow_u, pow_a = (1.0, u, u * u), (1.0, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            c0, c1 = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p += ua * (c0[0] + b * (c0[1] + b * (c0[2] + b * c0[3])))
            q += ua * (c1[0] + b * (c1[1] + b * (c1[2] + b * c1[3])))
    approx = x_ * (float(_digamma_s(f(total_), f)) - float(_digamma_s(f(alpha_), f))) / beta_
    return f(p / q * approx)


def _floor_to_int64(x: float) -> int:
    """(int64_t)std::floor(x) on x86-64: INT64_MIN for NaN and values out of int64's range."""
    if not math.isfinite(x) or not -(2.0 ** 63) <= x < 2.0 ** 63:
        return -(1 << 63)
    return math.floor(x)


def _lgamma(x: float) -> float:
    """The C library's lgamma (std::lgamma); Python's where none can be loaded."""
    try:
        return float(libm.call("lgamma", np.array([x]))[0])
    except AttributeError:
        return math.lgamma(x)


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _normal_fill_float64(data: np.ndarray, mean: float, std: float) -> np.ndarray:
    blocks = data.reshape(-1, 2, 8)
    u1 = 1 - blocks[:, 0, :]
    u2 = blocks[:, 1, :]
    radius = np.sqrt(-2 * _libm(math.log, u1.ravel()).reshape(u1.shape))
    theta = (2.0 * math.pi) * u2
    out = np.empty_like(blocks)
    out[:, 0, :] = fma64(radius * np.cos(theta), std, mean)
    out[:, 1, :] = fma64(radius * np.sin(theta), std, mean)
    return out.reshape(-1)


F32 = np.float32


def _normal_fill_float32(data: np.ndarray, mean: float, std: float) -> np.ndarray:
    blocks = data.reshape(-1, 2, 8)
    u1 = F32(1) - blocks[:, 0, :]
    u2 = blocks[:, 1, :]
    radius = np.sqrt(F32(-2) * _log256(u1))
    theta = F32(2.0 * math.pi) * u2
    sin, cos = _sincos256(theta)
    out = np.empty_like(blocks)
    # fmadd(n, std, mean) rounds once: in double and back is the same for std 1 and mean 0
    out[:, 0, :] = ((radius * cos).astype(np.float64) * F32(std) + F32(mean)).astype(F32)
    out[:, 1, :] = ((radius * sin).astype(np.float64) * F32(std) + F32(mean)).astype(F32)
    return out.reshape(-1)


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.int32)


def _floats(i: np.ndarray) -> np.ndarray:
    return i.astype(np.int32).view(F32)


_LOG_P = [7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1, 1.4249322787E-1,
          -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1, 3.3333331174E-1]


def _log256(x: np.ndarray) -> np.ndarray:
    """avx_mathfun.h's log256_ps as compiled (multiply-adds fused), in float32; u1 is in (0, 1] here."""
    x = np.maximum(x, _floats(np.array(0x00800000)))
    imm0 = (_bits(x) >> 23) - 0x7F
    x = _floats((_bits(x) & ~0x7F800000) | _bits(np.array(F32(0.5))))
    e = imm0.astype(F32) + F32(1)
    mask = x < F32(0.707106781186547524)
    tmp = np.where(mask, x, F32(0))
    x = x - F32(1)
    e = e - np.where(mask, F32(1), F32(0))
    x = x + tmp
    z = x * x
    y = np.full_like(x, F32(_LOG_P[0]))
    for p in _LOG_P[1:]:
        y = _fma(y, x, F32(p))
    y = y * x
    y = _fma(y, z, e * F32(-2.12194440e-4))  # the compiler fuses the earlier of two products into the add
    y = _fma(-z, F32(0.5), y)
    return _fma(e, F32(0.693359375), x + y)


def _sincos256(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """avx_mathfun.h's sincos256_ps as compiled (multiply-adds fused), in float32."""
    sign_sin = _bits(x) & np.int32(-0x80000000)
    x = np.abs(x)
    y = x * F32(1.27323954473516)
    j = y.astype(np.int32)  # truncation, as cvttps
    j = (j + 1) & ~1
    y = j.astype(F32)
    swap_sin = (j & 4) << 29
    poly_mask = (j & 2) == 0
    x = _fma(y, F32(-0.78515625), x)
    x = _fma(y, F32(-2.4187564849853515625e-4), x)
    x = _fma(y, F32(-3.77489497744594108e-8), x)
    sign_cos = (~(j - 2) & 4) << 29
    sign_sin = sign_sin ^ swap_sin
    z = x * x
    y = _fma(F32(2.443315711809948E-005), z, F32(-1.388731625493765E-003))
    y = _fma(y, z, F32(4.166664568298827E-002))
    y = y * z
    y = _fma(y, z, -(z * F32(0.5)))
    y = y + F32(1)
    y2 = _fma(F32(-1.9515295891E-4), z, F32(8.3321608736E-3))
    y2 = _fma(y2, z, F32(-1.6666654611E-1))
    y2 = y2 * z
    y2 = _fma(y2, x, x)
    sin = np.where(poly_mask, y2, y)
    cos = np.where(poly_mask, y, y2)
    return (_floats(_bits(sin) ^ sign_sin), _floats(_bits(cos) ^ sign_cos))


class _DefaultGenerator:
    """The default generator (created on first draw) and the seed it starts from (None: a fresh one)."""

    __slots__ = ("generator", "seed")

    def __init__(self, seed: int | None = None):
        self.generator, self.seed = None, seed


# the process's default generator, unless a context has its own (each `run` of a program: concurrent runs in
# threads never draw from each other's stream)
_PROCESS = _DefaultGenerator()
_CURRENT: contextvars.ContextVar[_DefaultGenerator] = contextvars.ContextVar("gradcli_generator", default=_PROCESS)


def default_generator() -> Generator:
    """The default generator: freshly seeded as PyTorch's is at start-up, unless `seed_default` named a seed
    first.  Created on first use (numpy.random costs start-up time)."""
    default = _CURRENT.get()
    if default.generator is None:
        default.generator = Generator(default.seed)
    return default.generator


def default_state() -> tuple:
    """The current default generator's seed and generator (picklable): what `restore_default_state` puts back,
    in another process too (the REPL's line, evaluated in a child process, hands its draws back)."""
    default = _CURRENT.get()
    return default.seed, default.generator


def restore_default_state(state: tuple) -> None:
    default = _CURRENT.get()
    default.seed, default.generator = state


def get_rng_state():
    """torch.get_rng_state: the default generator's state as torch's uint8 tensor."""
    return default_generator().get_state()


def set_rng_state(new_state) -> None:
    """torch.set_rng_state."""
    default_generator().set_state(new_state)


def manual_seed(seed: int) -> Generator:
    """torch.manual_seed: the default generator, seeded."""
    return default_generator().manual_seed(seed)


def _checked_seed(seed):
    if seed is not None:
        seed = int(seed)
        if not -(2 ** 63) <= seed < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
    return seed


def seed_default(seed: int | None) -> None:
    """The default generator as after torch.manual_seed(seed) (None: a fresh seed, as in a new process), without
    loading numpy.random until something draws (the calculator's --seed; a program's start)."""
    default = _CURRENT.get()
    default.seed, default.generator = _checked_seed(seed), None


@contextlib.contextmanager
def own_default_generator(seed: int | None = None):
    """Inside the block the current context has a default generator of its own (a program's run), seeded as
    `seed_default(seed)` would; the previous one is back after."""
    token = _CURRENT.set(_DefaultGenerator(_checked_seed(seed)))
    try:
        yield
    finally:
        _CURRENT.reset(token)
