"""libstdc++'s unstable selection and sorting (std::nth_element, std::partial_sort, std::sort), step for step.

torch's CPU topk (aten/src/ATen/native/TopKImpl.h, topk_impl_loop) orders (value, index) pairs with these
algorithms and a comparator that looks at the value only, so among equal values the indices it returns - and
the positions its gradient goes back to - are whatever libstdc++'s introselect/heap/introsort leave there, not
the stable order.  With sorted=False the k selected pairs also stay in nth_element's partition order.  These
functions reproduce bits/stl_algo.h and bits/stl_heap.h (unchanged since GCC 4.x) on a Python list, with the
same comparisons and moves in the same order, so ties and unsorted results come out as torch's.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

_THRESHOLD = 16  # std::sort's _S_threshold

Compare = Callable[[float, float], bool]


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _insertion_sort(q: list, first: int, last: int, less: Compare) -> None:
    if first == last:
        return
    for i in range(first + 1, last):
        val = q[i]
        if less(val[0], q[first][0]):
            q[first + 1:i + 1] = q[first:i]
            q[first] = val
        else:
            _unguarded_linear_insert(q, i, less)


def _unguarded_linear_insert(q: list, last: int, less: Compare) -> None:
    val = q[last]
    nxt = last - 1
    while less(val[0], q[nxt][0]):
        q[last] = q[nxt]
        last = nxt
        nxt -= 1
    q[last] = val


def _move_median_to_first(q: list, result: int, a: int, b: int, c: int, less: Compare) -> None:
    va, vb, vc = q[a][0], q[b][0], q[c][0]
    if less(va, vb):
        pick = b if less(vb, vc) else (c if less(va, vc) else a)
    elif less(va, vc):
        pick = a
    else:
        pick = c if less(vb, vc) else b
    q[result], q[pick] = q[pick], q[result]


def _unguarded_partition(q: list, first: int, last: int, pivot: int, less: Compare) -> int:
    p = q[pivot][0]
    while True:
        while less(q[first][0], p):
            first += 1
        last -= 1
        while less(p, q[last][0]):
            last -= 1
        if not first < last:
            return first
        q[first], q[last] = q[last], q[first]
        first += 1


def _unguarded_partition_pivot(q: list, first: int, last: int, less: Compare) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(q, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(q, first + 1, last, first, less)


def _push_heap(q: list, first: int, hole: int, top: int, value, less: Compare) -> None:
    parent = (hole - 1) // 2
    while hole > top and less(q[first + parent][0], value[0]):
        q[first + hole] = q[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    q[first + hole] = value


def _adjust_heap(q: list, first: int, hole: int, length: int, value, less: Compare) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(q[first + child][0], q[first + child - 1][0]):
            child -= 1
        q[first + hole] = q[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        q[first + hole] = q[first + child - 1]
        hole = child - 1
    _push_heap(q, first, hole, top, value, less)


def _make_heap(q: list, first: int, last: int, less: Compare) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(q, first, parent, length, q[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(q: list, first: int, last: int, result: int, less: Compare) -> None:
    value = q[result]
    q[result] = q[first]
    _adjust_heap(q, first, 0, last - first, value, less)


def _heap_select(q: list, first: int, middle: int, last: int, less: Compare) -> None:
    _make_heap(q, first, middle, less)
    for i in range(middle, last):
        if less(q[i][0], q[first][0]):
            _pop_heap(q, first, middle, i, less)


def _sort_heap(q: list, first: int, last: int, less: Compare) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(q, first, last, last, less)


def partial_sort(q: list, middle: int, less: Compare) -> None:
    """std::partial_sort(q.begin(), q.begin() + middle, q.end(), less) on (value, index) pairs."""
    _heap_select(q, 0, middle, len(q), less)
    _sort_heap(q, 0, middle, less)


def nth_element(q: list, nth: int, less: Compare, depth: int | None = None) -> None:
    """std::nth_element(q.begin(), q.begin() + nth, q.end(), less): libstdc++'s introselect (depth: its
    recursion limit, 2 lg n unless given)."""
    first, last = 0, len(q)
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2 if depth is None else depth
    while last - first > 3:
        if depth == 0:
            _heap_select(q, first, nth + 1, last, less)
            q[first], q[nth] = q[nth], q[first]
            return
        depth -= 1
        cut = _unguarded_partition_pivot(q, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(q, first, last, less)


def _introsort_loop(q: list, first: int, last: int, depth: int, less: Compare) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_select(q, first, last, last, less)
            _sort_heap(q, first, last, less)
            return
        depth -= 1
        cut = _unguarded_partition_pivot(q, first, last, less)
        _introsort_loop(q, cut, last, depth, less)
        last = cut


def sort(q: list, last: int, less: Compare, depth: int | None = None) -> None:
    """std::sort(q.begin(), q.begin() + last, less): introsort (depth: its recursion limit, 2 lg n unless
    given), then the final insertion sort."""
    if last <= 0:
        return
    _introsort_loop(q, 0, last, _lg(last) * 2 if depth is None else depth, less)
    if last > _THRESHOLD:
        _insertion_sort(q, 0, _THRESHOLD, less)
        for i in range(_THRESHOLD, last):
            _unguarded_linear_insert(q, i, less)
    else:
        _insertion_sort(q, 0, last, less)


# ---- the same algorithms on numpy arrays: a partition of a long range is vectorised, short ranges go to the
# list versions above, and std::sort's final insertion sort becomes a stable sort (an insertion sort with a
# strict comparator leaves equal elements in their order).  Same steps, same result, ~10x faster on long ties.

_VECTOR_RANGE = 128  # ranges longer than this are partitioned with numpy

LessVec = Callable[[np.ndarray, object], np.ndarray]


def _partition_vec(v: np.ndarray, ix: np.ndarray, first: int, last: int, pivot: int, less_vec: LessVec,
                   greater_vec: LessVec) -> int:
    """_unguarded_partition(first, last, pivot) in one pass: the left scan stops at the elements not less than
    the pivot, the right scan at those the pivot is not less than (down to the pivot itself, its guard); the
    j-th stops swap while they have not crossed, and a swapped element stops the other scan where it went."""
    p = v[pivot]
    seg = v[first:last]
    left = np.flatnonzero(~less_vec(seg, p)) + first
    right = np.append(np.flatnonzero(~greater_vec(seg, p))[::-1] + first, pivot)
    m = min(len(left), len(right))
    crossed = np.flatnonzero(left[:m] >= right[:m])
    m = int(crossed[0]) if len(crossed) else m
    if m == len(left):
        cut = int(right[m - 1])
    else:
        cut = int(left[m]) if m == 0 else min(int(left[m]), int(right[m - 1]))
    a, b = left[:m], right[:m]
    v[a], v[b] = v[b], v[a].copy()
    ix[a], ix[b] = ix[b], ix[a].copy()
    return cut


def _median_to_first_vec(v: np.ndarray, ix: np.ndarray, first: int, last: int, less: Compare) -> None:
    mid = first + (last - first) // 2
    q = [(v[i].item(), i) for i in (first + 1, mid, last - 1)]
    va, vb, vc = (x for x, _ in q)
    if less(va, vb):
        pick = mid if less(vb, vc) else (last - 1 if less(va, vc) else first + 1)
    elif less(va, vc):
        pick = first + 1
    else:
        pick = last - 1 if less(vb, vc) else mid
    v[[first, pick]] = v[[pick, first]]
    ix[[first, pick]] = ix[[pick, first]]


def _partition_pivot_vec(v, ix, first, last, less, less_vec, greater_vec) -> int:
    """_unguarded_partition_pivot on numpy arrays: the median of three to the front, then the partition."""
    _median_to_first_vec(v, ix, first, last, less)
    return _partition_vec(v, ix, first + 1, last, first, less_vec, greater_vec)


def _on_list(v: np.ndarray, ix: np.ndarray, first: int, last: int, step) -> None:
    """Run a list version's step on v[first:last] as (value, index) pairs and write the result back."""
    q = list(zip(v[first:last].tolist(), ix[first:last].tolist()))
    step(q)
    v[first:last] = [x for x, _ in q]
    ix[first:last] = [i for _, i in q]


def nth_element_array(v: np.ndarray, ix: np.ndarray, nth: int, less: Compare, less_vec: LessVec,
                      greater_vec: LessVec) -> None:
    """nth_element on the pairs (v[i], ix[i]), in place."""
    first, last = 0, len(v)
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > _VECTOR_RANGE:
        if depth == 0:
            break
        depth -= 1
        cut = _partition_pivot_vec(v, ix, first, last, less, less_vec, greater_vec)
        if cut <= nth:
            first = cut
        else:
            last = cut

    def rest(q):  # the loop goes on from here exactly as the list version's, on this range
        nth_element(q, nth - first, less, depth)
    _on_list(v, ix, first, last, rest)


def _introsort_loop_vec(v, ix, first, last, depth, less, less_vec, greater_vec) -> None:
    while last - first > _VECTOR_RANGE:
        if depth == 0:
            break
        depth -= 1
        cut = _partition_pivot_vec(v, ix, first, last, less, less_vec, greater_vec)
        _introsort_loop_vec(v, ix, cut, last, depth, less, less_vec, greater_vec)
        last = cut
    if last - first > _THRESHOLD:
        _on_list(v, ix, first, last, lambda q: _introsort_loop(q, 0, len(q), depth, less))


def sort_array(v: np.ndarray, ix: np.ndarray, last: int, less: Compare, less_vec: LessVec, greater_vec: LessVec,
               stable_order) -> None:
    """std::sort of the first `last` pairs (v[i], ix[i]), in place; stable_order(values) is a stable argsort
    under the same comparator (the final insertion sort)."""
    if last <= 0:
        return
    _introsort_loop_vec(v, ix, 0, last, _lg(last) * 2, less, less_vec, greater_vec)
    order = stable_order(v[:last])
    v[:last], ix[:last] = v[:last][order], ix[:last][order]
