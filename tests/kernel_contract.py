"""The fidelity contract of the elementwise kernels (docs/deviations.md, "Kernels: fast by default, torch's bits
on request"): the kernels it covers, and the most ulps from PyTorch 2.13's result each may be in the default
(fast) mode and with --bits torch.  The numbers are the maxima scripts/make_kernel_contract.py measured over
200,000 random and special arguments per op and dtype; tests/engine/test_kernel_contract.py asserts them on
the arguments it kept (tests/goldens/kernel_contract.json.gz) and that docs/deviations.md states the same."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Case:
    domain: tuple[float, float]
    gradcli: object  # (gradcli.engine, Tensor) -> Tensor
    torch: object  # (torch, tensor) -> tensor
    grad: bool = False  # the gradient of .sum() (a backward formula), not the value


def _op(name):
    def call(E, t, *args):
        fn = getattr(E.ops, name, None) or E.ops.REGISTRY[name].fn
        return fn(t, *args)
    return call


def _unary(name, domain, torch_name=None, grad=False):
    op = _op(name)
    torch_name = torch_name or name

    def torch_call(T, t):
        fn = getattr(T, torch_name, None) or getattr(T.nn.functional, torch_name)
        return fn(t)

    return Case(domain, lambda E, t: op(E, t), torch_call, grad)


CASES = {
    "exp": _unary("exp", (-110.0, 110.0)),
    "expm1": _unary("expm1", (-50.0, 90.0)),
    "exp2": _unary("exp2", (-150.0, 130.0)),
    "log": _unary("log", (0.0, 1e6)),
    "log2": _unary("log2", (0.0, 1e6)),
    "log10": _unary("log10", (0.0, 1e6)),
    "log1p": _unary("log1p", (-1.0, 1e6)),
    "sqrt": _unary("sqrt", (0.0, 1e6)),
    "rsqrt": _unary("rsqrt", (0.0, 1e6)),
    "sin": _unary("sin", (-1e4, 1e4)),
    "cos": _unary("cos", (-1e4, 1e4)),
    "tan": _unary("tan", (-10.0, 10.0)),
    "tanh": _unary("tanh", (-20.0, 20.0)),
    "sinh": _unary("sinh", (-88.0, 88.0)),  # float32: torch's overflows to inf from |x| = 88.7 (exp(x) / 2)
    "cosh": _unary("cosh", (-88.0, 88.0)),
    "acos": _unary("acos", (-1.0, 1.0)),
    "atan": _unary("atan", (-1e4, 1e4)),
    "atanh": _unary("atanh", (-1.0, 1.0)),
    "sigmoid": _unary("sigmoid", (-120.0, 120.0)),
    "silu": _unary("silu", (-120.0, 120.0)),
    "pow 1.7": Case((0.0, 1e4), lambda E, t: _op("pow")(E, t, 1.7), lambda T, t: T.pow(t, 1.7)),
    "pow x**x": Case((0.0, 30.0), lambda E, t: _op("pow")(E, t, t), lambda T, t: T.pow(t, t)),
    "tanh backward": _unary("tanh", (-20.0, 20.0), grad=True),
    "sigmoid backward": _unary("sigmoid", (-120.0, 120.0), grad=True),
    "silu backward": _unary("silu", (-120.0, 120.0), grad=True),
    "erf": _unary("erf", (-10.0, 10.0)),
    "erfc": _unary("erfc", (-10.0, 27.0)),
    "erfinv": _unary("erfinv", (-1.0, 1.0)),
    "lgamma": _unary("lgamma", (0.0, 1000.0)),  # x <= 0: the C library in both modes (see the rows above)
    "digamma": _unary("digamma", (-10.0, 100.0)),
}

# the most ulps from torch's result, per "op/dtype"; TORCH_ULPS lists where --bits torch is not 0 (the kernels
# gradcli does not emulate: numpy's or the correctly rounded value stands in)
FAST_ULPS: dict[str, int] = {
    "exp/float32": 2, "exp/float64": 1, "expm1/float32": 1, "expm1/float64": 1, "exp2/float32": 3,
    "exp2/float64": 1, "log/float32": 1, "log/float64": 1, "log2/float32": 2, "log2/float64": 1,
    "log10/float32": 1, "log10/float64": 1, "log1p/float32": 2, "log1p/float64": 1, "sqrt/float32": 1,
    "sqrt/float64": 1, "rsqrt/float32": 0, "rsqrt/float64": 0, "sin/float32": 1, "sin/float64": 1,
    "cos/float32": 1, "cos/float64": 1, "tan/float32": 1, "tan/float64": 1, "tanh/float32": 1, "tanh/float64": 1,
    "sinh/float32": 1, "sinh/float64": 1, "cosh/float32": 2, "cosh/float64": 1, "acos/float32": 1,
    "acos/float64": 1, "atan/float32": 1, "atan/float64": 1, "atanh/float32": 1, "atanh/float64": 1,
    "sigmoid/float32": 4, "sigmoid/float64": 4, "silu/float32": 4, "silu/float64": 3, "pow 1.7/float32": 1,
    "pow 1.7/float64": 1, "pow x**x/float32": 1, "pow x**x/float64": 1, "tanh backward/float32": 1,
    "tanh backward/float64": 1, "sigmoid backward/float32": 1, "sigmoid backward/float64": 1,
    "silu backward/float32": 5, "silu backward/float64": 5, "erf/float32": 2, "erf/float64": 2, "erfc/float32": 4,
    "erfc/float64": 6, "erfinv/float32": 3, "erfinv/float64": 2, "lgamma/float32": 10, "lgamma/float64": 6,
    "digamma/float32": 64, "digamma/float64": 32,
}
TORCH_ULPS: dict[str, int] = {
    "expm1/float32": 1, "expm1/float64": 1, "exp2/float32": 1, "exp2/float64": 1, "log/float32": 1,
    "log/float64": 1, "log2/float32": 1, "log2/float64": 1, "log10/float32": 1, "log10/float64": 1,
    "log1p/float32": 1, "log1p/float64": 1, "sin/float64": 1, "cos/float64": 1, "tan/float32": 1, "tan/float64": 1,
    "tanh/float32": 1, "tanh/float64": 1, "sinh/float32": 1, "sinh/float64": 1, "cosh/float32": 1,
    "cosh/float64": 1, "acos/float32": 1, "acos/float64": 1, "atan/float32": 1, "atan/float64": 1,
    "atanh/float32": 1, "atanh/float64": 1, "pow 1.7/float64": 1, "pow x**x/float64": 1,
    "tanh backward/float32": 1, "tanh backward/float64": 1, "erf/float32": 1, "erf/float64": 1, "erfc/float32": 1,
    "erfc/float64": 3, "erfinv/float32": 1, "erfinv/float64": 2, "lgamma/float32": 1, "lgamma/float64": 2,
}


def ulps(got, expected, floor: float | None = None) -> np.ndarray:
    """Distance in steps of the dtype between two arrays of one float dtype; 0 for two nans, 0 for -0.0 and
    0.0 only when the bits agree (else 1), a large number when only one is nan.  With `floor`, finite values
    smaller than it are measured in steps of the dtype at `floor` (a gradient such as 1 - y*y, which cancels
    near |y| = 1, is measured at the scale of its terms: a 1-ulp difference of y there is 2**28 ulps of the
    result, one of 1)."""
    got, expected = np.asarray(got), np.asarray(expected)
    if floor is not None:
        near = ulps(got, expected)
        with np.errstate(all="ignore"):
            scale = np.spacing(np.maximum(np.abs(expected), expected.dtype.type(floor)))
            absolute = np.ceil(np.abs(got.astype(np.float64) - expected.astype(np.float64)) / scale)
        small = np.isfinite(got) & np.isfinite(expected) & (np.abs(expected) < floor)
        return np.where(small, np.minimum(near, absolute.astype(np.int64)), near)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, expected.dtype)
    itype = np.int32 if got.dtype == np.float32 else np.int64

    def ordered(a):
        bits = a.view(itype).astype(np.int64)
        return np.where(bits < 0, -(bits & np.iinfo(itype).max) - 1, bits)  # -0.0 one step below 0.0

    same = (got.view(itype) == expected.view(itype)) | (np.isnan(got) & np.isnan(expected))
    one_nan = np.isnan(got) != np.isnan(expected)
    with np.errstate(over="ignore"):
        distance = np.abs(ordered(got) - ordered(expected))
    return np.where(same, 0, np.where(one_nan, 1 << 40, distance))
