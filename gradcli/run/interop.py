"""The small pieces of torch and the standard library a learner's program uses around its tensors:
`torch.from_numpy` / `torch.as_tensor` (memory shared with numpy, as torch shares it), `torch.inference_mode`,
`torch.compile` (a no-op: gradcli has one way to run a program), grad-mode decorators, `functools.wraps` and
`functools.reduce`, and Python's `random` module as one `random.Random` per run."""

from __future__ import annotations

import functools
import random

import numpy as np

from gradcli.engine import creation, dtypes
from gradcli.engine.autograd import INFERENCE_USED, GradMode, GradModeContext, set_grad_enabled
from gradcli.engine.errors import TorchTypeError, TorchValueError
from gradcli.engine.state import INFERENCE
from gradcli.engine.tensor import Tensor, check_device
from gradcli.run.errors import LimitReached
from gradcli.run.numpy_api import NumpyRefused, check_elements, leaves

TORCH_NUMPY_TYPES = ("float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
                     "uint32, uint16, uint8, and bool")


def _numpy_type_name(array: np.ndarray) -> str:
    return f"numpy.{array.dtype.type.__name__}"


def from_numpy(array) -> Tensor:
    """torch.from_numpy: a tensor over the array's own memory, of its dtype (float64 stays float64)."""
    if not isinstance(array, np.ndarray):
        raise TorchTypeError(f"expected np.ndarray (got {type(array).__name__})")
    if any(stride < 0 for stride in array.strides):
        raise TorchValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative strides are not "
            "currently supported. (You can probably work around this by making a copy of your array  with "
            "array.copy().) ")
    try:
        dtypes.of_array(array)
    except KeyError:
        if array.dtype.kind in "biufc":
            raise NumpyRefused(f"torch.from_numpy of a {array.dtype} array (gradcli has no {array.dtype} tensors; "
                               "convert it first: array.astype(np.float32) or np.int64)") from None
        raise TorchTypeError(f"can't convert np.ndarray of type {_numpy_type_name(array)}. The only supported "
                             f"types are: {TORCH_NUMPY_TYPES}.") from None
    return Tensor._make(array, None)


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """torch.tensor, where numpy values keep their dtype as torch keeps it: torch.tensor(np.float64(1)) and
    torch.tensor([np.float64(1)]) are float64, torch.tensor(np.int32(3)) is int32."""
    if dtype is None:
        if isinstance(data, np.generic):
            data = np.asarray(data)
        elif isinstance(data, (list, tuple)):
            dtype = _numpy_dtype_within(data)
    return creation.tensor(data, dtype=dtype, requires_grad=requires_grad, device=device)


def _numpy_dtype_within(data) -> dtypes.DType | None:
    """The dtype torch infers for a nested list holding numpy scalars or arrays (None if it holds none): the
    promotion of their dtypes with those of the Python numbers beside them."""
    check_elements(leaves(data))
    found = [False]

    def walk(value, result):
        if isinstance(value, (list, tuple)):
            for item in value:
                result = walk(item, result)
            return result
        if isinstance(value, (np.generic, np.ndarray)):
            found[0] = True
            kind = value.dtype
        elif isinstance(value, Tensor):
            kind = value.array.dtype
        elif isinstance(value, bool):
            kind = np.dtype(np.bool_)
        elif isinstance(value, int):
            kind = np.dtype(np.int64)
        elif isinstance(value, float):
            kind = dtypes.get_default_dtype().np
        else:
            return result
        return kind if result is None else dtypes.promote_types(result, kind)

    result = walk(data, None)
    if not found[0] or result is None:
        return None
    try:
        return dtypes.of_numpy(result)
    except KeyError:
        return None


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """torch.as_tensor: shares memory with a tensor or array of the same dtype, copies otherwise."""
    check_device(device, factory=True)
    if isinstance(data, Tensor):
        return data if dtype is None or dtype == data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray):
        shared = from_numpy(data)
        return shared if dtype is None or dtype == shared.dtype else shared.to(dtype)
    return creation.tensor(data, dtype=dtype)


class inference_mode(GradModeContext):  # noqa: N801 - PyTorch's name
    """torch.inference_mode(mode=True): no_grad, and the tensors made inside are inference tensors (their version
    counter cannot be read, nor can they be modified in place outside inference mode); mode=False turns both off."""

    def __init__(self, mode: bool = True):
        self.mode = not mode
        self.inference = bool(mode)

    def __enter__(self):
        INFERENCE_USED[0] = INFERENCE_USED[0] or self.inference
        self._token = INFERENCE.set(self.inference)
        return super().__enter__()

    def __exit__(self, *exc):
        INFERENCE.reset(self._token)
        return super().__exit__(*exc)


def is_inference_mode_enabled() -> bool:
    return INFERENCE.get()


class GradModeFunction:
    """A function under @torch.no_grad() / @torch.enable_grad() / @torch.inference_mode() (or the class itself):
    each call runs in that grad mode, as torch's decorators do."""

    __slots__ = ("function", "manager", "name")
    python_type_name = "function"

    def __init__(self, function, manager, name: str):
        self.function, self.manager, self.name = function, manager, name

    def __call__(self, *args, **kwargs):
        previous = GradMode.enabled
        GradMode.enabled = self.manager.mode
        token = None
        if isinstance(self.manager, inference_mode):
            INFERENCE_USED[0] = INFERENCE_USED[0] or self.manager.inference
            token = INFERENCE.set(self.manager.inference)
        try:
            result = self.function(*args, **kwargs)
        finally:
            GradMode.enabled = previous
            if token is not None:
                INFERENCE.reset(token)
        if type(result).__name__ == "ProgramGenerator":  # torch wraps a generator: each step runs in the mode
            result.grad_mode = self.manager.mode
        return result

    def __repr__(self) -> str:
        return f"<function {self.name} at {id(self):#x}>"


class OnceDifferentiable:
    """A custom Function's backward under @torch.autograd.function.once_differentiable: it runs without grad, as
    torch's wrapper runs it.  Torch then lets the backward's results be differentiated only to raise at that
    point ("trying to differentiate twice a function that was marked with @once_differentiable"); gradcli refuses
    the backward of a graph built for that (create_graph=True) instead."""

    __slots__ = ("function", "name")
    python_type_name = "function"

    def __init__(self, function):
        self.function, self.name = function, getattr(function, "name", "backward")

    def __call__(self, ctx, *args):
        previous = GradMode.enabled
        if previous and any(isinstance(a, Tensor) and a.requires_grad for a in args):
            raise NumpyRefused("differentiating a backward marked @once_differentiable (create_graph=True): torch "
                               "raises when that graph is differentiated; call backward without create_graph=True")
        GradMode.enabled = False
        try:
            return self.function(ctx, *args)
        finally:
            GradMode.enabled = previous

    def __repr__(self) -> str:
        return f"<function {self.name} at {id(self):#x}>"


def grad_mode_decorator(decorator, function, name: str):
    """What `@decorator` over `function` gives when the decorator is torch's grad mode, else None."""
    if isinstance(decorator, type) and issubclass(decorator, GradModeContext) and decorator is not set_grad_enabled:
        decorator = decorator()  # @torch.no_grad without parentheses (torch >= 2.0 accepts it)
    if isinstance(decorator, set_grad_enabled):
        GradMode.enabled = decorator._prev  # torch's __call__ undoes what the constructor applied
        return GradModeFunction(function, decorator, name)
    if isinstance(decorator, GradModeContext):
        return GradModeFunction(function, decorator, name)
    return None


class CompileDecorator:
    """torch.compile(...) without a model: the decorator `@torch.compile(mode=...)` applies."""

    __slots__ = ()
    python_type_name = "function"

    def __call__(self, model):
        return model

    def __repr__(self) -> str:
        return f"<function compile.<locals>.fn at {id(self):#x}>"


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,  # noqa: A001
            disable=False):
    """torch.compile: gradcli runs the model as it is (the compiled model computes the same values)."""
    return CompileDecorator() if model is None else model


WRAPPABLE = ("UserFunction", "GradModeFunction")  # the program's functions, as the interpreter makes them


def wraps(wrapped, assigned=None, updated=None):
    """functools.wraps: the wrapper takes the wrapped function's name (what a program can see of it)."""
    def decorate(wrapper):
        name = getattr(wrapped, "name", None) if type(wrapped).__name__ in WRAPPABLE else None
        if isinstance(name, str) and type(wrapper).__name__ in WRAPPABLE:
            wrapper.name = name
        return wrapper
    return decorate


# Python's random module: these methods of one random.Random per run.
RANDOM_METHODS = """
seed random randint randrange choice choices shuffle sample uniform gauss normalvariate expovariate triangular
betavariate gammavariate lognormvariate vonmisesvariate paretovariate weibullvariate getrandbits
""".split()
RANDOM_REFUSED = {"SystemRandom": "it reads the operating system's entropy; use random.seed(n) and random.random()",
                  "Random": "use the module's own functions (random.seed, random.random ...)",
                  "getstate": "use random.seed(n) to repeat a sequence", "setstate": "use random.seed(n)"}


def random_members(generator: random.Random, limits) -> dict:
    """The random module of one run: `generator`'s methods, with the sizes they allocate bounded."""
    members = {name: getattr(generator, name) for name in RANDOM_METHODS}

    def choices(population, weights=None, *, cum_weights=None, k=1):
        if k > limits.max_sequence_length:
            raise _limit(f"random.choices of {k} items", "max_sequence_length", limits)
        return generator.choices(population, weights, cum_weights=cum_weights, k=k)

    def getrandbits(k):
        if k > limits.max_int_bits:
            raise _limit(f"an integer of {k} bits", "max_int_bits", limits)
        return generator.getrandbits(k)

    def sample(population, k, *, counts=None):
        if counts is not None:
            raise TypeError("gradcli run supports random.sample(population, k) without counts=")
        return generator.sample(population, k)

    members.update({"choices": choices, "getrandbits": getrandbits, "sample": sample})
    for name in ("choices", "getrandbits", "sample"):
        members[name].__name__ = members[name].__qualname__ = name
        members[name].lazy_aware = True  # random.sample(range(10**9), 3) takes the range as it is
    return members


def _limit(what: str, name: str, limits):
    return LimitReached(f"{what} is too large ({name}={getattr(limits, name)})")


def reduce(function, iterable, *initial):
    return functools.reduce(function, iterable, *initial)
