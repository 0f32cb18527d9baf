"""The world a program sees: the torch, torch.nn.functional and math modules, the builtins, and for each
kind of value the attributes a program may read or set.  Anything not listed here does not exist for it.

torch's functions come from the engine's op registry (`torch.X`, `x.X` and `F.X` as each op's spec says),
so an op added to the engine is available to programs at once.
"""

from __future__ import annotations

import builtins
import collections
import functools
import itertools
import math
import types
import typing
import weakref
from functools import cache

import numpy as np

from gradcli import engine
from gradcli.engine import (
    clip_grad,
    distributions,
    dtypes,
    lr_scheduler,
    nn_layers,
    nn_norms,
    nn_padding,
    nn_pooling,
    nn_shuffle,
    optim,
    random,
    tensor_str,
    windows,
)
from gradcli.engine import modules as nn_modules
from gradcli.engine.autograd import Function, MultiHandle, RemovableHandle
from gradcli.engine.errors import EngineError
from gradcli.engine.ops import LINALG, REGISTRY, activations, method_forms, namespace_functions, special
from gradcli.engine.ops.inplace import TORCH_INPLACE
from gradcli.engine.ops.inplace_forms import TORCH_INPLACE_FORMS
from gradcli.engine.ops.matrix_functions import EighResult, LinalgSlogdetResult, LstsqResult, QrResult, SlogdetResult
from gradcli.engine.ops.reduction import ReturnTypes
from gradcli.engine.ops.svd import LinalgSvdResult, SvdResult
from gradcli.engine.tensor import STRIDED, Device, Size, Tensor
from gradcli.run import (
    argument_parser,
    classes,
    copying,
    graph_view,
    interop,
    memory_files,
    numpy_api,
    saved_view,
    timing,
    torch_settings,
    torch_surface,
)
from gradcli.run.errors import LimitReached, Refused
from gradcli.run.limits import RunLimits


class Module:
    """A module as a program sees it: a dotted name and a table of members, fixed unless the module is the
    run's own copy (`writable`: `torch`, whose members a program may rebind, as d2l's `torch.pi = ...` does;
    only the program's own lookups see the new value, as under torch)."""

    __slots__ = ("name", "members", "writable")

    def __init__(self, name: str, members: dict, writable: bool = False):
        self.name = name
        self.members = members
        self.writable = writable

    def __repr__(self) -> str:
        return f"<module '{self.name}'>"


class TypeRef:
    """What ``type(x)`` gives a program: prints and compares like the class, but cannot be called."""

    __slots__ = ("cls",)

    def __init__(self, cls: type):
        self.cls = cls

    def __eq__(self, other) -> bool:
        return self.cls is (other.cls if isinstance(other, TypeRef) else other)

    def __hash__(self) -> int:
        return hash(self.cls)

    def __call__(self, *args, **kwargs):
        name = TORCH_CLASS_NAMES.get(self.cls, self.cls.__name__)
        if self.cls is np.ndarray:
            raise Refused("numpy.ndarray(...) (it allocates uninitialised memory: use np.zeros, np.ones or np.array)",
                          None)
        raise Refused(f"calling the class {name} reached through type() or .__class__ (call it by its name, "
                      f"as {name}(...))", None)

    def __repr__(self) -> str:
        return f"<class '{TORCH_CLASS_NAMES.get(self.cls, self.cls.__name__)}'>"


TORCH_CLASS_NAMES = {Tensor: "torch.Tensor", Size: "torch.Size", dtypes.DType: "torch.dtype",
                     nn_modules.Parameter: "torch.nn.parameter.Parameter",
                     nn_modules.UninitializedParameter: "torch.nn.parameter.UninitializedParameter",
                     classes.AutogradFunction: "torch.autograd.function.Function",
                     **{cls: f"torch.nn.modules.{module}.{name}" for name, cls in nn_modules.MODULE_CLASSES.items()
                        for module in [nn_modules.TORCH_MODULE_FILES.get(name, "module")]},
                     **{cls: f"torch.nn.modules.{nn_layers.LAYER_FILES[name]}.{name}"
                        for name, cls in nn_layers.LAYER_CLASSES.items()},
                     **{cls: f"torch.optim.{name.lower()}.{name}" for name, cls in optim.OPTIMIZERS.items()},
                     **{cls: f"torch.optim.lr_scheduler.{name}" for name, cls in lr_scheduler.SCHEDULERS.items()}}


def type_of(obj, *more):
    """The program's type(): the program's own class for its objects, a TypeRef for everything else."""
    if more:
        if len(more) == 2:
            raise Refused("type() with three arguments (a class made while the program runs): write a "
                                  "class statement", None)
        raise TypeError("type() takes 1 or 3 arguments")
    program_class = classes.class_of(obj)
    if program_class is not None:
        return program_class
    if isinstance(obj, EngineError) and isinstance(getattr(builtins, obj.torch_type, None), type):
        return TypeRef(getattr(builtins, obj.torch_type))  # torch's RuntimeError is Python's RuntimeError
    if isinstance(obj, types.MethodType) and type(obj.__self__).__module__.startswith("gradcli.run"):
        return TypeRef(types.BuiltinFunctionType)  # the interpreter's own builtins (print, getattr ...)
    return TypeRef(type(obj))


# Tensor members beyond the registry's methods (which come from `tensor_attributes`).
TENSOR_ATTRIBUTES = frozenset("""
dtype shape size requires_grad grad grad_fn is_leaf data item tolist numel nelement dim ndim detach detach_
requires_grad_ retain_grad retains_grad backward T mT H mH device is_floating_point element_size cpu numpy
register_hook is_inference cuda
itemsize nbytes layout is_cpu is_cuda is_meta is_sparse is_quantized is_mkldnn is_nested ndimension stride
storage_offset is_contiguous is_complex is_signed is_nonzero is_same_size get_device is_shared is_pinned
register_post_accumulate_grad_hook
""".split())
# The two private tensor attributes programs read (names starting with '_' are otherwise off limits): torch's
# version counter (an int) and a view's base (None for a tensor that is not a view).  Read only.
PRIVATE_TENSOR_ATTRIBUTES = frozenset({"_version", "_base"})

# The dunder attributes a program may read (run/metadata.py answers them): a value's class, a class's or
# function's names and docstring.
READABLE_DUNDER_ATTRIBUTES = frozenset({"__class__", "__name__", "__qualname__", "__module__", "__doc__"})

# The attributes torch's layers keep, readable by programs (model[0].weight, layer.in_features ...).
MODULE_SETTINGS = {
    "Linear": frozenset({"in_features", "out_features", "weight", "bias"}),
    "LazyLinear": frozenset({"in_features", "out_features", "weight", "bias"}),
    "Flatten": frozenset({"start_dim", "end_dim"}), "Unflatten": frozenset({"dim", "unflattened_size"}),
    "Dropout": frozenset({"p", "inplace"}), "Softmax": frozenset({"dim"}), "LogSoftmax": frozenset({"dim"}),
    "ReLU": frozenset({"inplace"}), "LeakyReLU": frozenset({"negative_slope", "inplace"}),
    "ELU": frozenset({"alpha", "inplace"}), "GELU": frozenset({"approximate"}),
    "Softplus": frozenset({"beta", "threshold"}),
    "Hardtanh": frozenset({"min_val", "max_val", "inplace"}), "ReLU6": frozenset({"inplace"}),
    "Threshold": frozenset({"threshold", "value", "inplace"}), "Hardsigmoid": frozenset({"inplace"}),
    "Hardswish": frozenset({"inplace"}), "Mish": frozenset({"inplace"}), "CELU": frozenset({"alpha", "inplace"}),
    "SELU": frozenset({"inplace"}), "GLU": frozenset({"dim"}), "Softmin": frozenset({"dim"}),
    "Hardshrink": frozenset({"lambd"}), "Softshrink": frozenset({"lambd"}),
    "PReLU": frozenset({"num_parameters", "init", "weight"}), "RReLU": frozenset({"lower", "upper", "inplace"}),
    "MSELoss": frozenset({"reduction"}), "L1Loss": frozenset({"reduction"}),
    "CrossEntropyLoss": frozenset({"reduction", "ignore_index", "label_smoothing", "weight"}),
    "NLLLoss": frozenset({"reduction", "ignore_index", "weight"}),
    "BCELoss": frozenset({"reduction", "weight"}),
    "BCEWithLogitsLoss": frozenset({"reduction", "weight", "pos_weight"}),
    "MultiLabelSoftMarginLoss": frozenset({"reduction", "weight"}),
    "KLDivLoss": frozenset({"reduction", "log_target"}), "SoftMarginLoss": frozenset({"reduction"}),
    "HingeEmbeddingLoss": frozenset({"reduction", "margin"}),
    "PoissonNLLLoss": frozenset({"reduction", "log_input", "full", "eps"}),
    "GaussianNLLLoss": frozenset({"reduction", "full", "eps"}),
    "CosineEmbeddingLoss": frozenset({"reduction", "margin"}), "MarginRankingLoss": frozenset({"reduction", "margin"}),
    "TripletMarginLoss": frozenset({"reduction", "margin", "p", "eps", "swap"}),
    "MultiMarginLoss": frozenset({"reduction", "p", "margin", "weight"}),
    **nn_layers.LAYER_SETTINGS,
}

# Tensor attributes a program may assign (torch's property setters, with their checks).
TENSOR_SETTABLE = frozenset({"grad", "data", "requires_grad"})

# Members of the other kinds of values a program meets, by class (subclasses included).
VALUE_ATTRIBUTES: dict[type, frozenset] = {
    list: frozenset("append extend insert pop remove index count reverse sort copy clear".split()),
    tuple: frozenset({"count", "index"}),
    dict: frozenset("keys values items get pop setdefault copy clear".split()),
    collections.OrderedDict: frozenset("keys values items get pop setdefault copy clear move_to_end popitem".split()),
    str: frozenset("format join split strip lstrip rstrip upper lower startswith endswith replace find rfind index "
                   "rindex count capitalize title swapcase casefold isdigit isalpha isalnum isspace islower isupper "
                   "isnumeric isdecimal splitlines partition rpartition rsplit removeprefix removesuffix center ljust "
                   "rjust zfill".split()),
    Size: frozenset({"count", "index", "numel"}),
    ReturnTypes: frozenset({"values", "indices", "count", "index"}),
    torch_surface.forward_ad.UnpackedDualTensor: frozenset({"primal", "tangent", "count", "index"}),
    LinalgSlogdetResult: frozenset({"sign", "logabsdet", "count", "index"}),
    SlogdetResult: frozenset({"sign", "logabsdet", "count", "index"}),
    EighResult: frozenset({"eigenvalues", "eigenvectors", "count", "index"}),
    QrResult: frozenset({"Q", "R", "count", "index"}),
    method_forms.QrResult: frozenset({"Q", "R", "count", "index"}),
    method_forms.FrexpResult: frozenset({"mantissa", "exponent", "count", "index"}),
    SvdResult: frozenset({"U", "S", "V", "count", "index"}),
    LinalgSvdResult: frozenset({"U", "S", "Vh", "count", "index"}),
    LstsqResult: frozenset({"solution", "residuals", "rank", "singular_values", "count", "index"}),
    dtypes.DType: frozenset({"is_floating_point", "itemsize"}),
    optim.Optimizer: frozenset({"zero_grad", "step", "param_groups"}),
    lr_scheduler.LRScheduler: frozenset("step get_last_lr get_lr last_epoch base_lrs optimizer state_dict "
                                        "load_state_dict".split()),
    lr_scheduler.ReduceLROnPlateau: frozenset("step get_last_lr last_epoch optimizer best num_bad_epochs "
                                              "cooldown_counter in_cooldown patience factor mode threshold "
                                              "min_lrs".split()),
    Function: frozenset({"name", "next_functions", "register_hook"}),
    RemovableHandle: frozenset({"remove", "id"}),
    MultiHandle: frozenset({"remove"}),
    nn_modules.ModuleHookHandle: frozenset({"remove", "id"}),
    graph_view.AccumulateGrad: frozenset({"name", "next_functions", "variable"}),
    saved_view.SavedTensor: frozenset({"register_hooks"}),
    memory_files.UUID: frozenset({"hex"}),
    memory_files.TemporaryDirectory: frozenset({"name", "cleanup"}),
    torch_surface.profile: frozenset({"key_averages", "table"}),
    torch_surface.KeyAverages: frozenset({"table"}),
    **{cls: frozenset(f"{members} {distributions.COMMON_MEMBERS}".split())
       for cls, members in distributions.DISTRIBUTION_MEMBERS.items()},
    distributions.Constraint: frozenset({"check"}),
    Device: frozenset({"type", "index"}),
    random.Generator: frozenset({"manual_seed", "initial_seed", "seed", "device", "get_state", "set_state"}),
    OSError: frozenset({"args", "errno", "strerror", "filename"}),  # the run's files: FileNotFoundError ...
    BaseException: frozenset({"args"}),  # an exception a program caught: `e.args`, str(e), repr(e)
    classes.Property: frozenset({"setter", "getter"}),
    timing.Timer: frozenset({"timeit", "repeat"}),
}

MATH_NAMES = """
pi e tau inf nan sqrt exp log log2 log10 log1p expm1 sin cos tan asin acos atan atan2 sinh cosh tanh floor ceil
trunc fabs copysign hypot degrees radians isclose isnan isinf isfinite pow fmod erf erfc gamma lgamma fsum gcd
asinh acosh atanh remainder ldexp frexp modf dist cbrt exp2
""".split()
# typing's names for annotations (never evaluated: `x: List[int] = []` binds the list) and type aliases.
TYPING_NAMES = """
Any Callable Dict List Optional Tuple Union Iterable Iterator Sequence Mapping Type
""".split()
# The classes collections.namedtuple made for programs: their instances' fields are readable by name.
NAMEDTUPLES: weakref.WeakSet = weakref.WeakSet()


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    """collections.namedtuple, made in __main__ (CPython's own template: the names are checked identifiers)."""
    names = field_names.replace(",", " ").split() if isinstance(field_names, str) else list(field_names)
    if len(names) > 1000:
        raise Refused(f"a namedtuple of {len(names)} fields (use a dict or a list)", None)
    cls = collections.namedtuple(typename, names, rename=rename, defaults=defaults, module="__main__")
    NAMEDTUPLES.add(cls)
    return cls


# itertools: lazy iterators; what they drain comes metered (an iterator argument counts against max_iterations), a
# program's function they call runs in the interpreter.
ITERTOOLS_NAMES = """
chain islice count cycle repeat zip_longest permutations combinations combinations_with_replacement
groupby pairwise starmap takewhile dropwhile compress filterfalse
""".split()


def _itertools_product(*iterables, repeat=1):
    """itertools.product, its pools (each iterable times `repeat`, copied in C before the first item) bounded."""
    if isinstance(repeat, int) and repeat * max(len(iterables), 1) > _POOLS:
        raise LimitReached(f"itertools.product of {repeat * len(iterables)} pools is too large "
                           f"(max_sequence_length={_POOLS})")
    return itertools.product(*iterables, repeat=repeat)


_POOLS = RunLimits().max_sequence_length


def _itertools_accumulate(iterable, func=None, *, initial=None):
    """itertools.accumulate; running sums of strings, lists or tuples (quadratic inside C) are refused."""
    for value in itertools.accumulate(iterable, func, initial=initial):
        if func is None and isinstance(value, (str, list, tuple)):
            raise Refused("itertools.accumulate of strings, lists or tuples (quadratic inside C, where no limit "
                          "reaches: use a loop with list.extend)", None)
        yield value
# math's functions whose integer results grow without bound: sized before they run, as `**` is.
_INT_BITS = RunLimits().max_int_bits


def _check_bits(bits: float) -> None:
    if bits > _INT_BITS:
        raise LimitReached(f"an integer of about {int(bits)} bits is too large (max_int_bits={_INT_BITS})")


def _math_factorial(n):
    if isinstance(n, int) and n > 1:
        _check_bits(math.lgamma(n + 1) / math.log(2))
    return math.factorial(n)


def _math_comb(n, k):
    if isinstance(n, int) and isinstance(k, int) and 0 <= k <= n:
        _check_bits((math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2))
    return math.comb(n, k)


def _math_perm(n, k=None):
    if isinstance(n, int) and n >= 0 and (k is None or isinstance(k, int) and 0 <= k <= n):
        _check_bits((math.lgamma(n + 1) - math.lgamma(n - (n if k is None else k) + 1)) / math.log(2))
    return math.perm(n, k)


def _math_prod(iterable, *, start=1):
    result = start
    for value in iterable:
        if isinstance(result, int) and isinstance(value, int):
            _check_bits(result.bit_length() + value.bit_length())
        result = result * value
    return result


MATH_SIZED = {"factorial": _math_factorial, "comb": _math_comb, "perm": _math_perm, "prod": _math_prod}

PYTHON_BUILTINS = """
len range enumerate zip min max sum abs round float int bool str list tuple dict isinstance sorted reversed
next iter map filter any all id divmod callable
""".split()
# The exceptions a program may raise and catch (torch's errors are RuntimeError, IndexError ... subclasses).
EXCEPTIONS = """
Exception RuntimeError ValueError TypeError IndexError KeyError ZeroDivisionError AttributeError AssertionError
StopIteration NotImplementedError ArithmeticError LookupError NameError OverflowError UnboundLocalError SyntaxError
OSError FileNotFoundError FileExistsError
""".split()
# the interpreter's own: print type super repr issubclass getattr hasattr setattr pow
INTERPRETER_BUILTINS = frozenset({"print", "type", "super", "repr", "issubclass", "getattr", "hasattr", "setattr",
                                  "delattr", "pow", "eval"})
BUILTIN_NAMES = frozenset(PYTHON_BUILTINS) | frozenset(EXCEPTIONS) | INTERPRETER_BUILTINS

# Callables that take a range or an iterator without draining it.  Any other callable (list, sum, sorted,
# torch.Size, an optimizer ...) would drain it inside C code, where no limit reaches, so the interpreter
# hands it such an argument item by item, each counting against max_iterations.
# (and reprs.program_str)
LAZY_AWARE = (len, reversed, enumerate, zip, isinstance, classes.is_instance, str, bool, type_of, next, iter, map,
              filter, id, callable)


# torch/functional.py's __all__ (PyTorch 2.13)
TORCH_FUNCTIONAL = """
atleast_1d atleast_2d atleast_3d align_tensors broadcast_shapes broadcast_tensors cartesian_prod block_diag cdist
chain_matmul einsum istft lu norm meshgrid pca_lowrank split stft svd_lowrank tensordot unique unique_consecutive
unravel_index
""".split()


def absent_in_torch(module: str, name: str) -> bool:
    """Whether `module.name` does not exist under torch either: reaching it is torch's AttributeError when the line
    runs, not a refusal (modelsyt's `import torch.functional as F` and then `F.relu` in a method never called)."""
    return module == "torch.functional" and name not in TORCH_FUNCTIONAL


def python_builtins() -> dict:
    return {name: getattr(builtins, name) for name in PYTHON_BUILTINS + EXCEPTIONS}


# Members of modules that are per run (the random module's generator, numpy's global RandomState): the static
# check sees these names, each run binds them to its own generator (Interpreter.modules).
PER_RUN = object()


def missing_member(module: str, name: str) -> str:
    """The refusal for `module.name` that does not exist for a program, with what to use instead if known."""
    hint = None
    if module == "random":
        hint = interop.RANDOM_REFUSED.get(name, "the random module offers seed, random, randint, choice, shuffle, "
                                                 "uniform, gauss ...")
    elif module.startswith("numpy"):
        hint = numpy_api.REFUSED_HINTS.get(name, "use the numpy functions docs/run.md lists, or torch's")
    elif module == "math":
        hint = "use torch's function of the same name on a tensor, or the math functions docs/run.md lists"
    elif module == "functools":
        hint = "functools offers partial, reduce and wraps; write the function out"
    elif module == "collections":
        hint = "collections offers OrderedDict, defaultdict, Counter and namedtuple; use a list or dict"
    elif module == "typing":
        hint = "use the names typing offers (List, Dict, Tuple, Optional, Union, Any, Callable ...), or drop it"
    elif module in ("os", "os.path", "tempfile", "uuid"):
        hint = ("the run's files live in memory: os offers remove, unlink, makedirs and path's join, exists, "
                "basename, dirname ...; tempfile TemporaryDirectory and mkdtemp; uuid uuid4")
    elif module == "itertools":
        hint = "write the loop out: the other itertools functions are there"
    return f"{module}.{name}" + (f" ({hint})" if hint else "")


@cache
def modules() -> dict[str, Module]:
    """The importable modules by dotted name (built once: the registry is complete after engine import)."""
    functional = Module("torch.nn.functional", {n: s.fn for n, s in REGISTRY.items() if s.functional})
    functional.members.update(nn_layers.DROPOUT_FUNCTIONS)
    functional.members.update(activations.FUNCTIONAL)
    functional.members.update(nn_shuffle.SHUFFLE_FUNCTIONS)
    functional.members.update(nn_pooling.POOLING_FUNCTIONS)
    functional.members.update(nn_norms.NORM_FUNCTIONS)
    functional.members.update(nn_padding.DISTANCE_FUNCTIONS)
    functional.members["gumbel_softmax"] = distributions.gumbel_softmax
    init = Module("torch.nn.init", dict(nn_modules.INIT_FUNCTIONS))
    nn_utils = Module("torch.nn.utils", dict(clip_grad.UTILS))
    nn = Module("torch.nn", {"functional": functional, "init": init, "utils": nn_utils,
                             "Parameter": nn_modules.Parameter,
                             **nn_modules.MODULE_CLASSES, **nn_layers.LAYER_CLASSES})
    autograd_functional = Module("torch.autograd.functional", dict(torch_surface.FUNCTIONAL))
    profiler = Module("torch.autograd.profiler", {"profile": torch_surface.profile})
    graph = Module("torch.autograd.graph", dict(torch_surface.GRAPH))
    autograd_function = Module("torch.autograd.function", {"Function": classes.AutogradFunction,
                                                           "once_differentiable": interop.OnceDifferentiable})
    forward_ad = Module("torch.autograd.forward_ad", dict(torch_surface.FORWARD_AD))
    autograd = Module("torch.autograd", {"grad": torch_surface.autograd_grad, "backward": engine.backward,
                                         "function": autograd_function, "forward_ad": forward_ad,
                                         "Function": classes.AutogradFunction, "Variable": torch_surface.Variable,
                                         "functional": autograd_functional, "profiler": profiler, "graph": graph,
                                         "gradcheck": torch_surface.gradcheck,
                                         "gradgradcheck": torch_surface.gradgradcheck,
                                         "detect_anomaly": torch_surface.detect_anomaly,
                                         "set_detect_anomaly": torch_surface.detect_anomaly})
    scheduler = Module("torch.optim.lr_scheduler", dict(lr_scheduler.SCHEDULERS))
    torch_optim = Module("torch.optim", {**optim.OPTIMIZERS, "lr_scheduler": scheduler})
    torch_distributions = Module("torch.distributions", dict(distributions.DISTRIBUTIONS))
    torch_func = Module("torch.func", dict(torch_surface.FUNC))
    linalg = Module("torch.linalg", {n: s.fn for n, s in LINALG.items()})
    torch_special = Module("torch.special", {**{n: REGISTRY[op].fn for n, op in special.SPECIAL_ALIASES.items()},
                                             **special.SPECIAL})
    members = {n: torch_surface.with_out(s.fn, n) for n, s in REGISTRY.items() if s.torch}
    members.update({n: REGISTRY[n].fn for n in TORCH_INPLACE | TORCH_INPLACE_FORMS})  # torch.sin_(b), torch.zero_(x)
    members.update({name: getattr(engine, name) for name in (
        "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "manual_seed", "initial_seed",
        "seed", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "get_default_dtype",
        "set_default_dtype", "tensor")})
    members.update({name: torch_surface.with_out(getattr(engine, name), name) for name in (
        "zeros", "ones", "full", "eye", "arange", "linspace", "rand", "randn", "empty")})
    members["set_printoptions"] = tensor_str.set_printoptions
    members["normal"] = torch_surface.with_out(distributions.normal, "normal")
    members["poisson"] = distributions.poisson
    members["distributions"] = torch_distributions
    members.update({"func": torch_func, "vmap": torch_surface.vmap, "allclose": torch_surface.allclose,
                    "unique": torch_surface.unique,
                    "isclose": torch_surface.isclose})
    members.update(torch_surface.LEGACY_CONSTRUCTORS)
    members.update(torch_settings.FUNCTIONS)  # numel, is_signed, promote_types, get_num_threads ...
    members.update({"get_rng_state": random.get_rng_state, "set_rng_state": random.set_rng_state})
    members.update(namespace_functions.FUNCTIONS)  # scalar_tensor, range, get_device
    members.update(windows.WINDOWS)
    members.update({name: dtypes.by_name(name) for name in (
        "float32", "float", "float64", "double", "float16", "half", "int64", "long", "int32", "int", "int16",
        "short", "int8", "uint8", "bool")})
    no_accelerator = {"is_available": lambda: False, "device_count": lambda: 0,
                      "current_accelerator": lambda check_available=False: None}
    members.update({"set_default_device": torch_surface.set_default_device,
                    "get_default_device": torch_surface.get_default_device})
    members.update(dict.fromkeys(("save", "load"), PER_RUN))  # files of the run, kept in memory (run_modules)
    members.update({"Generator": torch_surface.Generator, "device": Device,
                    "cuda": Module("torch.cuda", no_accelerator),
                    "accelerator": Module("torch.accelerator", no_accelerator)})
    members.update({"Tensor": Tensor, "Size": Size, "is_tensor": lambda obj: isinstance(obj, Tensor),
                    "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "strided": STRIDED,
                    "nn": nn, "autograd": autograd, "optim": torch_optim, "linalg": linalg,
                    "special": torch_special})
    members.update({"tensor": interop.tensor, "from_numpy": interop.from_numpy, "as_tensor": interop.as_tensor,
                    "inference_mode": interop.inference_mode, "compile": interop.compile,
                    "is_inference_mode_enabled": interop.is_inference_mode_enabled})
    # torch.functional: the functions torch defines there and re-exports as torch.X (tutorials import it as F)
    torch_functional = Module("torch.functional", {n: members[n] for n in TORCH_FUNCTIONAL if n in members})
    members["functional"] = torch_functional
    for name, member in members.items():  # torch's argument parser before the rest of torch's builtins
        if not getattr(member, "arguments_checked", False):
            members[name] = argument_parser.checked(member, name)
    torch = Module("torch", members)
    math_module = Module("math", {**{name: getattr(math, name) for name in MATH_NAMES}, **MATH_SIZED})
    random_module = Module("random", dict.fromkeys(interop.RANDOM_METHODS, PER_RUN))
    typing_module = Module("typing", {name: getattr(typing, name) for name in TYPING_NAMES})
    dataclasses_module = Module("dataclasses", {"dataclass": classes.DATACLASS})
    itertools_module = Module("itertools", {**{name: getattr(itertools, name) for name in ITERTOOLS_NAMES},
                                            "product": _itertools_product, "accumulate": _itertools_accumulate})
    collections_module = Module("collections", {"OrderedDict": collections.OrderedDict,
                                                "defaultdict": collections.defaultdict,
                                                "Counter": collections.Counter, "namedtuple": namedtuple})
    functools_module = Module("functools", {"wraps": interop.wraps, "reduce": interop.reduce,
                                            "partial": functools.partial})
    np_random = Module("numpy.random", dict.fromkeys([*numpy_api.LEGACY_RANDOM, "seed", "default_rng",
                                                      "RandomState", "ranf", "sample"], PER_RUN))
    np_linalg = Module("numpy.linalg", numpy_api.wrap(numpy_api.LINALG, np.linalg, "linalg."))
    numpy = Module("numpy", {**numpy_api.static_members(), "random": np_random, "linalg": np_linalg,
                             "ndarray": TypeRef(np.ndarray)})  # for isinstance; never called (it allocates raw)
    functorch = Module("functorch", {**{name: torch_surface.FUNC[name] for name in (
        "grad", "jacrev", "jacfwd", "hessian", "vmap", "vjp", "jvp")},
        "make_functional": torch_surface.make_functional,
        "make_functional_with_buffers": torch_surface.make_functional_with_buffers})
    # the run's file namespace (run/memory_files.py): the names here, each run binds them to its own files
    os_path = Module("os.path", dict.fromkeys(memory_files.OS_PATH_NAMES, PER_RUN))
    os_module = Module("os", {**dict.fromkeys(memory_files.OS_NAMES, PER_RUN), "path": os_path})
    tempfile_module = Module("tempfile", dict.fromkeys(memory_files.TEMPFILE_NAMES, PER_RUN))
    uuid_module = Module("uuid", dict.fromkeys(memory_files.UUID_NAMES, PER_RUN))
    copy_module = Module("copy", dict(copying.MEMBERS))
    timeit_module = Module("timeit", dict.fromkeys(("default_timer", "timeit", "repeat", "Timer"), PER_RUN))
    return {m.name: m for m in (os_module, os_path, tempfile_module, uuid_module, copy_module, timeit_module,
                                torch, torch_functional, nn, functional, init, nn_utils, autograd, autograd_functional,
                                profiler, graph, autograd_function, forward_ad, functorch,
                                torch_optim, scheduler,
                                torch_distributions, torch_func, linalg, torch_special, math_module, random_module,
                                functools_module, typing_module, collections_module, itertools_module,
                                dataclasses_module, numpy, np_random, np_linalg)}


def run_modules(py_random, np_state, limits, tick=None) -> dict[str, Module]:
    """The modules of one run: the shared ones, with random and numpy.random bound to the run's generators."""
    shared = modules()
    random_module = Module("random", interop.random_members(py_random, limits))
    np_random = Module("numpy.random", numpy_api.legacy_random_members(np_state))
    numpy = Module("numpy", {**shared["numpy"].members, "random": np_random})
    files = memory_files.MemoryFiles()  # the run's files, in memory
    save, load = torch_surface.memory_files(files)
    torch = Module("torch", {**shared["torch"].members, "save": save, "load": load}, writable=True)
    os_path = Module("os.path", files.os_path_members())
    os_module = Module("os", {**files.os_members(), "path": os_path})
    return {**shared, "random": random_module, "numpy": numpy, "numpy.random": np_random, "torch": torch,
            "os": os_module, "os.path": os_path, "tempfile": Module("tempfile", files.tempfile_members()),
            "uuid": Module("uuid", files.uuid_members()), "timeit": Module("timeit", timing.members(tick))}


@cache
def tensor_attributes() -> frozenset:
    return TENSOR_ATTRIBUTES | PRIVATE_TENSOR_ATTRIBUTES | {n for n, s in REGISTRY.items() if s.method}


@cache
def known_attributes() -> frozenset:
    """Every attribute name some value has: the static check refuses any other before the program runs
    (the names a program gives its own attributes and methods are added by the check)."""
    names = set(tensor_attributes()) | classes.MODULE_METHODS | classes.CONTAINER_METHODS | classes.LAYER_METHODS
    names |= classes.DICT_CONTAINER_METHODS
    names |= classes.OPTIMIZER_ATTRIBUTES | classes.FunctionCtx.METHODS | {"apply"}
    for cls in (*nn_modules.MODULE_CLASSES.values(), *nn_layers.LAYER_CLASSES.values()):  # in_features, p ...
        names |= MODULE_SETTINGS.get(cls.__name__, frozenset())
    for table in VALUE_ATTRIBUTES.values():
        names |= table
    for module in modules().values():
        names |= module.members.keys()
    names |= numpy_api.attribute_names()
    return frozenset(names | READABLE_DUNDER_ATTRIBUTES)


def readable_attributes(obj) -> frozenset:
    if isinstance(obj, Tensor):
        return tensor_attributes()
    for cls in type(obj).__mro__:
        table = VALUE_ATTRIBUTES.get(cls)
        if table is not None:
            return table
    return frozenset()

