"""Unary elementwise ops.  Each is one `unary(...)` line: forward in numpy, backward as a rule in `dual`
operations (so it is differentiable again), with PyTorch's grad_fn name."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual, kernels
from gradcli.engine.autograd import ELEMENT_WISE, Function
from gradcli.engine.dtypes import result_type
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops import sizes
from gradcli.engine.ops.backward_nodes import piecewise
from gradcli.engine.ops.common import as_float, binary_layout, like_layout, promote, val
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def unary(name, grad_fn, forward, rule, *, uses="x", doc, functional=False, method=True, category="elementwise",
          float_only=True, aliases=(), inplace_flag=False):
    """Define op `name`: ``forward(array) -> array`` and ``rule(g, saved) -> grad`` where `saved` is the
    input (uses="x") or the output (uses="out").  `inplace_flag`: it takes F.relu's ``inplace=True``, which
    calls the in-place method `name`_ (ops/inplace.py)."""

    def fwd(ctx, x):
        # as_float's test inlined: the hot path of small tensors
        return like_layout(forward(x if not float_only or x.dtype.kind == "f" else as_float(x)), x)

    def bwd(ctx, g, saved):
        return (rule(g, saved),)

    cls = type(grad_fn.replace("Backward0", ""), (Function,), {
        "__slots__": (), "name": grad_fn, "saves": (0,) if uses == "x" else (), "saves_output": uses == "out",
        "uniform_grad_ok": True, "forward": staticmethod(fwd), "backward": staticmethod(bwd),
        "jvp": ELEMENT_WISE})  # auto_element_wise: the rule fed the tangent

    def op(input):
        return cls.apply(input)

    if inplace_flag:
        def op(input, inplace=False):  # noqa: F811 - the form that takes the flag
            return getattr(input, name + "_")() if inplace else cls.apply(input)

    op.__name__ = name
    op.__doc__ = doc
    register(name, sig=f"{name}(input)", doc=doc, category=category, functional=functional, method=method,
             aliases=aliases)(op)
    return op


exp = unary("exp", "ExpBackward0", kernels.exp, lambda g, y: g * y, uses="out", doc="e ** input")
log = unary("log", "LogBackward0", kernels.log, lambda g, x: g / x, doc="natural logarithm")
sin = unary("sin", "SinBackward0", kernels.sin, lambda g, x: g * dual.cos(x), doc="sine")
cos = unary("cos", "CosBackward0", kernels.cos, lambda g, x: g * -dual.sin(x), doc="cosine")
tan = unary("tan", "TanBackward0", kernels.tan, lambda g, y: g * (1 + y * y), uses="out", doc="tangent")
tanh = unary("tanh", "TanhBackward0", kernels.tanh, lambda g, y: g * dual.one_minus_square(y), uses="out",
             doc="hyperbolic tangent", functional=True)
sqrt = unary("sqrt", "SqrtBackward0", kernels.sqrt, lambda g, y: g / (2 * y), uses="out",
             doc="square root (gradient inf at 0, as torch)")
abs = unary("abs", "AbsBackward0", np.abs, lambda g, x: g * dual.sign(x),
            doc="absolute value (gradient 0 at 0 and at nan, as torch's sgn)",
            float_only=False, aliases=("absolute",))
Tensor.__abs__ = abs  # Python's abs(x)


sigmoid = unary("sigmoid", "SigmoidBackward0", kernels.sigmoid, lambda g, y: g * (1 - y) * y, uses="out",
                doc="logistic function 1 / (1 + e**-x)", functional=True)
def _relu(x):
    """max(x, 0) as torch's: nan stays nan, and relu(-0.0) is -0.0 (numpy's maximum gives +0.0: those are put
    back; np.where(x < 0, 0, x), which needs no repair, costs ten times as much on a random sign)."""
    if x.dtype.kind != "f" or x.ndim == 0:  # (maximum of a 0-d array is a numpy scalar)
        return np.where(x < 0, 0, x)
    out = np.maximum(x, x.dtype.type(0))
    negative_zero = x.view(f"i{x.itemsize}") == np.iinfo(f"i{x.itemsize}").min
    if negative_zero.any():
        out[negative_zero] = x[negative_zero]
    return out


relu = unary("relu", "ReluBackward0", _relu,
             piecewise("ThresholdBackwardBackward0", lambda g, y: dual.where(val(y) <= 0, 0.0, g)), uses="out",
             doc="max(x, 0) (gradient 0 at 0)",
             functional=True, float_only=False, inplace_flag=True)


def keep_input_at_zero_bounds(out, x, lo, hi):
    """torch's clamp with number bounds returns the input itself where it equals a bound, so -0.0 clamped at
    0.0 stays -0.0 (numpy's clip returns the bound); only a zero bound can tell the two apart."""
    if lo == 0 or hi == 0:
        # only a zero input can differ (its sign): not np.where over every element (a branch each)
        zero = x == 0
        if zero.any():
            out = np.where(zero, x, out)
    return out


class Clamp(Function):
    __slots__ = ()
    name = "ClampBackward1"
    saves = (0,)
    uniform_grad_ok = True
    jvp = ELEMENT_WISE

    @staticmethod
    def forward(ctx, x, min=None, max=None):  # noqa: A002 - torch's names
        ctx.aux = (min, max)
        if min is None and max is None:
            raise TorchRuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        if x.dtype.kind == "f":
            return keep_input_at_zero_bounds(np.clip(x, min, max).astype(x.dtype, copy=False), x, min, max)
        dtype = x.dtype  # an integer or bool tensor takes torch's result type with its bounds (2.0: the default)
        for bound in (min, max):
            if bound is not None:
                dtype = result_type(np.empty(0, dtype), bound)
        return np.clip(x, min, max).astype(dtype, copy=False)

    @staticmethod
    def backward(ctx, g, x):
        lo, hi = ctx.aux
        xv = val(x)
        inside = np.ones(xv.shape, dtype=bool)
        if lo is not None:
            inside &= xv >= lo
        if hi is not None:
            inside &= xv <= hi
        return (dual.where(inside, g, 0.0),)


@register("clamp", sig="clamp(input, min=None, max=None)", doc="limit values to [min, max] (gradient 1 at the bounds)",
          category="elementwise", aliases=("clip",), result_shape=sizes.broadcast)
def clamp(input, min=None, max=None):  # noqa: A002 - torch's names
    return Clamp.apply(input, min=min, max=max)


class Where(Function):
    __slots__ = ()
    name = "WhereBackward0"
    uniform_grad_ok = True

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        """where(condition, self_t, other_t), a zero tangent for an operand without one."""
        _, ta, tb = tangents
        return np.where(ctx.aux, out.dtype.type(0) if ta is None else ta, out.dtype.type(0) if tb is None else tb)

    @staticmethod
    def forward(ctx, cond, a, b):
        cond = np.asarray(cond, dtype=bool)
        ctx.aux = cond

        a, b = promote(a, b)
        return binary_layout(np.where(cond, a, b), cond, a, b)  # torch's operands: condition, self, other

    @staticmethod
    def backward(ctx, g):
        cond = ctx.aux
        ga, gb = dual.where(cond, g, 0.0), dual.where(cond, 0.0, g)
        if type(ga) is np.ndarray:  # torch's where(condition, grad, 0): laid out as its condition and grad (a
            ga, gb = binary_layout(ga, cond, g), binary_layout(gb, cond, g)  # transposed condition: a later
        return None, ga, gb                                                   # sum_to adds in that order)


@register("where", sig="where(condition, input, other)",
          doc="input where condition holds, else other; where(condition) alone: the indices where it holds",
          category="elementwise", result_shape=sizes.broadcast)
def where(condition, input=None, other=None):
    if input is None and other is None:  # torch.where(condition) is torch.nonzero(condition, as_tuple=True)
        positions = np.nonzero(np.asarray(val(condition)))
        return tuple(Tensor._make(p.astype(np.int64), None) for p in positions)
    if isinstance(condition, Tensor) and condition.array.dtype != bool and isinstance(input, Tensor) \
            and input.array.dtype == bool:
        condition, input = input, condition  # the method form: input.where(condition, other)
    return Where.apply(val(condition), input, other)


sign = unary("sign", "SignBackward0", dual.np_sign, lambda g, x: dual.zeros_like(g),
             doc="sign of input (-1, 0 or 1; 0 at nan)", float_only=False)
