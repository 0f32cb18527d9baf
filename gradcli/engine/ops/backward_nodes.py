"""Backward functions that are nodes of their own under create_graph, as torch's `*_backward` ops are.

torch differentiates relu, leaky_relu, hardtanh, the shrinks, rrelu and threshold through a `*_backward`
function (threshold_backward(grad, result, 0), leaky_relu_backward(grad, self, slope) ...) whose own derivative
(derivatives.yaml) is the same function of the incoming gradient for `grad_output` and `zeros_like(grad)` for
`self`.  So the gradient they hand on under create_graph requires grad whenever the saved input does, its
grad_fn is `<Name>BackwardBackward0`, and a second backward gives zeros for the input, not an error that
nothing requires grad.  `piecewise(name, rule)` wraps a rule ``rule(g, x, *params)`` (linear in `g`, piecewise
constant in `x`) into that node; on arrays (the first-order pass) it is the rule itself.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.tensor import Tensor


class _PiecewiseBackward(Function):
    __slots__ = ()
    saves = (1,)
    rule = None

    @classmethod
    def forward(cls, ctx, g, x, *params):
        ctx.aux = params
        with np.errstate(all="ignore"):
            out = np.asarray(cls.rule(g, x, *params))
        if out.shape != np.shape(x):
            out = np.broadcast_to(out, np.shape(x)).copy()
        return out

    @classmethod
    def backward(cls, ctx, gg, x):
        need_g, need_x = ctx.needs_input_grad[:2]
        d_g = cls.call(gg, x, *ctx.aux) if need_g else None
        d_x = dual.zeros_like(gg) if need_x else None  # derivatives.yaml: self: zeros_like(grad)
        return (d_g, d_x) + (None,) * len(ctx.aux)

    @classmethod
    def call(cls, g, x, *params):
        if isinstance(g, Tensor) or isinstance(x, Tensor):
            return cls.apply(g, x, *params)
        return cls.rule(g, x, *params)


class _NotImplementedBackward(_PiecewiseBackward):
    """A `*_backward` torch has no derivative for (derivatives.yaml: not_implemented): its node is named
    torch::autograd::NotImplemented and differentiating through it raises torch's error."""

    __slots__ = ()
    name = "NotImplemented"
    backward_name = ""

    @classmethod
    def backward(cls, ctx, gg, x):
        raise TorchRuntimeError(f"derivative for aten::{cls.backward_name} is not implemented")


def piecewise(name: str, rule):
    """`rule(g, x, *params)` as torch's `<name>` node under create_graph (see the module's doc)."""
    node = type(name, (_PiecewiseBackward,), {"__slots__": (), "name": name, "rule": staticmethod(rule)})
    return node.call


def not_implemented(aten_name: str, rule):
    """`rule(g, x)` as the node torch records for `aten_name`, a backward it cannot differentiate."""
    node = type(aten_name, (_NotImplementedBackward,), {"__slots__": (), "backward_name": aten_name,
                                                        "rule": staticmethod(rule)})
    return node.call
