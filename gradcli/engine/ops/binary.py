"""More binary (and ternary) elementwise ops: hypot, fmod, remainder (Python's %), logaddexp, logaddexp2,
copysign, float_power, fmax, fmin, addcmul, addcdiv, div with rounding_mode, heaviside, and the logical and
bitwise ops.

Forward kernels are torch's CPU formulas (remainder adjusts fmod by the divisor's sign, logaddexp keeps
inf + inf); rules are derivatives.yaml's, in `dual` operations so they differentiate again.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, dual, kernels
from gradcli.engine.autograd import Function
from gradcli.engine.dtypes import float64
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, TorchTypeError
from gradcli.engine.ops import arith, sizes
from gradcli.engine.ops.common import as_float, binary_layout, check_broadcast, dtype_title, promote, val
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor

LN2 = math.log(2.0)


def _pair(a, b, *, floats=False):
    """Promote two operands to torch's result dtype and check their broadcast (and its size)."""
    a, b = promote(a, b)
    if floats:
        a, b = (as_float(v) if type(v) is np.ndarray else v for v in (a, b))
    check_broadcast(a, b)
    try:
        np.broadcast_shapes(np.shape(a), np.shape(b))
    except ValueError:
        raise arith.broadcast_error(a, b) from None
    return a, b


def _is_t(x) -> bool:
    return isinstance(x, Tensor)


class Hypot(Function):
    __slots__ = ()
    name = "HypotBackward0"
    saves = (0, 1)
    saves_output = True
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b):
        a, b = _pair(a, b, floats=True)
        return binary_layout(kernels.hypot(a, b), a, b)

    @staticmethod
    def backward(ctx, g, a, b, out):
        ga, gb = ctx.needs_input_grad
        with np.errstate(all="ignore"):
            return (g * a / out if ga else None), (g * b / out if gb else None)


@register("hypot", sig="hypot(input, other)", doc="sqrt(input**2 + other**2) without overflow",
          category="elementwise", result_shape=sizes.broadcast)
def hypot(input, other):
    return Hypot.apply(input, other)


def _np_fmod(a, b):
    if np.result_type(a, b).kind in "iu" and not np.all(b):
        raise TorchRuntimeError("ZeroDivisionError")
    with np.errstate(all="ignore"):
        return np.fmod(a, b)


def _np_remainder(a, b):
    kind = np.result_type(a, b).kind
    if kind in "iu":
        if not np.all(b):
            raise TorchRuntimeError("ZeroDivisionError")
        return np.remainder(a, b)
    with np.errstate(all="ignore"):
        mod = np.fmod(a, b)  # torch's CPU kernel: fmod, moved by b where the signs differ
        return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod).astype(mod.dtype, copy=False)


class _Modulo(Function):
    """fmod/remainder: d/da = 1; d/db = -trunc(a / b) (fmod) or -floor(a / b) (remainder)."""

    __slots__ = ()
    saves = (0, 1)
    saves_when = {0: 1, 1: 1}
    uniform_grad_ok = True

    @classmethod
    def forward(cls, ctx, a, b):
        a, b = _pair(a, b)
        if np.result_type(a, b).kind == "b":
            raise TorchNotImplementedError(f"\"{cls.kernel}\" not implemented for 'Bool'")
        return binary_layout(cls.np_fn(a, b), a, b)

    @classmethod
    def backward(cls, ctx, g, a, b):
        ga, gb = ctx.needs_input_grad
        gb_value = None
        if gb:  # torch's -grad * self.div(other, rounding_mode=...): under create_graph a node of its own
            if isinstance(a, Tensor) or isinstance(b, Tensor):
                quotient = div(a, b, rounding_mode=cls.rounding)
            else:
                quotient = DivRounded.forward(None, val(a), val(b), cls.rounding)
            gb_value = -g * quotient
        return (g if ga else None), gb_value


class FmodScalar(_Modulo):
    __slots__ = ()
    name = "FmodBackward0"
    kernel = "fmod_cpu"
    np_fn = staticmethod(_np_fmod)
    rounding = "trunc"


class Fmod(FmodScalar):
    __slots__ = ()
    name = "FmodBackward1"


class RemainderScalar(_Modulo):
    __slots__ = ()
    name = "RemainderBackward0"
    kernel = "remainder_cpu"
    np_fn = staticmethod(_np_remainder)
    rounding = "floor"


class Remainder(RemainderScalar):
    __slots__ = ()
    name = "RemainderBackward1"


class RemainderScalarTensor(Function):
    """number % tensor: PyTorch computes it but defines no derivative (grad_fn=<NotImplemented>)."""

    __slots__ = ()
    name = "NotImplemented"
    runs_first = True

    @staticmethod
    def forward(ctx, a, b):
        a, b = _pair(a, b)
        return binary_layout(_np_remainder(a, b), a, b)

    @staticmethod
    def backward(ctx, g):
        raise TorchRuntimeError("derivative for aten::remainder is not implemented")


@register("fmod", sig="fmod(input, other)", doc="C's remainder: sign of input (gradient -trunc(input/other))",
          category="elementwise", result_shape=sizes.broadcast)
def fmod(input, other):
    return (Fmod if _is_t(other) else FmodScalar).apply(input, other)


@register("remainder", sig="remainder(input, other)",
          doc="Python's %: sign of other (gradient -floor(input/other))", category="elementwise",
          result_shape=sizes.broadcast)
def remainder(input, other):
    if not _is_t(input):
        return RemainderScalarTensor.apply(input, other)
    return (Remainder if _is_t(other) else RemainderScalar).apply(input, other)


Tensor.__mod__ = remainder
Tensor.__rmod__ = lambda self, other: remainder(other, self)


class Logaddexp(Function):
    __slots__ = ()
    name = "LogaddexpBackward0"
    saves = (0, 1)
    uniform_grad_ok = True
    base2 = False

    @classmethod
    def forward(cls, ctx, a, b):
        a, b = _pair(a, b, floats=True)
        return kernels.logaddexp(a, b, cls.base2)

    @classmethod
    def backward(cls, ctx, g, a, b):
        ga, gb = ctx.needs_input_grad
        if cls.base2:  # derivatives.yaml: grad / (1 + pow(2, other - self)), pow torch's (kernels.pow)
            return ((g / (1 + _pow2(b - a)) if ga else None), (g / (1 + _pow2(a - b)) if gb else None))
        return (g / (1 + dual.exp(b - a)) if ga else None), (g / (1 + dual.exp(a - b)) if gb else None)


def _pow2(d):
    return dual.pow(2.0, d) if isinstance(d, Tensor) else dual.np_pow(2.0, d)


class Logaddexp2(Logaddexp):
    __slots__ = ()
    name = "Logaddexp2Backward0"
    base2 = True


@register("logaddexp", sig="logaddexp(input, other)", doc="log(exp(input) + exp(other)), stable",
          category="elementwise", result_shape=sizes.broadcast)
def logaddexp(input, other):
    return Logaddexp.apply(input, other)


@register("logaddexp2", sig="logaddexp2(input, other)", doc="log2(2**input + 2**other), stable",
          category="elementwise", result_shape=sizes.broadcast)
def logaddexp2(input, other):
    return Logaddexp2.apply(input, other)


class Copysign(Function):
    """|input| with the sign of other; d/dinput = out / input (0 where input is 0), nothing to other."""

    __slots__ = ()
    name = "CopysignBackward0"
    saves = (0,)
    saves_output = True
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b):
        a, b = _pair(a, b, floats=True)
        return binary_layout(np.copysign(a, b), a, b)

    @staticmethod
    def backward(ctx, g, a, out):
        ga, gb = ctx.needs_input_grad
        gx = None
        if ga:
            with np.errstate(all="ignore"):
                # torch: ratio = result / self, masked to 0 where self == 0, then grad * ratio (a negative grad
                # gives -0.0 there)
                gx = g * dual.where(val(a) == 0, 0.0, out / a)
        return gx, (dual.zeros_like(g) if gb else None)


class CopysignScalar(Copysign):
    __slots__ = ()
    name = "CopysignBackward1"


@register("copysign", sig="copysign(input, other)", doc="magnitude of input, sign of other",
          category="elementwise", result_shape=sizes.broadcast)
def copysign(input, other):
    return (Copysign if _is_t(other) else CopysignScalar).apply(input, other)


def _double(x):
    if _is_t(x):
        return x if x.array.dtype == np.float64 else x.to(float64)
    return float(x)


@register("float_power", sig="float_power(input, exponent)", doc="input ** exponent computed in float64",
          category="arithmetic", result_shape=sizes.broadcast)
def float_power(input, exponent):
    return arith.pow(_double(input), _double(exponent))


class Fmax(Function):
    """fmax/fmin ignore a nan operand; the gradient goes to the side that is taken (input on ties)."""

    __slots__ = ()
    name = "FmaxBackward0"
    uniform_grad_ok = True
    largest = True

    @classmethod
    def forward(cls, ctx, a, b):
        a, b = _pair(a, b)
        av, bv = np.asarray(a), np.asarray(b)
        ctx.aux = ((av >= bv) if cls.largest else (av <= bv)) | np.isnan(bv)
        return binary_layout((np.fmax if cls.largest else np.fmin)(a, b), a, b)

    @staticmethod
    def backward(ctx, g):
        takes_input = ctx.aux
        ga, gb = ctx.needs_input_grad
        return ((dual.where(takes_input, g, 0.0) if ga else None),
                (dual.where(takes_input, 0.0, g) if gb else None))


class Fmin(Fmax):
    __slots__ = ()
    name = "FminBackward0"
    largest = False


@register("fmax", sig="fmax(input, other)", doc="elementwise maximum that ignores nan",
          category="elementwise", result_shape=sizes.broadcast)
def fmax(input, other):
    if not isinstance(other, Tensor):  # torch has no number overload
        raise TorchTypeError(f"fmax(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return Fmax.apply(input, other)


@register("fmin", sig="fmin(input, other)", doc="elementwise minimum that ignores nan",
          category="elementwise", result_shape=sizes.broadcast)
def fmin(input, other):
    if not isinstance(other, Tensor):  # torch has no number overload
        raise TorchTypeError(f"fmin(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    return Fmin.apply(input, other)


def _broadcast3(a, b, c):
    """addcmul/addcdiv broadcast three operands: name the first pair that disagrees, check the size."""
    for p, q in ((a, b), (a, c), (b, c)):
        try:
            np.broadcast_shapes(np.shape(p), np.shape(q))
        except ValueError:
            raise arith.broadcast_error(p, q) from None
    sizes.check_size(np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c)))


class Addcmul(Function):
    __slots__ = ()
    name = "AddcmulBackward0"
    saves = (1, 2)
    saves_when = {1: 2, 2: 1}
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        _broadcast3(x, t1, t2)
        ctx.aux = value
        with np.errstate(all="ignore"):
            dtype = dtypes.result_type(x, t1, t2)  # torch's promotion: a 0-d float64 keeps float32 float32
            if dtype.kind == "f" and dtype.itemsize >= 4 and type(value) in (int, float):
                # torch's kernel: self + value * t1 * t2, compiled as fma(value * t1, t2, self)
                t1, t2, x = (np.asarray(v, dtype) for v in (t1, t2, x))
                scaled = t1 if value == 1 else t1 * dtype.type(value)
                return binary_layout(np.asarray(kernels.fma(scaled, t2, x), dtype), x, t1, t2)
            product = arith.elementwise_binary(np.multiply, t1, t2)
            if not (type(value) in (int, float) and value == 1 and product.dtype.kind == "f"):  # x * 1 is x
                product = arith.elementwise_binary(np.multiply, product, value)
            return arith.elementwise_binary(np.add, x, product)

    @staticmethod
    def backward(ctx, g, t1, t2):
        value = ctx.aux
        gx, g1, g2 = ctx.needs_input_grad[:3]
        return ((g if gx else None), (g * (t2 * value) if g1 else None), (g * (t1 * value) if g2 else None))


class Addcdiv(Function):
    __slots__ = ()
    name = "AddcdivBackward0"
    saves = (1, 2)
    saves_when = {1: 2}
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, t1, t2, value):
        _broadcast3(x, t1, t2)
        if np.result_type(t1, t2).kind in "iub":
            raise TorchRuntimeError(
                "Integer division with addcdiv is no longer supported, and in a future release addcdiv will "
                "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
                "as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
                "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
        ctx.aux = value
        with np.errstate(all="ignore"):
            # torch's kernel: self + value * t1 / t2, the scaled numerator divided
            if not (type(value) in (int, float) and value == 1 and np.result_type(t1, t2).kind == "f"):
                t1 = arith.elementwise_binary(np.multiply, t1, value)  # x * 1 is x
            quotient = arith.elementwise_binary(np.divide, t1, t2)
            return arith.elementwise_binary(np.add, x, quotient)

    @staticmethod
    def backward(ctx, g, t1, t2):
        value = ctx.aux
        gx, g1, g2 = ctx.needs_input_grad[:3]
        with np.errstate(all="ignore"):
            return ((g if gx else None), (g * (value / t2) if g1 else None),
                    (-g * (value * t1 / (t2 * t2)) if g2 else None))  # torch: -grad * (value * t1 / (t2 * t2))


@register("addcmul", sig="addcmul(input, tensor1, tensor2, *, value=1)", doc="input + value * tensor1 * tensor2",
          category="elementwise", result_shape=sizes.broadcast)
def addcmul(input, tensor1, tensor2, *, value=1):
    return Addcmul.apply(input, tensor1, tensor2, value)


@register("addcdiv", sig="addcdiv(input, tensor1, tensor2, *, value=1)", doc="input + value * tensor1 / tensor2",
          category="elementwise", result_shape=sizes.broadcast)
def addcdiv(input, tensor1, tensor2, *, value=1):
    return Addcdiv.apply(input, tensor1, tensor2, value)


class DivRounded(Function):
    """div with rounding_mode 'trunc' or 'floor': a step function, so both gradients are 0."""

    __slots__ = ()
    name = "DivBackward2"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b, mode):
        a, b = _pair(a, b)
        kind = np.result_type(a, b).kind
        if kind in "iub":
            if not np.all(b):
                raise TorchRuntimeError("ZeroDivisionError")
            if mode == "floor":
                return np.floor_divide(a, b)
            quotient = np.abs(a) // np.abs(b)  # C's division truncates toward 0
            return (np.sign(a) * np.sign(b) * quotient).astype(np.result_type(a, b), copy=False)
        with np.errstate(all="ignore"):
            return np.trunc(np.divide(a, b)) if mode == "trunc" else np.floor_divide(a, b)

    @staticmethod
    def backward(ctx, g):
        ga, gb = ctx.needs_input_grad[:2]  # the third input is the rounding mode
        zero = dual.zeros_like(g)
        return (zero if ga else None), (zero if gb else None)


def div(input, other, *, rounding_mode=None):
    """torch.div: true division, or rounded 'trunc'/'floor' (then the gradient is 0)."""
    if rounding_mode is None:
        return arith.div(input, other)
    if rounding_mode not in ("trunc", "floor"):
        raise TorchRuntimeError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")
    if not _is_t(input):
        input = Tensor._make(np.asarray(input), None)
    return DivRounded.apply(input, other, rounding_mode)


register("div", sig="div(input, other, *, rounding_mode=None)",
         doc="input / other; rounding_mode 'trunc' or 'floor' rounds the quotient (gradient 0)",
         category="arithmetic", aliases=("divide",), result_shape=sizes.broadcast)(div)


class Heaviside(Function):
    """Step function: PyTorch defines no derivative (grad_fn=<NotImplemented>)."""

    __slots__ = ()
    name = "NotImplemented"
    runs_first = True

    @staticmethod
    def forward(ctx, x, values):
        x, values = _pair(x, values)
        if np.asarray(x).dtype != np.asarray(values).dtype:
            raise TorchRuntimeError("heaviside is not yet implemented for tensors with different dtypes")
        return np.where(x == 0, values, (x > 0).astype(np.asarray(x).dtype)).astype(np.asarray(x).dtype)

    @staticmethod
    def backward(ctx, g):
        raise TorchRuntimeError("derivative for aten::heaviside is not implemented")


@register("heaviside", sig="heaviside(input, values)", doc="0 below 0, 1 above, `values` at 0 (no gradient)",
          category="no-gradient", result_shape=sizes.broadcast)
def heaviside(input, values):
    if not _is_t(values):
        raise TorchRuntimeError("heaviside(): argument 'values' must be Tensor, not "
                                f"{type(values).__name__}")
    return Heaviside.apply(input, values)


# -- logical and bitwise: bool or integer results, outside the graph -------------------------------------

def _logical(name, np_fn, doc):
    def op(input, other):
        a, b = np.asarray(val(input)), np.asarray(val(other))
        check_broadcast(a, b)
        try:
            return Tensor._make(np.asarray(np_fn(a != 0, b != 0)), None)
        except ValueError:
            raise arith.broadcast_error(a, b) from None

    op.__name__ = name
    return register(name, sig=f"{name}(input, other)", doc=doc, category="comparison",
                    result_shape=sizes.broadcast)(op)


logical_and = _logical("logical_and", np.logical_and, "input and other, elementwise (bool; nonzero is true)")
logical_or = _logical("logical_or", np.logical_or, "input or other, elementwise (bool; nonzero is true)")
logical_xor = _logical("logical_xor", np.logical_xor, "input xor other, elementwise (bool; nonzero is true)")


@register("logical_not", sig="logical_not(input)", doc="not input, elementwise (bool; nonzero is true)",
          category="comparison")
def logical_not(input):
    return Tensor._make(np.logical_not(np.asarray(val(input))), None)


def _bitwise(name, np_fn, cpu_name, doc):
    def op(input, other):
        a, b = promote(val(input), val(other))
        kind = np.result_type(a, b).kind
        if kind == "f":
            raise TorchRuntimeError(f"\"{cpu_name}\" not implemented for '{dtype_title(np.result_type(a, b))}'")
        check_broadcast(a, b)
        try:
            return Tensor._make(np.asarray(np_fn(a, b)), None)
        except ValueError:
            raise arith.broadcast_error(a, b) from None

    op.__name__ = name
    return register(name, sig=f"{name}(input, other)", doc=doc, category="comparison",
                    result_shape=sizes.broadcast)(op)


bitwise_and = _bitwise("bitwise_and", np.bitwise_and, "bitwise_and_cpu", "input & other (bool or integer)")
bitwise_or = _bitwise("bitwise_or", np.bitwise_or, "bitwise_or_cpu", "input | other (bool or integer)")
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor, "bitwise_xor_cpu", "input ^ other (bool or integer)")


@register("bitwise_not", sig="bitwise_not(input)", doc="~input (bool or integer)", category="comparison")
def bitwise_not(input):
    x = input.array
    if x.dtype.kind == "f":
        raise TorchRuntimeError(f"\"bitwise_not_cpu\" not implemented for '{dtype_title(x.dtype)}'")
    return Tensor._make(np.invert(x), None)


Tensor.__and__ = bitwise_and
Tensor.__rand__ = lambda self, other: bitwise_and(other, self)
Tensor.__or__ = bitwise_or
Tensor.__ror__ = lambda self, other: bitwise_or(other, self)
Tensor.__xor__ = bitwise_xor
Tensor.__rxor__ = lambda self, other: bitwise_xor(other, self)
Tensor.__invert__ = bitwise_not
