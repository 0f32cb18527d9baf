"""Views: tensors that share their base's memory (x[0], x.t(), x.view(4), x.expand(...) ...), as PyTorch's are.

A view op's node is a `ViewFunction`: besides recording the node, its `apply` marks the result as a view of the
input's base (the tensor that owns the memory: never itself a view, as in torch a view of a view has the first
view's base) and remembers how to regenerate the view from that base, as the chain of view ops applied to it.
The view shares the base's version counter, and the base keeps weak references to its live views.

What this is for is in `inplace.py`: an in-place op on a view rewrites the base's history (CopySlices), and any
in-place change of the base or of one of its views gives every live view a new grad_fn (AsStridedBackward0),
as torch's rebase_history and its view grad_fn regeneration do.  Only view ops pay for this; other ops and
`Function.apply` are untouched.
"""

from __future__ import annotations

import weakref

import numpy as np

from gradcli.engine.autograd import Function, GradMode
from gradcli.engine.tensor import Tensor

# torch's CreationMeta: how a view came to be, which decides whether it may be modified in place
DEFAULT, NO_GRAD_MODE, MULTI_OUTPUT_NODE, IN_CUSTOM_FUNCTION = "default", "no_grad", "multi_output", "custom_function"
FRESH = object()  # ViewInfo.held: torch's grad_fn of the view is the current one


class Region:
    """Where a view's elements are in its base, from the base's shape and the chain of view ops: what CopySlices
    and AsStridedBackward0 need (torch's TensorGeometry), without holding the base itself."""

    __slots__ = ("shape", "chain", "_index", "_mask", "_overlaps")

    def __init__(self, shape: tuple, chain: tuple):
        self.shape = shape
        self.chain = chain
        self._index = None
        self._mask = None
        self._overlaps = None

    def index(self) -> np.ndarray:
        """For each element of the view (an array of the view's shape), its position in the flattened base:
        the chain of view ops replayed on 0, 1, 2 ... laid out in the base's shape."""
        if self._index is None:
            positions = np.arange(int(np.prod(self.shape, dtype=np.int64))).reshape(self.shape)
            for cls, params in self.chain:
                positions = cls.replay(positions, *params)
            self._index = np.asarray(positions)
        return self._index

    def mask(self) -> np.ndarray:
        """True where the base's elements are seen by the view (base-shaped)."""
        if self._mask is None:
            mask = np.zeros(int(np.prod(self.shape, dtype=np.int64)), dtype=bool)
            mask[self.index()] = True
            self._mask = mask.reshape(self.shape)
        return self._mask

    def overlaps(self) -> bool:
        """Whether two elements of the view are one element of the base (an expanded view)."""
        if self._overlaps is None:
            index = self.index()
            self._overlaps = bool(index.size) and int(self.mask().sum()) != index.size
        return self._overlaps


class ViewInfo:
    """What a view knows of its base: the base, the view ops that regenerate it, torch's creation meta and
    the output number (which output of a multi-output op, for torch's messages)."""

    __slots__ = ("base", "chain", "creation", "output_nr", "grad_dropped", "held", "_region", "__weakref__")

    def __init__(self, base: Tensor, chain: tuple, creation: str):
        self.base = base
        self.chain = chain  # ((view Function class, params), ...) applied to the base, in order
        self.creation = creation
        self.output_nr = 0
        # created in no_grad mode from a base that requires grad: it requires grad as torch's view does, but
        # has no gradient accumulator of its own (torch: requires_grad comes from the base, not the view)
        self.grad_dropped = False
        # the grad_fn torch still holds, or FRESH: torch regenerates a view's grad_fn when the view is next used
        # (touch), not when its base changes; until then it has the old one (which decides how torch names a
        # modified output, see inplace.CopySlices, and whether an in-place op sees a leaf, see check_inplace)
        self.held = FRESH
        self._region = None

    def touch(self) -> None:
        """The view's grad_fn is read (used in an op, printed ...): torch would regenerate it now."""
        self.held = FRESH

    def region(self) -> Region:
        if self._region is None:
            self._region = Region(self.base.array.shape, self.chain)
        return self._region


class ViewFunction(Function):
    """A view op's node: `forward` returns a numpy view of its input, and the result is marked a view.

    `replay(array, *params)` regenerates the view from an array laid out as the input (by default `forward`
    itself); `multi_output` marks the pieces of unbind/split/chunk, which torch forbids modifying in place."""

    __slots__ = ()
    multi_output = False
    torch_edges = (0,)  # the input; the rest are the view's parameters

    @classmethod
    def apply(cls, x, *params):
        out = super().apply(x, *params)
        if isinstance(x, Tensor):
            mark_view(x, out, cls, params)
        return out

    @classmethod
    def replay(cls, array, *params):
        ctx = object.__new__(cls)
        ctx.aux = None
        return cls.forward(ctx, array, *params)


def mark_view(x: Tensor, out: Tensor, cls, params: tuple) -> None:
    """Record `out` as a view of x's base, made by ``cls`` with ``params`` from x (torch's as_view)."""
    parent = getattr(x, "_view", None)
    if parent is None:
        base, chain, creation = x, (), DEFAULT
    else:
        base, chain, creation = parent.base, parent.chain, parent.creation
    if not GradMode.enabled:
        creation = NO_GRAD_MODE
    elif cls.multi_output:
        creation = MULTI_OUTPUT_NODE
    info = ViewInfo(base, chain + ((cls, params),), creation)
    out._view = info
    out._version = x._version
    if out.grad_fn is None and base.requires_grad:
        out.requires_grad = True  # torch: a view requires grad when its base does, even one made under no_grad
        info.grad_dropped = True
    views = getattr(base, "_views", None)
    if views is None:
        base._views = views = []
    elif len(views) >= 16 and not len(views) & (len(views) - 1):  # at each power of two: drop the dead ones
        views[:] = [ref for ref in views if ref() is not None]
    views.append(weakref.ref(out))


def live_views(base: Tensor) -> list:
    """The base's views that are still referenced, oldest first."""
    views = getattr(base, "_views", None)
    if not views:
        return []
    alive = [view for view in (ref() for ref in views) if view is not None]
    if len(alive) != len(views):
        views[:] = [weakref.ref(view) for view in alive]
    return alive


def number_outputs(views) -> tuple:
    """The outputs of a multi-output view op (unbind, split), numbered as torch's messages count them."""
    views = tuple(views)
    for i, view in enumerate(views):
        info = getattr(view, "_view", None)
        if info is not None:
            info.output_nr = i
    return views
