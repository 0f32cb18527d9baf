"""Which elements PyTorch's CPU elementwise kernels compute on their scalar path.

A few results differ between torch's vectorised inner loop and its element-by-element tail — which operand
`maximum` returns on a tie of -0.0 and 0.0 is one.  TensorIterator (aten/src/ATen/TensorIterator.cpp,
native/cpu/Loops.h) orders the dimensions by the operands' strides, merges the ones that are contiguous in
every operand, splits the elements among threads when there are at least GRAIN_SIZE of them, and calls the
inner loop on each piece of a row; that loop runs vectors of VECTOR_BYTES while a whole vector fits and the
rest one element at a time — or every element one at a time when an input is neither contiguous nor a
broadcast scalar along the inner dimension.  Measured against PyTorch 2.13 on the reference machine (AVX512:
8 float64 or 16 float32 per vector, 2 threads) in tests/engine/test_kernels.py.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os

import numpy as np

VECTOR_BYTES = 64
GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE
THREADS = max(1, min(os.cpu_count() or 1, 64))

_ROWS_BATCH: contextvars.ContextVar = contextvars.ContextVar("gradcli_rows_batch", default=False)
LEADING = "leading"  # rows_batch() when axis 0 is a batch of rows, each row the rest of the array


@contextlib.contextmanager
def elements_are_rows(layout=True):
    """Evaluate a batch of rows as each row's single evaluation would (`--rows`).  `layout` True: each element
    is its own row (a 1-element tensor, which always takes the scalar path); LEADING: axis 0 of every batched
    array is the batch, each row the rest of it, so scalar_lanes decides on one row's layout; False: off (a
    part of the expression that no row's value reaches).  A context variable: a concurrent evaluation in
    another thread or task keeps its own."""
    token = _ROWS_BATCH.set(layout)
    try:
        yield
    finally:
        _ROWS_BATCH.reset(token)


def rows_batch():
    """False, True (each element a row) or LEADING (axis 0 the batch): see elements_are_rows."""
    return _ROWS_BATCH.get()


def row_size(x) -> int:
    """The number of elements one row of `x` has in a batch of rows (x's own size outside a batch)."""
    layout = _ROWS_BATCH.get()
    if layout is True:
        return 1
    if layout == LEADING and np.ndim(x):
        return int(np.size(x)) // max(np.shape(x)[0], 1)
    return int(np.size(x))


def scalar_lanes(out_shape: tuple, itemsize: int, *inputs: np.ndarray, vector_bytes: int = VECTOR_BYTES):
    """True, False or a boolean array of `out_shape`: the output elements torch computes one at a time.
    `vector_bytes` is the step of the vectorised loop (Loops.h's vectorized_loop takes two vectors at a time):
    64 for the kernels registered with REGISTER_DISPATCH, which run their AVX2 build on an AVX512 machine,
    128 for those also registered for AVX512 (ALSO_REGISTER_AVX512_DISPATCH: pow, for one)."""
    layout = _ROWS_BATCH.get()
    if layout == LEADING and out_shape:  # one row's decisions, the same for every row of the batch
        rank = len(out_shape)
        token = _ROWS_BATCH.set(False)
        try:
            row = scalar_lanes(out_shape[1:], itemsize, *(a[0] if a.ndim == rank else a for a in inputs),
                               vector_bytes=vector_bytes)
        finally:
            _ROWS_BATCH.reset(token)
        return row if isinstance(row, bool) else np.broadcast_to(row, out_shape)
    n = math.prod(out_shape)
    lanes = vector_bytes // itemsize
    if n < lanes or layout:
        return True
    order, inner = _iteration(out_shape, inputs)
    if inner is None:
        return True
    if n < GRAIN_SIZE or THREADS == 1:
        tasks = [(0, n)]
    else:
        count = min(THREADS, -(-n // GRAIN_SIZE))
        chunk = -(-n // count)
        tasks = [(s, min(s + chunk, n)) for s in range(0, n, chunk)]
    if inner % lanes == 0 and all(begin % lanes == 0 and end % lanes == 0 for begin, end in tasks):
        return False  # every piece of every row a whole number of vectors: no array of n flags to find that out
    scalar = np.zeros(n, dtype=bool)  # by position in the iteration
    for begin, end in tasks:
        start = begin
        while start < end:  # one call of the inner loop per (piece of a) row
            stop = min(end, (start // inner + 1) * inner)
            scalar[stop - (stop - start) % lanes:stop] = True
            start = stop
    if not scalar.any():
        return False
    if order == sorted(order):  # iterated in C order (contiguous operands): positions are memory order
        return scalar.reshape(out_shape)
    # each output element's position in the iteration: the axes in iteration order, transposed back
    sizes = [out_shape[d] for d in order]
    position = np.transpose(np.arange(n).reshape(sizes), np.argsort(order))
    return scalar[position].reshape(out_shape)


def _iteration(out_shape, inputs):
    """(axes outermost first, inner loop length), the length None when the inner loop is not vectorised."""
    ndim = len(out_shape)
    strides = []
    for arr in inputs:
        lead = ndim - arr.ndim
        strides.append([0] * lead + [0 if arr.shape[i] == 1 else arr.strides[i] // arr.itemsize
                                     for i in range(arr.ndim)])
    axes = [d for d in range(ndim) if out_shape[d] != 1]

    perm = reorder_dimensions(axes[::-1], out_shape, strides)
    order = perm[::-1]
    if not perm:
        return order, 1
    inner, inner_strides = out_shape[perm[0]], [s[perm[0]] for s in strides]
    for d in perm[1:]:  # coalesce_dimensions: merge outward while contiguous in every operand
        if all(s[d] == i * inner for s, i in zip(strides, inner_strides)):
            inner *= out_shape[d]
        else:
            break
    broadcast = inner_strides.count(0)
    if any(s not in (0, 1) for s in inner_strides) or (broadcast > 1 and len(inputs) > 1):
        return order, None
    return order, inner


def reorder_dimensions(perm: list, shape, operand_strides, reduction: bool = False) -> list:
    """TensorIterator::reorder_dimensions: `perm` (dims, innermost first) insertion-sorted so that the first
    operand whose strides tell two dims apart decides (a stride of 0 tells nothing), equal strides putting the
    smaller size inner; a reduction's output (the first operand) moves its reduced dims, stride 0, inside."""
    def should_swap(d0, d1):  # d0 the inner candidate
        for k, strides in enumerate(operand_strides):
            s0, s1 = strides[d0], strides[d1]
            if reduction and k == 0 and (s0 == 0) != (s1 == 0):
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(perm)
    for i in range(1, len(perm)):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    return perm


BLOCK = 1 << 16  # elements an emulated kernel handles at a time: its temporaries stay a few hundred KiB


def in_blocks(kernel, x: np.ndarray, block: int = 0) -> np.ndarray:
    """kernel (elementwise, many temporaries) applied to x a block at a time (BLOCK elements unless `block`
    says fewer), so that its memory stays bounded whatever x's size (and its blocks stay in cache)."""
    block = block or BLOCK
    if x.size <= block:
        return kernel(x)
    flat = x.reshape(-1)
    out = np.empty(flat.shape, dtype=x.dtype)
    for start in range(0, flat.size, block):
        out[start:start + block] = kernel(flat[start:start + block])
    return out.reshape(x.shape)
