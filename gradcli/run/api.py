"""The world a program sees: the torch, torch.nn.functional and math modules, the builtins, and for each
kind of value the attributes a program may read or set.  Anything not listed here does not exist for it.

torch's functions come from the engine's op registry (`torch.X`, `x.X` and `F.X` as each op's spec says),
so an op added to the engine is available to programs at once.
"""

from __future__ import annotations

import builtins
import functools
import math
from functools import cache

import numpy as np

from gradcli import engine
from gradcli.engine import distributions, dtypes, nn_layers, optim, random
from gradcli.engine import modules as nn_modules
from gradcli.engine.autograd import Function, RemovableHandle
from gradcli.engine.errors import EngineError
from gradcli.engine.ops import LINALG, REGISTRY
from gradcli.engine.ops.inplace import TORCH_INPLACE
from gradcli.engine.ops.matrix_functions import EighResult, LinalgSlogdetResult, LstsqResult, QrResult, SlogdetResult
from gradcli.engine.ops.reduction import ReturnTypes
from gradcli.engine.ops.svd import LinalgSvdResult, SvdResult
from gradcli.engine.tensor import Device, Size, Tensor
from gradcli.run import classes, graph_view, interop, numpy_api, torch_surface


class Module:
    """A module as a program sees it: a dotted name and a fixed table of members."""

    __slots__ = ("name", "members")

    def __init__(self, name: str, members: dict):
        self.name = name
        self.members = members

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

    def __repr__(self) -> str:
        return f"<class '{TORCH_CLASS_NAMES.get(self.cls, self.cls.__name__)}'>"


TORCH_CLASS_NAMES = {Tensor: "torch.Tensor", Size: "torch.Size", dtypes.DType: "torch.dtype",
                     nn_modules.Parameter: "torch.nn.parameter.Parameter",
                     classes.AutogradFunction: "torch.autograd.function.Function",
                     **{cls: f"torch.nn.modules.{module}.{name}" for name, cls in nn_modules.MODULE_CLASSES.items()
                        for module in [nn_modules.TORCH_MODULE_FILES.get(name, "module")]},
                     **{cls: f"torch.nn.modules.{nn_layers.LAYER_FILES[name]}.{name}"
                        for name, cls in nn_layers.LAYER_CLASSES.items()},
                     **{cls: f"torch.optim.{name.lower()}.{name}" for name, cls in optim.OPTIMIZERS.items()}}


def type_of(obj):
    """The program's type(): the program's own class for its objects, a TypeRef for everything else."""
    program_class = classes.class_of(obj)
    if program_class is not None:
        return program_class
    if isinstance(obj, EngineError) and isinstance(getattr(builtins, obj.torch_type, None), type):
        return TypeRef(getattr(builtins, obj.torch_type))  # torch's RuntimeError is Python's RuntimeError
    return TypeRef(type(obj))


# Tensor members beyond the registry's methods (which come from `tensor_attributes`).
TENSOR_ATTRIBUTES = frozenset("""
dtype shape size requires_grad grad grad_fn is_leaf data item tolist numel nelement dim ndim detach detach_
requires_grad_ retain_grad retains_grad backward T mT H mH device is_floating_point element_size cpu numpy
register_hook is_inference
""".split())
# The two private tensor attributes programs read (names starting with '_' are otherwise off limits): torch's
# version counter (an int) and a view's base (None for a tensor that is not a view).  Read only.
PRIVATE_TENSOR_ATTRIBUTES = frozenset({"_version", "_base"})

# The attributes torch's layers keep, readable by programs (model[0].weight, layer.in_features ...).
MODULE_SETTINGS = {
    "Linear": frozenset({"in_features", "out_features", "weight", "bias"}),
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
    "PReLU": frozenset({"num_parameters", "init", "weight"}),
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
    str: frozenset("format join split strip lstrip rstrip upper lower startswith endswith".split()),
    Size: frozenset({"count", "index", "numel"}),
    ReturnTypes: frozenset({"values", "indices", "count", "index"}),
    LinalgSlogdetResult: frozenset({"sign", "logabsdet", "count", "index"}),
    SlogdetResult: frozenset({"sign", "logabsdet", "count", "index"}),
    EighResult: frozenset({"eigenvalues", "eigenvectors", "count", "index"}),
    QrResult: frozenset({"Q", "R", "count", "index"}),
    SvdResult: frozenset({"U", "S", "V", "count", "index"}),
    LinalgSvdResult: frozenset({"U", "S", "Vh", "count", "index"}),
    LstsqResult: frozenset({"solution", "residuals", "rank", "singular_values", "count", "index"}),
    dtypes.DType: frozenset({"is_floating_point", "itemsize"}),
    optim.Optimizer: frozenset({"zero_grad", "step", "param_groups"}),
    Function: frozenset({"name", "next_functions"}),
    RemovableHandle: frozenset({"remove", "id"}),
    nn_modules.ModuleHookHandle: frozenset({"remove", "id"}),
    graph_view.AccumulateGrad: frozenset({"name", "next_functions", "variable"}),
    torch_surface.profile: frozenset({"key_averages", "table"}),
    torch_surface.KeyAverages: frozenset({"table"}),
    distributions.Normal: frozenset("loc scale batch_shape event_shape mean mode stddev variance sample rsample "
                                    "log_prob entropy".split()),
    Device: frozenset({"type", "index"}),
    random.Generator: frozenset({"manual_seed", "initial_seed", "seed", "device"}),
    BaseException: frozenset({"args"}),  # an exception a program caught: `e.args`, str(e), repr(e)
    classes.Property: frozenset({"setter", "getter"}),
}

MATH_NAMES = """
pi e tau inf nan sqrt exp log log2 log10 log1p expm1 sin cos tan asin acos atan atan2 sinh cosh tanh floor ceil
trunc fabs copysign hypot degrees radians isclose isnan isinf isfinite pow fmod erf
""".split()

PYTHON_BUILTINS = """
len range enumerate zip min max sum abs round float int bool str list tuple dict isinstance sorted reversed
next iter map filter any all id divmod callable
""".split()
# The exceptions a program may raise and catch (torch's errors are RuntimeError, IndexError ... subclasses).
EXCEPTIONS = """
Exception RuntimeError ValueError TypeError IndexError KeyError ZeroDivisionError AttributeError AssertionError
StopIteration NotImplementedError ArithmeticError LookupError NameError OverflowError UnboundLocalError
""".split()
# the interpreter's own: print type super repr issubclass getattr hasattr setattr
INTERPRETER_BUILTINS = frozenset({"print", "type", "super", "repr", "issubclass", "getattr", "hasattr", "setattr"})
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
        hint = interop.RANDOM_REFUSED.get(name)
    elif module.startswith("numpy"):
        hint = numpy_api.REFUSED_HINTS.get(name)
    return f"{module}.{name}" + (f" ({hint})" if hint else "")


@cache
def modules() -> dict[str, Module]:
    """The importable modules by dotted name (built once: the registry is complete after engine import)."""
    functional = Module("torch.nn.functional", {n: s.fn for n, s in REGISTRY.items() if s.functional})
    functional.members["dropout2d"] = nn_layers.dropout2d
    init = Module("torch.nn.init", dict(nn_modules.INIT_FUNCTIONS))
    nn = Module("torch.nn", {"functional": functional, "init": init, "Parameter": nn_modules.Parameter,
                             **nn_modules.MODULE_CLASSES, **nn_layers.LAYER_CLASSES})
    autograd_functional = Module("torch.autograd.functional", dict(torch_surface.FUNCTIONAL))
    profiler = Module("torch.autograd.profiler", {"profile": torch_surface.profile})
    graph = Module("torch.autograd.graph", dict(torch_surface.GRAPH))
    autograd = Module("torch.autograd", {"grad": torch_surface.autograd_grad, "backward": engine.backward,
                                         "Function": classes.AutogradFunction, "Variable": torch_surface.Variable,
                                         "functional": autograd_functional, "profiler": profiler, "graph": graph,
                                         "gradcheck": torch_surface.gradcheck,
                                         "gradgradcheck": torch_surface.gradgradcheck,
                                         "detect_anomaly": torch_surface.detect_anomaly,
                                         "set_detect_anomaly": torch_surface.detect_anomaly})
    torch_optim = Module("torch.optim", dict(optim.OPTIMIZERS))
    torch_distributions = Module("torch.distributions", dict(distributions.DISTRIBUTIONS))
    torch_func = Module("torch.func", dict(torch_surface.FUNC))
    linalg = Module("torch.linalg", {n: s.fn for n, s in LINALG.items()})
    members = {n: torch_surface.with_out(s.fn, n) for n, s in REGISTRY.items() if s.torch}
    members.update({n: REGISTRY[n].fn for n in TORCH_INPLACE})  # torch.sin_(b), torch.zero_(x)
    members.update({name: getattr(engine, name) for name in (
        "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "manual_seed", "initial_seed",
        "seed", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "get_default_dtype",
        "set_default_dtype", "tensor")})
    members.update({name: torch_surface.with_out(getattr(engine, name), name) for name in (
        "zeros", "ones", "full", "eye", "arange", "linspace", "rand", "randn", "empty")})
    members["normal"] = torch_surface.with_out(distributions.normal, "normal")
    members["distributions"] = torch_distributions
    members.update({"func": torch_func, "vmap": torch_surface.vmap, "allclose": torch_surface.allclose,
                    "unique": torch_surface.unique,
                    "isclose": torch_surface.isclose})
    members.update(torch_surface.LEGACY_CONSTRUCTORS)
    members.update({name: dtypes.by_name(name) for name in (
        "float32", "float", "float64", "double", "float16", "half", "int64", "long", "int32", "int", "int16",
        "short", "int8", "uint8", "bool")})
    no_accelerator = {"is_available": lambda: False, "device_count": lambda: 0,
                      "current_accelerator": lambda check_available=False: None}
    members.update({"set_default_device": set_default_device, "get_default_device": lambda: Device("cpu")})
    members.update(dict.fromkeys(("save", "load"), PER_RUN))  # files of the run, kept in memory (run_modules)
    members.update({"Generator": torch_surface.Generator, "device": Device,
                    "cuda": Module("torch.cuda", no_accelerator),
                    "accelerator": Module("torch.accelerator", no_accelerator)})
    members.update({"Tensor": Tensor, "Size": Size, "is_tensor": lambda obj: isinstance(obj, Tensor),
                    "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan,
                    "nn": nn, "autograd": autograd, "optim": torch_optim, "linalg": linalg})
    members.update({"tensor": interop.tensor, "from_numpy": interop.from_numpy, "as_tensor": interop.as_tensor,
                    "inference_mode": interop.inference_mode, "compile": interop.compile,
                    "is_inference_mode_enabled": interop.is_inference_mode_enabled})
    # torch.functional: the functions torch defines there and re-exports as torch.X (tutorials import it as F)
    torch_functional = Module("torch.functional", {n: members[n] for n in TORCH_FUNCTIONAL if n in members})
    members["functional"] = torch_functional
    torch = Module("torch", members)
    math_module = Module("math", {name: getattr(math, name) for name in MATH_NAMES})
    random_module = Module("random", dict.fromkeys(interop.RANDOM_METHODS, PER_RUN))
    functools_module = Module("functools", {"wraps": interop.wraps, "reduce": interop.reduce,
                                            "partial": functools.partial})
    np_random = Module("numpy.random", dict.fromkeys([*numpy_api.LEGACY_RANDOM, "seed", "default_rng",
                                                      "RandomState", "ranf", "sample"], PER_RUN))
    np_linalg = Module("numpy.linalg", numpy_api.wrap(numpy_api.LINALG, np.linalg, "linalg."))
    numpy = Module("numpy", {**numpy_api.static_members(), "random": np_random, "linalg": np_linalg,
                             "ndarray": TypeRef(np.ndarray)})  # for isinstance; never called (it allocates raw)
    return {m.name: m for m in (torch, torch_functional, nn, functional, init, autograd, autograd_functional,
                                profiler, graph,
                                torch_optim,
                                torch_distributions, torch_func, linalg, math_module, random_module,
                                functools_module, numpy, np_random, np_linalg)}


def run_modules(py_random, np_state, limits) -> dict[str, Module]:
    """The modules of one run: the shared ones, with random and numpy.random bound to the run's generators."""
    shared = modules()
    random_module = Module("random", interop.random_members(py_random, limits))
    np_random = Module("numpy.random", numpy_api.legacy_random_members(np_state))
    numpy = Module("numpy", {**shared["numpy"].members, "random": np_random})
    save, load = torch_surface.memory_files()
    torch = Module("torch", {**shared["torch"].members, "save": save, "load": load})
    return {**shared, "random": random_module, "numpy": numpy, "numpy.random": np_random, "torch": torch}


def set_default_device(device) -> None:
    """torch.set_default_device: gradcli computes on the CPU, the only device it accepts."""
    if device is not None and Device(device).type != "cpu":
        raise AssertionError("Torch not compiled with CUDA enabled" if Device(device).type == "cuda"
                             else f"gradcli computes on the CPU only; device '{device}' is not available")


@cache
def tensor_attributes() -> frozenset:
    return TENSOR_ATTRIBUTES | PRIVATE_TENSOR_ATTRIBUTES | {n for n, s in REGISTRY.items() if s.method}


@cache
def known_attributes() -> frozenset:
    """Every attribute name some value has: the static check refuses any other before the program runs
    (the names a program gives its own attributes and methods are added by the check)."""
    names = set(tensor_attributes()) | classes.MODULE_METHODS | classes.CONTAINER_METHODS | classes.LAYER_METHODS
    names |= classes.OPTIMIZER_ATTRIBUTES | classes.FunctionCtx.METHODS | {"apply"}
    for cls in (*nn_modules.MODULE_CLASSES.values(), *nn_layers.LAYER_CLASSES.values()):  # in_features, p ...
        names |= MODULE_SETTINGS.get(cls.__name__, frozenset())
    for table in VALUE_ATTRIBUTES.values():
        names |= table
    for module in modules().values():
        names |= module.members.keys()
    names |= numpy_api.attribute_names()
    return frozenset(names)


def readable_attributes(obj) -> frozenset:
    if isinstance(obj, Tensor):
        return tensor_attributes()
    for cls in type(obj).__mro__:
        table = VALUE_ATTRIBUTES.get(cls)
        if table is not None:
            return table
    return frozenset()

