"""The rest of the unary math functions, one `unary(...)` line each (see elementwise.py), plus the
binary elementwise ops atan2, maximum/minimum, lerp and clamp with tensor bounds.

Rules follow torch's tools/autograd/derivatives.yaml term for term (same kinks, same tie conventions),
written in `dual` operations so they differentiate again.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, dual, kernels
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError
from gradcli.engine.ops import arith, sizes
from gradcli.engine.ops.common import (
    as_float,
    binary_layout,
    c_name,
    check_broadcast,
    dtype_title,
    mixed_floats,
    promote,
    val,
)
from gradcli.engine.ops.elementwise import Clamp, unary
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor

LN2 = math.log(2.0)
LN10 = 2.3025850929940456  # derivatives.yaml's literal for log10's rule (math.log(10.0) is the next double up)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _zeros(g, _x):
    """Gradient 0 that is not part of any graph (torch's zeros_like(grad)): step functions."""
    return dual.zeros_like(g)


exp2 = unary("exp2", "Exp2Backward0", kernels.exp2, lambda g, y: g * y * LN2, uses="out", doc="2 ** input")
expm1 = unary("expm1", "Expm1Backward0", kernels.expm1, lambda g, y: g * (y + 1), uses="out",
              doc="e ** input - 1, accurate near 0")
log2 = unary("log2", "Log2Backward0", kernels.log2, lambda g, x: g / (x * LN2), doc="base-2 logarithm")
log10 = unary("log10", "Log10Backward0", kernels.log10, lambda g, x: g / (x * LN10), doc="base-10 logarithm")
log1p = unary("log1p", "Log1PBackward0", kernels.log1p, lambda g, x: g / (x + 1),
              doc="log(1 + input), accurate near 0")
asin = unary("asin", "AsinBackward0", kernels.asin, lambda g, x: g * dual.rsqrt(-x * x + 1), doc="arcsine",
             aliases=("arcsin",))
acos = unary("acos", "AcosBackward0", kernels.acos, lambda g, x: g * -dual.rsqrt(-x * x + 1), doc="arccosine",
             aliases=("arccos",))
atan = unary("atan", "AtanBackward0", kernels.atan, lambda g, x: g / (x * x + 1), doc="arctangent",
             aliases=("arctan",))
sinh = unary("sinh", "SinhBackward0", kernels.sinh, lambda g, x: g * dual.cosh(x), doc="hyperbolic sine")
cosh = unary("cosh", "CoshBackward0", kernels.cosh, lambda g, x: g * dual.sinh(x), doc="hyperbolic cosine")
asinh = unary("asinh", "AsinhBackward0", kernels.asinh, lambda g, x: g * dual.rsqrt(x * x + 1),
              doc="inverse hyperbolic sine", aliases=("arcsinh",))
acosh = unary("acosh", "AcoshBackward0", kernels.acosh, lambda g, x: g * dual.rsqrt(x * x - 1),
              doc="inverse hyperbolic cosine (input >= 1)", aliases=("arccosh",))
atanh = unary("atanh", "AtanhBackward0", kernels.atanh, lambda g, x: g / (1 - x * x),
              doc="inverse hyperbolic tangent (|input| < 1)", aliases=("arctanh",))
rsqrt = unary("rsqrt", "RsqrtBackward0", dual.np_rsqrt, lambda g, y: (g * -0.5) * (y * y * y),
              uses="out", doc="1 / sqrt(input)")
erf = unary("erf", "ErfBackward0", dual.np_erf, lambda g, x: (TWO_OVER_SQRT_PI * dual.exp(-(x * x))) * g,
            doc="error function")
erfc = unary("erfc", "ErfcBackward0", dual.np_erfc, lambda g, x: (-TWO_OVER_SQRT_PI * dual.exp(-(x * x))) * g,
             doc="complementary error function 1 - erf(input)")
floor = unary("floor", "FloorBackward0", np.floor, _zeros, doc="largest integer <= input (gradient 0)",
              float_only=False)
ceil = unary("ceil", "CeilBackward0", np.ceil, _zeros, doc="smallest integer >= input (gradient 0)",
             float_only=False)
trunc = unary("trunc", "TruncBackward0", np.trunc, _zeros, doc="input rounded towards 0 (gradient 0)",
              float_only=False, aliases=("fix",))
frac = unary("frac", "FracBackward0", lambda x: x - np.trunc(x), lambda g, x: g,
             doc="fractional part input - trunc(input)")
def _np_round(x):
    """torch's round: an integer tensor is returned as it is (a copy, its dtype kept); bool has no kernel."""
    if x.dtype.kind == "f":
        return np.rint(x)
    if x.dtype.kind == "b":
        raise TorchNotImplementedError("\"round_vml_cpu\" not implemented for 'Bool'")
    return x.copy()


_round0 = unary("round", "RoundBackward0", _np_round, _zeros, doc="", float_only=False)


class RoundDecimals(Function):
    __slots__ = ()
    name = "RoundBackward1"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, decimals):
        if x.dtype.kind != "f":  # round.decimals has no integer shortcut: the kernel's own error
            raise TorchNotImplementedError(f"\"{'round_vml_cpu' if decimals == 0 else 'round_cpu'}\" not "
                                           f"implemented for '{dtype_title(x.dtype)}'")
        # torch: nearbyint(x * 10**d) / 10**d (negative d: x / 10**-d, rounded, times 10**-d)
        if decimals >= 0:
            scale = 10.0 ** decimals
            return (np.rint(x * scale) / scale).astype(x.dtype, copy=False)
        scale = 10.0 ** -decimals
        return (np.rint(x / scale) * scale).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        return (_zeros(g, None),)


@register("round", sig="round(input, *, decimals=0)",
          doc="round half to even (to `decimals` places); gradient 0", category="elementwise")
def round(input, *, decimals=None):  # noqa: A001 - torch's name
    if decimals is None:  # round(Tensor); decimals=0 given is round.decimals (RoundBackward1), as torch's parser
        return _round0(input)
    return RoundDecimals.apply(input, int(decimals))


@register("square", sig="square(input)", doc="input ** 2 (recorded as pow, as torch does)", category="elementwise")
def square(input):
    return arith.pow(input, 2)


# -- binary ---------------------------------------------------------------------------------------------

def _binary_forward(np_fn, a, b):
    return as_float(_extreme(np_fn, a, b))


def _extreme(np_fn, a, b):
    """np_fn(a, b) in the promoted dtype: maximum, minimum and clamp keep int64 and bool as torch does (they were
    float32: torch.maximum(tensor([1, 5]), tensor([3, 2])) printed tensor([3., 5.]))."""
    a, b = promote(a, b)
    check_broadcast(a, b)
    try:
        with np.errstate(all="ignore"):
            out = np_fn(a, b)
    except ValueError:
        raise arith.broadcast_error(a, b) from None
    return np.asarray(out)


def _numpy_ties_give_second() -> bool:
    """Whether numpy's maximum and minimum return their second operand on a tie of -0.0 and 0.0, on every element
    (its vector loop and its tail), as torch's vectorised loop does: measured once, not assumed."""
    for dtype in (np.float32, np.float64):
        for n in (1, 7, 1003):
            zero, minus = np.zeros(n, dtype), -np.zeros(n, dtype)
            for fn in (np.maximum, np.minimum):
                if not (np.signbit(fn(zero, minus)).all() and not np.signbit(fn(minus, zero)).any()):
                    return False
    return True


_NUMPY_TIES_GIVE_SECOND = _numpy_ties_give_second()
_LARGE = 4096  # elements from which a pass over the result costs more than working out the scalar lanes


def _settle_ties(out, first, second, scalar_lanes):
    """maximum/minimum (and clamp by tensors) on a tie of -0.0 and 0.0: torch's vectorised loop returns the
    second operand, its element-by-element path the first (`scalar_lanes()` says where each runs).  `out` is
    numpy's maximum/minimum of (first, second)."""
    if out.dtype.kind != "f":
        return out
    lanes = None
    if _NUMPY_TIES_GIVE_SECOND and out.size >= _LARGE:
        lanes = scalar_lanes()
        if lanes is False:  # torch's vector loop on every element, and numpy's ties are already its
            return out
    # only a tie of zeros can differ (-0.0 == 0.0); any other tie has one value: look at zeros of the result only
    if not (out == 0).any():
        return out
    tie = first == second
    lanes = scalar_lanes() if lanes is None else lanes
    return np.where(tie, np.where(lanes, first, second), out).astype(out.dtype, copy=False)


class Atan2(Function):
    __slots__ = ()
    name = "Atan2Backward0"
    saves = (0, 1)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b):
        return _binary_forward(kernels.atan2, as_float(np.asarray(a)), b)

    @staticmethod
    def backward(ctx, g, a, b):
        denom = a * a + b * b
        recip = dual.where(val(denom) == 0, 0.0, 1 / denom)  # torch: gradient 0 at (0, 0)
        ga, gb = ctx.needs_input_grad
        # torch's atan2_backward: grad * other * recip and grad * -self * recip, left to right
        return (g * b * recip if ga else None), (g * -a * recip if gb else None)


@register("atan2", sig="atan2(input, other)", doc="angle of the point (other, input), in (-pi, pi]",
          category="elementwise", aliases=("arctan2",), result_shape=sizes.broadcast)
def atan2(input, other):
    return Atan2.apply(input, other)


class Maximum(Function):
    """Elementwise max: at a tie each side gets half the gradient (torch's rule)."""

    __slots__ = ()
    name = "MaximumBackward0"
    uniform_grad_ok = True
    largest = True

    @classmethod
    def forward(cls, ctx, a, b):
        a, b = promote(a, b)
        out = _extreme(np.maximum if cls.largest else np.minimum, a, b)
        ctx.aux = (a, b)
        return binary_layout(_settle_ties(out, a, b, lambda: kernels.scalar_lanes(out.shape, out.itemsize, a, b)),
                             a, b)

    @classmethod
    def backward(cls, ctx, g, *saved):
        a, b = ctx.aux
        # torch: where(a == b, grad / 2, grad).masked_fill_(a loses, 0), so a nan on either side passes the
        # whole gradient to both
        shared = dual.where(a == b, g / 2, g)
        a_loses = a < b if cls.largest else a > b
        b_loses = a > b if cls.largest else a < b
        ga, gb = ctx.needs_input_grad
        return (dual.where(a_loses, 0.0, shared) if ga else None,
                dual.where(b_loses, 0.0, shared) if gb else None)


class Minimum(Maximum):
    __slots__ = ()
    name = "MinimumBackward0"
    largest = False


@register("maximum", sig="maximum(input, other)", doc="elementwise larger value (ties share the gradient)",
          category="elementwise", result_shape=sizes.broadcast)
def maximum(input, other):
    return Maximum.apply(input, other)


@register("minimum", sig="minimum(input, other)", doc="elementwise smaller value (ties share the gradient)",
          category="elementwise", result_shape=sizes.broadcast)
def minimum(input, other):
    return Minimum.apply(input, other)


def _same_lerp_dtypes(start, end, weight=None):
    for name, other in (("end", end), ("weight", weight)):
        if name == "weight" and np.ndim(weight) == 0:
            continue  # torch casts a 0-d weight to the inputs' dtype
        if mixed_floats(start, other):
            raise TorchRuntimeError(f"expected dtype {c_name(start)} for `{name}` but got dtype {c_name(other)}")


def _lerp_forward(start, end, weight):
    # torch's kernel (LerpKernel.cpp's lerp_vec, and its scalar twin as compiled): one fused multiply-add,
    # fmadd(coeff, end - start, base), coeff and base on the side of 0.5 the weight is: (weight, start) or
    # (weight - 1, end), the number weight in the tensors' dtype
    with np.errstate(all="ignore"):
        diff = end - start
        if np.ndim(weight) == 0:  # a number: one side only (np.where would compute both)
            w = np.result_type(start, end).type(weight) if np.result_type(start, end).kind == "f" else weight
            return kernels.fma(w, diff, start) if abs(w) < 0.5 else kernels.fma(w - 1, diff, end)
        small = np.abs(weight) < 0.5
        return kernels.fma(np.where(small, weight, weight - 1), diff, np.where(small, start, end))


class LerpScalar(Function):
    __slots__ = ()
    name = "LerpBackward0"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, start, end, weight):
        _same_lerp_dtypes(start, end)
        start, end = promote(start, end)
        check_broadcast(start, end)
        ctx.aux = weight
        return binary_layout(np.asarray(_lerp_forward(start, end, weight), dtype=np.result_type(start, end)),
                             start, end)

    @staticmethod
    def backward(ctx, g):
        w = ctx.aux
        ga, gb = ctx.needs_input_grad[:2]
        return (g * (1 - w) if ga else None), (g * w if gb else None)


class LerpTensor(Function):
    __slots__ = ()
    name = "LerpBackward1"
    saves = (0, 1, 2)
    saves_when = {0: 2, 1: 2}
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, start, end, weight):
        _same_lerp_dtypes(start, end, weight)
        # torch's promotion over all three: a 0-d weight only decides the dtype when the others are 0-d too
        dtype = dtypes.result_type(start, end, weight)
        start, end, weight = (v.astype(dtype, copy=False) for v in (start, end, weight))
        check_broadcast(start, end)
        return binary_layout(np.asarray(_lerp_forward(start, end, weight), dtype=dtype), start, end, weight)

    @staticmethod
    def backward(ctx, g, start, end, weight):
        ga, gb, gw = ctx.needs_input_grad
        return ((g * (1 - weight) if ga else None), (g * weight if gb else None),
                (g * (end - start) if gw else None))


@register("lerp", sig="lerp(input, end, weight)", doc="input + weight * (end - input)", category="elementwise",
          result_shape=sizes.broadcast)
def lerp(input, end, weight):
    if isinstance(weight, Tensor):
        return LerpTensor.apply(input, end, weight)
    return LerpScalar.apply(input, end, float(weight))


class ClampTensor(Function):
    """clamp with tensor bounds: min(max(input, min), max); the bounds get the gradient where they win."""

    __slots__ = ()
    name = "ClampBackward0"
    saves = (0, 1, 2)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, lo, hi):
        if lo is None and hi is None:
            raise TorchRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        out = x
        bounds = [b for b in (lo, hi) if b is not None]

        def scalar_lanes():
            arrays = [np.asarray(v) for v in (x, *bounds)]
            shape = np.broadcast_shapes(*(v.shape for v in arrays))
            return kernels.scalar_lanes(shape, np.result_type(*arrays).itemsize, *arrays)

        if lo is not None:
            out = _settle_ties(_extreme(np.maximum, out, lo), out, lo, scalar_lanes)
        if hi is not None:
            out = _settle_ties(_extreme(np.minimum, out, hi), out, hi, scalar_lanes)
        return binary_layout(out, x, *bounds)

    @staticmethod
    def backward(ctx, g, x, lo, hi):
        xv, lov, hiv = val(x), val(lo), val(hi)
        need_x, need_lo, need_hi = ctx.needs_input_grad
        gx = glo = ghi = None
        if need_x:
            inside = True
            if lo is not None:
                inside = xv >= lov
            if hi is not None:
                inside = (xv <= hiv) & inside
            gx = dual.where(inside, g, 0.0)
        if need_lo:
            pred = xv < lov if hi is None else (xv < lov) & (lov < hiv)
            glo = dual.where(pred, g, 0.0)
        if need_hi:
            pred = xv > hiv if lo is None else (xv > hiv) | (hiv < lov)
            ghi = dual.where(pred, g, 0.0)
        return gx, glo, ghi


def _tensor_bound(b) -> bool:
    return isinstance(b, Tensor) and (b.ndim > 0 or b.requires_grad)


def clamp_any(input, min=None, max=None):  # noqa: A002 - torch's names
    """torch.clamp: number bounds give ClampBackward1, tensor bounds ClampBackward0."""
    if _tensor_bound(min) or _tensor_bound(max):
        lo = min if isinstance(min, Tensor) or min is None else Tensor._make(np.asarray(min, input.array.dtype), None)
        hi = max if isinstance(max, Tensor) or max is None else Tensor._make(np.asarray(max, input.array.dtype), None)
        return ClampTensor.apply(input, lo, hi)
    lo = min.item() if isinstance(min, Tensor) else min
    hi = max.item() if isinstance(max, Tensor) else max
    return Clamp.apply(input, min=lo, max=hi)


register("clamp", sig="clamp(input, min=None, max=None)",
         doc="limit values to [min, max] (numbers or tensors; gradient 1 at the bounds)", category="elementwise",
         aliases=("clip",), result_shape=sizes.broadcast)(clamp_any)
