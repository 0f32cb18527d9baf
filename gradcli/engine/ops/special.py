"""Special functions: lgamma, digamma, erfinv, logit, sinc, nan_to_num.

Forward kernels follow torch's CPU code (aten/src/ATen/native/Math.h: calc_digamma, calc_trigamma, calc_erfinv)
so values agree to the last bits; rules are derivatives.yaml's, in `dual` operations so they differentiate again.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels, sum_order
from gradcli.engine.autograd import ELEMENT_WISE, Function
from gradcli.engine.dtypes import get_default_dtype
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, TorchTypeError
from gradcli.engine.kernels import fused, libm
from gradcli.engine.ops.arith import AddScalar, MulScalar
from gradcli.engine.ops.common import as_float, promote, val
from gradcli.engine.ops.elementwise import unary
from gradcli.engine.ops.elementwise_math import erf
from gradcli.engine.ops.elementwise_math import round as round_op
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor

SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2
PSI_10 = 2.25175258906672110764  # digamma(10)
_DIGAMMA_COEFFICIENTS = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
                         -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
                         8.33333333333333333333e-2)
_DIGAMMA_A = {dtype: tuple(dtype(c) for c in _DIGAMMA_COEFFICIENTS) for dtype in (np.float32, np.float64)}


def _polevl(z, coefficients):
    result = np.zeros_like(z)
    exact = kernels.exact()
    for c in coefficients:  # Cephes polevl: the first coefficient goes with the highest power
        # torch's AVX512 build contracts the multiply-add (--bits torch); the fast mode rounds twice, in place
        # (the same bits: a fresh array per step cost its page faults, a third of digamma's time)
        if exact:
            result = fused.fma(result, z, c)
        else:
            result *= z
            result += c
    return result


def np_lgamma(x: np.ndarray) -> np.ndarray:
    """log|Gamma(x)|; +inf at the poles (0, -1, -2, ...) as C's lgamma (Python's math.lgamma raises there).
    --bits torch: float64 is the C library's lgamma (torch's SLEEF lgamma is within a few ulps of it; Python's
    math.lgamma is 1e5 ulps off near the zeros at 1 and 2), float32 Python's in double, rounded once (closer to
    torch's there than the C library's lgammaf).  fast: the vectorised kernel (kernels/vector_lgamma.py)."""
    x = np.asarray(x)
    if x.dtype in (np.float32, np.float64) and not kernels.exact():
        return kernels.lgamma(x, _lgamma_per_element)  # vectorised; x <= 0, inf and nan element by element
    return _lgamma_per_element(x)


def _lgamma_per_element(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float64:
        return libm.call("lgamma", x)
    pole = (x <= 0) & (x == np.floor(x))
    safe = np.where(pole | ~np.isfinite(x), 1.0, x)
    out = np.asarray(np.frompyfunc(math.lgamma, 1, 1)(safe), dtype=x.dtype)
    out = np.where(np.isinf(x), np.inf, out)
    out = np.where(np.isnan(x), np.nan, out)
    return np.where(pole, np.inf, out).astype(x.dtype, copy=False)


def np_digamma(x: np.ndarray) -> np.ndarray:
    """torch's calc_digamma, vectorised: reflection below 0, recurrence up to 10, then the asymptotic series.
    float32 as torch's float overload computes it, in float32 arithmetic (near the root at 1.4616 its
    cancellation leaves errors of 1e-5 relative, which torch prints), with the reflection's pi / tan in double;
    anything else in double.  log and tan are the C library's, as torch's."""
    x = np.asarray(x)
    dtype = np.float32 if x.dtype == np.float32 else np.float64
    x = x.astype(dtype, copy=False)
    if x.size > kernels.BLOCK:  # its temporaries a block at a time: in cache, no page faults (the same values)
        return kernels.in_blocks(np_digamma, x)
    one = dtype(1)
    with np.errstate(all="ignore"):
        negative = x < 0
        reflected = np.zeros_like(x)
        exact = kernels.exact()
        if negative.any():
            r = np.fmod(x[negative].astype(np.float64), 1.0)  # std::modf: the fraction, exactly
            tan = libm.call("tan", math.pi * r) if exact else np.tan(math.pi * r)
            reflected[negative] = (-math.pi / tan).astype(dtype)
            x = np.where(negative, one - x, x)
        result = np.zeros_like(x)
        x = np.array(x, dtype=dtype)  # a copy, stepped in place
        step, quotient, mask = np.empty_like(x), np.empty_like(x), np.empty(x.shape, dtype=bool)
        for _ in range(11):  # x >= 0 here: at most 10 steps reach 10
            # the step as arithmetic in place, not np.where (a branch per element): with step 0, result - 0 / x
            # and x + 0 are result and x bit for bit (x >= 0, and x = 0 takes the step)
            np.less(x, dtype(10), out=mask)
            if not mask.any():
                break
            np.copyto(step, mask)
            np.divide(step, x, out=quotient)
            result -= quotient
            x += step
        z = np.multiply(x, x, out=np.empty_like(x))
        np.divide(one, z, out=z)
        y = _polevl(z, _DIGAMMA_A[dtype])
        y *= z
        y[x >= dtype(1.0e17)] = 0
        if exact:
            log_x = libm.call("log", x)  # float32: logf
        else:  # float32: in double, rounded once - the C library's logf on all but ~0.1% of arguments (numpy's
            # own logf differs on ~1%, which the cancellation near the root at 1.4616 turns into 4096 ulps)
            log_x = kernels.log(x)
        # result + log(x) - 0.5 / x - y, in place on log(x)'s array (the same roundings in the same order)
        series = np.asarray(log_x, dtype=dtype)
        series += result
        series -= np.divide(dtype(0.5), x, out=quotient)
        series -= y
        ten = np.flatnonzero(x == 10)
        if ten.size:
            series.reshape(-1)[ten] = result.reshape(-1)[ten] + dtype(PSI_10)
        if negative.any():
            series += reflected
        return series if series.ndim else series[()]


def _digamma_special(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    # 0 -> -inf (copysign(inf, -x)), a negative integer -> nan
    out = np.where(x == 0, np.copysign(np.inf, -x), out)
    return np.where((x < 0) & (x == np.trunc(x)), np.nan, out)


def np_trigamma(x: np.ndarray) -> np.ndarray:
    """torch's trigamma: reflection below 0.5, six recurrence steps, then its short asymptotic series; in
    float32 arithmetic for float32 (its float overload), with the C library's sin, and the compiler's fused
    multiply-adds in the series."""
    x = np.asarray(x)
    dtype = np.float32 if x.dtype == np.float32 else np.float64
    x = x.astype(dtype, copy=False)
    one, pi = dtype(1), dtype(math.pi)
    with np.errstate(all="ignore"):
        low = x < dtype(0.5)
        sign = np.where(low, -one, one)
        result = np.zeros_like(x)
        if low.any():
            s = libm.call("sin", pi * x[low])
            result[low] = -((pi * pi) / (s * s))
        x = np.where(low, one - x, x)
        for _ in range(6):
            result = result + one / (x * x)
            x = x + one
        ixx = one / (x * x)
        series = fused.fma(ixx, fused.fma(-ixx, fused.fma(-ixx, one / dtype(42), one / dtype(30)), one / dtype(6)),
                           one + one / (dtype(2) * x))
        return sign * (result + series / x)


class Trigamma(Function):
    """polygamma(1, x): the derivative of digamma.  Its own derivative (polygamma(2, x)) is not implemented."""

    __slots__ = ()
    name = "PolygammaBackward0"

    @staticmethod
    def forward(ctx, x):
        return np_trigamma(x).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        raise TorchNotImplementedError("gradcli does not differentiate polygamma(1, x) (digamma's derivative) again")


class Digamma(Function):
    __slots__ = ()
    jvp = ELEMENT_WISE
    name = "DigammaBackward0"
    saves = (0,)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x):
        x = as_float(x)
        return _digamma_special(x, np_digamma(x)).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, x):
        return (g * (Trigamma.apply(x) if not isinstance(x, np.ndarray) else np_trigamma(x).astype(x.dtype)),)


class Lgamma(Function):
    __slots__ = ()
    jvp = ELEMENT_WISE
    name = "LgammaBackward0"
    saves = (0,)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x):
        return np_lgamma(as_float(x))

    @staticmethod
    def backward(ctx, g, x):
        return (g * (Digamma.apply(x) if not isinstance(x, np.ndarray) else Digamma.forward(None, x)),)


@register("lgamma", sig="lgamma(input)", doc="log |Gamma(input)| (gradient: digamma)", category="elementwise")
def lgamma(input):
    return Lgamma.apply(input)


@register("digamma", sig="digamma(input)", doc="d/dx lgamma(x) (gradient: polygamma(1, x))", category="elementwise")
def digamma(input):
    return Digamma.apply(input)


_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _np_erfc(x: np.ndarray) -> np.ndarray:
    return kernels.erfc(np.asarray(x, dtype=np.float64))


def np_erfinv(y: np.ndarray) -> np.ndarray:
    """torch's calc_erfinv: a rational first guess, then two Newton steps on erf (--bits torch); the fast mode's
    float32 and float64: the vectorised kernel (kernels.erfinv), 20-100x faster."""
    if isinstance(y, np.ndarray) and y.dtype in (np.float32, np.float64) and not kernels.exact():
        return kernels.erfinv(y)
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    with np.errstate(all="ignore"):
        y_abs = np.abs(y)
        z = y * y
        num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
        dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0
        central = y * num / dem
        z = np.sqrt(-np.log((1.0 - y_abs) / 2.0))
        num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0]
        dem = (d[1] * z + d[0]) * z + 1.0
        tail = np.copysign(num, y) / dem
        x = np.where(y_abs <= 0.7, central, tail)
        for _ in range(2):
            x = x - (dual.np_erf(x) - y) / ((2.0 / math.sqrt(math.pi)) * np.exp(-x * x))
        # Near +-1, erf(x) - y loses the digits that matter (1 - |y| is tiny): refine on erfc(|x|) = 1 - |y|,
        # which is exact there, so the tail is as accurate as torch's (full float64 precision)
        tail = y_abs > 0.7
        if np.any(tail):
            r = 1.0 - np.asarray(y_abs)[tail]
            t = np.abs(np.asarray(x)[tail])
            for _ in range(3):
                t = t + (_np_erfc(t) - r) * (math.sqrt(math.pi) / 2.0) * np.exp(t * t)
            x = np.array(x)  # a writable array (0-d input gives a numpy scalar here)
            x[tail] = np.copysign(t, np.asarray(y)[tail])
        x = np.where(y_abs == 1.0, np.copysign(np.inf, y), x)
        return np.where(y_abs > 1.0, np.nan, x).astype(y.dtype, copy=False)


erfinv = unary("erfinv", "ErfinvBackward0", np_erfinv,
               lambda g, y: g * (SQRT_PI_OVER_2 * dual.exp(y * y)), uses="out",
               doc="inverse error function on (-1, 1)")


class Logit(Function):
    __slots__ = ()
    jvp = ELEMENT_WISE
    name = "LogitBackward0"
    saves = (0,)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, eps):
        x = as_float(x)
        ctx.aux = eps
        with np.errstate(all="ignore"):
            # torch's `x < lo ? lo : (x > hi ? hi : x)`, not a clip: with eps > 0.5 (lo > hi) the order matters
            z = x if eps is None or eps < 0 else np.where(x < eps, eps, np.where(x > 1 - eps, 1 - eps, x))
            # torch's logit kernel: Vectorized::log of z / (1 - z), std::log on the scalar lanes
            return np.asarray(kernels.inner("log", z / (1 - z), x)).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, x):
        eps = ctx.aux
        xv = val(x)
        with np.errstate(all="ignore"):
            slope = g / (x * (1 - x))
            if eps is None or eps < 0:  # no clamp: outside [0, 1] the gradient is nan, as torch's logit_backward
                return (dual.where((xv < 0) | (xv > 1), np.nan, slope),)
            return (dual.where((xv < eps) | (xv > 1 - eps), 0.0, slope),)


@register("logit", sig="logit(input, eps=None)", doc="log(p / (1 - p)), p clamped to [eps, 1 - eps] if eps is given",
          category="elementwise")
def logit(input, eps=None):
    return Logit.apply(input, None if eps is None else float(eps))


def _np_sinc(x):
    with np.errstate(all="ignore"):
        product = math.pi * x
        # torch's sinc kernel: a scalar loop, std::sin(pi * x) / (pi * x)
        return np.where(x == 0, 1.0, kernels.scalar("sin", product) / product).astype(x.dtype, copy=False)


def _sinc_rule(g, x):
    product = x * math.pi
    with np.errstate(all="ignore"):
        squared = x * x * math.pi
        slope = (dual.cos(product) * product - dual.sin(product)) / squared
    # torch's sinc_backward masks where x*x*pi underflows to 0 (not only at 0): no 0/0 for tiny x
    return g * dual.where(val(squared) == 0, 0.0, slope)


sinc = unary("sinc", "SincBackward0", _np_sinc, _sinc_rule, doc="sin(pi x) / (pi x), 1 at 0")


class NanToNum(Function):
    __slots__ = ()
    name = "NanToNumBackward0"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        ctx.aux = np.isfinite(x)
        if x.dtype.kind != "f":
            return x.copy()
        if ctx.aux.all():
            return x.copy()
        info = np.finfo(x.dtype)
        out = np.where(np.isnan(x), nan, x)
        out = np.where(out == np.inf, info.max if posinf is None else posinf, out)
        return np.where(out == -np.inf, info.min if neginf is None else neginf, out).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        return (dual.where(ctx.aux, g, 0.0),)


@register("nan_to_num", sig="nan_to_num(input, nan=0.0, posinf=None, neginf=None)",
          doc="nan -> nan, +-inf -> posinf/neginf (default: the dtype's largest/smallest)", category="elementwise")
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return NanToNum.apply(input, float(nan), posinf, neginf)


# -- torch.special: xlog1py, entr, ndtr, multigammaln (torch's kernels and derivatives.yaml) ----------------------

def _np_xlog1py(x, y):
    """torch's xlog1py kernel, a scalar loop: nan where y is nan, 0 where x is 0, else x * std::log1p(y)."""
    with np.errstate(all="ignore"):
        return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * kernels.scalar("log1p", y)))


class SpecialXlog1Py(Function):
    __slots__ = ()
    name = "SpecialXlog1PyBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, x, y):
        x, y = promote(x, y)
        dtype = np.result_type(x, y)
        if dtype.kind != "f":
            dtype = get_default_dtype().np
        x, y = np.asarray(x, dtype=dtype), np.asarray(y, dtype=dtype)
        return np.asarray(_np_xlog1py(x, y), dtype=dtype)

    @staticmethod
    def backward(ctx, g, x, y):
        gx_need, gy_need = ctx.needs_input_grad
        gx = gy = None
        with np.errstate(all="ignore"):
            if gx_need:  # special_xlog1py(grad, other).masked_fill((self == 0.) & (other <= -1.), 0.)
                mask = (val(x) == 0) & (val(y) <= -1)
                if isinstance(g, Tensor) or isinstance(y, Tensor):
                    gx = xlog1py(g, y).masked_fill(Tensor._make(np.asarray(mask), None), 0.0)
                else:
                    gx = np.where(mask, 0.0, SpecialXlog1Py.forward(None, g, y))
            if gy_need:  # grad * self / (other + 1)
                gy = g * x / (y + 1)
        return gx, gy


class SpecialXlog1PyScalarSelf(SpecialXlog1Py):
    __slots__ = ()
    name = "SpecialXlog1PyBackward1"


class SpecialXlog1PyScalarOther(SpecialXlog1Py):
    __slots__ = ()
    name = "SpecialXlog1PyBackward2"


def xlog1py(input, other):
    """torch.special.xlog1py: input * log1p(other), 0 where input is 0 (nan where other is nan)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TorchTypeError("special_xlog1py() received an invalid combination of arguments - got "
                             f"({type(input).__name__}, {type(other).__name__})")
    if not isinstance(input, Tensor):
        return SpecialXlog1PyScalarSelf.apply(float(input), other)
    if not isinstance(other, Tensor):
        return SpecialXlog1PyScalarOther.apply(input, float(other))
    return SpecialXlog1Py.apply(input, other)


def _np_entr(x):
    """torch's entr kernel, a scalar loop: -x * std::log(x) for x > 0, 0 at 0, -inf below, nan kept."""
    with np.errstate(all="ignore"):
        out = np.where(x > 0, -x * kernels.scalar("log", x), np.where(x == 0, 0.0, -np.inf))
        return np.where(np.isnan(x), x, out).astype(x.dtype, copy=False)


class SpecialEntr(Function):
    __slots__ = ()
    name = "SpecialEntrBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, x):
        return _np_entr(as_float(np.asarray(x)))

    @staticmethod
    def backward(ctx, g, x):  # grad * (-(1 + self.log()))
        with np.errstate(all="ignore"):
            return (g * -(1 + dual.log(x)),)


def entr(input):
    """torch.special.entr: -x * log(x) elementwise (0 at 0, -inf for negative x)."""
    return SpecialEntr.apply(input)


def ndtr(input):
    """torch.special.ndtr as torch composes it in C++: (1 + erf(x * M_SQRT1_2)) * 0.5 (mul.Scalar, add.Scalar)."""
    return MulScalar.apply(AddScalar.apply(erf(MulScalar.apply(input, SQRT1_2)), 1), 0.5)


class Mvlgamma(Function):
    """torch's mvlgamma: lgamma of x + (-p/2 + 1/2, ..., 0) summed over a new last dim, plus p(p-1)/4 log(pi);
    its backward mvlgamma_backward: grad * the sum of their digammas."""

    __slots__ = ()
    name = "MvlgammaBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, x, p):
        ctx.aux = p
        x = as_float(np.asarray(x))
        args = _mvlgamma_offsets(p, x.dtype) + x[..., None]
        terms = np_lgamma(args)
        total = sum_order.torch_sum(terms, (-1,), False)
        total = terms.sum(axis=-1) if total is None else total
        return np.asarray(total + x.dtype.type(p * (p - 1) * math.log(math.pi) * 0.25), dtype=x.dtype)

    @staticmethod
    def backward(ctx, g, x):
        p = ctx.aux
        if isinstance(x, Tensor):
            args = x.unsqueeze(-1) + Tensor._make(_mvlgamma_offsets(p, x.array.dtype), None)
            return (g * digamma(args).sum(-1), None)
        args = _mvlgamma_offsets(p, x.dtype) + x[..., None]
        terms = Digamma.forward(None, args)
        total = sum_order.torch_sum(terms, (-1,), False)
        return (g * (terms.sum(axis=-1) if total is None else total), None)


def _mvlgamma_offsets(p: int, dtype) -> np.ndarray:
    return (-p / 2 + 0.5 + 0.5 * np.arange(p)).astype(dtype)  # arange(-p/2 + 1/2, 1/2, 1/2): exact halves


def multigammaln(input, p):
    """torch.special.multigammaln (torch.mvlgamma)."""
    p = int(p)
    if p < 1:  # (torch 2.13 no longer checks that every element is above (p-1)/2)
        raise TorchRuntimeError("p has to be greater than or equal to 1")
    return Mvlgamma.apply(input, p)


SQRT1_2 = math.sqrt(0.5)  # M_SQRT1_2 (1 / math.sqrt(2) is one ulp below it)
# torch.special's names: gradcli's op, or what it is called here
def special_round(input, *, decimals=0):
    """torch.special.round: always round.decimals (RoundBackward1)."""
    return round_op(input, decimals=decimals)


SPECIAL = {"xlog1py": xlog1py, "entr": entr, "ndtr": ndtr, "multigammaln": multigammaln, "round": special_round}
SPECIAL_ALIASES = {"expit": "sigmoid", "gammaln": "lgamma", "psi": "digamma", "digamma": "digamma", "erf": "erf",
                   "erfc": "erfc", "erfinv": "erfinv", "exp2": "exp2", "expm1": "expm1", "log1p": "log1p",
                   "log_softmax": "log_softmax", "logit": "logit", "logsumexp": "logsumexp",
                   "sinc": "sinc", "softmax": "softmax", "xlogy": "xlogy"}
