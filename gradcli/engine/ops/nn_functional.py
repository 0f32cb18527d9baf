"""torch.nn.functional beyond activations and the classic losses: one_hot, embedding, layer_norm, batch_norm,
group_norm, pad, prelu, pairwise_distance, max/avg pooling, conv1d/conv2d, and the margin and likelihood losses.

Normalisations are single nodes (Native*NormBackward0) whose rules are written in `dual` operations, so they
differentiate again; pooling's rules scatter the gradient with a differentiable index-put.  Convolutions
are differentiated once (their rule runs on numpy; a second derivative is refused, not guessed).  Losses
that torch writes in Python as compositions are the same compositions here, so their graphs match.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dual, kernels, state, sum_order
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchIndexError, TorchNotImplementedError, TorchRuntimeError, TorchValueError
from gradcli.engine.kernels import moments
from gradcli.engine.ops import arith, conv_kernels, sizes
from gradcli.engine.ops.activations import logsigmoid
from gradcli.engine.ops.aggregates import VectorNorm, ord_value
from gradcli.engine.ops.common import as_float, dtype_title, val
from gradcli.engine.ops.elementwise import where
from gradcli.engine.ops.elementwise_math import minimum
from gradcli.engine.ops.join_split import SplitPiece
from gradcli.engine.ops.losses import check_no_requires_grad, check_reduction
from gradcli.engine.ops.nn_linear import clamp_min
from gradcli.engine.ops.reduction import mean
from gradcli.engine.ops.reduction import sum as sum_op
from gradcli.engine.ops.registry import REGISTRY, register
from gradcli.engine.ops.shape import index_put_zeros
from gradcli.engine.tensor import Tensor


def _functional(name, sig, doc="", category="nn", torch=False, **kw):
    return register(name, sig=sig, doc=doc, category=category, torch=torch, method=False, functional=True, **kw)


# -- one_hot, embedding ---------------------------------------------------------------------------------------

def _one_hot_shape(tensor, num_classes=-1):
    n = int(num_classes) if int(num_classes) >= 0 else int(tensor.array.max()) + 1 if tensor.array.size else 0
    return tuple(tensor.shape) + (n,)


@_functional("one_hot", "one_hot(tensor, num_classes=-1)", "int64 one-hot rows of class indices",
             category="no-gradient", result_shape=_one_hot_shape)
def one_hot(tensor, num_classes=-1):
    x = tensor.array
    if x.dtype.kind not in "iu":
        raise TorchRuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if x.size and x.min() < 0:
        raise TorchRuntimeError("Class values must be non-negative.")
    n = int(num_classes)
    if n < 0:
        n = int(x.max()) + 1 if x.size else 0
        if not x.size:
            raise TorchRuntimeError("Can not infer total number of classes from empty tensor.")
    elif x.size and x.max() >= n:
        raise TorchRuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make((x[..., None] == np.arange(n)).astype(np.int64), None)


class Embedding(Function):
    """weight[input]; the rows' gradients add up where an index repeats (none for padding_idx)."""

    __slots__ = ()
    name = "EmbeddingBackward0"
    torch_edges = (0,)  # the weight; the indices are not differentiable
    saves_aux = True  # torch's node saves the indices

    @staticmethod
    def forward(ctx, weight, indices, padding_idx):
        if weight.ndim != 2:
            raise TorchRuntimeError("'weight' must be 2-D")
        n = weight.shape[0]
        if indices.size and (indices.max() >= n or indices.min() < -n):
            raise TorchIndexError("index out of range in self")
        ctx.aux = (indices, padding_idx, weight.shape)
        return weight[indices]

    @staticmethod
    def backward(ctx, g):
        indices, padding_idx, shape = ctx.aux
        if padding_idx is not None:
            g = dual.where((indices == padding_idx)[..., None], 0.0, g)
        return (index_put_zeros(g, (indices,), shape),)


@_functional("embedding", "embedding(input, weight, padding_idx=None)", "rows of weight at the indices in input",
             result_shape=lambda input, weight, *a, **k: tuple(input.shape) + tuple(weight.shape[1:]))
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise TorchRuntimeError("gradcli: embedding's max_norm, scale_grad_by_freq and sparse are not supported")
    indices = np.asarray(val(input))
    if indices.dtype.kind not in "iu":
        raise TorchRuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar "
                                f"types: Long, Int; but got torch.{dtype_title(indices.dtype)}Tensor instead "
                                "(while checking arguments for embedding)")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return Embedding.apply(weight, indices.astype(np.int64), padding_idx)


# -- normalisations -------------------------------------------------------------------------------------------

def _normalised(x, axes, eps):
    """(x - mean) / sqrt(var + eps) over `axes` (biased variance), in dual operations."""
    n = math.prod(np.shape(val(x))[a] for a in axes)
    mu = dual.sum(x, axis=axes, keepdims=True) / n
    centred = x - mu
    var = dual.sum(centred * centred, axis=axes, keepdims=True) / n
    return centred * dual.rsqrt(var + eps)


def _np_normalised(x, axes, eps):
    n = math.prod(x.shape[a] for a in axes)
    mu = np.sum(x, axis=axes, keepdims=True) / n
    centred = x - mu
    var = np.sum(centred * centred, axis=axes, keepdims=True) / n
    return centred / np.sqrt(var + eps)


class _Norm(Function):
    """A normalisation over `axes` then weight * xhat + bias (weight, bias broadcast by `affine_shape`).
    The rule differentiates the same formula in dual operations (so it differentiates again)."""

    __slots__ = ()
    saves = (0, 1)

    @staticmethod
    def forward(ctx, x, weight, bias, axes, affine_shape, eps):
        x = as_float(x)
        ctx.aux = (axes, affine_shape, eps)
        with np.errstate(all="ignore"):
            out = _np_normalised(x, axes, eps)
            if weight is not None:
                out = out * weight.reshape(affine_shape)
            if bias is not None:
                out = out + bias.reshape(affine_shape)
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, x, weight):
        axes, affine_shape, eps = ctx.aux[:3]  # (a subclass's exact forward saves its statistics after these)
        return _norm_grads(g, x, weight, axes, affine_shape, eps, ctx.needs_input_grad[:3], ctx.in_shapes[1],
                           ctx.in_shapes[2])

    @staticmethod
    def takes_the_formula(ctx, g, x) -> bool:
        """Whether the backward differentiates the formula: a forward on the general path (no statistics saved)
        or a differentiable backward (create_graph), where torch's kernel does not apply."""
        return len(ctx.aux) == 3 or type(g) is not np.ndarray or type(x) is not np.ndarray or g.dtype != x.dtype


def _norm_grads(g, x, weight, axes, affine_shape, eps, needs, weight_shape, bias_shape):
    """Gradients of weight * normalised(x) + bias for x, weight and bias (those in `needs`), in dual operations."""
    need_x, need_w, need_b = needs
    outer = tuple(i for i, s in enumerate(affine_shape) if s == 1)  # the dims weight and bias broadcast over
    n = math.prod(np.shape(val(x))[a] for a in axes)
    gx = gw = gb = None
    with np.errstate(all="ignore"):
        xhat = _normalised(x, axes, eps)
        if need_w:
            gw = dual.reshape(dual.sum(g * xhat, axis=outer, keepdims=True), weight_shape)
        if need_b:
            gb = dual.reshape(dual.sum(g, axis=outer, keepdims=True), bias_shape)
        if need_x:
            gy = g * dual.reshape(weight, affine_shape) if weight is not None else g
            centred = x - dual.sum(x, axis=axes, keepdims=True) / n
            rstd = dual.rsqrt(dual.sum(centred * centred, axis=axes, keepdims=True) / n + eps)
            mean_gy = dual.sum(gy, axis=axes, keepdims=True) / n
            mean_gy_xhat = dual.sum(gy * xhat, axis=axes, keepdims=True) / n
            gx = rstd * (gy - mean_gy - xhat * mean_gy_xhat)
    return gx, gw, gb


class LayerNorm(_Norm):
    __slots__ = ()
    name = "NativeLayerNormBackward0"
    torch_edges = (0, 1, 2)  # input, weight, bias

    @staticmethod
    def forward(ctx, x, weight, bias, axes, affine_shape, eps):
        n = math.prod(x.shape[a] for a in axes)
        if x.dtype.char not in "fd" or not x.size or moments.too_long_for_numpy(n) or any(
                p is not None and p.dtype != x.dtype for p in (weight, bias)):
            return _Norm.forward(ctx, x, weight, bias, axes, affine_shape, eps)
        # torch's CPU kernel (layer_norm_kernel.cpp): RowwiseMoments in x's dtype, rstd = 1 / sqrt(var + eps),
        # then (x - mean) * rstd * weight + bias in its order (kernels/moments.py)
        rows = np.ascontiguousarray(x).reshape(-1, n)
        dt = x.dtype.type
        with np.errstate(all="ignore"):
            mean, var = moments.rowwise_moments(rows)
            rstd = dt(1) / np.sqrt(var + dt(eps))
            out = moments.layer_norm_output(rows, mean, rstd, None if weight is None else weight.reshape(n),
                                            None if bias is None else bias.reshape(n))
        ctx.aux = (axes, affine_shape, eps, mean, rstd)  # the saved mean and rstd: the exact backward's
        return out.reshape(x.shape)

    @staticmethod
    def backward(ctx, g, x, weight):
        if _Norm.takes_the_formula(ctx, g, x):
            return _Norm.backward(ctx, g, x, weight)
        # torch's backward kernel, from the forward's mean and rstd
        axes, affine_shape, eps, mean, rstd = ctx.aux
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        n = x.size // mean.size
        with np.errstate(all="ignore"):
            gx, gw, gb = moments.layer_norm_backward(
                np.ascontiguousarray(g).reshape(-1, n), np.ascontiguousarray(x).reshape(-1, n), mean, rstd,
                None if weight is None else np.asarray(weight).reshape(n), kernels.THREADS, need_w, need_b)
        return (gx.reshape(x.shape) if need_x else None,
                None if gw is None else gw.reshape(ctx.in_shapes[1]),
                None if gb is None else gb.reshape(ctx.in_shapes[2]))


def _channels_last_memory(a: np.ndarray) -> np.ndarray:
    """A (N, C, *spatial) array's elements in channels-last order, as a C-contiguous (N, prod(spatial), C) array
    (no copy when it is channels-last already)."""
    return np.ascontiguousarray(np.moveaxis(a, 1, -1)).reshape(a.shape[0], -1, a.shape[1])


def _from_channels_last_memory(memory: np.ndarray, shape) -> np.ndarray:
    """The (N, C, *spatial) view, with channels-last strides, of a (N, prod(spatial), C) array."""
    return np.moveaxis(memory.reshape((shape[0],) + tuple(shape[2:]) + (shape[1],)), -1, 1)


class GroupNormNode(Function):
    """group_norm on the input's own shape: the channels viewed in groups, each group normalised, then the
    per-channel affine (one node, as torch's native_group_norm).  float32/float64 inputs take torch's CPU kernels
    (kernels/moments.py: group_norm_forward, group_norm_backward); a differentiable backward (create_graph) the
    formula in dual operations."""

    __slots__ = ()
    name = "NativeGroupNormBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, x, weight, bias, groups, eps):
        n, c = x.shape[0], x.shape[1]
        grouped = (n, groups, c // groups) + x.shape[2:]
        axes = tuple(range(2, len(grouped)))
        affine = (1, groups, c // groups) + (1,) * (x.ndim - 2)
        image = x.size // max(n * c, 1)
        if x.dtype.char in "fd" and x.size and not moments.too_long_for_numpy(image * (c // groups)) and all(
                p is None or p.dtype == x.dtype for p in (weight, bias)):
            # torch's CPU kernels (group_norm_kernel.cpp): contiguous, RowwiseMoments per (n, group), rstd in
            # double, the fused affine step; channels-last (as suggest_memory_format says), its own kernels, the
            # result channels-last too
            channels_last = moments.is_channels_last(x.shape, [st // x.itemsize for st in x.strides])
            with np.errstate(all="ignore"):
                if channels_last:
                    out, mean, rstd = moments.group_norm_forward_channels_last(
                        _channels_last_memory(x), weight, bias, groups, eps, kernels.THREADS)
                    out = _from_channels_last_memory(out, x.shape)
                else:
                    out, mean, rstd = moments.group_norm_forward(np.ascontiguousarray(x).reshape(n, c, image),
                                                                 weight, bias, groups, eps)
                    out = out.reshape(x.shape)
            ctx.aux = (grouped, axes, affine, eps, mean, rstd, channels_last)
            return out
        w = None if weight is None else weight.reshape(groups, c // groups)
        b = None if bias is None else bias.reshape(groups, c // groups)
        out = _Norm.forward(ctx, x.reshape(grouped), w, b, axes, affine, eps).reshape(x.shape)
        ctx.aux = (grouped, axes, affine, eps)
        return out

    @staticmethod
    def backward(ctx, g, x, weight):
        grouped, axes, affine, eps = ctx.aux[:4]
        if weight is None and ctx.needs_input_grad[2]:
            # torch's native_group_norm_backward makes dbeta like the undefined gamma
            raise TorchRuntimeError("tensor does not have a device")
        shape = np.shape(val(x))
        if len(ctx.aux) > 4 and type(g) is np.ndarray and type(x) is np.ndarray and g.dtype == x.dtype:
            mean, rstd, channels_last = ctx.aux[4:]
            n, c = shape[0], shape[1]
            need_x, need_w, need_b = ctx.needs_input_grad[:3]
            w = None if weight is None else np.asarray(weight).reshape(c)
            with np.errstate(all="ignore"):
                if channels_last:  # dY read in X's memory format, dX made in it
                    gx, gw, gb = moments.group_norm_backward_channels_last(
                        _channels_last_memory(g), _channels_last_memory(x), mean, rstd, w, grouped[1], kernels.THREADS,
                        need_x, need_w, need_b)
                    return (None if gx is None else _from_channels_last_memory(gx, shape), gw, gb)
                gx, gw, gb = moments.group_norm_backward(
                    np.ascontiguousarray(g).reshape(n, c, -1), np.ascontiguousarray(x).reshape(n, c, -1), mean, rstd,
                    w, grouped[1], need_x, need_w, need_b)
            return (None if gx is None else gx.reshape(shape), gw, gb)
        w = None if weight is None else dual.reshape(weight, grouped[1:3])
        gx, gw, gb = _norm_grads(dual.reshape(g, grouped), dual.reshape(x, grouped), w, axes, affine, eps,
                                 ctx.needs_input_grad[:3], grouped[1:3], grouped[1:3])
        channels = (grouped[1] * grouped[2],)
        return (None if gx is None else dual.reshape(gx, shape), None if gw is None else dual.reshape(gw, channels),
                None if gb is None else dual.reshape(gb, channels))


@_functional("layer_norm", "layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)",
             "normalise over the last dims (mean 0, variance 1), then weight * x + bias")
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    shape = (int(normalized_shape),) if isinstance(normalized_shape, int) else tuple(int(s) for s in normalized_shape)
    k = len(shape)
    if tuple(input.shape[input.ndim - k:]) != shape or k == 0:
        raise TorchRuntimeError(
            f"Given normalized_shape=[{', '.join(map(str, shape))}], expected input with shape [*, "
            f"{', '.join(map(str, shape))}], but got input of size[{', '.join(map(str, input.shape))}]")
    axes = tuple(range(input.ndim - k, input.ndim))
    affine = (1,) * (input.ndim - k) + shape
    return LayerNorm.apply(input, weight, bias, axes, affine, float(eps))


@_functional("group_norm", "group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)",
             "normalise each group of channels, then weight * x + bias per channel")
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    c = input.shape[1]
    if c % int(num_groups):
        raise TorchRuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input "
                                f"of shape [{', '.join(map(str, input.shape))}] and num_groups={num_groups}")
    return GroupNormNode.apply(input, weight, bias, int(num_groups), float(eps))


class BatchNormEval(Function):
    """batch_norm with running statistics: (x - mean) / sqrt(var + eps) * weight + bias, per channel."""

    __slots__ = ()
    name = "NativeBatchNormBackward0"
    torch_edges = (0, 3, 4)  # input, weight, bias (the running statistics are arrays)
    saves = (3,)

    @staticmethod
    def forward(ctx, x, mean_, var_, weight, bias, eps):
        shape = (1, -1) + (1,) * (x.ndim - 2)
        if _exact_batch_norm(x, mean_, var_, weight, bias):
            # torch: 1 / sqrt(running_var + eps) in x's dtype, then batch_norm_cpu_contiguous_impl's fused steps;
            # its backward takes 1 / sqrt in double
            dt = x.dtype.type
            with np.errstate(all="ignore"):
                scale = dt(1) / np.sqrt(var_ + dt(eps))
                backward_scale = (1.0 / np.sqrt(var_.astype(np.float64) + eps)).astype(dt)
                ctx.aux = (shape, backward_scale, None, x, mean_.copy())
                return moments.batch_norm_output(x, mean_, scale, weight, bias)
        scale = 1 / np.sqrt(var_ + eps)
        ctx.aux = (shape, scale, (x - mean_.reshape(shape)) * scale.reshape(shape))
        out = (x - mean_.reshape(shape)) * scale.reshape(shape)
        if weight is not None:
            out = out * weight.reshape(shape)
        if bias is not None:
            out = out + bias.reshape(shape)
        return out.astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g, weight):
        need_x, _, _, need_w, need_b = ctx.needs_input_grad[:5]
        if len(ctx.aux) == 5 and type(g) is np.ndarray and g.dtype == ctx.aux[3].dtype and (
                weight is None or type(weight) is np.ndarray):
            _, invstd, _, x, mean = ctx.aux
            with np.errstate(all="ignore"):
                dx, dw, db = moments.batch_norm_backward(x, np.ascontiguousarray(g), weight, mean, invstd, False,
                                                         kernels.THREADS)
            return dx if need_x else None, None, None, dw if need_w else None, db if need_b else None
        if len(ctx.aux) == 5:  # a differentiable backward (create_graph) after the exact forward: the formula
            shape, scale, _, x, mean = ctx.aux
            xhat = (x - mean.reshape(shape)) * scale.reshape(shape)
        else:
            shape, scale, xhat = ctx.aux
        axes = tuple(i for i in range(np.ndim(val(g))) if i != 1)
        factor = scale.reshape(shape) if weight is None else dual.reshape(weight, shape) * scale.reshape(shape)
        return ((g * factor if need_x else None), None, None,
                (dual.sum(g * xhat, axis=axes) if need_w else None),
                (dual.sum(g, axis=axes) if need_b else None))


class BatchNormTrain(_Norm):
    __slots__ = ()
    name = "NativeBatchNormBackward0"
    torch_edges = (0, 1, 2)  # input, weight, bias

    @staticmethod
    def forward(ctx, x, weight, bias, axes, affine_shape, eps, statistics=None):
        if statistics is None:
            return _Norm.forward(ctx, x, weight, bias, axes, affine_shape, eps)
        mean, invstd = statistics
        ctx.aux = (axes, affine_shape, eps, mean, invstd)  # the saved statistics: the exact backward's
        with np.errstate(all="ignore"):
            return moments.batch_norm_output(x, mean, invstd, weight, bias)

    @staticmethod
    def backward(ctx, g, x, weight):
        if _Norm.takes_the_formula(ctx, g, x):
            return _Norm.backward(ctx, g, x, weight)
        mean, invstd = ctx.aux[3:]
        with np.errstate(all="ignore"):
            dx, dw, db = moments.batch_norm_backward(x, np.ascontiguousarray(g), None if weight is None else
                                                     np.asarray(weight), mean, invstd, True, kernels.THREADS)
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        return dx if need_x else None, dw if need_w else None, db if need_b else None


def _exact_batch_norm(x: np.ndarray, *params) -> bool:
    """Whether torch's contiguous CPU kernel applies and gradcli reproduces it: a C-contiguous float32/float64
    input, the parameters (where given) of its dtype."""
    return x.dtype.char in "fd" and x.flags.c_contiguous and x.size > 0 and all(
        p is None or p.dtype == x.dtype for p in params)


@_functional("batch_norm", "batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, "
             "momentum=0.1, eps=1e-05)", "normalise each channel by the batch's (or the running) mean and variance")
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    if input.ndim < 2:
        raise TorchRuntimeError(f"batch_norm: expected 2D or higher input (got {input.ndim}D input)")
    c = input.shape[1]
    for name, value in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                        ("bias", bias)):
        if value is not None and value.numel() != c:
            raise TorchRuntimeError(f"{name} should contain {c} elements not {value.numel()}")
    if training:
        axes = tuple(i for i in range(input.ndim) if i != 1)
        count = math.prod(input.shape[i] for i in axes)
        if count <= 1:
            raise TorchValueError(f"Expected more than 1 value per channel when training, got input size "
                                  f"torch.Size([{', '.join(map(str, input.shape))}])")
        affine = (1, c) + (1,) * (input.ndim - 2)
        x = input.array
        params = [None if p is None else p.array for p in (weight, bias, running_mean, running_var)]
        if _exact_batch_norm(x, *params):
            # torch's batch_norm_cpu_update_stats_template: the statistics, the saved 1 / std in double
            # (var = var_sum / n in x's dtype), the running mean and the unbiased running variance
            dt = x.dtype.type
            mean, squares, n = moments.batch_norm_statistics(x, kernels.THREADS)
            with np.errstate(all="ignore"):
                invstd = (1.0 / np.sqrt((squares / dt(n)).astype(np.float64) + float(eps))).astype(dt)
                out = BatchNormTrain.apply(input, weight, bias, axes, affine, float(eps), (mean, invstd))
                if running_mean is not None:
                    running_mean.array[...] = dt(momentum) * mean + dt(1 - momentum) * running_mean.array
                    running_mean._version[0] += 1
                if running_var is not None:
                    unbiased = squares / dt(n - 1)
                    if dt is np.float32:  # torch's float build fuses this multiply-add, its double build not
                        updated = kernels.fused.fma(dt(momentum), unbiased, dt(1 - momentum) * running_var.array)
                    else:
                        updated = dt(momentum) * unbiased + dt(1 - momentum) * running_var.array
                    running_var.array[...] = updated
                    running_var._version[0] += 1
            return out
        out = BatchNormTrain.apply(input, weight, bias, axes, affine, float(eps))
        if running_mean is not None:
            batch_mean = x.mean(axis=axes)
            running_mean.array[...] = (1 - momentum) * running_mean.array + momentum * batch_mean
            running_mean._version[0] += 1
        if running_var is not None:
            batch_var = x.var(axis=axes, ddof=1)  # the running variance is unbiased, as torch's
            running_var.array[...] = (1 - momentum) * running_var.array + momentum * batch_var
            running_var._version[0] += 1
        return out
    if running_mean is None or running_var is None:
        raise TorchRuntimeError("running_mean and running_var must be defined in evaluation mode")
    return BatchNormEval.apply(input, running_mean.array, running_var.array, weight, bias, float(eps))


@_functional("instance_norm", "instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, "
             "use_input_stats=True, momentum=0.1, eps=1e-05)",
             "normalise each channel of each sample over its spatial dims, then weight * x + bias")
def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    """ATen's instance_norm (aten/src/ATen/native/Normalization.cpp): the input viewed as one sample of b * c
    channels, batch_norm on it with weight, bias and running statistics repeated b times, the running statistics
    updated with the mean over the b copies, the result viewed back."""
    if use_input_stats:
        spatial = math.prod(input.shape[2:])
        if spatial == 1:
            raise TorchValueError(f"Expected more than 1 spatial element when training, got input size "
                                  f"torch.Size([{', '.join(map(str, input.shape))}])")
    repeat, view = REGISTRY["repeat"].fn, REGISTRY["view"].fn
    b, c = input.shape[0], input.shape[1]

    def repeated(t):
        return None if t is None else repeat(t, b)

    mean_, var_ = repeated(running_mean), repeated(running_var)
    out = batch_norm(view(REGISTRY["contiguous"].fn(input), (1, b * c) + tuple(input.shape[2:])), mean_, var_,
                     repeated(weight), repeated(bias), use_input_stats, momentum, eps)
    for stat, copy in ((running_mean, mean_), (running_var, var_)):
        if stat is not None:
            stat.array[...] = mean(view(copy, (b, c)), 0).array
            stat._version[0] += 1
    return view(out, tuple(input.shape))


def _adaptive_bounds(out_size: int, in_size: int) -> list:
    """ATen's start_index / end_index: floor(o * in / out) and ceil((o + 1) * in / out), in float as ATen."""
    return [(int(math.floor(np.float32(o * in_size) / np.float32(out_size))),
             int(math.ceil(np.float32((o + 1) * in_size) / np.float32(out_size)))) for o in range(out_size)]


def _adaptive_args(input, output_size, name):
    if input.ndim not in (3, 4) or any(s == 0 for s in input.shape[-2:]):
        raise TorchRuntimeError(f"{name}(): Expected 3D or 4D tensor, but got {list(input.shape)}")
    sizes = (output_size, output_size) if isinstance(output_size, int) or output_size is None else \
        tuple(output_size)
    return tuple(input.shape[-2 + i] if v is None else int(v) for i, v in enumerate(sizes))


def _adaptive_shape(input, output_size, *args, **kwargs):
    """What adaptive pooling allocates: its output (output_size can be far larger than the input)."""
    try:
        return tuple(input.shape[:-2]) + _adaptive_args(input, output_size, "adaptive_pool2d")
    except (TorchRuntimeError, TypeError, ValueError):
        return tuple(input.shape)  # bad arguments: the op itself reports them


class AdaptiveAvgPool2d(Function):
    """ATen's CPU adaptive average pooling: each window's elements summed row by row in the input's dtype, then
    divided by its height and then its width; the gradient adds grad / kh / kw to each element of each window."""

    __slots__ = ()
    name = "AdaptiveAvgPool2DBackward0"
    saves = ()

    @staticmethod
    def forward(ctx, x, out_hw):
        rows, cols = _adaptive_bounds(out_hw[0], x.shape[-2]), _adaptive_bounds(out_hw[1], x.shape[-1])
        ctx.aux = (rows, cols, x.shape)
        out = np.empty(x.shape[:-2] + tuple(out_hw), dtype=x.dtype)
        for oh, (h0, h1) in enumerate(rows):
            for ow, (w0, w1) in enumerate(cols):
                acc = np.zeros(x.shape[:-2], dtype=x.dtype)
                for ih in range(h0, h1):
                    for iw in range(w0, w1):
                        acc = acc + x[..., ih, iw]
                out[..., oh, ow] = acc / x.dtype.type(h1 - h0) / x.dtype.type(w1 - w0)
        return out

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate adaptive_avg_pool2d twice")
        rows, cols, shape = ctx.aux
        grad = np.zeros(shape, dtype=g.dtype)
        for oh, (h0, h1) in enumerate(rows):
            for ow, (w0, w1) in enumerate(cols):
                delta = g[..., oh, ow] / g.dtype.type(h1 - h0) / g.dtype.type(w1 - w0)
                for ih in range(h0, h1):
                    for iw in range(w0, w1):
                        grad[..., ih, iw] += delta
        return grad,


@_functional("adaptive_avg_pool2d", "adaptive_avg_pool2d(input, output_size)",
             "average over windows that split the last two dims into output_size parts", result_shape=_adaptive_shape)
def adaptive_avg_pool2d(input, output_size):
    out_hw = _adaptive_args(input, output_size, "adaptive_avg_pool2d")
    if out_hw == (1, 1):  # ATen computes a 1x1 output as input.mean({-1, -2}, keepdim=True) (MeanBackward1)
        return mean(input, dim=(-1, -2), keepdim=True)
    return AdaptiveAvgPool2d.apply(input, out_hw)


def _adaptive_max(x, out_hw):
    """(maxima, flat indices into the last two dims) of ATen's adaptive max pooling."""
    rows, cols = _adaptive_bounds(out_hw[0], x.shape[-2]), _adaptive_bounds(out_hw[1], x.shape[-1])
    out = np.empty(x.shape[:-2] + tuple(out_hw), dtype=x.dtype)
    index = np.empty(out.shape, dtype=np.int64)
    for oh, (h0, h1) in enumerate(rows):
        for ow, (w0, w1) in enumerate(cols):
            best = np.full(x.shape[:-2], -np.inf, dtype=x.dtype)
            where_ = np.full(x.shape[:-2], h0 * x.shape[-1] + w0, dtype=np.int64)
            for ih in range(h0, h1):
                for iw in range(w0, w1):
                    v = x[..., ih, iw]
                    take = (v > best) | np.isnan(v)
                    best = np.where(take, v, best)
                    where_ = np.where(take, ih * x.shape[-1] + iw, where_)
            out[..., oh, ow] = best
            index[..., oh, ow] = where_
    return out, index


class AdaptiveMaxPool2d(Function):
    """ATen's CPU adaptive max pooling: each window's first maximum in row-major order (NaN wins); the gradient goes
    to that element."""

    __slots__ = ()
    name = "AdaptiveMaxPool2DBackward0"
    saves = ()

    @staticmethod
    def forward(ctx, x, out_hw):
        out, index = _adaptive_max(x, out_hw)
        ctx.aux = (index, x.shape)
        return out

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate adaptive_max_pool2d twice")
        index, shape = ctx.aux
        lead = int(np.prod(shape[:-2]))
        grad = np.zeros((lead, shape[-2] * shape[-1]), dtype=g.dtype)
        flat_idx, flat_g = index.reshape(lead, -1), g.reshape(lead, -1)
        for k in range(flat_idx.shape[1]):
            np.add.at(grad, (np.arange(lead), flat_idx[:, k]), flat_g[:, k])
        return grad.reshape(shape),


@_functional("adaptive_max_pool2d", "adaptive_max_pool2d(input, output_size, return_indices=False)",
             "maximum over windows that split the last two dims into output_size parts", result_shape=_adaptive_shape)
def adaptive_max_pool2d(input, output_size, return_indices=False):
    out_hw = _adaptive_args(input, output_size, "adaptive_max_pool2d")
    out = AdaptiveMaxPool2d.apply(input, out_hw)
    if return_indices:
        return out, Tensor._make(_adaptive_max(np.asarray(val(input)), out_hw)[1], None)
    return out


# -- pad ------------------------------------------------------------------------------------------------------

def _pad_indices(n, before, after, mode):
    """Source index along one dim for each output position (reflect, replicate, circular)."""
    positions = np.arange(-before, n + after)
    if mode == "replicate":
        return np.clip(positions, 0, n - 1)
    if mode == "circular":
        return positions % n
    period = 2 * (n - 1)  # reflect: mirror without repeating the edge
    folded = np.abs(positions) % period if period else np.zeros_like(positions)
    return np.where(folded >= n, period - folded, folded)


class ConstantPad(Function):
    __slots__ = ()
    name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, x, widths, value):
        keep = tuple(slice(max(-lo, 0), x.shape[i] - max(-hi, 0)) for i, (lo, hi) in enumerate(widths))
        cropped = x[keep]
        grown = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
        out = np.pad(cropped, grown, constant_values=value)
        ctx.aux = (tuple(slice(lo, lo + s) for (lo, _), s in zip(grown, cropped.shape)), keep, x.shape)
        return out

    @staticmethod
    def backward(ctx, g):
        inner, keep, shape = ctx.aux
        part = g[inner]
        return (index_put_zeros(part, keep, shape) if any(k != slice(0, n) for k, n in zip(keep, shape)) else part,)


class IndexedPad(SplitPiece):
    """reflect / replicate / circular padding: out = x at mapped indices; gradients add up at the sources."""

    __slots__ = ()
    name = "ReflectionPad1DBackward0"


_PAD_NAMES = {"reflect": "ReflectionPad{}DBackward0", "replicate": "ReplicationPad{}DBackward0",
              "circular": "CopySlices"}
_PAD_CLASSES = {}


def _pad_class(mode, k):
    name = _PAD_NAMES[mode].format(k)
    if name not in _PAD_CLASSES:
        _PAD_CLASSES[name] = type(name.replace("Backward0", ""), (IndexedPad,), {"__slots__": (), "name": name})
    return _PAD_CLASSES[name]


def _pad_shape(input, pad, mode="constant", value=None):
    shape = list(input.shape)
    for i in range(len(pad) // 2):
        d = input.ndim - 1 - i
        shape[d] += int(pad[2 * i]) + int(pad[2 * i + 1])
    return tuple(shape)


@_functional("pad", "pad(input, pad, mode='constant', value=None)",
             "pad the last dims: (left, right, top, bottom, ...); mode constant, reflect, replicate or circular",
             result_shape=_pad_shape)
def pad(input, pad, mode="constant", value=None):
    pad = [int(p) for p in pad]
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise TorchRuntimeError("Padding length must be divisible by 2" if len(pad) % 2 else
                                "Padding length should be less than or equal to two times the input dimension but "
                                f"got padding length {len(pad)} and input of dimension {input.ndim}")
    k = len(pad) // 2
    widths = [(0, 0)] * input.ndim
    for i in range(k):
        widths[input.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    if mode == "constant":
        return ConstantPad.apply(input, tuple(widths), 0.0 if value is None else float(value))
    if mode not in _PAD_NAMES:
        raise TorchRuntimeError(f"Unrecognised padding mode {mode}")
    if value:
        raise TorchRuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    grids = []
    for d in range(input.ndim):
        lo, hi = widths[d]
        n = input.shape[d]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise TorchRuntimeError(f"Argument #4: Padding size should be less than the corresponding input "
                                    f"dimension, but got: padding ({lo}, {hi}) at dimension {d} of input "
                                    f"{list(input.shape)}")
        grids.append(_pad_indices(n, lo, hi, mode) if (lo or hi) else np.arange(n))
    key = np.ix_(*grids)
    return _pad_class(mode, k).apply(input, key)


# -- prelu, pairwise_distance ----------------------------------------------------------------------------------

class Prelu(Function):
    __slots__ = ()
    name = "PreluKernelBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, x, w):
        shape = (1, -1) + (1,) * (x.ndim - 2) if x.ndim >= 2 and w.size > 1 else (-1,) if w.size > 1 else ()
        ctx.aux = shape
        weight = w.reshape(shape) if shape else w.reshape(())
        return np.where(x > 0, x, weight * x)

    @staticmethod
    def backward(ctx, g, x, w):
        shape = ctx.aux
        xv = val(x)
        weight = dual.reshape(w, shape) if shape else dual.reshape(w, ())
        need_x, need_w = ctx.needs_input_grad
        gx = dual.where(xv > 0, g, g * weight) if need_x else None
        gw = None
        if need_w:
            contribution = dual.where(xv > 0, 0.0, g * x)
            if np.size(val(w)) > 1:
                axes = tuple(i for i in range(xv.ndim) if i != (1 if xv.ndim >= 2 else 0))
                gw = dual.reshape(dual.sum(contribution, axis=axes), np.shape(val(w)))
            else:
                gw = dual.reshape(dual.sum(contribution), np.shape(val(w)))
        return gx, gw


@_functional("prelu", "prelu(input, weight)", "x if x > 0 else weight * x (weight per channel, learned)",
             category="nn")  # not elementwise: the weight follows dim 1
def prelu(input, weight):
    channels = input.shape[1] if input.ndim >= 2 else 1  # torch: a 1-D input has one channel
    if weight.ndim > 1 or weight.array.size not in (1, channels):
        raise TorchRuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                                f"{weight.array.size} and channel size = {channels}.")
    return Prelu.apply(input, weight)


class PairwiseNorm(VectorNorm):
    __slots__ = ()
    name = "NormBackward1"


@_functional("pairwise_distance", "pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False)",
             "p-norm of x1 - x2 + eps along the last dim", result_shape=sizes.broadcast)
def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    diff = arith.add(arith.sub(x1, x2), eps)
    return PairwiseNorm.apply(diff, ord_value(p), -1 if diff.ndim else None, keepdim)


# -- pooling ----------------------------------------------------------------------------------------------------

def _pair(v, k):
    return tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),) * k


def _windows(x, kernel, stride, padding, dilation, pad_value, ceil_mode=False):
    """Index arrays of every pooling window over the last len(kernel) dims: (out..., k...) per dim."""
    spatial = x.shape[-len(kernel):]
    outs, grids = [], []
    for n, k, s, p, d in zip(spatial, kernel, stride, padding, dilation):
        span = d * (k - 1) + 1
        count = (n + 2 * p - span) / s + 1
        out = int(math.ceil(count)) if ceil_mode else int(math.floor(count))
        if ceil_mode and (out - 1) * s >= n + p:
            out -= 1
        outs.append(out)
        grids.append(np.arange(out)[:, None] * s - p + np.arange(k)[None, :] * d)  # (out, k)
    if min(outs) <= 0:
        channels = x.shape[-len(kernel) - 1]
        raise TorchRuntimeError(f"Given input size: ({'x'.join(map(str, x.shape[-len(kernel) - 1:]))}). "
                                f"Calculated output size: ({'x'.join(map(str, (channels, *outs)))}). "
                                "Output size is too small")
    return outs, grids


class MaxPool(Function):
    __slots__ = ()
    name = "MaxPool2DWithIndicesBackward0"
    torch_edges = (0,)

    @staticmethod
    def forward(ctx, x, kernel, stride, padding, dilation, ceil_mode):
        nd = len(kernel)
        outs, grids = _windows(x, kernel, stride, padding, dilation, -np.inf, ceil_mode)
        lead = x.shape[:-nd]
        padded_shape = x.shape[-nd:]
        valid = [((g >= 0) & (g < n)) for g, n in zip(grids, padded_shape)]
        clipped = [np.clip(g, 0, n - 1) for g, n in zip(grids, padded_shape)]
        if nd == 1:
            window = x[..., clipped[0]]  # lead, out, k
            mask = valid[0]
        else:
            window = x[..., clipped[0][:, None, :, None], clipped[1][None, :, None, :]]  # lead, o0, o1, k0, k1
            mask = valid[0][:, None, :, None] & valid[1][None, :, None, :]
        window = np.where(mask, window, -np.inf)
        flat = window.reshape(lead + tuple(outs) + (-1,))
        nan = np.isnan(flat)
        # the first maximum; a nan wins, the last nan of the window (ATen: `val > max || isnan(val)`)
        arg = np.where(nan.any(-1), nan.shape[-1] - 1 - np.argmax(nan[..., ::-1], -1), np.argmax(flat, -1))
        values = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
        # the source position of each maximum, per spatial dim
        if nd == 1:
            src = (np.take_along_axis(np.broadcast_to(clipped[0], lead + (outs[0], kernel[0])), arg[..., None], -1)[
                ..., 0],)
        else:
            k0, k1 = np.divmod(arg, kernel[1])
            o0 = np.arange(outs[0])[:, None]
            o1 = np.arange(outs[1])[None, :]
            src = (clipped[0][o0, k0], clipped[1][o1, k1])
        lead_grid = np.indices(lead + tuple(outs), sparse=True)[:len(lead)]
        ctx.aux = (tuple(lead_grid) + src, x.shape)
        return values

    @staticmethod
    def backward(ctx, g):
        key, shape = ctx.aux
        return (index_put_zeros(g, key, shape),)


class AvgPool(Function):
    __slots__ = ()
    name = "AvgPool2DBackward0"
    torch_edges = (0,)

    @staticmethod
    def forward(ctx, x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
        nd = len(kernel)
        outs, grids = _windows(x, kernel, stride, padding, (1,) * nd, 0.0, ceil_mode)
        spatial = x.shape[-nd:]
        valid = [((g >= 0) & (g < n)) for g, n in zip(grids, spatial)]
        clipped = [np.clip(g, 0, n - 1) for g, n in zip(grids, spatial)]
        # divisor: the window inside input + padding (count_include_pad) or inside the input only
        inside_pad = [((g >= -p) & (g < n + p)) for g, n, p in zip(grids, spatial, padding)]
        if nd == 1:
            window = np.where(valid[0], x[..., clipped[0]], 0.0)
            mask, padmask = valid[0], inside_pad[0]
        else:
            window = x[..., clipped[0][:, None, :, None], clipped[1][None, :, None, :]]
            mask = valid[0][:, None, :, None] & valid[1][None, :, None, :]
            padmask = inside_pad[0][:, None, :, None] & inside_pad[1][None, :, None, :]
            window = np.where(mask, window, 0.0)
        lead = x.shape[:-nd]
        flat = window.reshape(lead + tuple(outs) + (-1,))
        if divisor_override:
            divisor = np.full(tuple(outs), float(divisor_override))
        else:
            counts = (padmask if count_include_pad else mask).reshape(tuple(outs) + (-1,)).sum(-1)
            divisor = counts.astype(x.dtype)
        ctx.aux = (clipped, mask, divisor, x.shape, outs)
        return (flat.sum(-1) / divisor).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        clipped, mask, divisor, shape, outs = ctx.aux
        nd = len(clipped)
        lead = shape[:-nd]
        share = g / divisor
        if nd == 1:
            k = clipped[0].shape[1]
            expanded = dual.reshape(share, np.shape(val(share)) + (1,)) * mask.astype(np.asarray(val(share)).dtype)
            lead_grid = np.indices(lead + (outs[0], k), sparse=True)[:len(lead)]
            key = tuple(lead_grid) + (np.broadcast_to(clipped[0], (outs[0], k)),)
        else:
            k0, k1 = clipped[0].shape[1], clipped[1].shape[1]
            expanded = dual.reshape(share, np.shape(val(share)) + (1, 1)) * mask.astype(np.asarray(val(share)).dtype)
            lead_grid = np.indices(lead + (outs[0], outs[1], k0, k1), sparse=True)[:len(lead)]
            key = tuple(lead_grid) + (clipped[0][:, None, :, None], clipped[1][None, :, None, :])
        return (index_put_zeros(expanded, key, shape),)


def _pool_shape(nd):
    """What pooling allocates: every window's elements (lead dims, output positions, kernel elements)."""
    def rule(input, kernel_size, stride=None, padding=0, *args, **kwargs):
        try:
            kernel, stride, padding = _pool_args(kernel_size, stride, padding, nd)
        except TorchRuntimeError:
            return tuple(input.shape)  # bad arguments: the op itself reports them
        spatial = input.shape[-nd:]
        outs = [(n + 2 * p - k) // max(s, 1) + 2 for n, k, s, p in zip(spatial, kernel, stride, padding)]
        return tuple(input.shape[:-nd]) + (math.prod(outs), math.prod(kernel))
    return rule


def _pool_args(kernel_size, stride, padding, nd):
    kernel = _pair(kernel_size, nd)
    stride = _pair(stride, nd) if stride not in (None, [], ()) else kernel
    padding = _pair(padding, nd)
    if 0 in stride:
        raise TorchRuntimeError("stride should not be zero")
    if min(stride) < 0:
        h, w = ((1,) + stride)[-2:]
        raise TorchRuntimeError(f"stride should be greater than zero, but got dH: {h} dW: {w}")
    if min(padding) < 0:
        raise TorchRuntimeError(f"pad must be non-negative, but got pad: {min(padding)}")
    for p, k in zip(padding, kernel):
        if p > k // 2:
            raise TorchRuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                                    f"kernel_size={k} and dilation=1")
    return kernel, stride, padding


def _check_pool_input(input, nd, name):
    if input.ndim not in (nd + 1, nd + 2):
        raise TorchRuntimeError(f"{name}: Expected {nd + 1}D or {nd + 2}D input, but got {input.ndim}D")


@_functional("max_pool2d", "max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)",
             "the largest value in each window of the last two dims",
             result_shape=_pool_shape(2))
def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    _check_pool_input(input, 2, "max_pool2d")
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 2)
    if min(_pair(dilation, 2)) <= 0:
        h, w = _pair(dilation, 2)
        raise TorchRuntimeError(f"dilation should be greater than zero, but got dilationH: {h} dilationW: {w}")
    args = (kernel, stride, padding, _pair(dilation, 2), bool(ceil_mode))
    out = MaxPool.apply(input, *args)
    return (out, _max_pool_indices(input, args)) if return_indices else out


def _max_pool_indices(input, args):
    """The int64 indices torch's max_pool*_with_indices returns: each maximum's flat position in the input's
    last two dims (the first maximum of its window in row-major order, as ATen's kernel keeps it)."""
    ctx = object.__new__(MaxPool)
    MaxPool.forward(ctx, np.asarray(val(input)), *args)
    key, shape = ctx.aux
    rows, cols = key[-2], key[-1]
    return Tensor._make(np.ascontiguousarray(rows * shape[-1] + cols).astype(np.int64), None)


@_functional("max_pool1d", "max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)",
             "the largest value in each window of the last dim",
             result_shape=_pool_shape(1))
def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    _check_pool_input(input, 1, "max_pool1d")
    for name, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding), ("dilation", dilation)):
        if isinstance(v, (tuple, list)) and len(v) != 1 and not (name == "stride" and not v):
            if return_indices:
                raise TorchRuntimeError(f"max_pool1d() argument '{name}' should contain one int (got {len(v)})")
            kinds = "None, an int, list of ints, or" if name == "stride" else \
                "an int, list of ints, or" if name == "padding" else "an int, list of ints or"
            raise TorchRuntimeError(f"max_pool1d() {name} must be {kinds} tuple of ints of size 1 but got size "
                                    f"{len(v)}")
    (k,), (p,), (d,) = _pair(kernel_size, 1), _pair(padding, 1), _pair(dilation, 1)
    (s,) = _pair(stride, 1) if stride not in (None, [], ()) else (k,)
    if k <= 0:  # torch's own max_pool1d checks, in its order, before the 2-D pool it runs
        raise TorchRuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise TorchRuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise TorchRuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if d <= 0:
        raise TorchRuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    if p > k // 2:
        raise TorchRuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} "
                                f"and kernel_size={k}")
    size = (input.shape[-1] + 2 * p - d * (k - 1) - 1 + ((s - 1) if ceil_mode else 0)) // s + 1
    if size <= 0:
        raise TorchRuntimeError(f"max_pool1d() Invalid computed output size: {size}")
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 1)
    # torch: a 2-D pool over an inserted dim, then squeezed
    args = ((1,) + kernel, (1,) + stride, (0,) + padding, (1,) + _pair(dilation, 1), bool(ceil_mode))
    out = MaxPool.apply(input.unsqueeze(-2), *args).squeeze(-2)
    return (out, _max_pool_indices(input.unsqueeze(-2), args).squeeze(-2)) if return_indices else out


@_functional("avg_pool2d", "avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
             "count_include_pad=True, divisor_override=None)", "the mean of each window of the last two dims",
             result_shape=_pool_shape(2))
def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    _check_pool_input(input, 2, "avg_pool2d")
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 2)
    return AvgPool.apply(input, kernel, stride, padding, bool(ceil_mode), bool(count_include_pad), divisor_override)


@_functional("avg_pool1d", "avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
             "count_include_pad=True)", "the mean of each window of the last dim",
             result_shape=_pool_shape(1))
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    _check_pool_input(input, 1, "avg_pool1d")
    kernel, stride, padding = _pool_args(kernel_size, stride, padding, 1)
    out = AvgPool.apply(input.unsqueeze(-2), (1,) + kernel, (1,) + stride, (0,) + padding, bool(ceil_mode),
                        bool(count_include_pad), None)
    return out.squeeze(-2)


# -- convolution ------------------------------------------------------------------------------------------------

# The gathered windows of a convolution larger than the size limit (which it would exceed) are gathered at most
# this many elements at a time: a few images, or output rows of one image
CONV_CHUNK_ELEMENTS = 1 << 22


def gather_at_once(elements: int) -> bool:
    """Whether a convolution gathers all its windows at once: when they fit the size limit (the same bits as
    always); otherwise piece by piece."""
    limit = sizes.SizeLimit.max_elements
    return limit is None or elements <= limit


def _gather(padded, grids, nd, groups, c_per_group, rows=slice(None)):
    """The windows of `padded` under output rows `rows` (of the first spatial dim): n, spatial..., g, c, k."""
    if nd == 1:
        cols = np.moveaxis(padded[..., grids[0][rows]], 1, -2)  # n, out, c, k
    else:
        cols = padded[..., grids[0][rows][:, None, :, None], grids[1][None, :, None, :]]  # n, c, o0, o1, k0, k1
        cols = np.moveaxis(cols, 1, -3)  # n, o0, o1, c, k0, k1
    n, spatial = cols.shape[0], cols.shape[1:1 + nd]
    return cols.reshape((n,) + spatial + (groups, c_per_group, -1))


def _chunks(n, outs, per_position):
    """(images, row slice) pieces whose windows hold at most CONV_CHUNK_ELEMENTS (at least one output row each),
    in the order images then rows."""
    per_row = per_position * math.prod(outs[1:])
    per_image = per_row * outs[0]
    if per_image <= CONV_CHUNK_ELEMENTS:
        step = max(1, CONV_CHUNK_ELEMENTS // per_image)
        return [(slice(i, min(i + step, n)), slice(None)) for i in range(0, n, step)]
    step = max(1, CONV_CHUNK_ELEMENTS // per_row)
    return [(slice(i, i + 1), slice(r, min(r + step, outs[0]))) for i in range(n) for r in range(0, outs[0], step)]


class Convolution(Function):
    """conv1d/conv2d (cross-correlation, as torch): windows gathered, then one contraction with the weight.  Windows
    that would exceed the size limit are gathered CONV_CHUNK_ELEMENTS at a time (a few images, or output rows of one
    image), each piece contracted as the whole would be, so memory stays bounded; the backward gathers them again
    and sums the weight's gradient piece by piece (in another order than one contraction: a last-bit difference
    from the unchunked path, which is not torch's order either)."""

    __slots__ = ()
    name = "ConvolutionBackward0"
    torch_edges = (0, 1, 2)  # input, weight, bias

    @staticmethod
    def forward(ctx, x, w, b, stride, padding, dilation, groups):
        nd = w.ndim - 2
        batched = x.ndim == nd + 2
        if not batched:
            x = x[None]
        n, c = x.shape[:2]
        out_c, c_per_group = w.shape[:2]
        if c != c_per_group * groups:
            raise TorchRuntimeError(
                f"Given groups={groups}, weight of size [{', '.join(map(str, w.shape))}], expected input"
                f"[{', '.join(map(str, x.shape))}] to have {c_per_group * groups} channels, but got {c} channels "
                "instead")
        kernel = w.shape[2:]
        padded = np.pad(x, [(0, 0), (0, 0)] + list(padding))
        outs, grids = _windows(padded, kernel, stride, (0,) * nd, dilation, 0.0)
        wg = w.reshape(groups, out_c // groups, c_per_group, -1)
        per_position = c * math.prod(kernel)
        if gather_at_once(n * math.prod(outs) * per_position):
            cols = _gather(padded, grids, nd, groups, c_per_group)
            out = np.einsum("n...gck,gock->n...go", cols, wg).reshape((n,) + tuple(outs) + (out_c,))
            saved = cols
        else:
            out = np.empty((n,) + tuple(outs) + (out_c,), dtype=np.result_type(x, w))
            for images, rows in _chunks(n, outs, per_position):
                cols = _gather(padded[images], grids, nd, groups, c_per_group, rows)
                out[images, rows] = np.einsum("n...gck,gock->n...go", cols, wg).reshape(
                    cols.shape[:1 + nd] + (out_c,))
            saved = padded  # the windows are gathered again, piece by piece, in backward
        out = np.moveaxis(out, -1, 1)
        if b is not None:
            out = out + b.reshape((1, -1) + (1,) * nd)
        ctx.aux = (saved, wg, grids, padded.shape, padding, batched, nd, groups)
        return out if batched else out[0]

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate convolutions twice (create_graph=True)")
        saved, wg, grids, padded_shape, padding, batched, nd, groups = ctx.aux
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        if not batched:
            g = g[None]
        n = g.shape[0]
        out_c = g.shape[1]
        kernel = tuple(len(gr[0]) for gr in grids)
        gm = np.moveaxis(g, 1, -1).reshape((n,) + g.shape[2:] + (groups, out_c // groups))
        c = groups * wg.shape[2]
        chunked = saved.ndim == nd + 2  # the padded input: the windows are gathered again piece by piece
        pieces = _chunks(n, g.shape[2:], c * math.prod(kernel)) if chunked else [(slice(None), slice(None))]
        gx = gw = gb = None
        full = np.zeros(padded_shape, dtype=g.dtype) if need_x else None
        for images, rows in pieces:
            cols = _gather(saved[images], grids, nd, groups, wg.shape[2], rows) if chunked else saved
            gpiece = gm[images, rows]
            if need_w:
                flat_g = gpiece.reshape((gpiece.shape[0], -1) + gpiece.shape[-2:])
                flat_cols = cols.reshape((cols.shape[0], -1) + cols.shape[-3:])
                part = np.einsum("nsgo,nsgck->gock", flat_g, flat_cols).reshape((out_c, wg.shape[2]) + kernel)
                gw = part if gw is None else gw + part
            if need_x:
                gcols = np.einsum("n...go,gock->n...gck", gpiece, wg)  # n, spatial..., g, c, k
                gcols = gcols.reshape(gcols.shape[:1 + nd] + (c,) + kernel)
                gcols = np.moveaxis(gcols, 1 + nd, 1)  # n, c, spatial..., k...
                target = full[images]  # a view: add.at writes into `full`
                if nd == 1:
                    np.add.at(target, (slice(None), slice(None), grids[0][rows]), gcols)
                else:
                    np.add.at(target, (slice(None), slice(None), grids[0][rows][:, None, :, None],
                                       grids[1][None, :, None, :]), gcols)
        if need_b:
            gb = g.sum(axis=tuple(i for i in range(g.ndim) if i != 1))
        if need_x:
            inner = (slice(None), slice(None)) + tuple(
                slice(lo, size - hi) for (lo, hi), size in zip(padding, padded_shape[2:]))
            gx = full[inner]
            if not batched:
                gx = gx[0]
        return gx, gw, gb


SAME_PADDING_WARNING = (
    "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of the input be "
    "created (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)")


def _conv_shape(nd):
    """What a convolution allocates at most: its output (every padded position times out_channels, a bound) or
    its padded input, whichever is larger (the gathered windows are bounded by CONV_CHUNK_ELEMENTS)."""
    def rule(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        pads = (0,) * nd if isinstance(padding, str) else _pair(padding, nd)
        spatial = input.shape[-nd:]
        outs = [n + 2 * p for n, p in zip(spatial, pads)] if not isinstance(padding, str) else list(spatial)
        batch = input.shape[0] if input.ndim == nd + 2 else 1
        channels = max(weight.shape[0], weight.shape[1] * int(groups))
        return (batch, channels, *outs)
    return rule


def _conv_offsets_shape(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """conv3d's largest array: its output (at most the padded input's positions times out_channels) or its padded
    input; the windows are taken a piece at a time (conv_kernels.PIECE_ELEMENTS)."""
    pads = (0,) * 3 if isinstance(padding, str) else _pair(padding, 3)
    spatial = input.shape[-3:]
    if isinstance(padding, str):
        padded = [n + d * (k - 1) for n, d, k in zip(spatial, _pair(dilation, 3), weight.shape[2:])]
        outs = list(spatial)
    else:
        padded = [n + 2 * p for n, p in zip(spatial, pads)]
        outs = [(m - d * (k - 1) - 1) // max(s, 1) + 1 for m, d, k, s in zip(
            padded, _pair(dilation, 3), weight.shape[2:], _pair(stride, 3))]
    batch = input.shape[0] if input.ndim == 5 else 1
    out_shape = (batch, weight.shape[0], *(max(o, 1) for o in outs))
    in_shape = (batch, input.shape[-4], *padded)
    return max(out_shape, in_shape, key=sizes.numel)


def _sizes(values) -> str:
    return f"[{', '.join(map(str, values))}]"


def check_conv_weight(input, weight, bias, groups, transposed: bool) -> None:
    """torch's checks of a convolution's groups, channels and bias against its weight, in torch's order."""
    groups = int(groups)
    if groups <= 0:
        raise TorchRuntimeError("non-positive groups is not supported")
    if weight.shape[0] % groups:
        raise TorchRuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                                f"but got weight of size [{_sizes(weight.shape)}] instead")
    nd = weight.ndim - 2
    shown = input.shape if input.ndim == nd + 2 else (1,) + tuple(input.shape)
    channels = shown[1]
    if transposed:
        if channels != weight.shape[0]:
            raise TorchRuntimeError(f"Given transposed=1, weight of size {_sizes(weight.shape)}, expected input"
                                    f"{_sizes(shown)} to have {weight.shape[0]} channels, but got {channels} channels "
                                    "instead")
        outputs, prefix = weight.shape[1] * groups, "Given transposed=1, weight"
    else:
        if channels != weight.shape[1] * groups:
            raise TorchRuntimeError(f"Given groups={groups}, weight of size {_sizes(weight.shape)}, expected input"
                                    f"{_sizes(shown)} to have {weight.shape[1] * groups} channels, but got {channels} "
                                    "channels instead")
        outputs, prefix = weight.shape[0], "Given weight"
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != outputs):
        raise TorchRuntimeError(f"{prefix} of size {_sizes(weight.shape)}, expected bias to be 1-dimensional with "
                                f"{outputs} elements, but got bias of size {_sizes(bias.shape)} instead")
    _check_conv_dtypes(input, weight, bias, groups)


_TENSOR_TYPES = {np.dtype(np.float32): ("Float", "float"), np.dtype(np.float64): ("Double", "double")}


def _check_conv_dtypes(input, weight, bias, groups) -> None:
    """torch's refusal of a weight or bias of another dtype than the input's, in the words of the backend that
    would run (oneDNN's for a float32 input on its path, the native kernels' otherwise)."""
    types = [t.array.dtype for t in (input, weight, bias) if t is not None]
    if all(t == types[0] for t in types) or any(t not in _TENSOR_TYPES for t in types):
        return
    nd = weight.ndim - 2
    batched = input.array if input.ndim == nd + 2 else input.array[None]
    onednn = uses_mkldnn(batched, weight.array, int(groups))
    (x_name, x_short), (w_name, _) = _TENSOR_TYPES[types[0]], _TENSOR_TYPES[types[1]]
    if onednn and types[1] != types[0]:
        raise TorchRuntimeError(f"Input type (torch.{x_name}Tensor) and weight type (torch.{w_name}Tensor) should be "
                                "the same or input should be a MKLDNN tensor and weight is a dense tensor")
    if onednn:
        raise TorchRuntimeError(f"Input type ({x_short}) and bias type ({_TENSOR_TYPES[types[2]][1]}) should be the "
                                "same")
    other = next(t for t in types[1:] if t != types[0])
    raise TorchRuntimeError(f"expected scalar type {x_name} but found {_TENSOR_TYPES[other][0]}")


def _conv(input, weight, bias, stride, padding, dilation, groups, nd):
    if weight.ndim != nd + 2:
        if nd == 3:
            raise TorchRuntimeError(f"expected stride to be a single integer value or a list of {weight.ndim - 2} "
                                    "values to match the convolution dimensions, but got stride="
                                    f"{_sizes(_pair(stride, nd))}")
        raise TorchRuntimeError("weight should have at least three dimensions" if nd == 1 else
                                f"Expected {nd + 2}-dimensional weight for {nd + 2}-dimensional input")
    if input.ndim not in (nd + 1, nd + 2):
        raise TorchRuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to conv{nd}d, but "
                                f"got input of size: [{', '.join(map(str, input.shape))}]")
    if any(s <= 0 for s in _pair(stride, nd)):
        raise TorchRuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in _pair(dilation, nd)):
        if nd == 3 and uses_mkldnn(input.array if input.ndim == 5 else input.array[None], weight.array, int(groups)):
            raise TorchRuntimeError("non-positive dilation is not supported")
        dilations = _pair(dilation, nd) if nd > 1 else (1,) + _pair(dilation, 1)  # conv1d runs as a 2-D one
        raise TorchRuntimeError(f"dilation should be greater than zero, but got [{', '.join(map(str, dilations))}]")
    if isinstance(padding, str):
        if padding == "valid":
            pads = ((0, 0),) * nd
        elif padding == "same":
            if any(s != 1 for s in _pair(stride, nd)):
                raise TorchRuntimeError("padding='same' is not supported for strided convolutions")
            totals = [d * (k - 1) for d, k in zip(_pair(dilation, nd), weight.shape[2:])]
            if any(t % 2 for t in totals):
                state.warn(SAME_PADDING_WARNING, UserWarning, stacklevel=3)
            # torch: the odd unit of padding goes on the right
            pads = tuple((t // 2, t - t // 2) for t in totals)
        else:
            raise TorchRuntimeError(f"Invalid padding string: '{padding}'")
    else:
        if any(p < 0 for p in _pair(padding, nd)):
            raise TorchRuntimeError("negative padding is not supported")
        pads = tuple((p, p) for p in _pair(padding, nd))
    check_conv_weight(input, weight, bias, groups, transposed=False)
    spatial = input.shape[-nd:]
    padded = [n + lo + hi for n, (lo, hi) in zip(spatial, pads)]
    spans = [d * (k - 1) + 1 for d, k in zip(_pair(dilation, nd), weight.shape[2:])]
    if any(s > n for s, n in zip(spans, padded)):
        raise TorchRuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                                f"size: ({' x '.join(map(str, spans))}). Kernel size can't be greater than actual "
                                "input size")
    if nd == 3:
        if input.ndim == 4:  # torch runs an unbatched input as a batch of one, squeezed after (SqueezeBackward1)
            return ConvolutionOffsets.apply(input.unsqueeze(0), weight, bias, _pair(stride, nd), pads,
                                            _pair(dilation, nd), int(groups)).squeeze(0)
        return ConvolutionOffsets.apply(input, weight, bias, _pair(stride, nd), pads, _pair(dilation, nd),
                                        int(groups))
    return Convolution.apply(input, weight, bias, _pair(stride, nd), pads, _pair(dilation, nd), int(groups))


@_functional("conv1d", "conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)",
             "1-D cross-correlation of (N, C, L) input with (out, C/groups, k) weight",
             result_shape=_conv_shape(1), torch=True)
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


@_functional("conv2d", "conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)",
             "2-D cross-correlation of (N, C, H, W) input with (out, C/groups, kh, kw) weight",
             result_shape=_conv_shape(2), torch=True)
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


class ConvolutionOffsets(Function):
    """conv3d (cross-correlation, as torch), by kernel offsets (`conv_kernels`): the windows are taken a few
    offsets at a time, never all at once, so memory stays near the output's size."""

    __slots__ = ()
    name = "ConvolutionBackward0"
    torch_edges = (0, 1, 2)  # input, weight, bias

    @staticmethod
    def forward(ctx, x, w, b, stride, padding, dilation, groups):
        nd = w.ndim - 2
        batched = x.ndim == nd + 2
        if not batched:
            x = x[None]
        n, c = x.shape[:2]
        out_c, c_per_group = w.shape[:2]
        if c != c_per_group * groups:
            raise TorchRuntimeError(
                f"Given groups={groups}, weight of size [{', '.join(map(str, w.shape))}], expected input"
                f"[{', '.join(map(str, x.shape))}] to have {c_per_group * groups} channels, but got {c} channels "
                "instead")
        padded = np.pad(x, [(0, 0), (0, 0)] + list(padding)) if any(map(any, padding)) else x
        kernel = w.shape[2:]
        outs = tuple((size - d * (k - 1) - 1) // s + 1
                     for size, k, s, d in zip(padded.shape[2:], kernel, stride, dilation))
        wg = w.reshape((groups, out_c // groups, c_per_group) + kernel)
        full = padded.reshape((n, groups, c_per_group) + padded.shape[2:])
        onednn = uses_mkldnn(x, w, groups)
        if not onednn:  # torch's slow_conv3d: vol2col and MKL's gemm per image, the bias first
            bias = None if b is None else b.reshape(groups, out_c // groups)
            out = conv_kernels.gemm_correlate(full, wg, outs, stride, dilation, bias).reshape((n, out_c) + outs)
            b = None
        else:  # oneDNN's order, bit for bit while each dot product is one BLAS chain (conv_kernels.correlate)
            inner = c_per_group <= 16
            out = conv_kernels.correlate(full, wg, outs, stride, dilation, inner).reshape((n, out_c) + outs)
        if b is not None:
            if b.dtype == out.dtype:
                out += b.reshape((1, -1) + (1,) * nd)
            else:
                out = out + b.reshape((1, -1) + (1,) * nd)
        ctx.aux = (x, wg, stride, padding, dilation, groups, batched, onednn)
        return out if batched else out[0]

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate convolutions twice (create_graph=True)")
        x, wg, stride, padding, dilation, groups, batched, onednn = ctx.aux
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        if not batched:
            g = g[None]
        n, c = x.shape[:2]
        kernel = wg.shape[3:]
        padded_shape = tuple(size + lo + hi for size, (lo, hi) in zip(x.shape[2:], padding))
        gg = g.reshape((n, groups, g.shape[1] // groups) + g.shape[2:])
        gx = gw = gb = None
        scatter = conv_kernels.scatter if onednn else conv_kernels.gemm_scatter
        if need_x:
            full = scatter(gg, wg, padded_shape, stride, dilation).reshape((n, c) + padded_shape)
            gx = full[(slice(None), slice(None)) + tuple(
                slice(lo, size - hi) for (lo, hi), size in zip(padding, padded_shape))]
            gx = np.ascontiguousarray(gx if batched else gx[0])
        if need_w:
            padded = np.pad(x, [(0, 0), (0, 0)] + list(padding)) if any(map(any, padding)) else x
            full = padded.reshape((n, groups, c // groups) + padded_shape)
            gw = conv_kernels.gemm_weight_grad(full, gg, kernel, stride, dilation).reshape(
                (g.shape[1], c // groups) + kernel)
        if need_b:
            gb = bias_grad(g, onednn)
        return gx, gw, gb


@_functional("conv3d", "conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)",
             "3-D cross-correlation of (N, C, D, H, W) input with (out, C/groups, kd, kh, kw) weight",
             result_shape=_conv_offsets_shape, torch=True)
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


def uses_mkldnn(x, w, groups) -> bool:
    """Whether torch computes this float32 convolution with oneDNN (ATen's use_mkldnn, as a 1-D convolution runs:
    a 2-D one over an inserted dim of 1); float64 and the small cases run torch's own im2col/col2im kernels."""
    if x.dtype != np.float32:
        return False
    nd = w.ndim - 2
    kernel = (1,) * (2 - nd) + w.shape[2:]
    shape4 = (x.shape[:2] + (1,) * (2 - nd) + x.shape[2:])[:4]
    return groups > 1 or (kernel[-1] > 3 and kernel[-2] > 3) or x.shape[0] > 1 or math.prod(shape4) > 20480


def bias_grad(g, onednn: bool, groups: int = 1):
    """The bias's gradient, the sum of g (n, c, spatial...) over all but c, in torch's order: oneDNN's (float32)
    adds each image's positions one after another, then the images one after another; torch's own kernels call
    at::sum (ATen's summation order, `sum_order`), on each group's slice when torch runs the groups one by one
    (`groups` > 1: the transposed convolutions, each group's gradient a contiguous copy)."""
    dims = (0,) + tuple(range(2, g.ndim))
    if not onednn:
        if groups > 1:
            per = g.shape[1] // groups
            return np.concatenate([sum_order.torch_sum(np.ascontiguousarray(g[:, i * per:(i + 1) * per]), dims)
                                   for i in range(groups)])
        return sum_order.torch_sum(g, dims)
    n, c = g.shape[:2]
    flat = g.reshape(n, c, -1)
    per_image = np.stack([np.add.accumulate(flat[i], axis=1)[:, -1] for i in range(n)])
    return np.add.accumulate(per_image, axis=0)[-1]


class ConvolutionTranspose(Function):
    """conv_transpose1d/2d/3d: the gradient of a convolution with respect to its input, as a layer.  Each kernel
    offset's contribution (one product over the input channels) is added into the strided positions it reaches
    (torch's col2im), then the padding is cut off; by kernel offsets (`conv_kernels`), a few at a time.  The sums
    run in BLAS's order, not torch's (oneDNN in float32, slow_conv_transpose in float64): the last bits of longer
    sums may differ from torch's (docs/deviations.md)."""

    __slots__ = ()
    name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, x, w, b, stride, padding, output_padding, groups, dilation):
        nd = w.ndim - 2
        n, c_in = x.shape[:2]
        spatial = x.shape[2:]
        if w.shape[0] != c_in:
            raise TorchRuntimeError(
                f"Given transposed=1, weight of size [{', '.join(map(str, w.shape))}], expected input"
                f"[{', '.join(map(str, x.shape))}] to have {w.shape[0]} channels, but got {c_in} channels instead")
        out_per_group = w.shape[1]
        kernel = w.shape[2:]
        full_shape = tuple((size - 1) * s + d * (k - 1) + 1 + o for size, s, d, k, o in zip(
            spatial, stride, dilation, kernel, output_padding))
        outs = tuple(f - 2 * p for f, p in zip(full_shape, padding))
        if min(outs) <= 0:
            raise TorchRuntimeError(f"Given input size per channel: ({' x '.join(map(str, spatial))}). Calculated "
                                    f"output size per channel: ({' x '.join(map(str, outs))}). Output size is too "
                                    "small")
        xg = x.reshape((n, groups, c_in // groups) + spatial)
        wg = w.reshape((groups, c_in // groups, out_per_group) + kernel)
        onednn = uses_mkldnn(x, w, groups)
        if onednn:
            out = conv_kernels.transpose_by_last_offset(xg, wg, outs, stride, padding, dilation).reshape(
                (n, groups * out_per_group) + outs)
        else:
            # torch's slow_conv_transpose: MKL's gemm and col2im per image
            full = conv_kernels.gemm_scatter(xg, wg, full_shape, stride, dilation).reshape(
                (n, groups * out_per_group) + full_shape)
            crop = (slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(padding, outs))
            out = np.ascontiguousarray(full[crop]) if any(padding) else full
        if b is not None:
            if b.dtype == out.dtype:
                out += b.reshape((1, -1) + (1,) * nd)
            else:
                out = out + b.reshape((1, -1) + (1,) * nd)
        ctx.aux = (x, wg, stride, padding, groups, dilation, full_shape, onednn)
        return out

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate convolutions twice (create_graph=True)")
        x, wg, stride, padding, groups, dilation, full_shape, onednn = ctx.aux
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        n, c_in = x.shape[:2]
        kernel = wg.shape[3:]
        if any(padding) or tuple(g.shape[2:]) != full_shape:
            full = np.zeros((n, g.shape[1]) + full_shape, dtype=g.dtype)
            full[(slice(None), slice(None)) + tuple(slice(p, p + o) for p, o in zip(padding, g.shape[2:]))] = g
        else:
            full = g
        fg = full.reshape((n, groups, g.shape[1] // groups) + full_shape)
        gx = gw = gb = None
        correlate = conv_kernels.correlate if onednn else conv_kernels.gemm_correlate
        if need_x:
            gx = correlate(fg, wg, x.shape[2:], stride, dilation).reshape(x.shape)
        if need_w:
            xg = x.reshape((n, groups, c_in // groups) + x.shape[2:])
            gw = conv_kernels.gemm_weight_grad(fg, xg, kernel, stride, dilation).reshape((c_in, wg.shape[2]) + kernel)
        if need_b:
            gb = bias_grad(g, onednn, groups)
        return gx, gw, gb


def _conv_transpose_shape(nd):
    """At most: the output before its padding is cut (each spatial dim stride * size + dilation * kernel), or
    the input's gradient (its own size)."""
    def rule(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
        spatial = [s * n + d * k + o for s, n, d, k, o in zip(
            _pair(stride, nd), input.shape[-nd:], _pair(dilation, nd), weight.shape[2:], _pair(output_padding, nd))]
        batch = input.shape[0] if input.ndim == nd + 2 else 1
        return (batch, weight.shape[1] * int(groups), *spatial)
    return rule


_SPATIAL_NAMES = ("depth", "height", "width")


def _named(what: str, values: tuple, sep: str = " ") -> str:
    """torch's slow_conv_transpose shape check names each dim: `dilation_height: 0, dilation_width: 0` (a 1-D
    convolution runs as a 2-D one of height 1)."""
    names = _SPATIAL_NAMES[-len(values):]
    return sep.join(f"{what}_{name}: {v}" for name, v in zip(names, values))


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, nd):
    if input.ndim not in (nd + 1, nd + 2):
        raise TorchRuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to "
                                f"conv_transpose{nd}d, but got input of size: [{', '.join(map(str, input.shape))}]")
    if weight.ndim != nd + 2:
        if nd == 1:
            raise TorchRuntimeError(f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
                                    f"{_sizes(weight.shape)}, but got {input.ndim}-dimensional input of size "
                                    f"{_sizes(input.shape)} instead")
        raise TorchRuntimeError(f"expected stride to be a single integer value or a list of {weight.ndim - 2} values "
                                f"to match the convolution dimensions, but got stride={_sizes(_pair(stride, nd))}")
    stride, padding, dilation = _pair(stride, nd), _pair(padding, nd), _pair(dilation, nd)
    output_padding = _pair(output_padding, nd)
    if any(p < 0 for p in padding):
        raise TorchRuntimeError("negative padding is not supported")
    if any(o < 0 for o in output_padding):
        raise TorchRuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise TorchRuntimeError("non-positive stride is not supported")
    if any(d < 0 for d in dilation):
        raise TorchRuntimeError("dilation should be greater than zero")
    check_conv_weight(input, weight, bias, groups, transposed=True)
    batched = input.array if input.ndim == nd + 2 else input.array[None]
    onednn = uses_mkldnn(batched, weight.array, int(groups))
    two_d = lambda values, fill: ((fill,) + values) if nd == 1 else values  # noqa: E731 - conv1d runs as 2-D
    if any(d == 0 for d in dilation):
        if onednn:
            raise TorchRuntimeError("could not create a primitive descriptor for the deconvolution forward "
                                    "propagation primitive. Run workload with environment variable ONEDNN_VERBOSE=all "
                                    "to get additional diagnostic information.")
        raise TorchRuntimeError("dilation should be greater than zero, but got "
                                f"{_named('dilation', two_d(dilation, 1), ', ')}")
    if any(o >= max(s, d) for o, s, d in zip(output_padding, stride, dilation)):
        raise TorchRuntimeError("output padding must be smaller than either stride or dilation, but got "
                                f"{_named('output_padding', two_d(output_padding, 0))} "
                                f"{_named('stride', two_d(stride, 1))} {_named('dilation', two_d(dilation, 1))}")
    spatial = batched.shape[2:]
    outs = [(n - 1) * s - 2 * p + d * (k - 1) + 1 + o for n, s, p, d, k, o in zip(
        spatial, stride, padding, dilation, weight.shape[2:], output_padding)]
    if min(outs) <= 0:
        if onednn:
            raise TorchRuntimeError("could not construct a memory descriptor using a format tag")
        raise TorchRuntimeError(f"Given input size per channel: ({' x '.join(map(str, two_d(spatial, 1)))}). "
                                f"Calculated output size per channel: ({' x '.join(map(str, two_d(tuple(outs), 1)))}). "
                                "Output size is too small")
    if input.ndim == nd + 1:  # torch runs an unbatched input as a batch of one, squeezed after (SqueezeBackward1)
        return ConvolutionTranspose.apply(input.unsqueeze(0), weight, bias, stride, padding, output_padding,
                                          int(groups), dilation).squeeze(0)
    return ConvolutionTranspose.apply(input, weight, bias, stride, padding, output_padding, int(groups), dilation)


@_functional("conv_transpose1d", "conv_transpose1d(input, weight, bias=None, stride=1, padding=0, "
             "output_padding=0, groups=1, dilation=1)", "1-D transposed convolution of (N, C, L) input with "
             "(C, out/groups, k) weight", result_shape=_conv_transpose_shape(1), torch=True)
def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


@_functional("conv_transpose2d", "conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, "
             "groups=1, dilation=1)", "2-D transposed convolution of (N, C, H, W) input with (C, out/groups, kh, kw) "
             "weight", result_shape=_conv_transpose_shape(2), torch=True)
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


@_functional("conv_transpose3d", "conv_transpose3d(input, weight, bias=None, stride=1, padding=0, "
             "output_padding=0, groups=1, dilation=1)", "3-D transposed convolution of (N, C, D, H, W) input with "
             "(C, out/groups, kd, kh, kw) weight", result_shape=_conv_transpose_shape(3), torch=True)
def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3)


# -- losses -------------------------------------------------------------------------------------------------------

def _reduced(loss, reduction):
    check_reduction(reduction)
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum_op(loss)
    return loss


@_functional("poisson_nll_loss", "poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-08, "
             "reduction='mean')", "Poisson negative log likelihood", category="loss",
             result_shape=sizes.broadcast)
def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None,
                     reduction="mean"):
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        # torch's tensor ops, so the target gets their gradient (nan where target is 0: 0 * log 0)
        stirling = target * target.log() - target + 0.5 * ((2 * math.pi) * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


@_functional("gaussian_nll_loss", "gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction='mean')",
             "Gaussian negative log likelihood with predicted variance var", category="loss",
             result_shape=sizes.broadcast)
def gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction="mean"):
    if isinstance(var, (int, float)):
        var = Tensor._make(np.full(input.shape, float(var), dtype=input.array.dtype), None)
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise TorchValueError("var is of incorrect size")
    if (var.array < 0).any():
        raise TorchValueError("var has negative entry/entries")
    # torch clamps a copy of var without recording it: the gradient still flows to var where it is above eps
    var = var.clone()
    var.array[...] = np.maximum(var.array, eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


@_functional("margin_ranking_loss", "margin_ranking_loss(input1, input2, target, margin=0, reduction='mean')",
             "max(0, -target * (input1 - input2) + margin)", category="loss",
             result_shape=sizes.broadcast)
def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    return _reduced(clamp_min(-target * (input1 - input2) + margin, 0), reduction)


@_functional("hinge_embedding_loss", "hinge_embedding_loss(input, target, margin=1.0, reduction='mean')",
             "input where target is 1, max(0, margin - input) where it is -1", category="loss",
             result_shape=sizes.broadcast)
def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    zeros = Tensor._make(np.zeros(input.shape, dtype=input.array.dtype), None)
    margin_clamp = clamp_min(margin - input, 0)
    output_margin = where(Tensor._make(target.array != 1, None), margin_clamp, zeros)
    output_self = where(Tensor._make(target.array != -1, None), input, zeros)
    return _reduced(output_margin + output_self, reduction)


class SoftMarginLoss(Function):
    __slots__ = ()
    name = "SoftMarginLossBackward0"
    saves = (0, 1)

    @staticmethod
    def forward(ctx, x, y, reduction):
        ctx.aux = reduction
        # torch's order (its broadcast error names input first): at::exp (MKL's vector math), then at::log1p
        loss = kernels.log1p(kernels.exp(-x * y))
        if reduction == "mean":
            return np.asarray(loss.mean(), dtype=x.dtype)
        if reduction == "sum":
            return np.asarray(loss.sum(), dtype=x.dtype)
        return loss

    @staticmethod
    def backward(ctx, g, x, y):
        reduction = ctx.aux
        z = dual.exp(-y * x)
        grad = -y * z / (1 + z) * g
        if reduction == "mean":
            grad = grad / np.size(val(x))
        return grad, None


@_functional("soft_margin_loss", "soft_margin_loss(input, target, reduction='mean')", "log(1 + exp(-target * input))",
             category="loss",
             result_shape=sizes.broadcast)
def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    check_reduction(reduction)
    check_no_requires_grad(target, "target", "soft_margin_loss")
    return SoftMarginLoss.apply(input, target, reduction)


@_functional("triplet_margin_loss", "triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, "
             "swap=False, reduction='mean')", "max(0, d(anchor, positive) - d(anchor, negative) + margin)",
             category="loss",
             result_shape=sizes.broadcast)
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_swap = pairwise_distance(positive, negative, p, eps)
        d_neg = minimum(d_neg, d_swap)
    return _reduced(clamp_min(margin + d_pos - d_neg, 0), reduction)


@_functional("cosine_embedding_loss", "cosine_embedding_loss(input1, input2, target, margin=0, reduction='mean')",
             "1 - cos where target is 1, max(0, cos - margin) where it is -1", category="loss",
             result_shape=lambda input1, input2, *args, **kwargs: sizes.broadcast(input1, input2))
def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    d = input1.ndim - 1
    prod_sum = sum_op(input1 * input2, d)
    mag1 = sum_op(input1 * input1, d) + 1e-12
    mag2 = sum_op(input2 * input2, d) + 1e-12
    cos = prod_sum / (mag1 * mag2).sqrt()
    zeros = Tensor._make(np.zeros(cos.shape, dtype=cos.array.dtype), None)
    pos = 1 - cos
    neg = clamp_min(cos - margin, 0)
    output = where(Tensor._make(target.array == 1, None), pos, zeros) + \
        where(Tensor._make(target.array == -1, None), neg, zeros)
    return _reduced(output, reduction)


class MultiMarginLoss(Function):
    __slots__ = ()
    name = "MultiMarginLossBackward0"
    saves = (0,)

    @staticmethod
    def forward(ctx, x, target, p, margin, weight, reduction):
        x2 = x if x.ndim == 2 else x.reshape(1, -1)  # a 1-D input is one row; a 0-d one, one row of one class
        t = target.reshape(-1)
        picked = x2[np.arange(len(t)), t][:, None]
        z = margin - picked + x2
        mask = np.ones(x2.shape, dtype=bool)
        mask[np.arange(len(t)), t] = False
        active = (z > 0) & mask
        w = weight[t][:, None] if weight is not None else 1.0
        terms = np.where(active, (z if p == 1 else z * z) * w, 0.0)
        loss = terms.sum(axis=1) / x2.shape[1]
        ctx.aux = (t, p, margin, weight, reduction, x.ndim)
        if reduction == "mean":
            return np.asarray(loss.mean(), dtype=x.dtype)
        if reduction == "sum":
            return np.asarray(loss.sum(), dtype=x.dtype)
        return loss if x.ndim == 2 else loss.reshape(target.shape)  # a 1-D input: the target's shape, () or (1,)

    @staticmethod
    def backward(ctx, g, x):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate multi_margin_loss twice")
        t, p, margin, weight, reduction, ndim = ctx.aux
        x2 = x if x.ndim == 2 else x.reshape(1, -1)
        rows = np.arange(len(t))
        z = margin - x2[rows, t][:, None] + x2
        mask = np.ones(x2.shape, dtype=bool)
        mask[rows, t] = False
        active = (z > 0) & mask
        w = weight[t][:, None] if weight is not None else 1.0
        slope = np.where(active, (1.0 if p == 1 else 2 * z) * w, 0.0) / x2.shape[1]
        gr = np.broadcast_to(g, (len(t),)) if reduction != "none" else np.reshape(g, (len(t),))
        if reduction == "mean":
            gr = gr / len(t)
        grad = slope * gr[:, None]
        grad[rows, t] -= grad.sum(axis=1)
        return (grad if ndim == 2 else grad[0].reshape(x.shape)),


@_functional("multi_margin_loss", "multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction='mean')",
             "multi-class hinge loss: sum over j != y of max(0, margin - x[y] + x[j])^p / C", category="loss")
def multi_margin_loss(input, target, p=1, margin=1, weight=None, size_average=None, reduce=None, reduction="mean"):
    check_reduction(reduction)
    if p not in (1, 2):
        raise TorchValueError("only p == 1 and p == 2 supported")
    check_no_requires_grad(weight, "weight", "multi_margin_loss")
    t = np.asarray(val(target))
    samples = input.shape[0] if input.ndim == 2 else 1
    if t.ndim > 1 or t.size != samples:
        raise TorchRuntimeError("multi_margin_loss: target tensor should be 1-D with size equal to the number of "
                                f"input samples (batch size). Expected target size [{samples}], but got "
                                f"{list(t.shape)}. Input has shape {list(input.shape)}.")
    if t.dtype.kind not in "iu":
        raise TorchRuntimeError(f"expected scalar type Long but found {dtype_title(t.dtype)}")
    t = t.astype(np.int64)
    classes = input.shape[-1] if input.ndim else 1
    if t.size and (t.min() < 0 or t.max() >= classes):
        raise TorchRuntimeError("target out of range")
    return MultiMarginLoss.apply(input, t, int(p), float(margin), None if weight is None else weight.array,
                                 reduction)



class MultilabelMarginLoss(Function):
    """multilabel_margin_loss as ATen's CPU kernel computes it (aten/src/ATen/native/LossMultiLabelMargin.cpp): per
    row, for each target up to the first -1 and each non-target class d, z = 1 - x[target] + x[d] in the input's
    dtype, the positive ones summed in double in that order and rounded to the dtype per row; the rows summed in
    double, divided by the classes (and the rows, for mean).  The gradient adds -g and +g (g = 1 / (rows * classes)
    for mean, else 1 / classes, in the dtype) one z at a time, then multiplies by the incoming gradient."""

    __slots__ = ()
    name = "MultilabelMarginLossBackward0"
    saves = (0,)

    @staticmethod
    def _rows(x, target):
        x2 = x.reshape(1, -1) if x.ndim <= 1 else x
        return x2, target.reshape(x2.shape)

    @staticmethod
    def _active(row, targets):
        """(target, d) pairs with z > 0, in the kernel's order, and their z."""
        is_target = np.zeros(len(row), dtype=bool)
        labels = []
        for t in targets:
            if t < 0:
                break
            is_target[t] = True
            labels.append(int(t))
        pairs = []
        one = row.dtype.type(1)
        for t in labels:
            for d in range(len(row)):
                if not is_target[d]:
                    z = one - row[t] + row[d]
                    if z > 0:
                        pairs.append((t, d, z))
        return pairs

    @staticmethod
    def forward(ctx, x, target, reduction):
        x2, t2 = MultilabelMarginLoss._rows(x, target)
        nframe, dim = x2.shape
        ctx.aux = (target, reduction)
        kind = x.dtype.type
        per_row = []
        for row, targets in zip(x2, t2):
            acc = 0.0
            for _, _, z in MultilabelMarginLoss._active(row, targets):
                acc += float(z)
            per_row.append(kind(acc))
        if reduction != "none" or target.ndim <= 1:
            total = 0.0
            for value in per_row:
                total += float(value)
            total /= dim
            if reduction == "mean":
                total /= nframe
            return np.asarray(total, dtype=x.dtype)
        return np.array([value / kind(dim) for value in per_row], dtype=x.dtype)

    @staticmethod
    def backward(ctx, g, x):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate multilabel_margin_loss twice")
        target, reduction = ctx.aux
        x2, t2 = MultilabelMarginLoss._rows(x, target)
        nframe, dim = x2.shape
        kind = x.dtype.type
        step = kind(1.0 / (nframe * dim) if reduction == "mean" else 1.0 / dim)
        grad = np.zeros(x2.shape, dtype=x.dtype)
        for r, (row, targets) in enumerate(zip(x2, t2)):
            for t, d, _ in MultilabelMarginLoss._active(row, targets):
                grad[r, t] -= step
                grad[r, d] += step
        g = np.asarray(g, dtype=x.dtype)
        grad = grad * (g if g.ndim == 0 else g.reshape(nframe, 1))
        return grad.reshape(x.shape),


@_functional("multilabel_margin_loss", "multilabel_margin_loss(input, target, reduction='mean')",
             "multi-label hinge loss: sum over targets y and non-targets j of max(0, 1 - x[y] + x[j]) / C",
             category="loss")
def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    check_reduction(reduction)
    t = np.asarray(val(target))
    if t.dtype.kind not in "iu":
        raise TorchRuntimeError(f"expected scalar type Long but found {dtype_title(t.dtype)}")
    ndims = input.ndim
    shape = list(input.shape)
    if not ((ndims == 2 and shape[1] != 0) or (ndims == 1 and shape[0] != 0) or ndims == 0):
        raise TorchRuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                                f"[{', '.join(map(str, shape))}]")
    dim = 1 if ndims == 0 else shape[-1]
    fits = t.ndim <= 1 and t.size == dim if ndims <= 1 else t.ndim == 2 and t.shape[0] == shape[0] and \
        t.shape[1] == dim
    if not fits:
        raise TorchRuntimeError(f"inconsistent size [{', '.join(map(str, t.shape))}] for argument #2 'target'")
    t = t.astype(np.int64)
    if input.numel() and (t.min() < -1 or t.max() >= dim):
        raise TorchRuntimeError("argument #2 'target' is out of range")
    return MultilabelMarginLoss.apply(input, t, reduction)


@_functional("multilabel_soft_margin_loss", "multilabel_soft_margin_loss(input, target, weight=None, "
             "reduction='mean')", "-(y log sigmoid(x) + (1 - y) log sigmoid(-x)), averaged over the classes",
             category="loss", result_shape=sizes.broadcast)
def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """torch/nn/functional.py's own composition, op for op (so its nodes and roundings are torch's)."""
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = sum_op(loss, dim=class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return mean(loss)
    if reduction == "sum":
        return sum_op(loss)
    raise TorchValueError(f"{reduction} is not valid")
