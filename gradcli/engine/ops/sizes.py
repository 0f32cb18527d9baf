"""The size guard: every op's result shape, known before numpy allocates it.

An op whose result can hold more elements than its largest tensor input declares a rule in its registry
entry (``register(..., result_shape=RULE)``).  A rule takes the op's own arguments and returns the shape the
op would produce (None when it cannot grow or the arguments are invalid: the op then reports its own error).
`guarded` wraps such an op so that, while a size limit is set, the rule runs first and an oversized result is
refused with `LimitExceeded` — for `eval` and `run` alike, whatever path calls the op.  Ops without a rule never
produce more elements than their largest tensor input (tests/safety/test_hostile_limits.py checks that for every op).
"""

from __future__ import annotations

import functools
from itertools import chain

import numpy as np

from gradcli.engine import dtypes
from gradcli.engine.errors import LimitExceeded, TorchRuntimeError
from gradcli.engine.state import BUDGET, ContextAttribute
from gradcli.engine.tensor import Tensor, wrap_dim


class _SizeLimitType:
    """The largest tensor ops may create (None: unlimited).  Set by the front ends from their Limits, in a
    context variable: each thread and each API call has its own."""

    max_elements = ContextAttribute("max_elements", None)


SizeLimit = _SizeLimitType()
# read by every guarded op: the context variables themselves, without the descriptor's Python call
_max_elements = _SizeLimitType.__dict__["max_elements"].var.get
_budget = BUDGET.get


def numel(shape) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def check_size(shape: tuple, op: str | None = None, itemsize: int | None = None) -> None:
    """Refuse a result of `shape` larger than the size limit, or (of `itemsize` bytes an element, by default
    the default dtype's) larger than the memory the call has left."""
    limit = SizeLimit.max_elements
    if limit is not None:
        n = numel(shape)
        if n > limit:
            what = f"{op}() would create" if op and op.isidentifier() else f"{op or 'this'} would create"
            raise LimitExceeded(f"{what} a tensor of shape {tuple(int(s) for s in shape)} ({n:,} elements), "
                                f"which exceeds the limit of {limit:,} elements per tensor")
    budget = BUDGET.get()
    if budget is not None and budget.memory is not None:
        budget.fits(numel(shape) * (itemsize or dtypes.get_default_dtype().itemsize))


def check_new_shape(shape: tuple, op: str | None = None, sized: bool = True) -> None:
    """A tensor created from sizes (zeros, ones, empty, full, rand, randn, new_*): PyTorch's error for a
    negative size, then the size guard (not for a meta tensor, `sized=False`: it holds no data)."""
    for s in shape:
        if s < 0:
            if op == "zeros":
                raise TorchRuntimeError("zeros: Dimension size must be non-negative.")
            raise TorchRuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    if sized:
        check_size(shape, op if op != "zeros" else None)


def guarded(name: str, fn, rule):
    """`fn` preceded by its size rule whenever a limit is set."""

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        if _max_elements() is not None or _budget() is not None:
            try:
                shape = rule(*args, **kwargs)
            except (TypeError, ValueError, IndexError, AttributeError, KeyError, OverflowError):
                shape = None  # invalid arguments: the op itself says what is wrong
            if shape is not None:
                check_size(shape, name, _itemsize(args))
        return fn(*args, **kwargs) if kwargs else fn(*args)  # (no dict to build: the hot path of x * y)

    checked.result_shape = rule
    return checked


def _itemsize(args) -> int | None:
    for value in args:
        if isinstance(value, Tensor):
            return value.array.itemsize
    return None


def shape_of(value):
    kind = type(value)
    if kind is Tensor or isinstance(value, Tensor):
        return value.array.shape
    if kind is np.ndarray:
        return value.shape
    return None


# -- rules ------------------------------------------------------------------------------------------------

def broadcast(*args, **kwargs):
    """Elementwise ops, comparisons, where, lerp, xlogy, losses: the broadcast of every tensor argument."""
    first = None
    shapes = None
    for value in chain(args, kwargs.values()):
        kind = type(value)
        if kind is Tensor or isinstance(value, Tensor):
            shape = value.array.shape
        elif kind is np.ndarray:
            shape = value.shape
        else:
            continue
        if first is None:
            first = shape
        elif shape != first:
            shapes = shapes or [first]
            shapes.append(shape)
    if shapes is None:
        return None  # one shape (or none): nothing larger than an input
    return np.broadcast_shapes(*shapes)


def matmul(a, b, *args, **kwargs):
    sa, sb = shape_of(a), shape_of(b)
    if sa is None or sb is None or not sa or not sb:
        return None
    if len(sa) == 1 and len(sb) == 1:
        return ()
    if len(sb) == 1:
        return sa[:-1]
    if len(sa) == 1:
        return sb[:-2] + sb[-1:]
    return np.broadcast_shapes(sa[:-2], sb[:-2]) + (sa[-2], sb[-1])


def outer(a, b):
    return (numel(shape_of(a)), numel(shape_of(b)))


def linear(input, weight, bias=None):
    out = shape_of(input)[:-1] + shape_of(weight)[:1]
    bias_shape = shape_of(bias)
    return out if bias_shape is None else np.broadcast_shapes(out, bias_shape)


def diag(input, diagonal=0):
    shape = shape_of(input)
    if len(shape) != 1:
        return None  # a matrix's diagonal is smaller than the matrix
    n = shape[0] + abs(int(diagonal))
    return (n, n)


def repeat(input, *repeats):
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = repeats[0]
    repeats = tuple(int(r) for r in repeats)
    shape = shape_of(input)
    padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    return tuple(r * s for r, s in zip(repeats, padded))


def expand(input, *sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    shape = shape_of(input)
    lead = len(sizes) - len(shape)
    return tuple(shape[i - lead] if int(s) == -1 and i >= lead else int(s) for i, s in enumerate(sizes))


def cat(tensors, dim=0, *, axis=None):
    first, total = None, 0
    for t in tensors:  # no list of shapes: cat([x] * 10**6) must cost little to refuse
        shape = shape_of(t)
        if shape is None or shape == (0,):  # torch skips legacy empty tensors
            continue
        if first is None:
            first, d = shape, wrap_dim(int(dim if axis is None else axis), len(shape))
        total += shape[d] if d < len(shape) else 0
    if first is None:
        return None
    return first[:d] + (total,) + first[d + 1:]


def stack(tensors, dim=0):
    shape = shape_of(tensors[0]) if len(tensors) else None
    if shape is None:
        return None
    d = wrap_dim(int(dim), len(shape) + 1)
    return shape[:d] + (len(tensors),) + shape[d:]


def index_select(input, dim, index):
    shape = list(shape_of(input))
    if not shape:
        return None
    shape[wrap_dim(int(dim), len(shape))] = numel(shape_of(index))
    return tuple(shape)


def solve(A, B, *args, **kwargs):
    return matmul(A, B)


def indexing(shape: tuple, key: tuple) -> tuple | None:
    """An upper bound on the shape of x[key] for a normalised key (advanced indices as ndarrays)."""
    def width(k):  # how many of the tensor's dims an index entry takes
        if isinstance(k, np.ndarray) and k.dtype == bool:
            return k.ndim
        return 0 if k is None or k is Ellipsis or isinstance(k, (bool, np.bool_)) else 1

    advanced = []
    taken = set()
    dim = 0
    for k in key:
        if k is Ellipsis:
            dim += len(shape) - sum(width(k) for k in key)
            continue
        if isinstance(k, np.ndarray):
            advanced.append((int(np.count_nonzero(k)),) if k.dtype == bool else k.shape)
        elif isinstance(k, (bool, np.bool_)):
            advanced.append((1,))
        taken.update(range(dim, dim + width(k)))
        dim += width(k)
    if not advanced:
        return None  # basic indexing: a view no larger than the tensor
    # the advanced indices broadcast together; every dim no index takes survives at most whole
    rest = tuple(s for i, s in enumerate(shape) if i not in taken)
    return tuple(np.broadcast_shapes(*advanced)) + rest


def tile(input, dims, *more):
    return repeat(input, *((dims, *more) if more else (dims,)))


def stacked(tensors, *args, **kwargs):
    """vstack/hstack: a bound, the elements of every piece together."""
    return (sum(numel(shape_of(t) or ()) for t in tensors),)


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return (len(tensors),) + tuple(numel(shape_of(t)) for t in tensors)  # every grid, together


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    n = numel(shape_of(input))
    if shape_of(repeats):  # a count per slice: at most every element times the largest count
        counts = repeats.array
        return (n * max(int(counts.max()), 0) if counts.size else 0,)
    return (n * max(int(repeats.item() if isinstance(repeats, Tensor) else repeats), 0),)


def take_along_dim(input, indices, dim=None):
    if dim is None:
        return shape_of(indices)
    return broadcast(input, indices)


def nonzero(input, *args, **kwargs):
    """nonzero / argwhere: at most one row of indices per element, one column per dim (as_tuple: as many)."""
    shape = shape_of(input)
    return None if shape is None or len(shape) <= 1 else (numel(shape), len(shape))
