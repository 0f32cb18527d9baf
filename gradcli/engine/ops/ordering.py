"""Ops that order values: sort, topk, median, cummax, cummin.

Each returns (values, indices) as torch.return_types.<op>; the gradient goes back to the selected positions
(torch's value_selecting_reduction_backward), except median without a dim, which shares it evenly between the
elements equal to the median (evenly_distribute_backward).  nan sorts largest, as in torch's CPU sort;
cummax/cummin take the latest of tied extrema and let the latest nan win, as torch's kernels.  Sort with
stable=False and topk leave ties in the order libstdc++'s unstable algorithms give them, as torch's CPU kernels
do (libstdcxx_order.py).
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError
from gradcli.engine.ops import libstdcxx_order
from gradcli.engine.ops.common import keepdim_shape, norm_dims
from gradcli.engine.ops.elementwise_math import lerp
from gradcli.engine.ops.inplace import apply_inplace
from gradcli.engine.ops.join_split import gather, gather_key
from gradcli.engine.ops.reduction import return_type
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.shape import Squeeze, Transpose, index_put_zeros, transpose
from gradcli.engine.tensor import Tensor, wrap_dim

SortResult = return_type("sort")
TopkResult = return_type("topk")
MedianResult = return_type("median")
CummaxResult = return_type("cummax")
CumminResult = return_type("cummin")


def sort_indices(x: np.ndarray, d: int, descending: bool) -> np.ndarray:
    """Stable order along axis d, nan largest (last ascending, first descending), as torch's sort."""
    if not descending:
        return np.argsort(x, axis=d, kind="stable")  # numpy also sorts nan last
    key = ~x if x.dtype.kind == "b" else -x
    if x.dtype.kind == "f" and np.isnan(x).any():  # nans first, then the rest descending (lexsort is stable)
        return np.lexsort((key, ~np.isnan(x)), axis=d)
    return np.argsort(key, axis=d, kind="stable")


def _tied(x: np.ndarray, order: np.ndarray, d: int, count: int) -> np.ndarray:
    """Per lane along d (kept as a length-1 dim): whether two of the first `count` values in `order` are equal
    (two nans count as equal: torch's comparators order neither before the other)."""
    head = np.take_along_axis(x, np.take(order, np.arange(count), axis=d), axis=d)
    a, b = np.take(head, np.arange(count - 1), axis=d), np.take(head, np.arange(1, count), axis=d)
    tied = a == b
    if x.dtype.kind == "f":
        tied |= np.isnan(a) & np.isnan(b)
    return tied.any(axis=d, keepdims=True)


def _replay(x: np.ndarray, idx: np.ndarray, d: int, lanes: np.ndarray, order_of) -> np.ndarray:
    """idx with the lanes flagged in `lanes` replaced by order_of(that lane's values)."""
    if not lanes.any():
        return idx
    rows = np.moveaxis(x, d, -1).reshape(-1, x.shape[d])
    moved = np.moveaxis(idx, d, -1)
    out = moved.reshape(-1, moved.shape[-1]).copy()
    for r in np.flatnonzero(np.moveaxis(lanes, d, -1).reshape(-1)):
        out[r] = order_of(rows[r])
    return np.moveaxis(out.reshape(moved.shape), -1, d)


def _comparators(first_large: bool):
    """torch's CPU sort/topk comparator on values (nan as the largest; `first_large` orders descending): on
    two scalars, and elementwise as less(array, p) and less(p, array)."""
    if first_large:
        return (lambda a, b: (a != a and b == b) or a > b,
                lambda a, p: ((a != a) & (p == p)) | (a > p),
                lambda a, p: ((p != p) & (a == a)) | (p > a))
    return (lambda a, b: (a == a and b != b) or a < b,
            lambda a, p: ((a == a) & (p != p)) | (a < p),
            lambda a, p: ((p == p) & (a != a)) | (p < a))


def torch_sort_indices(x: np.ndarray, d: int, descending: bool, stable: bool) -> np.ndarray:
    """The indices torch's CPU sort returns along axis d.  stable=True is std::stable_sort; otherwise
    (SortingKernel.cpp's sort_kernel) std::sort on (value, index) pairs compared by value only, which
    libstdc++ runs as an insertion sort - stable - up to 16 elements and as an introsort beyond, where tied
    values come out in its own order; 1-D integer tensors of >= 32768 elements sorted ascending go through
    fbgemm's radix sort, stable again.  Lanes without ties have one answer, the stable sort's."""
    order = sort_indices(x, d, descending)
    n = x.shape[d] if x.ndim else 1
    radix = x.ndim == 1 and x.dtype.kind in "iu" and not descending and n >= 32768
    if stable or n <= 16 or radix:
        return order
    less, less_vec, greater_vec = _comparators(descending)

    def replay(values):
        v, ix = values.copy(), np.arange(n)
        libstdcxx_order.sort_array(v, ix, n, less, less_vec, greater_vec,
                                   lambda w: sort_indices(w, 0, descending))
        return ix
    return _replay(x, order, d, _tied(x, order, d, n), replay)


def topk_indices(x: np.ndarray, k: int, d: int, largest: bool, sorted: bool) -> np.ndarray:  # noqa: A002
    """The indices torch's CPU topk returns along axis d (TopKImpl.h): libstdc++'s partial_sort (k * 64 <= n)
    or nth_element (then std::sort of the first k - 1 when sorted) on (value, index) pairs compared by value
    only.  Where that order cannot matter - sorted output, no two of the first k + 1 values tied - the stable
    sort gives the answer at numpy's speed; the other lanes replay libstdc++'s steps."""
    n = x.shape[d]
    order = sort_indices(x, d, largest)
    idx = np.take(order, np.arange(k), axis=d)
    if k == 0:
        return idx
    partial = k * 64 <= n
    lanes = _tied(x, order, d, min(k + 1, n))
    if not (sorted or partial):  # nth_element's partition order is the answer, tied or not
        lanes = np.ones_like(lanes)
    less, less_vec, greater_vec = _comparators(largest)

    def replay(values):
        if partial:  # a heap of k: the list version (k * 64 <= n keeps it small)
            q = list(zip(values.tolist(), range(n)))
            libstdcxx_order.partial_sort(q, k, less)
            return [i for _, i in q[:k]]
        v, ix = values.copy(), np.arange(n)
        libstdcxx_order.nth_element_array(v, ix, k - 1, less, less_vec, greater_vec)
        if sorted:
            libstdcxx_order.sort_array(v, ix, k - 1, less, less_vec, greater_vec,
                                       lambda w: sort_indices(w, 0, largest))
        return ix[:k]
    return _replay(x, idx, d, lanes, replay)


def _indices(values: np.ndarray) -> Tensor:
    return Tensor._make(np.asarray(values, dtype=np.int64), None)


class Select(Function):
    """Values taken along a dim at given indices; the gradient goes back to those positions (accumulated
    where an index repeats, as cummax's do)."""

    __slots__ = ()
    name = "SortBackward0"

    @staticmethod
    def forward(ctx, x, idx, d, keepdim, values=None):
        if x.ndim == 0:  # a 0-d input: the value itself, under the op's own node name (as torch's)
            ctx.aux = None
            return x.copy()
        ctx.aux = (gather_key(idx, d), d, keepdim, x.shape)
        if values is not None:  # the caller's, already taken (cummax, cummin)
            return values
        # one dim: np.take (take_along_axis builds the advanced index first: 3x slower on 10**6 elements)
        values = np.take(x, idx) if x.ndim == 1 else np.take_along_axis(x, idx, axis=d)
        return values if keepdim else values.squeeze(d)

    @staticmethod
    def backward(ctx, g):
        if ctx.aux is None:
            return (g,)
        key, d, keepdim, in_shape = ctx.aux
        if not keepdim:
            g = dual.reshape(g, keepdim_shape(in_shape, (d,)))
        return (index_put_zeros(g, key, in_shape),)


def _selection_node(name):
    return type(name.replace("Backward0", "").replace("Backward1", "") + "Select", (Select,),
                {"__slots__": (), "name": name})


SortNode = _selection_node("SortBackward0")
SortStableNode = type("SortStableSelect", (Select,), {"__slots__": (), "name": "SortBackward1"})
TopkNode = _selection_node("TopkBackward0")
MedianDimNode = _selection_node("MedianBackward1")
CummaxNode = _selection_node("CummaxBackward0")
CumminNode = _selection_node("CumminBackward0")


def _dim(x: np.ndarray, dim) -> int:
    return norm_dims(dim, x.ndim)[0] if x.ndim else 0


@register("sort", sig="sort(input, dim=-1, descending=False, stable=False)",
          doc="(values, indices) in order along dim (stable; nan largest)", category="reduction")
def sort(input, dim=-1, descending=False, stable=None):
    x = input.array
    node = SortNode if stable is None else SortStableNode  # torch's sort.stable overload, whatever its value
    if x.ndim == 0:
        norm_dims(dim, 0)
        return SortResult(node.apply(input, None, 0, False), _indices(np.zeros((), np.int64)))
    d = _dim(x, dim)
    idx = torch_sort_indices(x, d, descending, bool(stable))
    return SortResult(node.apply(input, idx, d, True), _indices(idx))


@register("topk", sig="topk(input, k, dim=-1, largest=True, sorted=True)",
          doc="(values, indices) of the k largest (or smallest) along dim", category="reduction")
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002 - torch's name
    x = input.array
    d = _dim(x, dim)
    size = x.shape[d] if x.ndim else 1
    k = int(k)
    if not 0 <= k <= size:
        raise TorchRuntimeError("selected index k out of range")
    source = x if x.ndim else x.reshape(1)
    idx = topk_indices(source, k, d, largest, sorted)
    if not x.ndim:  # torch: the value itself for k = 0 as for k = 1
        return TopkResult(TopkNode.apply(input, None, 0, False), _indices(np.zeros((), np.int64)))
    return TopkResult(TopkNode.apply(input, idx, d, True), _indices(idx))


def _median_zero(x: np.ndarray, k: int, value):
    """Which zero, 0.0 or -0.0, torch's median without a dim returns when the median is 0: the one that
    std::nth_element leaves at position k of the input's clone (memory order for a dense tensor, as clone
    keeps its strides; row-major otherwise)."""
    zeros = np.signbit(x[x == 0])
    if zeros.all() or not zeros.any():
        return value
    dense = sorted((s, n) for s, n in zip(x.strides, x.shape) if n > 1)
    step, dense_ok = x.itemsize, True
    for s, n in dense:
        dense_ok = dense_ok and s == step
        step *= n
    flat = np.ravel(x, order="K" if dense_ok else "C").copy()
    less, less_vec, greater_vec = _comparators(False)
    libstdcxx_order.nth_element_array(flat, np.arange(flat.size), k, less, less_vec, greater_vec)
    return flat[k]


class MedianAll(Function):
    """The lower median of all elements (nan if any is nan); the gradient is shared evenly by the elements
    equal to it (torch's evenly_distribute_backward)."""

    __slots__ = ()
    name = "MedianBackward0"

    @staticmethod
    def forward(ctx, x):
        flat = x.reshape(-1)
        if flat.size == 0:
            return np.asarray(np.nan, dtype=x.dtype)
        k = (flat.size - 1) // 2
        value = np.partition(flat, k)[k]  # the lower median's value (which of equal elements: the mask below)
        if x.dtype.kind == "f" and np.isnan(flat).any():
            value = np.asarray(np.nan, dtype=x.dtype)
        elif value == 0 and x.dtype.kind == "f":
            value = _median_zero(x, k, value)
        mask = np.isnan(x) if x.dtype.kind == "f" and np.isnan(value) else x == value
        ctx.aux = mask
        return np.asarray(value, dtype=x.dtype)

    @staticmethod
    def backward(ctx, g):
        mask = ctx.aux
        return (dual.where(mask, g / int(mask.sum()), 0.0),)


@register("median", sig="median(input, dim=None, keepdim=False)",
          doc="lower median of all elements, or (values, indices) along dim (nan if any is nan)",
          category="reduction")
def median(input, dim=None, keepdim=False):
    x = input.array
    if dim is None:
        if x.dtype == np.bool_:
            raise TorchRuntimeError("\"median_cpu\" not implemented for 'Bool'")
        return MedianAll.apply(input)
    if x.ndim == 0:
        norm_dims(dim, 0)
        return MedianResult(MedianDimNode.apply(input, None, 0, False), _indices(np.zeros((), np.int64)))
    d = _dim(x, dim)
    n = x.shape[d]
    if n == 0:
        raise TorchIndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
    order = sort_indices(x, d, False)
    idx = np.take(order, [(n - 1) // 2], axis=d)
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        has_nan = nan.any(axis=d, keepdims=True)
        if has_nan.any():  # a nan is the median; torch reports the first nan's index
            idx = np.where(has_nan, np.argmax(nan, axis=d, keepdims=True), idx)
    values = MedianDimNode.apply(input, idx, d, keepdim)
    return MedianResult(values, _indices(idx if keepdim else idx.squeeze(d)))


def _running_extremum_indices(x: np.ndarray, d: int, largest: bool):
    """(indices, values): for each position, the index of the running max/min along d (the latest of ties, the
    latest nan) and the value there."""
    if x.shape[d] == 0:
        return np.zeros(x.shape, dtype=np.int64), x.copy()
    # torch's kernel: `isnan(x) || (!isnan(out) && op(x, out))`.  An element takes over exactly where it equals
    # the running extremum so far (x >= every earlier one: the latest of ties) or is nan (every later nan takes
    # over; after a nan the running extremum is nan and equals nothing); the index is then the latest position
    # that took over.  The first element of every lane takes over, so with the lanes laid end to end (d last) the
    # index is each taking-over position repeated up to the next one: a pass over the few take-overs, not a
    # running maximum over every element (numpy's accumulate is a scalar loop, 3 ms a million)
    extremum = np.maximum if largest else np.minimum
    n = x.shape[d]
    if x.size == n:  # one lane
        took_over = _took_over_in_blocks(x.reshape(-1), extremum).reshape(x.shape)
    else:
        running = extremum.accumulate(x, axis=d)
        took_over = np.equal(x, running)
        if x.dtype.kind == "f":
            took_over |= np.isnan(x)
    took_over = np.ascontiguousarray(np.moveaxis(took_over, d, -1))
    where = np.flatnonzero(took_over)  # flat positions; a lane's first element is one of them
    counts = np.diff(where, append=took_over.size)
    idx = np.repeat(where % n, counts).reshape(took_over.shape)
    # the values the same way: each taking-over element repeated (a gather of every element cost 0.9 ms a million)
    lanes = x.reshape(-1) if x.size == n else np.ascontiguousarray(np.moveaxis(x, d, -1)).reshape(-1)
    values = np.repeat(lanes[where], counts).reshape(took_over.shape)
    return np.moveaxis(idx, -1, d), np.moveaxis(values, -1, d)


_BLOCK = 1 << 15  # elements of the running extremum at a time: a buffer that stays in cache


def _took_over_in_blocks(lane: np.ndarray, extremum) -> np.ndarray:
    """Where each element of one lane equals the running extremum so far, or is nan.  The running extremum is
    computed a block at a time into one reused buffer, continued from the previous block's last value (numpy's
    maximum/minimum propagate nan as the running value must): a fresh array the size of the input would cost
    its page faults, on 10**6 elements as much as the accumulate itself."""
    took_over = np.empty(lane.shape, dtype=bool)
    buffer = np.empty(min(lane.size, _BLOCK), dtype=lane.dtype)
    carry = None
    for start in range(0, lane.size, _BLOCK):
        block = lane[start:start + _BLOCK]
        running = buffer[:block.size]
        extremum.accumulate(block, out=running)
        if carry is not None:
            extremum(running, carry, out=running)
        carry = running[-1]
        out = took_over[start:start + _BLOCK]
        np.equal(block, running, out=out)
        if lane.dtype.kind == "f" and running[-1] != running[-1]:  # no nan so far unless the extremum is nan
            out |= np.isnan(block)
    return took_over


def _cum_extremum(input, dim, largest):
    x = input.array
    node, result = (CummaxNode, CummaxResult) if largest else (CumminNode, CumminResult)
    if x.ndim == 0:
        if dim not in (-1, 0):
            raise TorchIndexError(f"{'cummax' if largest else 'cummin'}(): Expected reduction dim -1 or 0 for scalar "
                                  f"but got {dim}")
        return result(node.apply(input, None, 0, False), _indices(np.zeros((), np.int64)))
    d = _dim(x, dim)
    idx, values = _running_extremum_indices(x, d, largest)
    return result(node.apply(input, idx, d, True, values), _indices(idx))


@register("cummax", sig="cummax(input, dim)", doc="(values, indices) of the running maximum along dim",
          category="reduction")
def cummax(input, dim):
    return _cum_extremum(input, dim, True)


@register("cummin", sig="cummin(input, dim)", doc="(values, indices) of the running minimum along dim",
          category="reduction")
def cummin(input, dim):
    return _cum_extremum(input, dim, False)


# -- quantile ---------------------------------------------------------------------------------------------------

class SqueezeInPlace(Squeeze):
    """squeeze_(dim) as torch's quantile ends with it (recorded as SqueezeBackward4)."""

    __slots__ = ()
    name = "SqueezeBackward4"


class TransposeInPlace(Transpose):
    __slots__ = ()
    name = "TransposeBackward1"


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan, name):
    x = input.array
    if x.dtype.kind != "f":
        raise TorchRuntimeError(f"{name}() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise TorchRuntimeError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest. "
                                f"Got {interpolation}")
    q_tensor = q if isinstance(q, Tensor) else None
    if q_tensor is not None and q_tensor.array.dtype != x.dtype:
        raise TorchRuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    q_values = np.asarray(q.array if q_tensor is not None else q, dtype=x.dtype)
    if q_values.ndim > 1:
        raise TorchRuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if ((q_values < 0) | (q_values > 1)).any():
        raise TorchRuntimeError(f"{name}() q values must be in the range [0, 1]")
    if not x.size:
        raise TorchIndexError(f"{name}() input tensor must be non-empty")
    # torch's quantile_compute: sort along the reduced dim (moved last), gather below/above ranks, lerp in place
    if dim is None:
        out_shape = [1] * x.ndim if keepdim else []
        sorted_values = sort(input.reshape(-1)).values
    else:
        d = wrap_dim(dim, x.ndim) if x.ndim else 0
        out_shape = list(x.shape) if x.ndim else []
        if keepdim and out_shape:
            out_shape[d] = 1
        elif out_shape:
            del out_shape[d]
        if not x.ndim or d == x.ndim - 1:
            sorted_values = sort(input.reshape(-1) if not x.ndim else input).values
        else:
            sorted_values = sort(transpose(input.unsqueeze(-1), d, -1)).values
    shape = [int(q_values.size) if q_values.ndim else 1] + out_shape
    n = sorted_values.shape[-1]
    sorted_values = sorted_values.reshape(*(shape[1:] + [n]))
    s = sorted_values.array
    nan_rows = np.isnan(s).any(-1, keepdims=True)
    if ignore_nan:
        counts = (~np.isnan(s)).sum(-1, keepdims=True)
        ranks = q_values.reshape(-1) * (counts - 1)
        ranks = np.where(counts == 0, 0, ranks)
    else:
        ranks = np.broadcast_to(q_values.reshape(-1) * (n - 1), s.shape[:-1] + (q_values.size,))
        ranks = np.where(nan_rows, n - 1, ranks)
    ranks = np.asarray(ranks, dtype=x.dtype)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.rint(ranks)
    below = ranks.astype(np.int64)
    values = gather(sorted_values, -1, below)
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = gather(sorted_values, -1, np.ceil(ranks).astype(np.int64))
        values = apply_inplace(values, lambda v: lerp(v, above, Tensor._make(weights.astype(x.dtype), None)))
    if q_values.ndim == 0:
        return SqueezeInPlace.apply(values, (-1,))
    moved = TransposeInPlace.apply(values.unsqueeze(0), 0, -1)
    return SqueezeInPlace.apply(moved, (-1,))


def _quantile_shape(input, q, *args, **kwargs):
    """A bound: one result per quantile for every element of input."""
    return (int(np.size(q.array if isinstance(q, Tensor) else q)), input.array.size)


@register("quantile", sig="quantile(input, q, dim=None, keepdim=False, *, interpolation='linear')",
          doc="the q-th quantiles (q a number or 1-D tensor in [0, 1]), interpolated between order statistics",
          category="reduction", result_shape=_quantile_shape)
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(input, q, dim, keepdim, interpolation, False, "quantile")


@register("nanquantile", sig="nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear')",
          doc="quantile ignoring nan values", category="reduction", result_shape=_quantile_shape)
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(input, q, dim, keepdim, interpolation, True, "nanquantile")
