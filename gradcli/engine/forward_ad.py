"""Forward-mode automatic differentiation, as torch.autograd.forward_ad: `dual_level()`, `make_dual`,
`unpack_dual`, and the propagation of tangents through every op that has a forward formula.

A tensor's tangent is kept in its `_fw_grad` slot as ``(level, tangent Tensor)``; a tangent of a level that has
been closed is no tangent.  While a level is open, `Function.apply` hands each op to `propagate` (through
`autograd.FORWARD_AD`), which computes the result's tangent from the inputs' tangents with the op's forward
formula: the class attribute `jvp` of its `Function`, written beside its backward rule —

- `ELEMENT_WISE`: torch's ``auto_element_wise``: the backward rule fed each input's tangent for the gradient,
  the contributions added (torch's formula is the same arithmetic);
- `LINEAR`: torch's ``auto_linear``: the op itself applied to the tangents (a zero tangent for an input
  without one);
- a function ``jvp(ctx, tangents, arrays, out, params) -> array``: the formula of derivatives.yaml written out.

An op without one refuses a dual input (`NoForwardFormula`, naming the op), never a silent zero tangent.
Tangents are computed on arrays, without a graph (forward-over-reverse is not supported).
"""

from __future__ import annotations

import contextvars
import re
from collections import namedtuple

import numpy as np

from gradcli.engine import autograd, dtypes
from gradcli.engine.autograd import ELEMENT_WISE, LINEAR
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.ops.shape import View
from gradcli.engine.tangents import (  # noqa: F401 - the names forward AD's users read here
    ENABLED,
    LEVEL,
    NoForwardFormula,
    fw_grad_disabled,
    set_tangent,
    tangent_of,
)
from gradcli.engine.tensor import Tensor

_OPENED = [0]  # levels ever opened: each one's number
_OPEN = [0]  # levels open in any context: apply's hook is installed while there is one

NO_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() "
            "first.")
NESTED = "Nested forward mode AD is not supported at the moment"

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"


def op_name(cls) -> str:
    """torch's op name from a node's name: ExpBackward0 -> exp, LogSoftmaxBackward0 -> log_softmax."""
    base = re.sub(r"Backward\d*$", "", getattr(cls, "name", cls.__name__)) or cls.__name__
    return re.sub(r"(?<!^)(?=[A-Z])", "_", base).lower()


class dual_level:  # noqa: N801 - torch's name
    """`with fwAD.dual_level():` opens the (single) forward-AD level; leaving it drops every tangent of it."""

    def __enter__(self):
        if LEVEL.get() is not None:
            raise TorchRuntimeError(NESTED)
        _OPENED[0] += 1
        self._token = LEVEL.set(_OPENED[0])
        _OPEN[0] += 1
        autograd.FORWARD_AD[0] = propagate
        autograd.FORWARD_OVER_REVERSE[0] = check_backward
        autograd.FORWARD_CALL[0] = check_call
        return 0  # torch's first level is 0

    def __exit__(self, *exc):
        LEVEL.reset(self._token)
        _OPEN[0] -= 1
        if not _OPEN[0]:
            autograd.FORWARD_AD[0] = autograd.FORWARD_OVER_REVERSE[0] = autograd.FORWARD_CALL[0] = None
        return False


def _dtype_name(array) -> str:
    return str(dtypes.of_numpy(array.dtype))


_ENTERED: contextvars.ContextVar[tuple] = contextvars.ContextVar("gradcli_entered_levels", default=())


def enter_dual_level() -> int:
    """torch's enter_dual_level(): a level opened without a with block (left by exit_dual_level)."""
    level = dual_level()
    number = level.__enter__()
    _ENTERED.set((*_ENTERED.get(), level))
    return number


def exit_dual_level(*, level=None) -> None:
    """torch's exit_dual_level(): the level enter_dual_level opened, closed."""
    entered = _ENTERED.get()
    if not entered and level is None:  # torch's current level is then -1
        raise TorchRuntimeError("Dual level must be a positive number.")
    if not entered or (level is not None and level != 0):
        raise TorchRuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                                "This is not supported.")
    _ENTERED.set(entered[:-1])
    entered[-1].__exit__(None, None, None)


def make_dual(tensor, tangent, *, level=None):
    """torch's make_dual: a view of `tensor` carrying `tangent` at the open level.  The tangent is kept itself
    when its layout matches the primal's, else copied into the primal's layout."""
    current = LEVEL.get()
    if current is None:
        raise TorchRuntimeError(NO_LEVEL)
    if not isinstance(tensor, Tensor) or not isinstance(tangent, Tensor):
        raise TorchTypeError("make_dual(): argument 'primal' and 'tangent' must be Tensors")
    if tensor.array.dtype.kind not in "fc":
        raise TorchValueError(f"Expected primal to be floating point or complex, but got: {_dtype_name(tensor.array)}")
    if tangent.array.dtype.kind not in "fc":
        raise TorchValueError(f"Expected tangent to be floating point or complex, but got: "
                              f"{_dtype_name(tangent.array)}")
    if tangent.array.shape != tensor.array.shape:
        raise TorchRuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            f"not supported. Tensor is of size [{', '.join(map(str, tensor.array.shape))}] while the given forward "
            f"gradient is of size [{', '.join(map(str, tangent.array.shape))}].")
    with fw_grad_disabled():
        dual = View.apply(tensor, tensor.array.shape)
    if tangent.array.dtype != tensor.array.dtype or tangent.array.strides != tensor.array.strides:
        copy = np.empty_like(tensor.array)  # the primal's layout and dtype
        copy[...] = tangent.array
        tangent = Tensor._make(copy, None)
    set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """torch's unpack_dual: (a view of the primal without its tangent, the tangent or None)."""
    if not isinstance(tensor, Tensor):
        if LEVEL.get() is None:
            return UnpackedDualTensor(tensor, None)
        raise TorchTypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
                             f"{type(tensor).__name__}")
    tangent = tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with fw_grad_disabled():
        primal = View.apply(tensor, tensor.array.shape)
    return UnpackedDualTensor(primal, tangent)


# -- propagation ------------------------------------------------------------------------------------------

def propagate(cls, ctx, args, params, result) -> None:
    """Function.apply's hook while a level is open: the result's tangent from the inputs' (if any)."""
    level = LEVEL.get()
    if level is None or not ENABLED.get():
        return
    tangents = None
    for i, a in enumerate(args):
        fw = getattr(a, "_fw_grad", None) if isinstance(a, Tensor) else None
        if fw is not None and fw[0] == level:
            if tangents is None:
                tangents = [None] * len(args)
            tangents[i] = fw[1].array
    if tangents is None:
        return
    out = result.array
    if out.dtype.kind not in "fc":  # an integer or bool result carries no tangent (comparisons, argmax)
        return
    formula = getattr(cls, "jvp", None)
    if formula is None:
        raise NoForwardFormula(op_name(cls))
    arrays = [a.array if isinstance(a, Tensor) else a for a in args]
    with autograd.no_grad(), fw_grad_disabled():
        if formula == ELEMENT_WISE:
            tangent = element_wise(cls, ctx, tangents, arrays, out)
        elif formula == LINEAR:
            tangent = linear(cls, tangents, arrays, params)
        else:
            tangent = formula(ctx, tuple(tangents), arrays, out, params)
    if isinstance(tangent, Tensor):
        tangent = tangent.array
    tangent = np.asarray(tangent)
    if tangent.dtype != out.dtype:
        tangent = tangent.astype(out.dtype)
    if tangent.shape != out.shape:
        tangent = np.broadcast_to(tangent, out.shape).copy()
    result._fw_grad = (level, Tensor._make(tangent, None))
    if result.grad_fn is ctx:
        ctx.fw_level = level  # a node of dual inputs: backward through it inside the level is refused


FORWARD_OVER_REVERSE = ("backward through ops on dual tensors inside fwAD.dual_level() (forward-over-reverse: "
                        "gradcli would compute the gradient without its tangent); call backward outside the level, "
                        "or use torch.autograd.functional.jvp / torch.func.jvp of torch.func.grad")


def check_backward(deps) -> None:
    """run_backward's check while a level is open: no node it runs took a dual input at that level."""
    level = LEVEL.get()
    if level is None:
        return
    for node in deps:
        if isinstance(node, autograd.Function) and getattr(node, "fw_level", None) == level:
            raise NoForwardFormula(FORWARD_OVER_REVERSE, whole=True)


# Registered ops whose result has no tangent in torch either (new tensors, or the value without its history).
NO_TANGENT = frozenset({"detach", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
                        "randint_like", "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor"})


def _tensors(value, depth: int = 0):
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (tuple, list)) and depth < 2:
        for item in value:
            yield from _tensors(item, depth + 1)


def check_call(name: str, fn, args, kwargs):
    """A registered op called while a level is open: a floating result of dual inputs must carry a tangent
    (the op's own nodes gave it one), else the op went around the forward formulas: refused by name."""
    result = fn(*args, **kwargs) if kwargs else fn(*args)
    level = LEVEL.get()
    if level is None or not ENABLED.get() or name in NO_TANGENT:
        return result
    if not any(tangent_of(t, level) is not None for t in (*_tensors(args), *_tensors(tuple(kwargs.values())))):
        return result
    for out in _tensors(result):
        if out.array.dtype.kind in "fc" and tangent_of(out, level) is None:
            raise NoForwardFormula(name)
    return result


def element_wise(cls, ctx, tangents, arrays, out):
    """torch's auto_element_wise: the backward rule with each tangent for the gradient, summed over inputs."""
    saved = [arrays[i] for i in cls.saves]
    if cls.saves_output:
        saved.append(out)
    total = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        ctx.needs_input_grad = tuple(j == i for j in range(len(tangents)))
        part = cls.backward(ctx, t, *saved)[i]
        total = part if total is None else total + part
    return total


def linear(cls, tangents, arrays, params):
    """torch's auto_linear: the op on the tangents, a zero tangent for a differentiable input without one."""
    edges = cls.torch_edges if cls.torch_edges is not None else range(len(arrays))
    inputs = list(arrays)
    for i in edges:
        t = tangents[i]
        if t is None and isinstance(arrays[i], np.ndarray) and arrays[i].dtype.kind in "fc":
            t = np.zeros_like(arrays[i])
        if t is not None:
            inputs[i] = t
    ctx = object.__new__(cls)
    ctx.aux = None
    return cls.forward(ctx, *inputs, **params)
