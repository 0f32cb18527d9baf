"""torch's per-row mean and variance (aten/src/ATen/native/cpu/moments_utils.h, RowwiseMoments), which its CPU
layer_norm computes in the input's dtype: Welford over vectors of 8 floats / 4 doubles, chunks of 16 vectors
merged in a cascade (AddMomentsVec), the leftover elements one at a time, then each lane merged in (AddMoments).

Where the compiled kernel fuses a multiply and an add (measured against torch 2.13, AVX2 and AVX-512 builds
alike, 0 of 8,800 means and variances differing over rows of 3 to 5,000 elements, both dtypes): the in-chunk
updates `m1 += delta * c`, `m2 += delta * (x - m1)` are single fused multiply-adds; a vector merge's
`m2 += m2_add + delta * delta * c * m0` is computed as fma(delta, delta * c * m0, m2 + m2_add) and its
`m1 += c * delta` unfused; the lane merges' `m1 += c * delta` fused and `m2 += m2_add + delta * delta * c * m0`
as m2 + fma(delta * delta * c, m0, m2_add); the leftover elements' updates unfused.

Compiled in native_math.c (ROWWISE_MOMENTS); rowwise_moments_reference is the same arithmetic in numpy."""

from __future__ import annotations

import numpy as np

from gradcli.engine.kernels import native
from gradcli.engine.kernels.fused import fma

CHUNK = 16  # kChunkSize: vectors per Welford run before a cascade merge


def _ceil_log2(x: int) -> int:
    """ATen's utils::CeilLog2: 1 for x <= 2."""
    return 1 if x <= 2 else (x - 1).bit_length()


NUMPY_ROW_MAX = 1 << 16  # without the compiled kernel, longer rows take numpy's formula (within a few ulps)


def too_long_for_numpy(size: int) -> bool:
    """Whether rows of `size` elements are too long for the numpy form (one step per 8 elements of a row)."""
    return size > NUMPY_ROW_MAX and native.rowwise_moments() is None


def rowwise_moments(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, biased variance) of each row of a 2-D float32/float64 array, as torch's RowwiseMoments: compiled
    (native_math.c) when built, else rowwise_moments_reference."""
    compiled = native.rowwise_moments()
    if compiled is not None:
        return compiled(rows)
    return rowwise_moments_reference(rows)


def rowwise_moments_reference(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """rowwise_moments in numpy, one step per vector over every row's lanes at once."""
    dt = rows.dtype.type
    lanes = 8 if rows.dtype == np.float32 else 4
    count, size = rows.shape
    n = size // lanes
    chunks = -(-n // CHUNK)
    depth = _ceil_log2(chunks)
    zero = np.zeros((count, lanes), dt)
    m0_stack = [0] * depth
    m1_stack = [zero] * depth
    m2_stack = [zero] * depth
    inverse = [dt(1) / dt(j + 1) for j in range(CHUNK)]

    def merge(m0_add, m1_add, m2_add, level):  # AddMomentsVec(add, into level)
        m0 = m0_stack[level]
        total = m0 + m0_add
        c = dt(0) if total == 0 else dt(m0_add) / dt(total)
        delta = m1_add - m1_stack[level]
        m1_stack[level] = m1_stack[level] + c * delta
        m2_stack[level] = fma(delta, delta * c * dt(m0), m2_stack[level] + m2_add)
        m0_stack[level] = total

    for i in range(chunks):
        start = i * CHUNK * lanes
        m1, m2 = zero, zero
        for j in range(min(CHUNK, n - i * CHUNK)):
            x = rows[:, start + j * lanes:start + (j + 1) * lanes]
            delta = x - m1
            m1 = fma(delta, inverse[j], m1)
            m2 = fma(delta, x - m1, m2)
        merge(min(CHUNK, n - i * CHUNK), m1, m2, 0)
        mask, level = i + 1, 1
        while level < depth and not mask & 1:
            merge(m0_stack[level - 1], m1_stack[level - 1], m2_stack[level - 1], level)
            m0_stack[level - 1], m1_stack[level - 1], m2_stack[level - 1] = 0, zero, zero
            mask >>= 1
            level += 1
    for level in range(1, depth):  # the levels left, folded into level 0
        merge(m0_stack[level], m1_stack[level], m2_stack[level], 0)

    m0, m1, m2 = 0, np.zeros(count, dt), np.zeros(count, dt)
    for k in range(n * lanes, size):  # the leftover elements, one at a time
        x = rows[:, k]
        delta = x - m1
        m0 += 1
        m1 = m1 + delta / dt(m0)
        m2 = m2 + delta * (x - m1)
    lane_m1, lane_m2 = m1_stack[0], m2_stack[0]
    for lane in range(lanes):  # AddMoments(n, lane's moments, into the scalar ones)
        total = m0 + n
        c = dt(0) if total == 0 else dt(n) / dt(total)
        delta = lane_m1[:, lane] - m1
        m1 = fma(c, delta, m1)
        m2 = m2 + fma(delta * delta * c, dt(m0), lane_m2[:, lane])
        m0 = total
    return m1, m2 / dt(size)


def layer_norm_output(rows: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight, bias) -> np.ndarray:
    """layer_norm's second pass (layer_norm_kernel.cpp) from each row's mean and rstd: (x - mean) * rstd * weight
    + bias, its last multiply and add fused (without a weight the compiled loop drops the * 1 and fuses * rstd +
    bias; without a bias, + 0 stays: -0 becomes +0).  weight, bias: 1-D arrays or None."""
    compiled = native.layer_norm_affine()
    if compiled is not None:
        return compiled(rows, mean, rstd, weight, bias)
    dt = rows.dtype.type
    centred = rows - mean[:, None]
    scale = rstd[:, None]
    if bias is None:
        return centred * scale if weight is None else centred * scale * weight + dt(0)
    if weight is None:
        return fma(centred, scale, bias)
    return fma(centred * scale, weight, bias)


# -- batch_norm (aten/src/ATen/native/cpu/batch_norm_kernel.cpp, Normalization.cpp) ---------------------------------

def batch_norm_statistics(x: np.ndarray, threads: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(mean, sum of squared deviations, count) per channel of a C-contiguous (N, C, ...) float32/float64 array,
    as batch_norm_cpu_collect_stats computes them with `threads` threads: with an image (dims after C) of more
    than one element, each channel's elements in memory order, summed in double from 0, the mean rounded to x's
    dtype, then the squares of (x - mean) in x's dtype summed in double (no fused step); for (N, C) inputs the
    channels-last kernel: each thread's rows added into a buffer in x's dtype, the buffers added in double, and
    the squares accumulated into the buffers with a fused multiply-add (with at most `threads` rows: the tiled
    or the per-channel form, as torch chooses)."""
    dt = x.dtype.type
    rows, channels = x.shape[0], x.shape[1]
    image = x.size // max(rows * channels, 1)
    count = rows * image
    compiled = native.batch_norm()
    if compiled is not None and (image > 1 or rows > threads):
        mean, squares = np.empty(channels, dt), np.empty(channels, dt)
        if image > 1:
            compiled["image"](np.ascontiguousarray(x).reshape(rows, channels, image), mean, squares)
        else:
            compiled["rows"](np.ascontiguousarray(x).reshape(rows, channels), threads, mean, squares)
        return mean, squares, count
    return batch_norm_statistics_reference(x, threads)


def batch_norm_statistics_reference(x: np.ndarray, threads: int) -> tuple[np.ndarray, np.ndarray, int]:
    """batch_norm_statistics in numpy."""
    dt = x.dtype.type
    rows, channels = x.shape[0], x.shape[1]
    image = x.size // max(rows * channels, 1)
    count = rows * image
    if image > 1:
        per_channel = x.reshape(rows, channels, image).transpose(1, 0, 2).reshape(channels, count)
        total = np.cumsum(per_channel, axis=1, dtype=np.float64)[:, -1]
        mean = (total / count).astype(dt)
        centred = per_channel - mean[:, None]
        squares = np.cumsum(centred * centred, axis=1, dtype=np.float64)[:, -1]
        return mean, squares.astype(dt), count
    table = x.reshape(rows, channels)
    if rows > threads:
        chunk = -(-rows // threads)
        ranges = [(t * chunk, min(rows, (t + 1) * chunk)) for t in range(threads)]
        buffers = [np.cumsum(table[b:e], axis=0, dtype=dt)[-1] if e > b else np.zeros(channels, dt)
                   for b, e in ranges]
        total = np.zeros(channels)
        for buffer in buffers:
            total = total + buffer.astype(np.float64)
        mean = (total / count).astype(dt)
        squares = np.zeros(channels)
        for b, e in ranges:
            buffer = np.zeros(channels, dt)
            for i in range(b, e):
                centred = table[i] - mean
                buffer = fma(centred, centred, buffer)
            squares = squares + buffer.astype(np.float64)
        return mean, squares.astype(dt), count
    if threads == 1 or channels <= 16 or channels > 2048:  # tiles of channels, vectorised, in x's dtype
        mean = np.zeros(channels, dt)
        for i in range(rows):
            mean = table[i] + mean
        mean = mean / dt(count)
        squares = np.zeros(channels, dt)
        for i in range(rows):
            centred = table[i] - mean
            squares = fma(centred, centred, squares)
        return mean, squares, count
    total = np.cumsum(table, axis=0, dtype=np.float64)[-1]  # one channel at a time, in double
    mean = (total / count).astype(dt)
    centred = table - mean
    return mean, np.cumsum(centred * centred, axis=0, dtype=np.float64)[-1].astype(dt), count


def batch_norm_output(x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, weight, bias) -> np.ndarray:
    """batch_norm's output from each channel's mean and 1 / std: alpha = invstd * weight, beta = bias - mean *
    alpha (fused), then x * alpha + beta (fused), as batch_norm_cpu_contiguous_impl."""
    dt = x.dtype.type
    alpha = (invstd if weight is None else invstd * weight).astype(dt)
    beta = fma(-mean, alpha, np.zeros_like(alpha) if bias is None else bias).astype(dt)
    compiled = native.batch_norm()
    if compiled is not None:
        x = np.ascontiguousarray(x)
        out = np.empty(x.shape, dt)
        compiled["output"](x.reshape(x.shape[0], x.shape[1], -1), alpha, beta, out)
        return out
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return fma(x, alpha.reshape(shape), beta.reshape(shape))


# -- layer_norm's backward (layer_norm_kernel.cpp, LayerNormBackwardKernelImplInternal; ATen's AVX2 build) ----------

def _fold(acc: np.ndarray) -> np.ndarray:
    """vec_reduce_all of a vector of lanes with + (AVX2): float's 8 lanes by 128-, 64- and 32-bit shuffles, double's
    4 lanes one after another into lane 0."""
    if acc.shape[-1] == 8:
        acc = acc + np.concatenate([acc[..., 4:], acc[..., :4]], axis=-1)
        acc = acc + acc[..., [2, 3, 0, 1, 6, 7, 4, 5]]
        acc = acc + acc[..., [1, 0, 3, 2, 5, 4, 7, 6]]
        return acc[..., 0]
    total = acc[..., 0]
    for lane in range(1, acc.shape[-1]):
        total = total + acc[..., lane]
    return total


def _reduce_all(terms, size: int, lanes: int, tail=None) -> np.ndarray:
    """vec::map*_reduce_all with + over each row: `terms(start, stop)` the mapped values of a range of columns;
    the first vector, each further full vector added unfused, the partial last vector's lanes through `tail(acc,
    start)` (torch's build fuses that step's multiply-add) or added; then the lanes folded.  A row shorter than a
    vector: its values added one after another."""
    if size < lanes:
        values = terms(0, size)
        total = values[:, 0]
        for k in range(1, size):
            total = total + values[:, k]
        return total
    full = size - size % lanes
    vectors = terms(0, full)
    count = full // lanes
    if count <= 512:  # one step per vector over every row at once
        acc = vectors[:, :lanes].copy()
        for start in range(lanes, full, lanes):
            acc += vectors[:, start:start + lanes]
    else:  # each lane's values contiguous, then a running sum along them
        lanes_first = np.ascontiguousarray(vectors.reshape(-1, count, lanes).transpose(0, 2, 1))
        acc = np.cumsum(lanes_first, axis=-1, dtype=vectors.dtype)[..., -1]
    if full < size:
        acc = acc.copy()
        acc[:, :size - full] = tail(acc[:, :size - full], full) if tail else acc[:, :size - full] + terms(full, size)
    return _fold(acc)


def layer_norm_backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight, threads: int,
                        need_weight: bool, need_bias: bool):
    """(dx, dweight, dbias) of layer_norm over rows (2-D dy, x; each row's mean and rstd; weight 1-D or None), as
    torch's CPU kernel computes them: per row ds = sum(dy * x * w) and db = sum(dy * w) (vectorised reductions),
    b = fma(db, mean, -ds) * a * a * a / n, c = fma(-b, mean, -(db * a / n)), dx = fma(b, x, a * dy * w) + c with
    a = rstd; dweight and dbias accumulated row by row into one buffer per thread (rows split as
    at::parallel_for splits them), fma(dy, fma(a, x, -a * mean), buffer) and dy + buffer, the buffers then added
    in thread order.  Which steps are fused: measured against torch 2.13 (0 differing elements)."""
    dt = x.dtype.type
    rows, size = x.shape
    lanes = 8 if x.dtype == np.float32 else 4
    a = rstd
    if weight is None:
        ds = _reduce_all(lambda s, e: dy[:, s:e] * x[:, s:e], size, lanes,
                         lambda acc, s: fma(dy[:, s:], x[:, s:], acc))
        db = _reduce_all(lambda s, e: dy[:, s:e], size, lanes)
        scaled = dy
    else:
        ds = _reduce_all(lambda s, e: dy[:, s:e] * x[:, s:e] * weight[s:e], size, lanes,
                         lambda acc, s: fma(dy[:, s:] * x[:, s:], weight[s:], acc))
        db = _reduce_all(lambda s, e: dy[:, s:e] * weight[s:e], size, lanes,
                         lambda acc, s: fma(dy[:, s:], weight[s:], acc))
        scaled = None
    scale = dt(1) / dt(size)
    b = fma(db, mean, -ds) * a * a * a * scale
    c = fma(-b, mean, -(db * a * scale))
    dy_a = dy * a[:, None] if scaled is not None else dy * a[:, None] * weight
    dx = fma(b[:, None], x, dy_a) + c[:, None]
    if not (need_weight or need_bias):
        return dx, None, None
    compiled = native.layer_norm_buffers()
    if compiled is not None:
        gamma_buffers, beta_buffers = compiled(dy, x, mean, rstd, threads, need_weight, need_bias)
    else:
        chunk = -(-rows // threads)
        gamma_buffers, beta_buffers = [], []
        for begin in range(0, rows, chunk):
            g_buffer = np.zeros(size, dt)
            for i in range(begin, min(rows, begin + chunk)):
                g_buffer = fma(dy[i], fma(a[i], x[i], -a[i] * mean[i]), g_buffer)
            gamma_buffers.append(g_buffer)
            beta_buffers.append(np.zeros(size, dt) + np.cumsum(dy[begin:begin + chunk], axis=0, dtype=dt)[-1])

    def added(buffers):  # the second pass: each column's buffers added in thread order, from 0
        total = np.zeros(size, dt)
        for buffer in buffers:
            total = total + buffer
        return total

    dweight = added(gamma_buffers) if need_weight else None
    dbias = added(beta_buffers) if need_bias else None
    return dx, dweight, dbias


def batch_norm_backward(x: np.ndarray, dy: np.ndarray, weight, mean: np.ndarray, invstd: np.ndarray, train: bool,
                        threads: int):
    """(dx, dweight, dbias) of batch_norm over a C-contiguous (N, C, ...) x as torch's CPU backward kernels
    compute them (batch_norm_kernel.cpp), from the forward's mean and 1/std (training) or the running ones
    (evaluation: 1 / sqrt(running_var + eps) in double).  With an image (dims after C) of more than one element:
    per (n, c) plane the AVX2 sum of dy and of (x - mean) * dy (its partial vector fused), added over n in double;
    dx = (dy - sum / N - (x - mean) * k) * invstd * w with k = dotp * invstd * invstd / N, the subtraction of the
    product fused.  For (N, C) inputs: one buffer per thread (rows split as at::parallel_for splits them) for
    the sum and for dotp (fused), the buffers added in double and rounded; dx's product fused over the channels
    of whole vectors, not over the rest.  dweight = dotp * invstd, dbias = sum.  Measured against torch 2.13:
    0 differing elements over 56 configurations."""
    dt = x.dtype.type
    rows, channels = x.shape[0], x.shape[1]
    image = x.size // max(rows * channels, 1)
    count = rows * image
    lanes = 8 if x.dtype == np.float32 else 4
    w = np.ones(channels, dt) if weight is None else weight
    compiled = native.batch_norm()
    if compiled is not None:
        total, dotp = compiled["sums"](np.ascontiguousarray(x).reshape(rows, channels, image),
                                       np.ascontiguousarray(dy).reshape(rows, channels, image), mean, threads)
        if image == 1:
            total, dotp = total.astype(dt), dotp.astype(dt)
    else:
        total, dotp = _batch_norm_sums(x, dy, mean, threads)
    if image > 1:
        shape = (1, channels, 1)
        x3, dy3 = x.reshape(rows, channels, image), dy.reshape(rows, channels, image)
        k = dotp.astype(dt) * invstd * invstd / dt(count) if train else None
        grad_mean = (total / count).astype(dt) if train else None
        if compiled is not None:  # one pass; the numpy form below says the order
            dx = compiled["input_grad"](np.ascontiguousarray(x3), np.ascontiguousarray(dy3), mean,
                                        invstd if k is None else k, invstd if grad_mean is None else grad_mean,
                                        invstd, w, train)
        elif train:
            centred3 = x3 - mean.reshape(shape)
            inner = fma(-centred3, np.broadcast_to(k.reshape(shape), x3.shape), dy3 - grad_mean.reshape(shape))
            dx = inner * invstd.reshape(shape) * w.reshape(shape)
        else:
            dx = dy3 * invstd.reshape(shape) * w.reshape(shape)
        return dx.reshape(x.shape), (dotp * invstd).astype(dt), total.astype(dt)
    table, grads = x.reshape(rows, channels), dy.reshape(rows, channels)
    if train:
        k = dotp * invstd * invstd / dt(count)
        centred = table - mean
        grad_mean = total / dt(count)
        inner = grads - grad_mean - centred * k
        full = channels - channels % lanes
        inner[:, :full] = fma(-centred[:, :full], np.broadcast_to(k[:full], (rows, full)),
                              (grads - grad_mean)[:, :full])
        dx = inner * invstd * w
    else:
        dx = grads * invstd * w
    return dx.reshape(x.shape), dotp * invstd, total


def _batch_norm_sums(x, dy, mean, threads):
    """batch_norm_backward's per-channel sums in numpy: (sum of dy, of (x - mean) * dy), in double for an
    image of more than one element, rounded to x's dtype for (N, C) inputs."""
    dt = x.dtype.type
    rows, channels = x.shape[0], x.shape[1]
    image = x.size // max(rows * channels, 1)
    lanes = 8 if x.dtype == np.float32 else 4
    if image > 1:
        planes = x.reshape(rows * channels, image)
        grads = dy.reshape(rows * channels, image)
        centred = planes - np.tile(mean, rows)[:, None]
        plane_sums = _reduce_all(lambda s, e: grads[:, s:e], image, lanes)
        plane_dots = _reduce_all(lambda s, e: centred[:, s:e] * grads[:, s:e], image, lanes,
                                 lambda acc, s: fma(centred[:, s:], grads[:, s:], acc))
        return (np.cumsum(plane_sums.reshape(rows, channels), axis=0, dtype=np.float64)[-1],
                np.cumsum(plane_dots.reshape(rows, channels), axis=0, dtype=np.float64)[-1])
    table, grads = x.reshape(rows, channels), dy.reshape(rows, channels)
    chunk = -(-rows // threads)
    total, dotp = np.zeros(channels), np.zeros(channels)
    for begin in range(0, rows, chunk):
        sum_buffer = np.zeros(channels, dt) + np.cumsum(grads[begin:begin + chunk], axis=0, dtype=dt)[-1]
        dot_buffer = np.zeros(channels, dt)
        for i in range(begin, min(rows, begin + chunk)):
            dot_buffer = fma(table[i] - mean, grads[i], dot_buffer)
        total, dotp = total + sum_buffer.astype(np.float64), dotp + dot_buffer.astype(np.float64)
    return total.astype(dt), dotp.astype(dt)


# -- group_norm (aten/src/ATen/native/cpu/group_norm_kernel.cpp, the contiguous kernels; ATen's AVX2 build) ---------

def _lanes_sum(acc: np.ndarray) -> np.ndarray:
    """std::accumulate over a vector's stored lanes, from 0, one after another."""
    total = np.zeros(acc.shape[:-1], acc.dtype)
    for lane in range(acc.shape[-1]):
        total = total + acc[..., lane]
    return total


def group_norm_forward(x: np.ndarray, weight, bias, groups: int, eps: float):
    """(y, mean, rstd) of group_norm over a C-contiguous (N, C, HxW) float32/float64 array, as
    GroupNormKernelImplInternal: RowwiseMoments over each (n, group) row of D * HxW elements in x's dtype,
    rstd = 1 / sqrt(max(var, 0) + eps) in double (eps is a double) rounded to x's dtype; without weight and bias
    y = (x - mean) * rstd, else scale = rstd * weight, shift = -scale * mean + bias and y = scale * x + shift,
    both fused (measured against torch 2.13: 0 differing elements; unfused, 7,720 and 17,486 of 120,000)."""
    dt = x.dtype.type
    n, c, image = x.shape
    d = c // groups
    mean, var = rowwise_moments(np.ascontiguousarray(x).reshape(n * groups, d * image))
    with np.errstate(all="ignore"):
        rstd = (1.0 / np.sqrt(np.maximum(var, dt(0)).astype(np.float64) + eps)).astype(dt)
        if weight is None and bias is None:
            y = (x.reshape(n * groups, d * image) - mean[:, None]) * rstd[:, None]
            return y.reshape(x.shape), mean, rstd
        rstd_c = np.repeat(rstd.reshape(n, groups), d, axis=1)  # (n, c)
        mean_c = np.repeat(mean.reshape(n, groups), d, axis=1)
        scale = rstd_c * (dt(1) if weight is None else weight)
        shift = fma(-scale, mean_c, np.broadcast_to(np.zeros(c, dt) if bias is None else bias, scale.shape))
        compiled = native.group_norm()
        if compiled is not None:
            return compiled["affine"](x.reshape(n * c, image), scale, shift).reshape(x.shape), mean, rstd
        y = fma(np.broadcast_to(scale[:, :, None], x.shape), x, np.broadcast_to(shift[:, :, None], x.shape))
    return np.asarray(y, dt), mean, rstd


def group_norm_backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight, groups: int,
                        need_x: bool, need_weight: bool, need_bias: bool):
    """(dx, dweight, dbias) of group_norm over C-contiguous (N, C, HxW) arrays, as
    GroupNormBackwardKernelImplInternal: ds = sum(dy * x) and db = sum(dy) per (n, c) over HxW
    (vec::map2_reduce_all / reduce_all: the partial last vector's multiply-add fused for float64, not for
    float32), then per (n, group) ds' = sum(ds * weight) and db' = sum(db * weight) over the group's channels
    (whole vectors of lanes, fused, their lanes accumulated from 0, then the rest one at a time, fused),
    c2 = fma(db', mean, -ds') * rstd^3 * s and c3 = fma(-(db' * rstd), s, -c2 * mean) with s = 1 / (D * HxW),
    dx = fma(c1, dy, c2 * x) + c3 with c1 = rstd * weight; dweight = sum over n of fma(-db, mean, ds) * rstd
    (fused into the running sum) and dbias = sum over n of db, each from 0 in n's order.  Which steps are fused:
    measured against torch 2.13 (0 differing elements over 36 configurations, float32 and float64).  Compiled
    in native_math.c (GROUP_NORM: the affine step, the per-plane sums, dx) when built."""
    dt = x.dtype.type
    n, c, image = x.shape
    d = c // groups
    lanes = 8 if x.dtype == np.float32 else 4
    dy2, x2 = dy.reshape(n * c, image), x.reshape(n * c, image)
    dx = dweight = dbias = None
    with np.errstate(all="ignore"):
        compiled = native.group_norm()
        if compiled is not None:
            ds, db = compiled["sums"](dy2, x2, dt is np.float64)
        else:
            ds = _reduce_all(lambda s, e: dy2[:, s:e] * x2[:, s:e], image, lanes,
                             None if dt is np.float32 else lambda acc, s: fma(dy2[:, s:], x2[:, s:], acc))
            db = _reduce_all(lambda s, e: dy2[:, s:e], image, lanes)
        ds, db = ds.reshape(n, groups, d), db.reshape(n, groups, d)
        if need_x:
            gamma = np.ones((groups, d), dt) if weight is None else weight.reshape(groups, d)
            full = d - d % lanes
            ds_val = np.zeros((n, groups), dt)
            db_val = np.zeros((n, groups), dt)
            if full:
                ds_acc = np.zeros((n, groups, lanes), dt)
                db_acc = np.zeros((n, groups, lanes), dt)
                for j in range(0, full, lanes):
                    g = np.broadcast_to(gamma[:, j:j + lanes], ds_acc.shape)
                    ds_acc = fma(ds[:, :, j:j + lanes], g, ds_acc)
                    db_acc = fma(db[:, :, j:j + lanes], g, db_acc)
                ds_val, db_val = _lanes_sum(ds_acc), _lanes_sum(db_acc)
            for j in range(full, d):
                g = np.broadcast_to(gamma[:, j], ds_val.shape)
                ds_val = fma(ds[:, :, j], g, ds_val)
                db_val = fma(db[:, :, j], g, db_val)
            m, r = mean.reshape(n, groups), rstd.reshape(n, groups)
            s = dt(1) / dt(d * image)
            c2 = fma(db_val, m, -ds_val) * r * r * r * s
            c3 = fma(-(db_val * r), np.broadcast_to(s, m.shape), -c2 * m)
            c1 = (r[:, :, None] * gamma).reshape(n, c, 1)
            c2c = np.repeat(c2, d, axis=1)[:, :, None]
            c3c = np.repeat(c3, d, axis=1)[:, :, None]
            if compiled is not None:
                dx = compiled["dx"](dy2, x2, c1, c2c, c3c).reshape(x.shape)
            else:
                dx = np.asarray(fma(np.broadcast_to(c1, x.shape), dy, c2c * x) + c3c, dt)
        dweight, dbias = _group_norm_parameter_grads(ds, db, mean, rstd, need_weight, need_bias)
    return dx, dweight, dbias


def _group_norm_parameter_grads(ds, db, mean, rstd, need_weight: bool, need_bias: bool):
    """GammaBackward and BetaBackward from the per-(n, c) sums ds, db (arrays (N, G, D)): dweight = sum over n of
    fma(-db, mean, ds) * rstd fused into the running sum, dbias = sum over n of db, each from 0 in n's order."""
    dt = ds.dtype.type
    n, groups, d = ds.shape
    dweight = dbias = None
    if need_weight:
        mean3, rstd3 = mean.reshape(n, groups, 1), rstd.reshape(n, groups, 1)
        acc = np.zeros((groups, d), dt)
        for i in range(n):
            acc = fma(fma(-db[i], mean3[i], ds[i]), np.broadcast_to(rstd3[i], acc.shape), acc)
        dweight = np.asarray(acc, dt).reshape(groups * d)
    if need_bias:
        acc = np.zeros(groups * d, dt)
        for i in range(n):
            acc = acc + db[i].reshape(groups * d)
        dbias = acc
    return dweight, dbias


# -- group_norm on channels-last inputs (GroupNormKernelImplChannelsLastInternal and its backward) ------------------

FORWARD_PLANE_THRESHOLD = 1024  # feature_map_threshold: below, one task per (n, group); from it, per (n, pixel)
BACKWARD_PLANE_THRESHOLD = 2048


def is_channels_last(shape, strides) -> bool:
    """c10's is_channels_last_strides_2d / _3d (strides in elements) for a 4-D / 5-D tensor: what
    suggest_memory_format calls ChannelsLast (ChannelsLast3d); every other layout is Contiguous."""
    if len(shape) not in (4, 5) or strides[1] == 0:
        return False
    order = (1, 3, 2, 0) if len(shape) == 4 else (1, 4, 3, 2, 0)
    smallest = 0
    for dim in order:
        if shape[dim] == 0 or strides[dim] < smallest:
            return False
        if dim == 0 and smallest == strides[1]:
            return False
        smallest = strides[dim] * (shape[dim] if shape[dim] > 1 else 1)
    return True


def _running_sum(values: np.ndarray) -> np.ndarray:
    """Adds along the last axis one after another from 0 (numpy's add.accumulate is that loop)."""
    return np.cumsum(values, axis=-1, dtype=values.dtype)[..., -1]


def _thread_ranges(total: int, threads: int):
    """at::parallel_for(0, total, 1)'s split: min(threads, total) tasks of ceil(total / tasks) items."""
    tasks = max(1, min(threads, total))
    chunk = -(-total // tasks)
    return [(t * chunk, min(total, (t + 1) * chunk)) for t in range(tasks) if t * chunk < total]


def _segments(rows_per_sample: int, samples: int, threads: int):
    """(thread, sample, first row, end row) of each run of rows one thread adds into one sample's buffer."""
    out = []
    for tid, (begin, end) in enumerate(_thread_ranges(rows_per_sample * samples, threads)):
        row = begin
        while row < end:
            sample = row // rows_per_sample
            stop = min(end, (sample + 1) * rows_per_sample)
            out.append((tid, sample, row, stop))
            row = stop
    return out


def _thread_buffers(rows: np.ndarray, samples: int, threads: int, step):
    """Each thread's per-sample buffer (threads, samples, C), from 0, with step(buffer, row) over its rows in
    order: the steps of every run at once, one row position at a time."""
    dt = rows.dtype.type
    buffers = np.zeros((threads, samples, rows.shape[1]), dt)
    runs = _segments(rows.shape[0] // samples, samples, threads)
    longest = max(stop - start for _, _, start, stop in runs)
    tids = np.array([r[0] for r in runs])
    owners = np.array([r[1] for r in runs])
    starts = np.array([r[2] for r in runs])
    lengths = np.array([r[3] - r[2] for r in runs])
    for j in range(longest):
        live = lengths > j
        t, o = tids[live], owners[live]
        buffers[t, o] = step(buffers[t, o], rows[starts[live] + j])
    return buffers


def group_norm_forward_channels_last(x: np.ndarray, weight, bias, groups: int, eps: float, threads: int):
    """(y, mean, rstd) of group_norm over a channels-last input given as its memory, a C-contiguous (N, HxW, C)
    array; y in the same memory order.  Below FORWARD_PLANE_THRESHOLD pixels, ColumnwiseMoments per (n, group):
    one vector of lanes over the group's channels adds x and x * x (unfused) pixel by pixel (the partial vector
    zero-padded), its lanes folded; from it, each thread's rows of pixels add x and fma(x, x) into its buffer
    per sample, the buffers then added channel by channel, thread by thread.  Then var = fma(sum2, 1 / (D * HxW),
    -mean * mean) (at least 0), rstd = 1 / sqrt(var + eps) in double, and y = fma(x, scale, shift) with
    scale = rstd * weight, shift = fma(-scale, mean, bias) (a bias without a weight: -scale * mean rounded, then
    + bias).  Which steps are fused: measured against torch 2.13 (0 differing elements, 1 to 3 threads)."""
    dt = x.dtype.type
    n, image, c = x.shape
    d = c // groups
    lanes = 8 if x.dtype == np.float32 else 4
    s = dt(1) / dt(d * image)
    with np.errstate(all="ignore"):
        if image < FORWARD_PLANE_THRESHOLD:
            vectors = -(-d // lanes)
            padded = np.zeros((n, image, groups, vectors * lanes), dt)
            padded[..., :d] = x.reshape(n, image, groups, d)
            # each lane's sequence: pixel by pixel, vector by vector
            lanes_last = padded.reshape(n, image, groups, vectors, lanes).transpose(0, 2, 4, 1, 3).reshape(
                n, groups, lanes, image * vectors)
            total = _fold(_running_sum(lanes_last))
            squares = _fold(_running_sum(lanes_last * lanes_last))
        else:
            rows = x.reshape(n * image, c)
            buffers = [_thread_buffers(rows, n, threads, lambda acc, row: row + acc),
                       _thread_buffers(rows, n, threads, lambda acc, row: fma(row, row, acc))]
            sums = [_running_sum(b.reshape(threads, n, groups, d).transpose(1, 2, 3, 0).reshape(n, groups, -1))
                    for b in buffers]
            total, squares = sums
        mean = total * s
        var = np.maximum(fma(squares, np.broadcast_to(s, squares.shape), -mean * mean), dt(0))
        rstd = (1.0 / np.sqrt(var.astype(np.float64) + eps)).astype(dt)
        gamma = np.ones((groups, d), dt) if weight is None else weight.reshape(groups, d)
        beta = np.zeros((groups, d), dt) if bias is None else bias.reshape(groups, d)
        scale = rstd[..., None] * gamma
        if weight is None and bias is not None:  # measured: torch's build rounds the product first here
            shift = -scale * mean[..., None] + beta
        else:
            shift = fma(-scale, np.broadcast_to(mean[..., None], scale.shape), np.broadcast_to(beta, scale.shape))
        grouped = x.reshape(n, image, groups, d)
        y = fma(grouped, np.broadcast_to(scale[:, None], grouped.shape), np.broadcast_to(shift[:, None], grouped.shape))
    return np.asarray(y, dt).reshape(x.shape), mean.reshape(-1), rstd.reshape(-1)


def group_norm_backward_channels_last(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, weight,
                                      groups: int, threads: int, need_x: bool, need_weight: bool, need_bias: bool):
    """(dx, dweight, dbias) of group_norm on a channels-last input, dy and x given as their memory (C-contiguous
    (N, HxW, C)); dx in the same order.  Below BACKWARD_PLANE_THRESHOLD pixels, per (n, group) and vector of
    channels: ds and db summed pixel by pixel (x * dy unfused), ds' and db' += the folded lanes of ds * weight
    and db * weight; from it, each thread's rows into per-sample buffers (fma(x, dy, buffer), dy + buffer), then
    per channel, thread by thread, ds' += buffer * weight (unfused) and ds += buffer.  Then c2 = fma(db', mean,
    -ds') * rstd^3 * s, c3 = fma(-c2, mean, -(db' * rstd * s)), dx = fma(c2, x, c1 * dy) + c3 with c1 = rstd *
    weight, and dweight, dbias as the contiguous kernel.  Measured against torch 2.13 (0 differing elements, 1 to 3
    threads)."""
    dt = x.dtype.type
    n, image, c = x.shape
    d = c // groups
    lanes = 8 if x.dtype == np.float32 else 4
    gamma = np.ones((groups, d), dt) if weight is None else weight.reshape(groups, d)
    with np.errstate(all="ignore"):
        if image < BACKWARD_PLANE_THRESHOLD:
            per_pixel = np.moveaxis(x.reshape(n, image, groups, d), 1, -1)  # (n, groups, d, image)
            grads = np.moveaxis(dy.reshape(n, image, groups, d), 1, -1)
            ds = _running_sum(per_pixel * grads)
            db = _running_sum(np.ascontiguousarray(grads))
            vectors = -(-d // lanes)
            padded = np.zeros((2, n, groups, vectors * lanes), dt)
            padded[0, ..., :d] = ds * gamma
            padded[1, ..., :d] = db * gamma
            folded = _fold(padded.reshape(2, n, groups, vectors, lanes))  # (2, n, groups, vectors)
            ds_gamma, db_gamma = _running_sum(folded[0]), _running_sum(folded[1])
        else:
            rows, grad_rows = x.reshape(n * image, c), dy.reshape(n * image, c)
            pairs = np.stack([rows, grad_rows], axis=1)  # each step sees its row of x and of dy
            both = _thread_buffers(pairs.reshape(n * image, 2 * c), n, threads, lambda acc, row: np.concatenate(
                [fma(row[:, :c], row[:, c:], acc[:, :c]), row[:, c:] + acc[:, c:]], axis=1))
            buffers = both.reshape(threads, n, 2, groups, d).transpose(2, 1, 3, 4, 0)  # (2, n, groups, d, threads)
            ds, db = _running_sum(buffers[0]), _running_sum(buffers[1])
            weighted = buffers * gamma[None, None, :, :, None]
            ds_gamma = _running_sum(weighted[0].reshape(n, groups, -1))
            db_gamma = _running_sum(weighted[1].reshape(n, groups, -1))
        dx = None
        if need_x:
            m, r = mean.reshape(n, groups), rstd.reshape(n, groups)
            s = dt(1) / dt(d * image)
            c2 = fma(db_gamma, m, -ds_gamma) * r * r * r * s
            c3 = fma(-c2, m, -(db_gamma * r * s))
            grouped, grads = x.reshape(n, image, groups, d), dy.reshape(n, image, groups, d)
            c1 = np.broadcast_to((r[..., None] * gamma)[:, None], grouped.shape)
            c2b = np.broadcast_to(c2[:, None, :, None], grouped.shape)
            dx = np.asarray(fma(c2b, grouped, c1 * grads) + c3[:, None, :, None], dt).reshape(x.shape)
        dweight, dbias = _group_norm_parameter_grads(ds, db, mean, rstd, need_weight, need_bias)
    return dx, dweight, dbias
