"""torch's window functions (aten/src/ATen/native/TensorFactories.cpp), step by step in the window's dtype as
ATen computes them in place: hann / hamming (arange, times 2 pi / (N - 1), cos, times -beta, plus alpha), bartlett
and blackman; periodic windows are the first N of N + 1."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, kernels
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.tensor import Tensor

C_TYPE_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                "uint8": "unsigned char", "bool": "bool"}  # how TensorOptions prints a dtype


def _checks(name: str, window_length, dtype):
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TorchTypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                             f"{type(window_length).__name__}")
    if window_length < 0:
        raise TorchRuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    dtype = dtypes.get_default_dtype() if dtype is None else dtype
    if not dtype.is_floating_point:
        c_name = C_TYPE_NAMES.get(dtype.name, dtype.name)
        raise TorchRuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={c_name}, "
                                "device=cpu, layout=Strided (default), requires_grad=false (default), "
                                "pinned_memory=false, memory_format=(nullopt))")
    return int(window_length), dtype.np


def _finish(window: np.ndarray, periodic: bool, requires_grad: bool) -> Tensor:
    out = Tensor._make(np.ascontiguousarray(window[:-1] if periodic else window), None)
    return out.requires_grad_(True) if requires_grad else out


def _trivial(n: int, np_dtype, requires_grad: bool):
    if n == 0 or n == 1:
        out = Tensor._make(np.ones(n, np_dtype), None)
        return out.requires_grad_(True) if requires_grad else out
    return None


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False, _name="hamming_window"):
    n, np_dtype = _checks(_name, window_length, dtype)
    if (early := _trivial(n, np_dtype, requires_grad)) is not None:
        return early
    n += 1 if periodic else 0
    t = np_dtype.type
    window = np.arange(n, dtype=np_dtype) * t(math.pi * 2.0 / (n - 1))
    window = kernels.cos(window) * t(-beta) + t(alpha)
    return _finish(window, periodic, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, requires_grad=requires_grad,
                          _name="hann_window")


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    n, np_dtype = _checks("bartlett_window", window_length, dtype)
    if (early := _trivial(n, np_dtype, requires_grad)) is not None:
        return early
    n += 1 if periodic else 0
    t = np_dtype.type
    window = np.arange(n, dtype=np_dtype) * t(2.0 / (n - 1))
    first_half = ((n - 1) >> 1) + 1
    window[first_half:] = window[first_half:] * t(-1) + t(2)
    return _finish(window, periodic, requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    n, np_dtype = _checks("blackman_window", window_length, dtype)
    if (early := _trivial(n, np_dtype, requires_grad)) is not None:
        return early
    n += 1 if periodic else 0
    t = np_dtype.type
    window = np.arange(n, dtype=np_dtype) * t(math.pi / (n - 1))
    window = (kernels.cos(window * t(4)) * t(0.08) - kernels.cos(window * t(2)) * t(0.5)) + t(0.42)
    return _finish(window, periodic, requires_grad)


WINDOWS = {fn.__name__: fn for fn in (hann_window, hamming_window, bartlett_window, blackman_window)}
