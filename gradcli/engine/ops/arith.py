"""Arithmetic: + - * / ** and unary minus, with broadcasting and PyTorch's type promotion."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels
from gradcli.engine.autograd import ELEMENT_WISE, Function
from gradcli.engine.dtypes import get_default_dtype
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, broadcast_message
from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import binary_layout, check_broadcast, promote, val
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def broadcast_error(a, b):
    message = broadcast_message(np.shape(a), np.shape(b))
    return TorchRuntimeError(message or "shapes cannot be broadcast together")


def _as_grad_dtype(saved, g):
    """An integer or bool operand saved for backward, in the gradient's dtype: torch's float32 * int64 stays
    float32 where numpy's would widen to float64."""
    if type(saved) is np.ndarray and saved.dtype.kind in "biu" and type(g) is np.ndarray:
        return saved.astype(g.dtype)
    return saved


def elementwise_binary(np_fn, a, b):
    if type(b) is float and type(a) is np.ndarray and a.dtype.kind == "f":
        return np_fn(a, b)  # a float tensor and a Python float (the chain's y * 0.5): nothing to promote or check
    a, b = promote(a, b)
    check_broadcast(a, b)
    try:
        return binary_layout(np_fn(a, b), a, b)
    except ValueError:
        raise broadcast_error(a, b) from None


def _is_bool(v) -> bool:
    return v.dtype == np.bool_ if type(v) is np.ndarray else type(v) is bool


def _sub_check(a, b) -> None:
    """torch's sub_check (a Python bool is a bool tensor to it)."""
    if _is_bool(a) or _is_bool(b):
        if _is_bool(a) and _is_bool(b):
            raise TorchRuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                                    "`^` or `logical_xor()` operator instead.")
        raise TorchRuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                                "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def _alpha_check(dtype, alpha) -> None:
    """torch's alpha_check for add and sub."""
    if type(alpha) is bool and dtype != np.bool_:
        raise TorchRuntimeError("Boolean alpha only supported for Boolean results.")
    if dtype.kind not in "fc" and isinstance(alpha, float):
        raise TorchRuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


class Add(Function):
    """a + alpha * b; Sub is the same op with the other sign."""

    __slots__ = ()
    name = "AddBackward0"
    jvp = ELEMENT_WISE  # auto_element_wise (add, sub: self_t + maybe_multiply(other_t, alpha))
    uniform_grad_ok = True
    combine = np.add
    sign = 1

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        if ctx.sign < 0:
            _sub_check(a, b)
        if alpha != 1 or type(alpha) is not int:
            ctx.aux = alpha
            a, b = promote(a, b)  # the result's dtype first: alpha * b in it (b * alpha alone was float32 for
            check_broadcast(a, b)  # a Python float b, so add(float64 x, 0.001, alpha=2) lost its last digits)
            dtype = np.result_type(a, b)
            _alpha_check(dtype, alpha)
            if dtype == np.bool_:  # torch's bool kernel: self + alpha * other, each a bool
                return np.logical_or(a, np.logical_and(b, bool(alpha)))
            if dtype.char in "fd":
                # torch's add kernel: fmadd(other, alpha, self) in the result dtype, sub's with -alpha
                a, b = np.asarray(a, dtype), np.asarray(b, dtype)
                try:
                    np.broadcast_shapes(a.shape, b.shape)
                except ValueError:
                    raise broadcast_error(a, b) from None
                with np.errstate(all="ignore"):  # laid out as torch's TensorIterator lays self and other out
                    return binary_layout(np.asarray(kernels.fma(b, dtype.type(ctx.sign * alpha), a), dtype), a, b)
            b = elementwise_binary(np.multiply, b, alpha)
        elif type(b) is float and type(a) is np.ndarray and a.dtype.kind == "f":
            return ctx.combine(a, b)  # elementwise_binary's fast path, without its call (the chain's y + 0.1)
        return elementwise_binary(ctx.combine, a, b)

    @staticmethod
    def backward(ctx, g):
        scale = ctx.sign * (1 if ctx.aux is None else ctx.aux)
        return g, (g if scale == 1 else -g if scale == -1 else g * scale)


class Sub(Add):
    __slots__ = ()
    name = "SubBackward0"
    combine = np.subtract
    sign = -1


class RSub(Function):
    """scalar - tensor, recorded as torch's rsub (other - self)."""

    __slots__ = ()
    name = "RsubBackward1"
    jvp = ELEMENT_WISE
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b):
        _sub_check(a, b)
        return elementwise_binary(np.subtract, b, a)

    @staticmethod
    def backward(ctx, g):
        return -g, None


def _half_by_scalar(np_fn, a, b):
    """A float16 tensor times (or over) a one-element `other` (a Python number, a 0-d tensor of any float dtype):
    torch's mul/div kernels take that operand's value in float32 (original_scalar_value<opmath_t>), compute in
    float32 and round once; numpy rounds it to float16 first (h * 0.7 gave 1.05078125 for 1.5, torch 1.0498046875).
    None where that path does not apply."""
    if type(a) is not np.ndarray or a.dtype.char != "e" or type(b) is bool:
        return None
    if type(b) in (float, int):
        value = b
    elif type(b) is np.ndarray and b.size == 1 and b.ndim <= a.ndim and b.dtype.kind == "f":
        value = b.reshape(()).item()
    else:
        return None
    pa, pb = promote(a, b)
    if np.result_type(pa, pb).char != "e":  # a 0-d float64 with a 0-d float16: float64, torch's own path
        return None
    with np.errstate(all="ignore"):
        return np_fn(a.astype(np.float32), np.float32(value)).astype(np.float16)


class Mul(Function):
    __slots__ = ()
    name = "MulBackward0"
    jvp = ELEMENT_WISE
    saves = (0, 1)
    pack_order = (1, 0)  # torch saves other, then self
    saves_when = {0: 1, 1: 0}
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b):
        if type(b) is float and type(a) is np.ndarray and a.dtype.kind == "f" and a.dtype.char != "e":
            return np.multiply(a, b)  # elementwise_binary's fast path, without its call (the chain's y * 0.5)
        half = _half_by_scalar(np.multiply, a, b)
        return half if half is not None else elementwise_binary(np.multiply, a, b)

    @staticmethod
    def backward(ctx, g, a, b):
        ga, gb = ctx.needs_input_grad
        return (g * _as_grad_dtype(b, g) if ga else None), (g * _as_grad_dtype(a, g) if gb else None)


class Div(Function):
    __slots__ = ()
    name = "DivBackward0"

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """(self_t - other_t * result) / other_p."""
        ta, tb = tangents
        b = arrays[1]
        if tb is None:
            return ta / b
        return (-(tb * out) if ta is None else ta - tb * out) / b

    saves = (0, 1)
    pack_order = (1, 0)  # torch saves other, then self
    saves_when = {0: 1}
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, b):
        half = _half_by_scalar(np.true_divide, a, b)
        if half is not None:
            return half
        a, b = promote(a, b)
        if np.result_type(a, b).kind != "f":  # integer true division gives the default float dtype
            dtype = get_default_dtype().np
            a, b = np.asarray(a, dtype=dtype), np.asarray(b, dtype=dtype)
        check_broadcast(a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            try:
                return binary_layout(np.true_divide(a, b), a, b)
            except ValueError:
                raise broadcast_error(a, b) from None

    @staticmethod
    def backward(ctx, g, a, b):
        ga, gb = ctx.needs_input_grad
        b = _as_grad_dtype(b, g)
        # other's term first, as torch's generated DivBackward0 computes them (with create_graph the nodes' order
        # decides the order in which a second derivative sums its terms)
        grad_b = -g * ((_as_grad_dtype(a, g) / b) / b) if gb else None
        return (g / b if ga else None), grad_b


class MulScalar(Function):
    """tensor * number through torch's C++ Scalar overload (mul.Scalar), which composite ops such as
    trapezoid call: the same values, recorded as MulBackward1."""

    __slots__ = ()
    name = "MulBackward1"
    jvp = ELEMENT_WISE
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, number):
        ctx.aux = number
        return elementwise_binary(np.multiply, a, number)

    @staticmethod
    def backward(ctx, g):  # grad * other: mul.Scalar again under create_graph
        return (MulScalar.apply(g, ctx.aux) if isinstance(g, Tensor) else g * ctx.aux,)


class AddScalar(Function):
    """tensor + number through add.Scalar (AddBackward1), as composite ops record it (special_ndtr)."""

    __slots__ = ()
    name = "AddBackward1"
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, number):
        return elementwise_binary(np.add, a, number)

    @staticmethod
    def backward(ctx, g):
        return (g,)


class DivScalar(Function):
    """tensor / number through div.Scalar (DivBackward1), as composite ops record it."""

    __slots__ = ()
    name = "DivBackward1"
    jvp = ELEMENT_WISE
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a, number):
        ctx.aux = number
        return np.true_divide(*promote(a, number))

    @staticmethod
    def backward(ctx, g):
        return (DivScalar.apply(g, ctx.aux) if isinstance(g, Tensor) else g / ctx.aux,)  # div.Scalar again


def mul_scalar(input, number):
    return MulScalar.apply(input, number)


def div_scalar(input, number):
    return DivScalar.apply(input, number)


class FloorDivide(Function):
    """floor(a / b), rounding toward -inf as Python's // (torch.floor_divide).  PyTorch defines no
    derivative: the result still joins the graph (grad_fn=<NotImplemented>) and backward through it fails."""

    __slots__ = ()
    name = "NotImplemented"
    runs_first = True  # PyTorch's error nodes, like AccumulateGrad, take the top of the ready queue

    @staticmethod
    def forward(ctx, a, b):
        a, b = promote(a, b)
        kind = np.result_type(a, b).kind
        if kind == "b":
            raise TorchNotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        if kind in "iu" and not np.all(b):
            raise TorchRuntimeError("ZeroDivisionError")
        check_broadcast(a, b)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            try:
                return np.floor_divide(a, b)  # numpy's float rule is Python's (and torch's): a/b where b == 0
            except ValueError:
                raise broadcast_error(a, b) from None

    @staticmethod
    def backward(ctx, g):
        raise TorchRuntimeError("derivative for aten::floor_divide is not implemented")


class Neg(Function):
    __slots__ = ()
    name = "NegBackward0"
    jvp = ELEMENT_WISE
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind == "b":
            raise TorchRuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
                "mask, use the `~` or `logical_not()` operator instead.")
        return np.negative(a)

    @staticmethod
    def backward(ctx, g):
        return (-g,)


class PowScalar(Function):
    """tensor ** number."""

    __slots__ = ()
    name = "PowBackward0"
    jvp = ELEMENT_WISE
    saves = (0,)
    torch_edges = (0,)  # the exponent is a number (Pow.Tensor_Scalar)
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.aux = exponent
        if x.dtype.kind in "iub":
            if isinstance(exponent, float):
                x = x.astype(get_default_dtype().np)
            elif exponent < 0:
                raise TorchRuntimeError("Integers to negative integer powers are not allowed.")
        with np.errstate(divide="ignore", invalid="ignore"):
            return dual.np_pow_scalar(x, exponent)

    @staticmethod
    def backward(ctx, g, x):
        e = ctx.aux
        if e == 0:
            return (g * 0.0 * x,) if isinstance(x, Tensor) else (np.zeros_like(x),)
        # (g * e) first: when g is sum's scalar grad this costs no full-size pass
        if e == 2:
            return ((g * 2.0) * x,)  # exact scaling: the same numbers as torch's grad * (2 * x)
        if e == 0.5 and type(x) is np.ndarray and x.dtype.kind == "f":
            # self.pow(-0.5) is torch's rsqrt kernel: -inf at -0.0 (the forward's documented deviation keeps +inf)
            with np.errstate(divide="ignore", invalid="ignore"):
                return (g * (dual.np_rsqrt(x) * 0.5),)
        # torch's pow_backward: grad * (exponent * self.pow(exponent - 1)), in that order
        return (g * (dual.pow(x, e - 1) * float(e)),)


class PowTensor(Function):
    """tensor ** tensor."""

    __slots__ = ()
    name = "PowBackward1"
    jvp = ELEMENT_WISE
    saves = (0, 1)
    pack_order = (1, 0)  # torch saves exponent, then self (then the result)
    saves_output = True
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x, y):
        x, y = promote(x, y)
        check_broadcast(x, y)
        with np.errstate(divide="ignore", invalid="ignore"):
            return dual.np_pow(x, y)

    @staticmethod
    def backward(ctx, g, x, y, out):
        gx = gy = None
        xv, yv = val(x), val(y)
        with np.errstate(divide="ignore", invalid="ignore"):
            if ctx.needs_input_grad[0]:
                gx = dual.where(yv == 0, 0.0, g * (y * dual.pow(x, y - 1)))
            if ctx.needs_input_grad[1]:
                gy = g * dual.where((xv == 0) & (yv >= 0), 0.0, out * dual.log(x))
        return gx, gy


class RPow(Function):
    """number ** tensor."""

    __slots__ = ()
    name = "PowBackward2"
    jvp = ELEMENT_WISE
    saves_output = True
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, base, y):
        ctx.aux = base
        base_arr, y = promote(base, y)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return dual.np_pow(base_arr, y)

    @staticmethod
    def backward(ctx, g, out):
        base = ctx.aux
        if base == 0:
            # torch: zero where the exponent is >= 0 (d/dy 0**y), here every saved exponent
            return None, g * 0.0
        # std::log of the double base: the C library's, as math.log (nan below 0, as std::log)
        return None, g * (out * (math.log(base) if base > 0 else math.nan))


# -- public functions ---------------------------------------------------------------------------------

def _t(x):
    return isinstance(x, Tensor)


@register("add", sig="add(input, other, *, alpha=1)", doc="input + alpha * other, broadcasting",
          category="arithmetic", result_shape=sizes.broadcast)
def add(input, other, *, alpha=1):
    if type(alpha) is int and alpha == 1:
        return Add.apply(input, other)  # no keyword to pass through apply and forward
    return Add.apply(input, other, alpha=alpha)


@register("sub", sig="sub(input, other, *, alpha=1)", doc="input - alpha * other, broadcasting",
          category="arithmetic", aliases=("subtract",), result_shape=sizes.broadcast)
def sub(input, other, *, alpha=1):
    if type(alpha) is int and alpha == 1:
        if not isinstance(input, Tensor):
            return RSub.apply(other, input)
        return Sub.apply(input, other)  # no keyword to pass through apply and forward
    return Sub.apply(input, other, alpha=alpha)


@register("mul", sig="mul(input, other)", doc="input * other elementwise, broadcasting", category="arithmetic",
          aliases=("multiply",), result_shape=sizes.broadcast)
def mul(input, other):
    return Mul.apply(input, other)


@register("div", sig="div(input, other)", doc="input / other (true division), broadcasting",
          category="arithmetic", aliases=("divide", "true_divide"), result_shape=sizes.broadcast)
def div(input, other):
    if not _t(input):
        return mul(reciprocal(other), input)  # torch computes number / t as t.reciprocal() * number
    return Div.apply(input, other)


@register("floor_divide", sig="floor_divide(input, other)",
          doc="input // other: the quotient rounded toward -inf (no gradient, as in PyTorch)",
          category="no-gradient", result_shape=sizes.broadcast)
def floor_divide(input, other):
    return FloorDivide.apply(input, other)


def _rfloordiv(self, other):
    return FloorDivide.apply(other, self)


@register("neg", sig="neg(input)", doc="-input", category="arithmetic", aliases=("negative",))
def neg(input):
    return Neg.apply(input)


@register("pow", sig="pow(input, exponent)", doc="input ** exponent (tensor or number on either side)",
          category="arithmetic", result_shape=sizes.broadcast)
def pow(input, exponent):  # noqa: A001 - torch's name
    if _t(exponent):
        if _t(input):
            return PowTensor.apply(input, exponent)
        return RPow.apply(input, exponent)
    if isinstance(exponent, np.ndarray):
        return PowTensor.apply(input, exponent)
    return PowScalar.apply(input, exponent)


class Reciprocal(Function):
    __slots__ = ()
    name = "ReciprocalBackward0"
    jvp = ELEMENT_WISE
    saves_output = True
    uniform_grad_ok = True

    @staticmethod
    def forward(ctx, x):
        if x.dtype.kind != "f":
            x = x.astype(get_default_dtype().np)
        with np.errstate(divide="ignore"):
            return np.reciprocal(x)

    @staticmethod
    def backward(ctx, g, out):
        return (-g * (out * out),)


@register("reciprocal", sig="reciprocal(input)", doc="1 / input", category="elementwise")
def reciprocal(input):
    return Reciprocal.apply(input)


# -- operators ----------------------------------------------------------------------------------------

def _rsub(self, other):
    return RSub.apply(self, other)


def _rtruediv(self, other):
    return Mul.apply(Reciprocal.apply(self), other)


def _rpow(self, other):
    return RPow.apply(other, self)


Tensor.__add__ = add
Tensor.__radd__ = add
Tensor.__sub__ = sub
Tensor.__rsub__ = _rsub
Tensor.__mul__ = mul
Tensor.__rmul__ = mul
Tensor.__truediv__ = div
Tensor.__rtruediv__ = _rtruediv
Tensor.__floordiv__ = floor_divide
Tensor.__rfloordiv__ = _rfloordiv
Tensor.__neg__ = neg
Tensor.__pos__ = lambda self: self
Tensor.__pow__ = pow
Tensor.__rpow__ = _rpow
