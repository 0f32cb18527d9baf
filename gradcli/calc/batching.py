"""Rows of equal shapes in one pass, as torch.func.vmap runs a function over a batch: every value a row supplies
gets a leading batch dimension, and each operation is told which of its operands carry it.

`VmapBackend` is the engine backend of lang/evaluator.py with that bookkeeping: it knows every batched tensor's
row rank (its dims without the batch one) and applies each op's batching rule - elementwise ops align the
row dims of their operands under the widest (size-1 dims after the batch one), `dim=` arguments are a row's
dims shifted past the batch dim, reductions keep it, products lift a row's vector to a matrix, indexing
keeps the batch dim whole.  An operation none of whose operands is batched runs as in a single evaluation.
Rows mode's promise is that every row gets exactly (bit for bit) what its single evaluation gives, so the pass
runs under kernels.elements_are_rows(LEADING): the elementwise kernels decide their scalar lanes on one row's
layout and torch_sum sums each row in the order of the row alone (sum_order.rows_sum).  Anything without a
rule here raises NotBatchable, and the caller evaluates the rows one at a time.
"""

from __future__ import annotations

import ast

import numpy as np

from gradcli.engine import Tensor, dtypes, kernels
from gradcli.engine.ops import REGISTRY
from gradcli.engine.ops.shape import to_index
from gradcli.engine.tensor import Size
from gradcli.lang import names
from gradcli.lang.evaluator import EngineBackend
from gradcli.lang.parser import Program, dotted_name


class NotBatchable(Exception):
    """The expression (or this use of an op) has no batching rule: evaluate the rows one at a time.  `rows`:
    only these rows' values stand in the way (a mask picking a different count in each row, a zero in a
    cumprod), so later rows may still be batched; otherwise the expression itself (it goes row by row)."""

    def __init__(self, message: str = "", *, rows: bool = False):
        super().__init__(message)
        self.rows = rows


_POW = names.resolve_function(("pow",)).fn
_ELEMENTWISE_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.BitXor, ast.Mod, ast.BitAnd, ast.BitOr)
REDUCTIONS = ("sum", "mean", "amax", "amin")
DIM_OPS = ("softmax", "log_softmax", "logsumexp")
NORMS = ("norm", "vector_norm")
SHAPE_OPS = ("transpose", "t", "unsqueeze", "squeeze", "reshape", "flatten", "permute", "flip")
RUNNING = ("cumsum", "cumprod")
JOINS = ("cat", "stack")
INDEX_OPS = ("index_select", "gather")
# No rule for products of a row's values (@, matmul, mm, mv, dot): a row's single product and its backward go to
# BLAS with the flags and kernels torch picks for that shape and layout (MKL's when installed, kernels/blas.py);
# a stacked product takes other kernels (a row's gradient differed in the last bit), so they go a row at a time
RULES = frozenset(REDUCTIONS + DIM_OPS + NORMS + SHAPE_OPS + RUNNING + JOINS + INDEX_OPS)
ATTRIBUTES = ("T", "mT", "shape", "ndim", "dtype")
_NORM = REGISTRY["norm"].fn


def is_batchable(program: Program, constants=frozenset()) -> bool:
    """Whether every operation of the expression has a batching rule (VmapBackend), so rows of equal shapes can
    run in one pass.  Elementwise ops, sum/mean/amax/amin (any dim, keepdim), softmax/log_softmax/logsumexp with a dim,
    norm, cumsum/cumprod, cat/stack, indexing and slicing (boolean masks, integer tensors),
    index_select/gather, transpose/T/unsqueeze/squeeze/reshape/flatten/permute/flip.  A power whose exponent
    depends on a row is not (numpy's power loop takes a shortcut for one scalar exponent that a batch, an array
    of exponents, does not), nor `where(condition)` alone (its size depends on the values).  Whether an index or
    a mask computed from a row can be batched is decided when the rows are (VmapBackend.getitem)."""
    variables = frozenset(program.variables) - frozenset(constants)
    return _batchable(program.tree.body, variables)


def _uses(node, variables) -> bool:
    return any(isinstance(n, ast.Name) and n.id in variables for n in ast.walk(node))


def _batchable(node, variables) -> bool:  # noqa: PLR0911 - one case per syntax node
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_batchable(e, variables) for e in node.elts)
    if isinstance(node, ast.Slice):
        return all(p is None or not _uses(p, variables) for p in (node.lower, node.upper, node.step))
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.Pow, ast.BitXor)) and _uses(node.right, variables):
            return False
        if isinstance(node.op, ast.MatMult):
            return not _uses(node, variables)  # a product of constants only; a row's products go one at a time
        return isinstance(node.op, _ELEMENTWISE_BINOPS) and _batchable(node.left, variables) \
            and _batchable(node.right, variables)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)) and _batchable(node.operand, variables)
    if isinstance(node, ast.Compare):
        return len(node.ops) == 1 and _batchable(node.left, variables) and _batchable(node.comparators[0], variables)
    if isinstance(node, ast.Subscript):  # a key computed from a row: a mask, decided by VmapBackend.getitem
        return _batchable(node.value, variables) and _batchable(node.slice, variables)
    if isinstance(node, ast.Attribute):
        path = dotted_name(node)
        if path is not None and isinstance(names.resolve_constant(path), float):
            return True  # torch.pi, math.e
        return node.attr in ATTRIBUTES and _batchable(node.value, variables)
    if isinstance(node, ast.Call):
        path = dotted_name(node.func)
        if path is not None and (len(path) == 1 or path[0] in ("torch", "F", "nn", "math")):
            spec, parts = names.resolve_function(path), list(node.args)
        elif isinstance(node.func, ast.Attribute):
            spec, parts = names.resolve_method(node.func.attr), [node.func.value, *node.args]
        else:
            return False
        if spec is None or not (spec.elementwise or spec.name in RULES):
            return False
        if spec.elementwise:
            if spec.name == "where" and len(parts) < 3:
                return False  # where(condition) alone lists indices
            if (spec.fn is _POW or spec.name == "float_power") and _uses(node.args[-1] if node.args else node,
                                                                           variables):
                return False  # pow(x, y), x.pow(y): the exponent is the last positional argument
        return all(_batchable(p, variables) for p in [*parts, *(kw.value for kw in node.keywords)])
    return False


class VmapBackend(EngineBackend):
    """The engine with a leading batch dimension of `size` rows on the tensors `ranks` names (name: row rank)."""

    def __init__(self, variables: dict, dtype: dtypes.DType, size: int, ranks: dict[str, int]):
        super().__init__(variables, dtype)
        self.size = size
        self.ranks: dict[int, int] = {}
        self.held: list = []  # the batched tensors stay alive while their ids are keys of `ranks`
        for name, rank in ranks.items():
            self.mark(variables[name], rank)

    # -- bookkeeping ---------------------------------------------------------------------------------------

    def mark(self, value, rank: int | None = None):
        if not isinstance(value, Tensor) or value.ndim == 0 or value.shape[0] != self.size:
            raise NotBatchable("a batched operation lost its batch dimension")
        rank = value.ndim - 1 if rank is None else rank
        if value.ndim != rank + 1:
            raise NotBatchable("a batched operation changed the batch dimension")
        self.ranks[id(value)] = rank
        self.held.append(value)
        return value

    def rank(self, value) -> int | None:
        """A batched tensor's row rank; None for anything else."""
        return self.ranks.get(id(value)) if isinstance(value, Tensor) else None

    def _batched(self, values) -> bool:
        for v in values:
            if isinstance(v, (list, tuple)):
                if self._batched(v):
                    return True
            elif self.rank(v) is not None:
                return True
        return False

    def _to_row_shape(self, x: Tensor, row_shape: tuple) -> Tensor:
        return self.mark(REGISTRY["reshape"].fn(x, (self.size, *row_shape)), len(row_shape))

    def _align(self, values: list) -> tuple[list, int]:
        """Elementwise operands with every batched one's row dims right-aligned under the widest operand's: a
        row of rank r among operands of rank k gets k - r size-1 dims after the batch one (as the row
        broadcasts alone)."""
        width = 0
        for v in values:
            r = self.rank(v)
            width = max(width, r if r is not None else np.ndim(v) if isinstance(v, (Tensor, list, tuple)) else 0)
        sizes = [1] * width  # each aligned row dim's size among the operands (right-aligned)
        for v in values:
            r = self.rank(v)
            shape = tuple(v.shape[1:]) if r is not None else tuple(np.shape(v))
            for i, n in enumerate(shape[-width:] if width else ()):
                position = width - len(shape[-width:]) + i
                sizes[position] = max(sizes[position], n)
        out = []
        for v in values:
            r = self.rank(v)
            if r is not None and r < width:
                if any(sizes[p] == 1 for p in range(width - r)):
                    # the row alone sums its gradient over that added dim (0 + -0.0 is +0.0); the batch's
                    # size-1 dim would not: one row at a time
                    raise NotBatchable("a row broadcast over an added dim of size 1")
                v = self._to_row_shape(v, (1,) * (width - r) + tuple(v.shape[1:]))
            out.append(v)
        return out, width

    def _plain(self, fn, *args):
        """An operation no row value reaches: as in a single evaluation (no batch layout in the kernels)."""
        with kernels.elements_are_rows(False):
            return fn(*args)

    def _dims(self, dim, rank: int) -> tuple:
        """A row's dim argument (int or sequence) as the batched tensor's dims."""
        dims = (dim,) if isinstance(dim, (int, np.integer, float)) else dim
        if not isinstance(dims, (tuple, list)) or not all(
                isinstance(d, (int, np.integer)) and not isinstance(d, bool) or isinstance(d, float) and d.is_integer()
                for d in dims):
            raise NotBatchable("a dim that is not a whole number")
        out = []
        for d in dims:
            d = int(d)
            if not -max(rank, 1) <= d < max(rank, 1) or rank == 0:
                raise NotBatchable("a dim out of the row's range")  # each row's own error, one at a time
            out.append(d % rank + 1)
        return tuple(out)

    # -- the backend ---------------------------------------------------------------------------------------

    def binary(self, op, a, b):
        if not self._batched((a, b)):
            return self._plain(super().binary, op, a, b)
        if op == "@":
            raise NotBatchable("@ (products are evaluated one row at a time, as their single evaluations)")
        (a, b), width = self._align([a, b])
        return self.mark(super().binary(op, a, b), width)

    def unary(self, op, a):
        if self.rank(a) is None:
            return self._plain(super().unary, op, a)
        return self.mark(super().unary(op, a), self.rank(a))

    def compare(self, op, a, b):
        if not self._batched((a, b)):
            return self._plain(super().compare, op, a, b)
        (a, b), width = self._align([a, b])
        return self.mark(super().compare(op, a, b), width)

    def call(self, spec, args, kwargs):
        if not self._batched([*args, *kwargs.values()]):
            return self._plain(super().call, spec, args, kwargs)
        if spec.elementwise:
            if spec.name == "where" and len(args) + len(kwargs) < 3:
                raise NotBatchable("where(condition)")
            keys = list(kwargs)
            values, width = self._align([*args, *kwargs.values()])
            args, kwargs = values[:len(args)], dict(zip(keys, values[len(args):]))
            return self.mark(super().call(spec, args, kwargs), width)
        rule = getattr(self, _RULE_METHODS[spec.name]) if spec.name in RULES else None
        if rule is None or any(self.rank(v) is not None for v in [*args[1:], *kwargs.values()]) \
                and spec.name != "gather":
            raise NotBatchable(f"no batching rule for {spec.name}")
        return rule(spec, list(args), dict(kwargs))

    def method(self, obj, spec, args, kwargs):
        if self.rank(obj) is None and not self._batched([*args, *kwargs.values()]):
            return self._plain(super().method, obj, spec, args, kwargs)
        if spec is None:
            raise NotBatchable("an unknown method")
        return self.call(spec, [obj, *args], kwargs)

    def attribute(self, obj, name):
        r = self.rank(obj)
        if r is None:
            return self._plain(super().attribute, obj, name)
        if name == "shape":
            return Size(obj.shape[1:])
        if name == "ndim":
            return r
        if name == "dtype":
            return obj.dtype
        if name == "T" and r < 2:
            return obj  # a vector's or a number's .T is itself
        if name in ("T", "mT") and r == 2 or name == "mT" and r > 2:
            return self.mark(super().attribute(obj, "mT"), r)
        raise NotBatchable(f".{name}")

    def getitem(self, obj, key):
        """x[key] of a batched x: the key after a full slice of the batch dim.  Integer tensors and lists
        index every row alike (their dims stay where the row's result has them when the integers and tensors
        of the key are side by side, as numpy and torch place them); a boolean mask computed from the rows
        (x[x > 0]) is batched when it picks as many elements in every row (each row's result the same shape)."""
        r = self.rank(obj)
        parts = key if isinstance(key, tuple) else (key,)
        if r is None:
            if self._batched([key]):
                raise NotBatchable("a batched index into a value no row reaches")
            return self._plain(super().getitem, obj, key)
        advanced = []  # positions of the key's integers, integer tensors and lists
        mask = None
        for i, part in enumerate(parts):
            if part is None or part is Ellipsis or isinstance(part, slice) and not self._batched(
                    [part.start, part.stop, part.step]):
                continue
            if isinstance(part, bool) or isinstance(part, Tensor) and part.array.dtype.kind == "b":
                if self.rank(part) is not None and len(parts) == 1:
                    mask = part
                    continue
                raise NotBatchable("a mask with other indices")
            if isinstance(part, (int, np.integer)) or isinstance(part, float) and part.is_integer():
                advanced.append(i)
                continue
            if isinstance(part, Tensor) and self.rank(part) is None and part.array.dtype.kind in "iu" \
                    or isinstance(part, list) and not self._batched(part):
                advanced.append(i)
                continue
            raise NotBatchable("an index other than integers, slices, masks, None and ...")
        arrays = [i for i in advanced if not isinstance(parts[i], (int, np.integer, float))]
        if arrays and advanced != list(range(advanced[0], advanced[-1] + 1)):
            # x[idx, :, 0]: numpy puts the indexed dims first, which in a batch is before the batch dim
            raise NotBatchable("integer indices apart from each other")
        if mask is None:
            out = self.mark(super().getitem(obj, (slice(None), *parts)))
            if arrays:  # the row alone: numpy's own layout of an advanced index's result, which sums follow
                self._layout_as(out, np.empty(obj.shape[1:], dtype=obj.array.dtype)[to_index(parts)])
            return out
        m = mask.array
        if self.rank(mask) > r or m.shape[1:] != obj.shape[1:1 + self.rank(mask)]:
            raise NotBatchable("a mask of another shape")  # each row's own IndexError
        counts = m.reshape(self.size, -1).sum(axis=1)
        if counts.size and (counts != counts[0]).any():
            raise NotBatchable("a mask picking a different number of elements per row", rows=True)
        picked = super().getitem(obj, mask)  # every row's picks, row after row (C order)
        rest = tuple(obj.shape[1 + self.rank(mask):])
        return self.mark(REGISTRY["reshape"].fn(picked, (self.size, int(counts[0]) if counts.size else 0, *rest)),
                         1 + len(rest))

    # -- the rules (spec, args, kwargs) with args[0] the batched tensor --------------------------------------

    def _reduction(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        extra = set(kwargs) - {"dim", "keepdim", "axis"}
        if extra or len(args) > 3:
            raise NotBatchable(f"{spec.name} with {sorted(extra)}")
        dim = args[1] if len(args) > 1 else kwargs.get("dim", kwargs.get("axis"))
        keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        if not isinstance(keepdim, bool):
            raise NotBatchable("keepdim that is not True or False")
        if r == 0 and spec.name in ("amax", "amin"):
            raise NotBatchable(f"{spec.name} of a number")
        if dim is None or (isinstance(dim, (tuple, list)) and not dim):
            if r == 0:  # a number's sum: torch adds it into a 0-filled output (-0.0 comes out 0.0); its mean / 1
                out = super().binary("+", x, 0.0)
                return self.mark(super().binary("/", out, 1.0) if spec.name == "mean" else out, 0)
            dims = tuple(range(1, r + 1))
        else:
            dims = self._dims(dim, r)
            if len(set(dims)) != len(dims):
                raise NotBatchable("a dim twice")
        out = spec.fn(x, dim=dims, keepdim=keepdim)
        return self.mark(out, r if keepdim else r - len(dims))


    def _dim_op(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        extra = set(kwargs) - {"dim", "keepdim", "_stacklevel"}
        if extra or r == 0:
            raise NotBatchable(f"{spec.name} of a number or with {sorted(extra)}")
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if dim is None:
            raise NotBatchable(f"{spec.name} without dim")  # torch's implicit dim depends on the rank
        if spec.name == "logsumexp":
            keepdim = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
            dims = self._dims(dim, r)
            out = spec.fn(x, dims, bool(keepdim))
            return self.mark(out, r if keepdim else r - len(dims))
        if len(args) > 2:
            raise NotBatchable(f"{spec.name} with more arguments")
        return self.mark(spec.fn(x, self._dims(dim, r)[0]), r)


    def _norm(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        if r == 0 or (spec.name == "norm" and spec.fn is not _NORM) or len(args) > 4:
            raise NotBatchable("a norm of a number, or linalg.norm")
        first = "p" if spec.name == "norm" else "ord"
        extra = set(kwargs) - {first, "dim", "keepdim"}
        if extra:
            raise NotBatchable(f"norm with {sorted(extra)}")
        p = args[1] if len(args) > 1 else kwargs.get(first, "fro" if spec.name == "norm" else 2)
        dim = args[2] if len(args) > 2 else kwargs.get("dim")
        keepdim = args[3] if len(args) > 3 else kwargs.get("keepdim", False)
        dims = None if dim is None else self._dims(dim, r)
        if dims is None or len(set(dims)) == r:  # a whole row's norm: one dot product (or torch's lanes) alone
            raise NotBatchable(f"{spec.name} of a whole row")
        out = spec.fn(x, p, dims, bool(keepdim))
        return self.mark(out, r if keepdim else r - len(dims))


    def _transpose(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        if kwargs or len(args) != 3:
            raise NotBatchable("transpose with these arguments")
        d0, d1 = self._dims(args[1], r)[0], self._dims(args[2], r)[0]
        return self.mark(spec.fn(x, d0, d1), r)

    def _t(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        if kwargs or len(args) != 1 or r > 2:
            raise NotBatchable("t() of more than 2 dims")
        return x if r < 2 else self.mark(REGISTRY["transpose"].fn(x, 1, 2), r)

    def _unsqueeze(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if not isinstance(dim, (int, np.integer)) or not -(r + 1) <= dim <= r or len(args) + len(kwargs) != 2:
            raise NotBatchable("unsqueeze with this dim")
        return self.mark(spec.fn(x, int(dim) % (r + 1) + 1), r + 1)

    def _squeeze(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if len(args) + len(kwargs) > 2:
            raise NotBatchable("squeeze with these arguments")
        if dim is None:
            dims = tuple(d + 1 for d, s in enumerate(x.shape[1:]) if s == 1)
            if not dims:
                return x
        else:
            dims = self._dims(dim, r)
        out = spec.fn(x, dims)
        return self.mark(out)

    def _reshape_op(self, spec, args, kwargs):
        x = args[0]
        shape = args[1:]
        if kwargs or not shape:
            raise NotBatchable(f"{spec.name} with these arguments")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        if not all(isinstance(s, (int, np.integer)) or isinstance(s, float) and s.is_integer() for s in shape):
            raise NotBatchable("a shape that is not numbers")
        return self.mark(spec.fn(x, (self.size, *(int(s) for s in shape))))


    def _flatten(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        extra = set(kwargs) - {"start_dim", "end_dim"}
        if extra or len(args) > 3 or r == 0:
            raise NotBatchable("flatten with these arguments")
        start = args[1] if len(args) > 1 else kwargs.get("start_dim", 0)
        end = args[2] if len(args) > 2 else kwargs.get("end_dim", -1)
        (start,), (end,) = self._dims(start, r), self._dims(end, r)
        return self.mark(spec.fn(x, start, end), r - max(0, end - start))

    def _permute(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        dims = args[1:] if len(args) > 2 or len(args) == 2 and not isinstance(args[1], (tuple, list)) \
            else args[1] if len(args) == 2 else kwargs.get("dims")
        if len(args) == 1 and set(kwargs) != {"dims"} or len(args) > 1 and kwargs or dims is None:
            raise NotBatchable("permute with these arguments")
        if len(dims) != r:  # a number's permute(-1, 0) is torch's error, in the row alone too
            raise NotBatchable("permute dims that are not the row's")
        moved = self._dims(tuple(dims), r) if r else ()
        if len(moved) != r or len(set(moved)) != r:
            raise NotBatchable("permute dims that are not the row's")  # each row's own error
        return self.mark(spec.fn(x, (0, *moved)), r)

    def _flip(self, spec, args, kwargs):
        x, r = args[0], self.rank(args[0])
        dims = args[1:] if len(args) > 2 else args[1] if len(args) == 2 else kwargs.get("dims")
        if len(args) == 1 and set(kwargs) != {"dims"} or len(args) > 1 and kwargs or dims is None or r == 0:
            raise NotBatchable("flip with these arguments")
        return self.mark(spec.fn(x, self._dims(dims, r)), r)

    def _running(self, spec, args, kwargs):
        """cumsum/cumprod along a row's dim: each position a running total of its own row, in the same order."""
        x, r = args[0], self.rank(args[0])
        extra = set(kwargs) - {"dim"}
        if extra or len(args) > 2 or r == 0:
            raise NotBatchable(f"{spec.name} of a number or with {sorted(extra)}")
        dim = args[1] if len(args) > 1 else kwargs.get("dim")
        if dim is None:
            raise NotBatchable(f"{spec.name} without dim")
        if spec.name == "cumprod" and x.array.dtype.kind == "f" and not x.array.all():
            # the gradient takes torch's formula for zeros when any element is 0: a row without one would get it
            raise NotBatchable("cumprod of rows holding a zero", rows=True)
        return self.mark(spec.fn(x, self._dims(dim, r)[0]), r)

    def _tiled(self, value, rank: int):
        """A tensor no row reaches, joined to batched ones: one copy per row (it requires no grad)."""
        if self.rank(value) is not None:
            if self.rank(value) != rank:
                raise NotBatchable("joined tensors of different ranks")  # each row's own error
            return value
        if not isinstance(value, Tensor) or value.requires_grad or value.ndim != rank:
            raise NotBatchable("a joined value that is not a tensor of the rows' rank")
        a = value.array
        return self.mark(Tensor._make(np.ascontiguousarray(np.broadcast_to(a, (self.size, *a.shape))), None), rank)

    def _join(self, spec, args, kwargs):
        tensors = args[0]
        extra = set(kwargs) - {"dim", "axis"}
        if extra or len(args) > 2 or not isinstance(tensors, (list, tuple)) or not tensors:
            raise NotBatchable(f"{spec.name} with these arguments")
        ranks = {self.rank(t) for t in tensors} - {None}
        if len(ranks) != 1:
            raise NotBatchable(f"{spec.name} of rows of different ranks")
        r = ranks.pop()
        dim = args[1] if len(args) > 1 else kwargs.get("dim", kwargs.get("axis", 0))
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            raise NotBatchable(f"{spec.name} with this dim")
        if spec.name == "stack":
            if not -(r + 1) <= dim <= r:
                raise NotBatchable("a dim out of the row's range")
            d, out_rank = int(dim) % (r + 1) + 1, r + 1
        else:
            d, out_rank = self._dims(dim, r)[0], r
        return self.mark(spec.fn([self._tiled(t, r) for t in tensors], d), out_rank)

    def _index_op(self, spec, args, kwargs):
        """index_select(x, dim, index) with one index for every row; gather(x, dim, index) with the index of
        each row (its own, or one for every row)."""
        if kwargs or len(args) != 3:
            raise NotBatchable(f"{spec.name} with these arguments")
        x, dim, index = args
        r = self.rank(x)
        if r is None or r == 0 or not isinstance(index, Tensor) or index.array.dtype.kind not in "iu":
            raise NotBatchable(f"{spec.name} of these operands")
        d = self._dims(dim, r)[0]
        if spec.name == "gather":
            if index.ndim - (self.rank(index) is not None) != r:
                raise NotBatchable("a gather index of another rank")  # each row's own error
            if self.rank(index) is None:
                index = Tensor._make(np.ascontiguousarray(np.broadcast_to(index.array, (self.size, *index.shape))),
                                     None)
        elif self.rank(index) is not None:
            raise NotBatchable("an index_select index computed from the rows")
        out = self.mark(spec.fn(x, d, index), r)
        if spec.name == "index_select" and index.ndim <= 1:
            row = np.empty(x.shape[1:], dtype=x.array.dtype)
            self._layout_as(out, row[(slice(None),) * (d - 1) + (index.array.reshape(-1).astype(np.int64),)])
        return out

    def _layout_as(self, out: Tensor, row: np.ndarray) -> None:
        """Each row of the batched result `out` laid out in memory as `row`, the op's result for one row alone
        (numpy places the dims of an advanced index's result as it likes, and differently under a leading batch
        dim: x[:, k] of (n, 2, 3) rows put the batch dim between a row's dims, and sum_order, following the
        layout as torch does, summed such rows in another order)."""
        a = out.array
        if a.shape[1:] != row.shape or not row.size or not all(st >= 0 for st in row.strides) \
                or sum((n - 1) * st for n, st in zip(row.shape, row.strides)) + row.itemsize != row.nbytes:
            raise NotBatchable("a result laid out unlike the row's")
        if a.strides[1:] == row.strides and a.strides[0] == row.nbytes:
            return
        buffer = np.empty(a.size, dtype=a.dtype)
        laid = np.lib.stride_tricks.as_strided(buffer, a.shape, (row.nbytes, *row.strides))
        laid[...] = a
        out.array = laid


_RULE_METHODS = {**dict.fromkeys(REDUCTIONS, "_reduction"), **dict.fromkeys(DIM_OPS, "_dim_op"),
                 **dict.fromkeys(NORMS, "_norm"),
                 **dict.fromkeys(RUNNING, "_running"), **dict.fromkeys(JOINS, "_join"),
                 **dict.fromkeys(INDEX_OPS, "_index_op"),
                 "reshape": "_reshape_op", "transpose": "_transpose", "t": "_t",
                 "unsqueeze": "_unsqueeze", "squeeze": "_squeeze", "flatten": "_flatten", "permute": "_permute",
                 "flip": "_flip"}
