"""In-place ops (add_, mul_, zero_, copy_, x[i] = v, ..., and augmented assignment) with PyTorch's autograd rules.

- A leaf that requires grad cannot be modified in place while grad mode is on, nor can its memory through a view.
- A non-leaf gets the op appended to its history: the op's node differentiates the old value with the old history.
- An in-place op on a view (x[0], x.t(), x.view(4) ..., see views.py) rewrites the history of the view's base, as
  torch's rebase_history does: the base's grad_fn becomes `CopySlices`, which hands the base's old history the
  incoming gradient with the view's region replaced by what the op's own rule gives for the view's old value, and
  hands the op's other inputs their gradients.
- After any in-place write, every live view of the base gets a new grad_fn, `AsStridedBackward0` (its region of the
  base's current history), as torch regenerates a view's grad_fn once the version counter it shares with its base
  has moved; a view torch forbids modifying (made under no_grad, or one output of unbind/split/chunk) gets instead
  a node that raises torch's error when the view is used in a graph.
- Every write bumps the version counter shared by a base and its views, so a backward that needs an old value fails
  with PyTorch's error instead of silently using the new one.

CopySlices and AsStridedBackward0 are built from differentiable ops on Tensors under create_graph, so second
derivatives flow through them.
"""

from __future__ import annotations

import weakref

import numpy as np

from gradcli.engine import dual
from gradcli.engine import tangents as forward_ad
from gradcli.engine.autograd import (
    FORWARD_AD,
    LINEAR,
    EdgeChecks,
    Function,
    GradMode,
    fit_grad,
    modified_output_message,
    next_sequence,
    short_name,
)
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError
from gradcli.engine.ops import arith
from gradcli.engine.ops.common import dtype_title, val
from gradcli.engine.ops.elementwise import clamp
from gradcli.engine.ops.rearrange import index_add, scatter, scatter_add
from gradcli.engine.ops.registry import REGISTRY, register
from gradcli.engine.ops.shape import expand, getitem, index_put_zeros, normalise_key, to_index
from gradcli.engine.ops.tensor_methods import masked_fill
from gradcli.engine.ops.views import DEFAULT, FRESH, IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, NO_GRAD_MODE, live_views
from gradcli.engine.state import INFERENCE
from gradcli.engine.tensor import INFERENCE_TENSOR_INPLACE, InferenceVersion, Tensor

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
MULTI_OUTPUT_HINT = (
    " This view is the output of a function that returns multiple views. Such functions do not allow the output "
    "views to be modified inplace. You should replace the inplace operation by an out-of-place one.")
NO_GRAD_HINT = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
    "both the view and the inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).")
CUSTOM_FUNCTION_HINT = (
    " This view was created inside a custom Function (or because an input was returned as-is) and the autograd "
    "logic to handle view+inplace would override the custom backward associated with the custom Function, leading "
    "to incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom "
    "Function.")


def apply_inplace(self: Tensor, compute, saves_result: bool = True) -> Tensor:
    """Replace `self`'s value by ``compute(self)`` in place, keeping autograd history consistent.

    A node that saves its output saves the result, so a later change of `self` fails its backward, unless
    `saves_result` is False (torch's in-place form of that op saves a copy of the input instead)."""
    if type(self._version) is InferenceVersion and not INFERENCE.get():
        raise TorchRuntimeError(INFERENCE_TENSOR_INPLACE)
    tracking = GradMode.enabled
    view = getattr(self, "_view", None)
    requires_grad = self.requires_grad
    if tracking and requires_grad:
        check_inplace(self, view)
    source = self
    dual_level = FORWARD_AD[0] is not None and forward_ad.LEVEL.get()
    old_tangent = forward_ad.tangent_of(self) if dual_level is not None else None
    if tracking and requires_grad:
        # The new node differentiates the old value with the old history, as PyTorch's in-place ops save
        # the original self: compute on a snapshot, so the write below does not invalidate the node's own
        # saved input (y.clone().clamp_(min=0) must backpropagate), while nodes that saved `self` earlier
        # still see its version change.
        source = Tensor._make(self.array.copy(), self.grad_fn)
        if old_tangent is not None:
            forward_ad.set_tangent(source, old_tangent)  # the op's forward formula sees self's tangent
    result = compute(source)
    node = result.grad_fn
    if tracking and node is not None and not requires_grad and view is not None:
        check_inplace(self, view)  # another input requires grad: the view's base is about to
    if tracking and node is not None and source is self and any(s is self for s in node.saved):
        # self is a constant here (it does not require grad): the node keeps a copy of its old value
        old = Tensor._make(self.array.copy(), None)
        node.saved = tuple(old if s is self else s for s in node.saved)
        node.versions = tuple(0 if s is old else v for s, v in zip(node.saved, node.versions))
    new = result.array
    if new.dtype != self.array.dtype and new.dtype.kind == "f" and self.array.dtype.kind in "iub":
        raise TorchRuntimeError(
            f"result type {dtype_title(new.dtype)} can't be cast to the desired output type "
            f"{dtype_title(self.array.dtype)}")
    if new.shape != self.array.shape:
        try:
            new = np.broadcast_to(new, self.array.shape)
        except ValueError:
            raise TorchRuntimeError(
                f"output with shape [{', '.join(map(str, self.array.shape))}] doesn't match the broadcast shape "
                f"[{', '.join(map(str, new.shape))}]") from None
    array = self.array
    if array.size and (not array.flags.writeable
                       or any(stride == 0 and size > 1 for stride, size in zip(array.strides, array.shape))):
        # torch's internal-overlap check: an expanded dim would write one element several times
        raise TorchRuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")
    self.array[...] = new
    self._version[0] += 1
    if dual_level is not None and result is not self:
        _write_tangent(self, view, old_tangent, forward_ad.tangent_of(result))
    copy = None
    if tracking and node is not None:
        if view is None:
            _set_history(self, node)  # self's history now ends in the new node (whose inputs are self's old history)
        else:
            copy = _rebase_view(view, node)
        if node.saves_output and node.out is not None and saves_result:
            # self is now that node's output: a later in-place edit of self must invalidate it (exp_().abs_())
            node.out_version, node.out_base = self._version, self._version[0]
    # torch reads the modified view's grad_fn when it records the op (rebase_history), not under no_grad
    refresh_views(self if view is None else view.base, modified=self if copy is not None else None)
    if copy is not None and node.saves_output:
        # torch saves the view as the op's output with a weak reference to the view's grad_fn of this moment
        copy.aux = (*copy.aux[:2], weakref.ref(self.grad_fn))
    return self


def _write_tangent(self: Tensor, view, old, new) -> None:
    """Forward-mode AD of an in-place op: the result's tangent written into self's, in place (as torch's
    self_t.copy_(...)), so the tangent object a program holds and the tangents of self's views see it.  A tensor
    without one gets one: zeros for the base of a view, with the view's region of it set."""
    if new is None:
        if old is not None:  # a result without a tangent from a dual self: an op that bypassed its formula
            raise forward_ad.NoForwardFormula("the in-place op")
        return
    if old is not None:
        old.array[...] = new.array
        return
    if view is None:
        forward_ad.set_tangent(self, Tensor._make(new.array.copy(), None))
        return
    base = view.base
    base_tangent = forward_ad.tangent_of(base)
    if base_tangent is None:
        base_tangent = Tensor._make(np.zeros_like(base.array), None)
        forward_ad.set_tangent(base, base_tangent)
    region = base_tangent.array
    for cls, params in view.chain:
        region = cls.replay(region, *params)
    region[...] = new.array
    forward_ad.set_tangent(self, Tensor._make(region, None))


def check_inplace(self: Tensor, view) -> None:
    """torch's check_inplace, for an in-place op that records a node: the views it forbids, then the leaves."""
    grad_fn = self.grad_fn
    if view is not None:
        if view.creation != DEFAULT:
            raise TorchRuntimeError(view_message(self, view, indirect=False))
        if self.requires_grad and view.base.grad_fn is None:
            raise TorchRuntimeError("a view of " + LEAF_INPLACE)
        if view.held is not FRESH:
            # torch reads the view's grad_fn as it stands: one made before its base required grad and not used
            # since the base took a history through an in-place op still has none, so it is a leaf to torch
            grad_fn = view.held
    if self.requires_grad and grad_fn is None:
        raise TorchRuntimeError(LEAF_INPLACE)


def view_message(tensor: Tensor, view, indirect: bool) -> str:
    """torch's handle_view_on_rebase: why this view may not be (or no longer be) modified in place."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    grad_fn = tensor.grad_fn
    if isinstance(grad_fn, InvalidView):
        grad_fn = grad_fn.aux[1]
    if view.creation == NO_GRAD_MODE or grad_fn is None:
        prefix = (f"Output {view.output_nr} of {short_name(grad_fn.name)} is a view of a view which was created in"
                  if grad_fn is not None else "A view was created in")
        message = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        message = f"Output {view.output_nr} of {short_name(grad_fn.name)} is a view and {modified} modified inplace."
    if view.creation == MULTI_OUTPUT_NODE:
        return message + MULTI_OUTPUT_HINT
    if view.creation == NO_GRAD_MODE:
        return message + NO_GRAD_HINT
    if view.creation == IN_CUSTOM_FUNCTION:
        return message + CUSTOM_FUNCTION_HINT
    return message


def _set_history(tensor: Tensor, node: Function) -> None:
    """`tensor`'s history now ends in `node`; a retained gradient follows it (torch moves the retains_grad hook)."""
    old = tensor.grad_fn
    tensor.grad_fn = node
    tensor.requires_grad = True
    if tensor._retains_grad and old is not None:
        old.retained = None
        node.retained = weakref.ref(tensor)


def _make_node(cls, next_functions: tuple, needs: tuple, in_shapes: tuple, out_shape: tuple, aux, in_dtypes):
    """A graph node recorded without a forward (the value already exists), as Function.apply would fill it."""
    node = object.__new__(cls)
    node.next_functions = next_functions
    node.needs_input_grad = needs
    node.in_shapes = in_shapes
    node.out_shape = out_shape
    node.saved = node.versions = ()
    node.saved_cast = None
    node.out = None
    node.aux = aux
    node.released = False
    node.retained = None
    node.seq = next_sequence()
    if EdgeChecks.enabled:
        node.in_dtypes = in_dtypes
    return node


def _base_edge(base: Tensor):
    return (base.grad_fn or base) if base.requires_grad else None


class CopySlices(Function):
    """The history of a base one of whose views was modified in place by the node `fn` (torch's CopySlices).

    Input 0 is the base's old history, inputs 1... are fn's other inputs.  The gradient of the base's old value
    is the incoming gradient with the view's region replaced by fn's gradient for the view's old value (zero
    where fn overwrote it); fn's other inputs get fn's gradients for the region."""

    __slots__ = ()
    name = "CopySlices"

    @staticmethod
    def backward(ctx, g):
        region, fn = ctx.aux[:2]
        index = region.index()
        create_graph = isinstance(g, Tensor)
        if fn.saves_output and not fn.released and fn.out_version[0] != fn.out_base:
            # fn saved the view it wrote: torch names the view's grad_fn of that moment (AsStridedBackward0) while
            # that node lives, else fn itself
            alive = len(ctx.aux) > 2 and ctx.aux[2]() is not None
            raise TorchRuntimeError(modified_output_message(fn, AsStrided.name if alive else fn.name))
        saved = fn._saved_values(create_graph)
        part = getitem(dual.reshape(g, (-1,)), index) if create_graph else np.ravel(g)[index]
        grads = fn.backward(fn, part, *saved)
        base_grad = None
        if ctx.needs_input_grad[0]:
            old = grads[0] if fn.needs_input_grad[0] else None
            if old is not None:
                old = fit_grad(old, fn.in_shapes[0], create_graph)
            if create_graph:
                shape = ctx.in_shapes[0]
                if old is None:
                    base_grad = dual.where(region.mask(), 0.0, g)
                else:
                    placed = dual.reshape(index_put_zeros(old, (index,), (int(np.prod(shape)),)), shape)
                    base_grad = dual.where(region.mask(), placed, g)
            else:
                base_grad = np.array(g, copy=True)
                base_grad.reshape(-1)[index] = 0 if old is None else old
        return (base_grad, *grads[1:])

    def _release(self):
        # torch drops fn (its saved values and its edges): a second backward without retain_graph fails, and the
        # view's grad_fn of the write lives on only if something else holds it (see the version message above)
        fn = self.aux[1]
        fn._release()
        fn.next_functions = ()
        self.released = True


def _rebase_view(view, fn: Function) -> CopySlices:
    """An in-place op recorded as `fn` modified a view: the base's history becomes CopySlices (torch's
    rebase_history); the view's own grad_fn is regenerated with the others (refresh_views)."""
    base = view.base
    edges = (_base_edge(base),) + fn.next_functions[1:]
    needs = (base.requires_grad,) + fn.needs_input_grad[1:]
    shapes = (base.array.shape,) + fn.in_shapes[1:]
    dtypes = getattr(fn, "in_dtypes", None) or (None,) * len(fn.in_shapes)
    # the view's region, not the view or its base: CopySlices is the base's history, which must not hold the base
    node = _make_node(CopySlices, edges, needs, shapes, base.array.shape, (view.region(), fn),
                      (base.array.dtype,) + tuple(dtypes[1:]))
    _set_history(base, node)
    return node


class AsStrided(Function):
    """A view's grad_fn once its base changed in place: its gradient, placed at the view's elements of the base
    (summed where an expanded view repeats one)."""

    __slots__ = ()
    name = "AsStridedBackward0"

    def __bool__(self):  # Function.apply reads `grad_fn or tensor`: torch would regenerate the view's grad_fn now
        view = self.aux[1]()
        if view is not None:
            view.touch()
        return True

    @staticmethod
    def backward(ctx, g):
        region = ctx.aux[0]
        index = region.index()
        shape = ctx.in_shapes[0]
        size = int(np.prod(shape))
        if isinstance(g, Tensor):
            return (dual.reshape(index_put_zeros(g, (index,), (size,)), shape),)
        out = np.zeros(size, dtype=g.dtype)
        if region.overlaps():
            np.add.at(out, index, g)
        else:
            out[index] = g
        return (out.reshape(shape),)


class InvalidView(Function):
    """The grad_fn of a view torch forbids modifying once its base (or another of its views) changed in place:
    using the view in a graph raises torch's error (as torch raises reading its grad_fn); printed as <Invalid>.
    ``aux``: (the message, the view's previous grad_fn)."""

    __slots__ = ()
    name = "Invalid"

    def __bool__(self):  # Function.apply reads `grad_fn or tensor`: the moment torch reads the view's grad_fn
        raise TorchRuntimeError(self.aux[0])

    @staticmethod
    def backward(ctx, g):  # pragma: no cover - the graph cannot reach it (see __bool__)
        raise TorchRuntimeError(ctx.aux[0])


def refresh_views(base: Tensor, modified: Tensor | None = None) -> None:
    """After an in-place write to `base` or one of its views (`modified`): every live view's grad_fn reads the
    base's current history (torch regenerates it when the shared version counter moved, at the view's next use:
    until then it keeps the old one alive, `held`; the modified view is used at once)."""
    if getattr(base, "_views", None) is None:
        return
    for tensor in live_views(base):
        if tensor.grad_fn is None and not base.requires_grad:
            continue
        view = tensor._view
        if tensor is modified:
            view.touch()
        elif view.held is FRESH:
            view.held = tensor.grad_fn
        if view.creation != DEFAULT:
            previous = tensor.grad_fn
            if isinstance(previous, InvalidView):
                previous = previous.aux[1]  # torch keeps the grad_fn it failed to regenerate
            node = _make_node(InvalidView, (), (), (), tensor.array.shape,
                              (view_message(tensor, view, indirect=True), previous), ())
        else:
            node = _make_node(AsStrided, (_base_edge(base),), (base.requires_grad,), (base.array.shape,),
                              tensor.array.shape, (view.region(), weakref.ref(view)), (base.array.dtype,))
        _set_history(tensor, node)


class Fill(Function):
    """fill_ with a number (torch's fill_.Scalar)."""

    __slots__ = ()
    name = "FillBackward2"

    @staticmethod
    def jvp(ctx, tangents, arrays, out, params):
        return np.zeros_like(out)  # self_t.fill_(0)

    @staticmethod
    def forward(ctx, x, value):
        return np.full(x.shape, value, dtype=x.dtype)

    @staticmethod
    def backward(ctx, g):
        return (dual.zeros_like(g),)


class Zero(Fill):
    __slots__ = ()
    name = "ZeroBackward0"


def zero_(self):
    return apply_inplace(self, lambda s: Zero.apply(s, 0))


def fill_(self, value):
    if isinstance(value, Tensor):
        if value.array.ndim:
            raise TorchRuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                                    f"{value.array.ndim} dimensions.")
        return apply_inplace(self, lambda s: FillTensor.apply(s, value))
    return apply_inplace(self, lambda s: Fill.apply(s, value))


def add_(self, other, *, alpha=1):
    return apply_inplace(self, lambda s: arith.add(s, other, alpha=alpha))


def sub_(self, other, *, alpha=1):
    return apply_inplace(self, lambda s: arith.sub(s, other, alpha=alpha))


def mul_(self, other):
    return apply_inplace(self, lambda s: arith.mul(s, other))


def div_(self, other):
    return apply_inplace(self, lambda s: arith.div(s, other))


def pow_(self, exponent):
    return apply_inplace(self, lambda s: arith.pow(s, exponent))


def clamp_(self, min=None, max=None):  # noqa: A002 - torch's names
    return apply_inplace(self, lambda s: clamp(s, min, max))


class Copy(Function):
    __slots__ = ()
    name = "CopyBackwards"
    jvp = LINEAR  # self_t.copy_(src_t): the source's tangent (zeros without one)

    @staticmethod
    def forward(ctx, x, src):
        src = np.asarray(src)
        if src.shape != x.shape:
            try:
                shape = np.broadcast_shapes(x.shape, src.shape)
            except ValueError:
                raise TorchRuntimeError(_size_mismatch(x.shape, src.shape)) from None
            if shape != x.shape:
                raise TorchRuntimeError(f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the "
                                        f"broadcast shape [{', '.join(map(str, shape))}]")
        return np.broadcast_to(src.astype(x.dtype, copy=False), x.shape).copy()

    @staticmethod
    def backward(ctx, g):
        return dual.zeros_like(g), g


class FillTensor(Copy):
    """fill_ with a 0-d tensor (torch's fill_.Tensor), which gets the sum of the filled elements' gradient."""

    __slots__ = ()
    name = "FillBackward3"


def _size_mismatch(a: tuple, b: tuple) -> str:
    """torch's words for two shapes that do not broadcast: the first disagreeing dim from the right."""
    for i in range(1, min(len(a), len(b)) + 1):
        if a[-i] != b[-i] and a[-i] != 1 and b[-i] != 1:
            return (f"The size of tensor a ({a[-i]}) must match the size of tensor b ({b[-i]}) at non-singleton "
                    f"dimension {max(len(a), len(b)) - i}")
    return "shapes do not broadcast"  # pragma: no cover - numpy refused them, so some dim disagrees


def copy_(self, src):
    return apply_inplace(self, lambda s: Copy.apply(s, src))


class IndexPut(Function):
    """x[index] = value with advanced indexing (index_put_): the written elements' gradient goes to value."""

    __slots__ = ()
    name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, x, value, key):
        target = np.shape(x[key])
        value = np.asarray(value)
        try:
            value = np.broadcast_to(value.astype(x.dtype, copy=False), target)
        except ValueError:
            raise TorchRuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, value.shape))}] "
                                    f"cannot be broadcast to indexing result of shape "
                                    f"[{', '.join(map(str, target))}]") from None
        out = x.copy()
        out[key] = value
        mask = np.zeros(x.shape, dtype=bool)
        mask[key] = True
        ctx.aux = (key, mask)
        return out

    @staticmethod
    def backward(ctx, g):
        key, mask = ctx.aux
        value_grad = getitem(g, key) if isinstance(g, Tensor) else g[key]
        return dual.where(mask, 0.0, g), value_grad, None


def setitem(self, key, value):
    """x[key] = value as torch does it: basic indexing writes value into the view x[key] (so x's grad_fn becomes
    CopySlices), or into x itself where the key selects all of it (x[...], x[:]); advanced indexing is index_put_
    (IndexPutBackward0)."""
    key = to_index(key)
    normal, kind = normalise_key(key, self.array.shape)
    if kind == "Index":
        apply_inplace(self, lambda s: IndexPut.apply(s, value, normal))
        return
    _copy_to(self if _selects_all(normal, self.array.shape) else getitem(self, key), value)


def _selects_all(key: tuple, shape: tuple) -> bool:
    """Whether a basic index is the whole tensor (only full slices and ...), where torch writes into the tensor
    itself rather than into a view of it."""
    if any(k is None or isinstance(k, int) for k in key):
        return False
    dim = 0
    for k in key:
        if k is Ellipsis:
            dim += len(shape) - sum(1 for j in key if j is not Ellipsis)
            continue
        if k.indices(shape[dim]) != (0, shape[dim], 1):
            return False
        dim += 1
    return True


def _copy_to(target: Tensor, value) -> None:
    """torch's copy_to for x[key] = value: copy_ a value of the target's shape, fill_ with a 0-d one (a number
    too: FillBackward3), else expand it (torch's "expanded size" error) and copy_."""
    values = np.asarray(val(value))
    if values.ndim == 0 and target.array.shape != ():
        fill_(target, value if isinstance(value, Tensor) else Tensor._make(values, None))
        return
    expand(Tensor._make(values, None), *target.array.shape)
    apply_inplace(target, lambda s: Copy.apply(s, value))


def masked_fill_(self, mask, value):
    return apply_inplace(self, lambda s: masked_fill(s, mask, value))


def index_add_(self, dim, index, source, *, alpha=1):
    return apply_inplace(self, lambda s: index_add(s, dim, index, source, alpha=alpha))


def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
    return apply_inplace(self, lambda s: scatter(s, dim, index, src, value=value, reduce=reduce))


def scatter_add_(self, dim, index, src):
    return apply_inplace(self, lambda s: scatter_add(s, dim, index, src))


# the in-place functions torch's namespace has too (torch.sin_(b), torch.zero_(x): gradcli run's torch module
# lists them); the others are methods only.  Not in the expression language's function names.
TORCH_INPLACE = frozenset(
    "zero_ fill_ clamp_ relu_ sigmoid_ tanh_ exp_ log_ abs_ sqrt_ neg_ sin_ cos_ tan_ exp2_ expm1_ log2_ log10_ log1p_ "
    "rsqrt_ reciprocal_ floor_ ceil_ trunc_ frac_ square_ asin_ acos_ atan_ sinh_ cosh_ erf_ logit_ sinc_ "
    "nan_to_num_".split())

for _name, _fn in {"zero_": zero_, "fill_": fill_, "add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_,
                   "pow_": pow_, "clamp_": clamp_, "copy_": copy_, "masked_fill_": masked_fill_,
                   "index_add_": index_add_, "scatter_": scatter_, "scatter_add_": scatter_add_}.items():
    register(_name, sig=f"{_name}(...)", doc=f"in-place {_name[:-1]}", category="inplace", torch=False)(_fn)

Tensor.__setitem__ = setitem
Tensor.__iadd__ = add_
Tensor.__isub__ = sub_
Tensor.__imul__ = mul_
Tensor.__itruediv__ = div_
Tensor.__ipow__ = pow_


# gradcli's node differentiates these from their output, torch's in-place form from a copy of the input
_SAVE_OWN_RESULT = frozenset({"erfinv"})


def _inplace_unary(name):
    saves_result = name not in _SAVE_OWN_RESULT

    def op(self):
        return apply_inplace(self, lambda s: getattr(s, name)(), saves_result)

    op.__name__ = name + "_"
    op.__doc__ = f"{name} in place"
    return op


# The in-place forms of the unary math functions: the same node as the out-of-place op, recorded on self.
for _name in ("relu", "sigmoid", "tanh", "exp", "log", "abs", "sqrt", "neg", "sin", "cos", "tan", "exp2", "expm1",
              "log2", "log10", "log1p", "rsqrt", "reciprocal", "floor", "ceil", "trunc", "frac", "sign", "square",
              "asin", "acos", "atan", "sinh", "cosh", "erf", "erfinv", "lgamma", "digamma", "logit", "sinc",
              "nan_to_num"):
    register(_name + "_", sig=f"{_name}_(input)", doc=f"{_name} in place", category="inplace",
             torch=False)(_inplace_unary(_name))


# In-place view ops (unsqueeze_, squeeze_, t_, transpose_): the tensor's own shape and strides change, its memory
# not; torch bumps its version.  Recorded history (a tensor that needs a gradient) is refused: gradcli's nodes
# cannot be re-pointed at a new shape of the same tensor.
def _inplace_view(name):
    def op(self, *args):
        if type(self._version) is InferenceVersion and not INFERENCE.get():
            raise TorchRuntimeError(INFERENCE_TENSOR_INPLACE)
        if GradMode.enabled and self.requires_grad:
            if self.grad_fn is None:
                raise TorchRuntimeError(LEAF_INPLACE)
            raise TorchNotImplementedError(f"gradcli does not record {name}_ on a tensor that requires grad; "
                                           f"write x = x.{name}(...) instead")
        self.array = getattr(self, name)(*args).array
        self._bump_version()
        return self

    op.__name__ = name + "_"
    op.__doc__ = f"{name} in place (the tensor's shape changes)"
    return op


for _name in ("unsqueeze", "squeeze", "t", "transpose"):
    register(_name + "_", sig=f"{_name}_(...)", doc=f"{_name} in place", category="inplace",
             torch=False)(_inplace_view(_name))


# The in-place forms torch.Tensor has of the other ops (x.cumsum_(0), x.lt_(y), x.atan2_(y), x.tril_() ...): the
# out-of-place op computed on self and written back through apply_inplace, so they get torch's version counter,
# leaf and view checks, CopySlices on views and the op's own node (torch names an in-place op's node as the
# op's: CumsumBackward0, Atan2Backward0).  Registered only where the out-of-place op is registered.
TORCH_INPLACE_FORMS = (
    "absolute acosh addbmm addcdiv addcmul addmm addmv addr arccos arccosh arcsin arcsinh arctan2 arctan arctanh "
    "asinh atan2 atanh baddbmm bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor "
    "clamp_max clamp_min clip copysign cumprod cumsum deg2rad divide erfc fix float_power floor_divide fmod gcd ge "
    "greater greater_equal gt heaviside hypot i0 igamma igammac index_fill lcm ldexp le lerp less less_equal "
    "logical_and logical_not logical_or logical_xor lt masked_scatter multiply mvlgamma ne negative nextafter "
    "not_equal polygamma rad2deg remainder renorm round scatter_reduce sgn subtract tril triu true_divide "
    "xlogy index_copy index_put index_reduce").split()


# derivatives.yaml: `self: not_implemented("inplace version of acosh")` (asinh_, atanh_ too): torch records the
# in-place form as its own node, AcoshBackward1, whose backward raises.
NO_INPLACE_DERIVATIVE = {"acosh": "acosh", "arccosh": "acosh", "asinh": "asinh", "arcsinh": "asinh",
                         "atanh": "atanh", "arctanh": "atanh"}


def _no_derivative_node(op: str, fn):
    def forward(ctx, x):
        return fn(Tensor._make(x, None)).array

    def backward(ctx, g):
        raise TorchNotImplementedError(f"the derivative for 'inplace version of {op}' is not implemented.")

    return type(f"{op.title()}Inplace", (Function,), {"__slots__": (), "name": f"{op.title()}Backward1",
                                                      "forward": staticmethod(forward),
                                                      "backward": staticmethod(backward)})


def _inplace_form(name, fn):
    if name in NO_INPLACE_DERIVATIVE:
        node = _no_derivative_node(NO_INPLACE_DERIVATIVE[name], fn)

        def op(self):
            return apply_inplace(self, node.apply)

        op.__name__ = name + "_"
        return op

    def op(self, *args, **kwargs):
        if name == "float_power" and self.array.dtype != np.float64:
            raise TorchRuntimeError(f"the base given to float_power_ has dtype {dtype_title(self.array.dtype)} but "
                                    "the operation's result requires dtype Double")
        return apply_inplace(self, lambda s: fn(s, *args, **kwargs))

    op.__name__ = name + "_"
    op.__doc__ = f"{name} in place"
    return op


def register_inplace_forms() -> None:
    """Called once every op module is imported (ops/__init__.py): the forms whose op exists."""
    for name in TORCH_INPLACE_FORMS:
        spec = REGISTRY.get(name)
        if spec is not None and spec.method and name + "_" not in REGISTRY:
            register(name + "_", sig=f"{name}_(...)", doc=f"{name} in place", category="inplace",
                     torch=False)(_inplace_form(name, spec.fn))
    for name in ("swapaxes", "swapdims"):
        register(name + "_", sig=f"{name}_(dim0, dim1)", doc=f"{name} in place", category="inplace",
                 torch=False)(_inplace_view("transpose"))
