"""Comparisons and logical ops: results are bool tensors outside the graph."""

from __future__ import annotations

import numpy as np

from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import promote, val
from gradcli.engine.ops.registry import register
from gradcli.engine.tensor import Tensor


def _compare(np_fn, name, doc, aliases=()):
    def op(input, other):
        a, b = promote(val(input), val(other))
        return Tensor._make(np.asarray(np_fn(a, b)), None)

    op.__name__ = name
    return register(name, sig=f"{name}(input, other)", doc=doc, category="comparison",
                    result_shape=sizes.broadcast, aliases=aliases)(op)


eq = _compare(np.equal, "eq", "input == other elementwise (bool)")
ne = _compare(np.not_equal, "ne", "input != other elementwise (bool)", ("not_equal",))
lt = _compare(np.less, "lt", "input < other elementwise (bool)", ("less",))
le = _compare(np.less_equal, "le", "input <= other elementwise (bool)", ("less_equal",))
gt = _compare(np.greater, "gt", "input > other elementwise (bool)", ("greater",))
ge = _compare(np.greater_equal, "ge", "input >= other elementwise (bool)", ("greater_equal",))

Tensor.__eq__ = eq
Tensor.__ne__ = ne
Tensor.__lt__ = lt
Tensor.__le__ = le
Tensor.__gt__ = gt
Tensor.__ge__ = ge


@register("isnan", sig="isnan(input)", doc="elementwise test for nan (bool)", category="comparison")
def isnan(input):
    return Tensor._make(np.isnan(input.array), None)


@register("isinf", sig="isinf(input)", doc="elementwise test for +-inf (bool)", category="comparison")
def isinf(input):
    return Tensor._make(np.isinf(input.array), None)


@register("isfinite", sig="isfinite(input)", doc="elementwise test for finite values (bool)",
          category="comparison")
def isfinite(input):
    return Tensor._make(np.isfinite(input.array), None)


@register("equal", sig="equal(input, other)", doc="True if both have the same size and elements (a bool)",
          category="comparison")
def equal(input, other) -> bool:
    """torch.equal: the same shape and equal elements, compared after type promotion (nan equals nothing)."""
    a, b = val(input), val(other)
    return a.shape == b.shape and bool(np.array_equal(a, b))
