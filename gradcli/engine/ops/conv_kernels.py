"""The numpy kernels of conv3d and the transposed convolutions: windows taken one kernel offset at a time.

A convolution's windows are never gathered all at once (conv3d's documentation example would need 12 billion
elements): the kernel's offsets are taken a few at a time, as many as fit PIECE_ELEMENTS gathered elements, for a
block of images, and each piece is one BLAS product (numpy's matmul) with the matching columns of the weight.
When a whole image's windows fit, that is the classic im2col + gemm of torch's slow_conv3d / slow_conv_transpose;
when they do not, memory stays at the output plus one piece.  Three kernels serve a convolution and its
transpose, forward and backward (and their `gemm_` forms, torch's own kernels' order, below):

- `correlate`: out[n, g, b, s] = sum over a, k of w[g, b, a, k] * full[n, g, a, s * stride + k * dilation]
  (conv's forward; the transposed convolution's input gradient);
- `scatter`: the adjoint of correlate in `full`: full[n, g, a, s * stride + k * dilation] += w[g, b, a, k] *
  src[n, g, b, s] (conv's input gradient; the transposed convolution's forward, torch's col2im);
- `gemm_weight_grad`: the adjoint of correlate in `w`: sum over n, s of src[n, g, b, s] * full[n, g, a, s * stride
  + k * dilation], one gemm per image as torch's own kernels (and for oneDNN's path too: its order is not known).

Arrays carry the groups as their own dim: full (n, g, a, F...), src / out (n, g, b, S...), w (g, b, a, K...).
The sums run in BLAS's order within a piece and piece after piece across offsets, not in oneDNN's (torch's
float32 CPU path) nor MKL's: the last bits of a long sum may differ from torch's (docs/deviations.md).
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np

from gradcli.engine.kernels import blas

# the most elements one piece of gathered windows holds (16 MB in float32)
PIECE_ELEMENTS = 1 << 22


def _window(full, offset, outs, stride, dilation):
    """The strided view of `full`'s last dims that kernel position `offset` reads for every output position."""
    return full[(Ellipsis,) + tuple(slice(k * d, k * d + (o - 1) * s + 1, s)
                                    for k, o, s, d in zip(offset, outs, stride, dilation))]


def _pieces(n, a, size, offsets):
    """(images, offsets) blocks: as many offsets as fit PIECE_ELEMENTS for one image (at least one), and as many
    images as fit when every offset does."""
    per_offset = max(1, a * size)
    m = max(1, min(len(offsets), PIECE_ELEMENTS // per_offset))
    nb = max(1, min(n, PIECE_ELEMENTS // (per_offset * m))) if m == len(offsets) else 1
    return [(slice(i, min(i + nb, n)), offsets[j:j + m]) for i in range(0, n, nb)
            for j in range(0, len(offsets), m)]


def _columns(full, images, chunk, outs, stride, dilation):
    """The windows of `chunk`'s offsets for `images`: (nb, g, a * len(chunk), S), offsets inner to channels (the
    weight's own layout, a before k)."""
    block = full[images]
    nb, g, a = block.shape[:3]
    cols = np.empty((nb, g, a, len(chunk)) + tuple(outs), dtype=full.dtype)
    for j, offset in enumerate(chunk):
        cols[:, :, :, j] = _window(block, offset, outs, stride, dilation)
    return cols.reshape(nb, g, a * len(chunk), -1)


def _weight_columns(w, chunk):
    """w (g, b, a, K...) at `chunk`'s offsets: (g, b, a * len(chunk)), matching `_columns`."""
    g, b, a = w.shape[:3]
    flat = w.reshape(g, b, a, -1)
    kernel = w.shape[3:]
    index = [int(np.ravel_multi_index(offset, kernel)) for offset in chunk]
    if len(index) == flat.shape[3]:
        return flat.reshape(g, b, -1)
    return flat[..., index].reshape(g, b, -1)


def _row_pieces(n, per_row, rows):
    """(images, rows of the first output dim) blocks whose windows, every kernel offset at once, hold at most
    PIECE_ELEMENTS (at least one row); None when a single row's windows exceed it."""
    if per_row > PIECE_ELEMENTS:
        return None
    per_image = per_row * rows
    if per_image <= PIECE_ELEMENTS:
        nb = max(1, PIECE_ELEMENTS // max(1, per_image))
        return [(slice(i, min(i + nb, n)), slice(0, rows)) for i in range(0, n, nb)]
    step = PIECE_ELEMENTS // per_row
    return [(slice(i, i + 1), slice(r, min(r + step, rows))) for i in range(n) for r in range(0, rows, step)]


def correlate(full, w, outs, stride, dilation, channels_inner=False):
    """(n, g, b, *outs): the windows of `full` (n, g, a, F...) contracted with w (g, b, a, K...).

    Every kernel offset is taken in one product when a row of output positions' windows fit PIECE_ELEMENTS
    (pieces of images or rows then), so each output element is one BLAS dot product over (channels, offsets), or
    with `channels_inner` over (offsets, channels): oneDNN's order for float32 convolutions with up to 16 input
    channels a group (one multiply-add chain over kernel positions, the channels innermost)."""
    n, g = full.shape[:2]
    b, a = w.shape[1:3]
    kernel = w.shape[3:]
    size = math.prod(outs)
    dtype = np.result_type(full, w)
    offsets = list(product(*map(range, kernel)))
    rows = _row_pieces(n, a * len(offsets) * math.prod(outs[1:]), outs[0])
    if rows is not None:
        out = np.empty((n, g, b) + tuple(outs), dtype=dtype)
        flat_w = (np.moveaxis(w.reshape(g, b, a, -1), 2, 3) if channels_inner else w).reshape(g, b, -1)
        for images, span in rows:
            part_outs = (span.stop - span.start,) + tuple(outs[1:])
            block = full[images]
            shift = tuple(slice(span.start * stride[0], None) if i == 3 else slice(None) for i in range(block.ndim))
            block = block[shift]
            nb = block.shape[0]
            # columns (g, K, images, positions): one product per group for the whole block (numpy's stacked
            # matmul would call BLAS once per image, at 3x the cost for the documented layers)
            layout = (len(offsets), a) if channels_inner else (a, len(offsets))
            cols = np.empty((g,) + layout + (nb,) + part_outs, dtype=full.dtype)
            for j, offset in enumerate(offsets):
                view = np.moveaxis(_window(block, offset, part_outs, stride, dilation), 0, 2)  # g, a, nb, S...
                if channels_inner:
                    cols[:, j] = view
                else:
                    cols[:, :, j] = view
            part = np.matmul(flat_w, cols.reshape(g, a * len(offsets), -1))  # g, b, nb * S
            out[images, :, :, span] = np.moveaxis(part.reshape((g, b, nb) + part_outs), 2, 0)
        return out
    out = np.empty((n, g, b, size), dtype=dtype)
    started = set()
    for images, chunk in _pieces(n, a, size, offsets):
        cols = _columns(full, images, chunk, outs, stride, dilation)
        part = np.matmul(_weight_columns(w, chunk), cols)
        if images.start in started:
            out[images] += part
        else:
            out[images] = part
            started.add(images.start)
    return out.reshape((n, g, b) + tuple(outs))


def scatter(src, w, full_shape, stride, dilation):
    """(n, g, a, F...) zeros plus every window's share: src (n, g, b, S...) spread by w (g, b, a, K...)."""
    n, g, b = src.shape[:3]
    a = w.shape[2]
    outs = src.shape[3:]
    kernel = w.shape[3:]
    size = math.prod(outs)
    full = np.zeros((n, g, a) + tuple(full_shape), dtype=np.result_type(src, w))
    flat = src.reshape(n, g, b, size)
    offsets = list(product(*map(range, kernel)))
    for images, chunk in _pieces(n, a, size, offsets):
        wt = _weight_columns(w, chunk).swapaxes(-1, -2)  # (g, a * m, b)
        cols = np.matmul(wt, flat[images]).reshape((-1, g, a, len(chunk)) + tuple(outs))
        target = full[images]  # a view
        for j, offset in enumerate(chunk):
            _window(target, offset, outs, stride, dilation)[...] += cols[:, :, :, j]
    return full


def _stuffed_range(k, d, s, p, size, out):
    """For one dim of a transposed convolution and kernel position k: the input positions [lo, hi) that land on
    the cropped output, and the output position of the first (each next one `s` further)."""
    lo = max(0, -((k * d - p) // s))  # ceil((p - k d) / s)
    hi = min(size, (out - 1 + p - k * d) // s + 1)
    return lo, hi, k * d - p + s * lo


def transpose_by_last_offset(x, w, outs, stride, padding, dilation):
    """The transposed convolution as oneDNN computes it in float32 (torch's mkldnn path): for each position of the
    kernel's last dim, one product over (the other kernel positions, then the input channels) for each output
    element, a single multiply-add chain in that order; those partial sums added in ascending order.  x (n, g, b,
    S...), w (g, b, a, K...) -> (n, g, a, *outs), the padding already cut.  The gathered (zero-stuffed) inputs are
    taken a block of images, or of rows of the first output dim, at a time (PIECE_ELEMENTS): each output element's
    chain stays whole."""
    n, g, b = x.shape[:3]
    a = w.shape[2]
    kernel = w.shape[3:]
    inner = list(product(*map(range, kernel[:-1])))
    out = np.empty((n, g, a) + tuple(outs), dtype=np.result_type(x, w))
    per_row = len(inner) * b * math.prod(outs[1:])
    pieces = _row_pieces(n, per_row, outs[0]) or [(slice(i, i + 1), slice(r, r + 1)) for i in range(n)
                                                  for r in range(outs[0])]
    weights = [w[..., k_last].reshape(g, b, a, len(inner)).transpose(0, 2, 3, 1).reshape(g, a, -1)
               for k_last in range(kernel[-1])]
    for images, rows in pieces:
        block = x[images]
        part_outs = (rows.stop - rows.start,) + tuple(outs[1:])
        # the block's rows as an output of their own: its padding shifted by the first row
        part_padding = (padding[0] + rows.start,) + tuple(padding[1:])
        nb = block.shape[0]
        moved = np.moveaxis(block, 0, 2)  # g, b, nb, S...: the columns' layout (one product per group)
        total = None
        for k_last in range(kernel[-1]):
            cols = np.zeros((g, len(inner), b, nb) + part_outs, dtype=x.dtype)
            for j, offset in enumerate(inner):
                src, dst = [slice(None)] * 3, [slice(None), j, slice(None), slice(None)]
                for k, d, s, p, extent, o in zip(offset + (k_last,), dilation, stride, part_padding, x.shape[3:],
                                                  part_outs):
                    lo, hi, first = _stuffed_range(k, d, s, p, extent, o)
                    if hi <= lo:
                        break
                    src.append(slice(lo, hi))
                    dst.append(slice(first, first + s * (hi - lo - 1) + 1, s))
                else:
                    cols[tuple(dst)] = moved[tuple(src)]
            part = np.matmul(weights[k_last], cols.reshape(g, len(inner) * b, -1))  # g, a, nb * S
            if total is None:
                total = part
            else:
                total += part
        out[images, :, :, rows] = np.moveaxis(total.reshape((g, a, nb) + part_outs), 2, 0)
    return out


# -- torch's own kernels (slow_conv3d, slow_conv_transpose2d/3d): im2col / col2im and one gemm per image and group --

def _product(a, b, acc=None):
    """acc + a @ b (acc None: a @ b) as ATen's addmm calls MKL's gemm (the same bits as torch's slow convolutions,
    bias or running sum in C, beta = 1); numpy's product where MKL is not installed."""
    done = blas.addmm(acc, a, b, beta=1 if acc is not None else 0)
    if done is not None:
        return done
    return a @ b if acc is None else acc + a @ b


def _image_columns(images, kernel, outs, stride, dilation):
    """vol2col / im2col of a block of images' group (nb, a, F...): (nb, a * prod(kernel), S), offsets inner."""
    nb, a = images.shape[:2]
    offsets = list(product(*map(range, kernel)))
    cols = np.empty((nb, a, len(offsets)) + tuple(outs), dtype=images.dtype)
    for j, offset in enumerate(offsets):
        cols[:, :, j] = _window(images, offset, outs, stride, dilation)
    return cols.reshape(nb, a * len(offsets), -1)


def _col2im(cols, target, kernel, outs, stride, dilation):
    """col2vol: target (nb, a, F...) += each kernel offset's columns at the positions it reaches, offsets in order
    (each image's own sums: the images are independent)."""
    nb, a = target.shape[:2]
    offsets = list(product(*map(range, kernel)))
    cols = cols.reshape((nb, a, len(offsets)) + tuple(outs))
    for j, offset in enumerate(offsets):
        _window(target, offset, outs, stride, dilation)[...] += cols[:, :, j]


def _blocks(n, a, kernel, outs):
    """(images, rows of the first output dim) blocks whose columns (a K per position) hold at most 4
    PIECE_ELEMENTS: all images and rows at once for small convolutions, one gemm per image within a block (torch's
    whole-image gemm, its bits) unless an image's windows are larger than that."""
    per_row = a * math.prod(kernel) * math.prod(outs[1:])
    step = max(1, 4 * PIECE_ELEMENTS // max(1, per_row))
    if step >= outs[0]:
        nb = max(1, 4 * PIECE_ELEMENTS // max(1, per_row * outs[0]))
        return [(slice(i, min(i + nb, n)), slice(0, outs[0])) for i in range(0, n, nb)]
    return [(slice(i, i + 1), slice(r, min(r + step, outs[0]))) for i in range(n) for r in range(0, outs[0], step)]


def _row_block(images, rows, stride):
    """Images (nb, a, F...) from the first input row that output rows `rows` read."""
    return images[:, :, rows.start * stride[0]:]


def gemm_correlate(full, w, outs, stride, dilation, bias=None):
    """slow_conv3d's forward: per image and group, bias (b, S) plus w (b, a K) @ columns (a K, S)."""
    n, g = full.shape[:2]
    b, a = w.shape[1:3]
    kernel = w.shape[3:]
    out = np.empty((n, g, b) + tuple(outs), dtype=np.result_type(full, w))
    for gi in range(g):
        w2 = w[gi].reshape(b, -1)
        for images, rows in _blocks(n, a, kernel, outs):
            part_outs = (rows.stop - rows.start,) + tuple(outs[1:])
            size = math.prod(part_outs)
            init = None if bias is None else np.broadcast_to(bias[gi][:, None], (b, size))
            cols = _image_columns(_row_block(full[images, gi], rows, stride), kernel, part_outs, stride, dilation)
            for i, image in enumerate(range(n)[images]):
                out[image, gi, :, rows] = _product(w2, cols[i], init).reshape((b,) + part_outs)
    return out


def gemm_scatter(src, w, full_shape, stride, dilation):
    """The adjoint of gemm_correlate in `full` (slow_conv3d's input gradient; slow_conv_transpose's forward): per
    image and group, columns = w^T (a K, b) @ src (b, S), then col2im into zeros (n, g, a, F...)."""
    n, g, b = src.shape[:3]
    a = w.shape[2]
    outs = src.shape[3:]
    kernel = w.shape[3:]
    full = np.zeros((n, g, a) + tuple(full_shape), dtype=np.result_type(src, w))
    for gi in range(g):
        wt = w[gi].reshape(b, -1).T
        for images, rows in _blocks(n, a, kernel, outs):
            part_outs = (rows.stop - rows.start,) + tuple(outs[1:])
            block = range(n)[images]
            cols = np.empty((len(block), a * math.prod(kernel), math.prod(part_outs)), dtype=full.dtype)
            for i, image in enumerate(block):
                cols[i] = _product(wt, np.ascontiguousarray(src[image, gi, :, rows]).reshape(b, -1))
            _col2im(cols, _row_block(full[images, gi], rows, stride), kernel, part_outs, stride, dilation)
    return full


def gemm_weight_grad(full, src, kernel, stride, dilation):
    """The adjoint of gemm_correlate in `w`: per group, the sum over images (one gemm each, beta = 1, as torch
    accumulates) of src (b, S) @ columns^T (S, a K)."""
    n, g, b = src.shape[:3]
    a = full.shape[2]
    outs = src.shape[3:]
    gw = np.empty((g, b, a * math.prod(kernel)), dtype=np.result_type(full, src))
    for gi in range(g):
        acc = np.zeros((b, a * math.prod(kernel)), dtype=gw.dtype)
        for images, rows in _blocks(n, a, kernel, outs):
            part_outs = (rows.stop - rows.start,) + tuple(outs[1:])
            cols = _image_columns(_row_block(full[images, gi], rows, stride), kernel, part_outs, stride, dilation)
            for i, image in enumerate(range(n)[images]):
                acc = _product(np.ascontiguousarray(src[image, gi, :, rows]).reshape(b, -1), cols[i].T, acc)
        gw[gi] = acc
    return gw.reshape((g, b, a) + tuple(kernel))
