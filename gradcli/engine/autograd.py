"""The autograd core: grad mode, graph nodes (`Function`) and the backward pass.

A `Function` subclass is one op: `forward` on numpy arrays and `backward` written with operations that
work on numpy arrays *and* on Tensors (see `dual.py`).  The plain first-order pass feeds it arrays, so it
runs at numpy speed; with ``create_graph=True`` it is fed Tensors with grad mode on, so the gradient is
itself a graph that can be differentiated again.

Gradients are reduced to each input's shape in one place (`_edge_grad`), never inside the rules.
"""

from __future__ import annotations

import contextvars
import heapq
import itertools
import os
import weakref

import numpy as np

from gradcli.engine import dtypes, dual
from gradcli.engine.dual import sum_to_shape
from gradcli.engine.errors import GradientShapeError, TorchRuntimeError, TorchTypeError, TorchValueError, Unsupported
from gradcli.engine.state import BUDGET, INFERENCE, ContextAttribute, warn
from gradcli.engine.tensor import InferenceVersion, Tensor


class _GradModeType:
    # torch's grad mode is per thread; here per context: each thread and each API call has its own
    enabled = ContextAttribute("grad_enabled", True)


GradMode = _GradModeType()
# the hot path reads the context variable itself: the descriptor costs a Python call (~90 ns) an op
_grad_enabled = _GradModeType.__dict__["enabled"].var.get
_budget = BUDGET.get


# Forward-mode AD (forward_ad.py): while a dual level is open, [the hook Function.apply hands every op to], else
# [None]; and the two generic forward formulas a Function's `jvp` may name.
FORWARD_AD: list = [None]
# ... and [the check run_backward makes of the nodes it will run] (it refuses forward-over-reverse)
FORWARD_OVER_REVERSE: list = [None]
# ... and [the call of a registered op] (ops/registry.py: an op given a dual input whose floating result came
# without a tangent went around the forward formulas, and is refused)
FORWARD_CALL: list = [None]
ELEMENT_WISE = "element_wise"
LINEAR = "linear"

# Some tensor was made under torch.inference_mode in this process: recording nodes then checks that none saves one.
INFERENCE_USED = [False]
INFERENCE_TENSOR_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")


# torch.autograd.graph.saved_tensors_hooks: the (pack, unpack) pairs open in this context, innermost last.
# The hot path reads _HOOKS_OPEN (how many are open in any context) before it looks at the context variable.
SAVED_TENSOR_HOOKS: contextvars.ContextVar[tuple] = contextvars.ContextVar("gradcli_saved_tensor_hooks", default=())
_HOOKS_OPEN = [0]
HOOKS_DISABLED: contextvars.ContextVar[str | None] = contextvars.ContextVar("gradcli_hooks_disabled", default=None)
_HOOKS_USED = [False]  # some node was ever packed: backward looks for packed values only then


def mark_packed() -> None:
    """Some node now holds a packed value (a SavedTensor's register_hooks): backward looks for them."""
    _HOOKS_USED[0] = True


class Packed:
    """A saved tensor as a pack hook returned it, with the unpack hook that gives it back in backward."""

    __slots__ = ("value", "unpack", "source")

    def __init__(self, value, unpack, source=None):
        # source: the saved input itself (None for the node's output), whose place in the graph the unpacked
        # tensor takes with create_graph=True, as torch's SavedVariable gives it the original's grad_fn
        self.value, self.unpack, self.source = value, unpack, source

    def unpacked(self) -> Tensor:
        tensor = self.unpack(self.value)
        if not isinstance(tensor, Tensor):
            raise TorchTypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                                 f"type {type(tensor).__name__}")
        return tensor


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Pack and unpack hooks for the tensors the graph's nodes save, as torch.autograd.graph.saved_tensors_hooks:
    `pack_hook(tensor)` is called when a node saves a tensor (its inputs in torch's order, then its output),
    `unpack_hook(packed)` when backward reads it."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        message = HOOKS_DISABLED.get()
        if message is not None:
            raise TorchRuntimeError(message)
        self._token = SAVED_TENSOR_HOOKS.set((*SAVED_TENSOR_HOOKS.get(), (self.pack_hook, self.unpack_hook)))
        _HOOKS_OPEN[0] += 1
        return self

    def __exit__(self, *exc):
        SAVED_TENSOR_HOOKS.reset(self._token)
        _HOOKS_OPEN[0] -= 1
        return False


def _pack_saved(ctx, cls, result) -> None:
    """Hand the node's saved tensors to the innermost pack hook, in the order torch saves them."""
    hooks = SAVED_TENSOR_HOOKS.get()
    if not hooks:
        return
    pack, unpack = hooks[-1]
    _HOOKS_USED[0] = True
    saved = list(ctx.saved)
    with no_grad():  # torch calls pack hooks with grad mode off (torch.is_grad_enabled() is False in them)
        for i in cls.pack_order or range(len(saved)):
            if isinstance(saved[i], Tensor):
                saved[i] = Packed(pack(saved[i]), unpack, saved[i])
        ctx.saved = tuple(saved)
        if cls.saves_output:
            ctx.out = Packed(pack(result), unpack)


# The order of the backward pass is PyTorch's engine's: a priority queue of ready nodes, the node created
# last first (a node's `seq` is minus its creation number); storing a leaf's completed gradient (PyTorch's
# AccumulateGrad) and error nodes go before everything (`_FIRST`), in the order they became ready.  So
# gradients are summed in PyTorch's order, and a backward that fails part-way has filled the same leaves.
_SEQUENCE = itertools.count(0, -1)  # counting down: the newest node is the smallest, first out of the heap
_FIRST = float("-inf")

# The small tuples every node keeps, shared between nodes: each tuple a node holds is one more object for the
# garbage collector, whose collections (one every 700 new objects) cost a chain of small ops up to a fifth of its
# time.  `_NEEDS`: needs_input_grad for up to three inputs; `_SHAPES`: in_shapes as they come (the shapes of a
# program are few; the table is emptied if it ever holds _SHAPES_KEPT of them).
_NEEDS = {key: key for n in (1, 2, 3) for key in itertools.product((False, True), repeat=n)}
_SHAPES: dict = {}
_SHAPES_KEPT = 4096


def next_sequence() -> int:
    """The creation number of a node made outside Function.apply (a program's autograd.Function)."""
    return next(_SEQUENCE)

_CHECK_DTYPES = [os.environ.get("GRADCLI_CHECK_EDGES") == "1"]  # EdgeChecks.enabled, read cheaply on the hot path


class _EdgeChecksType(type):
    @property
    def enabled(cls) -> bool:
        return _CHECK_DTYPES[0]

    @enabled.setter
    def enabled(cls, value: bool) -> None:
        _CHECK_DTYPES[0] = bool(value)


class EdgeChecks(metaclass=_EdgeChecksType):
    """When `EdgeChecks.enabled` (the test suite turns it on; GRADCLI_CHECK_EDGES=1 does too), backward also
    checks that every gradient handed to an edge has that edge's dtype.  Shapes are always checked (it costs
    nothing on the common path); dtypes need each node to remember its inputs' dtypes (~0.3 us an op)."""


class GradModeContext:
    """Base for no_grad / enable_grad: usable as a context manager and as a decorator."""

    mode = True

    def __enter__(self):
        self._prev = GradMode.enabled
        GradMode.enabled = self.mode

    def __exit__(self, *exc):
        GradMode.enabled = self._prev
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(GradModeContext):  # noqa: N801 - PyTorch's name
    mode = False


class enable_grad(GradModeContext):  # noqa: N801 - PyTorch's name
    mode = True


class set_grad_enabled(GradModeContext):  # noqa: N801 - PyTorch's name
    def __init__(self, mode: bool):
        self.mode = bool(mode)
        self._prev = GradMode.enabled
        GradMode.enabled = self.mode  # torch applies it on construction, too

    def __enter__(self):
        pass

    def __call__(self, fn):  # pragma: no cover - decorator form is rare
        raise TypeError("set_grad_enabled cannot be used as a decorator here")


def is_grad_enabled() -> bool:
    return GradMode.enabled


SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)


class Function:
    """One op and, once applied, the graph node that remembers how to differentiate it.

    Subclasses set `name` (PyTorch's grad_fn name), `saves` (indices of the inputs the backward rule needs)
    and `saves_output`, and define ``forward(ctx, *arrays, **params) -> array`` and
    ``backward(ctx, grad, *saved) -> tuple of grads (one per input, None where not needed)``.
    Non-tensor state for backward goes in ``ctx.aux``.  `backward` receives a gradient of exactly the output's
    shape and may return gradients broadcast over, or smaller than, each input: `_edge_grad` fits them.
    """

    __slots__ = ("next_functions", "needs_input_grad", "in_shapes", "out_shape", "saved", "versions",
                 "out", "out_version", "out_base", "aux", "released", "retained", "in_dtypes", "seq", "saved_cast",
                 "edge_dtypes", "fw_level", "__weakref__")

    name = "Backward"
    saves: tuple = ()
    # {i: j}: input i is only needed (saved) when input j needs a gradient, as for a * b
    saves_when: dict | None = None
    saves_output = False
    # the node keeps, in `aux`, a tensor torch's node saves (embedding's indices): a second backward through it
    # without retain_graph raises torch's error, as for a saved input
    saves_aux = False
    # the order torch's node saves (and so packs and unpacks) the saved inputs, as positions in `saves`; None: as
    # `saves` lists them (torch's mul and div save `other` before `self`)
    pack_order: tuple | None = None
    # An elementwise rule may be fed a 0-d gradient standing for a uniform one (sum's), which keeps numpy
    # on its fast scalar path; the engine does so only when every input needing a gradient has the output's
    # shape, so the rule's results stay unambiguous (see run_backward).
    uniform_grad_ok = False
    runs_first = False  # see _SEQUENCE
    # The positions of apply's arguments that are edges of torch's node (its next_functions, the grad_input of
    # a module's non-full backward hook), when the others are the op's parameters (shapes, dims, flags, arrays
    # torch does not differentiate); None: every argument is one.
    torch_edges: tuple | None = None
    # The forward-mode formula (torch's `result:` in derivatives.yaml; forward_ad.py applies it): ELEMENT_WISE
    # (auto_element_wise: the backward rule fed each input's tangent), LINEAR (auto_linear: the op applied to
    # the tangents), or ``jvp(ctx, tangents, arrays, out, params) -> array`` written out (`tangents`: an array or
    # None per argument).  None: no formula yet, and a dual input is refused naming the op.
    jvp = None

    @staticmethod
    def forward(ctx, *arrays, **params):  # pragma: no cover - abstract
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad, *saved):  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def apply(cls, *args, **params):
        """Run forward on the arrays of `args` (Tensors or Python numbers) and record the node if needed."""
        # The hot path of every op: kept flat (no helper calls, `type(...) is`) to stay within a few µs.
        ctx = object.__new__(cls)
        ctx.aux = None
        dtype0 = None  # the first Tensor input's dtype; `mixed` when another differs from it
        mixed = False
        nargs = len(args)
        if nargs == 2:  # a binary op: the loop below, unrolled (its lists and appends cost ~10% of an op)
            a, b = args
            if type(a) is Tensor or isinstance(a, Tensor):  # the second test: nn.Parameter
                x = a.array
                need_a = a.requires_grad
                shape_a = x.shape
                dtype0 = x.dtype
            else:
                x = a
                need_a = False
                shape_a = a.shape if type(a) is np.ndarray else ()
            if type(b) is Tensor or isinstance(b, Tensor):
                y = b.array
                need_b = b.requires_grad
                shape_b = y.shape
                if dtype0 is None:
                    dtype0 = y.dtype
                elif y.dtype is not dtype0:
                    mixed = True
            else:
                y = b
                need_b = False
                shape_b = b.shape if type(b) is np.ndarray else ()
            needs = (need_a, need_b)
            shapes = (shape_a, shape_b)
            out = cls.forward(ctx, x, y, **params) if params else cls.forward(ctx, x, y)  # (no dict to build)
        elif nargs == 1 and (type(args[0]) is Tensor or isinstance(args[0], Tensor)):  # a unary op
            a = args[0]
            x = a.array
            needs = (a.requires_grad,)
            shapes = (x.shape,)
            out = cls.forward(ctx, x, **params) if params else cls.forward(ctx, x)
        else:
            arrays = []
            needs = []
            shapes = []
            for a in args:  # one pass over the inputs instead of several comprehensions
                if type(a) is Tensor or isinstance(a, Tensor):
                    arr = a.array
                    arrays.append(arr)
                    needs.append(a.requires_grad)
                    shapes.append(arr.shape)
                    if dtype0 is None:
                        dtype0 = arr.dtype
                    elif arr.dtype is not dtype0:
                        mixed = True
                else:
                    arrays.append(a)
                    needs.append(False)
                    shapes.append(a.shape if type(a) is np.ndarray else ())
            out = cls.forward(ctx, *arrays, **params)
        if type(out) is not np.ndarray:
            out = np.asarray(out)
        # Tensor._make, inlined (a call an op): the budget's charge, then the tensor
        budget = _budget()
        if budget is not None:  # an API call's or a run's: its memory, its deadline
            budget.charge(out)
        result = object.__new__(Tensor)
        result.array = out
        result._grad = None
        result._version = [0]
        result._retains_grad = False
        if not _grad_enabled() or True not in needs:
            result.grad_fn = None
            result.requires_grad = False
            if INFERENCE_USED[0] and INFERENCE.get():  # made under torch.inference_mode: an inference tensor
                result._version = InferenceVersion((0,))
            if FORWARD_AD[0] is not None:
                FORWARD_AD[0](cls, ctx, args, params, result)
            return result
        result.grad_fn = ctx
        result.requires_grad = True
        key = tuple(needs)
        needs = _NEEDS.get(key, key)
        ctx.needs_input_grad = needs
        # one and two inputs spelled out: a comprehension is a function call of its own (~0.3 µs on 3.11)
        if nargs == 1:
            a = args[0]
            ctx.next_functions = ((a.grad_fn or a),)  # it needs a gradient, or there would be no node
        elif nargs == 2:
            a, b = args
            ctx.next_functions = ((a.grad_fn or a) if needs[0] else None, (b.grad_fn or b) if needs[1] else None)
        else:
            ctx.next_functions = tuple([(a.grad_fn or a) if n else None for a, n in zip(args, needs)])
        key = tuple(shapes)
        in_shapes = _SHAPES.get(key)
        if in_shapes is None:
            if len(_SHAPES) >= _SHAPES_KEPT:
                _SHAPES.clear()
            _SHAPES[key] = in_shapes = key
        ctx.in_shapes = in_shapes
        out_shape = out.shape
        ctx.out_shape = in_shapes[0] if nargs and out_shape == in_shapes[0] else out_shape
        ctx.seq = next(_SEQUENCE)
        if _CHECK_DTYPES[0]:
            ctx.in_dtypes = tuple([a.array.dtype if isinstance(a, Tensor) else None for a in args])
        ctx.released = False
        ctx.retained = None
        saves = cls.saves
        if saves:
            when = cls.saves_when
            saved = []
            versions = []
            for i in saves:
                a = args[i]
                if when is not None and i in when and not needs[when[i]]:
                    saved.append(None)  # only needed for a gradient nobody asked for
                    versions.append(0)
                else:
                    saved.append(a)
                    versions.append(a._version[0] if type(a) is Tensor or isinstance(a, Tensor) else 0)
            ctx.saved = tuple(saved)
            ctx.versions = tuple(versions)
            if INFERENCE_USED[0] and any(isinstance(a, Tensor) and a.is_inference() for a in saved):
                raise TorchRuntimeError(INFERENCE_TENSOR_SAVED)
        else:
            ctx.saved = ctx.versions = ()
        ctx.saved_cast = None
        if nargs > 1 and (mixed or dtype0 is not out.dtype) and out.dtype.kind in "fc":
            # Mixed dtypes (a 0-d float64 operand of a float32 op, cat of float32 and float64): torch's engine
            # casts each gradient to its input's dtype on the way out (edge_dtypes), and its elementwise
            # kernels compute the rule in the result dtype (_saved_values)
            dtype = out.dtype
            for a in args:
                if isinstance(a, Tensor) and a.array.dtype != dtype:
                    ctx.saved_cast = dtype
                    ctx.edge_dtypes = tuple([a.array.dtype if isinstance(a, Tensor) else None for a in args])
                    break
        if cls.saves_output:
            ctx.out = out
            ctx.out_version = result._version  # so an in-place edit of the output is detected
            ctx.out_base = 0
        else:
            ctx.out = None
        if _HOOKS_OPEN[0] and (saves or cls.saves_output):
            _pack_saved(ctx, cls, result)
        if FORWARD_AD[0] is not None:
            FORWARD_AD[0](cls, ctx, args, params, result)
        return result

    # -- used by the backward pass -------------------------------------------------------------------
    def _saved_values(self, create_graph: bool):
        if self.released:
            raise TorchRuntimeError(SECOND_BACKWARD)
        if _HOOKS_USED[0] and (type(self.out) is Packed or any(type(v) is Packed for v in self.saved)):
            return self._unpacked_values(create_graph)
        values = []
        saved = self.saved
        if saved:
            cast = self.saved_cast
            i = 0
            for value, version in zip(saved, self.versions):
                if type(value) is Tensor or isinstance(value, Tensor):
                    if value._version[0] != version:
                        raise TorchRuntimeError(_modified_message(value, self, i, version))
                    # float32/float64 elementwise rules only: half keeps a float32 0-d operand (torch's opmath)
                    if cast is not None and self.uniform_grad_ok and cast.itemsize >= 4 \
                            and value.array.dtype != cast and value.array.dtype.kind in "fc":
                        values.append(value.to(dtypes.of_numpy(cast)) if create_graph else value.array.astype(cast))
                    else:
                        values.append(value if create_graph else value.array)
                else:
                    values.append(value)
                i += 1
        if self.saves_output:
            if self.out_version[0] != self.out_base:
                raise TorchRuntimeError(_modified_output_message(self))
            out = self.out
            values.append(Tensor._make(out, self) if create_graph else out)
        return values

    def _unpacked_values(self, create_graph: bool):
        """The saved values through their unpack hooks, called in the order they were packed (torch checks no
        version counter then: the hook's result is what the node uses)."""
        values = list(self.saved)
        for i in type(self).pack_order or range(len(values)):
            if type(values[i]) is Packed:
                packed = values[i]
                values[i] = packed.unpacked()
                if create_graph and packed.source.requires_grad:
                    # the unpacked value stands for the saved input in the graph (a hook that returns a detached
                    # copy, t.detach() or t.clone() under its no_grad, still gives a second derivative)
                    values[i] = _SavedInput.apply(packed.source, values[i].array)
        if self.saves_output:
            out = self.out.unpacked() if type(self.out) is Packed else self.out
            values.append(Tensor._make(out.array if isinstance(out, Tensor) else out, self))
        return [v if create_graph or not isinstance(v, Tensor) else v.array for v in values]

    def _release(self):
        if self.saved or self.saves_output or self.saves_aux:
            self.released = True
            self.saved = ()
            self.out = None

    def __repr__(self) -> str:
        return f"<{self.name} object at {id(self):#x}>"


class _SavedInput(Function):
    """A saved input as its unpack hook gave it back (`array`), in the input's place in the graph."""

    __slots__ = ()
    name = "AliasBackward0"

    @staticmethod
    def forward(ctx, source, array):
        return array

    @staticmethod
    def backward(ctx, g):
        return g, None


def _modified_message(value, node, index, version) -> str:
    producer = value.grad_fn.name if value.grad_fn is not None else None  # its history now, as torch reports
    return _inplace_message(type_name(value), value.array.shape, producer, value._version[0], version)


def modified_input_message(value, version: int) -> str:
    """torch's error for a saved input modified in place since it was saved at `version`."""
    return _modified_message(value, None, 0, version)


def _modified_output_message(node) -> str:
    return modified_output_message(node, node.name)


def modified_output_message(node, producer: str) -> str:
    """torch's error for a node whose saved output was modified in place; `producer` names the output's history."""
    return _inplace_message(_type_name_np(node.out), node.out.shape, producer, node.out_version[0], node.out_base)


# torch's nodes that are not generated from its op list: their name() is the C++ name
_HANDWRITTEN_NODES = frozenset({"CopySlices", "CopyBackwards", "NotImplemented"})


def torch_node_name(node) -> str:
    """torch's grad_fn.name(): the C++ name of the hand-written nodes (torch::autograd::CopySlices)."""
    return "torch::autograd::" + node.name if node.name in _HANDWRITTEN_NODES else node.name


def short_name(name: str) -> str:
    """A node as torch's messages name it: the op, not its node (MulBackward0 -> Mul, SumBackward1 -> Sum1), and
    the hand-written nodes by their C++ name."""
    if name in _HANDWRITTEN_NODES:
        return "torch::autograd::" + name
    return name.replace("Backward0", "").replace("Backward", "")


def _inplace_message(tensor_type, shape, producer, current, expected) -> str:
    which = f", which is output 0 of {short_name(producer)}," if producer else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        f"[{tensor_type} {_size_str(shape)}]{which} is at version {current}; expected version {expected} instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


_TYPE_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
               "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor",
               "uint8": "ByteTensor", "bool": "BoolTensor"}


def _type_name_np(array) -> str:
    return "torch." + _TYPE_NAMES[str(array.dtype)]


def type_name(tensor) -> str:
    return _type_name_np(tensor.array)


def _size_str(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


# -- the backward pass --------------------------------------------------------------------------------

def _expand(grad, shape, create_graph):
    """Broadcast a gradient to `shape` (a zero-copy view in first order).  A rule may return a Tensor on a
    first-order pass (its formula used a saved Tensor: the second pass of --hessian): it stays one."""
    return dual.expand(grad, shape) if create_graph or isinstance(grad, Tensor) else np.broadcast_to(grad, shape)


def _is_larger(gshape, shape) -> bool:
    """True when `gshape` has dims that broadcasting added to `shape`, which must be summed away."""
    lead = len(gshape) - len(shape)
    if lead > 0:
        return True
    if lead < 0:
        return False
    return any(s == 1 and g != 1 for g, s in zip(gshape, shape))


def _edge_grad(node, grad, i, create_graph):
    """The gradient a node hands to input `i`, made exactly that input's shape: the one unbroadcast site.

    Every gradient flowing along an edge has its tensor's exact shape, so a gradient can never be mistaken
    for an already-reduced one.  A rule may return a gradient broadcast over the input (an elementwise rule
    with a broadcast operand: summed away) or one smaller than it (a reduction's keepdim-shaped gradient:
    expanded as a zero-copy view, so nothing full-size is materialised until a consumer computes with it).
    """
    shape = node.in_shapes[i]
    given = grad.shape
    try:
        if _is_larger(given, shape):
            grad = dual.sum_to(grad, shape) if create_graph else sum_to_shape(grad, shape)
        if grad.shape != shape:
            grad = _expand(grad, shape, create_graph)
    except ValueError:
        grad = None
    if grad is None or grad.shape != shape:
        raise GradientShapeError(
            f"{node.name} returned a gradient of shape {tuple(given)} for its input {i} of shape {tuple(shape)}")
    return grad


def _all_inputs_full(node) -> bool:
    out = node.out_shape
    return all(shape == out for shape, needs in zip(node.in_shapes, node.needs_input_grad) if needs)


def _cast_edge(grad, dtype):
    """A gradient in its input's dtype (a mixed-dtype node computes in the result dtype)."""
    have = grad.array.dtype if isinstance(grad, Tensor) else grad.dtype
    if dtype is None or have == dtype or dtype.kind not in "fc":
        return grad
    return grad.to(dtypes.of_numpy(dtype)) if isinstance(grad, Tensor) else grad.astype(dtype)


def _check_dtype(node, grad, i):
    expected = getattr(node, "in_dtypes", None)
    if expected is None or expected[i] is None:
        return  # the node was recorded before the checks were turned on
    dtype = grad.array.dtype if isinstance(grad, Tensor) else np.asarray(grad).dtype
    if dtype != expected[i]:
        raise GradientShapeError(
            f"{node.name} returned a gradient of dtype {dtype} for its input {i} of dtype {expected[i]}")


def _fit(grad, shape, create_graph):
    """Make a gradient exactly `shape` (for storing in .grad or returning from autograd.grad)."""
    if grad.shape == shape:
        return grad
    if _is_larger(grad.shape, shape):
        return dual.sum_to(grad, shape) if create_graph else sum_to_shape(grad, shape)
    return _expand(grad, shape, create_graph)


def fit_grad(grad, shape, create_graph: bool):
    """A gradient made exactly `shape`: summed where a rule broadcast it, expanded where it is smaller."""
    return _fit(grad, shape, create_graph)


def _accumulates(leaf) -> bool:
    """Whether backward stores a gradient in this leaf: one that requires grad, except a view made under no_grad
    (it requires grad because its base does, but torch gives it no gradient accumulator)."""
    if not leaf.requires_grad:
        return False
    view = getattr(leaf, "_view", None)
    return view is None or not view.grad_dropped


def _collect_dependencies(roots):
    """Count, for every node reachable from `roots`, how many edges point at it (iteratively); leaves are
    counted under id(leaf)."""
    stack = [r for r in roots if isinstance(r, Function)]
    deps = dict.fromkeys(stack, 0)  # a node is in deps once seen: pushed the first time it is reached
    while stack:
        node = stack.pop()
        for nxt in node.next_functions:
            if isinstance(nxt, Function):
                count = deps.get(nxt)
                if count is None:
                    deps[nxt] = 1
                    stack.append(nxt)
                else:
                    deps[nxt] = count + 1
            elif nxt is not None:
                key = id(nxt)
                deps[key] = deps.get(key, 0) + 1
    return deps


def _add(a, b):
    return b if a is None else a + b


class _GraphTask:
    """What a running backward will execute, for torch.autograd.graph.register_multi_grad_hook (torch's
    _current_graph_task_id and _will_engine_execute_node)."""

    __slots__ = ("id", "roots", "deps", "leaf_grads", "needed", "target_leaves", "inputs")
    _ids = itertools.count()

    def __init__(self, roots, deps, leaf_grads, needed, target_leaves, inputs):
        self.id = next(_GraphTask._ids)
        self.roots, self.deps, self.leaf_grads = roots, deps, leaf_grads
        self.needed, self.target_leaves, self.inputs = needed, target_leaves, inputs

    def will_execute(self, tensor) -> bool:
        """Whether this backward runs the node of `tensor` (its grad_fn, or a leaf's gradient accumulator)."""
        if not tensor.requires_grad:
            return False
        if self.inputs is not None and tensor.grad_fn is None:
            raise TorchRuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                                    "autograd.grad(). This is currently not supported.")
        if self.inputs is not None and self.needed is None:  # autograd.grad: only what leads to its inputs
            self.target_leaves = {id(t) for t in self.inputs if t.grad_fn is None}
            self.needed = _needed_nodes(self.roots, {t.grad_fn for t in self.inputs if t.grad_fn is not None},
                                        self.target_leaves)
        node = tensor.grad_fn
        if node is not None:
            return node in self.deps and (self.needed is None or node in self.needed)
        key = id(tensor)
        return (key in self.deps or key in self.leaf_grads) and (self.target_leaves is None
                                                                  or key in self.target_leaves)


GRAPH_TASK: contextvars.ContextVar[_GraphTask | None] = contextvars.ContextVar("gradcli_graph_task", default=None)


def _needed_nodes(roots, target_nodes: set, target_leaves: set) -> set:
    """The nodes a backward restricted to some tensors runs (torch's exec_info): those that lead to one of them,
    and their own nodes."""
    needed: set = set()
    done: set = set()
    stack = [(r, False) for r in dict.fromkeys(roots)]
    while stack:
        node, expanded = stack.pop()
        if node in done:
            continue
        if not expanded:
            stack.append((node, True))
            stack.extend((n, False) for n in node.next_functions if isinstance(n, Function) and n not in done)
            continue
        done.add(node)
        if node in target_nodes or any(n in needed if isinstance(n, Function) else id(n) in target_leaves
                                       for n in node.next_functions if n is not None):
            needed.add(node)
    return needed


def run_backward(outputs, grad_outputs, *, retain_graph: bool, create_graph: bool, inputs=None,
                 accumulate: bool = True, observer=None, only=None):
    """Backpropagate `grad_outputs` from `outputs`.

    With ``accumulate`` the leaves' ``.grad`` (and retained non-leaf grads) are updated, as
    ``Tensor.backward`` does; otherwise the gradients of `inputs` are returned, as ``autograd.grad`` does.
    ``observer(node, grad)``, if given, sees the summed gradient flowing into each node (`gradcli explain`).
    ``only`` (backward's `inputs=`): the tensors whose .grad is accumulated; the nodes that lead to none of
    them do not run.
    """
    leaf_grads = {}  # id(leaf) -> [leaf, summed grad]
    node_grads = {}
    roots = []
    for out, g in zip(outputs, grad_outputs):
        node = out.grad_fn
        if node is None:
            entry = leaf_grads.setdefault(id(out), [out, None])
            entry[1] = _add(entry[1], g)
        else:
            node_grads[node] = _add(node_grads.get(node), g)
            roots.append(node)

    capture_nodes = {}
    if inputs is not None:
        for t in inputs:
            if t.grad_fn is not None:
                capture_nodes[t.grad_fn] = None

    deps = _collect_dependencies(roots)
    if FORWARD_OVER_REVERSE[0] is not None:
        FORWARD_OVER_REVERSE[0](deps)
    needed = target_leaves = None
    if only is not None:
        target_leaves = {id(t) for t in only if t.grad_fn is None}
        needed = _needed_nodes(roots, {t.grad_fn for t in only if t.grad_fn is not None}, target_leaves)
    task = GRAPH_TASK.set(_GraphTask(roots, deps, leaf_grads, needed, target_leaves,
                                     None if accumulate else inputs))
    try:
        return _run_graph(roots, deps, leaf_grads, node_grads, needed, target_leaves, capture_nodes, retain_graph,
                          create_graph, inputs, accumulate, observer)
    finally:
        GRAPH_TASK.reset(task)


def _run_graph(roots, deps, leaf_grads, node_grads, needed, target_leaves, capture_nodes, retain_graph,
               create_graph, inputs, accumulate, observer):
    check_dtypes = _CHECK_DTYPES[0]
    tick = itertools.count()  # ties (the _FIRST entries) in the order they became ready
    ready = [(_FIRST if n.runs_first else n.seq, next(tick), n) for n in dict.fromkeys(roots)
             if deps.get(n, 0) == 0]
    heapq.heapify(ready)
    given = set()  # gradient arrays already stored in some .grad (see _accumulate_into)
    prev_mode = GradMode.enabled
    GradMode.enabled = create_graph
    errstate = np.errstate(all="ignore")  # torch computes inf/nan silently; so do the rules
    errstate.__enter__()
    hooks = TENSOR_HOOKS  # the registry itself (never rebound): empty unless some tensor has hooks
    watched = observer is not None or bool(capture_nodes)
    try:
        pending = None  # the one node that became ready when nothing else was (a chain): no heap needed
        while pending is not None or ready:
            if pending is not None:
                node, pending = pending, None
            else:
                node = heapq.heappop(ready)[2]
            if type(node) is int:  # a leaf whose gradient is complete
                leaf, total = leaf_grads.pop(node)
                if target_leaves is not None and node not in target_leaves:
                    continue  # not among backward's inputs=: its AccumulateGrad does not run
                seen = given
                if hooks and total is not None and hooks_of(leaf):
                    total = run_tensor_hooks(hooks_of(leaf), total)
                    seen = None  # a hook may keep the tensor it saw: .grad gets its own copy, as torch's
                if _accumulates(leaf):
                    _accumulate_into(leaf, total, create_graph, seen)
                    if POST_ACCUMULATE_HOOKS:
                        _run_post_accumulate_hooks(leaf, create_graph)
                continue
            grad = node_grads.pop(node, None)
            if needed is not None and node not in needed:
                continue  # leads to none of backward's inputs=: torch does not run it
            if grad is not None:
                if hooks:  # hooks registered on the node's output tensor
                    grad = run_tensor_hooks(hooks_of(node), grad)
                if watched:
                    if observer is not None:
                        observer(node, grad)
                    if node in capture_nodes:
                        capture_nodes[node] = grad
                if node.retained is not None and accumulate:
                    tensor = node.retained()
                    if tensor is not None:
                        _accumulate_into(tensor, grad, create_graph, given=None)
                if grad.shape != node.out_shape:
                    raise GradientShapeError(
                        f"{node.name} was handed a gradient of shape {tuple(grad.shape)} for its output of "
                        f"shape {tuple(node.out_shape)}")
                # (a broadcast scalar is a view: `base` first, which costs no tuple, unlike `strides`)
                if node.uniform_grad_ok and type(grad) is np.ndarray and grad.base is not None and grad.ndim \
                        and grad.strides[-1] == 0 and grad.size and not any(grad.strides) and _all_inputs_full(node):
                    grad = np.array(grad.flat[0], dtype=grad.dtype)  # a broadcast scalar: hand the scalar
                if node.saved or node.saves_output:
                    in_grads = node.backward(node, grad, *node._saved_values(create_graph))
                elif node.released:
                    raise TorchRuntimeError(SECOND_BACKWARD)
                else:
                    in_grads = node.backward(node, grad)
                if NODE_HOOKS and node_hooks(node):
                    in_grads = _run_node_hooks(node, in_grads, grad, create_graph)
                if not retain_graph:
                    node._release()
            else:
                in_grads = None
            first = None  # the first node this one made ready; pushed only if others are waiting too
            in_shapes = node.in_shapes
            cast = node.saved_cast
            i = -1
            for nxt in node.next_functions:
                i += 1
                if nxt is None:
                    continue
                g = None if in_grads is None else in_grads[i]
                if g is not None:
                    if g.shape != in_shapes[i]:
                        g = _edge_grad(node, g, i, create_graph)
                    if cast is not None:
                        g = _cast_edge(g, node.edge_dtypes[i])
                    if check_dtypes:
                        _check_dtype(node, g, i)
                if not isinstance(nxt, Function):  # a leaf, counted under its id
                    key = id(nxt)
                    if g is not None:
                        entry = leaf_grads.setdefault(key, [nxt, None])
                        entry[1] = _add(entry[1], g)
                    left = deps[key] - 1
                    deps[key] = left
                    if left == 0 and accumulate and key in leaf_grads:
                        item = (_FIRST, next(tick), key)
                        if first is None:
                            first = item
                        else:
                            heapq.heappush(ready, item)
                else:
                    if g is not None:
                        previous = node_grads.get(nxt)
                        node_grads[nxt] = g if previous is None else previous + g
                    left = deps[nxt] - 1
                    deps[nxt] = left
                    if left == 0:
                        # creation numbers are unique, so only the _FIRST entries need the tie-breaking tick
                        item = (_FIRST, next(tick), nxt) if nxt.runs_first else (nxt.seq, 0, nxt)
                        if first is None:
                            first = item
                        else:
                            heapq.heappush(ready, item)
            if first is not None:
                if ready:
                    heapq.heappush(ready, first)
                else:
                    pending = first[2]
    finally:
        GradMode.enabled = prev_mode
        errstate.__exit__(None, None, None)

    if accumulate:
        for key, (leaf, g) in leaf_grads.items():  # outputs that are leaves themselves
            if target_leaves is not None and key not in target_leaves:
                continue
            seen = given
            if g is not None and TENSOR_HOOKS and hooks_of(leaf):
                g = run_tensor_hooks(hooks_of(leaf), g)
                seen = None  # a hook may keep the tensor it saw: .grad gets its own copy
            if g is not None and _accumulates(leaf):
                _accumulate_into(leaf, g, create_graph, seen)
                if POST_ACCUMULATE_HOOKS:
                    _run_post_accumulate_hooks(leaf, create_graph)
        return None
    results = []
    for t in inputs:
        if t.grad_fn is not None:
            results.append(capture_nodes.get(t.grad_fn))
        else:
            entry = leaf_grads.get(id(t))
            g = None if entry is None else entry[1]
            if g is not None and TENSOR_HOOKS:
                g = run_tensor_hooks(hooks_of(t), g)
            results.append(g)
    return results


def _dense(a: np.ndarray) -> bool:
    """Whether an array's elements fill its memory without gaps or overlaps (torch's
    is_non_overlapping_and_dense), in some order of its dims."""
    expected = a.itemsize
    for stride, size in sorted((abs(st), sz) for st, sz in zip(a.strides, a.shape) if sz != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def _accumulate_into(tensor, grad, create_graph, given):
    """x.grad += grad, as AccumulateGrad does: in place normally, out of place with create_graph."""
    if isinstance(grad, Tensor):
        if not create_graph:
            grad = grad.array
    elif type(grad) is not np.ndarray:
        grad = np.asarray(grad)  # numpy turns 0-d results into scalars
    if grad.shape != tensor.array.shape:
        grad = _fit(grad, tensor.array.shape, create_graph)
    current = tensor._grad
    if create_graph and isinstance(grad, np.ndarray):
        grad = Tensor._make(grad, None)
    if current is None:
        if isinstance(grad, np.ndarray):
            # Gradient arrays can be shared (AddBackward hands the same array to both inputs) or be
            # read-only broadcast views; a leaf's .grad must be its own, since zero_() writes into it.
            variable = tensor.array
            copy = not grad.flags.writeable or not grad.flags.owndata or given is None or id(grad) in given
            if not variable.flags.c_contiguous and _dense(variable):
                if copy or grad.strides != variable.strides:
                    # torch's gradient layout contract: a dense leaf's .grad has the leaf's strides (a
                    # channels-last or transposed leaf gets a channels-last or transposed .grad)
                    laid_out = np.empty_like(variable, dtype=grad.dtype)
                    laid_out[...] = grad
                    grad = laid_out
            elif copy:
                grad = grad.copy()
            if grad.dtype != tensor.array.dtype:
                grad = grad.astype(tensor.array.dtype)
            if given is not None:
                given.add(id(grad))
            tensor._grad = Tensor._make(grad, None)
        elif create_graph:  # AccumulateGrad's clone_obey_contract: new_empty_strided(...).copy_(new_grad), which
            stored = Tensor._make(np.empty_like(grad.array), None)  # under grad mode is a CopyBackwards node
            prev_mode, GradMode.enabled = GradMode.enabled, True
            try:
                stored.copy_(grad)
            finally:
                GradMode.enabled = prev_mode
            tensor._grad = stored
        else:
            tensor._grad = Tensor._make(grad.array, None)
    elif create_graph:
        tensor._grad = current + grad
    else:
        current.array += grad
        current._version[0] += 1


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """torch.autograd.backward."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    if grad_tensors is None or isinstance(grad_tensors, Tensor):
        grad_tensors = [grad_tensors] * len(tensors) if grad_tensors is None else [grad_tensors]
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:  # backward(inputs=...): only these tensors' .grad is accumulated
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not inputs:
            raise TorchRuntimeError("`inputs` argument to `backward()` cannot be empty.")
    outs, grads = _prepare_roots(tensors, grad_tensors, create_graph)
    if inputs is not None:
        for t in inputs:  # torch's run_backward: a non-leaf input retains its gradient
            if t.grad_fn is not None or not t.requires_grad:
                _tensor_retain_grad(t)
    if create_graph:  # Engine::execute's TORCH_WARN_ONCE, after the roots are validated
        warn(CREATE_GRAPH_WARNING, UserWarning, torch_location=True)
    run_backward(outs, grads, retain_graph=retain_graph, create_graph=create_graph, only=inputs)


CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)")


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None,
         materialize_grads=False):
    """torch.autograd.grad: the gradients of `outputs` with respect to `inputs`, without touching .grad."""
    single_input = isinstance(inputs, Tensor)
    outputs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    inputs = [inputs] if single_input else list(inputs)
    if grad_outputs is None or isinstance(grad_outputs, Tensor):
        grad_outputs = [grad_outputs] * len(outputs) if grad_outputs is None else [grad_outputs]
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in inputs:
        if not t.requires_grad:
            raise TorchRuntimeError("One of the differentiated Tensors does not require grad")
    outs, grads = _prepare_roots(outputs, grad_outputs, create_graph)
    results = run_backward(outs, grads, retain_graph=retain_graph, create_graph=create_graph,
                           inputs=inputs, accumulate=False)
    final = []
    for index, (t, g) in enumerate(zip(inputs, results)):
        if isinstance(g, np.generic):
            g = np.asarray(g)
        if g is None:
            if materialize_grads:
                g = np.zeros_like(t.array)
            elif not allow_unused:
                raise TorchRuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior.")
            else:
                final.append(None)
                continue
        if isinstance(g, np.ndarray):
            if g.shape != t.array.shape:
                g = _fit(g, t.array.shape, False)
            g = Tensor._make(np.array(g, dtype=t.array.dtype), None)
        elif g.shape != t.shape:
            g = _fit(g, t.array.shape, True)
        final.append(g)
    return tuple(final)


def _prepare_roots(tensors, grad_tensors, create_graph):
    outs, grads = [], []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if not t.requires_grad:
            raise TorchRuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if getattr(t.array, "meta_strides", None) is not None:  # engine/meta.py
            raise Unsupported("backward through a meta tensor (its gradients would be meta tensors of the inputs' "
                              "shapes, which gradcli does not build: run the backward pass on CPU tensors)")
        if g is None:
            if t.array.size != 1:
                raise TorchRuntimeError("grad can be implicitly created only for scalar outputs")
            if not t.array.dtype.kind == "f":
                raise TorchRuntimeError(
                    f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
            g = np.ones_like(t.array)
        else:
            if not isinstance(g, Tensor):
                g = Tensor._make(np.asarray(g, dtype=t.array.dtype), None)
            if g.array.shape != t.array.shape:
                raise TorchRuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a shape "
                    f"of {t.shape}.")
            g = g if create_graph else g.array
        if create_graph and isinstance(g, np.ndarray):
            g = Tensor._make(g, None)
        outs.append(t)
        grads.append(g)
    return outs, grads


def retain_node_grad(tensor) -> None:
    """Make backward store the gradient flowing into non-leaf `tensor` in its .grad."""
    tensor.grad_fn.retained = weakref.ref(tensor)


def _tensor_backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
    """Tensor.backward."""
    backward([self], None if gradient is None else [gradient], retain_graph, create_graph, inputs)


def _tensor_retain_grad(self) -> None:
    """Tensor.retain_grad."""
    if not self.requires_grad:
        raise TorchRuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if self.grad_fn is None or self._retains_grad:
        return
    retain_node_grad(self)
    self._retains_grad = True


# Tensor.register_hook: the hooks of a leaf by the tensor, of a non-leaf by the node that made it, each kept
# by id with a weak reference (a tensor's == is elementwise, so it cannot be a dict key itself).
TENSOR_HOOKS: dict[int, tuple] = {}


def hooks_of(obj) -> list:
    entry = TENSOR_HOOKS.get(id(obj))
    if entry is None:
        return []
    if entry[0]() is not obj:  # the id was reused: the tensor or node the hooks belonged to is gone
        del TENSOR_HOOKS[id(obj)]
        return []
    return entry[1]


class RemovableHandle:
    """What register_hook returns: `.remove()` takes the hook out again."""

    __slots__ = ("hooks", "hook", "id")
    _next_id = itertools.count()

    def __init__(self, hooks: list, hook):
        self.hooks, self.hook, self.id = hooks, hook, next(RemovableHandle._next_id)

    def remove(self) -> None:
        for i, (handle_id, _) in enumerate(self.hooks):
            if handle_id == self.id:
                del self.hooks[i]
                return


# grad_fn.register_hook: a node's post-hooks, hook(grad_inputs, grad_outputs) after the node has computed the
# gradients of its inputs (nn.Module.register_backward_hook is one on its output's node), kept like TENSOR_HOOKS.
NODE_HOOKS: dict[int, tuple] = {}


def node_hooks(node) -> list:
    entry = NODE_HOOKS.get(id(node))
    if entry is None:
        return []
    if entry[0]() is not node:
        del NODE_HOOKS[id(node)]
        return []
    return entry[1]


def register_node_hook(node, hook) -> RemovableHandle:
    """Node.register_hook(hook): hook(grad_inputs, grad_outputs) runs after the node's backward; it sees the
    gradients torch's node hands its edges (None where an input needs none) and may return replacements."""
    hooks = node_hooks(node)
    if not hooks:
        NODE_HOOKS[id(node)] = (weakref.ref(node), hooks)
    handle = RemovableHandle(hooks, hook)
    hooks.append((handle.id, hook))
    return handle


def _as_tensor(g):
    return g if isinstance(g, Tensor) else Tensor._make(np.asarray(g), None)


def _run_node_hooks(node, in_grads, grad, create_graph):
    """The node's post-hooks over its inputs' gradients, fitted to each input as torch's validate_outputs
    fits them before the hooks run: (gradient or None per torch edge), (the output's gradient,)."""
    edges = type(node).torch_edges or range(len(node.next_functions))
    fitted = list(in_grads) if in_grads is not None else [None] * len(node.next_functions)
    for i in edges:
        g = fitted[i] if node.next_functions[i] is not None else None
        if g is not None:
            if g.shape != node.in_shapes[i]:
                g = _edge_grad(node, g, i, create_graph)
            if node.saved_cast is not None:
                g = _cast_edge(g, node.edge_dtypes[i])
        fitted[i] = g
    if grad.shape != node.out_shape:
        grad = np.broadcast_to(grad.array if isinstance(grad, Tensor) else grad, node.out_shape)
    grad_outputs = (_as_tensor(grad),)
    for _, hook in list(node_hooks(node)):
        grad_inputs = tuple(None if fitted[i] is None else _as_tensor(fitted[i]) for i in edges)
        result = hook(grad_inputs, grad_outputs)
        if result is None:
            continue
        result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        if len(result) != len(grad_inputs):
            raise TorchRuntimeError(f"hook '{getattr(hook, 'name', 'hook')}' has returned an incorrect number of "
                                    f"values (got {len(result)}, but expected {len(grad_inputs)})")
        for i, value in zip(edges, result):
            if value is None:
                fitted[i] = None
            elif not isinstance(value, Tensor):
                raise TorchTypeError(f"expected Variable or None (got {type(value).__name__})")
            else:
                fitted[i] = value if create_graph else value.array
    return fitted


def run_tensor_hooks(hooks: list, grad):
    """Each hook sees the gradient as a tensor and may return a replacement of the same shape (torch's check)."""
    for _, hook in list(hooks or ()):
        as_tensor = grad if isinstance(grad, Tensor) else Tensor._make(np.asarray(grad), None)
        result = hook(as_tensor)
        if result is None:
            continue
        if not isinstance(result, Tensor):
            raise TorchRuntimeError(f"expected Tensor or None as the result of the hook, but got "
                                    f"{type(result).__name__}")
        if tuple(result.shape) != tuple(as_tensor.shape):
            raise TorchRuntimeError(f"hook '{getattr(hook, 'name', 'hook').split('.')[-1]}' has changed the size of "
                                    f"value")
        grad = result if isinstance(grad, Tensor) else result.array
    return grad


def _tensor_register_hook(self, hook) -> RemovableHandle:
    """Tensor.register_hook(hook): hook(grad) runs when the tensor's gradient is computed (before it reaches
    .grad, the next nodes or autograd.grad's result) and may return a replacement."""
    if not self.requires_grad:
        raise TorchRuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    key = self.grad_fn if self.grad_fn is not None else self
    hooks = hooks_of(key)
    if not hooks:
        TENSOR_HOOKS[id(key)] = (weakref.ref(key), hooks)
    handle = RemovableHandle(hooks, hook)
    hooks.append((handle.id, hook))
    return handle


# Tensor.register_post_accumulate_grad_hook's hooks, by the leaf's id (with a weak reference, as TENSOR_HOOKS)
POST_ACCUMULATE_HOOKS: dict[int, tuple] = {}


def _run_post_accumulate_hooks(leaf, create_graph: bool) -> None:
    entry = POST_ACCUMULATE_HOOKS.get(id(leaf))
    if entry is not None and entry[0]() is leaf:
        prev_mode, GradMode.enabled = GradMode.enabled, create_graph  # the backward's grad mode, as torch's engine
        try:
            for _, hook in list(entry[1]):
                result = hook(leaf)
                if result is None or result is leaf:  # torch accepts the tensor itself back (p.sub_(...))
                    continue
                if not isinstance(result, Tensor):
                    raise TorchTypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
                raise TorchRuntimeError("Tensor post accumulate grad hooks should return None.")
        finally:
            GradMode.enabled = prev_mode


def _tensor_register_post_accumulate_grad_hook(self, hook) -> RemovableHandle:
    """Tensor.register_post_accumulate_grad_hook(hook): hook(tensor) runs after backward has accumulated the
    leaf's gradient into .grad (under the backward's grad mode: off unless create_graph)."""
    if not self.requires_grad:
        raise TorchRuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self.grad_fn is not None:
        raise TorchRuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    entry = POST_ACCUMULATE_HOOKS.get(id(self))
    if entry is None or entry[0]() is not self:
        entry = POST_ACCUMULATE_HOOKS[id(self)] = (weakref.ref(self), [])
    handle = RemovableHandle(entry[1], hook)
    entry[1].append((handle.id, hook))
    return handle


# The graph's methods of Tensor live with the graph (tensor.py knows arrays, not graphs), as the op registry
# adds the ops' methods.
Tensor.backward = _tensor_backward
Tensor.register_hook = _tensor_register_hook
Tensor.register_post_accumulate_grad_hook = _tensor_register_post_accumulate_grad_hook
Tensor.retain_grad = _tensor_retain_grad


class MultiHandle:
    """What register_multi_grad_hook returns: `.remove()` takes its hook off every tensor."""

    __slots__ = ("handles",)

    def __init__(self, handles: tuple):
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """torch.autograd.graph.register_multi_grad_hook, as torch/autograd/graph.py writes it: mode "all" calls
    fn(grads) once per backward, after the gradients of every tensor that backward computes (None for the
    others, as the graph task's execution info says); mode "any" calls fn(grad) with the first one only."""
    if mode not in ("all", "any"):
        raise TorchValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    if mode == "all":
        if any(not t.requires_grad for t in tensors):  # torch's _get_grad_fn_or_grad_acc finds no node
            raise AssertionError("Expected gradient function to be set")
        count: dict = {}
        buffer: dict = {}
        expected: dict = {}

        def inner_hook(idx):
            def hook(grad):
                task = GRAPH_TASK.get()
                key = task.id
                if key not in count:
                    count[key], buffer[key] = 0, [None] * len(tensors)
                current = count[key]
                count[key] = current + 1
                if current == 0:  # on the first call, how many calls this backward makes
                    expected[key] = sum(task.will_execute(t) for t in tensors)
                buffer[key][idx] = grad
                if current == expected[key] - 1:
                    grads = buffer.pop(key)
                    del count[key], expected[key]
                    fn(grads)
            return hook

        return MultiHandle(tuple(t.register_hook(inner_hook(i)) for i, t in enumerate(tensors) if t.requires_grad))
    ran: set = set()

    def wrapped(grad):
        key = GRAPH_TASK.get().id
        if key in ran:
            return
        ran.add(key)
        fn(grad)

    return MultiHandle(tuple(t.register_hook(wrapped) for t in tensors if t.requires_grad))
