"""torch's process-wide switches and the small predicates on tensors and dtypes a program calls as torch.X:
numel, is_floating_point, is_signed ..., promote_types / can_cast / result_type, broadcast_shapes, the thread
count, deterministic algorithms, anomaly mode and the float32 matmul precision.  Each switch lives in a context
variable (reset per run by run/__init__._engine_state), so one program's setting never reaches another run."""

from __future__ import annotations

import builtins
import contextvars

import numpy as np

from gradcli.engine import dtypes, kernels, state
from gradcli.engine.dtypes import DType
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError
from gradcli.engine.tensor import Size, Tensor
from gradcli.run.numpy_api import NumpyRefused
from gradcli.run.torch_surface import LEGACY_CONSTRUCTORS

DETERMINISTIC: contextvars.ContextVar[tuple] = contextvars.ContextVar("gradcli_deterministic", default=(False, False))
ANOMALY: contextvars.ContextVar[tuple] = contextvars.ContextVar("gradcli_anomaly", default=(False, True))
MATMUL_PRECISION: contextvars.ContextVar[str] = contextvars.ContextVar("gradcli_matmul_precision", default="highest")
DEFAULTS = ((DETERMINISTIC, (False, False)), (ANOMALY, (False, True)), (MATMUL_PRECISION, "highest"))


def _type_name(value) -> str:
    return "Tensor" if isinstance(value, Tensor) else type(value).__name__


def _tensor(value, fn: str, arg: str = "input", position: int = 1) -> Tensor:
    if not isinstance(value, Tensor):
        raise TorchTypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(value)}")
    return value


def _dtype(value, fn: str, arg: str, position: int) -> DType:
    if not isinstance(value, DType):
        raise TorchTypeError(f"{fn}(): argument '{arg}' (position {position}) must be torch.dtype, not "
                             f"{_type_name(value)}")
    return value


def numel(input) -> int:  # noqa: A002 - torch's names
    return _tensor(input, "numel").numel()


def is_floating_point(input) -> bool:  # noqa: A002
    return _tensor(input, "is_floating_point").dtype.is_floating_point


def is_complex(input) -> bool:  # noqa: A002 - gradcli has no complex dtypes
    _tensor(input, "is_complex")
    return False


def is_signed(input) -> bool:  # noqa: A002
    return _tensor(input, "is_signed").dtype.name not in ("uint8", "bool")


def is_nonzero(input) -> bool:  # noqa: A002
    x = _tensor(input, "is_nonzero")
    if x.numel() == 0:
        raise TorchRuntimeError("Boolean value of Tensor with no values is ambiguous")
    if x.numel() > 1:
        raise TorchRuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(np.asarray(x.array).reshape(-1)[0] != 0)


def is_same_size(input, other) -> bool:  # noqa: A002
    return tuple(_tensor(input, "is_same_size").shape) == tuple(_tensor(other, "is_same_size", "other", 2).shape)


def is_inference(input) -> bool:  # noqa: A002
    return _tensor(input, "is_inference").is_inference()


def promote_types(type1, type2) -> DType:
    a, b = _dtype(type1, "promote_types", "type1", 1), _dtype(type2, "promote_types", "type2", 2)
    return dtypes.of_numpy(dtypes.promote_types(a.np, b.np))


def can_cast(from_, to) -> bool:
    """torch.can_cast: no floating type into an integral one, nothing but bool into bool."""
    src, dst = _dtype(from_, "can_cast", "from_", 1), _dtype(to, "can_cast", "to", 2)

    def rank(d: DType) -> int:
        return 0 if d.name == "bool" else 2 if d.is_floating_point else 1

    return rank(src) <= rank(dst)


def result_type(tensor, other) -> DType:
    """torch.result_type(tensor, other): the dtype an arithmetic op of the two would compute in (a Python number
    is a wrapped scalar; a 0-d tensor ranks below a dimensioned one)."""
    operands = []
    for position, (name, value) in enumerate((("tensor", tensor), ("other", other)), 1):
        if isinstance(value, Tensor):
            operands.append(np.empty((0,) * value.ndim if value.ndim else (), value.dtype.np))
        elif isinstance(value, (bool, int, float)):
            operands.append(value)
        else:
            raise TorchTypeError(f"result_type(): argument '{name}' (position {position}) must be Tensor, not "
                                 f"{_type_name(value)}")
    return dtypes.of_numpy(dtypes.result_type(*operands))


def broadcast_shapes(*shapes) -> Size:
    """torch.broadcast_shapes: the shape the given shapes broadcast to (an int is a 1-d shape), with torch's
    error naming the first shape that does not fit."""
    sizes = []
    for shape in shapes:
        if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
            sizes.append((int(shape),))
        elif isinstance(shape, (tuple, list, Size)):
            sizes.append(tuple(shape))
        else:
            raise TorchRuntimeError("Input shapes should be of type ints, a tuple of ints, or a list of ints, "
                                    f"got  {shape!r}")
    ndim = max((len(s) for s in sizes), default=0)
    result = [1] * ndim
    for index, shape in enumerate(sizes):
        for i in range(-1, -len(shape) - 1, -1):
            if shape[i] < 0:
                raise TorchRuntimeError(f"Trying to create tensor with negative dimension ({shape[i]}): "
                                        f"({shape[i]})")
            if shape[i] == 1 or shape[i] == result[i]:
                continue
            if result[i] != 1:
                raise TorchRuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching argument at "
                    f"index {index} had {tuple(shape)}; but expected shape should be broadcastable to "
                    f"[{', '.join(map(str, result))}]")
            result[i] = shape[i]
    return Size(result)


def get_num_threads() -> int:
    """The intra-op thread count torch would use here, which gradcli's reductions model (kernels.THREADS)."""
    return kernels.THREADS


def set_num_threads(int) -> None:  # noqa: A002 - torch's parameter name
    """torch.set_num_threads: the count splits torch's parallel reductions, so their float results depend on it.
    gradcli reproduces the machine's own count only: that count is accepted (no effect), another is refused."""
    if isinstance(int, bool) or not isinstance(int, (np.integer, builtins.int)):
        raise TorchTypeError(f"set_num_threads(): argument 'int' (position 1) must be int, not {_type_name(int)}")
    if int <= 0:
        raise TorchRuntimeError("set_num_threads expects a positive integer")
    if int != kernels.THREADS:
        raise NumpyRefused(f"torch.set_num_threads({int}) (gradcli sums in the order of torch's {kernels.THREADS} "
                           f"threads, this machine's count, and would print other float32 sums than torch with "
                           f"{int}; drop the call, or call torch.set_num_threads(torch.get_num_threads()))")


def get_num_interop_threads() -> int:
    return kernels.THREADS


def use_deterministic_algorithms(mode, *, warn_only=False) -> None:
    """gradcli's CPU kernels are deterministic already: the flag is recorded and read back, nothing else."""
    if not isinstance(mode, bool):
        raise TorchTypeError(f"use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
                             f"{_type_name(mode)}")
    DETERMINISTIC.set((mode, bool(warn_only)))


def are_deterministic_algorithms_enabled() -> bool:
    return DETERMINISTIC.get()[0]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return DETERMINISTIC.get()[1]


def set_anomaly_enabled(enabled, check_nan=True) -> None:
    """torch.set_anomaly_enabled: the flag is_anomaly_enabled reads (gradcli's backward checks what anomaly
    mode checks anyway)."""
    ANOMALY.set((bool(enabled), bool(check_nan)))


def is_anomaly_enabled() -> bool:
    return ANOMALY.get()[0]


def is_anomaly_check_nan_enabled() -> bool:
    return ANOMALY.get()[1]


def set_float32_matmul_precision(precision) -> None:
    """No numerical effect on a CPU (torch 2.13's CPU matmul of float32 is the same at 'medium'); the value is
    read back by get_float32_matmul_precision, an unknown one warns and is ignored as torch's."""
    if not isinstance(precision, str):
        raise TorchTypeError(f"set_float32_matmul_precision(): argument 'precision' (position 1) must be str, not "
                             f"{_type_name(precision)}")
    if precision not in ("highest", "high", "medium"):
        state.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                   "setFloat32MatmulPrecision call has no effect.", UserWarning, torch_location=True)
        return
    MATMUL_PRECISION.set(precision)


def get_float32_matmul_precision() -> str:
    return MATMUL_PRECISION.get()


def set_default_tensor_type(t) -> None:
    """torch.set_default_tensor_type (deprecated, warns as torch's once): a floating legacy type sets the default
    dtype (torch.DoubleTensor or 'torch.DoubleTensor')."""
    by_name = {f"torch.{name}": dtype for name, dtype in (("FloatTensor", dtypes.float32),
                                                          ("DoubleTensor", dtypes.float64),
                                                          ("HalfTensor", dtypes.float16))}
    constructors = {id(fn): f"torch.{name}" for name, fn in LEGACY_CONSTRUCTORS.items()}
    state.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
               "torch.set_default_dtype() and torch.set_default_device() as alternatives. (Triggered internally at "
               "/__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)", UserWarning, torch_location=True)
    if isinstance(t, str):
        name = t
    elif id(t) in constructors:
        name = constructors[id(t)]
    else:
        raise TorchTypeError("invalid type object: only floating-point types are supported as the default type")
    if name not in by_name:
        raise TorchTypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(by_name[name])


LEGACY_DTYPES = (("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
                 ("LongTensor", "int64"), ("IntTensor", "int32"), ("ShortTensor", "int16"), ("CharTensor", "int8"),
                 ("ByteTensor", "uint8"), ("BoolTensor", "bool"))
BUILTIN_TYPES = (bool, int, float, str, list, tuple, dict, set, type(None))


def typename(obj) -> str:
    """torch.typename: a tensor's legacy type name (torch.FloatTensor ...), a Python value's type name."""
    if isinstance(obj, Tensor):
        return next(f"torch.{name}" for name, dtype in LEGACY_DTYPES if dtype == obj.dtype.name)
    if type(obj) in BUILTIN_TYPES:
        return type(obj).__qualname__
    raise NumpyRefused("torch.typename of anything but a tensor or a Python value (gradcli's classes are not "
                       "torch's; use type(obj).__name__)")


def init_num_threads() -> None:
    return None


def is_warn_always_enabled() -> bool:
    return False


FUNCTIONS = {fn.__name__: fn for fn in (
    set_default_tensor_type, typename, init_num_threads, is_warn_always_enabled,
    numel, is_floating_point, is_complex, is_signed, is_nonzero, is_same_size, is_inference, promote_types, can_cast,
    result_type, broadcast_shapes, get_num_threads, set_num_threads, get_num_interop_threads,
    use_deterministic_algorithms, are_deterministic_algorithms_enabled, is_deterministic_algorithms_warn_only_enabled,
    set_anomaly_enabled, is_anomaly_enabled, is_anomaly_check_nan_enabled, set_float32_matmul_precision,
    get_float32_matmul_precision)}
for _fn in FUNCTIONS.values():
    _fn.arguments_checked = True  # each checks its own arguments with torch's texts
