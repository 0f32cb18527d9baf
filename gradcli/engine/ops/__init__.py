"""Every op, defined once: importing this package attaches them to Tensor and fills the registry."""

import sys

from gradcli.engine import dual
from gradcli.engine.ops import (  # noqa: F401  (registration side effects)
    activations,
    aggregates,
    arith,
    binary,
    bucketing,
    compare,
    convert,
    ctc_loss,
    elementwise,
    elementwise_math,
    inplace,
    inplace_forms,
    join_split,
    linalg,
    losses,
    matrix_algebra,
    matrix_functions,
    method_forms,
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
from gradcli.engine.ops.registry import LINALG, REGISTRY, OpSpec, meta_guarded, register
from gradcli.engine.ops.shape import expand, getitem, permute, reshape, squeeze, t, transpose, unsqueeze, view
from gradcli.engine.tensor import Tensor

__all__ = [
    "REGISTRY", "LINALG", "OpSpec", "register",
    "add", "sub", "mul", "div", "neg", "pow", "reciprocal",
    "abs", "clamp", "cos", "exp", "log", "relu", "sigmoid", "sign", "sin", "sqrt", "tan", "tanh", "where",
    "matmul", "softmax", "log_softmax", "max", "mean", "min", "sum",
    "expand", "getitem", "permute", "reshape", "squeeze", "t", "transpose", "unsqueeze", "view",
    "logsigmoid", "softplus", "inverse", "linalg_solve_matrix", "cumprod", "cumsum", "cat", "flip",
]

# Tensor's operators that are not registry ops themselves: guarded for meta tensors as the registry's ops are
for _operator, (_name, _category) in {
        "__getitem__": ("getitem", "shape"), "__setitem__": ("setitem", "inplace"),
        "__rsub__": ("rsub", "arithmetic"), "__rtruediv__": ("div", "arithmetic"),
        "__rfloordiv__": ("floor_divide", "no-gradient"), "__rpow__": ("pow", "arithmetic"),
        "__rmod__": ("remainder", "elementwise"), "__rand__": ("bitwise_and", "comparison"),
        "__ror__": ("bitwise_or", "comparison"), "__rxor__": ("bitwise_xor", "comparison"),
        "__rmatmul__": ("rmatmul", "linalg"), "__pos__": ("positive", "arithmetic")}.items():
    setattr(Tensor, _operator, meta_guarded(_name, _category, getattr(Tensor, _operator)))
inplace.register_inplace_forms()  # after every op module: the in-place forms of the ops that exist

# the backward rules' helpers call these ops on Tensors under create_graph (dual cannot import this package)
dual.bind_tensor_ops(sys.modules[__name__])
