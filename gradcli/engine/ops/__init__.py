"""Every op, defined once: importing this package attaches them to Tensor and fills the registry."""

from . import arith, compare, elementwise, inplace, linalg, nn, reduction, shape  # noqa: F401  (registration side effects)
from .arith import add, div, mul, neg, pow, reciprocal, sub
from .elementwise import abs, clamp, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tan, tanh, where
from .linalg import matmul
from .nn import log_softmax, softmax
from .reduction import max, mean, min, sum
from .registry import LINALG, REGISTRY, OpSpec, register
from .shape import expand, getitem, permute, reshape, squeeze, t, transpose, unsqueeze, view

__all__ = [
    "REGISTRY", "LINALG", "OpSpec", "register",
    "add", "sub", "mul", "div", "neg", "pow", "reciprocal",
    "abs", "clamp", "cos", "exp", "log", "relu", "sigmoid", "sign", "sin", "sqrt", "tan", "tanh", "where",
    "matmul", "softmax", "log_softmax", "max", "mean", "min", "sum",
    "expand", "getitem", "permute", "reshape", "squeeze", "t", "transpose", "unsqueeze", "view",
]
