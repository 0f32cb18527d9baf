"""In-place ops (add_, mul_, zero_, ..., and augmented assignment) with PyTorch's autograd rules:
a leaf that requires grad cannot be modified in place while grad mode is on; a non-leaf gets the op
appended to its history; every in-place write bumps the version counter, so a backward that needs the
old value fails with PyTorch's error instead of silently using the new one."""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import Function, GradMode
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops import arith
from gradcli.engine.ops.common import dtype_title, val
from gradcli.engine.ops.elementwise import clamp
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import expand, getitem, normalise_key, to_index
from gradcli.engine.tensor import Tensor

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."


def apply_inplace(self: Tensor, compute) -> Tensor:
    """Replace `self`'s value by ``compute(self)`` in place, keeping autograd history consistent."""
    tracking = GradMode.enabled
    if tracking and self.requires_grad and self.grad_fn is None:
        raise TorchRuntimeError(LEAF_INPLACE)
    source = self
    if tracking and self.requires_grad:
        # The new node differentiates the old value with the old history, as PyTorch's in-place ops save
        # the original self: compute on a snapshot, so the write below does not invalidate the node's own
        # saved input (y.clone().clamp_(min=0) must backpropagate), while nodes that saved `self` earlier
        # still see its version change.
        source = Tensor._make(self.array.copy(), self.grad_fn)
    result = compute(source)
    node = result.grad_fn
    if tracking and node is not None and source is self and any(s is self for s in node.saved):
        # self is a constant here (it does not require grad): the node keeps a copy of its old value
        old = Tensor._make(self.array.copy(), None)
        node.saved = tuple(old if s is self else s for s in node.saved)
        node.versions = tuple(0 if s is old else v for s, v in zip(node.saved, node.versions))
    new = result.array
    if new.dtype != self.array.dtype and new.dtype.kind == "f" and self.array.dtype.kind in "iub":
        raise TorchRuntimeError(
            f"result type {dtype_title(new.dtype)} can't be cast to the desired output type "
            f"{dtype_title(self.array.dtype)}")
    if new.shape != self.array.shape:
        try:
            new = np.broadcast_to(new, self.array.shape)
        except ValueError:
            raise TorchRuntimeError(
                f"output with shape [{', '.join(map(str, self.array.shape))}] doesn't match the broadcast shape "
                f"[{', '.join(map(str, new.shape))}]") from None
    if not self.array.flags.writeable:
        raise TorchRuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")
    self.array[...] = new
    self._version[0] += 1
    if tracking and result.grad_fn is not None:
        # self's history now ends in the new node (whose inputs are self's old history)
        self.grad_fn = result.grad_fn
        self.requires_grad = True
        if node.saves_output and node.out is not None:
            # self is now that node's output: a later in-place edit of self must invalidate it (exp_().abs_())
            node.out_version, node.out_base = self._version, self._version[0]
    return self


class Fill(Function):
    __slots__ = ()
    name = "FillBackward0"

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x.shape, value, dtype=x.dtype)

    @staticmethod
    def backward(ctx, g):
        return (dual.zeros_like(g),)


class Zero(Fill):
    __slots__ = ()
    name = "ZeroBackward0"


def zero_(self):
    return apply_inplace(self, lambda s: Zero.apply(s, 0))


def fill_(self, value):
    return apply_inplace(self, lambda s: Fill.apply(s, val(value)))


def add_(self, other, *, alpha=1):
    return apply_inplace(self, lambda s: arith.add(s, other, alpha=alpha))


def sub_(self, other, *, alpha=1):
    return apply_inplace(self, lambda s: arith.sub(s, other, alpha=alpha))


def mul_(self, other):
    return apply_inplace(self, lambda s: arith.mul(s, other))


def div_(self, other):
    return apply_inplace(self, lambda s: arith.div(s, other))


def pow_(self, exponent):
    return apply_inplace(self, lambda s: arith.pow(s, exponent))


def clamp_(self, min=None, max=None):  # noqa: A002 - torch's names
    return apply_inplace(self, lambda s: clamp(s, min, max))


class Copy(Function):
    __slots__ = ()
    name = "CopyBackwards"

    @staticmethod
    def forward(ctx, x, src):
        return np.broadcast_to(np.asarray(src, dtype=x.dtype), x.shape).copy()

    @staticmethod
    def backward(ctx, g):
        return dual.zeros_like(g), g


def copy_(self, src):
    return apply_inplace(self, lambda s: Copy.apply(s, src))


class CopySlices(Function):
    """x[key] = value: the overwritten elements' gradient goes to value, the others' to x."""

    __slots__ = ()
    name = "CopySlices"

    @staticmethod
    def forward(ctx, x, value, key):
        target = x[key]
        # validates and broadcasts as torch does, with its "expanded size" error
        value = expand(Tensor._make(np.asarray(value), None), np.shape(target)).array
        out = x.copy()
        out[key] = value
        mask = np.zeros(x.shape, dtype=bool)
        mask[key] = True
        ctx.aux = (key, mask)
        return out

    @staticmethod
    def backward(ctx, g):
        key, mask = ctx.aux
        value_grad = getitem(g, key) if isinstance(g, Tensor) else g[key]
        return dual.where(mask, 0.0, g), value_grad, None


def setitem(self, key, value):
    key = normalise_key(to_index(key), self.array.shape)[0]
    if GradMode.enabled and self.requires_grad and self.grad_fn is None:
        raise TorchRuntimeError("a view of " + LEAF_INPLACE)  # torch writes through a view of self
    apply_inplace(self, lambda s: CopySlices.apply(s, value, key))


for _name, _fn in {"zero_": zero_, "fill_": fill_, "add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_,
                   "pow_": pow_, "clamp_": clamp_, "copy_": copy_}.items():
    register(_name, sig=f"{_name}(...)", doc=f"in-place {_name[:-1]}", category="inplace", torch=False)(_fn)

Tensor.__setitem__ = setitem
Tensor.__iadd__ = add_
Tensor.__isub__ = sub_
Tensor.__imul__ = mul_
Tensor.__itruediv__ = div_
Tensor.__ipow__ = pow_


def _inplace_unary(name):
    def op(self):
        return apply_inplace(self, lambda s: getattr(s, name)())

    op.__name__ = name + "_"
    op.__doc__ = f"{name} in place"
    return op


# The in-place forms of the unary math functions: the same node as the out-of-place op, recorded on self.
for _name in ("relu", "sigmoid", "tanh", "exp", "log", "abs", "sqrt", "neg", "sin", "cos", "tan", "exp2", "expm1",
              "log2", "log10", "log1p", "rsqrt", "reciprocal", "floor", "ceil", "trunc", "frac", "sign", "square",
              "asin", "acos", "atan", "sinh", "cosh", "erf", "erfinv", "lgamma", "digamma", "logit", "sinc",
              "nan_to_num"):
    register(_name + "_", sig=f"{_name}_(input)", doc=f"{_name} in place", category="inplace",
             torch=False)(_inplace_unary(_name))
