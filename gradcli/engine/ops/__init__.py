"""Every op, defined once: importing this package attaches them to Tensor and fills the registry."""

import sys

from gradcli.engine import dual
from gradcli.engine.ops import (  # noqa: F401  (registration side effects)
    activations,
    aggregates,
    angles_signs,
    arith,
    binary,
    bucketing,
    compare,
    convert,
    elementwise,
    elementwise_math,
    inplace,
    inplace_forms,
    join_split,
    linalg,
    losses,
    matrix_algebra,
    matrix_functions,
    namespace_functions,
    nn,
    nn_functional,
    nn_linear,
    ordering,
    products,
    rearrange,
    reduction,
    selection,
    shape,
    special,
    summaries,
    svd,
    tensor_methods,
    trilinear,
    upsample,
)
from gradcli.engine.ops.activations import logsigmoid, softplus
from gradcli.engine.ops.aggregates import cumprod, cumsum
from gradcli.engine.ops.arith import add, div, mul, neg, pow, reciprocal, sub
from gradcli.engine.ops.elementwise import abs, clamp, cos, exp, log, relu, sigmoid, sign, sin, sqrt, tan, tanh, where
from gradcli.engine.ops.join_split import cat, flip
from gradcli.engine.ops.linalg import matmul
from gradcli.engine.ops.matrix_algebra import inverse, linalg_solve_matrix
from gradcli.engine.ops.nn import log_softmax, softmax
from gradcli.engine.ops.reduction import max, mean, min, sum
from gradcli.engine.ops.registry import LINALG, REGISTRY, OpSpec, register
from gradcli.engine.ops.shape import expand, getitem, permute, reshape, squeeze, t, transpose, unsqueeze, view

__all__ = [
    "REGISTRY", "LINALG", "OpSpec", "register",
    "add", "sub", "mul", "div", "neg", "pow", "reciprocal",
    "abs", "clamp", "cos", "exp", "log", "relu", "sigmoid", "sign", "sin", "sqrt", "tan", "tanh", "where",
    "matmul", "softmax", "log_softmax", "max", "mean", "min", "sum",
    "expand", "getitem", "permute", "reshape", "squeeze", "t", "transpose", "unsqueeze", "view",
    "logsigmoid", "softplus", "inverse", "linalg_solve_matrix", "cumprod", "cumsum", "cat", "flip",
]

# the backward rules' helpers call these ops on Tensors under create_graph (dual cannot import this package)
dual.bind_tensor_ops(sys.modules[__name__])
