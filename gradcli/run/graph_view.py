"""The autograd graph as a program walks it: `grad_fn.next_functions` as torch gives it, a tuple of
(node, input_nr) pairs, one per input of the op, with `(None, 0)` for an input that needs no gradient and
an AccumulateGrad node (whose `.variable` is the leaf) for a leaf that does."""

from __future__ import annotations

import weakref

from gradcli.engine.autograd import Function
from gradcli.engine.tensor import Tensor


class AccumulateGrad:
    """torch's node that accumulates a leaf's gradient into its `.grad`: one per leaf, as in torch."""

    __slots__ = ("variable", "__weakref__")
    name_ = "AccumulateGrad"

    def __init__(self, variable: Tensor):
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {id(self):#x}>"


_ACCUMULATORS: dict[int, tuple] = {}


def accumulate_grad(leaf: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node: the same object each time it is asked for while the leaf lives."""
    entry = _ACCUMULATORS.get(id(leaf))
    if entry is not None and entry[0]() is leaf:
        return entry[1]
    node = AccumulateGrad(leaf)
    try:
        _ACCUMULATORS[id(leaf)] = (weakref.ref(leaf), node)
    except TypeError:  # a tensor without weak references: a fresh node (torch's is cached, the values agree)
        pass
    return node


def next_functions(node: Function) -> tuple:
    pairs = []
    for entry in edges(node):
        if entry is None:
            pairs.append((None, 0))
        elif isinstance(entry, Tensor):
            pairs.append((accumulate_grad(entry), 0))
        else:
            pairs.append((entry, 0))
    return tuple(pairs)


def edges(node: Function) -> tuple:
    """The node's next_functions at torch's edges only (without the op's parameters: Function.torch_edges)."""
    entries = node.next_functions or ()
    positions = type(node).torch_edges
    return entries if positions is None else tuple(entries[i] for i in positions if i < len(entries))
