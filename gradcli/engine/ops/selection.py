"""Indices of elements: argmax, argmin, argsort (int64 results, no gradient), and torch.nn.functional.dropout
(its random mask drawn as PyTorch's CPU kernel draws it).

argmax/argmin take the first of tied extrema and let a nan win, as torch's CPU kernels; argsort is stable
and puts nans last ascending and first descending, as torch's sort.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine.errors import TorchIndexError, TorchRuntimeError, TorchValueError
from gradcli.engine.ops import arith
from gradcli.engine.ops.common import norm_dims
from gradcli.engine.ops.ordering import torch_sort_indices
from gradcli.engine.ops.reduction import argextremum
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def _index(values: np.ndarray) -> Tensor:
    return Tensor._make(np.asarray(values, dtype=np.int64), None)


def _arg(input: Tensor, dim, keepdim: bool, largest: bool, name: str) -> Tensor:
    x = input.array
    if x.dtype == np.bool_:
        raise TorchRuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if x.size == 0:
            raise TorchRuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        idx = argextremum(x.reshape(-1), 0, largest)
        return _index(np.reshape(idx, (1,) * x.ndim if keepdim else ()))
    if x.ndim == 0:
        norm_dims(dim, 0)
        return _index(np.zeros((), dtype=np.int64))
    d = norm_dims(dim, x.ndim)[0]
    if x.shape[d] == 0:
        raise TorchIndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    idx = argextremum(x, d, largest)
    return _index(np.expand_dims(idx, d) if keepdim else idx)


@register("argmax", sig="argmax(input, dim=None, keepdim=False)",
          doc="index of the largest element (the first of ties; a nan wins), over all or along dim",
          category="no-gradient")
def argmax(input, dim=None, keepdim=False, *, axis=None):
    return _arg(input, axis if dim is None else dim, keepdim, True, "argmax")


@register("argmin", sig="argmin(input, dim=None, keepdim=False)",
          doc="index of the smallest element (the first of ties; a nan wins), over all or along dim",
          category="no-gradient")
def argmin(input, dim=None, keepdim=False, *, axis=None):
    return _arg(input, axis if dim is None else dim, keepdim, False, "argmin")


@register("argsort", sig="argsort(input, dim=-1, descending=False, stable=False)",
          doc="indices that sort input along dim (ties as torch.sort leaves them; nan largest)",
          category="no-gradient")
def argsort(input, dim=-1, descending=False, stable=False, *, axis=None):
    x = input.array
    if x.ndim == 0:
        norm_dims(dim, 0)
        return _index(np.zeros((), dtype=np.int64))
    d = norm_dims(axis if axis is not None else dim, x.ndim)[0]
    return _index(torch_sort_indices(x, d, descending, bool(stable)))


@register("dropout", sig="dropout(input, p=0.5, training=True, inplace=False)",
          doc="zero each element with probability p (PyTorch's generator), scale the rest by 1/(1-p)",
          category="random", torch=True, method=False, functional=True)
def dropout(input, p=0.5, training=True, inplace=False):
    """torch's CPU dropout: the input itself when not training (or p == 0); else a mask drawn by
    bernoulli_(1 - p) on an empty_like tensor, divided in place by 1 - p, and multiplied in."""
    if p < 0.0 or p > 1.0:
        raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input.array.size == 0:
        return input
    if p == 1:
        noise = Tensor._make(np.zeros((), dtype=input.array.dtype), None)
    else:
        noise = Tensor._make(np.empty_like(input.array), None)
        noise.bernoulli_(1 - p)
        noise.array /= noise.array.dtype.type(1 - p)
    if inplace:
        return input.mul_(noise)
    return arith.mul(input, noise)
