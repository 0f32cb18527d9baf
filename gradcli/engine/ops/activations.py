"""Activation functions of torch.nn.functional: logsigmoid, softplus, leaky_relu, elu, selu, gelu, silu, mish,
hardtanh.  Forward formulas are torch's CPU kernels (stable at +-1000); backward rules are torch's
`*_backward` formulas (the differentiable variants torch uses under create_graph), in `dual` operations."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels, random
from gradcli.engine.autograd import ELEMENT_WISE, Function
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.ops.common import as_float, dtype_title, like_layout, val
from gradcli.engine.ops.elementwise import keep_input_at_zero_bounds
from gradcli.engine.ops.inplace import apply_inplace
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor

SQRT1_2 = 1.0 / math.sqrt(2.0)
GELU_PDF = 1.0 / math.sqrt(2.0 * math.pi)  # the normal density's constant
GELU_TANH_BETA = math.sqrt(2.0 / math.pi)
GELU_TANH_KAPPA = 0.044715
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


class _Act(Function):
    """An elementwise activation with parameters (in ctx.aux) and the input saved."""

    __slots__ = ()
    jvp = ELEMENT_WISE  # auto_element_wise
    saves = (0,)
    uniform_grad_ok = True
    torch_edges = (0,)  # the input; the parameters are scalars

    @classmethod
    def forward(cls, ctx, x, *params):
        ctx.aux = params
        x = as_float(x)
        with np.errstate(all="ignore"):
            return like_layout(np.asarray(cls.f(x, *params), dtype=x.dtype), x)

    @classmethod
    def backward(cls, ctx, g, x):
        with np.errstate(all="ignore"):
            return (cls.rule(g, x, *ctx.aux),)


def _act(grad_fn, f, rule):
    """The node class of one activation: forward ``f(x, *params)``, rule ``rule(g, x, *params)``."""
    return type(grad_fn.replace("Backward0", ""), (_Act,), {
        "__slots__": (), "name": grad_fn, "f": staticmethod(f), "rule": staticmethod(rule)})


def _in_place_variant(cls, grad_fn, rule):
    """The node torch records for an activation's inplace=True form where it names it apart (EluBackward1 ...):
    its rule ``rule(g, result, *params)`` reads the result, which it saves, so a later in-place change of the
    result fails backward as torch's does."""
    return type(grad_fn.replace("Backward", ""), (cls,), {"__slots__": (), "name": grad_fn, "saves": (),
                                                          "saves_output": True, "rule": staticmethod(rule)})


def _activate(cls, input, inplace, *params):
    """F.X(input, ..., inplace=True) overwrites input (a view's base included) and returns it, as torch's."""
    if inplace:
        return apply_inplace(input, lambda s: cls.apply(s, *params))
    return cls.apply(input, *params)


# logsigmoid: log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|))
def _logsigmoid_rule(g, x):
    # d/dx log(sigmoid(x)) = sigmoid(-x), computed stably
    return g * dual.stable_sigmoid(-x)


LogSigmoid = _act("LogSigmoidBackward0", dual.np_logsigmoid, _logsigmoid_rule)


@register("logsigmoid", sig="logsigmoid(input)", doc="log(sigmoid(input)), stable at +-1000", category="activation",
          torch=False, method=False, functional=True)
def logsigmoid(input):
    return LogSigmoid.apply(input)


def _softplus_rule(g, x, beta, threshold):
    bx = val(x) * beta
    # torch's double backward differentiates sigmoid only where beta*x < threshold (strictly)
    s = dual.where(bx < threshold, dual.stable_sigmoid(x * beta), dual.np_stable_sigmoid(bx))
    return dual.where(bx > threshold, g, g * s)


Softplus = _act("SoftplusBackward0", dual.np_softplus, _softplus_rule)


@register("softplus", sig="softplus(input, beta=1.0, threshold=20.0)",
          doc="log(1 + exp(beta*x)) / beta (the identity above threshold)", category="activation",
          torch=False, method=False, functional=True)
def softplus(input, beta=1.0, threshold=20.0):
    return Softplus.apply(input, float(beta), float(threshold))


LeakyRelu = _act("LeakyReluBackward0", lambda x, s: np.where(x > 0, x, x * s),
                 lambda g, x, s: dual.where(val(x) > 0, g, g * s))
LeakyReluInPlace = _in_place_variant(LeakyRelu, "LeakyReluBackward1",
                                     lambda g, y, s: dual.where(val(y) > 0, g, g * s))


@register("leaky_relu", sig="leaky_relu(input, negative_slope=0.01)",
          doc="x if x > 0 else negative_slope * x (slope at 0: negative_slope)", category="activation",
          torch=False, method=False, functional=True)
def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _activate(LeakyReluInPlace if inplace else LeakyRelu, input, inplace, float(negative_slope))


def _zeros_keep_sign(x, out, coefficient):
    """out with torch's value at x = +-0.0, coefficient * expm1(x): the sum of the two sides below is +0.0 there."""
    zero = x == 0
    if zero.any():
        out = np.where(zero, x * coefficient, out)  # expm1(+-0.0) is +-0.0
    return out


def _elu(x, alpha, scale):
    # the two sides added, not chosen with np.where (a branch per element, 5-10x the cost on mixed signs): one
    # side is exactly 0 wherever the other is taken (expm1(0) = 0, max(x, 0) = 0), so the sum is that side to
    # the bit; expm1 of the non-positive side only (no overflow in the unused branch)
    coefficient = alpha * scale
    if coefficient == 0:  # alpha = 0: torch's 0 * expm1(x) is -0.0 for x < 0, the sum would give +0.0
        return np.where(x <= 0, kernels.inner("expm1", np.where(x > 0, 0, x), x) * coefficient, x * scale)
    zero = x.dtype.type(0)
    out = np.minimum(x, zero)
    # torch: Vectorized::expm1 (SLEEF), std::expm1 on the scalar lanes (kernels.inner); in place in the fast mode
    # (two arrays in all, not four)
    out = np.array(kernels.inner("expm1", out, x, in_place=True), copy=None)
    out *= coefficient
    positive = np.maximum(x, zero)
    if scale != 1:
        positive *= scale
    out += positive
    return _zeros_keep_sign(x, out, coefficient)


def _elu_rule(g, x, alpha, scale):
    xv = val(x)
    # the slope at 0 is alpha*scale (x <= 0), but torch's double backward is 0 there (x < 0 strictly)
    e = dual.where(xv < 0, dual.exp(x), 1.0)
    return dual.where(xv <= 0, g * (alpha * scale) * e, g * scale)


Elu = _act("EluBackward0", _elu, _elu_rule)
EluInPlace = _in_place_variant(Elu, "EluBackward1",  # torch's elu_backward(is_result=True)
                               lambda g, y, alpha, scale: dual.where(val(y) <= 0, g * (y + alpha * scale), g * scale))


@register("elu", sig="elu(input, alpha=1.0)", doc="x if x > 0 else alpha * (exp(x) - 1)", category="activation",
          torch=False, method=False, functional=True)
def elu(input, alpha=1.0, inplace=False):
    return _activate(EluInPlace if inplace else Elu, input, inplace, float(alpha), 1.0)


@register("selu", sig="selu(input)", doc="scale * elu(x, alpha) with the self-normalising constants",
          category="activation", torch=True, method=False, functional=True)
def selu(input, inplace=False):
    return _activate(EluInPlace if inplace else Elu, input, inplace, SELU_ALPHA, SELU_SCALE)


def _gelu(x, approximate):
    if approximate == "tanh":
        inner = GELU_TANH_BETA * (x + GELU_TANH_KAPPA * x * x * x)
        return 0.5 * x * (1 + kernels.inner("tanh", inner, x))  # Vectorized::tanh, std::tanh on scalar lanes
    cdf = dual.np_erf(x * SQRT1_2)
    if type(cdf) is np.ndarray and cdf.ndim and cdf.dtype == x.dtype:
        # x * 0.5 * (1 + erf(x / sqrt 2)) in place: the same roundings, no fresh array per operation
        cdf += 1
        out = np.multiply(x, 0.5, out=np.empty_like(cdf))
        out *= cdf
    else:
        out = x * 0.5 * (1 + cdf)
    if x.dtype == np.float32 and kernels.row_size(x) > 1:
        # torch's vectorised float kernel (more than one element) gives nan at +inf; its scalar path and float64 inf
        infinite = np.isposinf(x)
        if infinite.any():
            out = np.where(infinite, np.float32(np.nan), out)
    return out


def _gelu_rule(g, x, approximate):
    if approximate == "tanh":
        x_sq = x * x
        inner = GELU_TANH_BETA * (x + GELU_TANH_KAPPA * (x_sq * x))
        # Vectorized::tanh, std::tanh on the kernel's scalar lanes (--bits torch); the fast mode's tanh otherwise
        t = kernels.inner("tanh", inner, g, x) if kernels.exact() and type(inner) is np.ndarray \
            and type(g) is np.ndarray else dual.tanh(inner)
        left_derivative = 0.5 * (1 + t)
        # 1 - t * t one fused multiply-add, as torch's GeluBackward kernel (its build contracts it)
        right_derivative = (0.5 * x) * dual.one_minus_square(t) * (GELU_TANH_BETA * (1 + 3 * GELU_TANH_KAPPA * x_sq))
        return g * (left_derivative + right_derivative)
    cdf = 0.5 * (1 + dual.erf(x * SQRT1_2))
    pdf = GELU_PDF * dual.exp(x * x * -0.5)
    return g * (cdf + x * pdf)


Gelu = _act("GeluBackward0", _gelu, _gelu_rule)


@register("gelu", sig="gelu(input, approximate='none')",
          doc="x * Phi(x), Phi the normal CDF (approximate='tanh': the tanh formula)", category="activation",
          torch=False, method=False, functional=True)
def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise TorchRuntimeError("approximate argument must be either none or tanh.")
    return Gelu.apply(input, approximate)


def _silu_rule(g, x):
    if isinstance(x, np.ndarray) and x.dtype == np.float16 and not isinstance(g, Tensor):
        # torch computes half in float32 (its opmath) and rounds once
        return _silu_rule(np.asarray(g, np.float32), x.astype(np.float32)).astype(np.float16)
    if isinstance(x, np.ndarray) and x.dtype in (np.float32, np.float64) and not isinstance(g, Tensor):
        # torch's silu_backward kernel, its 1 + x * (1 - s) fused into one multiply-add by the compiler
        one = x.dtype.type(1)
        with np.errstate(over="ignore"):
            s = one / (one + kernels.inner_exp(-x, np.asarray(g), x))
        return g * s * kernels.fma(x, one - s, one)
    s = dual.sigmoid(x)
    return g * s * (1 + x * (1 - s))


Silu = _act("SiluBackward0", kernels.silu, _silu_rule)  # _Act.forward makes x a float


@register("silu", sig="silu(input)", doc="x * sigmoid(x) (swish)", category="activation", torch=False,
          method=False, functional=True)
def silu(input, inplace=False):
    return _activate(Silu, input, inplace)


def _mish_rule(g, x):
    # torch's infinitely differentiable mish backward
    tsp = dual.tanh(dual.softplus(x))
    return g * (tsp + x * dual.sigmoid(x) * (1 - tsp * tsp))


def _mish(x):
    """torch's mish kernel: x * tanh(log1p(exp(x))), SLEEF's lanes and std:: on the scalar ones (kernels.inner)."""
    with np.errstate(over="ignore"):
        return x * kernels.inner("tanh", kernels.inner("log1p", kernels.inner("exp", x, x), x), x)


Mish = _act("MishBackward0", _mish, _mish_rule)


@register("mish", sig="mish(input)", doc="x * tanh(softplus(x))", category="activation", torch=False, method=False,
          functional=True)
def mish(input, inplace=False):
    return _activate(Mish, input, inplace)


def _hardtanh_rule(g, x, lo, hi):
    xv = val(x)
    dead = (xv <= lo) | (xv >= hi)
    nan = np.isnan(xv)
    if nan.any():
        # torch's vectorised backward passes the gradient where lo < x < hi (not at nan), its element-by-element
        # tail unless x <= lo or x >= hi (so at nan): which elements take which path, see engine/kernels/loops.py
        dead |= nan & ~np.asarray(kernels.scalar_lanes(xv.shape, xv.itemsize, np.asarray(val(g)), xv))
    return dual.where(dead, 0.0, g)


Hardtanh = _act("HardtanhBackward0", lambda x, lo, hi: keep_input_at_zero_bounds(np.clip(x, lo, hi), x, lo, hi),
                _hardtanh_rule)


@register("hardtanh", sig="hardtanh(input, min_val=-1.0, max_val=1.0)",
          doc="clamp to [min_val, max_val] (gradient 0 at the bounds, unlike clamp)", category="activation",
          torch=False, method=False, functional=True)
def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _activate(Hardtanh, input, inplace, float(min_val), float(max_val))


@register("relu6", sig="relu6(input)", doc="min(max(x, 0), 6) (hardtanh(x, 0, 6))", category="activation",
          torch=False, method=False, functional=True)
def relu6(input, inplace=False):
    return _activate(Hardtanh, input, inplace, 0.0, 6.0)


def _hardsigmoid(x):
    """min(max(x + 3, 0), 6) / 6 in three passes (np.clip in place)."""
    out = np.add(x, x.dtype.type(3), out=np.empty_like(x))
    np.clip(out, 0, 6, out=out)
    out /= 6
    return out


HARDSIGMOID_SLOPE = float(np.float32(1.0 / 6.0))  # torch's kernel: the slope is a float constant (1.0f / 6.0f)


def _hardsigmoid_rule(g, x):
    xv = val(x)
    return dual.where((xv > -3) & (xv < 3), g * HARDSIGMOID_SLOPE, 0.0)


Hardsigmoid = _act("HardsigmoidBackward0", _hardsigmoid, _hardsigmoid_rule)


@register("hardsigmoid", sig="hardsigmoid(input)", doc="min(max(x + 3, 0), 6) / 6", category="activation",
          torch=False, method=False, functional=True)
def hardsigmoid(input, inplace=False):
    return _activate(Hardsigmoid, input, inplace)


def _hardswish_rule(g, x):
    xv = val(x)
    # torch 2.13's hardswish_backward: 0 up to -3 inclusive, the identity's slope from 3 inclusive
    return dual.where(xv <= -3, 0.0, dual.where(xv < 3, g * (x / 3 + 0.5), g))


def _hardswish(x):
    """x * min(max(x + 3, 0), 6) / 6, multiplied before dividing as torch's CPU kernel, in four passes over
    memory (np.clip, in place)."""
    out = np.add(x, x.dtype.type(3), out=np.empty_like(x))
    np.clip(out, 0, 6, out=out)
    out *= x
    out /= 6
    return out


Hardswish = _act("HardswishBackward0", _hardswish, _hardswish_rule)


@register("hardswish", sig="hardswish(input)", doc="x * hardsigmoid(x)", category="activation",
          torch=False, method=False, functional=True)
def hardswish(input, inplace=False):
    return _activate(Hardswish, input, inplace)


def _celu(x, alpha):
    out = np.array(kernels.inner("expm1", np.minimum(x, x.dtype.type(0)) * (1.0 / alpha), x, in_place=True),
                   copy=None)  # as _elu: the two sides added
    out *= alpha
    out += np.maximum(x, x.dtype.type(0))
    return _zeros_keep_sign(x, out, alpha)


def _celu_rule(g, x, alpha):
    # derivatives.yaml: elu_backward(grad, alpha, 1, 1.0 / alpha.toFloat(), false, self), whose kernel computes
    # grad * input_scale * alpha * exp(x * input_scale) for x <= 0: the input scale from alpha rounded to float32
    # (float64 gradients were 3e-8 relative off torch's with 1 / alpha), exp torch's lanes (kernels.inner_exp)
    xv = val(x)
    inv = 1.0 / float(np.float32(alpha))
    if type(x) is np.ndarray and type(g) is np.ndarray and x.dtype in (np.float32, np.float64):
        t = x.dtype.type
        with np.errstate(over="ignore"):
            e = kernels.inner_exp(x * t(inv), g, x)
        return np.where(xv <= 0, g * t(inv) * t(alpha) * e, g).astype(x.dtype, copy=False)
    e = dual.where(xv < 0, dual.exp(x * inv), 1.0)  # torch's double backward is 0 at x = 0 (x < 0 strictly)
    return dual.where(xv <= 0, g * inv * alpha * e, g)


Celu = _act("CeluBackward0", _celu, _celu_rule)
CeluInPlace = _in_place_variant(Celu, "CeluBackward1",
                                lambda g, y, alpha: dual.where(val(y) <= 0, g * (y + alpha) * (1.0 / alpha), g))


@register("celu", sig="celu(input, alpha=1.0)", doc="x if x > 0 else alpha * (exp(x / alpha) - 1)",
          category="activation", torch=True, method=False, functional=True)
def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise TorchRuntimeError("ZeroDivisionError")
    return _activate(CeluInPlace if inplace else Celu, input, inplace, float(alpha))


# -- hardshrink, softshrink, tanhshrink, threshold (torch's CPU kernels; lambd and threshold in the input's dtype) --

def _inside(x, lambd):
    """-lambd <= x <= lambd, lambd cast to x's dtype as torch's shrink kernels cast it."""
    lam = x.dtype.type(lambd)
    return (x >= -lam) & (x <= lam)


def _shrink_rule(g, x, lambd):  # torch's shrink_backward, shared by hardshrink and softshrink
    return dual.where(_inside(val(x), lambd), 0.0, g)


def _softshrink(x, lambd):
    lam = x.dtype.type(lambd)
    return np.where(x > lam, x - lam, np.where(x < -lam, x + lam, x * x.dtype.type(0)))  # -0.0 kept, as torch's


Hardshrink = _act("HardshrinkBackward0", lambda x, lambd: np.where(_inside(x, lambd), x.dtype.type(0), x),
                  _shrink_rule)
Softshrink = _act("SoftshrinkBackward0", _softshrink, _shrink_rule)


@register("hardshrink", sig="hardshrink(input, lambd=0.5)", doc="x where |x| > lambd, else 0",
          category="activation", torch=True, method=True, functional=True)
def hardshrink(input, lambd=0.5):
    return Hardshrink.apply(input, float(lambd))


@register("softshrink", sig="softshrink(input, lambd=0.5)", doc="x - lambd above lambd, x + lambd below -lambd, "
          "else 0", category="activation", torch=False, method=False, functional=True)
def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise TorchRuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return Softshrink.apply(input, float(lambd))


@register("tanhshrink", sig="tanhshrink(input)", doc="input - tanh(input) (as F.tanhshrink computes it)",
          category="activation", torch=False, method=False, functional=True)
def tanhshrink(input):
    return input - input.tanh()


class _Threshold(_Act):
    """threshold keeps its input's dtype (an int64 input stays int64: the value is cast to it, as torch's)."""

    __slots__ = ()
    name = "ThresholdBackward0"

    @classmethod
    def forward(cls, ctx, x, threshold, value):
        ctx.aux = (threshold,)
        x = np.asarray(x)
        return np.where(x <= x.dtype.type(threshold), x.dtype.type(value), x)

    @staticmethod
    def rule(g, x, threshold):
        xv = val(x)
        return dual.where(xv <= xv.dtype.type(threshold), 0.0, g)


@register("threshold", sig="threshold(input, threshold, value)", doc="value where input <= threshold, else input",
          category="activation", torch=True, method=False, functional=True)
def threshold(input, threshold, value, inplace=False):
    return _activate(_ThresholdInPlace if inplace else _Threshold, input, inplace, threshold, value)


class _ThresholdInPlace(_Threshold):
    """threshold_: torch's node of the in-place kernel is ThresholdBackward1 (the same rule on the input)."""

    __slots__ = ()
    name = "ThresholdBackward1"


# -- rrelu: torch's rrelu_with_noise (Activation.cpp) ------------------------------------------------------------

class RreluWithNoise(Function):
    """rrelu_with_noise: in training, each element <= 0 (in C order) times a slope drawn from uniform(lower,
    upper) (the kernel's own draws, Generator.slopes; lower and upper rounded to the input's float type first,
    the slope rounded to it after), the others kept, their noise 1; the noise is the gradient's factor.  In
    eval, leaky_relu with slope (lower + upper) / 2 and its backward."""

    __slots__ = ()
    name = "RreluWithNoiseBackward0"
    saves = (0,)
    uniform_grad_ok = True

    @classmethod
    def forward(cls, ctx, x, lower, upper, training, generator=None):
        x = np.asarray(x)
        if training:
            flat = np.ascontiguousarray(x).reshape(-1)
            negative = flat <= 0
            lo, hi = (float(x.dtype.type(lower)), float(x.dtype.type(upper)))
            gen = generator or random.default_generator()
            noise = np.ones_like(flat)
            noise[negative] = gen.slopes(int(np.count_nonzero(negative)), lo, hi).astype(x.dtype)
            noise = noise.reshape(x.shape)
            ctx.aux = (noise, None)
            return flat.reshape(x.shape) * noise
        slope = (float(lower) + float(upper)) / 2
        ctx.aux = (None, slope)
        return np.where(x > 0, x, x * x.dtype.type(slope))

    @classmethod
    def backward(cls, ctx, g, x):
        noise, slope = ctx.aux
        if noise is not None:  # rrelu_with_noise_backward in training: noise * grad
            return (g * (Tensor._make(noise, None) if isinstance(g, Tensor) else noise),)
        return (dual.where(val(x) > 0, g, g * slope),)  # leaky_relu_backward(grad, self or result, slope)


class RreluWithNoiseInPlace(RreluWithNoise):
    __slots__ = ()
    name = "RreluWithNoiseBackward1"
    saves = ()
    saves_output = True


def _rrelu(input, lower, upper, training, inplace, generator):
    if not isinstance(input, Tensor):
        raise TorchTypeError(f"rrelu(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.array.dtype.kind != "f":
        raise TorchRuntimeError(f'"rrelu_with_noise_out_cpu" not implemented for \'{dtype_title(input.array.dtype)}\'')
    if float(lower) > float(upper):
        raise TorchRuntimeError("Lower bound should be less than or equal to the upper bound")
    cls = RreluWithNoiseInPlace if inplace else RreluWithNoise
    params = (float(lower), float(upper), bool(training))
    if inplace:
        return apply_inplace(input, lambda s: cls.apply(s, *params, generator=generator))
    return cls.apply(input, *params, generator=generator)


@register("rrelu", sig="rrelu(input, lower=1/8, upper=1/3, training=False, generator=None)",
          doc="randomized leaky ReLU: slopes drawn from uniform(lower, upper) in training, their mean in eval",
          category="random", torch=True, method=False)
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """torch.rrelu (its training slopes from `generator`, torch's generator by default)."""
    return _rrelu(input, lower, upper, training, False, generator)


@register("rrelu_", sig="rrelu_(input, lower=1/8, upper=1/3, training=False, generator=None)",
          doc="rrelu in place", category="random", torch=True, method=False)
def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return _rrelu(input, lower, upper, training, True, generator)


def functional_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """F.rrelu: torch.rrelu (or rrelu_ with inplace=True); eval (training=False) by default."""
    return _rrelu(input, lower, upper, training, inplace, None)


def functional_rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """F.rrelu_."""
    return _rrelu(input, lower, upper, training, True, None)


FUNCTIONAL = {"rrelu": functional_rrelu, "rrelu_": functional_rrelu_}  # F's forms, whose signature is not torch's
