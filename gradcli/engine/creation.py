"""Tensor creation: torch.tensor, zeros/ones/full/eye/arange/linspace, rand/randn, *_like, manual_seed."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import dtypes, dual, meta, random, state
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.ops.common import as_shape, check_size, dtype_title
from gradcli.engine.ops.inplace import apply_inplace
from gradcli.engine.ops.registry import register
from gradcli.engine.ops.sizes import check_new_shape
from gradcli.engine.tensor import CPU, Tensor, check_device


def manual_seed(seed: int):
    """torch.manual_seed: seeds the default generator (PyTorch's own, bit for bit: engine/random.py)."""
    return random.manual_seed(seed)


def initial_seed() -> int:
    return random.default_generator().initial_seed()


def seed() -> int:
    return random.default_generator().seed()


def _finish(array: np.ndarray, dtype, requires_grad: bool) -> Tensor:
    if dtype is not None:
        array = array.astype(_np_dtype(dtype), copy=False)
    t = Tensor._make(array, None)
    if requires_grad:
        if array.dtype.kind != "f":  # torch's factory functions word it differently from requires_grad_()
            raise TorchRuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def _np_dtype(dtype) -> np.dtype:
    if isinstance(dtype, dtypes.DType):
        return dtype.np
    if dtype in (float, "float"):
        return np.dtype(np.float64)
    if dtype in (int, "int"):
        return np.dtype(np.int64)
    if dtype in (bool, "bool"):
        return np.dtype(np.bool_)
    raise TorchTypeError(f"invalid dtype {dtype!r}")


def _leading_shape(data) -> tuple:
    """The shape nested lists claim, read along their first elements (a ragged list fails later)."""
    shape = []
    while isinstance(data, (list, tuple)):
        shape.append(len(data))
        if not data:
            break
        data = data[0]
    return tuple(shape)


def _infer(data, target=None):
    """A nested list of numbers/0-d tensors as an array, with torch's dtype inference and ragged errors.
    With a `target` dtype (torch.tensor(data, dtype=...)) Python floats convert to it directly, never
    through the default float32: torch.tensor([0.1], dtype=torch.float64) holds 0.1 exactly."""
    kinds = set()

    def walk(x, depth, shape):
        if isinstance(x, Tensor):  # an element of the list: torch takes it as a number (its item())
            if x.array.size != 1:
                raise TorchValueError("only one element tensors can be converted to Python scalars")
            x = x.array.reshape(()).item()
        if isinstance(x, (list, tuple)):
            if len(shape) <= depth:
                shape.append(len(x))
            elif shape[depth] != len(x):
                raise TorchValueError(f"expected sequence of length {shape[depth]} at dim {depth} (got {len(x)})")
            return [walk(v, depth + 1, shape) for v in x]
        if isinstance(x, (bool, np.bool_)):
            kinds.add("b")
            return bool(x)
        if isinstance(x, (int, np.integer)):
            kinds.add("i")
            return int(x)
        if isinstance(x, (float, np.floating)):
            kinds.add("f")
            return float(x)
        raise TorchTypeError(f"new(): invalid data type '{type(x).__name__}'")

    check_size(_leading_shape(data), "tensor")  # before walking: [[0] * 10**7] * 10**7 is small as a list
    shape: list = []
    nested = walk(data, 0, shape)
    if "f" in kinds:
        if target is None:
            dtype = dtypes.get_default_dtype().np
        else:  # float64 carries every Python float exactly to an integer or bool target too
            dtype = target if target.kind == "f" else np.dtype(np.float64)
    elif "i" in kinds:
        dtype = np.dtype(np.int64)
    elif "b" in kinds:
        dtype = np.dtype(np.bool_)
    else:
        dtype = dtypes.get_default_dtype().np  # empty list
    return np.array(nested, dtype=dtype).reshape(shape) if not shape or 0 not in shape else \
        np.zeros(shape, dtype=dtype)


def tensor(data, dtype=None, requires_grad: bool = False, device=None) -> Tensor:
    check_device(device, factory=True)
    if meta.on_meta(device):
        made = data if meta.is_meta(data) else tensor(data, dtype, requires_grad=False, device="cpu")
        return _on_meta(made.shape, dtype or made.dtype, requires_grad)
    if isinstance(data, Tensor):
        data._no_data("tolist")
        array = data.array.copy()
    elif isinstance(data, np.ndarray):
        array = data.copy()
    else:
        array = _infer(data, None if dtype is None else _np_dtype(dtype))
    check_size(array.shape)
    return _finish(array, dtype, requires_grad)


def _size_argument(dims: tuple, size, name: str) -> tuple:
    """The shape of a creation function: given as positional sizes (`zeros(2, 3)`, `zeros((2, 3))`) or as
    `size=` (`randn(size=(), requires_grad=True)`), never both, as torch's parser accepts them."""
    if size is None:
        return dims
    if dims:
        raise TorchTypeError(f"{name}() received an invalid combination of arguments - got the sizes both "
                             "positionally and as size=")
    return (size,)


def _on_meta(shape, dtype, requires_grad) -> Tensor:
    """A factory's tensor on the meta device: its shape and dtype, no data (and no draw from a generator)."""
    dtype = dtype or dtypes.get_default_dtype()
    t = meta.empty(shape, dtype if isinstance(dtype, np.dtype) else _np_dtype(dtype))
    if requires_grad:
        if t.array.dtype.kind != "f":
            raise TorchRuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad_(True)
    return t


def _filled(shape, fill, dtype, requires_grad, op=None, device=None) -> Tensor:
    shape = as_shape(shape)
    check_new_shape(shape, op, sized=not meta.on_meta(device))
    if dtype is None:
        dtype = dtypes.get_default_dtype()
    if meta.on_meta(device):
        return _on_meta(shape, dtype, requires_grad)
    return _finish(np.full(shape, fill, dtype=_np_dtype(dtype)), None, requires_grad)


def zeros(*dims, size=None, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    size = _size_argument(dims, size, "zeros")
    return _filled(size, 0, dtype, requires_grad, "zeros", device)


def ones(*dims, size=None, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    size = _size_argument(dims, size, "ones")
    return _filled(size, 1, dtype, requires_grad, device=device)


def empty(*dims, size=None, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    size = _size_argument(dims, size, "empty")
    return _filled(size, 0, dtype, requires_grad, device=device)


def full(size, fill_value, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    if dtype is None:
        dtype = dtypes.bool_ if isinstance(fill_value, bool) else dtypes.int64 if isinstance(fill_value, int) \
            else dtypes.get_default_dtype()
    return _filled((size,) if isinstance(size, int) else size, fill_value, dtype, requires_grad, device=device)


def eye(n, m=None, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    m = n if m is None else m
    check_size((n, m))
    if meta.on_meta(device):
        return _on_meta((n, m), dtype, requires_grad)
    return _finish(np.eye(n, m, dtype=_np_dtype(dtype or dtypes.get_default_dtype())), None, requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise TorchRuntimeError("step must be nonzero")
    if (end - start) / step < 0:
        raise TorchRuntimeError("upper bound and larger bound inconsistent with step sign")
    count = int(np.ceil((end - start) / step))
    check_size((count,))
    if dtype is None:
        is_int = all(isinstance(v, int) for v in (start, end, step))
        dtype = dtypes.int64 if is_int else dtypes.get_default_dtype()
    np_dtype = _np_dtype(dtype)
    if meta.on_meta(device):
        return _on_meta((count,), np_dtype, requires_grad)
    if np_dtype in (np.float32, np.float64):
        return _finish(_arange_float(start, step, count, np_dtype), None, requires_grad)
    values = start + step * np.arange(count, dtype=np.float64 if np_dtype.kind == "f" else np.int64)
    return _finish(values.astype(np_dtype), None, requires_grad)


def _arange_float(start, step, count: int, np_dtype) -> np.ndarray:
    """torch.arange's float32/float64 values as ATen's CPU kernel computes them (RangeFactoriesKernel.cpp, its
    AVX2 build): `start + step * idx` in double with the multiply-add fused, except inside the vectorised loop,
    which takes two vectors (8 floats / 4 doubles each) at a time while they fit: there each vector's base is
    that value rounded to the dtype, and its lanes are `base + j * step`, fused, in double.  So element 80 of
    arange(-8.0, 8.0, 0.1) is 4.4409e-16, not 0.  (Over 32768 elements torch splits the range among its threads,
    each part with its own scalar tail: that split is not reproduced.)"""
    lanes = 32 // np.dtype(np_dtype).itemsize
    k = np.arange(count, dtype=np.float64)
    vectorised = (count // (2 * lanes)) * 2 * lanes
    first = np.floor(k / lanes) * lanes  # the index of each element's vector's first lane
    base = random.fma64(step, first, start).astype(np_dtype).astype(np.float64)
    values = np.where(k < vectorised, random.fma64(k - first, step, base), random.fma64(step, k, start))
    return values.astype(np_dtype)


def linspace(start, end, steps, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    if steps < 0:
        raise TorchRuntimeError("linspace(): number of steps must be non-negative")
    check_size((steps,))
    np_dtype = _np_dtype(dtype or dtypes.get_default_dtype())
    if np_dtype.kind != "f" or steps < 2:
        return _finish(np.linspace(start, end, int(steps)).astype(np_dtype), None, requires_grad)
    # torch's kernel: a step in the dtype, the first half counted from start and the second back from end,
    # each value one fused multiply-add (numpy's linspace rounds differently)
    kind = np_dtype.type
    lo, hi, n = kind(start), kind(end), int(steps)
    step = kind((hi - lo) / kind(n - 1))
    i = np.arange(n, dtype=np.float64)
    half = n // 2
    values = np.where(i < half, random.fma64(step, i, lo), random.fma64(-step, n - 1 - i, hi))
    return _finish(values.astype(np_dtype), None, requires_grad)


def logspace(start, end, steps, base=10.0, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device, factory=True)
    if steps < 0:
        raise TorchRuntimeError("number of steps must be non-negative")
    check_size((steps,))
    np_dtype = _np_dtype(dtype or dtypes.get_default_dtype())
    n = int(steps)
    if n == 1:
        return _finish(np.asarray([float(base) ** float(start)]).astype(np_dtype), None, requires_grad)
    # torch's kernel: exponents counted from start in the first half and back from end in the second
    step = (float(end) - float(start)) / (n - 1) if n > 1 else 0.0
    i = np.arange(n, dtype=np.float64)
    exponents = np.where(i < n // 2, float(start) + step * i, float(end) - step * (n - 1 - i))
    return _finish(np.power(float(base), exponents).astype(np_dtype), None, requires_grad)


def _float_dtype(dtype, name: str) -> np.dtype:
    np_dtype = _np_dtype(dtype or dtypes.get_default_dtype())
    if np_dtype.kind != "f":
        raise TorchRuntimeError(f'"{name}" not implemented for \'{dtype_title(np_dtype)}\'')
    return np_dtype


def rand(*dims, size=None, dtype=None, requires_grad=False, device=None, generator=None) -> Tensor:
    check_device(device, factory=True)
    size = _size_argument(dims, size, "rand")
    shape = as_shape(size)
    check_new_shape(shape, sized=not meta.on_meta(device))
    np_dtype = _float_dtype(dtype, "check_uniform_bounds")
    if meta.on_meta(device):
        return _on_meta(shape, np_dtype, requires_grad)
    draws = (generator or random.default_generator()).uniform(math.prod(shape), np_dtype)
    return _finish(draws.reshape(shape), None, requires_grad)


def randn(*dims, size=None, dtype=None, requires_grad=False, device=None, generator=None) -> Tensor:
    check_device(device, factory=True)
    size = _size_argument(dims, size, "randn")
    shape = as_shape(size)
    check_new_shape(shape, sized=not meta.on_meta(device))
    np_dtype = _float_dtype(dtype, "normal_kernel_cpu")
    if meta.on_meta(device):
        return _on_meta(shape, np_dtype, requires_grad)
    draws = (generator or random.default_generator()).normal(math.prod(shape), np_dtype)
    return _finish(draws.reshape(shape), None, requires_grad)


def randint(low=None, high=None, size=None, *, dtype=None, requires_grad=False, device=None, generator=None) -> Tensor:
    """torch.randint(high, size) / randint(low, high, size) (or by keyword, low 0 by default): int64 unless
    dtype says otherwise."""
    check_device(device, factory=True)
    if size is None and high is not None and low is not None:  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None and low is not None:  # randint(high, size=...)
        low, high = 0, low
    if low is None:
        low = 0
    if size is None or high is None:
        missing = "high" if high is None else "size"
        raise TorchTypeError(f"randint() missing 1 required positional argument: '{missing}'")
    low, high = int(low), int(high)
    if low >= high:
        raise TorchRuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    check_random_bounds(low, high, _np_dtype(dtype) if dtype is not None else np.dtype(np.int64))
    shape = as_shape((size,) if isinstance(size, int) else tuple(size))
    check_new_shape(shape, sized=not meta.on_meta(device))
    if meta.on_meta(device):
        return _on_meta(shape, dtype or dtypes.int64, requires_grad)
    draws = (generator or random.default_generator()).integers(math.prod(shape), low, high)
    return _finish(draws.reshape(shape), dtype, requires_grad)


def randint_like(input, low=None, high=None, *, dtype=None, requires_grad=False, device=None, generator=None,
                 memory_format=None) -> Tensor:
    """torch.randint_like(input, high) / (input, low, high): randint in input's shape and dtype."""
    if low is None and high is None:
        raise TorchTypeError("randint_like() missing 1 required positional argument: 'high'")
    if high is None:
        low, high = 0, low
    elif low is None:
        low = 0
    check_device(device)
    return randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, requires_grad=requires_grad,
                   generator=generator, device=CPU)


# the C++ names torch's bound checks print
_C_TYPE_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
                 "int32": "int", "int64": "long int"}


def check_random_bounds(low: int, high: int, dtype: np.dtype) -> None:
    """random_from_to's checks (DistributionTemplates.h): from and to - 1 within an integer dtype's range (an
    error), within +-2**digits for a float dtype (a warning)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        digits = {2: 11, 4: 24, 8: 53}[dtype.itemsize]
        name = {2: "Half", 4: "float", 8: "double"}[dtype.itemsize]
        for value, what in ((low, "from"), (high - 1, "to - 1")):
            if not -(2 ** digits) <= value <= 2 ** digits:
                state.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                           f"{name} can support discrete uniform distribution only within this range. This warning "
                           "will become an error in version 1.7 release, please fix the code in advance",
                           UserWarning, stacklevel=3)
        return
    if dtype == np.bool_:
        lo, hi = 0, 1
    else:
        lo, hi = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
    if not lo <= low <= hi:
        raise TorchRuntimeError(f"from is out of bounds for {_C_TYPE_NAMES.get(str(dtype), str(dtype))}")
    if not lo <= high - 1 <= hi:
        raise TorchRuntimeError(f"to - 1 is out of bounds for {_C_TYPE_NAMES.get(str(dtype), str(dtype))}")


def randperm(n, *, dtype=None, requires_grad=False, device=None, generator=None) -> Tensor:
    check_device(device, factory=True)
    n = int(n)
    if n < 0:
        raise TorchRuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    check_size((n,))
    return _finish((generator or random.default_generator()).permutation(n), dtype, requires_grad)


def _like_device(input, device):
    """A *_like tensor is made on its input's device unless another is given (whatever the default device)."""
    return device if device is not None else ("meta" if input.is_meta else "cpu")


def _like(fn, random_draw=False):
    if random_draw:  # rand_like / randn_like take a generator too
        def like(input, dtype=None, requires_grad=False, device=None, generator=None):
            check_device(device)  # the input's device otherwise, never the default one
            return fn(*input.array.shape, dtype=dtype or input.dtype, requires_grad=requires_grad,
                      generator=generator, device=_like_device(input, device))
    else:
        def like(input, dtype=None, requires_grad=False, device=None):
            check_device(device)  # the input's device otherwise, never the default one
            return fn(*input.array.shape, dtype=dtype or input.dtype, requires_grad=requires_grad,
                      device=_like_device(input, device))

    like.__name__ = fn.__name__ + "_like"
    return like


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)
rand_like = _like(rand, random_draw=True)
randn_like = _like(randn, random_draw=True)


def full_like(input, fill_value, dtype=None, requires_grad=False, device=None) -> Tensor:
    check_device(device)
    return full(input.array.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad,
                device=_like_device(input, device))


for _fn, _sig, _doc in (
    (tensor, "tensor(data, dtype=None, requires_grad=False)", "a constant tensor from (nested) numbers"),
    (zeros, "zeros(*size, dtype=None)", "a tensor of zeros"),
    (ones, "ones(*size, dtype=None)", "a tensor of ones"),
    (full, "full(size, fill_value, dtype=None)", "a tensor filled with fill_value"),
    (eye, "eye(n, m=None, dtype=None)", "the identity matrix"),
    (arange, "arange(start, end=None, step=1, dtype=None)", "evenly spaced values in [start, end)"),
    (linspace, "linspace(start, end, steps, dtype=None)", "steps values from start to end inclusive"),
    (logspace, "logspace(start, end, steps, base=10.0, dtype=None)", "base ** linspace(start, end, steps)"),
    (empty, "empty(*size, dtype=None)", "an uninitialised tensor (zeros here)"),
    (rand, "rand(*size)", "uniform random values in [0, 1)"),
    (randn, "randn(*size)", "standard normal random values"),
    (randint, "randint(low=0, high, size)", "uniform random integers in [low, high)"),
    (randperm, "randperm(n)", "a random permutation of 0..n-1"),
    (randint_like, "randint_like(input, low=0, high)", "uniform random integers in input's shape"),
    (zeros_like, "zeros_like(input)", "zeros of input's shape"),
    (ones_like, "ones_like(input)", "ones of input's shape"),
    (full_like, "full_like(input, fill_value)", "fill_value in input's shape"),
    (rand_like, "rand_like(input)", "uniform random values of input's shape"),
    (randn_like, "randn_like(input)", "standard normal random values of input's shape"),
):
    register(_fn.__name__, sig=_sig, doc=_doc, category="creation", method=False)(_fn)


# -- in-place draws: tensor.uniform_(), normal_(), bernoulli_() (what torch.nn.init and Dropout use) ---------

class _Drawn(Function):
    """The values drawn into a tensor in place; no gradient flows to what was there (torch: zeros_like)."""

    __slots__ = ()
    name = "UniformBackward0"

    @staticmethod
    def forward(ctx, x, values):
        return values.reshape(x.shape).astype(x.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        return (dual.zeros_like(g),)


class _NormalDrawn(_Drawn):
    __slots__ = ()
    name = "NormalBackward0"


class _BernoulliDrawn(_Drawn):
    __slots__ = ()
    name = "BernoulliBackward0"


def _draw_into(self: Tensor, node, draw) -> Tensor:
    if self.array.dtype.kind != "f" and node not in (_BernoulliDrawn, _RandomDrawn, _RandomFullDrawn,
                                                     _GeometricDrawn):
        raise TorchRuntimeError(f'"{node.name[:-9].lower()}_kernel_cpu" not implemented for '
                                f"'{dtype_title(self.array.dtype)}'")
    values = draw(self.array.size, self.array.dtype if self.array.dtype.kind == "f" else np.dtype(np.float64))
    return apply_inplace(self, lambda s: node.apply(s, np.asarray(values)))


def uniform_(self, a=0.0, b=1.0, *, generator=None):
    _check_uniform_bounds(self.array.dtype, float(a), float(b))
    gen = generator or random.default_generator()
    return _draw_into(self, _Drawn, lambda n, dt: gen.uniform(n, dt, float(a), float(b)))


def _check_uniform_bounds(dtype: np.dtype, low: float, high: float) -> None:
    """uniform_'s check_uniform_bounds (DistributionTemplates.h)."""
    if dtype.kind != "f":
        raise TorchRuntimeError(f'"check_uniform_bounds" not implemented for \'{dtype_title(dtype)}\'')
    info = np.finfo(dtype)
    c_name = {2: "c10::Half", 4: "float", 8: "double"}[dtype.itemsize]
    for value, what in ((low, "from"), (high, "to")):
        if not -float(info.max) <= value <= float(info.max):
            raise TorchRuntimeError(f"{what} is out of bounds for {c_name}")
    if low > high:
        raise TorchRuntimeError(f"uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}")
    if high - low > float(info.max):
        raise TorchRuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{dtype_title(dtype)}>::max(), but "
                                f"found to={high:g} and from={low:g} which result in to-from to exceed the limit")


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    if std < 0:
        raise TorchRuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    gen = generator or random.default_generator()
    return _draw_into(self, _NormalDrawn, lambda n, dt: gen.normal(n, dt, float(mean), float(std)))


def bernoulli_(self, p=0.5, *, generator=None):
    gen = generator or random.default_generator()
    prob = p.array if isinstance(p, Tensor) else float(p)
    if np.any(np.asarray(prob) < 0) or np.any(np.asarray(prob) > 1):
        raise TorchRuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={prob}")
    prob = np.broadcast_to(prob, self.array.shape).reshape(-1) if isinstance(p, Tensor) else prob
    return _draw_into(self, _BernoulliDrawn, lambda n, dt: gen.bernoulli(prob, n).astype(self.array.dtype))


def bernoulli(input, p=None, *, generator=None) -> Tensor:
    """torch.bernoulli(probabilities): 1 where a uniform draw falls below each probability."""
    gen = generator or random.default_generator()
    prob = input.array if p is None else np.full(input.array.shape, float(p))
    if np.any(prob < 0) or np.any(prob > 1):
        raise TorchRuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    drawn = gen.bernoulli(prob.reshape(-1), prob.size).reshape(prob.shape).astype(input.array.dtype)
    return _finish(drawn, None, False)


class _RandomDrawn(_Drawn):
    __slots__ = ()
    name = "RandomBackward1"


def random_(self, from_=None, to=None, *, generator=None, **kwargs):
    """tensor.random_(to) / random_(from, to): integers in [from, to) as torch's random_from_to kernel draws
    them (the draws randint makes), stored in the tensor's dtype."""
    if "from" in kwargs:
        from_ = kwargs.pop("from")
    if kwargs:
        raise TorchTypeError(f"random_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    gen = generator or random.default_generator()
    if from_ is None and to is None:  # the dtype's whole range
        return _draw_into(self, _RandomFullDrawn, lambda n, dt: gen.full_range(n, self.array.dtype))
    low, high = (0, from_) if to is None else (from_, to)
    low, high = int(low), int(high)
    if low >= high:
        raise TorchRuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    check_random_bounds(low, high, self.array.dtype)
    return _draw_into(self, _RandomDrawn, lambda n, dt: gen.integers(n, low, high).astype(self.array.dtype))


class _ExponentialDrawn(_Drawn):
    __slots__ = ()
    name = "ExponentialBackward0"


def exponential_(self, lambd=1.0, *, generator=None):
    if not lambd > 0:
        raise TorchRuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={float(lambd):g}")
    if self.array.dtype.kind != "f":
        raise TorchRuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                                f"floating point but you specified {dtype_title(self.array.dtype)}")
    gen = generator or random.default_generator()
    return _draw_into(self, _ExponentialDrawn, lambda n, dt: gen.exponential(n, float(lambd)).astype(dt))


class _RandomFullDrawn(_Drawn):
    __slots__ = ()
    name = "RandomBackward2"


class _GeometricDrawn(_Drawn):
    __slots__ = ()
    name = "GeometricBackward0"


class _CauchyDrawn(_Drawn):
    __slots__ = ()
    name = "CauchyBackward0"


class _LogNormalDrawn(_Drawn):
    __slots__ = ()
    name = "LogNormalBackward0"


def geometric_(self, p, *, generator=None):
    """tensor.geometric_(p): the number of Bernoulli(p) trials to the first success, any dtype."""
    if not 0 < p < 1:
        raise TorchRuntimeError(f"geometric_ expects p to be in (0, 1), but got p={float(p):g}")
    if self.array.dtype == np.bool_:
        raise TorchRuntimeError("\"geometric_cpu\" not implemented for 'Bool'")
    gen = generator or random.default_generator()
    return _draw_into(self, _GeometricDrawn, lambda n, dt: gen.geometric(n, float(p)).astype(self.array.dtype))


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    if not sigma > 0:
        raise TorchRuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={float(sigma):g}")
    if self.array.dtype.kind != "f":
        raise TorchRuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a "
                                f"floating point but you specified {_C_TYPE_NAMES.get(str(self.array.dtype))}")
    gen = generator or random.default_generator()
    return _draw_into(self, _CauchyDrawn, lambda n, dt: gen.cauchy(n, float(median), float(sigma)).astype(dt))


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    if not std > 0:
        raise TorchRuntimeError(f"log_normal_ expects std > 0.0, but found std={float(std):g}")
    if self.array.dtype.kind != "f":
        raise TorchRuntimeError(f'"log_normal_cpu" not implemented for \'{dtype_title(self.array.dtype)}\'')
    gen = generator or random.default_generator()
    return _draw_into(self, _LogNormalDrawn, lambda n, dt: gen.log_normal(n, float(mean), float(std)).astype(dt))


def multinomial(input, num_samples, replacement=False, *, generator=None) -> Tensor:
    """torch.multinomial as its CPU kernel draws: without replacement (or one sample), argmax / topk of
    p / q with q ~ Exp(1) drawn by exponential_; with replacement, one double uniform per sample searched in
    the normalised cumulative distribution."""
    gen = generator or random.default_generator()
    probs = input.array if isinstance(input, Tensor) else np.asarray(input)
    if probs.ndim not in (1, 2):
        raise TorchRuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise TorchRuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                                f"{dtype_title(probs.dtype)}")
    if num_samples <= 0:
        raise TorchRuntimeError("cannot sample n_sample <= 0 samples")
    categories = probs.shape[-1]
    if not replacement and num_samples > categories:
        raise TorchRuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if categories > 1 << 24:
        raise TorchRuntimeError("number of categories cannot exceed 2^24")
    rows = probs.reshape(-1, categories)
    check_size(probs.shape[:-1] + (num_samples,), "multinomial")
    if not replacement or num_samples == 1:
        if not (np.all(rows < np.inf) and np.all(rows >= 0)):
            raise TorchRuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1) == 0):
            raise TorchRuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = gen.exponential(rows.size).astype(probs.dtype).reshape(rows.shape)
        ratio = rows / q
        if num_samples == 1:
            picked = np.argmax(ratio, axis=1)[:, None]
        else:  # topk: largest first, ties to the lower index
            picked = np.argsort(-ratio, axis=1, kind="stable")[:, :num_samples]
    else:
        picked = np.empty((rows.shape[0], num_samples), dtype=np.int64)
        for i, row in enumerate(rows):  # one row's draws depend on the generator after the previous row's
            if np.any(row < 0):
                raise TorchRuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            if not np.all(np.isfinite(row)):
                raise TorchRuntimeError("invalid multinomial distribution (encountering probability entry = "
                                        "infinity or NaN)")
            cumulative = np.cumsum(row, dtype=row.dtype)  # a running sum in the row's dtype, as the kernel's
            total = cumulative[-1]
            if not total > 0:
                raise TorchRuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            cumulative = cumulative / total
            cumulative[-1] = 1
            draws = gen.uniform(num_samples, np.float64)
            picked[i] = np.searchsorted(cumulative.astype(np.float64), draws, side="left")
    result = picked.astype(np.int64).reshape(probs.shape[:-1] + (num_samples,))
    return _finish(result, None, False)


register("multinomial", sig="multinomial(input, num_samples, replacement=False)",
         doc="indices drawn from each row's (unnormalised) probabilities", category="creation")(multinomial)

for _name, _fn in {"uniform_": uniform_, "normal_": normal_, "bernoulli_": bernoulli_,
                   "exponential_": exponential_, "random_": random_, "geometric_": geometric_, "cauchy_": cauchy_,
                   "log_normal_": log_normal_}.items():
    register(_name, sig=f"{_name}(...)", doc=f"in-place draw ({_name[:-1]})", category="inplace", torch=False)(_fn)
register("bernoulli", sig="bernoulli(input)", doc="0/1 draws with the given probabilities", category="creation")(
    bernoulli)
