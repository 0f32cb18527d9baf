"""Small helpers shared by the op modules."""

from __future__ import annotations

import numpy as np

from gradcli.engine.dtypes import get_default_dtype, result_type
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.kernels import loops
from gradcli.engine.ops.sizes import SizeLimit, check_size  # noqa: F401  (re-exported: ops import them from here)
from gradcli.engine.tensor import Tensor, wrap_dim


def val(x):
    """The numpy value of a Tensor, or `x` itself (rules see arrays or Tensors)."""
    return x.array if isinstance(x, Tensor) else x


def as_float(x: np.ndarray) -> np.ndarray:
    """Float-producing ops promote integer and bool input to the default float dtype, as torch does."""
    if x.dtype.kind == "f":
        return x
    return x.astype(get_default_dtype().np)


_C_NAMES = {"float16": "half", "float32": "float", "float64": "double"}
_TITLES = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool",
           "float16": "Half", "uint8": "Byte"}


def c_name(array) -> str:
    """PyTorch's C++ name of a float dtype, as its kernels' messages spell it: float, double."""
    return _C_NAMES.get(str(array.dtype), str(array.dtype))


def dtype_title(dtype) -> str:
    """PyTorch's ScalarType name of a numpy dtype, as its messages spell it: Float, Double, Long."""
    return _TITLES.get(str(dtype), str(dtype))


def mixed_floats(a, b) -> bool:
    """Two float arrays of different precision: the products, lerp and some losses refuse them (torch does
    not promote there)."""
    return type(a) is np.ndarray and type(b) is np.ndarray and a.dtype != b.dtype \
        and a.dtype.kind == "f" and b.dtype.kind == "f"


def promote(a, b):
    """Cast two operands (arrays or Python numbers) to torch's result dtype."""
    if type(a) is np.ndarray:
        if type(b) is np.ndarray:
            if a.dtype == b.dtype:
                return a, b
        elif type(b) is float and a.dtype.kind == "f":
            return a, b
        elif type(b) is int and a.dtype.kind in "fiu" and not isinstance(b, bool):
            return a, b
    elif type(b) is np.ndarray:
        if type(a) is float and b.dtype.kind == "f":
            return a, b
        if type(a) is int and b.dtype.kind in "fiu":
            return a, b
    dtype = result_type(a, b)
    return _cast(a, dtype), _cast(b, dtype)


def _cast(x, dtype):
    if isinstance(x, np.ndarray):
        return x if x.dtype == dtype else x.astype(dtype)
    return np.asarray(x, dtype=dtype)


def norm_dims(dim, ndim: int) -> tuple:
    """`dim` (None, int or sequence) as a sorted tuple of non-negative axes."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (int, np.integer)):
        dim = (dim,)
    dims = tuple(wrap_dim(int(d), ndim) for d in dim)
    if ndim == 0:
        return ()  # dim 0 (or -1) of a 0-d tensor is valid and reduces nothing
    if len(set(dims)) != len(dims):
        raise TorchRuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
    return tuple(sorted(dims))


def keepdim_shape(shape: tuple, dims: tuple) -> tuple:
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def as_shape(sizes) -> tuple:
    """Accept both f(x, 2, 3) and f(x, (2, 3)) as PyTorch does for shapes."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    return tuple(int(s) for s in sizes)


def check_broadcast(a, b) -> None:
    """Only a broadcast between different shapes can create something larger than its inputs."""
    if SizeLimit.max_elements is not None and isinstance(a, np.ndarray) and isinstance(b, np.ndarray) \
            and a.shape != b.shape:
        try:
            shape = np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            return  # the op itself reports the mismatch
        check_size(shape)


def _dim_order(a: np.ndarray) -> list:
    """a's dims from the largest stride to the smallest, size-1 dims left out (their stride means nothing)."""
    return sorted((d for d in range(a.ndim) if a.shape[d] > 1), key=lambda d: -abs(a.strides[d]))


def like_layout(result, x):
    """An elementwise op's result in the memory layout torch gives it: its input's dim order (TensorIterator
    keeps a transposed input's layout, and a later sum adds in that order).  `result` itself when it already
    has it - the common case, checked in a few attribute reads - otherwise a copy in x's order."""
    if type(result) is not np.ndarray or type(x) is not np.ndarray or result.shape != x.shape or x.ndim < 2:
        return result
    if x.flags.c_contiguous and result.flags.c_contiguous:
        return result
    if _dim_order(result) == _dim_order(x):
        return result
    out = np.empty_like(x, dtype=result.dtype)  # order="K": x's dim order
    out[...] = result
    return out


def is_dense(a: np.ndarray) -> bool:
    """Whether a's elements fill a block of memory without gaps or overlaps, in some dim order (torch's
    is_non_overlapping_and_dense: a contiguous tensor, its transpose or any permutation of it)."""
    step = a.itemsize
    for stride, size in sorted((abs(s), n) for s, n in zip(a.strides, a.shape) if n > 1):
        if stride != step:
            return False
        step *= size
    return True


def preserved_copy(x: np.ndarray, dtype=None) -> np.ndarray:
    """A copy as torch's clone()/.to() make one (memory_format=torch.preserve_format): a dense input's
    strides kept (a transposed tensor stays transposed, so a later sum of it adds in the same order as
    torch's), anything else row-major."""
    dtype = x.dtype if dtype is None else dtype
    if x.ndim > 1 and not x.flags.c_contiguous and is_dense(x):
        return x.astype(dtype, order="K", copy=True)
    return x.astype(dtype, order="C", copy=True)


def _torch_dim_order(shape: tuple, operands) -> list:
    """The dims of an elementwise result from the fastest to the slowest, as TensorIterator's
    reorder_dimensions sorts them: the first operand whose strides tell two dims apart decides (a broadcast dim,
    stride 0, tells nothing), equal strides put the smaller size first, no operand keeps the row-major order."""
    ndim = len(shape)
    strides = []
    for op in operands:
        if type(op) is not np.ndarray or op.ndim == 0:
            continue
        lead = ndim - op.ndim
        strides.append([0 if d < lead or (op.shape[d - lead] == 1 and shape[d] != 1) else op.strides[d - lead]
                        for d in range(ndim)])
    return loops.reorder_dimensions(range(ndim - 1, -1, -1), shape, strides)


def binary_layout(out, *operands):
    """`out`, an elementwise op's numpy result, in the layout torch's TensorIterator gives it: row-major when
    every operand of its rank is (the common case, checked first), else the dim order of the first operand
    that decides (x.t() * x is transposed, x * x.t() row-major), so a later sum adds in torch's order."""
    if type(out) is not np.ndarray or out.ndim < 2:
        return out
    if all(type(op) is not np.ndarray or op.ndim < out.ndim or op.flags.c_contiguous for op in operands):
        return out
    perm = _torch_dim_order(out.shape, operands)  # fastest first
    wanted = [d for d in reversed(perm) if out.shape[d] > 1]
    if _dim_order(out) == wanted:
        return out
    slowest_first = list(reversed(perm))
    fresh = np.empty([out.shape[d] for d in slowest_first], dtype=out.dtype).transpose(np.argsort(slowest_first))
    fresh[...] = out
    return fresh
