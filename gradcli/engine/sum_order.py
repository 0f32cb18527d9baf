"""torch's float32/float64 sum, element for element in ATen's order (CPU, AVX2 and AVX-512 alike).

ATen (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum) sums through a reduction TensorIterator:

1. The iteration's dims are sorted (TensorIteratorBase::reorder_dimensions): reduced dims innermost, then by
   the output's strides (a fresh contiguous tensor) and the input's, and adjacent dims merged where the
   memory allows (coalesce_dimensions).  The two innermost dims make one call of the 2-D loop; the outer dims
   repeat the call, each call adding its results into the output (filled with 0 first).
2. At least GRAIN_SIZE elements and more than one thread: a reduction to one element splits the flattened
   iteration range into one chunk per thread, each summed into its own buffer, the buffers then summed
   (two_pass_reduction); any other is split along an output dim, its boundaries rounded to 128 bytes when
   that dim is contiguous (parallel_dim_reduction).
3. In the 2-D loop, dim 0 reduced: a contiguous reduced dim of at least one vector (8 floats / 4 doubles, the
   AVX2 Vectorized<> the kernel runs with on an AVX-512 machine too) is summed by vectors (row_sum), then
   its scalar tail, then the lanes, one by one; a contiguous kept dim of at least one vector sums its columns
   four vectors at a time by one cascade (multi_row_sum) and the rest by row_sum; otherwise scalars, four
   rows at a time by one cascade when dim 0 is the outer one in memory, else each by row_sum.
   row_sum views its run as rows of 4 (instruction-level parallelism), cascades the rows, adds the tail to
   the first partial and the partials together; the cascade adds rows one by one into blocks of 2**p
   (p = max(4, ceil(log2 n) / 4)), blocks into level sums flushed every 2**p of them, over 4 levels.

Everything is computed on numpy views, vectorised over every run that has the same shape; only the
sequential additions along a cascade's block (at most 2**p of them) are a Python loop.  Where a cascade's rows
are short contiguous runs (a row of 4 vectors is 128 bytes), numpy reducing them in place would run its inner
loop over one run at a time: the runs are moved as items of a void dtype into a cache-sized buffer ordered
(row in block, block, lanes), and each level is one reduce over the buffer's outer axis (_fast_cascade), which
adds in the block's order lane by lane.  A whole sum of 10**6 elements costs about 2.6-2.9x (float32) /
4.5x (float64) numpy's own sum (benchmarks/bench_sum.py): the move and the reduce each cost about one pass of
numpy's sum.

Where the optional C library is built (kernels/native_sum.c, loaded by kernels/native.py; GRADCLI_NATIVE=0 turns
it off), sums of NATIVE_MIN elements or more take the same plan but run each piece of it through the library
(_native_sum): ATen's 2-D loop compiled, about numpy's speed.  The numpy path below computes the same bits
(tests/engine/test_native_sum.py).

Small sums are per-call overhead: torch_sum compiles, once per layout (shape, strides, dtype, dims, keepdim,
threads), a closure doing only the numpy calls its plan needs (_compile: whole contiguous sums and one call
of the 2-D loop); other layouts interpret the plan (_torch_sum).  benchmarks/bench_sum_small.py times it
against the previous version, numpy and torch; scripts/check_sum_order_vs_torch.py checks it against torch.
"""

from __future__ import annotations

import functools
import math
import operator
import threading

import numpy as np

from gradcli.engine import kernels
from gradcli.engine.kernels import fused, loops, native

LANES = {4: 8, 8: 4}  # itemsize -> lanes of Vectorized<float>/<double> in SumKernel's AVX2 build
ILP = 4  # row_sum's ilp_factor and vectorized_outer_sum's nrows
LEVELS = 4  # multi_row_sum's num_levels


# -- the arithmetic: every helper sums along axis 0 of its array, the other axes independent lanes ---------

def _seq(a: np.ndarray) -> np.ndarray:
    """a[0] + a[1] + ... one by one (torch adds into a zero accumulator: only a zero's sign differs, and the
    result's zeros are made +0 at the end, as torch's 0-filled output makes them)."""
    n = a.shape[0]
    if n <= 1:
        return a[0] if n else np.zeros(a.shape[1:], a.dtype)
    if a.ndim == 1:
        if a.dtype.itemsize == 8 and n <= 64:  # Python's float is IEEE double: the same additions, cheaper
            it = iter(a.tolist())
            acc = next(it)
            for v in it:
                acc += v
            return np.float64(acc)
    elif _ordered_reduce(a):
        return np.add.reduce(a, axis=0)
    if n > 16:
        return np.add.accumulate(a, axis=0)[-1]
    acc = a[0] + a[1]
    for k in range(2, n):
        acc = acc + a[k]
    return acc


def _ordered_reduce(a: np.ndarray) -> bool:
    """Whether numpy's add.reduce along axis 0 adds in order: it does when axis 0 is not the innermost axis
    of its iteration (another axis of more than one element has a smaller stride); otherwise it sums
    pairwise (checked in tests/engine/test_sum_order.py)."""
    strides, shape = a.strides, a.shape
    if len(shape) == 2:
        return shape[1] > 1 and abs(strides[0]) > abs(strides[1])
    inner = [abs(s) for s, n in zip(strides[1:], shape[1:]) if n > 1]
    return bool(inner) and abs(strides[0]) > min(inner)


def _chunked(a: np.ndarray, step: int):
    """(sums of the whole chunks of `step` along axis 0, each one by one; the sum of what is left)."""
    full = a.shape[0] // step
    if not full:
        return None, _seq(a)
    whole = full * step
    sums = _seq(a[:whole].reshape((full, step) + a.shape[1:]).swapaxes(0, 1))
    return sums, _seq(a[whole:]) if whole < a.shape[0] else None


def cascade(a: np.ndarray) -> np.ndarray:
    """multi_row_sum along axis 0."""
    if a.size >= FAST_MIN and a.ndim > 1:
        total = _fast_cascade(a)
        if total is not None:
            return total
    size = a.shape[0]
    step = 1 << max(4, (size - 1).bit_length() // LEVELS)
    if size < step:
        return _seq(a)
    blocks, acc0 = _chunked(a, step)  # acc[0]: each block from zero, at the end the rows after the blocks
    groups, acc1 = _chunked(blocks, step)  # acc[1] is flushed into acc[2] every `step` blocks,
    acc2 = acc3 = None
    if groups is not None:  # acc[2] into acc[3] every step**2 blocks; acc[3] is never flushed
        supergroups, acc2 = _chunked(groups, step)
        acc3 = _seq(supergroups) if supergroups is not None else None
    total = None
    for term in (acc0, acc1, acc2, acc3):
        if term is not None:
            total = term if total is None else total + term
    return total


# -- the fast path: rows moved as items, so that every addition is a long run ------------------------------
#
# A cascade adds whole rows, each a run of W = ILP * lanes contiguous elements (128 bytes) or of a row's
# columns, over every other lane.  numpy reducing the rows in place runs its inner loop over one run: one
# call per 128 bytes, 4-8 times numpy's own sum.  Moving each run as one item (a void dtype of the run's
# bytes) into a buffer ordered (row within the block, block, lanes) makes every level one reduce over the
# buffer's outer axis, its inner loop the whole buffer row: numpy adds those rows one by one (_ordered_reduce),
# which is the block's order, lane by lane.

FAST_MIN = 4096  # elements: below this the views cost more than they save
WIDE = 256  # bytes: runs at least this long are reduced where they are (no move)


def _runs(a: np.ndarray):
    """a's lanes (axes 1...) as (runs, f): runs an item array (rows, *other lanes) whose items are the
    contiguous run of elements each row holds at each other lane, f the float array (rows, *other lanes,
    run) it views, and the order of a's axes in f; None when a's lanes hold no contiguous run of 64 bytes
    or more, or one of WIDE bytes or more (numpy's loops over it in place cost less than moving it)."""
    isz = a.itemsize
    lanes = [d for d in range(1, a.ndim) if a.shape[d] > 1]
    run, run_axes = 1, []
    while True:
        nxt = [d for d in lanes if d not in run_axes and a.strides[d] == isz * run]
        if not nxt:
            break
        run_axes.append(nxt[0])
        run *= a.shape[nxt[0]]
    if not 64 <= run * isz < WIDE:  # too short to move, or long enough for numpy's loop in place
        return None
    other = sorted((d for d in lanes if d not in run_axes), key=lambda d: -a.strides[d])  # memory order
    order = [0] + other + run_axes[::-1]
    f = a.transpose(order + [d for d in range(1, a.ndim) if d not in lanes])
    lane_shape = [a.shape[d] for d in other]
    for i in range(len(other) - 1, 0, -1):  # other lanes that step evenly through memory make one axis
        if a.strides[other[i - 1]] == a.strides[other[i]] * a.shape[other[i]]:
            lane_shape[i - 1:i + 1] = [lane_shape[i - 1] * lane_shape[i]]
    f = f.reshape((a.shape[0],) + tuple(lane_shape) + (run,))  # merges axes that are one: no copy
    items = f.view(np.dtype((np.void, run * isz)))[..., 0]
    return items, f, order


def _block_sums(items: np.ndarray, f: np.ndarray, step: int, level: int = 1):
    """(the sums of each whole block of `step` rows, from its first row one by one: (blocks, *lanes, run),
    C-contiguous; the sum of the rows after them: (*lanes, run)), None for either that is empty."""
    rows = items.shape[0]
    full = rows // step
    cut = full * step
    sums = tail = None
    reduce = np.add.reduce
    lanes = items.shape[1:]
    count = items.size // rows  # items per row
    per_lane = min(rows, step) * items.itemsize  # the buffer's bytes for one lane
    if items.ndim == 2 and count * per_lane > 2 * SLAB_BYTES:  # many lanes: a slab of lanes at a time
        width = max(1, SLAB_BYTES // per_lane)
        # each slab's results live in the same scratch slots as the next slab's: copied before it runs
        parts = [tuple(None if r is None else np.array(r) for r in
                       _block_sums(items[:, k:k + width], f[:, k:k + width], step, level))
                 for k in range(0, count, width)]
        sums = None if full == 0 else np.concatenate([p[0] for p in parts], axis=1)
        tail = None if cut == rows else np.concatenate([p[1] for p in parts], axis=0)
        return sums, tail
    wide = count == 1 and items.itemsize >= WIDE  # numpy's inner loop runs along each row in place
    if full and wide:
        sums = reduce(f[:cut].reshape((full, step) + f.shape[1:]).swapaxes(0, 1), axis=0)
    elif full:
        # the buffer: (row in block, block, lanes), or (row in block, lanes, block) when the lanes are few
        # and the blocks many, so that numpy's copy runs along the longer axis
        blocks_last = 1 < count < full
        blocks = items[:cut].reshape((full, step, count))
        blocks = blocks.transpose(1, 2, 0) if blocks_last else blocks.swapaxes(0, 1)
        slab = max(1, SLAB_BYTES // (step * count * items.itemsize))  # blocks moved at a time: kept in cache
        slab = -(-full // -(-full // slab))  # slabs of equal size
        buf = _scratch(step * min(slab, full) * count * items.itemsize).view(items.dtype)
        buf = buf.reshape((step,) + blocks.shape[1:] if full <= slab else (step, count, slab) if blocks_last
                          else (step, slab, count))
        out = _scratch(full * count * items.itemsize, level).view(items.dtype).reshape(full, count)
        for begin in range(0, full, slab):
            end = min(full, begin + slab)
            part = blocks[:, :, begin:end] if blocks_last else blocks[:, begin:end]
            b = buf if part.shape == buf.shape else buf.reshape(-1)[:part.size].reshape(part.shape)
            np.copyto(b, part)
            if blocks_last:  # (step, count, n, run) summed into (count, n) items, then moved to (n, count)
                sums = _scratch(part[0].size * items.itemsize, 5).view(f.dtype).reshape(count, -1)
                reduce(b.view(f.dtype).reshape(step, count, -1), axis=0, out=sums)
                np.copyto(out[begin:end], sums.view(items.dtype).T)
            else:
                reduce(b.view(f.dtype).reshape(step, -1), axis=0, out=out[begin:end].view(f.dtype).reshape(-1))
        sums = out.view(f.dtype).reshape((full,) + f.shape[1:])
    if cut + 1 == rows:
        tail = f[cut]
    elif cut < rows and wide:
        tail = reduce(f[cut:], axis=0)
    elif cut < rows:
        buf = _scratch((rows - cut) * count * items.itemsize).view(items.dtype).reshape((rows - cut,) + lanes)
        np.copyto(buf, items[cut:])
        tail = reduce(buf.view(f.dtype).reshape(rows - cut, -1), axis=0).reshape(f.shape[1:])
    return sums, tail


SLAB_BYTES = 1 << 20  # a slab of moved rows: about an L2 cache
_SCRATCH = threading.local()


def _scratch(nbytes: int, slot: int = 0) -> np.ndarray:
    """A byte buffer of at least `nbytes`, kept per thread and slot (a fresh one would be page-faulted in
    at every call); what it held before is garbage.  Slot 0 holds the rows being moved, slot k the sums of
    level k-1 until level k has read them."""
    bufs = getattr(_SCRATCH, "bufs", None)
    if bufs is None:
        bufs = _SCRATCH.bufs = {}
    buf = bufs.get(slot)
    if buf is None or buf.size < nbytes:
        buf = np.empty(max(nbytes, 4096), np.uint8)
        if nbytes <= SCRATCH_MAX:
            bufs[slot] = buf
    return buf[:nbytes]


SCRATCH_MAX = 1 << 22  # bytes kept per slot and thread (larger ones are allocated per call)


def _whole_rows(sums: np.ndarray):
    """A C-contiguous (rows, ...) float array as (items of whole rows, its 2-D float view)."""
    f = sums.reshape(sums.shape[0], -1)
    return f.view(np.dtype((np.void, f.shape[1] * f.itemsize)))[:, 0], f


def _fast_cascade(a: np.ndarray):
    """cascade(a) by moving runs (see above); None where a's layout has no run to move."""
    found = _runs(a)
    if found is None:
        return None
    items, f, order = found
    size = a.shape[0]
    step = 1 << max(4, (size - 1).bit_length() // LEVELS)
    blocks, acc0 = _block_sums(items, f, step)
    acc1 = acc2 = acc3 = None
    if blocks is not None and blocks.size >= FAST_MIN * step:
        groups, acc1 = _block_sums(*_whole_rows(blocks), step, 2)
        if groups is not None:
            supergroups, acc2 = _block_sums(*_whole_rows(groups), step, 3)
            if supergroups is not None:
                acc3 = _block_sums(*_whole_rows(supergroups), supergroups.shape[0] + 1, 4)[1]
    elif blocks is not None:  # few block sums: numpy's reduce in place costs less than moving them
        blocks = blocks.reshape(blocks.shape[0], -1)
        groups, acc1 = _chunked(blocks, step)
        if groups is not None:
            supergroups, acc2 = _chunked(groups, step)
            acc3 = _seq(supergroups) if supergroups is not None else None
    terms = [term.reshape(f.shape[1:]) for term in (acc0, acc1, acc2, acc3) if term is not None]
    if len(terms) > 1:
        total = terms[0] + terms[1]
    elif acc0 is not None and not np.may_share_memory(acc0, f):  # the rows' own sum, a fresh array
        total = terms[0]
    else:  # never a view of the input or of a scratch buffer
        total = terms[0].copy()
    for term in terms[2:]:
        total = total + term
    # f's lanes are a's in `order` (size-1 axes last): back to a's
    lanes = [a.shape[d] for d in order[1:]]
    total = total.reshape(lanes + [1] * (a.ndim - len(order)))
    full_order = order[1:] + [d for d in range(1, a.ndim) if d not in order]
    return total.transpose(np.argsort(full_order))


def row_sum(a: np.ndarray) -> np.ndarray:
    """row_sum along axis 0: rows of ILP by one cascade, the tail into the first partial, the partials."""
    n = a.shape[0]
    rows = n // ILP
    if not rows:
        return _seq(a)
    partial = cascade(a[:rows * ILP].reshape((rows, ILP) + a.shape[1:]))
    if partial.ndim > 2 and partial[0].size >= FAST_MIN:
        inner = np.moveaxis(partial, (0, 1), (-2, -1))
        if inner.flags.c_contiguous:  # the fast cascade's (lanes..., ILP, vector): add whole planes
            return _partials_by_planes(inner, a[rows * ILP:])
    p0 = partial[0]
    for j in range(rows * ILP, n):
        p0 = p0 + a[j]
    for k in range(1, ILP):
        p0 = p0 + partial[k]
    return p0


def _partials_by_planes(inner: np.ndarray, tail: np.ndarray) -> np.ndarray:
    """row_sum's last additions (the tail rows into the first partial, then the partials one by one) on
    partials laid out (lanes..., ILP, vector): each vector is moved as one item so that every partial is a
    contiguous plane (lanes..., vector) and each addition one long numpy loop (adding the strided views
    directly runs numpy's inner loop over one vector per lane)."""
    width = inner.shape[-1]
    items = inner.view(np.dtype((np.void, width * inner.itemsize)))[..., 0]  # (lanes..., ILP)
    planes = np.ascontiguousarray(np.moveaxis(items, -1, 0)).view(inner.dtype)
    planes = planes.reshape((inner.shape[-2],) + inner.shape[:-2] + (width,))  # (ILP, lanes..., vector)
    p0 = planes[0]
    for j in range(tail.shape[0]):
        p0 = p0 + np.moveaxis(tail[j], 0, -1)
    for k in range(1, ILP):
        p0 = p0 + planes[k]
    return np.moveaxis(p0, -1, 0)


def inner_vector_sum(a: np.ndarray, lanes: int) -> np.ndarray:
    """vectorized_inner_sum along axis 0: row_sum over whole vectors, then the tail and the lanes from 0."""
    n = a.shape[0]
    vec = n // lanes
    acc = row_sum(a[:vec * lanes].reshape((vec, lanes) + a.shape[1:]))
    if a.ndim > 1 and acc[0].size >= FAST_MIN // lanes and np.moveaxis(acc, 0, -1).flags.c_contiguous:
        # many lanes, the vectors' lanes adjacent (_partials_by_planes): one addition per term over all lanes
        terms = [a[k] for k in range(vec * lanes, n)] + [acc[k] for k in range(lanes)]
        total = terms[0] + terms[1]
        for term in terms[2:]:
            np.add(total, term, out=total)
        return total
    return _seq(np.concatenate([a[vec * lanes:], acc]) if vec * lanes < n else acc)


def _columns(a: np.ndarray, group: int) -> np.ndarray:
    """The outer sums along axis 0 of the columns on axis 1: whole groups of `group` columns by one
    cascade each, the rest by row_sum."""
    m = a.shape[1]
    cut = (m // group) * group
    if cut == m:
        return cascade(a)
    if cut == 0:
        return row_sum(a)
    return np.concatenate([cascade(a[:, :cut]), row_sum(a[:, cut:])], axis=0)


# -- the iteration ---------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=512)
def _iteration(shape: tuple, in_strides: tuple, reduced: tuple):
    """TensorIterator's dims for a reduction: [(size, input stride, reduced, output stride)], innermost
    first, coalesced (strides in elements; no dim of size 1)."""
    ndim = len(shape)
    out_strides, run = [0] * ndim, 1
    for d in range(ndim - 1, -1, -1):  # the output: contiguous over its kept dims, 0 on the reduced ones
        if not reduced[d]:
            out_strides[d] = run
            run *= shape[d]
    operands = (out_strides, in_strides)

    perm = loops.reorder_dimensions(range(ndim - 1, -1, -1), shape, operands, reduction=True)
    dims = [[shape[d], in_strides[d], out_strides[d], d] for d in perm]
    merged = [dims[0]]
    for size, s_in, s_out, d in dims[1:]:
        prev = merged[-1]
        if prev[0] == 1 or size == 1 or (prev[0] * prev[1] == s_in and prev[0] * prev[2] == s_out):
            if prev[0] == 1:
                prev[1], prev[2], prev[3] = s_in, s_out, d
            prev[0] *= size
        else:
            merged.append([size, s_in, s_out, d])
    return tuple((size, s_in, s_out == 0, s_out) for size, s_in, s_out, _ in merged), tuple(perm)


def _loop2d(view: np.ndarray, s0: int, s1: int, lanes: int) -> np.ndarray:
    """One call of cascade_sum's 2-D loop (dim 0 reduced, input strides s0, s1 in elements) on each of the
    outer runs of `view` (axes outer..., dim 1, dim 0): the values it adds into the output (axes outer...,
    dim 1), in the order it adds them (dim 1's)."""
    size1, size0 = view.shape[-2:]
    nd = view.ndim
    a = view.transpose((nd - 1,) + tuple(range(nd - 1)))  # dim 0 first: the other axes are lanes
    if s0 == 1 and size0 >= lanes:
        return inner_vector_sum(a, lanes)
    if s0 < s1 and not (s1 == 1 and size1 >= lanes):
        return row_sum(a)
    group = ILP * lanes if s1 == 1 and size1 >= lanes else ILP
    if nd == 2:
        return _columns(a, group)
    b = view.transpose((nd - 1, nd - 2) + tuple(range(nd - 2)))  # dim 0, then the columns (dim 1)
    return _columns(b, group).transpose(tuple(range(1, nd - 1)) + (0,))


def _fold(values: np.ndarray, reduced: list) -> np.ndarray:
    """The calls' values added into the output one by one: `values` has axes outer dims (outermost
    first) then dim 1; reduced[i] says whether its axis i is a reduced dim.  dim 1 varies fastest, then
    dim 2, ...  Returns the kept axes, in the same order."""
    kept_axes = [i for i, r in enumerate(reduced) if not r]
    red_axes = [i for i, r in enumerate(reduced) if r]
    if not red_axes:
        return values
    values = values.transpose(red_axes + kept_axes)  # the reduced axes flattened in order: dim 1 fastest
    return _seq(values.reshape((-1,) + values.shape[len(red_axes):]))


def _serial(view: np.ndarray, dims, lanes: int) -> np.ndarray:
    """The iteration run by one thread (serial_for_each over its whole range): the output's values over the
    kept dims (axes in iteration order, outermost first)."""
    values = _loop2d(view, dims[0][1], dims[1][1], lanes)
    return _fold(values, [d[2] for d in reversed(dims[1:])])


def _positions(size0: int, size1: int, begin: int, end: int):
    """serial_for_each's calls of the 2-D loop over [begin, end) of the flattened iteration (DimCounter's
    max_2d_step), as (position, size0, size1, planes): planes > 1 for consecutive whole calls."""
    pieces, pos = [], begin
    plane = size0 * size1
    while pos < end:
        v0 = pos % size0
        v1 = (pos // size0) % size1
        if v0 == 0 and v1 == 0 and end - pos >= plane:
            planes = (end - pos) // plane
            pieces.append((pos, size0, size1, planes))
            pos += planes * plane
            continue
        step0 = min(size0 - v0, end - pos)
        step1 = min(size1 - v1, (end - pos) // size0) if step0 == size0 else 1
        pieces.append((pos, step0, step1, 1))
        pos += step0 * step1
    return pieces


def _two_pass(view: np.ndarray, dims, lanes: int, threads: int):
    """A whole-tensor sum over at least GRAIN_SIZE elements (two_pass_reduction): one chunk of the
    flattened iteration per thread into its own buffer, then the buffers summed."""
    size1, size0 = view.shape[-2:]
    flat = view.reshape((-1, size1, size0))  # a copy only for a layout that does not merge
    n = flat.size
    count = min(threads, -(-n // kernels.GRAIN_SIZE))
    chunk = -(-n // count)
    s0, s1 = dims[0][1], dims[1][1]
    buffers = np.zeros((threads, 1), view.dtype)
    first = 0
    if flat.shape[:2] == (1, 1) and s0 == 1 and chunk >= lanes and n >= FAST_MIN:
        # one contiguous run: each whole chunk is one call of vectorized_inner_sum, the chunks its lanes
        whole = n // chunk
        run = flat[0, 0, :whole * chunk].reshape(whole, chunk).T
        buffers[:whole, 0] = np.float64(0).astype(view.dtype) + inner_vector_sum(run, lanes)
        first = whole * chunk
    for t, begin in enumerate(range(first, n, chunk), start=first // chunk):
        parts = [np.zeros(1, view.dtype)]
        for pos, step0, step1, planes in _positions(size0, size1, begin, min(n, begin + chunk)):
            p, v1, v0 = pos // (size0 * size1), (pos // size0) % size1, pos % size0
            piece = flat[p:p + planes, v1:v1 + step1, v0:v0 + step0]
            parts.append(_loop2d(piece, s0, s1, lanes).reshape(-1))
        buffers[t] = _seq(np.concatenate(parts))
    return row_sum(buffers)  # the buffers: a contiguous run of `threads` (< one vector) summed by row_sum


def _split_dim(dims, threads):
    """find_split_dim: the outermost kept dim of at least `threads` elements, else the largest kept one."""
    best = len(dims) - 1
    for d in range(len(dims) - 1, -1, -1):
        if dims[d][2]:
            break
        if dims[d][0] >= threads:
            return d
        if dims[d][0] > dims[best][0]:
            best = d
    return best


def _split_bounds(cols: int, threads: int, multiple: int) -> list:
    """parallel_for's parts of `cols` columns among the threads, their bounds rounded to `multiple` columns
    (128 bytes when the split dim is contiguous), empty parts left out."""
    count = min(threads, cols)
    chunk = -(-cols // count)
    bounds = []
    for begin in range(0, cols, chunk):
        end = min(cols, begin + chunk)
        begin -= begin % multiple
        if end != cols:
            end -= end % multiple
        if begin < end:
            bounds.append((begin, end))
    return bounds


def _parallel_dims(view, dims, lanes, threads, itemsize):
    """parallel_dim_reduction: the iteration split along a kept dim among the threads; only a split of
    dim 1 changes what the 2-D loop's calls see (its column groups)."""
    if _split_dim(dims, threads) != 1:
        return _serial(view, dims, lanes)
    bounds = _split_bounds(dims[1][0], threads, 128 // itemsize if dims[1][1] == 1 else 1)
    (size0, s0, _, _), (_, s1, _, _) = dims[:2]
    columns = [not (s0 == 1 and size0 >= lanes) and not (s0 < s1 and not (s1 == 1 and end - begin >= lanes))
               for begin, end in bounds]  # _loop2d's choice for each part
    if view.ndim == 2 and s0 and s1 and all(columns):
        # each part is one call of the 2-D loop summing columns (_loop2d's _columns): its whole groups of
        # columns get each column's cascade, which does not depend on the grouping; one cascade over all
        # the columns serves every part
        a = view.T
        whole = cascade(a)
        out = []
        for begin, end in bounds:
            group = ILP * lanes if s1 == 1 and end - begin >= lanes else ILP
            cut = begin + (end - begin) // group * group
            out.append(whole[begin:cut])
            if cut < end:
                out.append(row_sum(a[:, cut:end]))
        return np.concatenate(out)
    if s0 and s1 and not any(columns):
        # every part sums each of its columns (output elements) on its own (inner_vector_sum or row_sum,
        # lane by lane): the split changes nothing, one call over all of dim 1 gives the same bits
        return _serial(view, dims, lanes)
    parts = [_serial(view[..., begin:end, :], dims, lanes) for begin, end in bounds]
    return np.concatenate(parts, axis=-1)


def torch_sum(x: np.ndarray, dims: tuple = (), keepdim: bool = False):
    """x summed over `dims` (every dim when empty) as torch's CPU sum computes it, bit for bit; None when
    x's dtype is not float32/float64.  In a batch of rows whose axis 0 is the batch (--rows,
    kernels.elements_are_rows(LEADING)), a sum that keeps axis 0 is each row's own sum (rows_sum)."""
    if dims and kernels.rows_batch() == kernels.LEADING and getattr(x, "ndim", 0) > 1:
        try:
            dims = tuple(sorted({d % x.ndim for d in dims}))
        except TypeError:
            dims = None
        if dims and dims[0] > 0:
            return rows_sum(x, tuple(d - 1 for d in dims), keepdim)
    if type(x) is np.ndarray and x.size >= NATIVE_MIN and native.ENABLED:
        total = _native_sum(x, dims, keepdim)  # the compiled kernels (native_sum.c), when built
        if total is not None:
            return total
    if type(x) is np.ndarray:  # the common case: a closure compiled once per layout does only the numpy work
        try:
            key = (x.shape, x.strides, x.dtype.char, dims, keepdim, kernels.THREADS)
            run = _COMPILED[key]
        except KeyError:
            run = _compile(x, dims, keepdim) if len(_COMPILED) < 4096 else None
            if run is None:
                if len(_COMPILED) < 4096:
                    _COMPILED[key] = _torch_sum  # the general path, without asking _compile again
                return _torch_sum(x, dims, keepdim)
            _COMPILED[key] = run
        except TypeError:  # dims unhashable (a list)
            return _torch_sum(x, dims, keepdim)
        if run is _torch_sum:
            return _torch_sum(x, dims, keepdim)
        return run(x)
    return _torch_sum(x, dims, keepdim)


_COMPILED: dict = {}

# -- the compiled path: the same plan, its additions done by native_sum.c ----------------------------------
#
# The plan (which dims the 2-D loop sees, how the threads split the work) is decided here as for the numpy
# path; the library runs serial_for_each over each piece: cascade_sum's 2-D loop on every 2-D step.  Below
# NATIVE_MIN elements the call (about 4 us: ctypes, its arguments, the arrays' addresses) costs as much as the
# compiled closures of the numpy path (benchmarks/bench_sum.py's small sums).

NATIVE_MIN = 256
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)  # in this machine's byte order


def _native_sum(x: np.ndarray, dims, keepdim: bool):
    """torch_sum(x, dims, keepdim) by the compiled library; None when it is not built, or for what the numpy
    path does itself (other dtypes, empty and copy plans)."""
    fns = native.sum_kernels()
    if fns is None or (x.dtype != _F32 and x.dtype != _F64) or not x.flags.aligned:  # byte-swapped, misaligned
        return None
    if x.ndim and min(x.strides) < 0:  # torch's tensors have no negative strides: it would hold a copy
        x = np.ascontiguousarray(x)
    try:
        program = _native_program(x.shape, x.strides, x.itemsize, tuple(dims), keepdim, kernels.THREADS)
    except TypeError:  # dims unhashable or not integers: the general path reports it
        return None
    if program is None:
        return None
    out_shape, calls, buffers, final = program
    fn = fns[x.itemsize]
    out = np.zeros(out_shape, x.dtype)
    src, dst = x.ctypes.data, out.ctypes.data
    if buffers:  # two_pass_reduction: each thread's chunk into its own buffer, then the buffers summed
        buf = np.zeros(buffers, x.dtype)
        target = buf.ctypes.data
        for in_off, out_off, call in calls:
            fn(src + in_off, target + out_off, *call)
        fn(target, dst, *final)
    else:
        for in_off, out_off, call in calls:
            fn(src + in_off, dst + out_off, *call)
    return out


@functools.lru_cache(maxsize=1024)
def _native_program(shape: tuple, strides: tuple, itemsize: int, dims: tuple, keepdim: bool, threads: int):
    """The library's calls for this layout: (output shape, [(input offset, output offset, arguments)], number
    of thread buffers (0: the calls write the output), the call summing the buffers); None for the plans the
    numpy path handles (empty, copy)."""
    kind, out_shape, _, extra = _plan(shape, strides, itemsize, dims, keepdim, threads)
    if kind == "run":  # one contiguous run (C or F order: either way from the first element on)
        it, mode = [(math.prod(shape), 1, True, 0)], "serial"
    elif kind == "general":
        it, mode = list(extra[3]), extra[4]
    else:
        return None

    def call(dims_, begin, end):
        sizes = native.int64_array([d[0] for d in dims_])
        ins = native.int64_array([d[1] * itemsize for d in dims_])
        outs = native.int64_array([d[3] * itemsize for d in dims_])
        return (len(dims_), sizes, ins, outs, begin, end)

    n = math.prod(d[0] for d in it)
    if mode == "two_pass":
        count = min(threads, -(-n // kernels.GRAIN_SIZE))
        chunk = -(-n // count)
        zero_out = [(size, s_in, red, 0) for size, s_in, red, _ in it]
        calls = [(0, t * itemsize, call(zero_out, begin, min(n, begin + chunk)))
                 for t, begin in enumerate(range(0, n, chunk))]
        return out_shape, calls, threads, call([(threads, 1, True, 0)], 0, threads)
    if mode == "dims" and _split_dim(it, threads) == 1:  # parallel_dim_reduction along dim 1
        size1, s_in1, _, s_out1 = it[1]
        calls = []
        for begin, end in _split_bounds(size1, threads, 128 // itemsize if s_in1 == 1 else 1):
            part = it[:1] + [(end - begin, s_in1, False, s_out1)] + it[2:]
            calls.append((begin * s_in1 * itemsize, begin * s_out1 * itemsize,
                          call(part, 0, math.prod(d[0] for d in part))))
        return out_shape, calls, 0, None
    return out_shape, [(0, 0, call(it, 0, n))], 0, None


def rows_sum(x: np.ndarray, dims: tuple, keepdim: bool = False):
    """torch_sum(x[i], dims, keepdim) for every i, stacked: axis 0 of x is a batch of rows, `dims` are dims of a
    row.  The row's plan (its layout decides the order of the additions) is made once and run with the batch as
    one more lane axis of every helper; a plan no helper covers (a row of GRAIN_SIZE elements or more, split
    among threads) sums the rows one at a time.  None when x's dtype is not float32/float64."""
    if not isinstance(x, np.ndarray) or x.dtype.kind != "f" or x.dtype.itemsize not in LANES:
        return None
    if x.ndim > 1 and min(x.strides[1:]) < 0:  # a row with a negative stride: torch's row would be a copy
        x = np.ascontiguousarray(x)
    batch, shape = x.shape[0], x.shape[1:]
    kind, out_shape, lanes, extra = _plan(shape, x.strides[1:], x.itemsize, tuple(dims), keepdim, kernels.THREADS)
    zero = _ZERO[x.itemsize]
    out_shape = (batch,) + out_shape
    if kind == "empty":
        return np.zeros(out_shape, x.dtype)
    if kind == "copy":
        return _contiguous(x.reshape(out_shape) + zero)
    if kind == "run":  # each row one contiguous run, in memory order: the rows are lanes
        flat = x.reshape(batch, -1) if extra else x.transpose((0,) + tuple(range(x.ndim - 1, 0, -1))).reshape(batch, -1)
        runs = np.ascontiguousarray(flat.T)
        result = inner_vector_sum(runs, lanes) if runs.shape[0] >= lanes else row_sum(runs)
        return _contiguous((result + zero).reshape(out_shape))
    axes_shape, perm_back, view_shape, it, mode = extra
    if mode != "serial" or batch == 0:
        if not batch:
            return np.zeros(out_shape, x.dtype)
        with kernels.elements_are_rows(False):
            return _contiguous(np.stack([torch_sum(row, dims, keepdim) for row in x]).reshape(out_shape))
    view = x.reshape((batch,) + axes_shape).transpose((0,) + tuple(p + 1 for p in perm_back)) \
        .reshape((batch,) + view_shape)
    values = _loop2d(view, it[0][1], it[1][1], lanes)
    result = _fold(values, [False] + [d[2] for d in reversed(it[1:])])
    return _contiguous((result + zero).reshape(out_shape))


def _compile(x: np.ndarray, dims, keepdim: bool):
    """A function of arrays laid out as x (shape, strides, dtype) computing torch_sum(x, dims, keepdim) with
    the plan's decisions taken here once; None for what it does not cover (the general path does)."""
    if x.dtype.kind != "f" or x.dtype.itemsize not in LANES or (x.ndim and min(x.strides) < 0):
        return None
    kind, out_shape, lanes, extra = _plan(x.shape, x.strides, x.itemsize, tuple(dims), keepdim, kernels.THREADS)
    zero = _ZERO[x.itemsize]
    n = x.size
    if kind == "run" and n < lanes:  # row_sum of a few elements
        order = "C" if extra else "F"
        if n < ILP:
            if x.itemsize == 8:
                return lambda x: np.float64(_pysum(x.ravel(order).tolist()) + 0.0).reshape(out_shape)
            return lambda x: (_seq(x.ravel(order)) + zero).reshape(out_shape)
        return lambda x: (row_sum(x.ravel(order)) + zero).reshape(out_shape)
    if kind == "run":  # inner_vector_sum: whole vectors by row_sum, then the tail and the lanes one by one
        order = "C" if extra else "F"
        cut = (n // lanes) * lanes
        shape2 = (n // lanes, lanes)
        double = x.itemsize == 8
        if n // lanes < ILP:  # the vectors one by one: numpy's reduce over the outer axis of a C array
            def run(x):
                flat = x.ravel(order)
                acc = np.add.reduce(flat[:cut].reshape(shape2), axis=0)
                if double:
                    return np.float64(_pysum(flat[cut:].tolist() + acc.tolist()) + 0.0).reshape(out_shape)
                return (_seq(np.concatenate([flat[cut:], acc])) + zero).reshape(out_shape)
            return run

        rows = _row_sum_of(n // lanes)

        def run(x):
            flat = x.ravel(order)
            acc = rows(flat[:cut].reshape(shape2))
            if double:
                return np.float64(_pysum(flat[cut:].tolist() + acc.tolist()) + 0.0).reshape(out_shape)
            return (_seq(np.concatenate([flat[cut:], acc])) + zero).reshape(out_shape)
        return run
    if kind != "general" or extra[4] != "serial" or len(extra[3]) != 2 or extra[3][1][2] or extra[3][1][0] < 2:
        return None
    # one call of the 2-D loop (dim 0 reduced, dim 1 kept): its values are the output in order
    axes_shape, perm_back, view_shape, it, _ = extra
    (size0, s0, _, _), (size1, s1, _, _) = it
    if not s0 or not s1:  # a broadcast (0-stride) dim: numpy's reduce order there is not proven here
        return None
    if axes_shape == x.shape and view_shape == tuple(axes_shape[p] for p in perm_back):
        perm = tuple(perm_back[::-1])
        get = lambda x: x.transpose(perm)  # noqa: E731
    else:
        get = lambda x: x.reshape(axes_shape).transpose(perm_back).reshape(view_shape).T  # noqa: E731
    if s0 == 1 and size0 >= lanes:
        vec = size0 // lanes
        cut = vec * lanes
        shape3 = (vec, lanes, size1)
        if vec < ILP:
            dtype = x.dtype

            def inner(a):  # the lanes, C-ordered, then one by one: add.reduce over the outer axis
                if vec == 1:
                    acc = a[0:lanes]
                else:
                    acc = np.add(a[0:lanes], a[lanes:2 * lanes], out=np.empty((lanes, size1), dtype))
                    for k in range(2, vec):
                        np.add(acc, a[k * lanes:(k + 1) * lanes], out=acc)
                if cut < size0:
                    acc = np.concatenate([a[cut:], acc])
                return np.add.reduce(np.ascontiguousarray(acc), axis=0)
        else:
            rows = _row_sum_of(vec)

            def inner(a):
                acc = rows(a[:cut].reshape(shape3))
                if cut < size0:
                    acc = np.concatenate([a[cut:], acc])
                return np.add.reduce(np.ascontiguousarray(acc), axis=0)
        fn = inner
    elif s0 < s1 and not (s1 == 1 and size1 >= lanes):
        fn = _row_sum_of(size0)
    else:
        group = ILP * lanes if s1 == 1 and size1 >= lanes else ILP
        cut = (size1 // group) * group
        if cut == 0:
            fn = _row_sum_of(size0)
        elif size0 < BLOCK_STEP ** 2 and s0 > s1:  # whole groups by one cascade, the rest by row_sum
            cols, rest = _cascade_of(size0), _row_sum_of(size0)
            if cut == size1:
                fn = cols
            else:
                def fn(a):
                    return np.concatenate([cols(a[:, :cut]), rest(a[:, cut:])])
        else:
            fn = functools.partial(_columns, group=group)

    def run(x):
        return np.add(fn(get(x)), zero).reshape(out_shape)
    return run


@functools.lru_cache(maxsize=256)
def _row_sum_of(n: int):
    """row_sum along axis 0 of n rows, its decisions taken once: every sequential run of at least two rows
    is numpy's add.reduce over axis 0, which adds in order there (the ILP axis, of a smaller stride, is
    inner: see _ordered_reduce).  The general cascade past one level of blocks."""
    rows = n // ILP
    if not rows or rows >= BLOCK_STEP ** 2:
        return row_sum
    whole = rows * ILP
    tail = tuple(range(whole, n))
    full = rows // BLOCK_STEP
    cut = full * BLOCK_STEP
    reduce = np.add.reduce

    def run(a):
        parts = a[:whole].reshape((rows, ILP) + a.shape[1:])
        if not full:  # fewer rows than a block: one by one
            partial = reduce(parts, axis=0) if rows > 1 else parts[0]
        else:  # cascade: blocks of BLOCK_STEP rows, the blocks one by one, then the rows after them
            blocks = parts[:cut].reshape((full, BLOCK_STEP) + parts.shape[1:]).swapaxes(0, 1)
            partial = reduce(reduce(blocks, axis=0), axis=0) if full > 1 else reduce(blocks, axis=0)[0]
            if cut < rows:
                partial = (reduce(parts[cut:], axis=0) if rows - cut > 1 else parts[cut]) + partial
        p0 = partial[0]
        for j in tail:
            p0 = p0 + a[j]
        return p0 + partial[1] + partial[2] + partial[3]
    return run


@functools.lru_cache(maxsize=256)
def _cascade_of(n: int):
    """cascade along axis 0 of n (< BLOCK_STEP**2) rows of an array whose other axes have smaller strides
    (so add.reduce over axis 0 adds in order), its decisions taken once."""
    full = n // BLOCK_STEP
    cut = full * BLOCK_STEP
    reduce = np.add.reduce
    if not full:
        return functools.partial(reduce, axis=0) if n > 1 else operator.itemgetter(0)

    def run(a):
        blocks = a[:cut].reshape((full, BLOCK_STEP) + a.shape[1:]).swapaxes(0, 1)
        total = reduce(reduce(blocks, axis=0), axis=0) if full > 1 else reduce(blocks, axis=0)[0]
        if cut < n:
            total = (reduce(a[cut:], axis=0) if n - cut > 1 else a[cut]) + total
        return total
    return run


BLOCK_STEP = 16  # cascade's step below 2**20 rows: 1 << max(4, ceil(log2 n) / 4)


def _pysum(values: list) -> float:
    """values added one by one (Python floats are IEEE doubles: float64 additions, bit for bit)."""
    acc = 0.0
    for v in values:
        acc += v
    return acc


def _torch_sum(x: np.ndarray, dims: tuple = (), keepdim: bool = False):
    """torch_sum's general path: the plan interpreted at every call."""
    if not isinstance(x, np.ndarray) or x.dtype.kind != "f" or x.dtype.itemsize not in LANES:
        return None
    if x.ndim and min(x.strides) < 0:  # torch's tensors have no negative strides: it would hold a copy
        x = np.ascontiguousarray(x)
    kind, out_shape, lanes, extra = _plan(x.shape, x.strides, x.itemsize, tuple(dims), keepdim, kernels.THREADS)
    zero = _ZERO[x.itemsize]
    if kind == "empty":
        return np.zeros(out_shape, x.dtype)
    if kind == "copy":  # nothing to add: the output (0) plus each element
        return _contiguous(x.reshape(out_shape) + zero)
    if kind == "run":  # one contiguous run: the common whole sum
        flat = x.reshape(-1) if extra else x.T.reshape(-1)
        result = inner_vector_sum(flat, lanes) if x.size >= lanes else row_sum(flat)
        return (result + zero).reshape(out_shape)
    axes_shape, perm_back, view_shape, it, mode = extra
    view = x.reshape(axes_shape).transpose(perm_back).reshape(view_shape)
    if mode == "serial":
        result = _serial(view, it, lanes)
    elif mode == "two_pass":
        result = _two_pass(view, it, lanes, kernels.THREADS)
    else:
        result = _parallel_dims(view, it, lanes, kernels.THREADS, x.itemsize)
    # torch adds into a 0-filled output (no -0.0).  `result` has the kept dims outermost first in the
    # iteration's order, which is theirs (the output's strides order them): it is the output in C order,
    # and contiguous as torch's fresh output is (a later sum of it follows its layout)
    return _contiguous((result + zero).reshape(out_shape))


_ZERO = {4: np.float32(0), 8: np.float64(0)}


@functools.lru_cache(maxsize=1024)
def _plan(shape: tuple, strides: tuple, itemsize: int, dims: tuple, keepdim: bool, threads: int):
    """What torch_sum does for this layout: (kind, output shape, lanes, details), computed once."""
    ndim = len(shape)
    lanes = LANES[itemsize]
    dims = tuple(range(ndim)) if not dims else tuple(sorted({d % max(ndim, 1) for d in dims}))
    out_shape = tuple(1 if i in dims else s for i, s in enumerate(shape)) if keepdim else \
        tuple(s for i, s in enumerate(shape) if i not in dims)
    n = math.prod(shape)
    if n == 0:
        return "empty", out_shape, lanes, None
    if all(shape[d] == 1 for d in dims):
        return "copy", out_shape, lanes, None
    c_contiguous = _contiguous_strides(shape, strides, itemsize)
    f_contiguous = _contiguous_strides(shape[::-1], strides[::-1], itemsize)
    if n < kernels.GRAIN_SIZE and n == math.prod(shape[d] for d in dims) and (c_contiguous or f_contiguous):
        return "run", out_shape, lanes, c_contiguous
    axes = [d for d in range(ndim) if shape[d] != 1]  # size-1 dims merge with any neighbour
    it, perm = _iteration(tuple(shape[d] for d in axes), tuple(strides[d] // itemsize for d in axes),
                          tuple(d in dims for d in axes))
    it = list(it)
    view_shape = [d[0] for d in reversed(it)]
    if len(it) == 1:
        it.append((1, 0, True, 0))
        view_shape = [1] + view_shape
    mode = "serial" if n < kernels.GRAIN_SIZE or threads == 1 else \
        "two_pass" if all(d[2] for d in it) else "dims"
    return "general", out_shape, lanes, (tuple(shape[d] for d in axes), perm[::-1], tuple(view_shape), it, mode)


def _contiguous_strides(shape, strides, itemsize) -> bool:
    """Whether (shape, strides) is C-contiguous (size-1 dims' strides do not matter, as in numpy)."""
    expected = itemsize
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def _contiguous(a) -> np.ndarray:
    """`a` as a C-contiguous array of its own shape (0-d included, which np.ascontiguousarray makes 1-d)."""
    a = np.asarray(a)
    return a if a.flags.c_contiguous else a.copy(order="C")


def vec_reduce_all_sum(x: np.ndarray) -> np.ndarray:
    """The sum over the last dim as ATen's vec::reduce_all adds it (functional_base.h, the AVX512 build): one
    vector of lanes (16 floats, 8 doubles) accumulates every full vector in order, the tail is added into the
    first lanes, then the lanes fold: float32 in a tree (256-, 128-, 64-, 32-bit shuffles), float64 one lane
    after another (no specialised fold).  A dim shorter than a vector is added left to right.  Used by the
    softmax kernels' backward (log_softmax's sum of the gradient); kept dims are dropped."""
    dtype = x.dtype.type
    lanes = 16 if dtype == np.float32 else 8
    n = x.shape[-1]
    if n == 0:
        return np.zeros(x.shape[:-1], dtype=dtype)
    if n < lanes:
        return _left_to_right(x, n, dtype)
    full = n - n % lanes
    acc = _lane_sums(x[..., :full], lanes)
    if full < n:
        acc[..., :n - full] += x[..., full:]
    return _folded(acc, lanes, dtype)


def vec_reduce_all_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sum(a * b) over the last dim as vec::map2_reduce_all adds it (softmax's backward): the first vector of
    products, then each full vector's products added to the lanes, the tail's products added into the first
    lanes (fused into one rounding for float32, where torch's build contracts that step; float64 not), the lanes
    folded as in vec_reduce_all_sum.  A dim shorter than a vector: the products added left to right."""
    dtype = a.dtype.type
    lanes = 16 if dtype == np.float32 else 8
    n = a.shape[-1]
    if n == 0:
        return np.zeros(a.shape[:-1], dtype=dtype)
    if n < lanes:
        return _left_to_right(a * b, n, dtype)
    full = n - n % lanes
    acc = _lane_sums(a[..., :full] * b[..., :full], lanes)
    if full < n:
        tail = (a[..., full:], b[..., full:], acc[..., :n - full])
        acc[..., :n - full] = fused.fma(*tail) if dtype == np.float32 else tail[2] + tail[0] * tail[1]
    return _folded(acc, lanes, dtype)


def _lane_sums(x: np.ndarray, lanes: int) -> np.ndarray:
    """One vector of lanes accumulating every vector of x's last dim in order (a multiple of `lanes` long), as the
    loop `acc = v[0]; acc += v[1]; ...` does: each lane's values laid out contiguously, then a running sum along
    them (add.accumulate adds one after another; a reduce along the innermost axis would pair them)."""
    count = x.shape[-1] // lanes
    if count <= 512:  # few vectors a row: one step per vector, over every row at once
        acc = np.array(x[..., :lanes])
        for start in range(lanes, count * lanes, lanes):
            acc += x[..., start:start + lanes]
        return acc
    vectors = np.ascontiguousarray(x).reshape(*x.shape[:-1], count, lanes)
    return np.cumsum(np.ascontiguousarray(np.swapaxes(vectors, -1, -2)), axis=-1)[..., -1]


def _folded(acc: np.ndarray, lanes: int, dtype) -> np.ndarray:
    """vec_reduce_all's fold of a vector of lanes: float32 in a tree, float64 one lane after another."""
    if dtype == np.float32:
        width = lanes
        while width > 1:
            width //= 2
            acc = acc[..., :width] + acc[..., width:2 * width]
        return acc[..., 0]
    return _left_to_right(acc, lanes, dtype)


def _left_to_right(x: np.ndarray, n: int, dtype) -> np.ndarray:
    total = np.array(x[..., 0], dtype=dtype)
    for i in range(1, n):
        total += x[..., i]
    return total
