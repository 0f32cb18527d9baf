"""F.bilinear (nn.Bilinear) as ATen computes it (aten/src/ATen/native/Linear.cpp): the inputs flattened to
matrices, at::_trilinear(input1, weight, input2, {1, 3}, {0}, {1, 2}, {2, 3}) reshaped back, then `+ bias`.

_trilinear unsqueezes its three operands to a common rank, loops over the unrolled dim (1: the output
features), and for each slice multiplies the first two operands and then the third with sumproduct_pair — a
permute, a reshape and a bmm — adding each slice's product into a zero output.  Its backward is _trilinear
again with the roles of the dims exchanged (_trilinear_backward), so the gradients sum in torch's order too.
Each bmm is ATen's routing (kernels.blas: its small-product loop, or MKL's gemm per batch item with the
operands' strides); without MKL numpy's matmul computes the larger ones (docs/deviations.md).
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchIndexError, TorchRuntimeError
from gradcli.engine.kernels import blas
from gradcli.engine.ops import arith, shape
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def _strided(x, shape_, strides):
    return np.lib.stride_tricks.as_strided(x, tuple(shape_), tuple(int(s) * x.itemsize for s in strides),
                                           writeable=False)


def _unsqueeze(x, dim):
    """Tensor::unsqueeze's geometry: the new dim's stride is size * stride of the dim it precedes (1 at the end)."""
    strides = [s // x.itemsize for s in x.strides]
    stride = 1 if dim >= x.ndim else x.shape[dim] * strides[dim]
    return _strided(x, x.shape[:dim] + (1,) + x.shape[dim:], strides[:dim] + [stride] + strides[dim:])


def _narrow(x, dim, start):
    key = [slice(None)] * x.ndim
    key[dim] = slice(start, start + 1)
    return x[tuple(key)]


def _bmm(a, b):
    """at::bmm as _trilinear's sumproduct_pair reaches it: ATen's own loop under 400 multiply-adds per batch
    item; above, one mm per batch item (bmm's split-along-batch path).  Measured: torch 2.13's _trilinear takes
    that path for its products with more than one batch item (bilinear's input1 gradient: bit for bit on 40
    random shapes and the 44 goldens, where MKL's batched gemm differs on every shape it reaches), although
    torch.bmm called from Python on the same operands takes the batched gemm."""
    batch, rows, inner = a.shape
    if batch > 1 and rows * inner * b.shape[2] >= blas.SMALL_BMM:
        items = [blas.mm(a[q], b[q]) for q in range(batch)]
        if all(item is not None for item in items):
            return np.stack(items)
    out = blas.bmm(a, b)
    return np.matmul(a, b) if out is None else out


def sumproduct_pair(left, right, sum_dims, keepdim=True):
    """ATen's sumproduct_pair: left * right summed over sum_dims, as one bmm of permuted, reshaped operands."""
    if not sum_dims:
        return left * right
    dim = left.ndim
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise TorchRuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(axis=i, keepdims=True)
            elif sr:
                right = right.sum(axis=i, keepdims=True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise TorchRuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    sums = list(sum_dims)
    out_size = [left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sums) + \
        [right.shape[d] for d in ro]
    lperm = lro + lo + sums + ro
    rperm = lro + sums + ro + lo
    operm = [-1] * len(out_size)
    for position, d in enumerate(lro + lo + sums + ro):
        operm[d] = position
    a = blas.reshape(np.transpose(left, lperm), (lro_size, lo_size, sum_size))
    b = blas.reshape(np.transpose(right, rperm), (lro_size, sum_size, ro_size))
    result = _bmm(a, b).reshape(out_size).transpose(operm)
    return result


def trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """at::_trilinear on arrays."""
    total = i1.ndim + len(expand1)
    output_size = []
    sum_12, sum_23 = [], []
    unroll_size = -1
    for i in range(total):
        s = 0
        if i in expand1:
            i1 = _unsqueeze(i1, i)
        else:
            s = i1.shape[i]
        if i in expand2:
            i2 = _unsqueeze(i2, i)
        else:
            s = i2.shape[i]
        if i in expand3:
            i3 = _unsqueeze(i3, i)
            if i in sumdim and i != unroll_dim:
                sum_12.append(i)
        else:
            s = i3.shape[i]
            if i in sumdim and i != unroll_dim:
                sum_23.append(i)
        output_size.append(1 if i in sumdim else s)
        if i == unroll_dim:
            unroll_size = s
    m1, m2, m3 = (0 if unroll_dim in e else 1 for e in (expand1, expand2, expand3))
    output = np.zeros(output_size, dtype=np.result_type(i1, i2, i3))
    for k in range(unroll_size):
        buf = sumproduct_pair(_narrow(i1, unroll_dim, k * m1), _narrow(i2, unroll_dim, k * m2), sum_12)
        buf = sumproduct_pair(buf, _narrow(i3, unroll_dim, k * m3), sum_23)
        if unroll_dim in sumdim:
            output += buf
        else:
            _narrow(output, unroll_dim, k)[...] += buf  # a view of output: written in place
    for i in range(output.ndim - 1, -1, -1):
        if i in sumdim:
            output = output.squeeze(i)
    return output


class Trilinear(Function):
    __slots__ = ()
    name = "TrilinearBackward0"
    saves = (0, 1, 2)
    torch_edges = (0, 1, 2)  # the expand and sum dims are parameters

    @staticmethod
    def forward(ctx, i1, i2, i3, expand1, expand2, expand3, sumdim):
        ctx.aux = (expand1, expand2, expand3, sumdim)
        return trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim)

    @staticmethod
    def backward(ctx, g, i1, i2, i3):
        """_trilinear_backward: _trilinear again, the gradient in the place of each input in turn (so under
        create_graph each gradient is a _trilinear node itself, differentiable again)."""
        e1, e2, e3, sumdim = ctx.aux
        need = ctx.needs_input_grad
        run = Trilinear.apply if isinstance(g, Tensor) else trilinear
        if not isinstance(g, Tensor):
            g = np.ascontiguousarray(g)
        return (run(g, i2, i3, sumdim, e2, e3, e1) if need[0] else None,
                run(i1, g, i3, e1, sumdim, e3, e2) if need[1] else None,
                run(i1, i2, g, e1, e2, sumdim, e3) if need[2] else None)


def _bilinear_shape(input1, input2, weight, bias=None):
    return tuple(input1.shape[:-1]) + (weight.shape[0],) if weight.ndim else tuple(input1.shape)


@register("bilinear", sig="bilinear(input1, input2, weight, bias=None)",
          doc="x1^T W x2 + b for each output feature (weight: out x in1 x in2)", category="nn", torch=True,
          method=False, functional=True, result_shape=_bilinear_shape)
def bilinear(input1, input2, weight, bias=None):
    dtypes = [t.array.dtype for t in (input1, input2, weight) + (() if bias is None else (bias,))]
    if len(set(dtypes)) > 1:
        names = ("input1", "input2", "weight", "bias")
        raise TorchRuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{n}: {_dtype_name(d)}" for n, d in zip(names, dtypes)))
    if input1.ndim != input2.ndim:
        raise TorchRuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise TorchRuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got "
                                    f"{input1.shape[i]} and {input2.shape[i]}")
    w = tuple(weight.shape)
    if input1.shape[-1] != _size(w, 1):
        raise TorchRuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but "
                                f"expected {_size(w, 1)}")
    if input2.shape[-1] != _size(w, 2):
        raise TorchRuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but "
                                f"expected {_size(w, 2)}")
    if bias is not None and bias.shape[0] != w[0]:
        raise TorchRuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but "
                                f"expected {w[0]}")
    output_size = tuple(input1.shape[:-1]) + (w[0],)
    x1 = shape.reshape(input1, -1, input1.shape[-1])
    x2 = shape.reshape(input2, -1, input2.shape[-1])
    out = shape.reshape(Trilinear.apply(x1, weight, x2, (1, 3), (0,), (1, 2), (2, 3)), *output_size)
    return out if bias is None else arith.add(out, bias)


def _size(shape_, dim):
    if dim >= len(shape_):
        raise TorchIndexError(f"Dimension out of range (expected to be in range of [{-len(shape_)}, "
                              f"{len(shape_) - 1}], but got {dim})")
    return shape_[dim]


def _dtype_name(dtype) -> str:
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int"}.get(str(dtype),
                                                                                                      str(dtype))
