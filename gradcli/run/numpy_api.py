"""numpy beside torch in `gradcli run`: the numpy a tutorial uses, through a whitelist.

A program sees `numpy` (as `np`), `numpy.random` and `numpy.linalg` as fixed tables of wrapped functions, and
arrays through a table of attributes; nothing else of numpy exists for it (no `np.load`/`save`/`fromfile`/
`memmap`/`ctypeslib`/`lib`/`testing`, no `frompyfunc`/`vectorize`/`apply_along_axis`, nothing that takes a
callable or touches a file).  Every wrapper:

- counts the elements of its result before numpy allocates it, against the run's tensor size limit (the
  engine's `SizeLimit`, so `np.ones(10**10)` is refused as `torch.ones(10**10)` is), including nested lists
  that share their rows (`[[0] * 10**7] * 10**7` is small as a list, not as an array);
- accepts only bool, integer and floating-point dtypes, and refuses any array result of another kind (an
  object array could hold the program's functions, and Python integers in it escape `max_int_bits`);
- hands tensors to numpy as `Tensor.numpy()` does (torch's error for one that requires grad).

`np.random` is numpy's legacy global generator as one `RandomState` per run (so `np.random.seed(0);
np.random.randn(3)` prints numpy's numbers, and nothing leaks between runs); `np.random.default_rng(seed)`
is numpy's `Generator(PCG64(seed))`.
"""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine.errors import LimitExceeded
from gradcli.engine.ops.common import SizeLimit
from gradcli.engine.tensor import Tensor

NUMERIC_KINDS = "biuf"


class NumpyRefused(Exception):
    """A numpy call outside the whitelist's rules: the interpreter reports it as a refusal (exit 2)."""


def refuse(what: str):
    raise NumpyRefused(what)


# -- sizes -------------------------------------------------------------------------------------------------

def check_elements(count: int) -> None:
    if count > SizeLimit.max_elements:
        raise LimitExceeded(f"a numpy array of {count} elements is larger than the limit of "
                            f"{SizeLimit.max_elements} elements")


def elements(shape) -> int:
    """Elements of an array of `shape` (an int, a sequence of ints, or None for a scalar)."""
    if shape is None:
        return 1
    if isinstance(shape, (int, np.integer)):
        return max(int(shape), 0)
    count = 1
    for dim in shape:
        count *= max(int(dim), 0)
    return count


def leaves(value, memo: dict | None = None) -> int:
    """How many numbers an array made from `value` holds at most (nested lists counted with their sharing)."""
    if isinstance(value, np.ndarray):
        return value.size
    if isinstance(value, Tensor):
        return value.array.size
    if not isinstance(value, (list, tuple)):
        return 1
    memo = {} if memo is None else memo
    known = memo.get(id(value))
    if known is not None:
        return known
    memo[id(value)] = 0  # a list that contains itself: numpy refuses it, count it once
    count = 0
    for item in value:
        count += leaves(item, memo)
        if count > SizeLimit.max_elements:
            break
    memo[id(value)] = count
    return count


def shape_of(value) -> tuple:
    if isinstance(value, np.ndarray):
        return value.shape
    if isinstance(value, Tensor):
        return value.array.shape
    if isinstance(value, (list, tuple)):
        check_elements(leaves(value))
        return np.shape(value)
    return ()


def broadcast_elements(*values) -> int:
    try:
        return elements(np.broadcast_shapes(*(shape_of(v) for v in values)))
    except ValueError:
        return 0  # numpy itself raises its error


# -- dtypes --------------------------------------------------------------------------------------------------

def check_dtype(dtype) -> None:
    if dtype is None:
        return
    if isinstance(dtype, Tensor) or not isinstance(dtype, (str, type, np.dtype)):
        return  # numpy raises its own TypeError
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        return
    if resolved.kind not in NUMERIC_KINDS or resolved.subdtype is not None or resolved.names is not None:
        refuse(f"numpy arrays of dtype {resolved} (only bool, integer and floating-point arrays: convert with "
               ".astype(np.float64))")


def check_result(value):
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in NUMERIC_KINDS:
            refuse(f"numpy arrays of dtype {value.dtype} (only bool, integer and floating-point arrays: convert "
                   "with .astype(np.float64))")
    elif isinstance(value, tuple):
        for item in value:
            check_result(item)
    elif isinstance(value, np.generic) and value.dtype.kind not in NUMERIC_KINDS:
        refuse(f"numpy values of dtype {value.dtype} (only bool, integer and floating-point values: convert with "
               "float(x))")
    return value


def as_numpy(value):
    """A tensor handed to numpy is its array, as torch's Tensor.__array__ gives it (refused if it requires grad);
    a list of tensors, a list of their arrays."""
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, list) and value and all(isinstance(v, Tensor) for v in value):
        return [v.numpy() for v in value]
    return value


# -- size rules: the elements of a call's result, from its arguments, before numpy runs ------------------------

def _arg(args, kwargs, index, name, default=None):
    if name in kwargs:
        return kwargs[name]
    return args[index] if len(args) > index else default


def rule_shape(args, kwargs):  # zeros(shape), ones, empty, full(shape, value)
    return elements(_arg(args, kwargs, 0, "shape", ()))


def rule_like(args, kwargs):  # zeros_like(a, dtype=None, order, subok, shape=None)
    shape = kwargs.get("shape")
    return elements(shape) if shape is not None else leaves(_arg(args, kwargs, 0, "a"))


def rule_eye(args, kwargs):
    n = _arg(args, kwargs, 0, "N", 0)
    m = _arg(args, kwargs, 1, "M", None)
    return elements((n, n if m is None else m))


def rule_identity(args, kwargs):
    n = _arg(args, kwargs, 0, "n", 0)
    return elements((n, n))


def rule_arange(args, kwargs):
    numbers = [a for a in args if not isinstance(a, (str, type, np.dtype))]
    start, stop, step = 0, None, 1
    if len(numbers) == 1:
        stop = numbers[0]
    elif len(numbers) == 2:
        start, stop = numbers
    elif len(numbers) >= 3:
        start, stop, step = numbers[:3]
    start, stop, step = kwargs.get("start", start), kwargs.get("stop", stop), kwargs.get("step", step)
    if stop is None:
        start, stop = 0, start
    try:
        count = math.ceil((float(stop) - float(start)) / float(step))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return 0  # numpy raises its own error
    return max(count, 0)


def rule_linspace(args, kwargs):
    return max(int(_arg(args, kwargs, 2, "num", 50)), 0)


def rule_bounded(args, kwargs):
    """A result no larger than the largest input (unary ufuncs, reductions, reshapes, sorts ...)."""
    return max([leaves(a) for a in (*args, *kwargs.values())] + [1])


def rule_broadcast(args, kwargs):
    arrays = [a for a in args if isinstance(a, (np.ndarray, Tensor, list, tuple, int, float, np.generic))]
    for name in ("x", "y", "x1", "x2", "a_min", "a_max", "min", "max"):
        if name in kwargs:
            arrays.append(kwargs[name])
    return broadcast_elements(*arrays) if arrays else 1


def rule_sum_of_inputs(args, kwargs):  # concatenate, stack, vstack, hstack: a sequence of arrays
    seq = _arg(args, kwargs, 0, "arrays", ())
    return sum(leaves(a) for a in seq) if isinstance(seq, (list, tuple)) else leaves(seq)


def rule_outer(args, kwargs):
    return leaves(_arg(args, kwargs, 0, "a")) * leaves(_arg(args, kwargs, 1, "b"))


def rule_matmul(args, kwargs):
    a, b = (shape_of(_arg(args, kwargs, i, n)) for i, n in ((0, "a"), (1, "b")))
    if len(a) == 0 or len(b) == 0:
        return broadcast_elements(_arg(args, kwargs, 0, "a"), _arg(args, kwargs, 1, "b"))
    rows = a[-2] if len(a) >= 2 else 1
    cols = b[-1] if len(b) >= 2 else 1
    try:
        batch = np.broadcast_shapes(a[:-2], b[:-2])
    except ValueError:
        return 0
    return elements(batch) * rows * cols


def rule_dot(args, kwargs):
    a, b = (shape_of(_arg(args, kwargs, i, n)) for i, n in ((0, "a"), (1, "b")))
    if len(a) == 0 or len(b) == 0:
        return elements(a) * elements(b)
    return elements(a[:-1]) * elements(b[:-2] + b[-1:] if len(b) >= 2 else ())


def rule_inner(args, kwargs):
    a, b = (shape_of(_arg(args, kwargs, i, n)) for i, n in ((0, "a"), (1, "b")))
    if len(a) == 0 or len(b) == 0:
        return elements(a) * elements(b)
    return elements(a[:-1]) * elements(b[:-1])


def rule_quantile(args, kwargs):  # one result per q for every position the reduction leaves
    return leaves(_arg(args, kwargs, 0, "a")) * leaves(_arg(args, kwargs, 1, "q"))


def rule_diag(args, kwargs):
    v = shape_of(_arg(args, kwargs, 0, "v"))
    k = abs(int(_arg(args, kwargs, 1, "k", 0)))
    return (v[0] + k) ** 2 if len(v) == 1 else elements(v)


def rule_tile(args, kwargs):
    reps = _arg(args, kwargs, 1, "reps", 1)
    return leaves(_arg(args, kwargs, 0, "A")) * elements(reps)


def rule_repeat(args, kwargs):
    repeats = _arg(args, kwargs, 1, "repeats", 1)
    total = leaves(_arg(args, kwargs, 0, "a"))
    if isinstance(repeats, (int, np.integer)):
        return total * max(int(repeats), 0)
    return total * max([int(r) for r in np.ravel(repeats)] + [0])


def rule_meshgrid(args, kwargs):
    return len(args) * elements([leaves(a) for a in args])


def rule_size_at(index: int):
    """numpy.random's functions: the `size` argument (at `index` when positional), else the parameters' broadcast."""
    def rule(args, kwargs):
        size = _arg(args, kwargs, index, "size", None)
        if size is not None:
            return elements(size)
        return broadcast_elements(*args[:index]) if args[:index] else 1
    return rule


def rule_dims(args, kwargs):  # rand(d0, d1, ...), randn
    return elements(args)


def rule_choice(args, kwargs):
    a = _arg(args, kwargs, 0, "a")
    replace = _arg(args, kwargs, 2, "replace", True)
    population = int(a) if isinstance(a, (int, np.integer)) else 0
    return max(elements(_arg(args, kwargs, 1, "size", None)), 0 if replace else population)


def rule_permutation(args, kwargs):
    x = _arg(args, kwargs, 0, "x")
    return int(x) if isinstance(x, (int, np.integer)) else leaves(x)


# -- wrapping -------------------------------------------------------------------------------------------------

class NumpyFunction:
    """A whitelisted numpy callable: sizes and dtypes checked before it runs, its result checked after."""

    __slots__ = ("name", "function", "rule")
    python_type_name = "function"

    def __init__(self, name: str, function, rule):
        self.name, self.function, self.rule = name, function, rule

    def __call__(self, *args, **kwargs):
        args = tuple(as_numpy(a) for a in args)
        kwargs = {k: as_numpy(v) for k, v in kwargs.items()}
        check_dtype(kwargs.get("dtype"))
        for value in args:
            if isinstance(value, (str, type, np.dtype)):
                check_dtype(value)
        for value in (*args, *kwargs.values()):
            if isinstance(value, (list, tuple)):
                check_elements(leaves(value))
        check_elements(self.rule(args, kwargs))
        try:
            result = self.function(*args, **kwargs)
        except Exception as error:  # numpy's own error, in numpy's words (not translated into torch's)
            error.gradcli_numpy = True
            raise
        return check_result(result)

    def __repr__(self) -> str:
        return f"<function {self.name} at {id(self):#x}>"


def wrap(table: dict, source, prefix: str) -> dict:
    return {name: NumpyFunction(prefix + name, getattr(source, name), rule) for name, rule in table.items()}


UNARY_UFUNCS = """
sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh exp exp2 expm1 log log2 log10 log1p sqrt
cbrt square abs absolute fabs sign floor ceil trunc rint negative positive reciprocal isnan isinf isfinite
logical_not deg2rad rad2deg degrees radians signbit
""".split()
BINARY_UFUNCS = """
add subtract multiply divide true_divide floor_divide power mod remainder fmod maximum minimum fmax fmin
arctan2 hypot logaddexp logaddexp2 greater greater_equal less less_equal equal not_equal logical_and
logical_or logical_xor copysign heaviside where clip isclose allclose float_power
""".split()
BOUNDED = """
sum mean std var max min amax amin argmax argmin prod cumsum cumprod median average ptp any all
nansum nanmean nanmax nanmin round around reshape transpose squeeze expand_dims ravel flip fliplr flipud
sort argsort unique nonzero argwhere count_nonzero copy asarray ascontiguousarray atleast_1d atleast_2d
moveaxis swapaxes triu tril trace diagonal diff array_equal shape ndim size
searchsorted interp
""".split()

FUNCTIONS = {
    **{name: rule_bounded for name in UNARY_UFUNCS},
    **{name: rule_broadcast for name in BINARY_UFUNCS},
    **{name: rule_bounded for name in BOUNDED},
    "array": rule_bounded, "zeros": rule_shape, "ones": rule_shape, "empty": rule_shape, "full": rule_shape,
    "zeros_like": rule_like, "ones_like": rule_like, "empty_like": rule_like, "full_like": rule_like,
    "eye": rule_eye, "identity": rule_identity, "arange": rule_arange, "linspace": rule_linspace,
    "logspace": rule_linspace, "concatenate": rule_sum_of_inputs, "stack": rule_sum_of_inputs,
    "vstack": rule_sum_of_inputs, "hstack": rule_sum_of_inputs, "column_stack": rule_sum_of_inputs,
    "outer": rule_outer, "dot": rule_dot, "matmul": rule_matmul, "inner": rule_inner, "diag": rule_diag,
    "percentile": rule_quantile, "quantile": rule_quantile,
    "tile": rule_tile, "repeat": rule_repeat, "meshgrid": rule_meshgrid, "broadcast_to": rule_broadcast,
}
# np.broadcast_to(a, shape): the shape argument is the result's
FUNCTIONS["broadcast_to"] = lambda args, kwargs: elements(_arg(args, kwargs, 1, "shape", ()))

LINALG = {"norm": rule_bounded, "inv": rule_bounded, "det": rule_bounded, "solve": rule_bounded,
          "eigh": rule_bounded, "eigvalsh": rule_bounded, "qr": rule_bounded, "cholesky": rule_bounded,
          "matrix_rank": rule_bounded, "pinv": rule_bounded}

# numpy.random's legacy functions (on a RandomState) and a Generator's methods, with where `size` goes.
LEGACY_RANDOM = {
    "rand": rule_dims, "randn": rule_dims, "randint": rule_size_at(2), "random": rule_size_at(0),
    "random_sample": rule_size_at(0),
    "standard_normal": rule_size_at(0), "normal": rule_size_at(2), "uniform": rule_size_at(2),
    "choice": rule_choice, "permutation": rule_permutation, "shuffle": rule_bounded,
    "binomial": rule_size_at(2), "poisson": rule_size_at(1), "exponential": rule_size_at(1),
    "beta": rule_size_at(2), "gamma": rule_size_at(2), "laplace": rule_size_at(2),
}
GENERATOR_METHODS = {
    "random": rule_size_at(0), "standard_normal": rule_size_at(0), "normal": rule_size_at(2),
    "uniform": rule_size_at(2), "integers": rule_size_at(2), "choice": rule_choice,
    "permutation": rule_permutation, "shuffle": rule_bounded, "binomial": rule_size_at(2),
    "poisson": rule_size_at(1), "exponential": rule_size_at(1),
}

SCALAR_TYPES = """
float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool_ double single half
intp
""".split()

CONSTANTS = {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan, "newaxis": None, "euler_gamma": np.euler_gamma}

# Names a learner may reach for that stay out, with what to use instead.
REFUSED_HINTS = {
    "load": "file access; build the array in the program", "save": "file access; print the array",
    "savez": "file access; print the array", "loadtxt": "file access; build the array in the program",
    "savetxt": "file access; print the array", "genfromtxt": "file access; build the array in the program",
    "fromfile": "file access; build the array in the program", "memmap": "file access; build the array in the program",
    "ctypeslib": "raw memory access; use numpy's array functions", "lib": "numpy's internals; use numpy's own "
    "functions", "testing": "use np.allclose or assert", "f2py": "compiling code; compute with numpy or torch",
    "distutils": "compiling code; compute with numpy or torch", "frompyfunc": "it calls Python functions from C; "
    "write a loop or use numpy's own functions", "vectorize": "it calls Python functions from C; write a loop "
    "or use numpy's own functions", "apply_along_axis": "it calls Python functions from C; write a loop",
    "fromfunction": "it calls Python functions from C; use np.arange and broadcasting",
    "set_printoptions": "numpy's default printing is what gradcli run reproduces; print with np.round or "
    "f-strings",
}


def static_members() -> dict:
    """numpy's members as the static check and the per-run modules share them (numpy.random is per run)."""
    members = wrap(FUNCTIONS, np, "")
    members.update({name: getattr(np, name) for name in SCALAR_TYPES})
    members["bool"] = np.bool_
    members.update(CONSTANTS)
    return members


def legacy_random_members(state: np.random.RandomState) -> dict:
    members = wrap(LEGACY_RANDOM, state, "")
    members["ranf"] = members["sample"] = members["random_sample"]  # numpy's aliases
    members["seed"] = NumpyFunction("seed", state.seed, lambda args, kwargs: 1)
    members["default_rng"] = NumpyFunction("default_rng", default_rng, lambda args, kwargs: 1)
    members["RandomState"] = NumpyFunction("RandomState", random_state, lambda args, kwargs: 1)
    return members


def default_rng(seed=None):
    return check_seed(seed) or np.random.default_rng(seed)


def random_state(seed=None):
    return check_seed(seed) or np.random.RandomState(seed)


def check_seed(seed):
    if isinstance(seed, (list, tuple, np.ndarray)):
        check_elements(leaves(seed))
    return None


# -- arrays, scalars and generators: their attributes ------------------------------------------------------------

ARRAY_METHODS = {
    "reshape": rule_bounded, "transpose": rule_bounded, "astype": rule_bounded, "sum": rule_bounded,
    "mean": rule_bounded, "max": rule_bounded, "min": rule_bounded, "argmax": rule_bounded,
    "argmin": rule_bounded, "std": rule_bounded, "var": rule_bounded, "prod": rule_bounded,
    "cumsum": rule_bounded, "cumprod": rule_bounded, "copy": rule_bounded, "flatten": rule_bounded,
    "ravel": rule_bounded, "tolist": rule_bounded, "item": rule_bounded, "squeeze": rule_bounded,
    "clip": rule_bounded, "round": rule_bounded, "fill": rule_bounded, "any": rule_bounded,
    "all": rule_bounded, "sort": rule_bounded, "argsort": rule_bounded, "swapaxes": rule_bounded,
    "nonzero": rule_bounded, "trace": rule_bounded, "diagonal": rule_bounded,
}
ARRAY_PROPERTIES = frozenset({"T", "shape", "dtype", "ndim", "size", "itemsize", "nbytes"})
SCALAR_ATTRIBUTES = frozenset({"item", "dtype", "shape", "ndim", "size", "astype", "tolist", "itemsize"})
DTYPE_ATTRIBUTES = frozenset({"name", "itemsize", "kind"})


def _method_rule(name: str, rule):
    def bounded_by_receiver(receiver, args, kwargs):
        if name == "astype":
            check_dtype(_arg(args, kwargs, 0, "dtype"))
        if name == "dot":
            return rule_dot((receiver, *args), kwargs)
        if name == "repeat":
            return rule_repeat((receiver, *args), kwargs)
        return max(rule(args, kwargs), receiver.size if isinstance(receiver, np.ndarray) else 1)
    return bounded_by_receiver


class NumpyMethod:
    """A method of an array, a numpy scalar or a Generator, checked as NumpyFunction checks a function."""

    __slots__ = ("receiver", "name", "rule")
    python_type_name = "builtin_function_or_method"

    def __init__(self, receiver, name: str, rule):
        self.receiver, self.name, self.rule = receiver, name, rule

    def __call__(self, *args, **kwargs):
        args = tuple(as_numpy(a) for a in args)
        kwargs = {k: as_numpy(v) for k, v in kwargs.items()}
        check_dtype(kwargs.get("dtype"))
        for value in (*args, *kwargs.values()):
            if isinstance(value, (list, tuple)):
                check_elements(leaves(value))
        check_elements(self.rule(self.receiver, args, kwargs))
        try:
            result = getattr(self.receiver, self.name)(*args, **kwargs)
        except Exception as error:
            error.gradcli_numpy = True
            raise
        return check_result(result)

    def __repr__(self) -> str:
        kind = type(self.receiver).__name__
        return f"<built-in method {self.name} of {kind} object at {id(self.receiver):#x}>"


ARRAY_METHOD_RULES = {name: _method_rule(name, rule) for name, rule in
                      {**ARRAY_METHODS, "dot": rule_dot, "repeat": rule_repeat}.items()}


def _ignoring_receiver(rule):
    return lambda receiver, args, kwargs: rule(args, kwargs)


GENERATOR_RULES = {name: _ignoring_receiver(rule) for name, rule in GENERATOR_METHODS.items()}
RANDOM_STATE_RULES = {name: _ignoring_receiver(rule)
                      for name, rule in {**LEGACY_RANDOM, "seed": lambda args, kwargs: 1}.items()}


def attribute_names() -> frozenset:
    """Every attribute name a numpy value has for a program (for the static check)."""
    return frozenset(ARRAY_METHOD_RULES) | ARRAY_PROPERTIES | SCALAR_ATTRIBUTES | DTYPE_ATTRIBUTES \
        | frozenset(GENERATOR_RULES) | frozenset(RANDOM_STATE_RULES)


def handles(obj) -> bool:
    return isinstance(obj, (np.ndarray, np.generic, np.dtype, np.random.Generator, np.random.RandomState))


def get_attribute(obj, name: str):
    """An attribute of a numpy value, or AttributeError as Python words it."""
    if isinstance(obj, np.ndarray):
        if name in ARRAY_PROPERTIES:
            return getattr(obj, name)
        if name in ARRAY_METHOD_RULES:
            return NumpyMethod(obj, name, ARRAY_METHOD_RULES[name])
    elif isinstance(obj, np.generic):
        if name in SCALAR_ATTRIBUTES:
            if name in ("item", "astype", "tolist"):
                return NumpyMethod(obj, name, ARRAY_METHOD_RULES[name])
            return getattr(obj, name)
    elif isinstance(obj, np.dtype):
        if name in DTYPE_ATTRIBUTES:
            return getattr(obj, name)
    elif isinstance(obj, np.random.Generator):
        if name in GENERATOR_RULES:
            return NumpyMethod(obj, name, GENERATOR_RULES[name])
    elif isinstance(obj, np.random.RandomState):
        if name in RANDOM_STATE_RULES:
            return NumpyMethod(obj, name, RANDOM_STATE_RULES[name])
    if hasattr(obj, name):  # numpy has it, gradcli run does not offer it (a.view, a.tofile, a.ctypes, a.base ...)
        refuse(f"the attribute .{name} of numpy's {type(obj).__name__} objects (outside what gradcli run offers "
               "of numpy: use the numpy functions and torch's tensor methods docs/run.md lists)")
    raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")


def construct_scalar(cls, args, kwargs):
    """np.float32(x) and the other scalar types called: x may be a list, which makes an array."""
    return NumpyFunction(cls.__name__, cls, rule_bounded)(*args, **kwargs)


def index_elements(array: np.ndarray, key) -> int:
    """At most how many elements `array[key]` allocates: 0 for basic indexing (a view); with index arrays,
    their broadcast shape times the dims they leave alone."""
    key = key if isinstance(key, tuple) else (key,)
    arrays = [k for k in key if isinstance(k, (np.ndarray, list, tuple, Tensor))]
    if not arrays:
        return 0
    shapes = []
    for k in arrays:
        k = k.array if isinstance(k, Tensor) else k
        if isinstance(k, np.ndarray) and k.dtype == bool:
            shapes.append((int(np.count_nonzero(k)),))
        else:
            shapes.append(shape_of(k))
    try:
        indexed = elements(np.broadcast_shapes(*shapes))
    except ValueError:
        return 0  # numpy raises its IndexError
    consumed = 1
    if not any(k is Ellipsis for k in key):
        dims = iter(array.shape)
        for k in key:
            if k is None:
                continue
            count = k.ndim if isinstance(k, np.ndarray) and k.dtype == bool else 1
            for _ in range(count):
                size = next(dims, 1)
                if not isinstance(k, slice):
                    consumed *= max(size, 1)
    return indexed * (array.size // max(consumed, 1))


def operand_elements(left, right) -> int:
    """The elements of `left <op> right` when numpy broadcasts them."""
    return broadcast_elements(left, right)


def is_numpy(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic))

