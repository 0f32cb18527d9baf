"""One graph node for an op with several differentiable outputs (linalg.svd's U, S, Vh; linalg.eigh's
eigenvalues and eigenvectors), as torch has: its backward formula branches on which outputs' gradients are
*undefined* (no path reached them), which a sum of one node per output cannot tell from zero.

The engine's nodes have one output each, so each output gets a small node of its own (OutputSlot) that hands its
gradient to the joint node in its slot of a Parcel; the engine adds parcels like gradients (so an output used
twice sums its two gradients first, as torch does), and the joint node runs once every output that was reached
has sent its parcel, with None in the slots nobody reached.  The joint node checks its saved outputs' versions
itself, with torch's message ("output 1 of LinalgSvd"), and is released after a backward without retain_graph.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.autograd import Function, GradMode, next_sequence, type_name
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError
from gradcli.engine.tensor import Tensor


class Parcel:
    """The gradients of a joint node's outputs on their way to it, one slot per output (None: none arrived)."""

    __slots__ = ("grads",)
    shape = ()

    def __init__(self, grads):
        self.grads = grads

    def __add__(self, other):
        merged = list(self.grads)
        for i, g in enumerate(other.grads):
            if g is not None:
                merged[i] = g if merged[i] is None else merged[i] + g
        return Parcel(merged)

    __radd__ = __add__


class JointBackward(Function):
    """The op's node.  Subclasses set `name`, `short` (torch's name of the node in its in-place error), `what`
    (the op, for the create_graph refusal) and `rule(grads, arrays, params)`: the gradient for the input from the
    outputs' gradients (arrays, None where undefined).  aux: [outputs handed on (Tensors or None), their
    versions, the outputs' arrays, params]."""

    __slots__ = ()
    short = ""
    what = ""

    @staticmethod
    def rule(grads, arrays, params):  # pragma: no cover - abstract
        raise NotImplementedError

    @staticmethod
    def backward(node, parcel):
        outputs, versions, arrays, params = node.aux
        grads = list(parcel.grads)
        if GradMode.enabled or any(isinstance(g, Tensor) for g in grads):
            raise TorchNotImplementedError(f"gradcli does not differentiate {node.what} twice (create_graph=True)")
        for i, (tensor, version) in enumerate(zip(outputs, versions)):
            if tensor is not None and tensor._version[0] != version:
                shape = ", ".join(map(str, tensor.array.shape))
                raise TorchRuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{type_name(tensor)} [{shape}]], which is output {i} of {node.short}, is at "
                    f"version {tensor._version[0]}; expected version {version} instead. Hint: enable anomaly "
                    "detection to find the operation that failed to compute its gradient, with "
                    "torch.autograd.set_detect_anomaly(True, check_nan=False).")
        return (type(node).rule([None if g is None else np.asarray(g) for g in grads], arrays, params),)

    def _release(self):
        self.released = True
        self.aux = None


class OutputSlot(Function):
    """Output `index` of a joint node: sends its gradient on in its slot of a Parcel."""

    __slots__ = ("index", "count")

    @staticmethod
    def backward(node, grad):
        grads = [None] * node.count
        grads[node.index] = grad
        return (Parcel(grads),)


def _node(cls, next_functions, in_shapes, out_shape, aux):
    node = object.__new__(cls)
    node.next_functions = next_functions
    node.needs_input_grad = (True,)
    node.in_shapes = in_shapes
    node.out_shape = out_shape
    node.saved = node.versions = ()
    node.saved_cast = None
    node.out = None
    node.aux = aux
    node.released = False
    node.retained = None
    node.seq = next_sequence()
    return node


def record(joint_cls, slot_cls, source: Tensor, arrays, params, wanted) -> tuple:
    """The outputs `arrays` of an op on `source` as Tensors, those in `wanted` recorded on one joint node when
    `source` needs a gradient (torch's node: created once, before its outputs' own)."""
    outs = tuple(None if a is None else Tensor._make(a, None) for a in arrays)
    if not (source.requires_grad and GradMode.enabled):
        return outs
    kept = [t if i in wanted else None for i, t in enumerate(outs)]
    joint = _node(joint_cls, ((source.grad_fn or source),), (source.array.shape,), (),
                  [kept, [0 if t is None else t._version[0] for t in kept], tuple(arrays), params])
    for i in wanted:
        slot = _node(slot_cls, (joint,), ((),), outs[i].array.shape, None)
        slot.index, slot.count = i, len(arrays)
        outs[i].grad_fn = slot
        outs[i].requires_grad = True
    return outs
