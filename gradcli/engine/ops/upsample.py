"""F.interpolate (nn.Upsample): nearest, nearest-exact, linear, bilinear, bicubic, trilinear and area, as ATen's
CPU kernels compute them (aten/src/ATen/native/UpSample.h, cpu/UpSampleKernel.cpp, cpu/UpSampleMoreKernel.cpp,
UpSampleBicubic2d.cpp), bit for bit in float32 and float64.

What decides the bits:
- the source index and weight of each output position (UpSample.h: area_pixel_compute_scale in the op's math
  type, area_pixel_compute_source_index, whose `scale * (dst + 0.5) - 0.5` the AVX2 build contracts into one
  fused multiply-add, guard_index_and_lambda's floorf, which rounds a double index to float first);
- the kernel torch picks: a 4-D bilinear (or nearest) output with H + W <= 128, or a channels-last input with
  more than 3 channels, takes the channels-last kernel (four weights w_hl * w_wl summed in one expression, the
  channels in vectors of 8 float32 / 4 float64 and the rest one at a time, each in its own contracted order);
  any other the generic separable kernel (t0 * w0 + t1 * w1 per dim, innermost dim first, contracted as
  fma(t0, w0, t1 * w1));
- the backward kernels add each output's gradient into the input gradient one output position at a time, in
  row-major order, each corner in turn: for linear modes fma(w, g, acc) with w the lambdas' product, bicubic's
  (g * wy) * wx without contraction (its kernel is not in cpu/), nearest plain sums.
Under create_graph the backward is a node of its own (upsample_*_backward), whose gradient is the
interpolation again, so second derivatives are torch's too.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from gradcli.engine import kernels, state
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.kernels import loops
from gradcli.engine.ops.common import val
from gradcli.engine.ops.registry import REGISTRY, register
from gradcli.engine.tensor import Tensor

F32 = np.float32
LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # Vectorized<T>::size() of the AVX2 build torch runs
MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")


def _functional(name, sig, doc, **kw):
    return register(name, sig=sig, doc=doc, category="nn", torch=False, method=False, functional=True, **kw)


def _math_type(dtype):
    return np.float64 if dtype == np.float64 else np.float32


# -- source indices and weights (UpSample.h) -------------------------------------------------------------------

def _scale(in_size: int, out_size: int, align_corners: bool, scale, ot):
    """area_pixel_compute_scale in the math type `ot`."""
    if align_corners:
        return ot(in_size - 1) / ot(out_size - 1) if out_size > 1 else ot(0)
    return _scales_value(scale, in_size, out_size, ot)


def _scales_value(scale, in_size: int, out_size: int, ot):
    """compute_scales_value: 1 / scale (in double, then cast) when a scale was given, else in / out in `ot`."""
    if scale is not None and scale > 0:
        return ot(1.0 / scale)
    return ot(in_size) / ot(out_size)


def _source_index(scale, out_size: int, align_corners: bool, cubic: bool, ot, fused: bool = True):
    """area_pixel_compute_source_index for every output position (an array in `ot`); `fused`: as the AVX2 build
    of the kernels in cpu/ contracts it."""
    dst = np.arange(out_size).astype(ot)
    if align_corners:
        return (scale * dst).astype(ot)
    if fused:
        src = kernels.fma(np.full(out_size, scale, ot), (dst + ot(0.5)).astype(ot), np.full(out_size, -0.5, ot))
    else:
        src = (scale * (dst + ot(0.5)).astype(ot)).astype(ot) - ot(0.5)
    src = np.asarray(src, ot)
    return src if cubic else np.where(src < 0, ot(0), src).astype(ot)


def _guard(real, in_size: int, ot):
    """guard_index_and_lambda: floorf of the index (a double rounded to float first), clamped; the weight."""
    index = np.minimum(np.floor(real.astype(F32)).astype(np.int64), in_size - 1)
    lam = np.minimum(np.maximum((real - index.astype(ot)).astype(ot), ot(0)), ot(1)).astype(ot)
    return index, lam


def _linear_taps(in_size: int, out_size: int, align_corners: bool, scale, ot):
    """compute_source_index_and_lambda: (i0, i1, lambda0, lambda1) per output position."""
    if in_size == out_size:
        idx = np.arange(out_size)
        return idx, idx, np.ones(out_size, ot), np.zeros(out_size, ot)
    ratio = _scale(in_size, out_size, align_corners, scale, ot)
    i0, l1 = _guard(_source_index(ratio, out_size, align_corners, False, ot), in_size, ot)
    i1 = i0 + (i0 < in_size - 1)
    return i0, i1, (ot(1) - l1).astype(ot), l1


def _cubic_taps(in_size: int, out_size: int, align_corners: bool, scale, ot, fused: bool = True):
    """HelperInterpCubic's indices (clamped) and get_cubic_upsample_coefficients' four weights; `fused`: the
    forward kernel's contractions (the backward, in UpSampleBicubic2d.cpp outside cpu/, has none)."""
    ratio = _scale(in_size, out_size, align_corners, scale, ot)
    index, t = _guard(_source_index(ratio, out_size, align_corners, True, ot, fused), in_size, ot)
    coeffs = _cubic_coefficients(t, ot, fused)
    indices = [np.clip(index + j - 1, 0, in_size - 1) for j in range(4)]
    return indices, coeffs


def _cubic_coefficients(t, ot, fused=True):
    """get_cubic_upsample_coefficients with A = -0.75, in the order the AVX2 build evaluates (measured against
    torch: the first two steps of each polynomial contracted, the last not)."""
    a = ot(-0.75)

    contracted = fused

    def step(p, x, c, fused):
        if fused and contracted:
            return np.asarray(kernels.fma(p, x, np.full(x.shape, c, ot)), ot)
        return ((p * x).astype(ot) + c).astype(ot)

    def conv1(x):  # ((A + 2) * x - (A + 3)) * x * x + 1
        p = step(np.full(x.shape, a + ot(2), ot), x, -(a + ot(3)), True)
        return step((p * x).astype(ot), x, ot(1), False)

    def conv2(x):  # ((A * x - 5 * A) * x + 8 * A) * x - 4 * A
        p = step(np.full(x.shape, a, ot), x, -ot(5) * a, True)
        p = step(p, x, ot(8) * a, True)
        return step(p, x, -ot(4) * a, False)

    x2 = (ot(1) - t).astype(ot)
    return [conv2((t + ot(1)).astype(ot)), conv1(t), conv1(x2), conv2((x2 + ot(1)).astype(ot))]


def _nearest_forward_index(in_size: int, out_size: int, scale, exact: bool, ot):
    """HelperInterpNearest(Exact)::compute_indices_weights (the generic kernel)."""
    ratio = _scale(in_size, out_size, False, scale, ot)
    if exact:
        real = _source_index(ratio, out_size, False, False, ot)
        index = np.floor((real + ot(0.5)).astype(ot).astype(F32)).astype(np.int64)
    else:
        index = np.floor((ratio * np.arange(out_size).astype(ot)).astype(ot).astype(F32)).astype(np.int64)
    return np.minimum(index, in_size - 1)


def _nearest_idx(in_size: int, out_size: int, scale, exact: bool):
    """UpSample.h's nearest_idx / nearest_exact_idx (the channels-last kernel and every backward)."""
    out = np.arange(out_size)
    if not exact:
        if out_size == in_size:
            return out
        if out_size == 2 * in_size:
            return out >> 1
    ratio = _scales_value(scale, in_size, out_size, F32)
    if exact:
        real = ((out + 0.5) * np.float64(ratio)).astype(F32)
    else:
        real = (out.astype(F32) * ratio).astype(F32)
    return np.minimum(np.floor(real).astype(np.int64), in_size - 1)


# -- layouts ----------------------------------------------------------------------------------------------------

def _channels_last_contiguous(x: np.ndarray) -> bool:
    """Tensor::is_contiguous(ChannelsLast / ChannelsLast3d), from the array's strides."""
    if x.ndim not in (4, 5):
        return False
    order = [1, 3, 2, 0] if x.ndim == 4 else [1, 4, 3, 2, 0]
    expected = 1
    for d in order:
        if x.shape[d] != 1:
            if x.strides[d] != expected * x.itemsize:
                return False
            expected *= x.shape[d]
    return True


def _channels_last_kernel(x: np.ndarray, out_shape: tuple) -> bool:
    """_use_vectorized_kernel_cond_2d / _3d."""
    if x.ndim == 4:
        return (_channels_last_contiguous(x) and x.shape[1] > 3) or (out_shape[-2] + out_shape[-1] <= 128)
    return x.ndim == 5 and _channels_last_contiguous(x) and x.shape[1] > 3


# -- forward ----------------------------------------------------------------------------------------------------

def _along(w, axis: int, ndim: int):
    shape = [1] * ndim
    shape[axis] = w.shape[0]
    return w.reshape(shape)


def _separable(x, taps, axis: int, fused_first: bool):
    """Interpolate<n, ..., interp_size>::eval: the taps of dim `axis` weighting the inner dims' results."""
    if axis == x.ndim:
        return x
    terms = [(_separable(np.take(x, idx, axis=axis), taps, axis + 1, fused_first),
              _along(w, axis, x.ndim)) for idx, w in taps[axis - 2]]
    if len(terms) == 1:
        return terms[0][0]
    (t0, w0), (t1, w1) = terms[:2]
    out = np.asarray(kernels.fma(t0, w0, np.asarray(t1 * w1, x.dtype)), x.dtype)
    for t, w in terms[2:]:
        out = np.asarray(kernels.fma(t, w, out), x.dtype)
    return out


def _linear_channels_last(x, spec):
    """cpu_upsample_linear_channels_last: the corners' weights (lambda products) and one sum per channel, the
    vectorised channels in one contracted order, the rest in another."""
    ot = x.dtype.type
    nd = x.ndim - 2
    taps = [_linear_taps(x.shape[2 + d], spec.out[d], spec.align_corners, spec.scales[d], ot) for d in range(nd)]
    values, weights = [], []
    for corner in np.ndindex(*(2,) * nd):
        v = x
        w = None
        for d, side in enumerate(corner):
            i0, i1, l0, l1 = taps[d]
            v = np.take(v, i1 if side else i0, axis=2 + d)
            lam = _along(l1 if side else l0, 2 + d, x.ndim)
            w = lam if w is None else (w * lam).astype(ot)
        values.append(v)
        weights.append(np.broadcast_to(w, v.shape))
    n = len(values)
    scalar = np.asarray(kernels.fma(values[0], weights[0], values[1] * weights[1]), ot)
    for k in range(2, n):
        scalar = np.asarray(kernels.fma(values[k], weights[k], scalar), ot)
    channels = x.shape[1]
    vectorised = channels - channels % LANES[x.dtype]
    if vectorised:
        sl = slice(0, vectorised)
        vec = np.asarray(values[n - 2][:, sl] * weights[n - 2][:, sl], ot)
        vec = np.asarray(kernels.fma(values[n - 1][:, sl], weights[n - 1][:, sl], vec), ot)
        for k in range(n - 3, -1, -1):
            vec = np.asarray(kernels.fma(values[k][:, sl], weights[k][:, sl], vec), ot)
        scalar[:, sl] = vec
    return scalar


class UpsampleSpec:
    __slots__ = ("mode", "out", "align_corners", "scales", "in_shape")

    def __init__(self, mode, out, align_corners, scales, in_shape):
        self.mode, self.out, self.align_corners, self.scales, self.in_shape = \
            mode, tuple(out), align_corners, tuple(scales), tuple(in_shape)


def _forward(x: np.ndarray, spec: UpsampleSpec) -> np.ndarray:
    ot = _math_type(x.dtype)
    nd = x.ndim - 2
    mode = spec.mode
    if mode in ("nearest", "nearest-exact"):
        exact = mode == "nearest-exact"
        if _channels_last_kernel(x, spec.out):
            index = [_nearest_idx(x.shape[2 + d], spec.out[d], spec.scales[d], exact) for d in range(nd)]
        else:
            index = [_nearest_forward_index(x.shape[2 + d], spec.out[d], spec.scales[d], exact, ot)
                     for d in range(nd)]
        out = x
        for d in range(nd):
            out = np.take(out, index[d], axis=2 + d)
        return np.ascontiguousarray(out)
    if mode == "bicubic":
        taps = []
        for d in range(nd):
            indices, coeffs = _cubic_taps(x.shape[2 + d], spec.out[d], spec.align_corners, spec.scales[d], ot)
            taps.append([(i, c.astype(x.dtype)) for i, c in zip(indices, coeffs)])
        return _separable(x, taps, 2, True)
    if x.ndim in (4, 5) and (_channels_last_kernel(x, spec.out)
                             or (x.ndim == 4 and loops.THREADS == 1 and x.shape[1] == 3)):
        return _linear_channels_last(x, spec)
    taps = []
    for d in range(nd):
        i0, i1, l0, l1 = _linear_taps(x.shape[2 + d], spec.out[d], spec.align_corners, spec.scales[d], ot)
        taps.append([(i0, l0.astype(x.dtype)), (i1, l1.astype(x.dtype))])
    return _separable(x, taps, 2, True)


# -- backward ---------------------------------------------------------------------------------------------------

def _accumulate(grad: np.ndarray, in_shape: tuple, targets, sources, term):
    """Add each contribution (target input position, source output position, value from `term`) into the input
    gradient in the order given — the kernels' order — as one sequential sum per target: contributions are
    grouped by their rank among the target's, and each rank is added at once (its targets are distinct)."""
    lead = int(np.prod(in_shape[:2]))
    g = grad.reshape(lead, -1)
    gin = np.zeros((lead, int(np.prod(in_shape[2:]))), dtype=grad.dtype)
    targets = np.asarray(targets, np.int64)
    k = targets.size
    if k:
        order = np.argsort(targets, kind="stable")
        sorted_t = targets[order]
        starts = np.flatnonzero(np.r_[True, sorted_t[1:] != sorted_t[:-1]])
        counts = np.diff(np.r_[starts, k])
        rank = np.empty(k, np.int64)
        rank[order] = np.arange(k) - np.repeat(starts, counts)
        for r in range(int(rank.max()) + 1):
            sel = np.flatnonzero(rank == r)
            tgt = targets[sel]
            gin[:, tgt] = term(gin[:, tgt], g[:, sources[sel]], sel)
    return gin.reshape(in_shape)


def _backward(g: np.ndarray, spec: UpsampleSpec) -> np.ndarray:
    in_shape = spec.in_shape
    nd = len(in_shape) - 2
    ins, outs = in_shape[2:], spec.out
    dt = g.dtype
    ot = dt.type
    out_positions = np.arange(int(np.prod(outs))).reshape(outs)
    in_strides = [int(np.prod(ins[d + 1:])) for d in range(nd)]
    mode = spec.mode
    if mode in ("nearest", "nearest-exact"):
        index = [_nearest_idx(ins[d], outs[d], spec.scales[d], mode == "nearest-exact") for d in range(nd)]
        grids = np.meshgrid(*index, indexing="ij")
        targets = sum(grid * s for grid, s in zip(grids, in_strides)).ravel()
        return _accumulate(g, in_shape, targets, out_positions.ravel(), lambda acc, gs, sel: acc + gs)
    if mode == "bicubic":
        if tuple(ins) == tuple(outs):
            return g.reshape(in_shape).copy()
        (yi, yc), (xi, xc) = (_cubic_taps(ins[d], outs[d], spec.align_corners, spec.scales[d], ot, False)
                              for d in range(2))
        oh, ow = outs
        # per output (y, x): for ii (x tap), jj (y tap): += (g * yc[jj]) * xc[ii]
        t = np.empty((oh, ow, 4, 4), np.int64)
        wy = np.empty((oh, ow, 4, 4), dt)
        wx = np.empty((oh, ow, 4, 4), dt)
        for ii in range(4):
            for jj in range(4):
                t[:, :, ii, jj] = yi[jj][:, None] * ins[1] + xi[ii][None, :]
                wy[:, :, ii, jj] = yc[jj][:, None]
                wx[:, :, ii, jj] = xc[ii][None, :]
        sources = np.repeat(out_positions.ravel(), 16)
        wy, wx = wy.ravel(), wx.ravel()
        return _accumulate(g, in_shape, t.ravel(), sources,
                           lambda acc, gs, sel: acc + ((gs * wy[sel]).astype(dt) * wx[sel]).astype(dt))
    taps = [_linear_taps(ins[d], outs[d], spec.align_corners, spec.scales[d], ot) for d in range(nd)]
    corners = list(np.ndindex(*(2,) * nd))
    targets = np.empty(outs + (len(corners),), np.int64)
    weights = np.empty(outs + (len(corners),), dt)
    for c, corner in enumerate(corners):
        tgt = 0
        w = None
        for d, side in enumerate(corner):
            i0, i1, l0, l1 = taps[d]
            tgt = tgt + _along((i1 if side else i0) * in_strides[d], d, nd)
            lam = _along((l1 if side else l0).astype(dt), d, nd)
            w = lam if w is None else (w * lam).astype(dt)
        targets[..., c] = tgt
        weights[..., c] = w
    sources = np.repeat(out_positions.ravel(), len(corners))
    weights = weights.ravel()
    return _accumulate(g, in_shape, targets.ravel(), sources,
                       lambda acc, gs, sel: np.asarray(kernels.fma(weights[sel], gs, acc), dt))


class Upsample(Function):
    __slots__ = ()
    name = "UpsampleNearest2DBackward0"
    saves = ()

    @staticmethod
    def forward(ctx, x, spec):
        ctx.aux = spec
        return _forward(x, spec)

    @staticmethod
    def backward(ctx, g):
        spec = ctx.aux
        if isinstance(g, Tensor):  # create_graph: upsample_*_backward as a node, differentiable again
            return _grad_class(spec.mode, len(spec.in_shape) - 2).apply(g, spec),
        return _backward(np.ascontiguousarray(g), spec),


class UpsampleGrad(Function):
    """upsample_*_backward: the input gradient of an interpolation.  It is linear in the gradient, and its own
    gradient is the interpolation of the incoming one (derivatives.yaml: upsample_bilinear2d(grad, ...))."""

    __slots__ = ()
    name = "UpsampleNearest2DBackwardBackward0"
    saves = ()

    @staticmethod
    def forward(ctx, g, spec):
        ctx.aux = spec
        return _backward(np.ascontiguousarray(g), spec)

    @staticmethod
    def backward(ctx, gg):
        spec = ctx.aux
        if isinstance(gg, Tensor):
            return _node_class(spec.mode, len(spec.in_shape) - 2).apply(gg, spec),
        return _forward(np.ascontiguousarray(gg), spec),


_NAMES = {"nearest": "UpsampleNearest{}DBackward0", "nearest-exact": "UpsampleNearestExact{}DBackward0",
          "linear": "UpsampleLinear1DBackward0", "bilinear": "UpsampleBilinear2DBackward0",
          "trilinear": "UpsampleTrilinear3DBackward0", "bicubic": "UpsampleBicubic2DBackward0"}
_CLASSES: dict = {}


def _node_class(mode: str, nd: int):
    name = _NAMES[mode].format(nd)
    if name not in _CLASSES:
        _CLASSES[name] = type(name.replace("Backward0", ""), (Upsample,), {"__slots__": (), "name": name})
    return _CLASSES[name]


def _grad_class(mode: str, nd: int):
    name = _NAMES[mode].format(nd).replace("Backward0", "BackwardBackward0")
    if name not in _CLASSES:
        _CLASSES[name] = type(name.replace("Backward0", ""), (UpsampleGrad,), {"__slots__": (), "name": name})
    return _CLASSES[name]


# -- F.interpolate ----------------------------------------------------------------------------------------------

def _is_integer(v) -> bool:
    return isinstance(v, numbers.Integral) or (isinstance(v, Tensor) and v.array.dtype.kind in "iu" and v.ndim == 0)


def _output_size(input, size, scale_factor, mode, recompute_scale_factor):
    """(output sizes, scales passed to the kernel), with torch.nn.functional.interpolate's checks."""
    dim = input.ndim - 2
    if size is not None and scale_factor is not None:
        raise TorchValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise TorchValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(input.shape[2:])} and output size of {size!r}. Please provide input "
                    "tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(s) for s in size):
                raise TorchTypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], but "
                    f"got size with types [{', '.join(_type_repr(s) for s in size)}]")
            output_size = [int(val(s)) for s in size]
        else:
            output_size = [int(val(size))] * dim
        scale_factors = None
    elif scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise TorchValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor!r}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, "
                    "...,sK) format.")
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor)] * dim
        output_size = None
    else:
        raise TorchValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise TorchValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(input.shape[i + 2] * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if output_size is None:  # compute_output_size in C++: the product in double, truncated (checked_convert)
        output_size = [_to_int64(float(input.shape[i + 2]) * scale_factors[i]) for i in range(dim)]
    return output_size, scale_factors


def _to_int64(v: float) -> int:
    if not (-2.0 ** 63 <= v < 2.0 ** 63):  # also nan
        raise TorchRuntimeError("value cannot be converted to type int64_t without overflow")
    return int(v)


def _type_repr(v):
    return f"<class '{type(v).__name__}'>"


def _check_sizes(input, output_size):
    nd = input.ndim - 2
    ins = input.shape[2:]
    letters = ("W",) if nd == 1 else ("H", "W") if nd == 2 else ("D", "H", "W")
    if nd == 1:
        if not (ins[0] > 0 and output_size[0] > 0):
            raise TorchRuntimeError(f"Input and output sizes should be greater than 0, but got input (W: {ins[0]}) "
                                    f"and output (W: {output_size[0]})")
        return
    if not (all(s > 0 for s in ins) and all(s > 0 for s in output_size)):
        inp = ", ".join(f"{a}: {s}" for a, s in zip(letters, ins))
        out = ", ".join(f"{a}: {s}" for a, s in zip(letters, output_size))
        raise TorchRuntimeError(f"Input and output sizes should be greater than 0, but got input ({inp}) "
                                f"output ({out})")


def _interpolate_shape(input, size=None, scale_factor=None, mode="nearest", *args, **kwargs):
    try:
        out, _ = _output_size(input, size, scale_factor, mode, kwargs.get("recompute_scale_factor"))
        return tuple(input.shape[:2]) + tuple(out)
    except Exception:  # bad arguments: the op itself reports them
        return tuple(input.shape)


_SUPPORTED = {3: ("nearest", "nearest-exact", "area", "linear"),
              4: ("nearest", "nearest-exact", "area", "bilinear", "bicubic"),
              5: ("nearest", "nearest-exact", "area", "trilinear")}
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}


@_functional("interpolate", "interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None, "
             "recompute_scale_factor=None, antialias=False)",
             "resize the spatial dims: nearest, nearest-exact, linear, bilinear, bicubic, trilinear or area",
             result_shape=_interpolate_shape)
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    if not isinstance(input, Tensor):
        raise TorchTypeError(f"interpolate(): argument 'input' must be Tensor, not {type(input).__name__}")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise TorchValueError("align_corners option can only be set with the interpolating modes: "
                                  "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    output_size, scale_factors = _output_size(input, size, scale_factor, mode, recompute_scale_factor)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise TorchValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires "
                              "a 4-D tensor as input")
    nd = input.ndim
    if nd in _SUPPORTED and mode in _SUPPORTED[nd]:
        if antialias:
            raise TorchValueError("gradcli run has no antialias=True (torch's _upsample_bilinear2d_aa / "
                                  "_upsample_bicubic2d_aa): interpolate without it")
        if mode == "area":
            return _area(input, output_size)
        x = input.array
        _check_sizes(input, output_size)
        _check_dtype(x, mode, output_size)
        if x.size == 0 and any(s == 0 for s in x.shape[1:]):
            raise TorchRuntimeError(f"Non-empty {nd}D data tensor expected but got a tensor with sizes "
                                    f"{list(x.shape)}")
        scales = scale_factors if scale_factors is not None else [None] * (nd - 2)
        spec = UpsampleSpec(mode, output_size, bool(align_corners), scales, x.shape)
        return _node_class(mode, nd - 2).apply(input, spec)
    if mode == "lanczos" and nd == 4:
        if align_corners:
            raise TorchValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise TorchValueError("Lanczos mode requires antialias=True")
        raise TorchValueError("gradcli run has no lanczos mode (torch's _upsample_lanczos2d_aa): use bicubic")
    if mode in _NEEDS and nd in (3, 4, 5):
        raise TorchNotImplementedError(f"Got {nd}D input, but {mode} mode needs {_NEEDS[mode]}D input")
    if mode == "bicubic" and nd in (3, 5):
        raise TorchNotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported"
                                       f" (got {nd}D) for the modes: nearest | linear | bilinear | bicubic | trilinear"
                                       f" | lanczos | area | nearest-exact (got {mode})")
    raise TorchNotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported"
                                   f" (got {nd}D) for the modes: nearest | linear | bilinear | bicubic | trilinear"
                                   f" | lanczos | area | nearest-exact (got {mode})")


def _check_dtype(x: np.ndarray, mode: str, output_size) -> None:
    """The dtypes ATen's kernels dispatch on: floating types, and uint8 for the nearest modes; the error names
    the dispatch that refuses (the channels-last kernel's, or the generic kernel's index computation)."""
    if x.dtype.kind == "f" or (x.dtype == np.uint8 and mode in ("nearest", "nearest-exact")):
        return
    if x.dtype == np.uint8:
        raise TorchNotImplementedError(f"gradcli run has no {mode} interpolation of uint8 images (torch's integer "
                                       "weights): convert with .float() first")
    title = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "bool": "Bool"}.get(str(x.dtype),
                                                                                                  str(x.dtype))
    if _channels_last_kernel(x, tuple(output_size)) and mode in ("nearest", "nearest-exact", "bilinear"):
        kind = "bilinear2d" if mode == "bilinear" else f"nearest{x.ndim - 2}d"
        name = f"upsample_{kind}_channels_last"
    else:
        name = "compute_indices_weights_" + {"nearest-exact": "nearest", "bilinear": "linear",
                                               "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    raise TorchNotImplementedError(f"\"{name}\" not implemented for '{title}'")


def _area(input, output_size):
    """mode='area': adaptive average pooling (adaptive_avg_pool1d is the 2-D kernel on an unsqueezed input)."""
    if input.ndim == 4:
        return REGISTRY["adaptive_avg_pool2d"].fn(input, output_size)
    if input.ndim == 3:
        return REGISTRY["adaptive_avg_pool2d"].fn(input.unsqueeze(-2), (1, output_size[0])).squeeze(-2)
    return adaptive_avg_pool3d(input, tuple(output_size))


def _bounds(out_size: int, in_size: int) -> list:
    return [(math.floor(o * in_size / out_size), math.ceil((o + 1) * in_size / out_size)) for o in range(out_size)]


class AdaptiveAvgPool3d(Function):
    """ATen's cpu_adaptive_avg_pool3d: each window summed in (d, h, w) order in the input's dtype, divided by
    its depth, height and width in turn; the gradient adds grad / kd / kh / kw to each element of each window."""

    __slots__ = ()
    name = "AdaptiveAvgPool3DBackward0"
    saves = ()

    @staticmethod
    def forward(ctx, x, out_dhw):
        bounds = [_bounds(out_dhw[i], x.shape[-3 + i]) for i in range(3)]
        ctx.aux = (bounds, x.shape)
        out = np.empty(x.shape[:-3] + tuple(out_dhw), dtype=x.dtype)
        t = x.dtype.type
        for od, (d0, d1) in enumerate(bounds[0]):
            for oh, (h0, h1) in enumerate(bounds[1]):
                for ow, (w0, w1) in enumerate(bounds[2]):
                    acc = np.zeros(x.shape[:-3], dtype=x.dtype)
                    for i in range(d0, d1):
                        for j in range(h0, h1):
                            for k in range(w0, w1):
                                acc = acc + x[..., i, j, k]
                    out[..., od, oh, ow] = acc / t(d1 - d0) / t(h1 - h0) / t(w1 - w0)
        return out

    @staticmethod
    def backward(ctx, g):
        if isinstance(g, Tensor):
            raise TorchNotImplementedError("gradcli does not differentiate adaptive_avg_pool3d twice")
        bounds, shape = ctx.aux
        grad = np.zeros(shape, dtype=g.dtype)
        t = g.dtype.type
        for od, (d0, d1) in enumerate(bounds[0]):
            for oh, (h0, h1) in enumerate(bounds[1]):
                for ow, (w0, w1) in enumerate(bounds[2]):
                    delta = g[..., od, oh, ow] / t(d1 - d0) / t(h1 - h0) / t(w1 - w0)
                    for i in range(d0, d1):
                        for j in range(h0, h1):
                            for k in range(w0, w1):
                                grad[..., i, j, k] += delta
        return grad,


def _adaptive3d_shape(input, output_size):
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    return tuple(input.shape[:-3]) + tuple(input.shape[-3 + i] if v is None else int(v) for i, v in enumerate(sizes))


@_functional("adaptive_avg_pool3d", "adaptive_avg_pool3d(input, output_size)",
             "average over windows that split the last three dims into output_size parts",
             result_shape=_adaptive3d_shape)
def adaptive_avg_pool3d(input, output_size):
    if input.ndim not in (4, 5) or any(s == 0 for s in input.shape[-3:]):
        raise TorchRuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(input.shape)}")
    out_dhw = _adaptive3d_shape(input, output_size)[-3:]
    if out_dhw == (1, 1, 1):  # ATen: input.mean({-1, -2, -3}, keepdim=True)
        return REGISTRY["mean"].fn(input, dim=(-1, -2, -3), keepdim=True)
    return AdaptiveAvgPool3d.apply(input, out_dhw)


@_functional("upsample", "upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None)",
             "the deprecated name of interpolate", result_shape=_interpolate_shape)
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    state.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", UserWarning,
               stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


@_functional("upsample_nearest", "upsample_nearest(input, size=None, scale_factor=None)",
             "the deprecated interpolate(..., mode='nearest')", result_shape=_interpolate_shape)
def upsample_nearest(input, size=None, scale_factor=None):
    state.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.", UserWarning,
               stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


@_functional("upsample_bilinear", "upsample_bilinear(input, size=None, scale_factor=None)",
             "the deprecated interpolate(..., mode='bilinear', align_corners=True)", result_shape=_interpolate_shape)
def upsample_bilinear(input, size=None, scale_factor=None):
    state.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.", UserWarning,
               stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
