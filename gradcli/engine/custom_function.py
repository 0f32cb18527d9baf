"""torch.autograd.Function subclasses written by a program: `F.apply(...)` runs the program's static
forward(ctx, ...) under no_grad and records a graph node named `<F>Backward` whose backward calls the
program's backward(ctx, *grad_outputs) with Tensors, as PyTorch's PyNode does.

The engine's nodes have one output each.  A forward returning several tensors gets one node per
differentiable output, all feeding one joint node that waits for every output's gradient (the engine's
dependency count does the waiting) and then calls the program's backward once with all of them: each
output node hands the joint node its gradient in its own slot of a packed vector, so the sum the engine
forms is the packing.
"""

from __future__ import annotations

import numpy as np

from gradcli.engine import dtypes, dual, forward_ad
from gradcli.engine.autograd import SECOND_BACKWARD, Function, GradMode, next_sequence, no_grad, type_name
from gradcli.engine.dual import sum_to_shape
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, TorchTypeError
from gradcli.engine.ops import REGISTRY
from gradcli.engine.ops.views import IN_CUSTOM_FUNCTION
from gradcli.engine.tensor import Tensor


class FunctionCtx:
    """The `ctx` a program's forward and backward receive: save_for_backward / saved_tensors,
    needs_input_grad, mark_non_differentiable, mark_dirty, set_materialize_grads, and any attribute the
    program sets on it (kept in `attributes`)."""

    METHODS = frozenset({"save_for_backward", "saved_tensors", "needs_input_grad", "mark_non_differentiable",
                         "mark_dirty", "set_materialize_grads", "save_for_forward"})

    def __init__(self, function_name: str):
        self.function_name = function_name
        self.attributes: dict = {}
        self.to_save: tuple = ()
        self.saved_versions: tuple = ()
        self.non_differentiable: set = set()
        self.dirty: set = set()
        self.materialize_grads = True
        self.needs_input_grad: tuple = ()
        self.released = False
        self.in_forward = True
        self.in_jvp = False
        self.for_forward: tuple = ()

    def save_for_backward(self, *tensors) -> None:
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TorchTypeError("save_for_backward can only save variables, but argument "
                                     f"{tensors.index(t)} is of type {type(t).__name__}")
        self.to_save = tensors
        self.saved_versions = tuple(t._version[0] if isinstance(t, Tensor) else 0 for t in tensors)

    def save_for_forward(self, *tensors) -> None:
        self.for_forward = tensors  # what ctx.saved_tensors gives the jvp

    @property
    def saved_tensors(self) -> tuple:
        if self.in_jvp:
            return tuple(self.for_forward)
        if self.released:
            raise TorchRuntimeError(SECOND_BACKWARD)
        for t, version in zip(self.to_save, self.saved_versions):
            if isinstance(t, Tensor) and t._version[0] != version and not self.in_forward:
                producer = t.grad_fn.name if t.grad_fn is not None else None
                which = f", which is output 0 of {producer.replace('Backward0', '').replace('Backward', '')}," \
                    if producer else ""
                raise TorchRuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{type_name(t)} [{', '.join(map(str, t.array.shape))}]]{which} is at version "
                    f"{t._version[0]}; expected version {version} instead. Hint: enable anomaly detection to find "
                    "the operation that failed to compute its gradient, with "
                    "torch.autograd.set_detect_anomaly(True, check_nan=False).")
        return tuple(self.to_save)

    def mark_non_differentiable(self, *tensors) -> None:
        self.non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors) -> None:
        self.dirty.update(id(t) for t in tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)


class CustomBackward(Function):
    """The node of one application of a program's Function (the joint node when it has several outputs).
    `call_backward(ctx, *grads)` is the program's backward, bound by the caller."""

    __slots__ = ("name", "ctx", "call_backward", "input_shapes", "outputs")

    @staticmethod
    def forward(ctx, *arrays):  # pragma: no cover - never applied through Function.apply
        raise NotImplementedError

    @staticmethod
    def backward(node, grad, *saved):
        grads = _unpack(node, grad)
        create_graph = GradMode.enabled  # the engine turns grad mode on exactly when create_graph
        wrapped = [Tensor._make(np.asarray(g), None) if type(g) is not Tensor else g for g in grads]
        node.ctx.in_forward = False
        results = node.call_backward(node.ctx, *wrapped)
        if not isinstance(results, tuple):
            results = (results,)
        expected = len(node.input_shapes)
        if len(results) > expected and all(r is None for r in results[expected:]):
            results = results[:expected]
        if len(results) != expected:
            raise TorchRuntimeError(f"function {node.name} returned an incorrect number of gradients (expected "
                                    f"{expected}, got {len(results)})")
        out = []
        for i, (result, shape, needed) in enumerate(zip(results, node.input_shapes, node.needs_input_grad)):
            if result is None or not needed:
                out.append(None)
                continue
            if not isinstance(result, Tensor):
                raise TorchTypeError(f"function {node.name} returned a gradient different than None at position "
                                     f"{i + 1}, but the corresponding forward input was not a Variable")
            value = result if create_graph else result.array
            if tuple(result.array.shape) != tuple(shape):
                if not _expandable(shape, result.array.shape):
                    raise TorchRuntimeError(
                        f"Function {node.name} returned an invalid gradient at index {i} - got "
                        f"[{', '.join(map(str, result.array.shape))}] but expected shape compatible with "
                        f"[{', '.join(map(str, shape))}]")
                value = dual.sum_to(result, shape) if create_graph else sum_to_shape(result.array, shape)
            out.append(value)
        return tuple(out)

    def _release(self):
        self.ctx.released = True
        self.ctx.to_save = ()

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self.name} object at {id(self):#x}>"


class OutputSlot(Function):
    """Output k of a Function with several differentiable outputs: hands its gradient to the joint node in
    slot k of a packed vector."""

    __slots__ = ("name", "offset", "size", "total")

    @staticmethod
    def forward(ctx, *arrays):  # pragma: no cover - never applied through Function.apply
        raise NotImplementedError

    @staticmethod
    def backward(node, grad, *saved):
        if type(grad) is Tensor:  # create_graph: packed with differentiable ops, so the graph survives
            pieces = [grad.reshape(-1)]
            if node.offset:
                pieces.insert(0, Tensor._make(np.zeros(node.offset, dtype=grad.array.dtype), None))
            rest = node.total - node.offset - node.size
            if rest:
                pieces.append(Tensor._make(np.zeros(rest, dtype=grad.array.dtype), None))
            return (REGISTRY["cat"].fn(pieces) if len(pieces) > 1 else pieces[0],)
        flat = grad.reshape(-1)
        packed = np.zeros(node.total, dtype=np.float64)
        packed[node.offset:node.offset + node.size] = flat
        return (packed,)

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self.name} object at {id(self):#x}>"


def _unpack(node: CustomBackward, grad) -> list:
    """The joint node's packed gradient back into one gradient per forward output."""
    if node.outputs is None:
        return [grad]
    if type(grad) is Tensor:  # create_graph: sliced with differentiable ops
        grads, offset = [], 0
        for shape, dtype, differentiable in node.outputs:
            size = int(np.prod(shape))
            if differentiable:
                piece = grad[offset:offset + size].reshape(shape)
                if piece.array.dtype != dtype:
                    piece = piece.to(dtypes.by_name(np.dtype(dtype).name))
                grads.append(piece)
                offset += size
            else:
                grads.append(np.zeros(shape, dtype=dtype))
        return grads
    array = np.asarray(grad)
    grads, offset = [], 0
    for shape, dtype, differentiable in node.outputs:
        size = int(np.prod(shape))
        if differentiable:
            grads.append(array[offset:offset + size].reshape(shape).astype(dtype))
            offset += size
        else:
            grads.append(np.zeros(shape, dtype=dtype))
    return grads


def _expandable(shape, grad_shape) -> bool:
    """Whether `shape` broadcasts to `grad_shape` (torch then sums the gradient down to `shape`)."""
    if len(shape) > len(grad_shape):
        return False
    return all(s == g or s == 1 for s, g in zip(reversed(shape), reversed(grad_shape)))


def apply(name: str, call_forward, call_backward, args: tuple, kwargs: dict, setup_context=None, call_jvp=None):
    """Function.apply for a program's Function named `name`.

    `call_forward(ctx, *args, **kwargs)` (or `call_forward(*args, **kwargs)` then
    `setup_context(ctx, args, output)` for the newer style) and `call_backward(ctx, *grads)` run the
    program's own methods; `call_jvp(ctx, *tangents)` (None: the class has no jvp) gives the outputs' tangents
    under forward-mode AD, the forward itself running with forward grad off, as torch runs it."""
    if kwargs:
        raise TorchTypeError(f"{name}.apply() takes no keyword arguments")  # torch's apply is positional only
    ctx = FunctionCtx(name + "Backward")
    needs = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
    ctx.needs_input_grad = needs
    tangents = None
    if forward_ad.LEVEL.get() is not None and forward_ad.ENABLED.get():
        found = [forward_ad.tangent_of(a) if isinstance(a, Tensor) else None for a in args]
        if any(t is not None for t in found):
            tangents = found
    with no_grad(), forward_ad.fw_grad_disabled():
        if setup_context is None:
            output = call_forward(ctx, *args)
        else:
            output = call_forward(*args)
            setup_context(ctx, args, output)
    ctx.in_forward = False
    tracking = GradMode.enabled and any(needs)
    outputs = output if isinstance(output, tuple) else (output,)
    results = []
    differentiable = []
    for value in outputs:
        if isinstance(value, Tensor):
            fresh = value
            if any(value is a for a in args):
                with no_grad():
                    fresh = value[...]  # an input returned as-is: a view of it (same storage and version counter)
            is_diff = tracking and id(value) not in ctx.non_differentiable and value.array.dtype.kind in "fc"
            view = getattr(fresh, "_view", None)
            if is_diff and view is not None:
                # torch forbids modifying it in place: CopySlices would bypass the program's backward
                view.creation = IN_CUSTOM_FUNCTION
            results.append(fresh)
            differentiable.append(is_diff)
        else:
            results.append(value)
            differentiable.append(False)
    if tangents is not None:  # on the results: an input returned as-is keeps its own tangent
        _forward_tangents(name, ctx, call_jvp, args, tangents, tuple(results))
    if not tracking or not any(differentiable):
        return tuple(results) if isinstance(output, tuple) else results[0]

    node = object.__new__(CustomBackward)
    node.name = name + "Backward"
    node.ctx = ctx
    node.call_backward = call_backward
    node.aux = None
    node.input_shapes = tuple(a.array.shape if isinstance(a, Tensor) else () for a in args)
    node.needs_input_grad = needs
    node.next_functions = tuple((a.grad_fn or a) if n else None for a, n in zip(args, needs))
    node.in_shapes = node.input_shapes
    node.saved = node.versions = ()
    node.saved_cast = None
    node.released = False
    node.retained = None
    node.out = None
    node.seq = next_sequence()
    if tangents is not None:
        node.fw_level = forward_ad.LEVEL.get()
    tensor_outputs = [(i, r) for i, r in enumerate(results) if isinstance(r, Tensor)]
    if len(outputs) == 1 or sum(differentiable) == 1 and len(tensor_outputs) == 1:
        node.outputs = None
        index = differentiable.index(True)
        node.out_shape = results[index].array.shape
        _attach(results[index], node)
    else:
        layout = [(r.array.shape, r.array.dtype, d) for r, d in zip(results, differentiable) if isinstance(r, Tensor)]
        node.outputs = layout
        total = sum(int(np.prod(shape)) for shape, _, d in layout if d)
        node.out_shape = (total,)
        offset = 0
        for value, is_diff in zip(results, differentiable):
            if not is_diff:
                continue
            slot = object.__new__(OutputSlot)
            slot.name = node.name
            slot.offset, slot.size, slot.total = offset, value.array.size, total
            offset += value.array.size
            slot.aux = None
            slot.needs_input_grad = (True,)
            slot.next_functions = (node,)
            slot.in_shapes = ((total,),)
            slot.out_shape = value.array.shape
            slot.saved = slot.versions = ()
            slot.saved_cast = None
            slot.released = False
            slot.retained = None
            slot.out = None
            slot.seq = next_sequence()
            _attach(value, slot)
    return tuple(results) if isinstance(output, tuple) else results[0]


def _forward_tangents(name: str, ctx, call_jvp, args, tangents, output) -> None:
    """The program's jvp(ctx, *input tangents) (zeros for a tensor input without one, None for the others), its
    results set as the outputs' tangents."""
    if call_jvp is None:
        raise TorchNotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                       "with forward mode AD.")
    given = []
    for a, t in zip(args, tangents):
        if t is None and isinstance(a, Tensor) and a.array.dtype.kind in "fc":
            t = Tensor._make(np.zeros_like(a.array), None)
        given.append(t)
    ctx.in_jvp = True
    try:
        with forward_ad.fw_grad_disabled():  # grad mode as the caller's: the tangent records its history, as torch's
            result = call_jvp(ctx, *given)
    finally:
        ctx.in_jvp = False
    outputs = output
    results = result if isinstance(result, tuple) else (result,)
    if len(results) != len(outputs):
        raise TorchRuntimeError(f"{name}.jvp returned {len(results)} tangents for {len(outputs)} outputs")
    for out, tangent in zip(outputs, results):
        if isinstance(out, Tensor) and isinstance(tangent, Tensor) and out.array.dtype.kind in "fc":
            if tangent.array.shape != out.array.shape:
                raise TorchRuntimeError(
                    "Trying to set a forward gradient that has a different size than that of the original Tensor, "
                    f"this is not supported. Tensor is of size [{', '.join(map(str, out.array.shape))}] while the "
                    f"given forward gradient is of size [{', '.join(map(str, tangent.array.shape))}].")
            forward_ad.set_tangent(out, tangent)


def _attach(tensor: Tensor, node: Function) -> None:
    tensor.grad_fn = node
    tensor.requires_grad = True
