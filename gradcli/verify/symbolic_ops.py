"""The sympy form of every op gradcli knows, each defined once: `OPS` maps an op name (as registered in
`gradcli.engine.ops.REGISTRY`) to a function of (the SympyBackend, the op's arguments by the engine's own
parameter names).  Tensors are numpy object arrays of sympy expressions, so numpy does the shapes.

Ops that are not differentiable everywhere note their kinks with the backend (`note_kinks`), so the
cross-check can tell a PyTorch convention from a real disagreement.
"""

from __future__ import annotations

import math
import operator
from collections import namedtuple

import numpy as np
import sympy as sp

from gradcli.verify.sympy_forms import (
    NoSymbolicForm,
    Relational,
    ReturnTypes,
    amax,
    amin,
    as_tensor,
    constant_array,
    dims_of,
    elementwise,
    index_key,
    number,
    shape_args,
    value_at,
    wrap,
)


def _sigmoid(a):
    return 1 / (1 + sp.exp(-a))


_ELEMENTWISE = {
    "exp": sp.exp, "log": sp.log, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "tanh": sp.tanh,
    "sqrt": sp.sqrt, "neg": operator.neg, "reciprocal": lambda a: 1 / a, "sigmoid": _sigmoid,
    "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "sinh": sp.sinh, "cosh": sp.cosh,
    "asinh": sp.asinh, "acosh": sp.acosh, "atanh": sp.atanh, "log2": lambda a: sp.log(a, 2),
    "log10": lambda a: sp.log(a, 10), "log1p": lambda a: sp.log(1 + a), "expm1": lambda a: sp.exp(a) - 1,
    "exp2": lambda a: 2 ** a, "square": lambda a: a ** 2, "rsqrt": lambda a: 1 / sp.sqrt(a),
    "erf": sp.erf, "erfc": sp.erfc, "silu": lambda a: a * _sigmoid(a),
    "logsigmoid": lambda a: -sp.log(1 + sp.exp(-a)), "mish": lambda a: a * sp.tanh(sp.log(1 + sp.exp(a))),
}
# Not differentiable where the argument is 0; their sympy derivatives carry sympy's own convention there.
_KINKED = {"relu": lambda a: sp.Max(a, 0), "abs": sp.Abs, "sign": sp.sign}


def _unary(fn, kink: str | None = None):
    def op(b, input, inplace=False):
        x = as_tensor(input)
        if kink:
            b.note_kinks(kink, "zero", *[(e,) for e in x.flat])
        return elementwise(fn, x)

    return op


def _add(b, input, other, *, alpha=1):
    return b.binary("+", input, b.binary("*", alpha, other) if alpha != 1 else other)


def _sub(b, input, other, *, alpha=1):
    return b.binary("-", input, b.binary("*", alpha, other) if alpha != 1 else other)


def _binary_op(symbol):
    return lambda b, input, other: b.binary(symbol, input, other)


def _pow(b, input, exponent):
    return b.binary("**", input, exponent)


def _clamp(b, input, min=None, max=None, op="clamp"):  # noqa: A002 - torch's names
    x = as_tensor(input)
    out = x
    if min is not None:
        b.note_kinks(op, "zero", *[(e,) for e in wrap(x - as_tensor(min)).flat])
        out = elementwise(sp.Max, out, as_tensor(min))
    if max is not None:
        b.note_kinks(op, "zero", *[(e,) for e in wrap(x - as_tensor(max)).flat])
        out = elementwise(sp.Min, out, as_tensor(max))
    return out


def _where(b, condition, input, other):
    cond, x = as_tensor(condition), as_tensor(input)
    if not _boolean(cond) and _boolean(x):  # the method form x.where(condition, y), as the engine reads it
        cond, x = x, cond
    b.note_kinks("where", "zero", *[(c.lhs - c.rhs,) for c in cond.flat if isinstance(c, Relational)])
    return elementwise(lambda c, p, q: sp.Piecewise((p, c), (q, True)), cond, x, as_tensor(other))


def _boolean(array) -> bool:
    return all(isinstance(e, sp.logic.boolalg.Boolean) for e in array.flat)


def _sum(b, input, dim=None, keepdim=False, *, dtype=None, axis=None):
    x = as_tensor(input)
    dims = dims_of(axis if dim is None else dim, x.ndim)
    return wrap(np.sum(x, axis=dims, keepdims=bool(keepdim)) if x.ndim else x.copy())


def _mean(b, input, dim=None, keepdim=False, *, dtype=None, axis=None):
    x = as_tensor(input)
    dims = dims_of(axis if dim is None else dim, x.ndim)
    count = math.prod(x.shape[d] for d in dims)
    return wrap(_sum(b, x, dims if dims else None, keepdim) / sp.Integer(count))


def _reduce(x, dims: tuple, keepdim: bool, fn):
    """fn(list of elements) over the axes `dims`, for every position along the other axes."""
    rest = [d for d in range(x.ndim) if d not in dims]
    moved = np.transpose(x, rest + list(dims))
    kept = moved.shape[:len(rest)]
    rows = moved.reshape(math.prod(kept), math.prod(moved.shape[len(rest):]))
    out = np.empty(len(rows), dtype=object)
    for i, row in enumerate(rows):
        out[i] = fn(list(row))
    out = out.reshape(kept)
    return wrap(np.expand_dims(out, dims) if keepdim else out)


def _extremum(largest: bool):
    """torch.max / torch.min: of all elements, (values, indices) along one dim, or of two tensors."""
    fn, op, tie = (amax, "max", "max-tie") if largest else (amin, "min", "min-tie")

    def reduce(b, input, dim=None, keepdim=False):
        x = as_tensor(input)
        if isinstance(dim, np.ndarray):  # torch.max(x, y) is torch.maximum(x, y)
            return OPS["maximum" if largest else "minimum"](b, x, dim)

        def extremum(row):
            b.note_kinks(op, tie, row)
            return fn(*row)

        if dim is None:
            return _reduce(x, dims_of(None, x.ndim), False, extremum)
        if x.ndim == 0:
            return ReturnTypes(x, wrap(sp.Integer(0)))
        d = dims_of(dim, x.ndim)[0]
        values = _reduce(x, (d,), bool(keepdim), extremum)
        return ReturnTypes(values, b.indices_of(values if keepdim else np.expand_dims(values, d), x, d, keepdim))

    return reduce


def _amax(largest: bool):
    """torch.amax / torch.amin: over several dims (all by default), values only."""
    fn, op, tie = (amax, "amax", "max-tie") if largest else (amin, "amin", "min-tie")

    def reduce(b, input, dim=(), keepdim=False):
        x = as_tensor(input)

        def extremum(row):
            b.note_kinks(op, tie, row)
            return fn(*row)

        return _reduce(x, dims_of(dim if dim != () else None, x.ndim), bool(keepdim), extremum)

    return reduce


def _logsumexp(b, input, dim, keepdim=False):
    x = as_tensor(input)
    return _reduce(x, dims_of(dim, x.ndim), bool(keepdim), lambda row: sp.log(sp.Add(*map(sp.exp, row))))


def _prod(b, input, dim=None, keepdim=False, *, dtype=None):
    x = as_tensor(input)
    return _reduce(x, dims_of(dim, x.ndim), bool(keepdim), lambda row: sp.Mul(*row))


def _variance(row, correction):
    mean = sp.Add(*row) / len(row)
    return sp.Add(*[(e - mean) ** 2 for e in row]) / (len(row) - correction)


def _var(b, input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    x = as_tensor(input)
    if correction is None:
        correction = 0 if unbiased is False else 1
    return _reduce(x, dims_of(dim, x.ndim), bool(keepdim), lambda row: _variance(row, correction))


def _std(b, input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return elementwise(sp.sqrt, _var(b, input, dim, unbiased, keepdim, correction=correction))


def _p_norm(row, p):
    if p in ("fro", 2, 2.0):
        return sp.sqrt(sp.Add(*[e ** 2 for e in row]))
    if p in (math.inf, -math.inf):
        return (amax if p > 0 else amin)(*map(sp.Abs, row))
    if isinstance(p, (int, float)) and p > 0:
        return sp.Add(*[sp.Abs(e) ** number(p) for e in row]) ** (1 / number(p))
    raise NoSymbolicForm(f"no symbolic form for the {p}-norm")


def _norm(b, input, p="fro", dim=None, keepdim=False, dtype=None):
    x = as_tensor(input)
    if p not in ("fro", 2, 2.0):
        b.note_kinks("norm", "zero", *[(e,) for e in x.flat])

    def norm(row):
        if p in (math.inf, -math.inf):
            b.note_kinks("norm", "max-tie" if p > 0 else "min-tie", [sp.Abs(e) for e in row])
        return _p_norm(row, p)

    return _reduce(x, dims_of(dim, x.ndim), bool(keepdim), norm)


def _vector_norm(b, input, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    return _norm(b, input, ord, dim, keepdim)


def _linalg_norm(b, A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    x = as_tensor(A)
    vector = isinstance(dim, (int, np.integer)) or (dim is None and x.ndim == 1)
    if ord is None or ord == "fro" or vector:  # a vector norm, or the Frobenius norm of matrices
        return _norm(b, x, 2 if ord is None else ord, dim, keepdim)
    raise NoSymbolicForm(f"no symbolic form for the matrix norm ord={ord}")


def _normalize(b, input, p=2.0, dim=1, eps=1e-12):
    x = as_tensor(input)
    norm = _norm(b, x, p, dim, True)
    return wrap(x / elementwise(lambda n: sp.Max(n, number(eps)), norm))


def _cosine_similarity(b, x1, x2, dim=1, eps=1e-8):
    # torch clamps the norms to eps outside the graph: away from tiny norms this is the plain formula
    a, c = np.broadcast_arrays(as_tensor(x1), as_tensor(x2))
    d = int(dim)
    return wrap(_sum(b, wrap(a * c), d) / (_norm(b, a, 2, d) * _norm(b, c, 2, d)))


def _cumulative(np_fn):
    def op(b, input, dim, *, dtype=None):
        x = as_tensor(input)
        return wrap(np_fn(x, axis=dims_of(dim, x.ndim)[0]) if x.ndim else x.copy())

    return op


def _softmax_parts(x, dim):
    if dim is None:
        raise NoSymbolicForm("no symbolic form for softmax without dim")
    d = dims_of(dim, x.ndim)
    exps = elementwise(sp.exp, x)
    return exps, np.sum(exps, axis=d, keepdims=True)


def _softmax(b, input, dim=None, *, dtype=None):
    x = as_tensor(input)
    if x.ndim == 0:
        return wrap(sp.Integer(1))
    exps, total = _softmax_parts(x, dim)
    return wrap(exps / total)


def _log_softmax(b, input, dim=None, *, dtype=None):
    x = as_tensor(input)
    if x.ndim == 0:
        return wrap(sp.Integer(0))
    _, total = _softmax_parts(x, dim)
    return wrap(x - elementwise(sp.log, total))


def _matmul(b, input, **second):  # the second operand is `other`, `mat2`, `vec` or `tensor`
    (other,) = second.values()
    return b.binary("@", input, other)


def _reshape(b, input, *shape):
    return as_tensor(input).reshape(shape_args(shape))


def _expand(b, input, *sizes):
    x = as_tensor(input)
    sizes = shape_args(sizes)
    lead = len(sizes) - x.ndim
    target = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
    return np.broadcast_to(x, target)


def _permute(b, input, *dims):
    return np.transpose(as_tensor(input), shape_args(dims))


def _transpose(b, input, dim0, dim1):
    x = as_tensor(input)
    return np.swapaxes(x, int(dim0), int(dim1)) if x.ndim else x


def _t(b, input):
    return as_tensor(input).T


def _squeeze(b, input, dim=None):
    x = as_tensor(input)
    if dim is None:
        return np.squeeze(x)
    dims = tuple(d for d in dims_of(dim, x.ndim) if x.shape[d] == 1)
    return np.squeeze(x, axis=dims) if dims else x


def _unsqueeze(b, input, dim):
    x = as_tensor(input)
    return np.expand_dims(x, int(dim) % (x.ndim + 1))


def _detach(b, self):
    """Values without history: numbers at the point, so nothing differentiates through them."""
    if b.point is None:
        raise NoSymbolicForm("no symbolic form for detach() without values")
    return constant_array(np.vectorize(lambda e: value_at(e, b.point), otypes=[object])(as_tensor(self)))


def _identity(b, input):
    return as_tensor(input)


def _conversion(target):
    """A dtype conversion is the identity when it keeps the calculation's dtype; otherwise it rounds, and
    the exact derivative would not match."""
    def op(b, input, *args, dtype=None, **kwargs):
        wanted = target or dtype or next((a for a in args if hasattr(a, "is_floating_point")), None)
        name = getattr(wanted, "name", wanted)
        if name not in (None, getattr(b.dtype, "name", "float64")):
            raise NoSymbolicForm(f"no symbolic form for a conversion to {name}")
        return as_tensor(input)

    return op


def _elementwise2(fn, kink: str | None = None):
    """A two-argument elementwise op (broadcasting); `kink`: not differentiable where the two are equal."""
    def op(b, input, other):
        x, y = as_tensor(input), as_tensor(other)
        if kink:
            b.note_kinks(kink, "zero", *[(e,) for e in wrap(x - y).flat])
        return elementwise(fn, x, y)

    return op


def _switch_at_zero(positive, otherwise):
    """Activations defined by one formula for x > 0 and another below."""
    return lambda a: sp.Piecewise((positive(a), a > 0), (otherwise(a), True))


def _leaky_relu(b, input, negative_slope=0.01, inplace=False):
    slope = number(negative_slope)
    return _unary(_switch_at_zero(lambda a: a, lambda a: slope * a), kink="leaky_relu")(b, input)


def _elu(b, input, alpha=1.0, inplace=False):
    alpha = number(alpha)
    return _unary(_switch_at_zero(lambda a: a, lambda a: alpha * (sp.exp(a) - 1)), kink="elu")(b, input)


def _selu(b, input, inplace=False):
    alpha, scale = number(1.6732632423543772), number(1.0507009873554805)  # torch's constants
    selu = _switch_at_zero(lambda a: scale * a, lambda a: scale * alpha * (sp.exp(a) - 1))
    return _unary(selu, kink="selu")(b, input)


def _gelu(b, input, approximate="none"):
    if approximate == "tanh":
        c = sp.sqrt(2 / sp.pi)
        return _unary(lambda a: a / 2 * (1 + sp.tanh(c * (a + number(0.044715) * a ** 3))))(b, input)
    return _unary(lambda a: a / 2 * (1 + sp.erf(a / sp.sqrt(2))))(b, input)


def _softplus(b, input, beta=1.0, threshold=20.0):
    beta, threshold = number(beta), number(threshold)
    x = as_tensor(input)
    b.note_kinks("softplus", "zero", *[(beta * e - threshold,) for e in x.flat])
    # torch switches to the identity above the threshold, as its kernel does
    return elementwise(lambda a: sp.Piecewise((a, beta * a > threshold), (sp.log(1 + sp.exp(beta * a)) / beta, True)),
                       x)


def _hardtanh(b, input, min_val=-1.0, max_val=1.0, inplace=False):
    return _clamp(b, input, min_val, max_val, op="hardtanh")


def _xlogy(b, input, other):
    return elementwise(lambda x, y: sp.Integer(0) if x == 0 else x * sp.log(y), as_tensor(input), as_tensor(other))


def _lerp(b, input, end, weight):
    return b.binary("+", input, b.binary("*", weight, b.binary("-", end, input)))


def _outer(b, input, vec2):
    return wrap(np.multiply.outer(as_tensor(input), as_tensor(vec2)))


def _linear(b, input, weight, bias=None):
    out = b.binary("@", input, as_tensor(weight).T)
    return out if bias is None else b.binary("+", out, bias)


def _batched(fn, x) -> np.ndarray:
    """fn(sympy Matrix) for each matrix in a (batch of) square matrices."""
    batch = x.shape[:-2]
    results = [fn(sp.Matrix(x[idx].tolist())) for idx in np.ndindex(batch)]
    if isinstance(results[0], sp.MatrixBase):
        return wrap(np.array([np.array(r.tolist(), dtype=object) for r in results]).reshape(x.shape))
    return wrap(np.array(results, dtype=object).reshape(batch))


def _det(b, input):
    return _batched(lambda m: m.det(), as_tensor(input))


def _inverse(b, input):
    return _batched(lambda m: m.inv(), as_tensor(input))


def _solve(b, A, B, *, left=True):
    a = as_tensor(A)
    if a.ndim != 2 or not left:
        raise NoSymbolicForm("no symbolic form for a batched linalg.solve")
    return b.binary("@", _inverse(b, a), B)


def _flatten(b, input, start_dim=0, end_dim=-1):
    x = as_tensor(input)
    if x.ndim == 0:
        return x.reshape(1)
    start, end = int(start_dim) % x.ndim, int(end_dim) % x.ndim
    return x.reshape(x.shape[:start] + (-1,) + x.shape[end + 1:])


def _flip(b, input, *dims, **kwargs):
    x = as_tensor(input)
    return np.flip(x, shape_args(dims or (kwargs["dims"],))) if x.ndim else x


def _roll(b, input, shifts, dims=None):
    return np.roll(as_tensor(input), shifts, dims)


def _repeat(b, input, *repeats):
    return np.tile(as_tensor(input), shape_args(repeats))


def _expand_as(b, input, other):
    return np.broadcast_to(as_tensor(input), as_tensor(other).shape)


def _cat(b, tensors, dim=0, *, axis=None):
    return np.concatenate([as_tensor(t) for t in tensors], axis=int(axis if axis is not None else dim))


def _stack(b, tensors, dim=0):
    return np.stack([as_tensor(t) for t in tensors], axis=int(dim))


def _pieces(x, sizes, d) -> tuple:
    bounds = np.cumsum([0, *sizes])
    return tuple(wrap(np.take(x, range(lo, hi), axis=d)) for lo, hi in zip(bounds[:-1], bounds[1:]))


def _split(b, tensor, split_size_or_sections, dim=0):
    x = as_tensor(tensor)
    d = int(dim) % max(x.ndim, 1)
    n = x.shape[d]
    if isinstance(split_size_or_sections, (list, tuple)):
        return _pieces(x, [int(s) for s in split_size_or_sections], d)
    size = int(split_size_or_sections)
    return _pieces(x, [min(size, n - start) for start in range(0, n, size)], d)


def _chunk(b, input, chunks, dim=0):
    x = as_tensor(input)
    n = x.shape[int(dim) % max(x.ndim, 1)]
    return _split(b, x, max(-(-n // int(chunks)), 1), dim)


def _gather(b, input, dim, index, *, sparse_grad=False):
    return np.take_along_axis(as_tensor(input), index_key(index, b), axis=int(dim))


def _index_select(b, input, dim, index):
    return np.take(as_tensor(input), index_key(index, b), axis=int(dim))


def _diagonal(b, input, offset=0, dim1=0, dim2=1):
    return np.diagonal(as_tensor(input), int(offset), int(dim1), int(dim2))


def _diag(b, input, diagonal=0):
    return np.diag(as_tensor(input), int(diagonal))


def _triangle(np_fn):
    return lambda b, input, diagonal=0: wrap(np_fn(as_tensor(input), int(diagonal)))


def _reduced(b, loss, reduction):
    if reduction == "none":
        return loss
    return _sum(b, loss) if reduction == "sum" else _mean(b, loss)


def _pointwise_loss(fn, kink: str | None = None, params: tuple = ()):
    """A loss of (input - target) per element, then reduced; `params` are fn's keyword parameters."""
    def op(b, input, target, reduction="mean", weight=None, **rest):
        if weight is not None:
            raise NoSymbolicForm("no symbolic form for this loss with weight")
        diff = wrap(as_tensor(input) - as_tensor(target))
        if kink:
            b.note_kinks(kink, "zero", *[(e,) for e in diff.flat])
        values = {k: number(rest[k]) for k in params if k in rest}
        return _reduced(b, elementwise(lambda d: fn(d, **values), diff), reduction)

    return op


def _bce(b, input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    x, t = as_tensor(input), as_tensor(target)
    loss = elementwise(lambda p, y: -(y * sp.log(p) + (1 - y) * sp.log(1 - p)), x, t)
    return _reduced(b, loss if weight is None else wrap(loss * as_tensor(weight)), reduction)


def _bce_logits(b, input, target, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
    x, t = as_tensor(input), as_tensor(target)
    pw = as_tensor(1 if pos_weight is None else pos_weight)
    # log(sigmoid(z)) = -log(1 + exp(-z)), log(1 - sigmoid(z)) = -log(1 + exp(z)): exact at |z| = 1000 too
    loss = elementwise(lambda z, y, w: w * y * sp.log(1 + sp.exp(-z)) + (1 - y) * sp.log(1 + sp.exp(z)), x, t, pw)
    return _reduced(b, loss if weight is None else wrap(loss * as_tensor(weight)), reduction)


def _nll(b, logp, target, weight, ignore_index, reduction, c_dim, smoothing=0):
    """-logp at the target class (class indices) or -sum(target * logp) (class probabilities), with
    torch's label smoothing: (1 - s) * that + s * mean over classes of -logp."""
    t = as_tensor(target)
    classes = logp.shape[c_dim]
    if smoothing and weight is not None:
        raise NoSymbolicForm("no symbolic form for label_smoothing with weight")
    if t.shape == logp.shape:  # class probabilities
        if weight is not None:
            raise NoSymbolicForm("no symbolic form for class-probability targets with weight")
        t = wrap(t * (1 - number(smoothing)) + number(smoothing) / classes)
        loss = wrap(-_sum(b, wrap(logp * t), c_dim))
        count = sp.Integer(max(loss.size, 1))
        return _sum(b, loss) if reduction == "sum" else (loss if reduction == "none" else wrap(_sum(b, loss) / count))
    index = index_key(t, b)
    ignored = index == ignore_index
    index = np.expand_dims(np.where(ignored, 0, index), c_dim)
    picked = np.squeeze(np.take_along_axis(logp, index, axis=c_dim), axis=c_dim)
    w = np.ones(picked.shape, dtype=object) if weight is None else as_tensor(weight)[np.squeeze(index, c_dim)]
    w = wrap(np.where(ignored, sp.Integer(0), w))
    loss = wrap(-picked * w)
    if smoothing:
        uniform = wrap(-_sum(b, logp, c_dim) / classes)
        loss = wrap((1 - number(smoothing)) * loss + number(smoothing) * np.where(ignored, sp.Integer(0), uniform))
    if reduction == "none":
        return loss
    return _sum(b, loss) if reduction == "sum" else wrap(_sum(b, loss) / sp.Add(*w.flat))


def _nll_loss(b, input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    x = as_tensor(input)
    return _nll(b, x, target, weight, ignore_index, reduction, 0 if x.ndim == 1 else 1)


def _cross_entropy(b, input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                   reduction="mean", label_smoothing=0.0):
    x = as_tensor(input)
    c_dim = 0 if x.ndim == 1 else 1
    return _nll(b, _log_softmax(b, x, c_dim), target, weight, ignore_index, reduction, c_dim, label_smoothing)


def _kl_div(b, input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    x, t = as_tensor(input), as_tensor(target)
    if log_target:
        loss = elementwise(lambda a, lt: sp.exp(lt) * (lt - a), x, t)
    else:  # torch's xlogy(t, t) - t * x: 0 where t is 0
        loss = elementwise(lambda a, p: (sp.Integer(0) if p == 0 else p * sp.log(p)) - p * a, x, t)
    if reduction == "batchmean":
        total = _sum(b, loss)
        return wrap(total / x.shape[0]) if x.ndim else total
    return _reduced(b, loss, reduction)


def _relation(name):
    return lambda b, input, other: b.compare(name, input, other)



OPS = {
    # elementwise
    **{name: _unary(fn) for name, fn in _ELEMENTWISE.items()},
    **{name: _unary(fn, kink=name) for name, fn in _KINKED.items()},
    "add": _add, "sub": _sub, "mul": _binary_op("*"), "div": _binary_op("/"), "pow": _pow,
    "floor_divide": _binary_op("//"),
    "atan2": _elementwise2(sp.atan2), "maximum": _elementwise2(sp.Max, kink="maximum"),
    "minimum": _elementwise2(sp.Min, kink="minimum"), "xlogy": _xlogy, "lerp": _lerp, "where": _where,
    "clamp": _clamp, "clamp_min": lambda b, input, min: _clamp(b, input, min=min),  # noqa: A006
    "clamp_max": lambda b, input, max: _clamp(b, input, max=max),  # noqa: A006
    "lt": _relation("<"), "le": _relation("<="), "gt": _relation(">"), "ge": _relation(">="), "eq": _relation("=="),
    "ne": _relation("!="),
    # activations
    "leaky_relu": _leaky_relu, "elu": _elu, "selu": _selu, "gelu": _gelu, "softplus": _softplus,
    "hardtanh": _hardtanh, "softmax": _softmax, "log_softmax": _log_softmax,
    # reductions
    "sum": _sum, "mean": _mean, "max": _extremum(True), "min": _extremum(False), "amax": _amax(True),
    "amin": _amax(False), "logsumexp": _logsumexp, "prod": _prod, "var": _var, "std": _std, "norm": _norm,
    "cumsum": _cumulative(np.cumsum), "cumprod": _cumulative(np.cumprod), "linalg.vector_norm": _vector_norm,
    "linalg.norm": _linalg_norm, "normalize": _normalize, "cosine_similarity": _cosine_similarity,
    # linear algebra
    "matmul": _matmul, "mm": _matmul, "mv": _matmul, "bmm": _matmul, "dot": _matmul, "outer": _outer, "ger": _outer,
    "linear": _linear, "einsum": lambda b, equation, *operands: wrap(np.einsum(equation, *map(as_tensor, operands))),
    "trace": lambda b, input: wrap(np.trace(as_tensor(input))), "diagonal": _diagonal, "diag": _diag,
    "tril": _triangle(np.tril), "triu": _triangle(np.triu), "det": _det, "inverse": _inverse,
    "linalg.det": _det, "linalg.inv": _inverse, "linalg.solve": _solve, "linalg.matmul": _matmul,
    "linalg.diagonal": lambda b, A, *, offset=0, dim1=-2, dim2=-1: _diagonal(b, A, offset, dim1, dim2),
    # shape
    "reshape": _reshape, "view": _reshape, "flatten": _flatten, "expand": _expand, "expand_as": _expand_as,
    "permute": _permute, "transpose": _transpose, "swapaxes": _transpose, "swapdims": _transpose, "t": _t,
    "squeeze": _squeeze, "unsqueeze": _unsqueeze, "flip": _flip, "roll": _roll, "repeat": _repeat, "cat": _cat,
    "concat": _cat, "concatenate": _cat, "stack": _stack, "gather": _gather, "index_select": _index_select,
    "split": _split, "chunk": _chunk,
    # conversions
    "clone": _identity, "detach": _detach, "to": _conversion(None),
    "double": _conversion("float64"), "float": _conversion("float32"),
    "half": _conversion("float16"),
    # losses
    "mse_loss": _pointwise_loss(lambda d: d ** 2), "l1_loss": _pointwise_loss(sp.Abs, kink="l1_loss"),
    "smooth_l1_loss": _pointwise_loss(lambda d, beta=1: sp.Piecewise(
        (d ** 2 / (2 * beta), sp.Abs(d) < beta), (sp.Abs(d) - beta / 2, True)), "smooth_l1_loss", ("beta",)),
    "huber_loss": _pointwise_loss(lambda d, delta=1: sp.Piecewise(
        (d ** 2 / 2, sp.Abs(d) < delta), (delta * (sp.Abs(d) - delta / 2), True)), "huber_loss", ("delta",)),
    "binary_cross_entropy": _bce, "binary_cross_entropy_with_logits": _bce_logits, "nll_loss": _nll_loss,
    "cross_entropy": _cross_entropy, "kl_div": _kl_div,
}


# -- issue 18 §4: special functions, binary ops, activations, reductions, rearranging ops -----------------

def _logit(b, input, eps=None):
    x = as_tensor(input)
    if eps is not None and number(eps) > sp.Rational(1, 2):  # lo > hi: torch's ternary gives lo below lo, else hi
        lo = number(eps)
        x = elementwise(lambda a: sp.Piecewise((lo, a < lo), (1 - lo, True)), x)
    elif eps is not None and number(eps) >= 0:  # a negative eps means no clamp, as torch's
        x = _clamp(b, x, number(eps), 1 - number(eps), op="logit")
    return elementwise(lambda a: sp.log(a / (1 - a)), x)


def _copysign(b, input, other):
    x, y = as_tensor(input), as_tensor(other)
    b.note_kinks("copysign", "zero", *[(e,) for e in x.flat])
    return elementwise(lambda a, s: sp.Abs(a) * (1 if float(value_at(s, {})) >= 0 else -1)
                       if not s.free_symbols else sp.Abs(a) * sp.sign(s), x, y)


def _addcmul(b, input, tensor1, tensor2, *, value=1):
    return b.binary("+", input, b.binary("*", b.binary("*", tensor1, tensor2), value))


def _addcdiv(b, input, tensor1, tensor2, *, value=1):
    return b.binary("+", input, b.binary("*", b.binary("/", tensor1, tensor2), value))


def _piecewise_activation(name, pieces, breaks):
    """An activation made of `pieces` [(formula, condition)], not differentiable where a - k = 0 for k in breaks."""
    def op(b, input, *args, inplace=False, **kwargs):
        x = as_tensor(input)
        b.note_kinks(name, "zero", *[(e - k,) for e in x.flat for k in breaks])
        return elementwise(lambda a: sp.Piecewise(*[(f(a), c(a)) for f, c in pieces]), x)

    return op


def _celu(b, input, alpha=1.0, inplace=False):
    alpha = number(alpha)
    return _unary(_switch_at_zero(lambda a: a, lambda a: alpha * (sp.exp(a / alpha) - 1)), kink="celu")(b, input)


def _softmin(b, input, dim=None, _stacklevel=3, dtype=None):
    return _softmax(b, wrap(-as_tensor(input)), dim)


def _glu(b, input, dim=-1):
    x = as_tensor(input)
    first, second = np.split(x, 2, axis=int(dim) % x.ndim)
    return wrap(first * elementwise(_sigmoid, second))


def _nanmean(b, input, dim=None, keepdim=False, *, dtype=None):
    return _mean(b, input, dim, keepdim)


def _spread_and_mean(spread):
    def op(b, input, dim=None, unbiased=None, keepdim=False, *, correction=None):
        return spread(b, input, dim, unbiased, keepdim, correction=correction), _mean(b, input, dim, keepdim)

    return op


def _logcumsumexp(b, input, dim):
    x = as_tensor(input)
    if x.ndim == 0:
        return x.copy()
    return wrap(np.frompyfunc(lambda p, q: sp.log(sp.exp(p) + sp.exp(q)), 2, 1).accumulate(x, axis=int(dim) % x.ndim))


def _diff(b, input, n=1, dim=-1, prepend=None, append=None):
    x = as_tensor(input)
    d = int(dim) % x.ndim
    parts = [as_tensor(p) for p in (prepend, x, append) if p is not None]
    x = np.concatenate(parts, axis=d) if len(parts) > 1 else x
    for _ in range(int(n)):
        x = np.diff(x, axis=d)
    return wrap(x)


def _trapezoid(b, y, x=None, *, dx=None, dim=-1):
    ys = as_tensor(y)
    d = int(dim) % ys.ndim
    n = ys.shape[d]
    left, right = np.take(ys, range(n - 1), axis=d), np.take(ys, range(1, n), axis=d)
    if x is None or not isinstance(x, np.ndarray):
        spacing = number(1.0 if x is None and dx is None else (dx if x is None else x))
        return wrap(np.sum((left + right) * spacing, axis=d) / 2)
    xs = as_tensor(x)
    widths = np.diff(xs, axis=d if xs.ndim > 1 else 0)
    if xs.ndim == 1:
        widths = widths.reshape([-1 if i == d else 1 for i in range(ys.ndim)])
    return wrap(np.sum(widths * (left + right), axis=d) / 2)


def _narrow(b, input, dim, start, length):
    x = as_tensor(input)
    d = int(dim) % x.ndim
    start = int(start) % x.shape[d] if int(start) < 0 else int(start)
    return wrap(np.take(x, range(start, start + int(length)), axis=d))


def _movedim(b, input, source, destination):
    return wrap(np.moveaxis(as_tensor(input), source, destination))


def _tile(b, input, dims, *more):
    return wrap(np.tile(as_tensor(input), shape_args((dims, *more) if more else (dims,))))


def _hstack(b, tensors):
    parts = [np.atleast_1d(as_tensor(t)) for t in tensors]
    return wrap(np.concatenate(parts, axis=0 if parts[0].ndim == 1 else 1))


def _rot90(b, input, k=1, dims=(0, 1)):
    return wrap(np.rot90(as_tensor(input), int(k), axes=tuple(int(d) for d in dims)))


def _take_along_dim(b, input, indices, dim=None):
    x, idx = as_tensor(input), index_key(indices, b)
    if dim is None:
        return wrap(np.take(x.reshape(-1), idx.reshape(-1)))
    return wrap(np.take_along_axis(x, idx, axis=int(dim)))


def _masked_select(b, input, mask):
    x, m = as_tensor(input), np.asarray(index_key(mask, b), dtype=bool)
    shape = np.broadcast_shapes(x.shape, m.shape)
    return wrap(np.broadcast_to(x, shape)[np.broadcast_to(m, shape)])


def _unflatten(b, input, dim, sizes):
    x = as_tensor(input)
    d = int(dim) % x.ndim
    return x.reshape(x.shape[:d] + tuple(int(s) for s in sizes) + x.shape[d + 1:])


def _repeat_interleave(b, input, repeats, dim=None, *, output_size=None):
    x = as_tensor(input)
    if dim is None:
        x, dim = x.reshape(-1), 0
    counts = index_key(repeats, b) if isinstance(repeats, np.ndarray) else int(repeats)
    return wrap(np.repeat(x, counts, axis=int(dim)))


def _scatter_into(accumulate):
    def op(b, input, dim, index, src=None, *, value=None, reduce=None):
        x = as_tensor(input).copy()
        idx = index_key(index, b)
        source = as_tensor(src if src is not None else value)
        d = int(dim) % max(x.ndim, 1)
        grid = list(np.indices(idx.shape))
        grid[d] = idx
        for pos in np.ndindex(idx.shape):
            target = tuple(g[pos] for g in grid)
            item = source[pos] if source.ndim else source[()]
            x[target] = x[target] + item if accumulate else item
        return wrap(x)

    return op


def _index_add(b, input, dim, index, source, *, alpha=1):
    x, src = as_tensor(input).copy(), as_tensor(source)
    idx = index_key(index, b)
    d = int(dim) % max(x.ndim, 1)
    for j, i in enumerate(np.atleast_1d(idx)):
        key = (slice(None),) * d + (int(i),)
        x[key] = x[key] + np.take(src, j, axis=d) * number(alpha)
    return wrap(x)


def _meshgrid(b, *tensors, indexing=None):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    grids = np.meshgrid(*[as_tensor(t).reshape(-1) for t in tensors], indexing=indexing or "ij")
    return tuple(wrap(g) for g in grids)


OPS.update({
    "lgamma": _unary(sp.loggamma), "digamma": _unary(sp.digamma), "erfinv": _unary(sp.erfinv), "logit": _logit,
    "sinc": _unary(lambda a: sp.sinc(sp.pi * a)), "nan_to_num": lambda b, input, *a, **k: as_tensor(input).copy(),
    "hypot": _elementwise2(lambda x, y: sp.sqrt(x ** 2 + y ** 2)),
    "logaddexp": _elementwise2(lambda x, y: sp.log(sp.exp(x) + sp.exp(y))),
    "logaddexp2": _elementwise2(lambda x, y: sp.log(2 ** x + 2 ** y, 2)),
    "copysign": _copysign, "float_power": _pow,
    "fmax": _elementwise2(sp.Max, kink="maximum"), "fmin": _elementwise2(sp.Min, kink="minimum"),
    "addcmul": _addcmul, "addcdiv": _addcdiv,
    "relu6": lambda b, input, inplace=False: _clamp(b, input, 0, 6, op="hardtanh"),
    "hardsigmoid": _piecewise_activation("hardsigmoid", [
        (lambda a: sp.Integer(0), lambda a: a <= -3), (lambda a: sp.Integer(1), lambda a: a >= 3),
        (lambda a: (a + 3) / 6, lambda a: True)], (-3, 3)),
    "hardswish": _piecewise_activation("hardswish", [
        (lambda a: sp.Integer(0), lambda a: a <= -3), (lambda a: a, lambda a: a >= 3),
        (lambda a: a * (a + 3) / 6, lambda a: True)], (-3, 3)),
    "softsign": _unary(lambda a: a / (1 + sp.Abs(a))), "celu": _celu, "softmin": _softmin, "glu": _glu,
    "nansum": _sum, "nanmean": _nanmean, "var_mean": _spread_and_mean(_var), "std_mean": _spread_and_mean(_std),
    "logcumsumexp": _logcumsumexp, "diff": _diff, "trapezoid": _trapezoid, "trapz": _trapezoid,
    "narrow": _narrow,
    "select": lambda b, input, dim, index: wrap(np.take(as_tensor(input), int(index), axis=int(dim))),
    "movedim": _movedim, "moveaxis": _movedim, "tile": _tile,
    "unbind": lambda b, input, dim=0: tuple(wrap(p) for p in np.moveaxis(as_tensor(input), int(dim), 0)),
    "vstack": lambda b, tensors: wrap(np.concatenate([np.atleast_2d(as_tensor(t)) for t in tensors], axis=0)),
    "row_stack": lambda b, tensors: OPS["vstack"](b, tensors), "hstack": _hstack,
    "broadcast_to": lambda b, input, size, *more: wrap(np.broadcast_to(as_tensor(input),
                                                                       shape_args((size, *more) if more else (size,)))),
    "fliplr": lambda b, input: wrap(np.flip(as_tensor(input), 1)),
    "flipud": lambda b, input: wrap(np.flip(as_tensor(input), 0)), "rot90": _rot90,
    "take_along_dim": _take_along_dim, "masked_select": _masked_select, "unflatten": _unflatten,
    "repeat_interleave": _repeat_interleave, "scatter": _scatter_into(False), "scatter_add": _scatter_into(True),
    "index_add": _index_add, "meshgrid": _meshgrid,
})


def _cross_form(b, input, other, dim=None):
    x, y = np.broadcast_arrays(as_tensor(input), as_tensor(other))
    d = int(dim) % x.ndim if dim is not None else next(i for i, s in enumerate(x.shape) if s == 3)
    return wrap(np.cross(x, y, axis=d))


def _kron(b, input, other):
    x, y = as_tensor(input), as_tensor(other)
    n = max(x.ndim, y.ndim)
    return wrap(np.kron(x.reshape((1,) * (n - x.ndim) + x.shape), y.reshape((1,) * (n - y.ndim) + y.shape)))


def _tensordot(backend, a, b, dims=2, out=None):  # torch names the operands a and b
    if isinstance(dims, np.ndarray):
        dims = dims.tolist()
    return wrap(np.tensordot(as_tensor(a), as_tensor(b), dims if isinstance(dims, int) else tuple(dims)))


def _inner(b, input, other):
    x, y = as_tensor(input), as_tensor(other)
    return wrap(x * y) if x.ndim == 0 or y.ndim == 0 else wrap(np.inner(x, y))


def _addmm(b, input, mat1, mat2, *, beta=1, alpha=1):
    product = b.binary("@", mat1, mat2)
    return b.binary("+", b.binary("*", beta, input), b.binary("*", alpha, product))


def _dist(b, input, other, p=2):
    diff = wrap(as_tensor(input) - as_tensor(other))
    return _vector_norm(b, diff.reshape(-1), float(p))


def _cdist(b, x1, x2, p=2.0, compute_mode=None):
    a, c = as_tensor(x1), as_tensor(x2)
    diff = wrap(a[..., :, None, :] - c[..., None, :, :])
    return _vector_norm(b, diff, float(p), dim=-1)


_SignLogAbsDet = namedtuple("slogdet", ["sign", "logabsdet"])


def _slogdet_form(b, input):
    det = _det(b, input)
    return _SignLogAbsDet(elementwise(sp.sign, det), elementwise(lambda e: sp.log(sp.Abs(e)), det))


def _logdet(b, input):
    return elementwise(sp.log, _det(b, input))


def _matrix_power(b, A, n):
    a = as_tensor(A)
    return _batched(lambda m: m ** int(n), a)


def _multi_dot(b, tensors, *, out=None):
    result = as_tensor(tensors[0])
    for t in tensors[1:]:
        result = wrap(np.dot(result, as_tensor(t)) if result.ndim > 0 else result * as_tensor(t))
    return result


def _matrix_norm(b, A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002 - torch's name
    if ord == "fro":
        return _vector_norm(b, A, 2, dim, keepdim)
    raise NoSymbolicForm(f"no symbolic form for the matrix norm ord={ord}")


OPS.update({
    "cross": _cross_form, "linalg.cross": lambda b, input, other, *, dim=-1: _cross_form(b, input, other, dim),
    "kron": _kron, "tensordot": _tensordot, "inner": _inner, "addmm": _addmm, "dist": _dist, "cdist": _cdist,
    "slogdet": _slogdet_form, "linalg.slogdet": lambda b, A: _slogdet_form(b, A), "logdet": _logdet,
    "matrix_power": _matrix_power, "linalg.matrix_power": _matrix_power, "linalg.multi_dot": _multi_dot,
    "linalg.matrix_norm": _matrix_norm,
})
