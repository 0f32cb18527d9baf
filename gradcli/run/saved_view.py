"""A node's saved values as a program reads them: `grad_fn._saved_<name>` and `grad_fn._raw_saved_<name>`, under
the names torch's generated nodes give them (tools/autograd/derivatives.yaml: the op's argument names, `result`,
and what a formula keeps of an argument, `self_sym_sizes`, ...).

torch's semantics: a saved input is the input itself (`_saved_self is a`), a saved output a new tensor sharing the
output's data whose grad_fn is the node (`_saved_result is y` is False); an input a node did not need to save
(`a * 2`: self) is None; after backward freed the buffers, reading a saved tensor raises torch's error while the
other settings stay readable.  With saved-tensor hooks each read calls the unpack hook.  `_raw_saved_<name>` is
torch's SavedTensor, whose `register_hooks(pack, unpack)` packs at once and unpacks at each read.

What torch saves per node is a table (NODES); a node gradcli has but the table does not list is refused by name
rather than guessed."""

from __future__ import annotations

import math
import re

import numpy as np

from gradcli.engine.autograd import (
    SECOND_BACKWARD,
    Function,
    Packed,
    mark_packed,
    modified_input_message,
    modified_output_message,
)
from gradcli.engine.errors import TorchAttributeError, TorchRuntimeError, TorchTypeError
from gradcli.engine.tensor import Tensor
from gradcli.run.errors import Refused

SAVED_NAME = re.compile(r"_(raw_)?saved_[a-z0-9_]+")

FREED_HOOKS = ("Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the "
               "graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need "
               "to backward through the graph a second time or if you need to access saved variables after calling "
               "backward.")
HOOKS_SET = ("Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of "
             "hooks is allowed at a time.")


def _input(i):
    return ("tensor", None, i)


def _result():
    return ("tensor", None, "result")


def _aux(read):
    return ("value", read, None)


def _shape(i):
    return ("value", lambda node: tuple(node.in_shapes[i]), None)


def _alpha(node):
    return 1 if node.aux is None else node.aux


def _dims(node):
    """The dims as the program gave them, in its order; torch hands a negative one back as its uint64 bits."""
    given = node.aux[3] if node.name.startswith("Sum") else node.aux[4]
    given = (given,) if isinstance(given, int) else tuple(given)
    return tuple(d + 2 ** 64 if d < 0 else d for d in given)


SELF, OTHER = _input(0), _input(1)
# the unary nodes of torch 2.13 that save their result, their input, or nothing
TORCH_SAVES_RESULT = ("ExpBackward0", "TanBackward0", "TanhBackward0", "SigmoidBackward0", "ReluBackward0",
                      "SqrtBackward0", "RsqrtBackward0", "Exp2Backward0", "Expm1Backward0", "ReciprocalBackward0")
TORCH_SAVES_SELF = ("LogBackward0", "SinBackward0", "CosBackward0", "AsinBackward0", "AcosBackward0", "AtanBackward0",
                    "SinhBackward0", "CoshBackward0", "Log2Backward0", "Log10Backward0", "Log1PBackward0",
                    "ErfBackward0", "ErfcBackward0", "AbsBackward0", "AsinhBackward0", "AcoshBackward0",
                    "AtanhBackward0", "LgammaBackward0", "DigammaBackward0", "ErfinvBackward0")
TORCH_SAVES_NOTHING = ("NegBackward0", "SignBackward0", "FloorBackward0", "CeilBackward0", "RoundBackward0",
                       "TruncBackward0", "FracBackward0")
# torch 2.13's saved attributes per node (dir(grad_fn), recorded by scripts/make_saved_tensor_goldens.py)
NODES: dict[str, dict] = {
    "MulBackward0": {"other": OTHER, "self": SELF},
    "DivBackward0": {"other": OTHER, "self": SELF},
    "AddBackward0": {"alpha": _aux(_alpha)},
    "SubBackward0": {"alpha": _aux(_alpha)},
    "PowBackward0": {"exponent": _aux(lambda node: node.aux), "self": SELF},
    "PowBackward1": {"exponent": OTHER, "result": _result(), "self": SELF},
    "SumBackward0": {"self_sym_sizes": _shape(0)},
    "SumBackward1": {"dim": _aux(_dims), "keepdim": _aux(lambda node: bool(node.aux[1])),
                     "self_sym_sizes": _shape(0)},
    "MeanBackward0": {"self_sym_numel": _aux(lambda node: int(node.aux[3])), "self_sym_sizes": _shape(0)},
    "MeanBackward1": {"dim": _aux(_dims), "keepdim": _aux(lambda node: bool(node.aux[1])),
                      "self_sym_numel": _aux(lambda node: int(math.prod(node.in_shapes[0]))),
                      "self_sym_sizes": _shape(0)},
    "ViewBackward0": {"self_sym_sizes": _shape(0)},
    "ExpandBackward0": {"self_sym_sizes": _shape(0)},
    "TBackward0": {}, "CloneBackward0": {},
    "SgnBackward0": {"result": _result(), "self": SELF},
    **{name: {"result": _result()} for name in TORCH_SAVES_RESULT},
    **{name: {"self": SELF} for name in TORCH_SAVES_SELF},
    **{name: {} for name in TORCH_SAVES_NOTHING},
}


def handles(obj, name: str) -> bool:
    return isinstance(obj, Function) and SAVED_NAME.fullmatch(name) is not None


def read(node: Function, name: str, line: int):
    raw = name.startswith("_raw_")
    field = name[len("_raw_saved_"):] if raw else name[len("_saved_"):]
    table = NODES.get(node.name)
    if table is None:
        raise Refused(f"grad_fn.{name} of {node.name} (gradcli lists the saved values of the nodes of *, /, +, -, "
                      "**, sum, mean, view, expand, t, clone and the unary math functions; read the node's inputs "
                      "through grad_fn.next_functions)", line)
    entry = table.get(field)
    if entry is None or (raw and entry[0] != "tensor"):
        raise TorchAttributeError(f"'{node.name}' object has no attribute '{name}'")
    kind, reader, which = entry
    if kind == "value":
        return reader(node)
    if (which == "result" and not type(node).saves_output) or (which != "result" and which not in type(node).saves):
        raise Refused(f"grad_fn.{name} of {node.name} (gradcli's node keeps what its backward needs in another "
                      "form than torch's)", line)
    if raw:
        return SavedTensor(node, which)
    return SavedTensor(node, which).value()


class SavedTensor:
    """torch._C._autograd.SavedTensor: one saved tensor of a node (`which`: an input's position or "result")."""

    __slots__ = ("node", "which")
    python_type_name = "SavedTensor"

    def __init__(self, node: Function, which):
        self.node, self.which = node, which

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"

    def _slot(self):
        """(container, index) where the node keeps this value: ctx.saved's position or the output."""
        node = self.node
        if self.which == "result":
            return None
        return type(node).saves.index(self.which)

    def stored(self):
        node = self.node
        slot = self._slot()
        return node.out if slot is None else node.saved[slot]

    def value(self):
        node = self.node
        if node.released:
            raise TorchRuntimeError(SECOND_BACKWARD)
        stored = self.stored()
        if stored is None:
            return None
        if type(stored) is Packed:
            unpacked = stored.unpacked()
            if self.which == "result":
                return Tensor._make(unpacked.array, node)
            source = stored.source  # a new tensor of the unpacked data standing for it, even if the hook gave it back
            out = Tensor._make(unpacked.array, source.grad_fn)
            out.requires_grad = source.requires_grad
            return out
        if self.which == "result":
            if node.out_version[0] != node.out_base:  # modified in place since: torch's check as it unpacks
                raise TorchRuntimeError(modified_output_message(node, node.name))
            return Tensor._make(stored, node)  # a new tensor of the output's data, its grad_fn the node
        if not isinstance(stored, Tensor):  # a Python number: torch saved it as a wrapped-number 0-d tensor
            kind = np.bool_ if isinstance(stored, bool) else np.int64 if isinstance(stored, int) else np.float64
            return Tensor._make(np.asarray(stored, dtype=kind), None)
        version = node.versions[self._slot()]
        if stored._version[0] != version:
            raise TorchRuntimeError(modified_input_message(stored, version))
        return stored  # the input itself, as torch's SavedVariable gives back a leaf or an input

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TorchTypeError(
                "register_hooks(): incompatible function arguments. The following argument types are supported:\n"
                "    1. (self: torch._C._autograd.SavedTensor, arg0: collections.abc.Callable, arg1: "
                "collections.abc.Callable) -> None\n\nInvoked with: <torch._C._autograd.SavedTensor object at "
                f"{id(self):#x}>, {pack_hook!r}, {unpack_hook!r}")
        node = self.node
        if node.released:
            raise TorchRuntimeError(FREED_HOOKS)
        stored = self.stored()
        if type(stored) is Packed:
            raise TorchRuntimeError(HOOKS_SET)
        if stored is None:
            return
        if self.which == "result":
            data = Tensor._make(stored, None)
            packed = Packed(pack_hook(data), unpack_hook)
            node.out = packed
        else:
            packed = Packed(pack_hook(stored.detach()), unpack_hook, stored)
            saved = list(node.saved)
            saved[self._slot()] = packed
            node.saved = tuple(saved)
        mark_packed()


