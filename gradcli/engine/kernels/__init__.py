"""The elementwise math kernels, one entry point per function, and the one place that chooses how each is computed.

torch's CPU build computes its elementwise math with vendor kernels - MKL's vector math (exp, sqrt, float32 sin
and cos), SLEEF's vector lanes (the exp inside sigmoid and silu, float32 pow), the C library on scalar lanes,
the fused multiply-adds its compiler contracts - which are not correctly rounded.  The submodules reproduce them
to the bit (`mkl_exp`, `mkl_sqrt`, `float32`, `sleef`, `libm`, `fused`; `loops` knows which elements torch's
loops compute on their scalar path), at up to a hundred times numpy's cost.  So every function here has two
implementations, chosen by `mode` (a context variable: `--bits torch`, GRADCLI_BITS=torch, the API's `bits=`,
on by default in `gradcli run`):

- "fast" (the default): numpy's vectorised ufuncs, float32 through double where that costs little - within the
  ulps of torch's result that docs/deviations.md tabulates (measured by scripts/make_kernel_contract.py,
  asserted by tests/engine/test_kernel_contract.py);
- "torch": the emulated vendor kernels, torch's bits.

Where torch's bits are cheap they are kept in both modes (rsqrt, reciprocal, the float32 functions computed in
double and rounded once: log, tanh, tan, ...).  Engine ops call these functions, never numpy's transcendental
ufuncs, for a result torch computes with a vendor library.  To add a kernel: its emulation in a submodule named
by the library it reproduces, an entry point here that calls it when `exact()`, a fast formula otherwise, and a
row in scripts/make_kernel_contract.py (which measures the fast path's ulps against torch)."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.kernels import (
    float32,
    fused,
    libm,
    mkl,
    mkl_exp,
    mkl_sqrt,
    native,
    sleef,
    vector_erf,
    vector_lgamma,
)
from gradcli.engine.kernels.loops import (
    BLOCK,
    GRAIN_SIZE,
    LEADING,
    THREADS,
    VECTOR_BYTES,
    elements_are_rows,
    in_blocks,
    row_size,
    rows_batch,
    scalar_lanes,
)
from gradcli.engine.kernels.mode import BITS, FAST, TORCH, bits, current, exact

__all__ = ["BITS", "BLOCK", "FAST", "GRAIN_SIZE", "LEADING", "THREADS", "TORCH", "VECTOR_BYTES", "acos", "acosh",
           "asin", "asinh", "atan", "atan2", "atanh", "bits", "cos", "cosh", "current", "elements_are_rows", "erf",
           "erfc", "erfinv", "exact", "exp", "exp2", "exp_", "expm1", "fma", "hypot", "in_blocks", "inner",
           "inner_exp", "lgamma", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp_accumulate",
           "one_minus_square", "pow", "pow_scalar_loop", "row_size", "rows_batch", "rsqrt", "scalar", "scalar_exp",
           "scalar_lanes", "sigmoid", "silu", "sin", "sinh", "sqrt", "tan", "tanh", "vector_exp"]

F16, F32, F64 = np.float16, np.float32, np.float64
_bits = BITS.get  # the mode, read on the hot path without a call of exact()


def _dtype(x):
    return getattr(x, "dtype", None)


# -- float32 computed in double and rounded once --------------------------------------------------------------
#
# torch's float32 log/tanh/... (MKL's vector math, SLEEF, the C library, accurate to about half an ulp) agree
# with the correctly rounded value far more often than numpy's own float32 approximations do: on 200,000
# values, tanh differs from torch in 38% of places through numpy's float32 and 0.1% through double, log10 46%
# and 0.01%.  The casts cost about 0.7 ms a million elements: in the fast mode that is paid where the function
# itself costs torch that much (log, tan, tanh, ...), and not where it would take gradcli past twice torch's or
# numpy's time (exp, exp2, log1p, log2, atanh, cosh: numpy's float32 kernel, within 2-3 ulps).  float64 is
# numpy's in both modes (within an ulp of torch's).

def _through_double(np_fn, fast_float32: bool = False):
    def fn(x):
        # the hot path of small tensors: no dtype comparison, no mode lookup unless it matters
        kind = type(x)
        if (kind is np.ndarray or kind is F32) and x.dtype.char == "f" and not (fast_float32 and _bits() == FAST):
            return np_fn(x.astype(F64)).astype(F32)
        return np_fn(x)

    fn.__name__ = np_fn.__name__
    fn.__doc__ = f"torch's {np_fn.__name__}: float32 computed in double and rounded once" + \
        (" (numpy's float32 kernel in the fast mode)" if fast_float32 else "")
    return fn


log = _through_double(np.log)
log2 = _through_double(np.log2, fast_float32=True)
log10 = _through_double(np.log10)
log1p = _through_double(np.log1p, fast_float32=True)
expm1 = _through_double(np.expm1)
exp2 = _through_double(np.exp2, fast_float32=True)
tan = _through_double(np.tan)
tanh = _through_double(np.tanh)
sinh = _through_double(np.sinh)
cosh = _through_double(np.cosh, fast_float32=True)
acos = _through_double(np.arccos)
asin = _through_double(np.arcsin, fast_float32=True)  # (its float32 in double costs 5x numpy's float32 asin)
atan = _through_double(np.arctan)
atanh = _through_double(np.arctanh, fast_float32=True)
# torch: SLEEF's asinh/acosh lanes (vec::map), not MKL's: within the contract's ulps in both modes
asinh = _through_double(np.arcsinh, fast_float32=True)
acosh = _through_double(np.arccosh, fast_float32=True)


def _binary_through_double(np_fn):
    def fn(a, b):
        if _dtype(a) == F32 and _dtype(b) in (F32, None) and _bits() == TORCH:
            return np_fn(a.astype(F64), b).astype(F32)
        return np_fn(a, b)

    fn.__name__ = np_fn.__name__
    fn.__doc__ = f"torch's {np_fn.__name__} (SLEEF's lanes, the C library's on the scalar ones): float32 computed " \
        "in double and rounded once in torch mode; numpy's float32 kernel in the fast mode (in double it costs 2-6x)"
    return fn


atan2 = _binary_through_double(np.arctan2)
hypot = _binary_through_double(np.hypot)


# -- emulated vendor kernels in torch mode, numpy in fast mode ----------------------------------------------

def exp(x):
    """torch.exp.  torch mode: MKL's table-driven kernels (mkl_exp).  fast: numpy's."""
    if _dtype(x) in (F32, F64) and exact():
        return mkl_exp.exp(x)
    return np.exp(x)


def exp_(x: np.ndarray) -> np.ndarray:
    """torch's exp_: `x` (a float array the caller owns) replaced by exp(x), the values of `exp`, without a second
    array (a large temporary is fresh memory, whose page faults cost as much as the exp itself)."""
    if x.dtype in (F32, F64) and exact():
        x[...] = mkl_exp.exp(x)
        return x
    return np.exp(x, out=x)


def sqrt(x):
    """torch.sqrt.  torch mode: MKL's rsqrt-refined kernels (mkl_sqrt).  fast: the correctly rounded root."""
    dtype = _dtype(x)
    if dtype in (F32, F64) and exact():
        return mkl_sqrt.sqrt(x)
    out = np.sqrt(x)
    if dtype in (F32, F64) and out.size and (x < 0).any():
        out = np.where(x < 0, dtype.type(np.nan), out)  # MKL's nan is positive, numpy's negative
    return out


def rsqrt(x):
    """1 / sqrt(x), torch's rsqrt: both correctly rounded in float32 and float64 (so torch's bits in both
    modes); float16 computes in float32 and rounds once (torch's opmath), where numpy would round twice."""
    x = np.asarray(x)
    if x.dtype == F16:
        return (1 / np.sqrt(x.astype(F32))).astype(F16)
    return 1 / np.sqrt(x)


def sin(x):
    """torch.sin.  float32 in torch mode: MKL's kernel (float32.sin); otherwise numpy's."""
    if _dtype(x) == F32 and exact():
        return float32.sin(x)
    return np.sin(x)


def cos(x):
    """torch.cos.  float32 in torch mode: MKL's kernel (float32.cos); otherwise numpy's."""
    if _dtype(x) == F32 and exact():
        return float32.cos(x)
    return np.cos(x)


def pow(x, y, tensors=None):  # noqa: A001 - torch's name
    """torch.pow of a float32 x and a float32 array or a number y (other dtypes: numpy's power).  torch mode:
    SLEEF's powf on the vector lanes, the correctly rounded value on the scalar ones (float32.pow, the lanes
    from `tensors`, the loop's operands).  fast: numpy's float32 power, y rounded to float32."""
    if _dtype(x) != F32 or getattr(y, "dtype", F32) != F32:
        return np.power(x, y)
    number = not isinstance(y, np.ndarray)
    if not exact() and not number:
        return np.power(x, y)
    tensors = tensors if tensors is not None else ((x, y) if not number else (x,))
    shape = np.broadcast_shapes(*(np.shape(t) for t in tensors))
    lanes = scalar_lanes(shape, 4, *(np.asarray(t) for t in tensors), vector_bytes=128)  # AVX512
    if exact():
        return float32.pow(x, y, lanes)
    # fast, a number exponent: numpy's powf with y rounded to float32, as torch's vector lanes; its scalar lanes
    # (a tensor's last few elements) take the exponent unrounded, which moves large results by several ulps
    if lanes is True:
        return np.power(x.astype(F64), float(y)).astype(F32)
    out = np.power(x, F32(y))
    if lanes is not False:
        out[lanes] = np.power(x[lanes].astype(F64), float(y)).astype(F32)
    return out


def inner_exp(y: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """exp of y as torch's vectorised kernels compute it inside an op (sigmoid, silu, ...).  torch mode:
    Vectorized::exp - SLEEF's exp - on the vector lanes, std::exp - the C library's - on the elements the
    kernel computes one at a time; `operands` are the op's inputs, whose layout decides which those are
    (scalar_lanes; these kernels run their AVX512 build, 128 bytes a step: measured on sigmoid, silu and silu's
    backward).  fast: numpy's exp in y's dtype."""
    if y.dtype not in (F32, F64) or not exact():
        return np.exp(y)
    scalar = scalar_lanes(y.shape, y.itemsize, *operands, vector_bytes=128)
    if scalar is True:
        return libm.call("exp", y)
    # float64's exp stacks five lanes of temporaries per element: smaller blocks
    vector = in_blocks(sleef.expf, y) if y.dtype == F32 else in_blocks(sleef.exp, y, 8192)
    if scalar is False:
        return vector
    vector[scalar] = libm.call("exp", y[scalar])  # the tail only: the C library is called one element at a time
    return vector


def vector_exp(y: np.ndarray) -> np.ndarray:
    """exp as Vectorized::exp computes every element of a whole-vector loop, tails included (vec::map): SLEEF's
    exp in torch mode, numpy's otherwise."""
    if y.dtype not in (F32, F64) or not exact():
        return np.exp(y)
    return in_blocks(sleef.expf, y) if y.dtype == F32 else in_blocks(sleef.exp, y, 8192)


def scalar_exp(y: np.ndarray) -> np.ndarray:
    """exp as std::exp computes each element (a kernel's scalar loop): the C library's in torch mode, numpy's
    otherwise."""
    if y.dtype not in (F32, F64) or not exact():
        return np.exp(y)
    return libm.call("exp", y)


def sigmoid(x):
    """torch's sigmoid kernel: 1 / (1 + exp(-x)) (inner_exp) in float32 and float64, float16 through float32
    rounded once (torch's opmath); other dtypes the stable form."""
    x = np.asarray(x)
    if x.dtype in (F32, F64):
        one = x.dtype.type(1)
        with np.errstate(over="ignore"):  # exp(1000) is inf, sigmoid(-1000) 0 (the engine's errstate is per thread)
            return one / (inner_exp(x.dtype.type(0) - x, x) + one)
    if x.dtype == F16:
        return sigmoid(x.astype(F32)).astype(F16)
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False)


def silu(x):
    """torch's silu kernel: x / (1 + exp(-x)) (inner_exp); float16 through float32, rounded once."""
    if x.dtype == F16:
        return silu(x.astype(F32)).astype(F16)
    with np.errstate(over="ignore"):
        return x / (x.dtype.type(1) + inner_exp(-x, x))


def fma(a, b, c):
    """a * b + c where torch's compiled kernel fuses the multiply-add.  torch mode, float32 (where the exact fused
    value costs a few operations) and whenever the compiled kernels are built (one pass): rounded once
    (fused.fma).  Otherwise fast float64: two roundings."""
    if exact() or np.result_type(a, b, c) == F32 or native.fma() is not None:
        return fused.fma(a, b, c)
    return a * b + c


def one_minus_square(y):
    """1 - y * y as torch's tanh_backward kernel computes it: one fused multiply-add.  torch mode: exactly that
    (fused.fma).  fast: (1 - y) * (1 + y), which has no cancellation near |y| = 1 (within 2 ulps of the fused
    value; 1 - y * y rounded twice is 2**28 ulps off at y = 1 - 2**-30)."""
    if type(y) is not np.ndarray:  # a Tensor (create_graph): the differentiable 1 - y * y
        return 1 - y * y
    if _bits() == TORCH and y.dtype.char in "fd":
        return fused.fma(-y, y, y.dtype.type(1))
    return (1.0 - y) * (1.0 + y)  # a Python float keeps y's dtype


# -- erf, erfc: the C library one element at a time in torch mode, a vectorised kernel otherwise ---------------

def _per_element(fn, x):
    compiled = libm.call_in_double(fn, x)  # the same C function math.`fn` calls, from a compiled loop
    if compiled is not None:
        return compiled
    out = np.frompyfunc(getattr(math, fn), 1, 1)(x)
    return np.asarray(out, dtype=x.dtype if x.dtype.kind == "f" else np.float64)


def erf(x):
    """torch.erf (MKL's vector erf).  torch mode: the C library's erf element by element (Python's math.erf),
    as before the fast kernel; fast: gradcli's vectorised kernel (kernels/vector_erf.py, 20-100x faster), float32 and
    float64 in their own dtype."""
    x = np.asarray(x)
    if x.dtype in (F32, F64) and _bits() == FAST:
        return vector_erf.erf(x)
    return _per_element("erf", x)


def erfc(x):
    """torch.erfc: as erf."""
    x = np.asarray(x)
    if x.dtype in (F32, F64) and _bits() == FAST:
        return vector_erf.erfc(x)
    return _per_element("erfc", x)


def erfinv(x):
    """torch.erfinv of a float32 or float64 array in the fast mode: gradcli's vectorised kernel
    (kernels/vector_erf.py), no Newton steps.  (--bits torch: ops/special.py's refined guess.)"""
    return vector_erf.erfinv(x)


def lgamma(x, per_element):
    """torch.lgamma (SLEEF's) of a float32 or float64 array, vectorised (kernels/vector_lgamma.py): the fast
    mode's.  `per_element` computes x <= 0, inf and nan (the caller's C library path, --bits torch's)."""
    return vector_lgamma.lgamma(x, per_element)


# -- MKL's vector math itself, when it is installed ---------------------------------------------------------
#
# torch's exp, sqrt, sin, cos, log, log10, log2, tan, tanh, acos, atan, erf and erfc of a float32/float64 tensor
# are MKL's vector math (aten/src/ATen/cpu/vml.h: vm?Exp(n, in, out, VML_HA | VML_FTZDAZ_OFF |
# VML_ERRMODE_IGNORE) on each contiguous run).  With the `mkl` package installed, --bits torch calls the same
# functions (kernels/mkl.py): torch's bits for every one of them in both dtypes (the emulations above cover
# exp, sqrt and float32 sin/cos only), at 10-100x the emulations' speed (benchmarks/bench_kernels.py).  The fast
# mode keeps numpy's ufuncs: a ctypes call costs ~3 µs, ten times numpy's on a small tensor.

def _vml_in_torch_mode(name: str, fn):
    def wrapped(x):
        if _bits() == TORCH:
            dtype = _dtype(x)
            if (dtype == F32 or dtype == F64) and mkl.available():
                out = mkl.vml(name, x)
                return out[()] if isinstance(x, np.generic) else out
        return fn(x)

    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = (fn.__doc__ or "") + f"  (--bits torch with MKL installed: MKL's vm?{name}.)"
    return wrapped


exp = _vml_in_torch_mode("Exp", exp)
sqrt = _vml_in_torch_mode("Sqrt", sqrt)
sin = _vml_in_torch_mode("Sin", sin)
cos = _vml_in_torch_mode("Cos", cos)
log = _vml_in_torch_mode("Ln", log)
log10 = _vml_in_torch_mode("Log10", log10)
log2 = _vml_in_torch_mode("Log2", log2)
tan = _vml_in_torch_mode("Tan", tan)
tanh = _vml_in_torch_mode("Tanh", tanh)
acos = _vml_in_torch_mode("Acos", acos)
atan = _vml_in_torch_mode("Atan", atan)
asin = _vml_in_torch_mode("Asin", asin)
erf = _vml_in_torch_mode("Erf", erf)
erfc = _vml_in_torch_mode("Erfc", erfc)
_exp_numpy = exp_


def exp_(x: np.ndarray) -> np.ndarray:  # noqa: F811 - the VML-aware version of the one above
    """torch's exp_ in place (see above); --bits torch with MKL installed: MKL's vm?Exp."""
    if x.dtype in (F32, F64) and _bits() == TORCH and mkl.available():
        x[...] = mkl.vml("Exp", x)
        return x
    return _exp_numpy(x)


# -- the C library's scalar functions and the vector lanes of compound kernels -----------------------------------
#
# Many of torch's kernels are formulas, not one function: binary_cross_entropy's (t - 1) * max(std::log1p(-x),
# -100) - t * max(std::log(x), -100) (a scalar loop: the C library on every element), mish's
# x * tanh(log1p(exp(x))) and logaddexp's m + log1p(exp(-|a - b|)) (cpu_kernel_vec: SLEEF's Vectorized:: functions
# on the vector lanes, std:: on the elements the loop computes one at a time), logcumsumexp's running
# log1p(exp(min - max)) + max (std:: in double).  `scalar` is a std:: function, `inner` a function inside such a
# kernel: the C library's bits in torch mode where torch calls the C library; SLEEF's lanes (exp excepted,
# `inner_exp`) are the entry points above, within the contract's ulps.

# the fast mode inside compound kernels: numpy's ufunc in the input's dtype (float32 through double would double
# the cost of mish, selu, logit, ... - measured by benchmarks/bench_kernels.py - for half an ulp)
_FAST = {"exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log1p": np.log1p, "tanh": np.tanh,
         "sin": np.sin, "cos": np.cos, "sqrt": np.sqrt}


def pow_scalar_loop(x: np.ndarray, exponent: float) -> np.ndarray:
    """std::pow(x[i], exponent) over a float32/float64 array, as a scalar loop of torch's computes it (ATen's
    NormOps: linalg.vector_norm's terms |x|**p and its final root).  torch mode: the C library's pow, torch's bits
    (libm.pow_array); fast: numpy's power in x's dtype."""
    if _bits() == TORCH:
        return libm.pow_array(x, exponent)
    with np.errstate(all="ignore"):
        return np.power(x, x.dtype.type(exponent))


def scalar(name: str, x):
    """std::`name` of each element of a float32/float64 array, as a scalar loop of torch's computes it.  torch
    mode: the C library's own function (its float variant for float32: libm.call), torch's bits; fast: numpy's
    ufunc in x's dtype."""
    kind = _dtype(x)
    if (kind == F32 or kind == F64) and _bits() == TORCH:
        out = libm.call(name, x)
        return out[()] if isinstance(x, np.generic) else out
    return _FAST[name](x)


def inner(name: str, y: np.ndarray, *operands: np.ndarray, in_place: bool = False) -> np.ndarray:
    """`name` (exp, exp2, expm1, log, log1p, tanh) of y inside a cpu_kernel_vec kernel whose inputs are `operands`.
    torch mode: on the elements the kernel computes one at a time (scalar_lanes, as inner_exp) the C library's
    function, torch's bits; on its vector lanes SLEEF's (exp: sleef.py, to the bit; the others: the entry point
    above, within the contract's ulps).  fast: numpy's ufunc in y's dtype, into y itself with `in_place` (y the
    caller's own array: no second array)."""
    if type(y) is not np.ndarray or y.dtype not in (F32, F64) or _bits() != TORCH:
        if in_place and type(y) is np.ndarray and y.ndim and y.flags.writeable:
            return _FAST[name](y, out=y)
        return _FAST[name](y)
    if name == "exp":
        return inner_exp(y, *operands)
    lanes = scalar_lanes(y.shape, y.itemsize, *operands, vector_bytes=128)
    if lanes is True:
        return libm.call(name, y)
    out = np.array(globals()[name](y), copy=True) if lanes is not False else globals()[name](y)
    if lanes is not False:
        out[lanes] = libm.call(name, y[lanes])
    return out


def logaddexp(a: np.ndarray, b: np.ndarray, base2: bool = False) -> np.ndarray:
    """torch's logaddexp kernel (BinaryOpsKernel.cpp): max(a, b) + log1p(exp(-|a - b|)), and a where a and b
    are the same infinity; logaddexp2 (base2): max(a, b) + log1p(exp2(-|a - b|)) * (1 / ln 2), the product and
    the sum one fused multiply-add (as its build contracts them: measured against torch, 11% of the last bits
    differ otherwise).  exp, exp2 and log1p as `inner` computes them: torch's bits where the kernel calls the C
    library (the scalar lanes: small tensors, a loop's tail) with --bits torch; numpy's otherwise."""
    with np.errstate(all="ignore"):
        m = np.maximum(a, b)
        d = -np.abs(a - b)
        if _bits() == TORCH and d.dtype in (F32, F64):
            tail = inner("log1p", inner("exp2" if base2 else "exp", d, a, b), a, b)
        else:
            own = type(d) is np.ndarray and d.ndim and d.shape == m.shape  # (a 0-d result is a numpy scalar)
            tail = np.log1p(np.exp2(d) if base2 else np.exp(d, out=d) if own else np.exp(d))
        if base2:
            scale = m.dtype.type(1 / math.log(2.0)) if m.dtype.kind == "f" else 1 / math.log(2.0)
            if _bits() == TORCH and m.dtype in (F32, F64):
                out = np.asarray(fma(tail, scale, m))
            else:  # the fast mode: rounded twice (the exact fused value costs float32 a few passes)
                tail = tail * scale
                out = m + tail
        else:
            out = np.add(m, tail, out=tail) if type(tail) is np.ndarray and tail.ndim and tail.shape == m.shape \
                and tail.flags.writeable else m + tail
        same_inf = np.isinf(a) & (a == b)
        if same_inf.any():
            out = np.where(same_inf, a, out)
        return out


def logaddexp_accumulate(x: np.ndarray, axis: int) -> np.ndarray:
    """torch's logcumsumexp along `axis` (ReduceOpsKernel.cpp): a running value in double (float32's acc_type),
    from -inf, each step _log_add_exp_helper(x, running) = log1p(exp(min - max)) + max (x itself where both are
    the same infinity), rounded to x's dtype.  torch mode: the C library's exp and log1p in double, torch's
    bits; fast: numpy's logaddexp.accumulate in double."""
    wide = x.astype(F64)
    if _bits() != TORCH or x.dtype not in (F32, F64) or x.shape[axis] == 0:
        with np.errstate(all="ignore"):
            return np.logaddexp.accumulate(wide, axis=axis).astype(x.dtype, copy=False)
    wide = np.moveaxis(wide, axis, 0)
    length, columns = wide.shape[0], wide[0].size
    if columns < 64:  # a long scan of few columns: a Python step per element (~0.5 us) beats a numpy step per row
        flat = wide.reshape(length, columns)
        out = np.empty_like(flat)
        step = np.frompyfunc(_log_add_exp_step, 2, 1)
        for j in range(columns):
            out[:, j] = step.accumulate(flat[:, j].astype(object)).astype(F64)
        return np.moveaxis(out.reshape(wide.shape), 0, axis).astype(x.dtype, copy=False)
    out = np.empty_like(wide)
    running = np.full(wide.shape[1:], -np.inf)
    with np.errstate(all="ignore"):
        for i in range(length):
            value = wide[i]
            nan = np.isnan(running)
            low = np.where(nan, running, np.minimum(value, running))
            high = np.where(nan, running, np.maximum(value, running))
            step = libm.call("log1p", libm.call("exp", low - high)) + high
            running = np.where((low != high) | np.isfinite(low), step, value)
            out[i] = running
    return np.moveaxis(out, 0, axis).astype(x.dtype, copy=False)


def _log_add_exp_step(running: float, x: float) -> float:
    """_log_add_exp_helper(x, running) on Python floats: std::min/max's choices, the C library's exp and log1p
    in double (math.exp and math.log1p are them)."""
    if running != running:
        return running
    low = running if running < x else x  # std::min(x, running)
    high = running if x < running else x  # std::max(x, running)
    if low != high or math.isfinite(low):
        return math.log1p(math.exp(low - high)) + high
    return x
