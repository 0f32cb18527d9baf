"""Generate tests/goldens/ops.json, the PyTorch reference values gradcli's tests compare against.

Each case is a PyTorch-style expression string plus specs for its inputs. The expression is evaluated
with torch in float64; the script records the output, each input's gradient, the grad_fn name and,
for elementwise and reduction ops, second derivatives. A few full Hessians go under "hessians".
The output is deterministic (per-case seeds, one thread). Dev-only: the test suite never imports torch.

    python scripts/make_op_goldens.py [--out tests/goldens/ops.json]
"""

from __future__ import annotations

import argparse
import json
import math
import warnings
import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "goldens" / "ops.json"
DECIMALS = 6  # random values are rounded so the JSON stays short; they are then exact float64 inputs
MAX_ELEMENTS = 64

CORE_OPS = """
add sub mul div pow neg matmul exp log sin cos tan tanh sigmoid relu sqrt abs sum mean max min
transpose reshape view index clamp softmax log_softmax
""".split()
FULL_ONLY_OPS = """
exp2 expm1 log2 log10 log1p asin acos atan atan2 sinh cosh asinh acosh atanh logsigmoid softplus
leaky_relu elu selu gelu silu mish hardtanh rsqrt square sign floor ceil round trunc frac reciprocal
erf erfc clip maximum minimum where lerp
prod amax amin std var norm logsumexp cumsum cumprod
mm mv dot outer bmm einsum trace det inverse diag diagonal tril triu linalg.norm linalg.det linalg.inv
linalg.solve
flatten squeeze unsqueeze permute expand expand_as repeat cat stack split chunk flip roll gather
index_select
mse_loss l1_loss smooth_l1_loss huber_loss cross_entropy nll_loss binary_cross_entropy
binary_cross_entropy_with_logits kl_div cosine_similarity normalize linear
""".split()
# Other names gradcli lists (aliases and small extras): every listed op has a golden case.
EXTRA_OPS = """
arcsin arccos arctan arctan2 arcsinh arccosh arctanh absolute negative fix subtract multiply divide true_divide
clamp_min clamp_max xlogy swapaxes swapdims concat concatenate ger linalg.diagonal linalg.matmul linalg.vector_norm
""".split()
# The common calls of issue 18 §4: special functions, more binary ops, activations, ordering, reductions,
# rearranging ops.
MORE_OPS = """
lgamma digamma erfinv logit sinc nan_to_num hypot fmod remainder logaddexp logaddexp2 copysign float_power
fmax fmin addcmul addcdiv relu6 hardsigmoid hardswish softsign celu softmin glu
sort topk median cummax cummin nansum nanmean var_mean std_mean logcumsumexp diff trapezoid trapz
narrow select movedim moveaxis tile unbind vstack row_stack hstack broadcast_to fliplr flipud rot90 take_along_dim
masked_select unflatten repeat_interleave scatter scatter_add index_add meshgrid
cross linalg.cross kron tensordot inner addmm dist cdist slogdet linalg.slogdet logdet linalg.cholesky
matrix_exp linalg.matrix_exp matrix_power linalg.matrix_power linalg.multi_dot linalg.svdvals linalg.matrix_norm
embedding layer_norm batch_norm group_norm pad prelu pairwise_distance max_pool1d max_pool2d avg_pool1d avg_pool2d
conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d
poisson_nll_loss gaussian_nll_loss margin_ranking_loss hinge_embedding_loss
soft_margin_loss triplet_margin_loss cosine_embedding_loss multi_margin_loss quantile nanquantile
linalg.eigh linalg.eigvalsh linalg.qr linalg.pinv linalg.lstsq svd linalg.svd
hardshrink softshrink tanhshrink threshold multilabel_soft_margin_loss
multilabel_margin_loss instance_norm adaptive_avg_pool2d adaptive_max_pool2d ctc_loss
interpolate upsample upsample_nearest upsample_bilinear adaptive_avg_pool3d bilinear
""".split()
# Tensor methods of issue 28's survey (ops/method_forms.py): another op under torch's name, or a small op of its own.
METHOD_FORM_OPS = """
ravel msort adjoint positive tensor_split hsplit vsplit dsplit split_with_sizes sum_to_size sgn deg2rad rad2deg
take diag_embed diagflat index_fill index_copy masked_scatter ldexp frexp vdot qr pinverse
""".split()
MORE_OPS += METHOD_FORM_OPS
# torch's namespace functions of issue 28's survey (ops/namespace_functions.py)
NAMESPACE_OPS = "atleast_1d atleast_2d atleast_3d broadcast_tensors".split()
FULL_ONLY_OPS += EXTRA_OPS + MORE_OPS + NAMESPACE_OPS
ALL_OPS = CORE_OPS + FULL_ONLY_OPS

ELEMENTWISE = set("""
add sub mul div pow neg exp log sin cos tan tanh sigmoid relu sqrt abs clamp
exp2 expm1 log2 log10 log1p asin acos atan atan2 sinh cosh asinh acosh atanh logsigmoid softplus
leaky_relu elu selu gelu silu mish hardtanh rsqrt square sign floor ceil round trunc frac reciprocal
erf erfc clip maximum minimum where lerp
arcsin arccos arctan arctan2 arcsinh arccosh arctanh absolute negative fix subtract multiply divide true_divide
clamp_min clamp_max xlogy
lgamma erfinv logit sinc nan_to_num hypot fmod remainder logaddexp logaddexp2 copysign float_power fmax fmin
addcmul addcdiv relu6 hardswish softsign celu hardshrink softshrink tanhshrink threshold
sgn deg2rad rad2deg positive
""".split())
REDUCTIONS = set("""sum mean max min prod amax amin std var norm logsumexp cumsum cumprod linalg.vector_norm
nansum nanmean var_mean std_mean logcumsumexp sort topk median cummax cummin""".split())
SECOND_ORDER_OPS = ELEMENTWISE | REDUCTIONS
TIE_SENSITIVE = {"max", "min", "amax", "amin", "norm", "linalg.norm", "linalg.vector_norm"}


# ----------------------------------------------------------------------------------------------
# Input specs
# ----------------------------------------------------------------------------------------------


@dataclass
class Spec:
    """How to build one input: random in [lo, hi), random sign with |v| in [lo, hi), a
    well-conditioned matrix (3*I + noise), rows on the probability simplex, or a fixed value."""

    shape: tuple[int, ...]
    kind: str = "uniform"  # uniform | nonzero | wellcond | simplex | fixed
    lo: float = -2.0
    hi: float = 2.0
    value: object = None

    def sample(self, rng: np.random.RandomState) -> np.ndarray:
        if self.kind == "fixed":
            return np.array(self.value, dtype=np.float64)
        if self.kind == "simplex":  # not rounded: rows must sum to 1
            e = np.exp(rng.uniform(-1.0, 1.0, self.shape))
            return e / e.sum(axis=-1, keepdims=True)
        if self.kind == "uniform":
            v = rng.uniform(self.lo, self.hi, self.shape)
        elif self.kind == "nonzero":
            v = rng.uniform(self.lo, self.hi, self.shape) * rng.choice([-1.0, 1.0], self.shape)
        elif self.kind == "wellcond":
            v = 3.0 * np.eye(self.shape[-1]) + rng.uniform(-0.3, 0.3, self.shape)
        else:
            raise ValueError(f"unknown spec kind {self.kind!r}")
        return np.round(np.asarray(v, dtype=np.float64), DECIMALS)


def U(shape, lo=-2.0, hi=2.0):
    return Spec(tuple(shape), "uniform", lo, hi)


def NZ(shape, lo=0.5, hi=2.0):
    return Spec(tuple(shape), "nonzero", lo, hi)


def WC(shape):
    return Spec(tuple(shape), "wellcond")


def SIMPLEX(shape):
    return Spec(tuple(shape), "simplex")


def V(value):
    return Spec(np.array(value, dtype=np.float64).shape, "fixed", value=value)


# Domains: callables shape -> Spec.
ANY = U
POS = partial(U, lo=0.1, hi=3.0)
UNIT = partial(U, lo=-0.9, hi=0.9)
GT1 = partial(U, lo=1.1, hi=3.0)
PROB = partial(U, lo=0.05, hi=0.95)
LOGPROB = partial(U, lo=-3.0, hi=-0.1)
TAN = partial(U, lo=-1.2, hi=1.2)
LOG1P = partial(U, lo=-0.5, hi=2.0)

SCALAR, VEC, MAT = (), (3,), (2, 3)
SHAPES = (SCALAR, VEC, MAT)
BINARY_PAIRS = [(s, s) for s in SHAPES] + [
    ((2, 3), (3,)),
    ((2, 3), ()),
    ((), (3,)),
    ((3, 1), (1, 2)),
    ((1, 2), (3, 2)),
]
EXTREME = [-1000.0, -20.0, 0.0, 20.0, 1000.0]
EXTREME_2D = [[1000.0, 0.0, -1000.0], [1000.0, 1000.0, 0.5]]


@dataclass
class Case:
    op: str
    tier: str
    expr: str
    inputs: dict[str, Spec]
    const: dict[str, Spec] = field(default_factory=dict)
    second: bool = False
    tag: str = ""


# ----------------------------------------------------------------------------------------------
# The case table
# ----------------------------------------------------------------------------------------------

CASES: list[Case] = []
HESSIANS: list[Case] = []


def add(op, expr, tier="full", const=None, second=None, tag="", **inputs):
    """Append one case; inputs/const map names to Specs. second defaults to the op's category."""
    assert op in ALL_OPS, op
    if second is None:
        second = op in SECOND_ORDER_OPS
    CASES.append(Case(op, tier, expr, inputs, const or {}, second, tag))


def sweep(op, tier, spellings, domain, shapes=SHAPES):
    """One case per shape, rotating through the spellings; extra spellings go on the last shape."""
    for i, shape in enumerate(shapes):
        add(op, spellings[i % len(spellings)], tier, x=domain(shape))
    for spelling in spellings[len(shapes) :]:
        add(op, spelling, tier, x=domain(shapes[-1]))


def sweep2(op, tier, spellings, xdom, ydom, pairs=BINARY_PAIRS):
    for i, (xs, ys) in enumerate(pairs):
        add(op, spellings[i % len(spellings)], tier, x=xdom(xs), y=ydom(ys))
    for spelling in spellings[len(pairs) :]:
        add(op, spelling, tier, x=xdom(MAT), y=ydom(MAT))


def exprs(op, tier, rows, domain=ANY):
    """rows: (expression, shape) pairs, all over one input x."""
    for expr, shape in rows:
        add(op, expr, tier, x=domain(shape))


def edges(op, tier, rows, tag="edge"):
    """rows: (expression, explicit x value) pairs."""
    for expr, value in rows:
        add(op, expr, tier, tag=tag, x=V(value))


# --- elementwise, one input ---------------------------------------------------------------------

UNARY = [
    ("neg", "core", ["-x", "torch.neg(x)", "x.neg()"], ANY),
    ("exp", "core", ["torch.exp(x)", "x.exp()"], ANY),
    ("log", "core", ["torch.log(x)", "x.log()"], POS),
    ("sin", "core", ["torch.sin(x)", "x.sin()"], ANY),
    ("cos", "core", ["torch.cos(x)", "x.cos()"], ANY),
    ("tan", "core", ["torch.tan(x)", "x.tan()"], TAN),
    ("tanh", "core", ["torch.tanh(x)", "x.tanh()", "F.tanh(x)"], ANY),
    ("sigmoid", "core", ["torch.sigmoid(x)", "x.sigmoid()", "F.sigmoid(x)"], ANY),
    ("relu", "core", ["torch.relu(x)", "x.relu()", "F.relu(x)"], ANY),
    ("sqrt", "core", ["torch.sqrt(x)", "x.sqrt()"], POS),
    ("abs", "core", ["torch.abs(x)", "x.abs()"], ANY),
    ("clamp", "core",
     ["torch.clamp(x, min=-0.5)", "x.clamp(max=0.5)", "torch.clamp(x, -0.5, 0.5)",
      "x.clamp(min=-0.5, max=0.5)"], ANY),
    ("exp2", "full", ["torch.exp2(x)", "x.exp2()"], ANY),
    ("expm1", "full", ["torch.expm1(x)", "x.expm1()"], ANY),
    ("log2", "full", ["torch.log2(x)", "x.log2()"], POS),
    ("log10", "full", ["torch.log10(x)", "x.log10()"], POS),
    ("log1p", "full", ["torch.log1p(x)", "x.log1p()"], LOG1P),
    ("asin", "full", ["torch.asin(x)", "x.asin()"], UNIT),
    ("acos", "full", ["torch.acos(x)", "x.acos()"], UNIT),
    ("atan", "full", ["torch.atan(x)", "x.atan()"], ANY),
    ("sinh", "full", ["torch.sinh(x)", "x.sinh()"], ANY),
    ("cosh", "full", ["torch.cosh(x)", "x.cosh()"], ANY),
    ("asinh", "full", ["torch.asinh(x)", "x.asinh()"], ANY),
    ("acosh", "full", ["torch.acosh(x)", "x.acosh()"], GT1),
    ("atanh", "full", ["torch.atanh(x)", "x.atanh()"], UNIT),
    ("logsigmoid", "full", ["F.logsigmoid(x)"], ANY),
    ("softplus", "full", ["F.softplus(x)", "F.softplus(x, beta=2)", "F.softplus(x, beta=0.5, threshold=1.0)"],
     ANY),
    ("leaky_relu", "full", ["F.leaky_relu(x)", "F.leaky_relu(x, 0.2)", "F.leaky_relu(x, negative_slope=0.1)"],
     ANY),
    ("elu", "full", ["F.elu(x)", "F.elu(x, alpha=0.5)"], ANY),
    ("selu", "full", ["F.selu(x)", "torch.selu(x)"], ANY),
    ("gelu", "full", ["F.gelu(x)", "F.gelu(x, approximate='tanh')"], ANY),
    ("silu", "full", ["F.silu(x)"], ANY),
    ("mish", "full", ["F.mish(x)"], ANY),
    ("hardtanh", "full",
     ["F.hardtanh(x)", "F.hardtanh(x, -0.5, 0.5)", "F.hardtanh(x, min_val=-0.8, max_val=1.2)"], ANY),
    ("rsqrt", "full", ["torch.rsqrt(x)", "x.rsqrt()"], POS),
    ("square", "full", ["torch.square(x)", "x.square()"], ANY),
    ("sign", "full", ["torch.sign(x)", "x.sign()"], ANY),
    ("floor", "full", ["torch.floor(x)", "x.floor()"], ANY),
    ("ceil", "full", ["torch.ceil(x)", "x.ceil()"], ANY),
    ("round", "full", ["torch.round(x)", "x.round()", "torch.round(x, decimals=1)"], ANY),
    ("trunc", "full", ["torch.trunc(x)", "x.trunc()"], ANY),
    ("frac", "full", ["torch.frac(x)", "x.frac()"], ANY),
    ("reciprocal", "full", ["torch.reciprocal(x)", "x.reciprocal()"], NZ),
    ("erf", "full", ["torch.erf(x)", "x.erf()"], ANY),
    ("erfc", "full", ["torch.erfc(x)", "x.erfc()"], ANY),
    ("clip", "full", ["torch.clip(x, -0.5, 0.5)", "x.clip(min=-1.0)", "x.clip(max=0.3)"], ANY),
]
for _op, _tier, _spellings, _domain in UNARY:
    sweep(_op, _tier, _spellings, _domain)

# Non-differentiable points, bounds and ties: torch's conventions are what gradcli must match.
edges("abs", "core", [("torch.abs(x)", [-1.5, 0.0, 2.0]), ("x.abs()", [[0.0, -1.0, 0.5], [2.0, 0.0, -0.0]])])
edges("relu", "core", [("F.relu(x)", [-1.0, 0.0, 0.5]), ("x.relu()", [[0.0, -2.0, 1.0], [0.0, 3.0, -0.5]])])
edges("sqrt", "core", [("torch.sqrt(x)", [0.0, 0.25, 4.0])])
edges("clamp", "core", [
    ("torch.clamp(x, -0.5, 0.5)", [-1.0, -0.5, 0.0, 0.5, 1.0]),
    ("x.clamp(min=0.0)", [-1.0, 0.0, 2.0]),
    ("torch.clamp(x, max=1.0)", [[1.0, 0.5, 2.0], [1.0, -1.0, 1.5]]),
])
edges("clip", "full", [("torch.clip(x, -0.5, 0.5)", [-1.0, -0.5, 0.0, 0.5, 1.0])])
edges("sign", "full", [("torch.sign(x)", [-2.0, 0.0, 1.5])])
edges("leaky_relu", "full", [("F.leaky_relu(x, 0.2)", [-1.0, 0.0, 1.0])])
edges("elu", "full", [("F.elu(x)", [-1.0, 0.0, 1.0])])
edges("hardtanh", "full", [("F.hardtanh(x)", [-2.0, -1.0, 0.0, 1.0, 2.0])])
edges("abs", "full", [("x.abs()", [0.0])])
edges("relu", "full", [("torch.relu(x)", 0.0)])
edges("sqrt", "full", [("x.sqrt()", [[0.0, 1.0, 9.0], [0.01, 0.0, 2.0]])])
edges("rsqrt", "full", [("torch.rsqrt(x)", [0.01, 1.0, 100.0])])
edges("floor", "full", [("torch.floor(x)", [-1.0, 0.0, 2.0])])
edges("round", "full", [("torch.round(x)", [-1.5, 0.5, 2.5])])
edges("gelu", "full", [("F.gelu(x)", [-10.0, 0.0, 10.0])])
edges("silu", "full", [("F.silu(x)", [-50.0, 0.0, 50.0])])
edges("mish", "full", [("F.mish(x)", [-50.0, 0.0, 50.0])])
edges("tanh", "full", [("torch.tanh(x)", EXTREME)], tag="extreme")
edges("sigmoid", "full", [("torch.sigmoid(x)", EXTREME), ("F.sigmoid(x)", EXTREME_2D)], tag="extreme")
edges("logsigmoid", "full", [("F.logsigmoid(x)", EXTREME), ("F.logsigmoid(x)", EXTREME_2D)], tag="extreme")
edges("softplus", "full", [
    ("F.softplus(x)", EXTREME),
    ("F.softplus(x, beta=2)", EXTREME_2D),
    ("F.softplus(x)", [19.0, 20.0, 21.0]),  # threshold=20 switches to the identity
], tag="extreme")

# --- elementwise, two or three inputs -----------------------------------------------------------

BINARY = [
    ("add", "core", ["x + y", "torch.add(x, y)", "x.add(y)"], ANY, ANY),
    ("sub", "core", ["x - y", "torch.sub(x, y)", "x.sub(y)"], ANY, ANY),
    ("mul", "core", ["x * y", "torch.mul(x, y)", "x.mul(y)"], ANY, ANY),
    ("div", "core", ["x / y", "torch.div(x, y)", "x.div(y)"], ANY, NZ),
    ("pow", "core", ["x ** y", "torch.pow(x, y)", "x.pow(y)"], POS, ANY),
    ("atan2", "full", ["torch.atan2(x, y)", "x.atan2(y)"], NZ, NZ),
    ("maximum", "full", ["torch.maximum(x, y)", "torch.max(x, y)", "x.maximum(y)"], ANY, ANY),
    ("minimum", "full", ["torch.minimum(x, y)", "torch.min(x, y)", "x.minimum(y)"], ANY, ANY),
]
for _op, _tier, _spellings, _xdom, _ydom in BINARY:
    sweep2(_op, _tier, _spellings, _xdom, _ydom)

# One operand a Python number.
SCALAR_OPERAND = [
    ("add", ["x + 1.5", "2 + x", "torch.add(x, 0.5)"], ANY),
    ("sub", ["x - 0.5", "1 - x", "x.sub(2)"], ANY),
    ("mul", ["x * 3", "-2.5 * x", "x.mul(0.5)"], ANY),
    ("div", ["x / 4", "1 / x", "torch.div(x, 2.0)"], NZ),
    ("pow", ["x ** 2", "x ** 3", "x.pow(2)"], ANY),
    ("pow", ["torch.pow(x, 0.5)", "x ** 2.5", "x.pow(-1.5)"], POS),
    ("pow", ["x ** -1", "x ** -2"], NZ),
    ("pow", ["2 ** x", "0.5 ** x", "torch.pow(2.0, x)"], ANY),
]
for _op, _spellings, _domain in SCALAR_OPERAND:
    sweep(_op, "core", _spellings, _domain)
add("add", "torch.add(x, y, alpha=2)", x=ANY(MAT), y=ANY(VEC))
add("sub", "x.sub(y, alpha=0.5)", x=ANY(MAT), y=ANY(MAT))
add("pow", "x ** y", tag="edge", x=V([0.5, 1.0, 2.0]), y=V([3.0, 2.0, -1.0]))  # base 1: log(x) = 0
add("pow", "x ** 2", tag="edge", x=V([-1.0, 0.0, 1.0]))
add("div", "(x - y) / (x + y)", x=POS(MAT), y=POS(VEC))

for _op, _spelling in [("maximum", "torch.maximum(x, y)"), ("minimum", "torch.min(x, y)")]:
    add(_op, _spelling, tag="ties", x=V([[1.0, 2.0, 3.0], [0.0, -1.0, 2.0]]), y=V([1.0, 0.0, 3.0]))

add("atan2", "torch.atan2(x, y)", tag="quadrants", x=V([1.0, 1.0, -1.0, -1.0]), y=V([1.0, -1.0, 1.0, -1.0]))

# clamp/clip with tensor bounds: gradients flow to the bounds too.
add("clamp", "torch.clamp(x, min=y)", x=ANY(MAT), y=ANY(VEC))
add("clamp", "x.clamp(y, z)", x=ANY(MAT), y=U(VEC, -1.0, -0.1), z=U(VEC, 0.1, 1.0))
add("clamp", "torch.clamp(x, max=z)", x=ANY(VEC), z=ANY(SCALAR))
add("clamp", "torch.clamp(x, min=y, max=z)", tag="ties",
    x=V([[-1.0, -0.5, 0.0], [0.5, 1.0, 0.2]]), y=V([-0.5, -0.5, 0.0]), z=V([0.5, 1.0, 0.5]))
add("clip", "torch.clip(x, min=y, max=z)", x=ANY(MAT), y=U(VEC, -1.0, -0.1), z=U(MAT, 0.1, 1.0))
add("clip", "x.clip(max=y)", x=ANY(VEC), y=ANY(VEC))

add("where", "torch.where(x > 0, x, y)", x=ANY(MAT), y=ANY(MAT))
add("where", "torch.where(y > 0, x * 2, x ** 2)", x=ANY(VEC), y=ANY(VEC))
add("where", "torch.where(x > 0, x, 0.0)", x=ANY(MAT))
add("where", "torch.where(x < y, x, y)", x=ANY(MAT), y=ANY(VEC))
add("where", "torch.where(x > 0.5, torch.exp(x), x)", x=ANY(SCALAR))
add("where", "x.where(x > 0, y)", x=ANY(MAT), y=ANY(VEC))

add("lerp", "torch.lerp(x, y, 0.25)", x=ANY(VEC), y=ANY(VEC))
add("lerp", "x.lerp(y, 0.5)", x=ANY(MAT), y=ANY(VEC))
add("lerp", "torch.lerp(x, y, w)", x=ANY(MAT), y=ANY(MAT), w=U(MAT, 0.0, 1.0))
add("lerp", "torch.lerp(x, y, w)", x=ANY(SCALAR), y=ANY(VEC), w=U(SCALAR, 0.0, 1.0))

# --- reductions ---------------------------------------------------------------------------------

for _op in ("sum", "mean"):
    exprs(_op, "core", [
        (f"x.{_op}()", SCALAR), (f"torch.{_op}(x)", VEC), (f"x.{_op}()", MAT), (f"torch.{_op}(x)", MAT),
        (f"x.{_op}(dim=0)", VEC), (f"x.{_op}(dim=0)", MAT), (f"torch.{_op}(x, 1)", MAT),
        (f"x.{_op}(dim=-1)", MAT), (f"x.{_op}(dim=1, keepdim=True)", MAT),
        (f"torch.{_op}(x, 0, keepdim=True)", MAT), (f"(x ** 2).{_op}()", MAT),
    ])
    exprs(_op, "full", [
        (f"x.{_op}(dim=(0, 1))", MAT), (f"torch.{_op}(x, dim=(0, 2))", (2, 3, 4)),
        (f"x.{_op}(dim=-2, keepdim=True)", (2, 3, 4)), (f"x.{_op}(0)", SCALAR),
        (f"torch.{_op}(x, dim=[1], keepdim=True)", (2, 3, 4)),
    ])
add("sum", "(x * y).sum()", "core", x=ANY(MAT), y=ANY(MAT))
add("mean", "(x - y).mean(dim=0)", "core", x=ANY(MAT), y=ANY(VEC))

TIE_ROWS = [[1.0, 3.0, 3.0], [0.0, 3.0, 2.0]]
for _op, _tie in (("max", [1.0, 3.0, 3.0]), ("min", [2.0, -1.0, -1.0])):
    _sign = 1.0 if _op == "max" else -1.0
    exprs(_op, "core", [
        (f"x.{_op}()", SCALAR), (f"x.{_op}()", VEC), (f"torch.{_op}(x)", MAT),
        (f"torch.{_op}(x, dim=1)[0]", MAT), (f"x.{_op}(dim=0).values", MAT),
        (f"torch.{_op}(x, 1, keepdim=True)[0]", MAT), (f"x.{_op}(0)[0]", VEC),
        (f"torch.{_op}(x, dim=-1).values", MAT),
    ])
    edges(_op, "core", [
        (f"x.{_op}()", _tie),
        (f"torch.{_op}(x)", [[_sign * v for v in row] for row in TIE_ROWS]),
    ], tag="ties")
    edges(_op, "full", [
        (f"torch.{_op}(x, dim=1)[0]", [[_sign * v for v in row] for row in TIE_ROWS]),
        (f"x.{_op}()", [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]),
    ], tag="ties")
    exprs(_op, "full", [
        (f"x.{_op}(dim=2).values", (2, 3, 4)), (f"x.{_op}(-1, keepdim=True).values", MAT),
        (f"torch.{_op}(x, 0)[0]", SCALAR), (f"x.{_op}()", (2, 3, 4)),
    ])

for _op in ("amax", "amin"):
    exprs(_op, "full", [
        (f"x.{_op}()", SCALAR), (f"torch.{_op}(x)", VEC), (f"torch.{_op}(x, dim=1)", MAT),
        (f"x.{_op}(dim=0, keepdim=True)", MAT), (f"torch.{_op}(x, dim=(0, 1))", MAT),
        (f"x.{_op}(-1)", (2, 3, 4)),
    ])
    _sign = 1.0 if _op == "amax" else -1.0
    edges(_op, "full", [
        (f"torch.{_op}(x, dim=1)", [[_sign * v for v in row] for row in TIE_ROWS]),
        (f"x.{_op}()", [_sign * v for v in (1.0, 3.0, 3.0)]),
        (f"x.{_op}(dim=(0, 1))", [[_sign * v for v in row] for row in TIE_ROWS]),
    ], tag="ties")

exprs("prod", "full", [
    ("x.prod()", SCALAR), ("torch.prod(x)", VEC), ("x.prod()", MAT), ("torch.prod(x, 1)", MAT),
    ("x.prod(dim=0, keepdim=True)", MAT), ("x.prod(-1)", (2, 3, 4)),
])
edges("prod", "full", [
    ("x.prod()", [2.0, 0.0, 3.0]), ("torch.prod(x)", [0.0, 1.5, 0.0]),
    ("x.prod(dim=1)", [[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]),
], tag="zeros")

for _op in ("std", "var"):
    exprs(_op, "full", [
        (f"x.{_op}()", VEC), (f"torch.{_op}(x)", MAT), (f"torch.{_op}(x, dim=1)", MAT),
        (f"x.{_op}(dim=0, keepdim=True)", MAT), (f"torch.{_op}(x, unbiased=False)", VEC),
        (f"x.{_op}(dim=1, correction=0)", MAT), (f"x.{_op}(dim=(0, 2))", (2, 3, 4)),
    ])
exprs("var", "full", [("x.var(correction=0)", SCALAR)])

exprs("norm", "full", [
    ("torch.norm(x)", SCALAR), ("x.norm()", VEC), ("torch.norm(x)", MAT), ("torch.norm(x, p=1)", VEC),
    ("x.norm(p=2, dim=1)", MAT), ("torch.norm(x, p=math.inf)", VEC), ("x.norm(p=math.inf, dim=0)", MAT),
    ("torch.norm(x, p='fro')", MAT), ("torch.norm(x, p='fro', dim=(0, 1))", MAT),
    ("x.norm(dim=1, keepdim=True)", MAT), ("torch.norm(x, p=3)", VEC), ("x.norm(p=1, dim=-1)", (2, 3, 4)),
])
edges("norm", "full", [
    ("torch.norm(x, p=1)", [0.0, -2.0, 1.0]),
    ("torch.norm(x, p=math.inf)", [1.0, -3.0, 3.0]),
], tag="edge")
# The 2-norm at 0 has gradient 0 by torch's convention; its second derivative is nan, so not recorded.
add("norm", "x.norm()", tag="edge", second=False, x=V([0.0, 0.0, 0.0]))

exprs("logsumexp", "full", [
    ("torch.logsumexp(x, 0)", SCALAR), ("torch.logsumexp(x, 0)", VEC), ("torch.logsumexp(x, dim=1)", MAT),
    ("x.logsumexp(0)", MAT), ("x.logsumexp(dim=-1, keepdim=True)", MAT),
    ("torch.logsumexp(x, dim=(0, 1))", MAT),
])
edges("logsumexp", "full", [
    ("torch.logsumexp(x, dim=1)", EXTREME_2D), ("x.logsumexp(0)", [-1000.0, -1000.0, -1000.0]),
    ("torch.logsumexp(x, 0)", EXTREME),
], tag="extreme")

exprs("cumsum", "full", [
    ("torch.cumsum(x, 0)", SCALAR), ("torch.cumsum(x, dim=0)", VEC), ("x.cumsum(1)", MAT),
    ("x.cumsum(dim=0)", MAT), ("torch.cumsum(x, -1)", (2, 3, 4)),
])
exprs("cumprod", "full", [
    ("torch.cumprod(x, 0)", SCALAR), ("torch.cumprod(x, dim=0)", VEC), ("x.cumprod(1)", MAT),
    ("x.cumprod(dim=0)", MAT),
])
edges("cumprod", "full", [
    ("torch.cumprod(x, 0)", [2.0, 0.0, 3.0, 0.5]), ("x.cumprod(dim=1)", [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]),
], tag="zeros")

# --- linear algebra -----------------------------------------------------------------------------

MATMUL_PAIRS = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)), ((2, 3, 4), (4, 5)),
                ((2, 3, 4), (2, 4, 2))]
sweep2("matmul", "core", ["x @ y", "torch.matmul(x, y)", "x.matmul(y)"], ANY, ANY, MATMUL_PAIRS)
sweep2("matmul", "full", ["x @ y", "torch.matmul(x, y)", "x.matmul(y)"], ANY, ANY,
       [((3,), (2, 3, 4)), ((2, 3, 4), (4,)), ((1, 3, 4), (2, 4, 2))])
add("matmul", "x @ W @ y", x=ANY(VEC), W=ANY((3, 3)), y=ANY(VEC))
add("matmul", "(x @ y).sum()", x=ANY(MAT), y=ANY((3, 2)))

add("mm", "torch.mm(x, y)", x=ANY(MAT), y=ANY((3, 4)))
add("mm", "x.mm(y)", x=ANY((3, 2)), y=ANY((2, 3)))
add("mv", "torch.mv(W, x)", W=ANY(MAT), x=ANY(VEC))
add("mv", "W.mv(x)", W=ANY((3, 3)), x=ANY(VEC))
add("dot", "torch.dot(x, y)", x=ANY(VEC), y=ANY(VEC))
add("dot", "x.dot(y)", x=ANY((5,)), y=ANY((5,)))
add("outer", "torch.outer(x, y)", x=ANY(VEC), y=ANY((2,)))
add("outer", "x.outer(y)", x=ANY((2,)), y=ANY((4,)))
add("bmm", "torch.bmm(x, y)", x=ANY((2, 3, 4)), y=ANY((2, 4, 2)))
add("bmm", "x.bmm(y)", x=ANY((3, 2, 2)), y=ANY((3, 2, 3)))
add("einsum", "torch.einsum('ij,jk->ik', x, y)", x=ANY(MAT), y=ANY((3, 2)))
add("einsum", "torch.einsum('i,i->', x, y)", x=ANY(VEC), y=ANY(VEC))
add("einsum", "torch.einsum('ij->ji', x)", x=ANY(MAT))
add("einsum", "torch.einsum('bij,bjk->bik', x, y)", x=ANY((2, 3, 4)), y=ANY((2, 4, 2)))
add("einsum", "torch.einsum('ii->i', W)", W=ANY((3, 3)))
add("einsum", "torch.einsum('ij,ij->i', x, y)", x=ANY(MAT), y=ANY(MAT))
add("einsum", "torch.einsum('i,j->ij', x, y)", x=ANY(VEC), y=ANY((2,)))
add("einsum", "torch.einsum('ij->', x)", x=ANY(MAT))
add("trace", "torch.trace(W)", W=ANY((3, 3)))
add("trace", "x.trace()", x=ANY(MAT))
for _op, _spellings in [
    ("det", ["torch.det(W)", "W.det()"]),
    ("linalg.det", ["torch.linalg.det(W)"]),
    ("inverse", ["torch.inverse(W)", "W.inverse()"]),
    ("linalg.inv", ["torch.linalg.inv(W)"]),
]:
    for _i, _spelling in enumerate(_spellings):
        add(_op, _spelling, W=WC((3, 3) if _i == 0 else (2, 2)))
    add(_op, _spellings[0], W=WC((2, 3, 3)))
add("linalg.solve", "torch.linalg.solve(W, y)", W=WC((3, 3)), y=ANY(VEC))
add("linalg.solve", "torch.linalg.solve(W, y)", W=WC((3, 3)), y=ANY((3, 2)))
add("linalg.solve", "torch.linalg.solve(W, y)", W=WC((2, 2, 2)), y=ANY((2, 2, 1)))
add("diag", "torch.diag(x)", x=ANY(VEC))
add("diag", "torch.diag(W)", W=ANY((3, 3)))
add("diag", "torch.diag(x, 1)", x=ANY((2,)))
add("diag", "x.diag(-1)", x=ANY(MAT))
add("diagonal", "torch.diagonal(W)", W=ANY((3, 3)))
add("diagonal", "x.diagonal(offset=1)", x=ANY(MAT))
add("diagonal", "x.diagonal(dim1=1, dim2=2)", x=ANY((2, 3, 3)))
add("diagonal", "torch.diagonal(x, 0, 0, 1)", x=ANY((2, 3, 4)))
add("tril", "torch.tril(W)", W=ANY((3, 3)))
add("tril", "x.tril(-1)", x=ANY(MAT))
add("triu", "torch.triu(W, 1)", W=ANY((3, 3)))
add("triu", "x.triu(diagonal=-1)", x=ANY((3, 2)))
exprs("linalg.norm", "full", [
    ("torch.linalg.norm(x)", VEC), ("torch.linalg.norm(x)", MAT), ("torch.linalg.norm(x, dim=1)", MAT),
    ("torch.linalg.norm(x, ord=1)", VEC), ("torch.linalg.norm(x, ord=math.inf)", VEC),
    ("torch.linalg.norm(x, ord=1, dim=0)", MAT), ("torch.linalg.norm(x, ord='fro')", (3, 3)),
    ("torch.linalg.norm(x, dim=-1, keepdim=True)", MAT), ("torch.linalg.norm(x)", SCALAR),
])

# --- shape ops ----------------------------------------------------------------------------------

exprs("transpose", "core", [
    ("x.transpose(0, 1)", MAT), ("x.T", MAT), ("x.t()", MAT), ("torch.transpose(x, 0, 1)", MAT),
    ("torch.t(x)", MAT), ("x.t()", VEC), ("x.t()", SCALAR), ("(x.T @ x).sum()", MAT),
])
exprs("transpose", "full", [
    ("x.transpose(0, 2)", (2, 3, 4)), ("x.transpose(-1, -2)", (2, 3, 4)), ("x.T", (1, 3)),
])
exprs("reshape", "core", [
    ("x.reshape(3, 2)", MAT), ("x.reshape(-1)", MAT), ("torch.reshape(x, (6,))", MAT),
    ("x.reshape((3, 2))", MAT), ("x.reshape(3, 1)", VEC), ("x.reshape(1)", SCALAR),
])
exprs("reshape", "full", [
    ("x.reshape(4, -1)", (2, 3, 4)), ("x.reshape(())", (1,)), ("x.reshape(1, 1)", SCALAR),
])
exprs("view", "core", [
    ("x.view(3, 2)", MAT), ("x.view(-1)", MAT), ("x.view(1, 3)", VEC), ("x.view(1)", SCALAR),
])
exprs("view", "full", [("x.view(2, 3, 1)", MAT), ("x.view(-1, 6)", (2, 3, 4)), ("x.view((3, 2))", MAT)])
exprs("index", "core", [
    ("x[0]", VEC), ("x[-1]", VEC), ("x[1:]", VEC), ("x[::2]", VEC),
    ("x[0]", MAT), ("x[-1]", MAT), ("x[1:]", MAT), ("x[:, 0]", MAT), ("x[0, 1:]", MAT), ("x[::2]", MAT),
    ("x[:, ::2]", MAT), ("x[-1, -1]", MAT), ("x[:, -2:]", MAT),
])
exprs("index", "full", [
    ("x[None]", VEC), ("x[:, None]", MAT), ("x[None, ..., 0]", MAT), ("x[..., 0]", (2, 3, 4)),
    ("x[..., 1:]", MAT), ("x[0, ...]", MAT), ("x[1, :, ::2]", (2, 3, 4)), ("x[:-1]", VEC),
    ("x[None]", SCALAR), ("x[...]", SCALAR), ("x[x > 0]", MAT), ("x[[0, 2]]", VEC), ("x[[0, 0, 1]]", VEC),
    ("x[:, [0, 2]]", MAT), ("x[[0, 1], [2, 0]]", MAT), ("x[[-1, 0]]", MAT), ("x[1:, [0, 0]]", (3, 3)),
])
edges("index", "full", [("x[x > 0.5]", [0.2, 0.7, 1.5, -0.3])], tag="mask")
add("index", "x[y > 0]", x=ANY(MAT), y=ANY(MAT))
add("index", "(x * 2)[0, 1:]", x=ANY(MAT))

exprs("flatten", "full", [
    ("torch.flatten(x)", MAT), ("x.flatten()", (2, 3, 4)), ("x.flatten(1)", (2, 3, 4)),
    ("torch.flatten(x, 0, 1)", (2, 3, 4)), ("x.flatten()", SCALAR), ("x.flatten()", VEC),
])
exprs("squeeze", "full", [
    ("x.squeeze()", (3, 1)), ("torch.squeeze(x, 1)", (3, 1)), ("x.squeeze(0)", (1, 3)), ("x.squeeze(0)", MAT),
    ("x.squeeze()", (1,)), ("x.squeeze(-1)", (2, 1, 3, 1)),
])
exprs("unsqueeze", "full", [
    ("x.unsqueeze(0)", VEC), ("torch.unsqueeze(x, -1)", MAT), ("x.unsqueeze(1)", MAT),
    ("x.unsqueeze(0)", SCALAR),
])
exprs("permute", "full", [
    ("x.permute(2, 0, 1)", (2, 3, 4)), ("torch.permute(x, (1, 0))", MAT), ("x.permute(1, 0)", MAT),
    ("x.permute(0, 2, 1)", (2, 3, 4)), ("x.permute(0)", VEC),
])
exprs("expand", "full", [
    ("x.expand(2, 3)", VEC), ("x.expand(4, -1)", (1, 3)), ("x.expand(3)", SCALAR), ("x.expand(3, 2)", (3, 1)),
    ("x.expand((2, 3))", (1, 3)), ("x.expand(2, 2, 3)", MAT),
])
add("expand_as", "x.expand_as(y)", x=ANY(VEC), y=ANY(MAT))
add("expand_as", "x.expand_as(y)", x=ANY((3, 1)), y=ANY((3, 2)))
add("expand_as", "x.expand_as(y) * y", x=ANY(SCALAR), y=ANY(MAT))
exprs("repeat", "full", [
    ("x.repeat(2)", VEC), ("x.repeat(2, 1)", MAT), ("x.repeat(2, 2)", MAT), ("x.repeat(3)", SCALAR),
    ("x.repeat(1, 2, 1)", MAT),
])
add("cat", "torch.cat([x, y])", x=ANY(VEC), y=ANY((2,)))
add("cat", "torch.cat([x, y], dim=1)", x=ANY(MAT), y=ANY((2, 1)))
add("cat", "torch.cat((x, y, z), 0)", x=ANY(MAT), y=ANY((1, 3)), z=ANY(MAT))
add("cat", "torch.cat([x, x], -1)", x=ANY(MAT))
add("cat", "torch.cat([x * 2, y.exp()])", x=ANY(VEC), y=ANY(VEC))
add("stack", "torch.stack([x, y])", x=ANY(VEC), y=ANY(VEC))
add("stack", "torch.stack([x, y], dim=1)", x=ANY(MAT), y=ANY(MAT))
add("stack", "torch.stack((x, y, x), -1)", x=ANY(VEC), y=ANY(VEC))
add("stack", "torch.stack([x, y])", x=ANY(SCALAR), y=ANY(SCALAR))
exprs("split", "full", [
    ("torch.split(x, 2, dim=1)[1]", MAT), ("torch.split(x, 2, dim=1)[0]", MAT), ("x.split(1)[0]", MAT),
    ("torch.split(x, [1, 2], dim=1)[1]", MAT), ("x.split(2)[-1]", (5,)),
])
exprs("chunk", "full", [
    ("torch.chunk(x, 2, dim=1)[0]", MAT), ("x.chunk(3)[2]", VEC), ("x.chunk(2)[1]", (5,)),
    ("torch.chunk(x, 2, -1)[1]", (2, 3, 4)),
])
exprs("flip", "full", [
    ("torch.flip(x, (0,))", VEC), ("x.flip(1)", MAT), ("x.flip([0, 1])", MAT),
    ("torch.flip(x, dims=(0, 2))", (2, 3, 4)),
])
exprs("roll", "full", [
    ("torch.roll(x, 1)", VEC), ("torch.roll(x, shifts=1, dims=1)", MAT), ("x.roll(-1, 0)", MAT),
    ("torch.roll(x, (1, 2), (0, 1))", MAT), ("x.roll(2)", MAT),
])
exprs("gather", "full", [
    ("torch.gather(x, 1, torch.tensor([[0, 1], [1, 0]]))", MAT),
    ("x.gather(0, torch.tensor([[1, 0, 1]]))", MAT),
    ("torch.gather(x, 1, torch.tensor([[0, 0], [2, 2]]))", MAT),
    ("torch.gather(x, 0, torch.tensor([2, 2, 0]))", VEC),
    ("x.gather(1, torch.max(x, dim=1, keepdim=True).indices)", MAT),
])
exprs("index_select", "full", [
    ("torch.index_select(x, 0, torch.tensor([1, 0, 1]))", MAT),
    ("x.index_select(1, torch.tensor([2, 0]))", MAT),
    ("torch.index_select(x, 0, torch.tensor([0, 0, 2]))", VEC),
    ("x.index_select(-1, torch.tensor([3, 1]))", (2, 3, 4)),
])

# --- softmax family and nn.functional -----------------------------------------------------------

for _op in ("softmax", "log_softmax"):
    exprs(_op, "core", [
        (f"torch.{_op}(x, dim=1)", MAT), (f"F.{_op}(x, dim=0)", MAT), (f"x.{_op}(-1)", MAT),
        (f"F.{_op}(x, 1)", MAT), (f"F.{_op}(x, dim=0)", VEC), (f"torch.{_op}(x, 0)", SCALAR),
        (f"x.{_op}(dim=-1)", VEC),
    ])
    exprs(_op, "full", [(f"F.{_op}(x, dim=1)", (2, 3, 4)), (f"(F.{_op}(x, 1) * x).sum()", MAT)])
    edges(_op, "full", [
        (f"F.{_op}(x, dim=1)", EXTREME_2D), (f"torch.{_op}(x, 0)", EXTREME_2D), (f"x.{_op}(0)", EXTREME),
        (f"F.{_op}(x, dim=0)", [1000.0, 1000.0, 1000.0]),
    ], tag="extreme")

for _op, _fn in [("mse_loss", "F.mse_loss"), ("l1_loss", "F.l1_loss"), ("smooth_l1_loss", "F.smooth_l1_loss"),
                 ("huber_loss", "F.huber_loss")]:
    add(_op, f"{_fn}(x, y)", x=ANY(MAT), y=ANY(MAT))
    add(_op, f"{_fn}(x, t, reduction='sum')", x=ANY(VEC), const={"t": ANY(VEC)})
    add(_op, f"{_fn}(x, t, reduction='none')", x=ANY(MAT), const={"t": ANY(MAT)})
    add(_op, f"{_fn}(x, y, reduction='mean')", x=ANY(SCALAR), y=ANY(SCALAR))
add("l1_loss", "F.l1_loss(x, y)", tag="ties", x=V([1.0, 2.0, -1.0]), y=V([1.0, 0.0, -1.0]))
add("smooth_l1_loss", "F.smooth_l1_loss(x, y, beta=0.5)", x=ANY(MAT), y=ANY(MAT))
add("smooth_l1_loss", "F.smooth_l1_loss(x, t, reduction='none')", tag="edge",
    x=V([-1.0, 0.0, 0.5, 1.0, 3.0]), const={"t": V([0.0, 0.0, 0.0, 0.0, 0.0])})
add("huber_loss", "F.huber_loss(x, y, delta=0.5)", x=ANY(MAT), y=ANY(MAT))
add("huber_loss", "F.huber_loss(x, t, reduction='none', delta=1.0)", tag="edge",
    x=V([-1.0, 0.0, 0.5, 1.0, 3.0]), const={"t": V([0.0, 0.0, 0.0, 0.0, 0.0])})

_TARGET = "torch.tensor([1, 0])"
add("cross_entropy", f"F.cross_entropy(x, {_TARGET})", x=ANY(MAT))
add("cross_entropy", f"F.cross_entropy(x, {_TARGET}, reduction='sum')", x=ANY(MAT))
add("cross_entropy", "F.cross_entropy(x, torch.tensor([2, 0, 1, 1]), reduction='none')", x=ANY((4, 3)))
add("cross_entropy", f"F.cross_entropy(x, {_TARGET}, reduction='mean')", x=ANY(MAT))
add("cross_entropy", f"F.cross_entropy(x, {_TARGET}, label_smoothing=0.1)", x=ANY(MAT))
add("cross_entropy", "F.cross_entropy(x, torch.tensor(2))", x=ANY(VEC))
add("cross_entropy", "F.cross_entropy(x, torch.tensor([1, -100]))", tag="ignore_index", x=ANY(MAT))
add("cross_entropy", "F.cross_entropy(x, t)", x=ANY(MAT), const={"t": SIMPLEX(MAT)})
add("cross_entropy", "F.cross_entropy(x, t, reduction='sum', label_smoothing=0.1)", x=ANY(MAT),
    const={"t": SIMPLEX(MAT)})
add("cross_entropy", "F.cross_entropy(x, y)", tag="target_grad", x=ANY(MAT), y=U(MAT, 0.0, 1.0))
add("cross_entropy", "F.cross_entropy(x, torch.tensor([0, 1, 2]), reduction='none')", tag="extreme",
    x=V([[1000.0, 0.0, -1000.0], [1000.0, 0.0, -1000.0], [-1000.0, 1000.0, 1000.0]]))
add("cross_entropy", f"F.cross_entropy(x, {_TARGET})", tag="extreme", x=V(EXTREME_2D))

add("nll_loss", "F.nll_loss(F.log_softmax(x, 1), torch.tensor([2, 0]))", x=ANY(MAT))
add("nll_loss", "F.nll_loss(x, torch.tensor([0, 2]), reduction='sum')", x=ANY(MAT))
add("nll_loss", "F.nll_loss(x, torch.tensor([1, 1, 0, 2]), reduction='none')", x=ANY((4, 3)))
add("nll_loss", "F.nll_loss(x, torch.tensor(1))", x=ANY(VEC))

_BCE = "binary_cross_entropy"
TARGETS = partial(U, lo=0.0, hi=1.0)
add(_BCE, f"F.{_BCE}(x, t)", x=PROB(MAT), const={"t": TARGETS(MAT)})
add(_BCE, f"F.{_BCE}(x, t, reduction='sum')", x=PROB(VEC), const={"t": V([0.0, 1.0, 1.0])})
add(_BCE, f"F.{_BCE}(x, t, reduction='none')", x=PROB(MAT), const={"t": TARGETS(MAT)})
add(_BCE, f"F.{_BCE}(x, y)", tag="target_grad", x=PROB(VEC), y=TARGETS(VEC))
add(_BCE, f"F.{_BCE}(x, t)", x=PROB(SCALAR), const={"t": V(1.0)})
add(_BCE, f"F.{_BCE}(torch.sigmoid(x), t)", x=ANY(MAT), const={"t": TARGETS(MAT)})

_BCEL = "binary_cross_entropy_with_logits"
add(_BCEL, f"F.{_BCEL}(x, t)", x=ANY(MAT), const={"t": TARGETS(MAT)})
add(_BCEL, f"F.{_BCEL}(x, t, reduction='sum')", x=ANY(VEC), const={"t": V([0.0, 1.0, 1.0])})
add(_BCEL, f"F.{_BCEL}(x, t, reduction='none')", x=ANY(MAT), const={"t": TARGETS(MAT)})
add(_BCEL, f"F.{_BCEL}(x, t, pos_weight=torch.tensor([1.0, 2.0, 0.5]))",
    x=ANY(MAT), const={"t": TARGETS(MAT)})
add(_BCEL, f"F.{_BCEL}(x, y)", tag="target_grad", x=ANY(VEC), y=TARGETS(VEC))
add(_BCEL, f"F.{_BCEL}(x, t)", x=ANY(SCALAR), const={"t": V(0.0)})
add(_BCEL, f"F.{_BCEL}(x, t, reduction='none')", tag="extreme",
    x=V(EXTREME), const={"t": V([0.0, 1.0, 1.0, 0.0, 1.0])})
add(_BCEL, f"F.{_BCEL}(x, t)", tag="extreme",
    x=V(EXTREME_2D), const={"t": V([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]])})

add("kl_div", "F.kl_div(x, t, reduction='batchmean')", x=LOGPROB(MAT), const={"t": SIMPLEX(MAT)})
add("kl_div", "F.kl_div(x, t, reduction='sum')", x=LOGPROB(VEC), const={"t": SIMPLEX(VEC)})
add("kl_div", "F.kl_div(x, t)", x=LOGPROB(MAT), const={"t": SIMPLEX(MAT)})
add("kl_div", "F.kl_div(x, t, reduction='none')", tag="zero_target",
    x=LOGPROB(VEC), const={"t": V([0.0, 0.25, 0.75])})
add("kl_div", "F.kl_div(F.log_softmax(x, 1), y, reduction='batchmean')", x=ANY(MAT), y=U(MAT, 0.1, 1.0))
add("kl_div", "F.kl_div(x, y, reduction='sum', log_target=True)", x=LOGPROB(MAT), y=LOGPROB(MAT))

add("cosine_similarity", "F.cosine_similarity(x, y)", x=ANY(MAT), y=ANY(MAT))
add("cosine_similarity", "F.cosine_similarity(x, y, dim=0)", x=ANY(VEC), y=ANY(VEC))
add("cosine_similarity", "F.cosine_similarity(x, y, dim=-1)", x=ANY(MAT), y=ANY(VEC))
add("cosine_similarity", "F.cosine_similarity(x, y, dim=0, eps=1e-6)", x=ANY(MAT), y=ANY(MAT))
add("normalize", "F.normalize(x)", x=ANY(MAT))
add("normalize", "F.normalize(x, dim=0)", x=ANY(VEC))
add("normalize", "F.normalize(x, p=1, dim=1)", x=ANY(MAT))
add("normalize", "F.normalize(x, p=2, dim=0)", x=ANY(MAT))
add("linear", "F.linear(x, W, b)", x=ANY(MAT), W=ANY((4, 3)), b=ANY((4,)))
add("linear", "F.linear(x, W)", x=ANY(MAT), W=ANY((2, 3)))
add("linear", "F.linear(x, W, b)", x=ANY(VEC), W=ANY((2, 3)), b=ANY((2,)))
add("linear", "F.linear(x, W, b)", x=ANY((2, 2, 3)), W=ANY((2, 3)), b=ANY(SCALAR))

# --- aliases and extra ops ------------------------------------------------------------------------

for _op, _spellings, _domain in [
    ("arcsin", ["torch.arcsin(x)", "x.arcsin()"], UNIT), ("arccos", ["torch.arccos(x)", "x.arccos()"], UNIT),
    ("arctan", ["torch.arctan(x)", "x.arctan()"], ANY), ("arcsinh", ["torch.arcsinh(x)", "x.arcsinh()"], ANY),
    ("arccosh", ["torch.arccosh(x)", "x.arccosh()"], GT1), ("arctanh", ["torch.arctanh(x)", "x.arctanh()"], UNIT),
    ("absolute", ["torch.absolute(x)", "x.absolute()"], ANY), ("negative", ["torch.negative(x)", "x.negative()"], ANY),
    ("fix", ["torch.fix(x)", "x.fix()"], ANY),
    ("clamp_min", ["torch.clamp_min(x, -0.5)", "x.clamp_min(0.2)"], ANY),
    ("clamp_max", ["torch.clamp_max(x, 0.5)", "x.clamp_max(-0.2)"], ANY),
]:
    sweep(_op, "full", _spellings, _domain, shapes=(VEC, MAT))
edges("clamp_min", "full", [("x.clamp_min(0.0)", [-1.0, 0.0, 1.0])])
edges("clamp_max", "full", [("torch.clamp_max(x, 0.5)", [0.0, 0.5, 1.0])])
for _op, _spellings, _xdom, _ydom in [
    ("arctan2", ["torch.arctan2(x, y)", "x.arctan2(y)"], NZ, NZ),
    ("subtract", ["torch.subtract(x, y)", "x.subtract(y)"], ANY, ANY),
    ("multiply", ["torch.multiply(x, y)", "x.multiply(y)"], ANY, ANY),
    ("divide", ["torch.divide(x, y)", "x.divide(y)"], ANY, NZ),
    ("true_divide", ["torch.true_divide(x, y)", "x.true_divide(y)"], ANY, NZ),
    ("xlogy", ["torch.xlogy(x, y)", "x.xlogy(y)"], ANY, POS),
]:
    sweep2(_op, "full", _spellings, _xdom, _ydom, pairs=[(MAT, MAT), (MAT, VEC)])
add("xlogy", "torch.xlogy(x, y)", tag="zero", x=V([0.0, 1.0, 2.0]), y=V([0.5, 0.5, 3.0]))
exprs("swapaxes", "full", [("x.swapaxes(0, 1)", MAT), ("torch.swapaxes(x, 0, 2)", (2, 3, 4))])
exprs("swapdims", "full", [("torch.swapdims(x, 0, 1)", MAT), ("x.swapdims(-1, 0)", (2, 3, 4))])
add("concat", "torch.concat([x, y])", x=ANY(VEC), y=ANY((2,)))
add("concatenate", "torch.concatenate((x, y), dim=1)", x=ANY(MAT), y=ANY((2, 1)))
add("ger", "torch.ger(x, y)", x=ANY(VEC), y=ANY((2,)))
add("ger", "x.ger(y)", x=ANY((2,)), y=ANY(VEC))
add("linalg.diagonal", "torch.linalg.diagonal(x)", x=ANY((2, 3, 3)))
add("linalg.diagonal", "torch.linalg.diagonal(x, offset=1)", x=ANY((3, 4)))
add("linalg.matmul", "torch.linalg.matmul(x, y)", x=ANY((2, 3, 4)), y=ANY((4, 2)))
add("linalg.matmul", "torch.linalg.matmul(x, y)", x=ANY(VEC), y=ANY((3, 2)))
exprs("linalg.vector_norm", "full", [
    ("torch.linalg.vector_norm(x)", MAT), ("torch.linalg.vector_norm(x, ord=1, dim=1)", MAT),
    ("torch.linalg.vector_norm(x, ord=math.inf)", VEC),
    ("torch.linalg.vector_norm(x, 3, dim=(0, 1), keepdim=True)", MAT),
    ("torch.linalg.vector_norm(x, ord=0.5)", VEC),
], domain=NZ)
add("linalg.norm", "torch.linalg.norm(x, ord=1)", x=ANY((3, 3)))
add("linalg.norm", "torch.linalg.norm(x, ord=-math.inf, dim=(0, 1), keepdim=True)", x=ANY((3, 3)))

# --- second derivatives of the ops whose cases above record only first derivatives -----------------
# (losses, linear algebra, shape and nn ops: the rules must differentiate again for Hessians)

for _op, _expr, _inputs, _const in [
    ("mse_loss", "F.mse_loss(x, y)", {"x": ANY(MAT), "y": ANY(MAT)}, None),
    ("l1_loss", "F.l1_loss(x, y, reduction='sum')", {"x": ANY(MAT), "y": ANY(MAT)}, None),
    ("smooth_l1_loss", "F.smooth_l1_loss(x, y, beta=0.5)", {"x": ANY(MAT), "y": ANY(MAT)}, None),
    ("huber_loss", "F.huber_loss(x, y, reduction='sum', delta=0.5)", {"x": ANY(MAT), "y": ANY(MAT)}, None),
    ("cross_entropy", "F.cross_entropy(x, torch.tensor([1, 0]))", {"x": ANY(MAT)}, None),
    ("cross_entropy", "F.cross_entropy(x, torch.tensor([2, -100, 0]), reduction='sum', label_smoothing=0.2)",
     {"x": ANY((3, 3))}, None),
    ("cross_entropy", "F.cross_entropy(x, y)", {"x": ANY(MAT), "y": U(MAT, 0.0, 1.0)}, None),
    ("nll_loss", "F.nll_loss(F.log_softmax(x, 1), torch.tensor([2, 0]))", {"x": ANY(MAT)}, None),
    ("binary_cross_entropy", "F.binary_cross_entropy(x, y)", {"x": PROB(MAT), "y": U(MAT, 0.0, 1.0)}, None),
    ("binary_cross_entropy_with_logits", "F.binary_cross_entropy_with_logits(x, y)",
     {"x": ANY(MAT), "y": U(MAT, 0.0, 1.0)}, None),
    ("binary_cross_entropy_with_logits",
     "F.binary_cross_entropy_with_logits(x, y, pos_weight=torch.tensor([1.0, 2.0, 0.5]), reduction='sum')",
     {"x": ANY(MAT), "y": U(MAT, 0.0, 1.0)}, None),
    ("kl_div", "F.kl_div(F.log_softmax(x, 1), y, reduction='batchmean')", {"x": ANY(MAT), "y": U(MAT, 0.1, 1.0)},
     None),
    ("kl_div", "F.kl_div(x, y, reduction='sum', log_target=True)", {"x": LOGPROB(MAT), "y": LOGPROB(MAT)}, None),
    ("cosine_similarity", "F.cosine_similarity(x, y)", {"x": ANY(MAT), "y": ANY(MAT)}, None),
    ("normalize", "F.normalize(x)", {"x": ANY(MAT)}, None),
    ("normalize", "F.normalize(x, p=3, dim=0)", {"x": NZ(MAT)}, None),
    ("linear", "torch.tanh(F.linear(x, W, b))", {"x": ANY(MAT), "W": ANY((4, 3)), "b": ANY((4,))}, None),
    ("softmax", "F.softmax(x, dim=1)", {"x": ANY(MAT)}, None),
    ("log_softmax", "F.log_softmax(x, dim=0)", {"x": ANY(MAT)}, None),
    ("det", "torch.det(W)", {"W": WC((3, 3))}, None),
    ("det", "torch.det(W)", {"W": WC((2, 3, 3))}, None),
    ("inverse", "torch.inverse(W)", {"W": WC((3, 3))}, None),
    ("linalg.solve", "torch.linalg.solve(W, y)", {"W": WC((3, 3)), "y": ANY(VEC)}, None),
    ("linalg.solve", "torch.linalg.solve(W, y)", {"W": WC((2, 2, 2)), "y": ANY((2, 2, 1))}, None),
    ("linalg.norm", "torch.linalg.norm(x, dim=1)", {"x": ANY(MAT)}, None),
    ("einsum", "torch.einsum('ij,jk->ik', x, y) ** 2", {"x": ANY(MAT), "y": ANY((3, 2))}, None),
    ("einsum", "torch.einsum('bij,bjk->bik', x, y)", {"x": ANY((2, 3, 4)), "y": ANY((2, 4, 2))}, None),
    ("mm", "torch.mm(x, y) ** 2", {"x": ANY(MAT), "y": ANY((3, 4))}, None),
    ("bmm", "torch.bmm(x, y)", {"x": ANY((2, 3, 4)), "y": ANY((2, 4, 2))}, None),
    ("outer", "torch.outer(x, y) ** 2", {"x": ANY(VEC), "y": ANY((2,))}, None),
    ("trace", "torch.trace(W @ W)", {"W": ANY((3, 3))}, None),
    ("diag", "torch.diag(x) @ W", {"x": ANY(VEC), "W": ANY((3, 3))}, None),
    ("tril", "torch.tril(W) ** 2", {"W": ANY((3, 3))}, None),
    ("cat", "torch.cat([x, y]) ** 2", {"x": ANY(VEC), "y": ANY((2,))}, None),
    ("stack", "torch.stack([x, y], dim=1) ** 3", {"x": ANY(MAT), "y": ANY(MAT)}, None),
    ("repeat", "x.repeat(2, 1) ** 2", {"x": ANY(MAT)}, None),
    ("gather", "torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]])) ** 2", {"x": ANY(MAT)}, None),
    ("index_select", "x.index_select(0, torch.tensor([1, 0, 1])) ** 2", {"x": ANY(MAT)}, None),
    ("roll", "torch.roll(x, 1, 1) ** 2", {"x": ANY(MAT)}, None),
    ("flip", "x.flip(0) * x", {"x": ANY(MAT)}, None),
    ("split", "torch.split(x, [1, 2], dim=1)[1] ** 2", {"x": ANY(MAT)}, None),
    ("index", "x[[0, 0, 1]] ** 2", {"x": ANY(VEC)}, None),
]:
    add(_op, _expr, second=True, tag="grad2", const=_const, **_inputs)

# --- issue 18 §4: the common calls -----------------------------------------------------------------

for _op, _spellings, _domain in [
    ("lgamma", ["torch.lgamma(x)", "x.lgamma()"], POS),
    ("digamma", ["torch.digamma(x)", "x.digamma()"], POS),
    ("erfinv", ["torch.erfinv(x)", "x.erfinv()"], UNIT),
    ("logit", ["torch.logit(x)", "x.logit()", "torch.logit(x, eps=0.2)"], PROB),
    ("sinc", ["torch.sinc(x)", "x.sinc()"], ANY),
    ("nan_to_num", ["torch.nan_to_num(x)", "x.nan_to_num(nan=1.0)"], ANY),
    ("relu6", ["F.relu6(x)"], partial(U, lo=-2.0, hi=8.0)),
    ("hardsigmoid", ["F.hardsigmoid(x)"], partial(U, lo=-4.0, hi=4.0)),
    ("hardswish", ["F.hardswish(x)"], partial(U, lo=-4.0, hi=4.0)),
    ("softsign", ["F.softsign(x)"], ANY),
    ("celu", ["F.celu(x)", "F.celu(x, alpha=2.0)", "torch.celu(x, 0.5)"], ANY),
]:
    sweep(_op, "full", _spellings, _domain)
add("digamma", "torch.digamma(x)", tag="negative", second=False, x=V([-2.5, -0.3, 0.7, 12.0]))
add("lgamma", "torch.lgamma(x)", tag="negative", x=V([-2.5, -0.3, 0.7, 12.0]))
edges("sinc", "full", [("torch.sinc(x)", [-1.0, 0.0, 0.5, 2.0])])
edges("logit", "full", [("torch.logit(x, eps=0.25)", [0.1, 0.25, 0.5, 0.9])])
edges("nan_to_num", "full", [("torch.nan_to_num(x, posinf=5.0)", [float("nan"), float("inf"), -float("inf"), 1.5])])
edges("hardswish", "full", [("F.hardswish(x)", [-4.0, -3.0, 0.0, 3.0, 4.0])])
edges("hardsigmoid", "full", [("F.hardsigmoid(x)", [-4.0, -3.0, 0.0, 3.0, 4.0])])
edges("relu6", "full", [("F.relu6(x)", [-1.0, 0.0, 3.0, 6.0, 7.0])])
edges("celu", "full", [("F.celu(x, alpha=0.5)", [-1.0, 0.0, 1.0])])
# the activation modules of torch.nn's documentation (tests/programs/docs_nn_activations.py)
sweep("hardshrink", "full", ["F.hardshrink(x)", "torch.hardshrink(x, 0.3)", "x.hardshrink(lambd=1.0)"], ANY)
sweep("softshrink", "full", ["F.softshrink(x)", "F.softshrink(x, 1.0)"], ANY)
sweep("tanhshrink", "full", ["F.tanhshrink(x)"], ANY)
sweep("threshold", "full", ["F.threshold(x, 0.1, 20.0)", "torch.threshold(x, -0.5, 0.0)"], ANY)
edges("hardshrink", "full", [("F.hardshrink(x)", [-1.0, -0.5, 0.0, 0.5, 0.7])])
edges("softshrink", "full", [("F.softshrink(x)", [-1.0, -0.5, -0.25, 0.0, 0.5, 0.7])])
edges("threshold", "full", [("F.threshold(x, 0.5, -1.0)", [-1.0, 0.5, 0.7])])
add("softmin", "F.softmin(x, dim=1)", x=ANY(MAT))
add("softmin", "F.softmin(x, 0)", second=True, x=ANY(VEC))
add("glu", "F.glu(x)", x=ANY((3, 4)))
add("glu", "F.glu(x, dim=0)", second=True, x=ANY((4, 3)))

for _op, _spellings, _xdom, _ydom in [
    ("hypot", ["torch.hypot(x, y)", "x.hypot(y)"], NZ, NZ),
    ("fmod", ["torch.fmod(x, y)", "x.fmod(y)"], ANY, NZ),
    ("remainder", ["torch.remainder(x, y)", "x.remainder(y)"], ANY, NZ),
    ("logaddexp", ["torch.logaddexp(x, y)", "x.logaddexp(y)"], ANY, ANY),
    ("logaddexp2", ["torch.logaddexp2(x, y)", "x.logaddexp2(y)"], ANY, ANY),
    ("copysign", ["torch.copysign(x, y)", "x.copysign(y)"], ANY, ANY),
    ("float_power", ["torch.float_power(x, y)", "x.float_power(y)"], POS, ANY),
    ("fmax", ["torch.fmax(x, y)", "x.fmax(y)"], ANY, ANY),
    ("fmin", ["torch.fmin(x, y)", "x.fmin(y)"], ANY, ANY),
]:
    sweep2(_op, "full", _spellings, _xdom, _ydom, pairs=[(MAT, MAT), (MAT, VEC), (SCALAR, VEC)])
add("fmod", "torch.fmod(x, 0.75)", x=ANY(MAT))
add("remainder", "torch.remainder(x, -0.75)", x=ANY(MAT))
add("remainder", "x.remainder(1.5)", x=ANY(VEC))
add("copysign", "torch.copysign(x, -1.0)", x=ANY(VEC))
add("copysign", "torch.copysign(x, y)", tag="zero", x=V([0.0, -1.0, 2.0]), y=V([-1.0, 1.0, -0.0]))
add("float_power", "torch.float_power(x, 2)", x=ANY(MAT))
add("float_power", "torch.float_power(2, x)", x=ANY(VEC))
add("fmax", "torch.fmax(x, y)", tag="nan", x=V([1.0, float("nan"), 2.0]), y=V([float("nan"), 0.5, 2.0]))
add("fmin", "torch.fmin(x, y)", tag="nan", x=V([1.0, float("nan"), 2.0]), y=V([float("nan"), 0.5, 2.0]))
add("logaddexp", "torch.logaddexp(x, y)", tag="extreme", x=V([-1000.0, 1000.0, 0.0]), y=V([-1000.0, 0.0, 30.0]))
add("addcmul", "torch.addcmul(x, y, z)", x=ANY(MAT), y=ANY(MAT), z=ANY(VEC))
add("addcmul", "x.addcmul(y, z, value=0.5)", x=ANY(VEC), y=ANY(MAT), z=ANY(MAT))
add("addcdiv", "torch.addcdiv(x, y, z)", x=ANY(MAT), y=ANY(MAT), z=NZ(VEC))
add("addcdiv", "x.addcdiv(y, z, value=-2)", x=ANY(VEC), y=ANY(MAT), z=NZ(MAT))

exprs("sort", "full", [
    ("torch.sort(x)[0]", VEC), ("x.sort(dim=0).values", MAT), ("torch.sort(x, 1, descending=True)[0]", MAT),
    ("x.sort(dim=-1, stable=True).values * 2", (2, 3, 4)),
])
edges("sort", "full", [("torch.sort(x, descending=True).values", [1.0, 3.0, 1.0, 2.0])], tag="ties")
exprs("topk", "full", [
    ("torch.topk(x, 2)[0]", VEC), ("x.topk(2, dim=0).values", MAT), ("torch.topk(x, 1, largest=False)[0]", MAT),
    ("x.topk(3, dim=-1, sorted=True).values", (2, 3, 4)),
])
exprs("median", "full", [
    ("torch.median(x)", VEC), ("x.median()", MAT), ("torch.median(x, 1)[0]", MAT),
    ("x.median(dim=0, keepdim=True).values", MAT), ("torch.median(x, -1).values", (2, 3, 4)),
])
edges("median", "full", [("x.median()", [2.0, 1.0, 2.0, 3.0, 2.0]), ("x.median()", [1.0, 2.0, 3.0, 4.0])],
      tag="ties")
for _op in ("cummax", "cummin"):
    exprs(_op, "full", [(f"torch.{_op}(x, 0)[0]", VEC), (f"x.{_op}(1).values", MAT),
                        (f"torch.{_op}(x, dim=0).values", MAT)])
    edges(_op, "full", [(f"torch.{_op}(x, 0).values", [1.0, 3.0, 3.0, 2.0, -1.0, -1.0])], tag="ties")

exprs("nansum", "full", [("torch.nansum(x)", MAT), ("x.nansum(1)", MAT), ("torch.nansum(x, dim=0, keepdim=True)", MAT)])
edges("nansum", "full", [("torch.nansum(x)", [1.0, float("nan"), 2.5])], tag="nan")
exprs("nanmean", "full", [("torch.nanmean(x)", MAT), ("x.nanmean(dim=1)", MAT)])
edges("nanmean", "full", [("torch.nanmean(x)", [1.0, float("nan"), 2.5])], tag="nan")
for _op in ("var_mean", "std_mean"):
    exprs(_op, "full", [
        (f"torch.{_op}(x)[0]", MAT), (f"torch.{_op}(x)[1]", MAT), (f"torch.{_op}(x, dim=1)[0]", MAT),
        (f"torch.{_op}(x, 0, keepdim=True)[1]", MAT), (f"torch.{_op}(x, correction=0)[0]", VEC),
        (f"torch.{_op}(x, dim=1)[0] * torch.{_op}(x, dim=1)[1]", MAT),
    ])
exprs("logcumsumexp", "full", [
    ("torch.logcumsumexp(x, 0)", VEC), ("x.logcumsumexp(1)", MAT), ("torch.logcumsumexp(x, dim=0)", MAT),
])
edges("logcumsumexp", "full", [("torch.logcumsumexp(x, 0)", [-1000.0, 0.0, 1000.0, 999.0])], tag="extreme")
exprs("diff", "full", [
    ("torch.diff(x)", VEC), ("x.diff(dim=0)", MAT), ("torch.diff(x, n=2)", MAT),
    ("torch.diff(x, prepend=torch.tensor([0.5]), append=torch.tensor([1.0, 2.0]))", VEC),
])
exprs("trapezoid", "full", [
    ("torch.trapezoid(x)", VEC), ("torch.trapezoid(x, dx=0.5, dim=0)", MAT),
    ("torch.trapezoid(x, torch.tensor([0.0, 1.0, 3.0]))", MAT),
])
add("trapezoid", "torch.trapezoid(y, x)", x=ANY(VEC), y=ANY(MAT))
add("trapz", "torch.trapz(x)", x=ANY(MAT))

exprs("narrow", "full", [("x.narrow(1, 1, 2)", MAT), ("torch.narrow(x, 0, -1, 1)", MAT), ("x.narrow(0, 0, 2)", VEC)])
exprs("select", "full", [("x.select(1, 2)", MAT), ("torch.select(x, 0, -1)", MAT), ("x.select(2, 1)", (2, 3, 4))])
exprs("movedim", "full", [("torch.movedim(x, 0, 1)", MAT), ("x.movedim((0, 1), (2, 0))", (2, 3, 4))])
exprs("moveaxis", "full", [("torch.moveaxis(x, -1, 0)", (2, 3, 4))])
exprs("tile", "full", [("x.tile((2,))", VEC), ("torch.tile(x, (2, 1, 1))", MAT), ("x.tile((1, 2))", MAT)])
exprs("unbind", "full", [("x.unbind(1)[2]", MAT), ("torch.unbind(x)[0] * torch.unbind(x)[1]", MAT)])
add("vstack", "torch.vstack([x, y])", x=ANY(VEC), y=ANY(MAT))
add("row_stack", "torch.row_stack((x, y))", x=ANY(VEC), y=ANY(VEC))
add("hstack", "torch.hstack([x, y])", x=ANY(MAT), y=ANY((2, 1)))
add("hstack", "torch.hstack((x, y))", x=ANY(VEC), y=ANY((2,)))
exprs("broadcast_to", "full", [("x.broadcast_to(2, 3)", VEC), ("torch.broadcast_to(x, (2, 2, 3))", MAT)])
exprs("deg2rad", "full", [("torch.deg2rad(x)", MAT), ("x.deg2rad()", VEC), ("torch.deg2rad(x * 90)", SCALAR)])
exprs("rad2deg", "full", [("torch.rad2deg(x)", MAT), ("x.rad2deg()", VEC), ("torch.rad2deg(x) ** 2", VEC)])
exprs("positive", "full", [("torch.positive(x) * x", MAT), ("x.positive().exp()", VEC)])
exprs("atleast_1d", "full", [("torch.atleast_1d(x) * 2", SCALAR), ("torch.atleast_1d(x).exp()", MAT)])
exprs("atleast_2d", "full", [("torch.atleast_2d(x) * 2", SCALAR), ("torch.atleast_2d(x).exp()", VEC),
                             ("torch.atleast_2d(x).sin()", MAT)])
exprs("atleast_3d", "full", [("torch.atleast_3d(x) * 2", SCALAR), ("torch.atleast_3d(x).exp()", VEC),
                             ("torch.atleast_3d(x).sin()", MAT), ("torch.atleast_3d(x).cos()", (2, 3, 2))])
add("broadcast_tensors", "torch.broadcast_tensors(x, y)[0] * torch.broadcast_tensors(x, y)[1]",
    x=ANY((2, 1)), y=ANY(VEC))
add("broadcast_tensors", "torch.broadcast_tensors(x, y)[1].exp()", x=ANY(MAT), y=ANY(SCALAR))
exprs("fliplr", "full", [("x.fliplr()", MAT), ("torch.fliplr(x)", (2, 3, 4))])
exprs("flipud", "full", [("x.flipud()", MAT), ("torch.flipud(x)", VEC)])
exprs("rot90", "full", [("x.rot90()", MAT), ("torch.rot90(x, 2)", MAT), ("torch.rot90(x, 3, [1, 0])", (2, 3, 4))])
exprs("take_along_dim", "full", [
    ("torch.take_along_dim(x, torch.tensor([[0], [2]]), dim=1)", MAT),
    ("torch.take_along_dim(x, torch.tensor([0, 5, 5]))", MAT),
    ("x.take_along_dim(torch.argsort(x, dim=1), dim=1)", MAT),
])
exprs("masked_select", "full", [("x.masked_select(x > 0)", MAT),
                                ("torch.masked_select(x, torch.tensor([True, False, True]))", MAT)])
exprs("unflatten", "full", [("x.unflatten(1, (3, 1))", MAT), ("torch.unflatten(x, -1, (2, 2))", (2, 3, 4))])
exprs("repeat_interleave", "full", [
    ("x.repeat_interleave(2)", VEC), ("torch.repeat_interleave(x, 2, dim=0)", MAT),
    ("x.repeat_interleave(torch.tensor([1, 0, 2]), dim=1)", MAT),
])
exprs("scatter", "full", [
    ("x.scatter(1, torch.tensor([[0], [2]]), 9.0)", MAT),
    ("torch.scatter(x, 0, torch.tensor([[1, 0, 1]]), x[:1] * 2)", MAT),
])
add("scatter", "torch.zeros(2, 3, dtype=torch.float64).scatter(1, torch.tensor([[2, 0], [1, 1]]), y)", y=ANY((2, 2)))
add("scatter_add", "x.scatter_add(1, torch.tensor([[0, 0], [2, 1]]), y)", x=ANY(MAT), y=ANY((2, 2)))
add("scatter_add", "torch.scatter_add(x, 0, torch.tensor([[1, 1, 0]]), y)", x=ANY(MAT), y=ANY((1, 3)))
add("index_add", "x.index_add(0, torch.tensor([1, 0, 1]), y)", x=ANY(MAT), y=ANY((3, 3)))
add("index_add", "torch.index_add(x, 1, torch.tensor([2, 0]), y, alpha=0.5)", x=ANY(MAT), y=ANY((2, 2)))
add("meshgrid", "torch.meshgrid(x, y, indexing='ij')[0] * torch.meshgrid(x, y, indexing='ij')[1]",
    x=ANY(VEC), y=ANY((2,)))
add("meshgrid", "torch.meshgrid(x, y, indexing='xy')[1] ** 2", x=ANY(VEC), y=ANY((2,)))

# products and matrix functions
add("cross", "torch.cross(x, y, dim=0)", x=ANY(VEC), y=ANY(VEC))
add("cross", "x.cross(y, dim=1)", x=ANY((2, 3)), y=ANY((2, 3)))
add("linalg.cross", "torch.linalg.cross(x, y)", x=ANY((2, 3)), y=ANY((1, 3)))
add("kron", "torch.kron(x, y)", x=ANY(MAT), y=ANY((2, 2)))
add("kron", "x.kron(y)", x=ANY(VEC), y=ANY((2,)))
add("tensordot", "torch.tensordot(x, y, 1)", x=ANY(MAT), y=ANY((3, 2)))
add("tensordot", "torch.tensordot(x, y, dims=([0, 2], [1, 0]))", x=ANY((2, 3, 4)), y=ANY((4, 2)))
add("tensordot", "torch.tensordot(x, y, 0)", x=ANY(VEC), y=ANY((2,)))
add("inner", "torch.inner(x, y)", x=ANY(VEC), y=ANY(VEC))
add("inner", "x.inner(y)", x=ANY(MAT), y=ANY((4, 3)))
add("addmm", "torch.addmm(b, x, y)", b=ANY((2,)), x=ANY(MAT), y=ANY((3, 2)))
add("addmm", "b.addmm(x, y, beta=0.5, alpha=2)", b=ANY((2, 2)), x=ANY(MAT), y=ANY((3, 2)))
add("dist", "torch.dist(x, y)", x=ANY(MAT), y=ANY(MAT))
add("dist", "x.dist(y, 1)", x=ANY(VEC), y=ANY(VEC))
add("dist", "torch.dist(x, y, p=3)", x=ANY(VEC), y=ANY(MAT))
add("cdist", "torch.cdist(x, y)", x=ANY(MAT), y=ANY((4, 3)))
add("cdist", "torch.cdist(x, y, p=1)", x=ANY((2, 2, 3)), y=ANY((2, 3, 3)))
for _op, _spelling in [("slogdet", "torch.slogdet(W)[1]"), ("linalg.slogdet", "torch.linalg.slogdet(W).logabsdet"),
                       ("logdet", "torch.logdet(W)"), ("matrix_exp", "torch.matrix_exp(W * 0.5)"),
                       ("linalg.matrix_exp", "torch.linalg.matrix_exp(W)"), ("matrix_power", "W.matrix_power(3)"),
                       ("linalg.matrix_power", "torch.linalg.matrix_power(W, -2)"),
                       ("linalg.svdvals", "torch.linalg.svdvals(W)")]:
    add(_op, _spelling, second=_op not in ("linalg.svdvals",), W=WC((3, 3)))
add("linalg.cholesky", "torch.linalg.cholesky(W @ W.mT + torch.eye(3))", second=True, W=ANY((3, 3)))
add("linalg.cholesky", "torch.linalg.cholesky(W @ W.mT + torch.eye(2), upper=True)", W=ANY((2, 2, 2)))
add("linalg.matrix_power", "torch.linalg.matrix_power(W, 5)", W=ANY((3, 3)))
add("linalg.matrix_power", "torch.linalg.matrix_power(W, 0)", W=ANY((2, 2)))
add("matrix_exp", "torch.matrix_exp(W)", W=ANY((2, 2, 2)))
add("linalg.multi_dot", "torch.linalg.multi_dot([x, W, y])", x=ANY(VEC), W=ANY((3, 3)), y=ANY(VEC))
add("linalg.multi_dot", "torch.linalg.multi_dot([x, y, W, W])", x=ANY(MAT), y=ANY((3, 4)), W=ANY((4, 4)))
for _spelling in ["torch.linalg.matrix_norm(W)", "torch.linalg.matrix_norm(W, 1)", "torch.linalg.matrix_norm(W, -1)",
                  "torch.linalg.matrix_norm(W, ord=math.inf)", "torch.linalg.matrix_norm(W, ord='nuc')",
                  "torch.linalg.matrix_norm(W, 2)", "torch.linalg.matrix_norm(W, ord=-math.inf, keepdim=True)"]:
    add("linalg.matrix_norm", _spelling, second=False, W=ANY((3, 3)))

# torch.nn.functional layers and losses
add("embedding", "F.embedding(torch.tensor([[0, 2], [2, 1]]), W)", W=ANY((3, 3)))
add("embedding", "F.embedding(torch.tensor([0, 2, 2]), W, padding_idx=2)", W=ANY((3, 2)))
add("layer_norm", "F.layer_norm(x, (4,), w, b)", second=True, x=ANY((2, 3, 4)), w=ANY((4,)), b=ANY((4,)))
add("layer_norm", "F.layer_norm(x, (2, 3))", second=True, x=ANY((2, 2, 3)))
add("batch_norm", "F.batch_norm(x, None, None, w, b, training=True)", second=True, x=ANY((4, 3)), w=ANY((3,)),
    b=ANY((3,)))
add("batch_norm", "F.batch_norm(x, torch.zeros(3), torch.ones(3) * 2, w, b)", x=ANY((2, 3, 2)), w=ANY((3,)),
    b=ANY((3,)))
add("group_norm", "F.group_norm(x, 2, w, b)", second=True, x=ANY((2, 4, 3)), w=ANY((4,)), b=ANY((4,)))
add("group_norm", "F.group_norm(x, 1)", x=ANY((2, 3, 2)))
add("pad", "F.pad(x, (1, 2))", x=ANY(MAT))
add("pad", "F.pad(x, (1, 0, 0, 2), value=-1.0)", x=ANY(MAT))
add("pad", "F.pad(x, (-1, 1))", x=ANY(MAT))
add("pad", "F.pad(x, (2, 1), mode='reflect')", x=ANY((2, 4)))
add("pad", "F.pad(x, (1, 2), mode='replicate')", x=ANY((1, 2, 3)))
add("pad", "F.pad(x, (1, 1, 2, 0), mode='reflect')", x=ANY((1, 1, 3, 3)))
add("pad", "F.pad(x, (1, 2), mode='circular')", x=ANY((1, 2, 3)))
add("prelu", "F.prelu(x, w)", x=ANY((2, 3, 2)), w=U(VEC, 0.0, 0.5))
add("prelu", "F.prelu(x, w)", x=ANY(MAT), w=U((1,), 0.0, 0.5))
add("pairwise_distance", "F.pairwise_distance(x, y)", x=ANY(MAT), y=ANY(MAT))
add("pairwise_distance", "F.pairwise_distance(x, y, p=1, keepdim=True)", x=ANY(MAT), y=ANY(VEC))
add("max_pool1d", "F.max_pool1d(x, 2)", x=ANY((2, 2, 5)))
add("max_pool1d", "F.max_pool1d(x, 3, stride=1, padding=1)", x=ANY((2, 4)))
add("max_pool2d", "F.max_pool2d(x, 2)", x=ANY((1, 2, 4, 4)))
add("max_pool2d", "F.max_pool2d(x, 3, stride=2, padding=1)", x=ANY((1, 1, 5, 5)))
add("max_pool2d", "F.max_pool2d(x, 2, ceil_mode=True)", x=ANY((1, 1, 5, 5)))
add("avg_pool1d", "F.avg_pool1d(x, 2)", x=ANY((2, 2, 5)))
add("avg_pool1d", "F.avg_pool1d(x, 3, stride=1, padding=1)", x=ANY((2, 4)))
add("avg_pool2d", "F.avg_pool2d(x, 2)", second=True, x=ANY((1, 2, 4, 4)))
add("avg_pool2d", "F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)", x=ANY((1, 1, 5, 5)))
add("conv1d", "F.conv1d(x, w, b)", x=ANY((2, 3, 5)), w=ANY((4, 3, 2)), b=ANY((4,)))
add("conv1d", "F.conv1d(x, w, stride=2, padding=1)", x=ANY((1, 2, 6)), w=ANY((3, 2, 3)))
add("conv2d", "F.conv2d(x, w, b)", x=ANY((1, 2, 4, 4)), w=ANY((3, 2, 2, 2)), b=ANY((3,)))
add("conv2d", "F.conv2d(x, w, padding=1, stride=2)", x=ANY((2, 1, 5, 5)), w=ANY((2, 1, 3, 3)))
add("conv2d", "F.conv2d(x, w, dilation=2)", x=ANY((1, 2, 5, 5)), w=ANY((1, 2, 2, 2)))
add("conv2d", "F.conv2d(x, w, groups=2)", x=ANY((1, 4, 3, 3)), w=ANY((2, 2, 2, 2)))
add("conv_transpose2d", "F.conv_transpose2d(x, w, b)", x=ANY((1, 3, 2, 3)), w=ANY((3, 2, 2, 2)), b=ANY((2,)))
add("conv_transpose2d", "F.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)", x=ANY((1, 2, 2, 2)),
    w=ANY((2, 1, 3, 3)))
add("conv_transpose2d", "F.conv_transpose2d(x, w, stride=(1, 2), dilation=(2, 1), groups=2)", x=ANY((1, 4, 2, 2)),
    w=ANY((4, 1, 2, 2)))
add("conv_transpose2d", "F.conv_transpose2d(x, w)", x=ANY((2, 2, 3)), w=ANY((2, 2, 2, 2)))
add("conv3d", "F.conv3d(x, w, b, padding=(1, 0, 1))", x=ANY((1, 2, 2, 3, 2)), w=ANY((2, 2, 2, 2, 2)), b=ANY((2,)))
add("conv3d", "F.conv3d(x, w, stride=(1, 2, 1), groups=2)", x=ANY((2, 2, 2, 3, 2)), w=ANY((2, 1, 1, 2, 2)))
add("conv_transpose1d", "F.conv_transpose1d(x, w, b, stride=2, output_padding=1)", x=ANY((2, 2, 3)),
    w=ANY((2, 3, 2)), b=ANY((3,)))
add("conv_transpose3d", "F.conv_transpose3d(x, w, b, stride=(1, 2, 1), padding=(0, 1, 0))", x=ANY((1, 2, 2, 2, 2)),
    w=ANY((2, 1, 2, 3, 2)), b=ANY((1,)))
add("poisson_nll_loss", "F.poisson_nll_loss(x, t)", x=ANY(MAT), const={"t": U(MAT, 0.0, 3.0)})
add("poisson_nll_loss", "F.poisson_nll_loss(x, t, log_input=False, full=True, reduction='sum')", x=POS(MAT),
    const={"t": U(MAT, 0.0, 3.0)})
add("gaussian_nll_loss", "F.gaussian_nll_loss(x, t, v)", x=ANY(MAT), v=POS(MAT), const={"t": ANY(MAT)})
add("gaussian_nll_loss", "F.gaussian_nll_loss(x, t, v, full=True, reduction='none')", x=ANY(MAT), v=POS((2, 1)),
    const={"t": ANY(MAT)})
add("margin_ranking_loss", "F.margin_ranking_loss(x, y, torch.tensor([1.0, -1.0, 1.0]), margin=0.1)", x=ANY(VEC),
    y=ANY(VEC))
add("hinge_embedding_loss", "F.hinge_embedding_loss(x, torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]]))",
    x=ANY(MAT))
add("soft_margin_loss", "F.soft_margin_loss(x, torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]]))", second=True,
    x=ANY(MAT))
add("multilabel_soft_margin_loss", "F.multilabel_soft_margin_loss(x, torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]))",
    second=True, x=ANY(MAT))
add("multilabel_soft_margin_loss", "F.multilabel_soft_margin_loss(x, torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]), "
    "weight=torch.tensor([0.5, 1.0, 2.0]), reduction='sum')", x=ANY(MAT))
add("triplet_margin_loss", "F.triplet_margin_loss(x, y, z)", x=ANY(MAT), y=ANY(MAT), z=ANY(MAT))
add("triplet_margin_loss", "F.triplet_margin_loss(x, y, z, p=1, swap=True, margin=2.0)", x=ANY(MAT), y=ANY(MAT),
    z=ANY(MAT))
add("cosine_embedding_loss", "F.cosine_embedding_loss(x, y, torch.tensor([1, -1]))", x=ANY(MAT), y=ANY(MAT))
add("cosine_embedding_loss", "F.cosine_embedding_loss(x, y, torch.tensor([-1, -1]), margin=-0.5)", x=ANY(MAT),
    y=ANY(MAT))
add("multi_margin_loss", "F.multi_margin_loss(x, torch.tensor([1, 0]))", x=ANY((2, 4)))
add("multi_margin_loss", "F.multi_margin_loss(x, torch.tensor([2, 0, 3]), p=2, margin=0.5, reduction='none')",
    x=ANY((3, 4)))

add("multilabel_margin_loss", "F.multilabel_margin_loss(x, torch.tensor([[3, 0, -1, 1], [1, 2, 0, 3]]))",
    x=ANY((2, 4)))
add("multilabel_margin_loss", "F.multilabel_margin_loss(x, torch.tensor([[2, -1, 0], [0, 1, 1], [-1, 0, 0]]), "
    "reduction='none')", x=ANY((3, 3)))
add("ctc_loss", "F.ctc_loss(F.log_softmax(x, 2), torch.tensor([[1, 2], [2, 2]]), (4, 3), (2, 1))",
    x=ANY((4, 2, 3)))
add("ctc_loss", "F.ctc_loss(F.log_softmax(x, 1), torch.tensor([1, 1]), torch.tensor(5), torch.tensor(2), blank=2, "
    "reduction='none')", x=ANY((5, 3)))
add("instance_norm", "F.instance_norm(x)", x=ANY((2, 3, 4)))
add("instance_norm", "F.instance_norm(x, weight=w, bias=b)", x=ANY((2, 2, 3, 2)), w=ANY((2,)), b=ANY((2,)))
add("adaptive_avg_pool2d", "F.adaptive_avg_pool2d(x, (2, 3))", x=ANY((1, 2, 5, 4)))
add("adaptive_max_pool2d", "F.adaptive_max_pool2d(x, 2)", x=ANY((1, 2, 5, 4)))
add("interpolate", "F.interpolate(x, scale_factor=2, mode='bilinear')", x=ANY((1, 2, 3, 2)))
add("interpolate", "F.interpolate(x, size=(4, 3), mode='bicubic', align_corners=True)", x=ANY((1, 1, 3, 2)))
add("interpolate", "F.interpolate(x, scale_factor=1.5, mode='linear')", x=ANY((2, 1, 4)))
add("interpolate", "F.interpolate(x, size=(3, 2, 3), mode='trilinear')", x=ANY((1, 1, 2, 3, 2)))
add("interpolate", "F.interpolate(x, size=5, mode='nearest-exact')", x=ANY((1, 2, 3)))
add("interpolate", "F.interpolate(x, size=(2, 2), mode='area')", x=ANY((1, 1, 4, 3)))
add("upsample", "F.upsample(x, scale_factor=2)", x=ANY((1, 1, 2, 3)))
add("upsample_nearest", "F.upsample_nearest(x, size=(3, 4))", x=ANY((1, 1, 2, 3)))
add("upsample_bilinear", "F.upsample_bilinear(x, size=(3, 4))", x=ANY((1, 1, 2, 3)))
add("adaptive_avg_pool3d", "F.adaptive_avg_pool3d(x, (2, 1, 2))", x=ANY((1, 2, 3, 2, 3)))
add("bilinear", "F.bilinear(x, y, w, b)", x=ANY((3, 2)), y=ANY((3, 4)), w=ANY((2, 2, 4)), b=ANY((2,)))

exprs("quantile", "full", [
    ("torch.quantile(x, 0.3)", MAT), ("x.quantile(0.5, dim=1)", MAT),
    ("torch.quantile(x, 0.25, dim=0, keepdim=True)", MAT),
    ("torch.quantile(x, torch.tensor([0.1, 0.5, 0.9]), dim=1)", MAT),
    ("torch.quantile(x, 0.4, interpolation='lower')", VEC), ("torch.quantile(x, 0.4, interpolation='higher')", VEC),
    ("torch.quantile(x, 0.4, interpolation='midpoint')", VEC), ("torch.quantile(x, 0.6, interpolation='nearest')", VEC),
])
exprs("nanquantile", "full", [("torch.nanquantile(x, 0.5, dim=1)", MAT)])
edges("nanquantile", "full", [("torch.nanquantile(x, 0.5)", [1.0, float("nan"), 3.0, 2.0])], tag="nan")

# eigh, qr, pinv (eigenvectors through sign-free functions: a vector's sign is LAPACK's choice)
add("linalg.eigh", "torch.linalg.eigh(W @ W.mT + torch.eye(3)).eigenvalues", W=ANY((3, 3)))
add("linalg.eigh", "torch.linalg.eigh(W @ W.mT + torch.eye(3))[1] ** 2", W=ANY((3, 3)))
add("linalg.eigvalsh", "torch.linalg.eigvalsh(W + W.mT)", W=ANY((3, 3)))
add("linalg.qr", "torch.linalg.qr(x).R ** 2", x=ANY((4, 3)))
add("linalg.qr", "torch.linalg.qr(x)[0] ** 2", x=ANY((3, 3)))
add("linalg.pinv", "torch.linalg.pinv(x)", x=ANY((4, 3)))
add("linalg.pinv", "torch.linalg.pinv(x)", x=ANY((2, 4)))
add("linalg.lstsq", "torch.linalg.lstsq(x, y).solution", x=ANY((5, 3)), y=ANY((5, 2)))
add("linalg.lstsq", "torch.linalg.lstsq(x, y)[0]", x=ANY((4, 2)), y=ANY((4, 1)))
# svd (singular vectors through sign-free functions, as eigh's above)
add("svd", "torch.svd(x).S", second=False, x=ANY((4, 3)))
add("svd", "torch.svd(x)[0] ** 2", second=False, x=ANY((4, 3)))
add("svd", "x.svd().V ** 2", second=False, x=ANY((2, 3, 2)))
add("svd", "torch.svd(x, some=False).U[:, :2] ** 2", second=False, x=ANY((2, 4)))
add("linalg.svd", "torch.linalg.svd(x).S", second=False, x=ANY((3, 4)))
add("linalg.svd", "torch.linalg.svd(x, full_matrices=False).Vh ** 2", second=False, x=ANY((3, 4)))
add("linalg.svd", "torch.linalg.svd(x, full_matrices=False)[0].abs() + (torch.linalg.svd(x)[2][:2] ** 2).sum()",
    second=False, x=ANY((2, 2)))

# --- Tensor methods of the survey (ops/method_forms.py) ---------------------------------------------
exprs("ravel", "full", [("x.ravel()", MAT), ("x.t().ravel() * 2", MAT), ("torch.ravel(x) ** 2", (2, 2, 2)),
                        ("x.ravel()", SCALAR)])
exprs("msort", "full", [("x.msort()", (4, 3)), ("torch.msort(x) * x", VEC), ("x.msort() ** 2", (3, 2, 2))])
exprs("adjoint", "full", [("x.adjoint()", MAT), ("x.adjoint() @ x", (3, 2)), ("x.adjoint() ** 2", (2, 3, 4))])
exprs("positive", "full", [("x.positive() * x", MAT), ("torch.positive(x) ** 2", VEC)])
exprs("tensor_split", "full", [
    ("x.tensor_split(3, dim=1)[1] ** 2", (2, 5)), ("torch.tensor_split(x, [1, 3])[1]", (5,)),
    ("x.tensor_split(2)[0] * 3", (3, 2)), ("x.tensor_split([1, 10], dim=-1)[1]", (2, 3)),
])
exprs("hsplit", "full", [("x.hsplit(2)[1] ** 2", (2, 4)), ("torch.hsplit(x, [1])[0]", (6,))])
exprs("vsplit", "full", [("x.vsplit(2)[1] ** 2", (4, 2)), ("torch.vsplit(x, [1, 2])[2]", (3, 3))])
exprs("dsplit", "full", [("x.dsplit(2)[1] ** 2", (2, 2, 4)), ("torch.dsplit(x, [3])[0]", (1, 2, 4))])
exprs("split_with_sizes", "full", [("x.split_with_sizes([1, 2], 1)[1] ** 2", MAT),
                                   ("x.split_with_sizes([3, 1])[0]", (4,))])
exprs("sum_to_size", "full", [
    ("x.sum_to_size(1, 3) ** 2", MAT), ("x.sum_to_size(3) * 2", MAT), ("x.sum_to_size(2, 1)", (2, 3)),
    ("x.sum_to_size((3, 1, 2)) ** 2", (2, 3, 4, 2)), ("x.sum_to_size(2, 3) * x", MAT),
])
sweep("sgn", "full", ["torch.sgn(x)", "x.sgn() * x"], ANY)
sweep("deg2rad", "full", ["torch.deg2rad(x)", "x.deg2rad() ** 2"], ANY)
sweep("rad2deg", "full", ["torch.rad2deg(x)", "x.rad2deg() * x"], ANY)

exprs("take", "full", [("x.take(torch.tensor([0, 5, 5, -1])) ** 2", MAT),
                       ("torch.take(x, torch.tensor([[2], [0]]))", VEC),
                       ("x.take(torch.tensor(3)) * x.sum()", (2, 2, 2))])
exprs("diag_embed", "full", [("x.diag_embed() ** 2", VEC), ("torch.diag_embed(x, 1)", MAT),
                             ("x.diag_embed(-1, dim1=0, dim2=2) * 3", MAT)])
exprs("diagflat", "full", [("x.diagflat() ** 2", MAT), ("torch.diagflat(x, -1)", VEC), ("x.t().diagflat(2)", MAT)])
exprs("index_fill", "full", [("x.index_fill(1, torch.tensor([0, 2]), -1.5) ** 2", MAT),
                             ("torch.index_fill(x, 0, torch.tensor([-1]), 0.0) * x", (3, 2))])
add("index_copy", "x.index_copy(1, torch.tensor([2, 0]), y) ** 2", x=ANY(MAT), y=ANY((2, 2)))
add("index_copy", "torch.index_copy(x, 0, torch.tensor([1]), y) * x", x=ANY((3, 2)), y=ANY((1, 2)))
add("masked_scatter", "x.masked_scatter(x > 0, y) ** 2", x=ANY(MAT), y=ANY((7,)))
add("masked_scatter", "torch.masked_scatter(x, torch.tensor([True, False, True]), y * 2)", x=ANY(MAT), y=ANY((2, 3)))
add("ldexp", "x.ldexp(torch.tensor([1, -2, 3])) ** 2", x=ANY(VEC))
add("ldexp", "torch.ldexp(x, y)", x=ANY(VEC), y=ANY(VEC))
add("ldexp", "x.ldexp(y) * x", x=ANY(MAT), y=ANY((3,)))
exprs("frexp", "full", [("x.frexp()[0] ** 2", MAT), ("torch.frexp(x)[0] * x", VEC)], domain=POS)

add("vdot", "x.vdot(y)", x=ANY((5,)), y=ANY((5,)))
add("vdot", "torch.vdot(x, y * x) ** 2", x=ANY(VEC), y=ANY(VEC))

add("qr", "x.qr()[0] ** 2", second=False, x=ANY((3, 2)))
add("qr", "torch.qr(x)[1] * 2", second=False, x=ANY((3, 3)))
add("pinverse", "x.pinverse()", x=ANY((4, 3)))
add("pinverse", "torch.pinverse(x, rcond=0.1) ** 2", x=ANY((2, 3)))

# --- Hessians of scalar functions (torch.autograd.functional.hessian) ----------------------------


def hessian(expr, const=None, tag="", **inputs):
    HESSIANS.append(Case("hessian", "full", expr, inputs, const or {}, False, tag))


hessian("x @ A @ x", tag="quadratic_form", x=ANY(VEC), const={"A": ANY((3, 3))})
hessian("(x ** 3).sum()", tag="cubes", x=ANY(VEC))
hessian("torch.sin(x).prod()", tag="sin_prod", x=ANY(VEC))
hessian("(x * y).sum() ** 2", tag="dot_squared", x=ANY(VEC), y=ANY(VEC))
hessian("torch.logsumexp(x, 0)", tag="logsumexp", x=ANY(VEC))
hessian("F.softmax(x, 0)[0]", tag="softmax", x=ANY(VEC))
hessian("torch.tanh(x @ W).sum()", tag="tanh_layer", x=ANY(VEC), W=ANY((3, 2)))
hessian("torch.norm(x)", tag="norm", x=ANY(VEC))
hessian("F.cross_entropy(x, torch.tensor([1, 0]))", tag="cross_entropy", x=ANY(MAT))
hessian("(x / y).sum()", tag="ratio", x=ANY(VEC), y=POS(VEC))
hessian("(x ** 2 * y).sum()", tag="scalars", x=ANY(SCALAR), y=ANY(SCALAR))
hessian("torch.det(W)", tag="det", W=WC((3, 3)))
hessian("torch.inverse(W).sum()", tag="inverse", W=WC((2, 2)))
hessian("(torch.linalg.solve(W, y) ** 2).sum()", tag="solve", W=WC((2, 2)), y=ANY((2,)))
hessian("F.binary_cross_entropy_with_logits(x, y)", tag="bce_logits", x=ANY(VEC), y=U(VEC, 0.0, 1.0))
hessian("F.binary_cross_entropy(torch.sigmoid(x), t)", tag="bce", x=ANY(VEC), const={"t": U(VEC, 0.0, 1.0)})
hessian("F.huber_loss(x, y, delta=0.5)", tag="huber", x=ANY(VEC), y=ANY(VEC))
hessian("F.smooth_l1_loss(x, t)", tag="smooth_l1", x=ANY(VEC), const={"t": ANY(VEC)})
hessian("F.mse_loss(x, y)", tag="mse", x=ANY(VEC), y=ANY(VEC))
hessian("F.kl_div(F.log_softmax(x, 0), t, reduction='sum')", tag="kl_div", x=ANY(VEC), const={"t": SIMPLEX(VEC)})
hessian("F.cross_entropy(x, t, label_smoothing=0.1)", tag="cross_entropy_probs", x=ANY(MAT), const={"t": SIMPLEX(MAT)})
hessian("F.cosine_similarity(x, y, dim=0)", tag="cosine", x=ANY(VEC), y=ANY(VEC))
hessian("F.gelu(x).sum() + F.silu(x).prod() + F.mish(x).sum()", tag="activations", x=ANY(VEC))
hessian("F.softplus(x, beta=2).sum() + F.logsigmoid(x).sum() + F.elu(x).sum()", tag="smooth_activations",
        x=ANY(VEC))
hessian("torch.std(x) + torch.var(x, dim=0).sum()", tag="std_var", x=ANY(MAT))
hessian("torch.norm(x, p=3) + torch.linalg.vector_norm(x, ord=1.5)", tag="p_norms", x=NZ(VEC))
hessian("torch.cumprod(x, 0).sum() + x.prod()", tag="cumprod_prod", x=ANY((4,)))
hessian("torch.cumprod(x, 0).sum() + x.prod()", tag="cumprod_prod_zero", x=V([1.5, 0.0, -2.0, 0.5]))
hessian("torch.einsum('i,ij,j->', x, W, x)", tag="einsum", x=ANY(VEC), W=ANY((3, 3)))
hessian("torch.atan2(x, y).sum() + torch.erf(x * y).sum()", tag="atan2_erf", x=NZ(VEC), y=NZ(VEC))
hessian("(F.normalize(x, dim=0) * y).sum()", tag="normalize", x=NZ(VEC), y=ANY(VEC))
hessian("torch.lerp(x, y, w).pow(2).sum()", tag="lerp", x=ANY(VEC), y=ANY(VEC), w=U(VEC, 0.0, 1.0))
hessian("torch.logsumexp(x * y, 0) + torch.maximum(x, y).pow(2).sum()", tag="logsumexp_max", x=ANY(VEC),
        y=ANY(VEC))


# ----------------------------------------------------------------------------------------------
# Evaluation and encoding
# ----------------------------------------------------------------------------------------------


def encode(t: torch.Tensor | None):
    """Nested lists of floats; nan/inf become strings so the file is strict JSON."""
    if t is None:
        return None

    def clean(v):
        if isinstance(v, list):
            return [clean(e) for e in v]
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        return v

    t = t.detach()
    if t._is_zerotensor():  # autograd's storage-less "efficient zeros"
        t = torch.zeros(t.shape, dtype=t.dtype)
    return clean(t.tolist())


def tensor_record(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "value": encode(t)}


def shape_label(case: Case) -> str:
    return "&".join("(" + ",".join(map(str, spec.shape)) + ("," if len(spec.shape) == 1 else "") + ")"
                    for spec in case.inputs.values())


def seed_for(case: Case) -> int:
    return zlib.crc32(f"{case.op}|{case.expr}|{shape_label(case)}|{case.tag}".encode())


def random_like(rng: np.random.RandomState, shape) -> torch.Tensor:
    return torch.tensor(np.round(rng.uniform(-1.0, 1.0, shape), DECIMALS), dtype=torch.float64)


class Prepared:
    """A case's sampled values; fresh() gives new leaf tensors for each autograd pass."""

    def __init__(self, case: Case):
        self.case = case
        self.rng = np.random.RandomState(seed_for(case))
        self.arrays = {name: spec.sample(self.rng) for name, spec in {**case.inputs, **case.const}.items()}
        if case.op in TIE_SENSITIVE:
            for name, spec in case.inputs.items():
                values = self.arrays[name].ravel()
                distinct = len(set(values)) == values.size
                assert spec.kind == "fixed" or distinct, f"accidental tie in {case.expr}"

    def fresh(self) -> dict[str, torch.Tensor]:
        return {name: torch.tensor(arr, dtype=torch.float64, requires_grad=name in self.case.inputs)
                for name, arr in self.arrays.items()}

    def evaluate(self, tensors: dict[str, torch.Tensor]) -> torch.Tensor:
        # eval is fine here: a dev-only script evaluating the expressions written in this file.
        out = eval(self.case.expr, {"torch": torch, "F": F, "math": math, **tensors})
        assert isinstance(out, torch.Tensor) and out.dtype == torch.float64, self.case.expr
        assert out.requires_grad and out.numel() > 0, self.case.expr
        return out


def run_case(case: Case) -> dict:
    prep = Prepared(case)
    names = list(case.inputs)
    xs = prep.fresh()
    out = prep.evaluate(xs)
    grad_output = None if out.dim() == 0 else random_like(prep.rng, out.shape)
    out.backward(grad_output)
    rec = {
        "op": case.op,
        "tier": case.tier,
        "expr": case.expr,
        "inputs": {n: tensor_record(xs[n]) for n in names},
        "const": {n: tensor_record(xs[n]) for n in case.const},
        "output": tensor_record(out),
        "grad_output": encode(grad_output),
        "grads": {n: encode(xs[n].grad) for n in names},
        "grad_fn": type(out.grad_fn).__name__ if out.grad_fn else None,  # None: out is an input
    }
    if case.second:
        # grad2 = d/d inputs of s = sum_i (g_i * u_i).sum(), g_i the first grads built with create_graph.
        weights = {n: random_like(prep.rng, xs[n].shape) for n in names}
        xs = prep.fresh()
        leaves = [xs[n] for n in names]
        out = prep.evaluate(xs)
        firsts = torch.autograd.grad(out, leaves, grad_output, create_graph=True, allow_unused=True)
        terms = [(g * weights[n]).sum() for n, g in zip(names, firsts, strict=True)
                 if g is not None and g.requires_grad]  # a g_i without a graph is constant: d/dx = 0
        seconds = torch.autograd.grad(sum(terms), leaves, allow_unused=True) if terms else [None] * len(names)
        rec["grad2_weights"] = {n: encode(weights[n]) for n in names}
        rec["grad2"] = {n: encode(g) for n, g in zip(names, seconds, strict=True)}
    check_sizes(case, rec)
    return rec


def run_hessian(case: Case) -> dict:
    prep = Prepared(case)
    names = list(case.inputs)
    xs = prep.fresh()
    consts = {n: xs[n] for n in case.const}
    out = prep.evaluate(xs)
    assert out.dim() == 0, f"hessian needs a scalar function: {case.expr}"

    def fn(*args):
        return prep.evaluate({**consts, **dict(zip(names, args, strict=True))})

    # A tuple of inputs gives a tuple-of-tuples of blocks, hess[i][j] = d2 out / d names[i] d names[j].
    hess = torch.autograd.functional.hessian(fn, tuple(xs[n].detach() for n in names))
    return {
        "expr": case.expr,
        "inputs": {n: tensor_record(xs[n]) for n in names},
        "const": {n: tensor_record(xs[n]) for n in case.const},
        "output": tensor_record(out),
        "hessian": {f"{a},{b}": encode(hess[i][j]) for i, a in enumerate(names) for j, b in enumerate(names)},
    }


def check_sizes(case: Case, rec: dict) -> None:
    def count(v):
        return sum(count(e) for e in v) if isinstance(v, list) else 1

    tensors = [r["value"] for r in (*rec["inputs"].values(), *rec["const"].values(), rec["output"])]
    biggest = max(count(v) for v in tensors)
    assert biggest <= MAX_ELEMENTS, f"{case.expr}: {biggest} elements"


def assign_ids(records: list[dict], cases: list[Case], prefix: str | None = None) -> None:
    seen: Counter[str] = Counter()
    for rec, case in zip(records, cases, strict=True):
        base = f"{prefix or case.op}/{shape_label(case)}" + (f"/{case.tag}" if case.tag else "")
        seen[base] += 1
        rec["id"] = base if seen[base] == 1 else f"{base}#{seen[base]}"


def check_coverage(records: list[dict]) -> None:
    core = {r["op"] for r in records if r["tier"] == "core"}
    every = {r["op"] for r in records}
    missing_core = [op for op in CORE_OPS if op not in core]
    missing = [op for op in ALL_OPS if op not in every]
    assert not missing_core and not missing, (missing_core, missing)


def dump(data: dict) -> str:
    """One case per line: strict JSON that diffs well."""

    def items(key):
        return ",\n".join(json.dumps(r, allow_nan=False) for r in data[key])

    head = {k: v for k, v in data.items() if k not in ("cases", "hessians")}
    return (json.dumps(head, allow_nan=False)[:-1] + ',\n"cases": [\n' + items("cases")
            + '\n],\n"hessians": [\n' + items("hessians") + "\n]}\n")


def summarize(records: list[dict], hessians: list[dict], path: Path) -> None:
    per = Counter((r["op"], r["tier"]) for r in records)
    print(f"{'op':34} {'core':>5} {'full':>5} {'grad2':>6}")
    for op in ALL_OPS:
        n2 = sum(1 for r in records if r["op"] == op and "grad2" in r)
        print(f"{op:34} {per[op, 'core']:5d} {per[op, 'full']:5d} {n2:6d}")
    tiers = Counter(r["tier"] for r in records)
    print(f"\n{len(records)} cases (core {tiers['core']}, full {tiers['full']}), "
          f"{sum('grad2' in r for r in records)} with grad2, {len(hessians)} hessians, "
          f"{len(ALL_OPS)} ops; {path} is {path.stat().st_size / 1e6:.2f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--rerecord", action="store_true",
                        help="record every case again (by default a case already in --out with the same id and "
                             "expression keeps its record: another CPU's last-bit differences are not changes)")
    args = parser.parse_args()

    torch.set_num_threads(1)
    # F.kl_div's default reduction='mean' is covered on purpose; its deprecation notice is noise.
    warnings.filterwarnings("ignore", message="reduction: 'mean' divides the total loss")
    warnings.filterwarnings("ignore", message="torch.qr is deprecated")
    torch.set_default_dtype(torch.float64)  # inline float literals such as pos_weight
    records = [run_case(c) for c in CASES]
    assign_ids(records, CASES)
    hessians = [run_hessian(c) for c in HESSIANS]
    assign_ids(hessians, HESSIANS, prefix="hessian")
    check_coverage(records)

    if args.out.exists() and not args.rerecord:
        old = json.loads(args.out.read_text())
        kept = {(r["id"], r["expr"]): r for r in old["cases"]}
        records = [kept.get((r["id"], r["expr"]), r) for r in records]
        kept_hessians = {(h["id"], h["expr"]): h for h in old["hessians"]}
        hessians = [kept_hessians.get((h["id"], h["expr"]), h) for h in hessians]

    order = ("id", "op", "tier", "expr")
    data = {
        "torch_version": torch.__version__,
        "dtype": "float64",
        "ops": {"core": CORE_OPS, "full": ALL_OPS},
        "cases": [{k: r[k] for k in order} | {k: v for k, v in r.items() if k not in order} for r in records],
        "hessians": [{"id": h["id"]} | h for h in hessians],
    }
    text = dump(data)
    assert json.loads(text) == json.loads(json.dumps(data, allow_nan=False))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    summarize(records, hessians, args.out)


if __name__ == "__main__":
    main()
