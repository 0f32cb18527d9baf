"""Tensor: a numpy array plus PyTorch's autograd attributes (.grad, .requires_grad, .grad_fn, .is_leaf).

Ops (arithmetic operators and methods such as ``x.sum()``) are attached by `gradcli.engine.ops`, each
defined once there.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, state
from gradcli.engine.errors import (
    TorchAssertionError,
    TorchIndexError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
)
from gradcli.engine.state import BUDGET, DEFAULT_DEVICE, INFERENCE
from gradcli.engine.tensor_str import format_meta_tensor, format_tensor

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't "
    "be populated during autograd.backward(). If you indeed want the .grad field to be populated for a "
    "non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
    "mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for "
    "more information. (Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)

SCALAR_CONVERSION_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)"
)


class Size(tuple):
    """torch.Size: a tuple of ints that prints as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(d) for d in self)}])"

    __str__ = __repr__

    def __getitem__(self, key):
        part = tuple.__getitem__(self, key)
        return Size(part) if isinstance(key, slice) else part  # x.shape[-1:] is a torch.Size

    def numel(self) -> int:
        n = 1
        for d in self:
            n *= d
        return n


class InferenceVersion(list):
    """The version counter of an inference tensor (made under torch.inference_mode): torch keeps none, so reading
    it is an error; in-place ops still bump it, harmlessly."""

    __slots__ = ()


INFERENCE_TENSOR_VERSION = "Inference tensors do not track version counter."
INFERENCE_TENSOR_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                            "clone to get a normal tensor before doing inplace update.See "
                            "https://github.com/pytorch/rfcs/pull/17 for more details.")


class Tensor:
    # `_view` (a view's base and how to regenerate it) and `_views` (a base's live views) are set by the view
    # ops only (ops/views.py); every other tensor leaves them unset and reads them with getattr(..., None)
    __slots__ = ("array", "requires_grad", "grad_fn", "_grad", "_version", "_retains_grad", "_view", "_views",
                 "_fw_grad", "__weakref__")
    __hash__ = object.__hash__  # __eq__ is elementwise, identity hashing stays
    __array_priority__ = 1000  # numpy array <op> Tensor defers to Tensor's reflected operator

    def __init__(self, data, requires_grad: bool = False):
        array = data.array if isinstance(data, Tensor) else np.asarray(data)
        budget = BUDGET.get()
        if budget is not None and array is not data:
            budget.charge(array)
        self.array = array
        self.grad_fn = None
        self._grad = None
        self._version = [0] if not INFERENCE.get() else InferenceVersion((0,))
        self._retains_grad = False
        self.requires_grad = False
        if requires_grad:
            self.requires_grad_(True)

    @staticmethod
    def _make(array: np.ndarray, grad_fn) -> Tensor:
        """Fast constructor used by ops: `array` must already be an ndarray."""
        budget = BUDGET.get()
        if budget is not None:  # an API call's or a run's: its memory, its deadline
            budget.charge(array)
        t = object.__new__(Tensor)
        t.array = array
        t.grad_fn = grad_fn
        t.requires_grad = grad_fn is not None
        t._grad = None
        t._version = [0] if grad_fn is not None or not INFERENCE.get() else InferenceVersion((0,))
        t._retains_grad = False
        return t

    def is_inference(self) -> bool:
        """torch's Tensor.is_inference(): made under torch.inference_mode (or a view or detach of such a tensor)."""
        return type(self._version) is InferenceVersion

    # -- autograd attributes -------------------------------------------------------------------------
    @property
    def is_leaf(self) -> bool:
        # `not grad_fn` reads it as torch's grad_fn() does: a view's regenerated history is used (or refused)
        return self.grad_fn is None or not self.grad_fn

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains_grad:
            state.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TorchTypeError(f"assigned grad expected to be a Tensor or None but got grad of {type(value)}")
            if value.array.shape != self.array.shape:
                raise TorchRuntimeError("assigned grad has data of a different size")
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if self.grad_fn is not None:
            if not requires_grad:
                raise TorchRuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
            return self
        if requires_grad and self.array.dtype.kind not in "fc":
            raise TorchRuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = bool(requires_grad)
        if requires_grad:
            for ref in getattr(self, "_views", None) or ():
                view = ref()
                if view is not None and view.grad_fn is None:  # torch: a view requires grad when its base does
                    view.requires_grad = True
                    view._view.grad_dropped = True
        return self

    def detach(self) -> Tensor:
        t = Tensor._make(self.array, None)
        t._version = self._version  # shares storage and version counter, as torch's detach does
        return t

    def detach_(self) -> Tensor:
        if getattr(self, "_view", None) is not None:
            raise TorchRuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        self.grad_fn = None
        self.requires_grad = False
        return self

    @property
    def _base(self) -> Tensor | None:
        """The tensor whose memory a view shares (None for a tensor that is not a view), as torch's ._base."""
        info = getattr(self, "_view", None)
        return None if info is None else info.base

    @property
    def data(self) -> Tensor:
        return Tensor._make(self.array, None)

    @data.setter
    def data(self, value: Tensor) -> None:
        self.array = value.array if isinstance(value, Tensor) else np.asarray(value)

    # -- shape and type ------------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self.array.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self.array.shape)
        return self.array.shape[wrap_dim(dim, self.array.ndim)]

    @property
    def ndim(self) -> int:
        return self.array.ndim

    def dim(self) -> int:
        return self.array.ndim

    def numel(self) -> int:
        return self.array.size

    def nelement(self) -> int:
        return self.array.size

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.of_array(self.array)

    def is_floating_point(self) -> bool:
        return self.array.dtype.kind == "f"

    @property
    def device(self) -> Device:
        return META if self.is_meta else CPU

    @property
    def is_meta(self) -> bool:
        """On the meta device (engine/meta.py): a shape, a dtype and strides, no data."""
        return getattr(self.array, "meta_strides", None) is not None

    def stride(self, dim: int | None = None):
        """The strides in elements: numpy's own (views share their base's memory, as torch's do); a meta
        tensor's are the ones torch would give it."""
        strides = getattr(self.array, "meta_strides", None)
        if strides is None:
            item = self.array.itemsize
            strides = tuple(s // item for s in self.array.strides)
        if dim is None:
            return strides
        return strides[wrap_dim(dim, self.array.ndim)] if self.array.ndim else 1

    def _no_data(self, what: str) -> None:
        """torch's error for reading the values of a meta tensor."""
        if self.is_meta:
            if what == "item":
                raise TorchRuntimeError("Tensor.item() cannot be called on meta tensors")
            if what == "numpy":
                raise TorchTypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
                                     "tensor to host memory first.")
            raise TorchNotImplementedError("Cannot copy out of meta tensor; no data!")

    def cpu(self) -> Tensor:
        """Already on the CPU: the tensor itself, as torch returns it (a meta tensor has no data to copy)."""
        self._no_data("cpu")
        return self

    def cuda(self, device=None, non_blocking: bool = False, memory_format=None) -> Tensor:
        """There is no CUDA: torch without it fails here."""
        raise TorchAssertionError(NO_CUDA)

    def element_size(self) -> int:
        return self.array.itemsize

    # -- memory layout and predicates, as torch answers them for a strided CPU tensor ----------------
    @property
    def itemsize(self) -> int:
        return self.array.itemsize

    @property
    def nbytes(self) -> int:
        return self.array.size * self.array.itemsize

    @property
    def layout(self) -> Layout:
        return STRIDED

    @property
    def is_cpu(self) -> bool:
        return not self.is_meta

    is_cuda = False
    is_sparse = False
    is_quantized = False
    is_mkldnn = False
    is_nested = False

    def ndimension(self) -> int:
        return self.array.ndim

    def storage_offset(self) -> int:
        base = self._base
        if base is None:
            return 0
        start = base.array.__array_interface__["data"][0]
        return (self.array.__array_interface__["data"][0] - start) // self.array.itemsize

    def is_contiguous(self, memory_format=None) -> bool:
        """torch's definition: strides of a row-major layout, ignoring dims of size 1; an empty tensor is."""
        if self.array.size == 0:
            return True
        expected = 1
        for size, stride in zip(reversed(self.array.shape), reversed(self.stride())):
            if size != 1:
                if stride != expected:
                    return False
                expected *= size
        return True

    def is_complex(self) -> bool:
        return False

    def is_signed(self) -> bool:
        return self.array.dtype.kind in "if"

    def is_nonzero(self) -> bool:
        if self.array.size == 0:
            raise TorchRuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self.array.size > 1:
            raise TorchRuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.array.reshape(()) != 0)

    def is_same_size(self, other) -> bool:
        return self.array.shape == other.array.shape

    def get_device(self) -> int:
        return -1

    def is_shared(self) -> bool:
        return False

    def is_pinned(self, device=None) -> bool:
        return False

    # -- conversion ----------------------------------------------------------------------------------
    def item(self):
        if self.array.size == 1:
            self._no_data("item")
        if self.array.size != 1:
            raise TorchRuntimeError(f"a Tensor with {self.array.size} elements cannot be converted to Scalar")
        return self.array.reshape(()).item()

    def tolist(self):
        self._no_data("tolist")
        return self.array.tolist()

    def numpy(self) -> np.ndarray:
        self._no_data("numpy")
        if self.requires_grad:
            raise TorchRuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self.array

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __index__(self) -> int:
        if self.array.dtype.kind not in "iu" or self.array.size != 1:
            raise TorchTypeError("only integer tensors of a single element can be converted to an index")
        self._no_data("item")
        return int(self.array.reshape(()))

    def __bool__(self) -> bool:
        if self.array.size != 1:
            if self.array.size == 0:
                raise TorchRuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise TorchRuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        self._no_data("item")
        return bool(self.array.reshape(()))

    def _scalar(self, kind):
        if self.array.size != 1:
            raise TorchValueError("only one element tensors can be converted to Python scalars")
        self._no_data("item")
        if self.requires_grad:  # float(x) and int(x) warn, x.item() does not
            state.warn(SCALAR_CONVERSION_WARNING, UserWarning, stacklevel=3)
        return self.array.reshape(()).item()

    def __len__(self) -> int:
        if self.array.ndim == 0:
            raise TorchTypeError("len() of a 0-d tensor")
        return self.array.shape[0]

    def __iter__(self):
        if self.array.ndim == 0:
            raise TorchTypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # as torch's: the rows are unbind's views (which may not be modified in place)

    def __format__(self, spec: str) -> str:
        if self.array.ndim == 0 and not self.is_meta:
            return format(self.item(), spec)
        if spec:  # torch falls back to object.__format__, which takes no format spec
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __repr__(self) -> str:
        grad_fn = self.grad_fn.name if self.grad_fn is not None else None
        view = getattr(self, "_view", None)
        if view is not None:
            view.touch()  # torch reads (so regenerates) a view's grad_fn to print it
        if self.is_meta:
            return format_meta_tensor(self.array.shape, self.array.dtype.name,
                                      default_dtype=dtypes.get_default_dtype().name,
                                      requires_grad=self.requires_grad, grad_fn=grad_fn)
        fw = getattr(self, "_fw_grad", None)
        tangent = fw[1] if fw is not None and fw[0] == state.DUAL_LEVEL.get() else None
        return format_tensor(self.array, default_dtype=dtypes.get_default_dtype().name,
                             requires_grad=self.requires_grad, grad_fn=grad_fn,
                             tangent=None if tangent is None else repr(tangent))

    __str__ = __repr__

    # -- in-place helpers (the autograd-aware in-place ops live in ops.inplace) ---------------------
    def _bump_version(self) -> None:
        self._version[0] += 1


def wrap_dim(dim: int, ndim: int) -> int:
    """Normalise a possibly negative dim, raising PyTorch's IndexError when out of range."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise TorchIndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


class Device:
    """torch.device: gradcli computes on the CPU only, so "cpu" (optionally "cpu:0") is the one it accepts."""

    __slots__ = ("type", "index")

    def __init__(self, type: str = "cpu", index: int | None = None):  # noqa: A002 - torch's name
        if isinstance(type, Device):
            type, index = type.type, type.index
        kind, _, number = str(type).partition(":")
        if number:
            index = int(number)
        if kind not in ("cpu", "cuda", "mps", "xpu", "meta"):
            raise RuntimeError(f"Expected one of cpu, cuda, mps, xpu, meta device type at start of device string: "
                               f"{type}")
        self.type, self.index = kind, index

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else \
            f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other) -> bool:  # torch: a device never equals a string
        return isinstance(other, Device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = Device("cpu")
NO_CUDA = "Torch not compiled with CUDA enabled"


def check_device(device, *, factory: bool = False) -> None:
    """Where a tensor is to be made or moved: the CPU and the meta device (engine/meta.py) pass; CUDA fails as a
    CPU-only torch fails (its AssertionError from torch.cuda's lazy init), any other device with gradcli's own
    error.  `factory`: a
    creation function given no device, which creates on the default device (torch.set_default_device,
    `with torch.device(...)`)."""
    if device is None:
        if not factory:
            return
        device = DEFAULT_DEVICE.get()
        if device is None:
            return
    kind = device.type if isinstance(device, Device) else Device(device).type if isinstance(device, str) else None
    if kind in ("cpu", "meta"):
        return
    if kind == "cuda" or isinstance(device, int):  # an int is a CUDA device's index to torch
        raise TorchAssertionError(NO_CUDA)
    raise TorchRuntimeError(f"gradcli computes on the CPU only; device '{device}' is not available")


META = Device("meta")


class Layout:
    """torch.layout: gradcli's tensors are all torch.strided."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


STRIDED = Layout("strided")

