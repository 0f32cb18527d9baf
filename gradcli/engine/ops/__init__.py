"""Every op, defined once: importing this package attaches them to Tensor and fills the registry."""

from . import (  # noqa: F401  (registration side effects)
    activations,
    arith,
    compare,
    convert,
    elementwise,
    elementwise_extra,
    inplace,
    linalg,
    linalg_full,
    losses,
    nn,
    nn_extra,
    reduction,
    reduction_extra,
    shape,
    shape_extra,
)
from .activations import logsigmoid, softplus
from .arith import add, div, mul, neg, pow, reciprocal, sub
from .elementwise import abs, clamp, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tan, tanh, where
from .linalg import matmul
from .linalg_full import inverse, linalg_solve_matrix
from .nn import log_softmax, softmax
from .reduction import max, mean, min, sum
from .reduction_extra import cumprod, cumsum
from .registry import LINALG, REGISTRY, OpSpec, register
from .shape import expand, getitem, permute, reshape, squeeze, t, transpose, unsqueeze, view
from .shape_extra import cat, flip

__all__ = [
    "REGISTRY", "LINALG", "OpSpec", "register",
    "add", "sub", "mul", "div", "neg", "pow", "reciprocal",
    "abs", "clamp", "cos", "exp", "log", "relu", "sigmoid", "sign", "sin", "sqrt", "tan", "tanh", "where",
    "matmul", "softmax", "log_softmax", "max", "mean", "min", "sum",
    "expand", "getitem", "permute", "reshape", "squeeze", "t", "transpose", "unsqueeze", "view",
    "logsigmoid", "softplus", "inverse", "linalg_solve_matrix", "cumprod", "cumsum", "cat", "flip",
]
