"""torch.nn's Module machinery and the layers the tutorials use: Parameter, Module (parameters, sub-modules,
buffers, train/eval, zero_grad, PyTorch's printed form), Sequential, ModuleList, Linear, Flatten, the
activations, Dropout and the loss modules.

Each layer's forward is the functional op of the registry (F.linear, F.mse_loss ...), so a module computes
exactly what the op computes.  Linear's initialisation is torch's reset_parameters: kaiming_uniform_ with
a=sqrt(5) for the weight, uniform_(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias, drawn from the default
generator in that order, so `torch.manual_seed(0); nn.Linear(3, 1)` holds PyTorch's numbers.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import partial

from gradcli.engine import creation, dtypes, meta, state
from gradcli.engine.autograd import Function, is_grad_enabled, no_grad, register_node_hook
from gradcli.engine.errors import (
    TorchAttributeError,
    TorchIndexError,
    TorchKeyError,
    TorchNotImplementedError,
    TorchRuntimeError,
    TorchTypeError,
    TorchValueError,
)
from gradcli.engine.ops import REGISTRY
from gradcli.engine.tensor import Device, Tensor, check_device


class Parameter(Tensor):
    """torch.nn.Parameter: a leaf tensor (requiring grad by default) that a Module registers when assigned."""

    __slots__ = ()

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            data = creation.empty(0)
        if not isinstance(data, Tensor):
            raise TorchTypeError(f"Parameter(): argument 'data' (position 1) must be Tensor, not {type(data).__name__}")
        param = object.__new__(cls)
        param.array = data.array  # shares the storage, as torch's _make_subclass does
        param.grad_fn = None
        param._grad = None
        param._version = data._version
        param._retains_grad = False
        param.requires_grad = False
        if requires_grad:
            param.requires_grad_(True)
        return param

    def __init__(self, data=None, requires_grad: bool = True):
        pass  # everything is done in __new__

    def __repr__(self) -> str:
        return "Parameter containing:\n" + Tensor.__repr__(self)


# -- Module ------------------------------------------------------------------------------------------------

class Module:
    """torch.nn.Module.  Attributes that are Parameters, Modules or registered buffers live in the three
    ordered dicts PyTorch keeps (so parameters() and the printed form list them in assignment order);
    anything else is a plain attribute."""

    training: bool

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TorchTypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                                 f"{1 + len(args)} were given")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())

    # -- attributes, as Module.__setattr__ / __getattr__ ------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise TorchAttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TorchTypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                     "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            modules = self.__dict__.get("_modules")
            if modules is None:
                raise TorchAttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            modules[name] = value
        elif name in self.__dict__.get("_modules", ()):
            if value is not None:
                raise TorchTypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                     "(torch.nn.Module or None expected)")
            self._modules[name] = None
        elif name in self.__dict__.get("_buffers", ()):
            if value is not None and not isinstance(value, Tensor):
                raise TorchTypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                     "(torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        self.__dict__.pop(name, None)
        for table in ("_parameters", "_buffers", "_modules"):
            self.__dict__[table].pop(name, None)

    def __getattr__(self, name: str):
        # only reached when normal lookup fails: the registered parameters, buffers and sub-modules
        for table in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(table)
            if entries is not None and name in entries:
                return entries[name]
        raise TorchAttributeError(f"'{self._get_name()}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for table in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(table, ()):
                del self.__dict__[table][name]
                return
        object.__delattr__(self, name)

    def own_attributes(self) -> dict:
        """What a program can read on this module beyond its methods: plain attributes and registered ones."""
        names = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        for table in ("_parameters", "_buffers", "_modules"):
            names.update(self.__dict__.get(table, {}))
        return names

    # -- registration -------------------------------------------------------------------------------------
    def register_parameter(self, name: str, param) -> None:
        if "_parameters" not in self.__dict__:
            raise TorchAttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TorchTypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                                 "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor, persistent: bool = True) -> None:
        if "_buffers" not in self.__dict__:
            raise TorchAttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TorchTypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                                 "(torch Tensor or None required)")
        self._buffers[name] = tensor

    def add_module(self, name: str, module) -> None:
        if module is not None and not isinstance(module, Module):
            raise TorchTypeError(f"{_type_name(module)} is not a Module subclass")
        _check_name(self, name, "module")
        self._modules[name] = module

    register_module = add_module

    # -- traversal ----------------------------------------------------------------------------------------
    def named_modules(self, memo=None, prefix: str = "", remove_duplicate: bool = True):
        memo = set() if memo is None else memo
        if remove_duplicate and id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, table: str, prefix: str, recurse: bool, remove_duplicate: bool):
        seen = set()
        owners = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for owner_prefix, owner in owners:
            for name, value in owner.__dict__[table].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield owner_prefix + ("." if owner_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_submodule(self, target: str):
        module = self
        for item in target.split(".") if target else []:
            if item not in module._modules:
                raise TorchAttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def get_parameter(self, target: str):
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if name not in module._parameters:
            raise TorchAttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module._parameters[name]

    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        state = OrderedDict()
        for owner_prefix, owner in self.named_modules(prefix=prefix.rstrip(".")):
            lead = owner_prefix + ("." if owner_prefix else "")
            for name, value in list(owner._parameters.items()) + list(owner._buffers.items()):
                if value is not None:
                    state[lead + name] = value if keep_vars else value.detach()
        return state

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        for name, module in self.named_modules():  # lazy modules first take the checkpoint's shapes
            if isinstance(module, LazyLinear):
                materialize_from(module, state_dict, f"{name}." if name else "")
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            raise TorchRuntimeError(f"Error(s) in loading state_dict for {self._get_name()}:\n\t" + "\n\t".join(parts))
        with no_grad():
            for key, target in own.items():
                if key in state_dict:
                    source = state_dict[key]
                    if tuple(source.shape) != tuple(target.shape):
                        raise TorchRuntimeError(
                            f"Error(s) in loading state_dict for {self._get_name()}:\n\tsize mismatch for {key}: "
                            f"copying a param with shape {source.shape} from checkpoint, the shape in current model "
                            f"is {target.shape}.")
                    if assign:  # torch's assign=True: the checkpoint's tensor itself takes the entry's place
                        self._assign(key, target, source)
                    elif target.is_meta and not source.is_meta:
                        state.warn(f"for {key.rpartition('.')[2]}: copying from a non-meta parameter in the checkpoint "
                                   "to a meta parameter in the current model, which is a no-op. (Did you mean to pass "
                                   "`assign=True` to assign items in the state dictionary to their corresponding key "
                                   "in the module instead of copying them in place?)", UserWarning)
                    else:
                        target.copy_(source)
        return _IncompatibleKeys(missing, unexpected)

    def _assign(self, key: str, target, source) -> None:
        """load_state_dict(assign=True) of one entry (Module._load_from_state_dict): a parameter becomes a Parameter
        sharing the checkpoint tensor's memory with the old parameter's requires_grad (a Parameter in the checkpoint
        is kept itself, its requires_grad set so), a buffer the checkpoint's tensor."""
        path, _, name = key.rpartition(".")
        owner = self.get_submodule(path)
        if name in owner._parameters:
            if isinstance(source, Parameter):
                source.requires_grad_(target.requires_grad)
            else:
                source = Parameter(source, requires_grad=target.requires_grad)
            owner._parameters[name] = source
        else:
            owner._buffers[name] = source

    def _move(self, make) -> None:
        """Module._apply for a change of device: each parameter a new Parameter of `make(tensor)` (requires_grad
        kept, its .grad moved too), each buffer `make(buffer)`."""
        for module in self.modules():
            params = module.__dict__["_parameters"]
            for name, param in params.items():
                if param is not None:
                    moved = Parameter(make(param), requires_grad=param.requires_grad)
                    if param._grad is not None:
                        moved._grad = make(param._grad)
                    params[name] = moved
            buffers = module.__dict__["_buffers"]
            for name, buffer in buffers.items():
                if buffer is not None:
                    buffers[name] = make(buffer)

    def _to_device(self, device) -> None:
        kind = str(device).partition(":")[0]
        if kind == "meta":
            self._move(lambda t: t if t.is_meta else meta.empty(tuple(t.shape), t.array.dtype))
        elif kind == "cpu":
            if any(t.is_meta for t in (*self.parameters(), *self.buffers())):
                raise TorchNotImplementedError(
                    "Cannot copy out of meta tensor; no data! Please use torch.nn.Module.to_empty() instead of "
                    "torch.nn.Module.to() when moving module from meta to a different device.")
        else:
            raise TorchRuntimeError(f"gradcli computes on the CPU (and the meta device) only; device '{device}' is not "
                                    "available")

    def to_empty(self, *, device, recurse: bool = True):
        """Module.to_empty: every parameter and buffer a new tensor of its shape on `device`, without data (on the
        CPU, torch's are uninitialised memory: gradcli's hold zeros)."""
        kind = str(device).partition(":")[0]
        if kind not in ("cpu", "meta"):
            raise TorchRuntimeError(f"gradcli computes on the CPU (and the meta device) only; device '{device}' is not "
                                    "available")
        with no_grad():
            self._move(lambda t: creation.zeros(tuple(t.shape), dtype=t.dtype, device=kind))
        return self

    # -- state --------------------------------------------------------------------------------------------
    def train(self, mode: bool = True):
        if not isinstance(mode, bool):
            raise TorchValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        for param in self.parameters():
            if param._grad is not None:
                if set_to_none:
                    param._grad = None
                else:
                    param._grad = param._grad.detach()
                    param._grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        device = kwargs.get("device")
        for arg in args:
            if isinstance(arg, dtypes.DType):
                dtype = arg
            elif not isinstance(arg, Tensor):
                device = arg
        if device is not None:
            check_device(device)  # CUDA: a CPU-only torch's AssertionError
            self._to_device(device)
        if dtype is not None:
            if not dtype.is_floating_point:
                raise TorchTypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                                     f"dtype={dtype}")
            self._cast(dtype)
        return self

    def cpu(self):
        return self

    def cuda(self, device=None):
        """There is no CUDA: torch without it fails at the first parameter moved (a module without any is
        returned as it is)."""
        if next(iter(self.parameters()), None) is not None or next(iter(self.buffers()), None) is not None:
            check_device(Device("cuda"))
        return self

    def float(self):
        return self._cast(dtypes.float32)

    def double(self):
        return self._cast(dtypes.float64)

    def half(self):
        return self._cast(dtypes.float16)

    def _cast(self, dtype):
        """Module._apply: each floating parameter's .data replaced by a converted copy (the object stays)."""
        for module in self.modules():
            for table in ("_parameters", "_buffers"):
                for value in module.__dict__[table].values():
                    if value is not None and value.is_floating_point() and value.dtype != dtype:
                        value.array = _converted(value.array, dtype)
                        if value._grad is not None:
                            value._grad.array = _converted(value._grad.array, dtype)
        return self

    # -- calling and printing -----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        return self.call_with_hooks(self.forward, args, kwargs)

    # -- forward hooks, as Module._call_impl runs them ----------------------------------------------------

    def call_with_hooks(self, forward, args: tuple, kwargs: dict):
        """forward(*args, **kwargs) between the module's forward pre-hooks and forward hooks: a pre-hook may
        replace the arguments (a non-tuple result becomes the one argument), a hook the output."""
        pre_hooks = self.__dict__.get("_forward_pre_hooks")
        if pre_hooks:
            for hook, with_kwargs in list(pre_hooks.values()):
                if with_kwargs:
                    result = hook(self, args, kwargs)
                    if result is not None:
                        if not (isinstance(result, tuple) and len(result) == 2):
                            raise TorchRuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                                    f"new_kwargs), but got {result}.")
                        args, kwargs = result
                else:
                    result = hook(self, args)
                    if result is not None:
                        args = result if isinstance(result, tuple) else (result,)
        backward_hooks = self.__dict__.get("_backward_hooks")
        backward_pre_hooks = self.__dict__.get("_backward_pre_hooks")
        state = None
        if (backward_hooks or backward_pre_hooks) and is_grad_enabled():
            state = _BackwardHookState(self, backward_hooks or {}, backward_pre_hooks or {})
            args = state.wrap_inputs(args)
        output = forward(*args, **kwargs)
        hooks = self.__dict__.get("_forward_hooks")
        if hooks:
            for hook, with_kwargs in list(hooks.values()):
                result = hook(self, args, kwargs, output) if with_kwargs else hook(self, args, output)
                if result is not None:
                    output = result
        if state is not None:
            output = state.wrap_output(output)
        non_full = self.__dict__.get("_non_full_backward_hooks")
        if non_full:
            _hook_output_node(self, non_full, args, output)
        return output

    def register_full_backward_hook(self, hook, prepend: bool = False):
        if self.__dict__.get("_non_full_backward_hooks") is not None:
            raise TorchRuntimeError(_BOTH_BACKWARD_HOOKS)
        return self._register_hook("_backward_hooks", hook, prepend, False)

    def register_backward_hook(self, hook):
        """The deprecated non-full backward hook: hook(module, grad_input, grad_output) runs as a post-hook of
        the node that made the module's output (its first tensor), so grad_input is that one node's inputs'
        gradients, whatever the forward did before it (torch warns when that is not the module's inputs)."""
        if self.__dict__.get("_backward_hooks") is not None:
            raise TorchRuntimeError(_BOTH_BACKWARD_HOOKS)
        return self._register_hook("_non_full_backward_hooks", hook, False, False)

    def register_full_backward_pre_hook(self, hook, prepend: bool = False):
        return self._register_hook("_backward_pre_hooks", hook, prepend, False)

    def _register_hook(self, table: str, hook, prepend: bool, with_kwargs: bool):
        hooks = self.__dict__.get(table)
        if hooks is None:
            hooks = OrderedDict()
            object.__setattr__(self, table, hooks)
        handle = ModuleHookHandle(hooks)
        hooks[handle.id] = (hook, with_kwargs)
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False):
        return self._register_hook("_forward_pre_hooks", hook, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False):
        return self._register_hook("_forward_hooks", hook, prepend, with_kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{self._get_name()}] is missing the required "forward" function')

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        return module_repr(self, repr)

    def __dir__(self):  # pragma: no cover - not reachable from programs
        return sorted(self.own_attributes())


def _converted(array, dtype):
    if isinstance(array, meta.MetaArray):  # no data to convert (astype would allocate the whole shape)
        return meta.meta_array(array.shape, dtype.np, array.meta_strides)
    return array.astype(dtype.np)


def module_repr(module: Module, child_repr) -> str:
    """Module.__repr__: the class name, extra_repr's lines, then each child indented by two spaces.
    `child_repr` prints a child (a program's module prints through the program's own extra_repr)."""
    extra = module.extra_repr()
    extra_lines = extra.split("\n") if extra else []
    child_lines = [f"({key}): {_add_indent(child_repr(child), 2)}" for key, child in module._modules.items()]
    if isinstance(module, ModuleList):
        child_lines = _repeated_blocks(module, child_repr)
    lines = extra_lines + child_lines
    text = module._get_name() + "("
    if lines:
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        else:
            text += "\n  " + "\n  ".join(lines) + "\n"
    return text + ")"


def _add_indent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def _repeated_blocks(module, child_repr) -> list[str]:
    """ModuleList.__repr__ folds runs of identically printed children: `(0-2): 3 x ReLU()`."""
    texts = [(key, child_repr(child)) for key, child in module._modules.items()]
    lines = []
    start = 0
    while start < len(texts):
        end = start
        while end + 1 < len(texts) and texts[end + 1][1] == texts[start][1]:
            end += 1
        body = _add_indent(texts[start][1], 2)
        if end == start:
            lines.append(f"({texts[start][0]}): {body}")
        else:
            lines.append(f"({texts[start][0]}-{texts[end][0]}): {end - start + 1} x {body}")
        start = end + 1
    return lines


_BOTH_BACKWARD_HOOKS = ("Cannot use both regular backward hooks and full backward hooks on a single Module. Please "
                        "use only one of them.")
_NON_FULL_ADVICE = "Please use register_full_backward_hook to get the documented behavior."


def _hook_output_node(module, hooks, args: tuple, output) -> None:
    """Module._call_impl's non-full backward hooks: each on the grad_fn of the output's first tensor (in a
    tuple, list or dict), called as hook(module, grad_input, grad_output); then torch's FutureWarnings."""
    var = output
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
    node = var.grad_fn
    if node is None:
        return
    for hook, _ in list(hooks.values()):
        register_node_hook(node, partial(_module_node_hook, hook, module))
    _warn_non_full(args, output, node)


def _module_node_hook(hook, module, grad_inputs, grad_outputs):
    return hook(module, grad_inputs, grad_outputs)


def _warn_non_full(inputs: tuple, result, node) -> None:
    """Module._maybe_warn_non_full_backward_hook: where the hooked node's edges are not the module's inputs, or
    the outputs are not that node's, the hook misses gradients, and torch says so."""
    if isinstance(result, Tensor):
        result = (result,)
    elif not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
        state.warn("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple of "
                   "Tensors is deprecated and will be removed in future versions. This hook will be missing some "
                   f"of the grad_output. {_NON_FULL_ADVICE}", FutureWarning, torch_location=True)
        return
    if not all(isinstance(i, Tensor) for i in inputs):
        state.warn("Using non-full backward hooks on a Module that does not take as input a single Tensor or a "
                   "tuple of Tensors is deprecated and will be removed in future versions. This hook will be "
                   f"missing some of the grad_input. {_NON_FULL_ADVICE}", FutureWarning, torch_location=True)
        return
    out_nodes = {id(r.grad_fn): r.grad_fn for r in result if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and id(node) not in out_nodes):
        state.warn("Using a non-full backward hook when outputs are nested in python data structure is deprecated "
                   "and will be removed in future versions. This hook will be missing some grad_output.",
                   FutureWarning, torch_location=True)
    elif len(out_nodes) > 1:
        state.warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                   "deprecated and will be removed in future versions. This hook will be missing some grad_output. "
                   f"{_NON_FULL_ADVICE}", FutureWarning, torch_location=True)
    else:
        input_nodes = {id(i.grad_fn) for i in inputs if i.grad_fn is not None}
        positions = type(node).torch_edges or range(len(node.next_functions))
        edges = [node.next_functions[i] for i in positions]
        # torch's set of next functions holds None for an edge that needs no gradient and an AccumulateGrad
        # node for a leaf: neither is any input's grad_fn
        if not all(isinstance(e, Function) for e in edges) or {id(e) for e in edges} != input_nodes:
            state.warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                       "deprecated and will be removed in future versions. This hook will be missing some "
                       f"grad_input. {_NON_FULL_ADVICE}", FutureWarning, torch_location=True)


class BackwardHookFunction(Function):
    """The identity node torch puts around a module's inputs and outputs when it has full backward hooks."""

    __slots__ = ()
    name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return (grad,)


class _BackwardHookState:
    """torch.utils.hooks.BackwardHook for one call of a module: the gradient reaching its output runs the
    backward pre-hooks (which may replace it), the gradient reaching its input runs the backward hooks as
    hook(module, grad_input, grad_output) (which may replace grad_input). One tensor in, one tensor out."""

    def __init__(self, module, hooks, pre_hooks):
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.n_inputs = 0
        self.input_index = None
        self.grad_outputs = None

    def wrap_inputs(self, args: tuple) -> tuple:
        self.n_inputs = len(args)
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if len(positions) > 1:
            raise TorchTypeError("gradcli run supports full backward hooks on modules called with one tensor "
                                 "argument; register_hook on each input tensor instead")
        needing = [i for i in positions if args[i].requires_grad]
        if not needing:
            return args
        self.input_index = needing[0]
        wrapped = BackwardHookFunction.apply(args[self.input_index])
        wrapped.register_hook(self._on_grad_input)
        return args[:self.input_index] + (wrapped,) + args[self.input_index + 1:]

    def wrap_output(self, output):
        if not isinstance(output, Tensor):
            raise TorchTypeError("gradcli run supports full backward hooks on modules returning one tensor; "
                                 "register_hook on the output tensors instead")
        if not output.requires_grad:
            return output
        wrapped = BackwardHookFunction.apply(output)
        wrapped.register_hook(self._on_grad_output)
        return wrapped

    def _pack(self, grad) -> tuple:
        packed = [None] * self.n_inputs
        if self.input_index is not None:
            packed[self.input_index] = grad
        return tuple(packed)

    def _on_grad_output(self, grad):
        grad_outputs = (grad,)
        for hook, _ in list(self.pre_hooks.values()):
            result = hook(self.module, grad_outputs)
            if result is not None:
                if not isinstance(result, tuple) or len(result) != 1:
                    raise TorchRuntimeError(f"Backward pre hook returned an invalid number of grad_output, got "
                                            f"{len(result) if isinstance(result, tuple) else 1}, but expected 1")
                grad_outputs = result
        self.grad_outputs = grad_outputs
        if self.input_index is None:  # no input needs a gradient: the hooks run now, with None for each input
            if self.hooks:
                state.warn("Full backward hook is firing when gradients are computed with respect to module "
                              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                              "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more "
                              "details.", UserWarning, stacklevel=2)
            for hook, _ in list(self.hooks.values()):
                result = hook(self.module, self._pack(None), grad_outputs)
                if result is not None and not (isinstance(result, tuple) and all(r is None for r in result)):
                    raise TorchRuntimeError("Backward hook for Modules where no input requires gradient should "
                                            "always return None or None for all gradients.")
        return grad_outputs[0]

    def _on_grad_input(self, grad):
        grad_inputs = self._pack(grad)
        for hook, _ in list(self.hooks.values()):
            result = hook(self.module, grad_inputs, self.grad_outputs)
            if result is not None:
                if not isinstance(result, tuple) or len(result) != len(grad_inputs):
                    raise TorchRuntimeError(f"Backward hook returned an invalid number of grad_input, got "
                                            f"{len(result) if isinstance(result, tuple) else 1}, but expected "
                                            f"{len(grad_inputs)}")
                grad_inputs = result
        return grad_inputs[self.input_index]


class ModuleHookHandle:
    """torch.utils.hooks.RemovableHandle for a module's hooks: `.remove()` takes the hook out."""

    __slots__ = ("hooks", "id")
    _next_id = 0

    def __init__(self, hooks: OrderedDict):
        self.hooks = hooks
        self.id = ModuleHookHandle._next_id
        ModuleHookHandle._next_id += 1

    def remove(self) -> None:
        self.hooks.pop(self.id, None)


class _IncompatibleKeys(tuple):
    def __new__(cls, missing, unexpected):
        return tuple.__new__(cls, (missing, unexpected))

    def __repr__(self) -> str:
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]}, unexpected_keys={self[1]})"


def _type_name(value) -> str:
    if isinstance(value, Tensor):
        return "torch." + {"float32": "FloatTensor", "float64": "DoubleTensor", "int64": "LongTensor",
                           "bool": "BoolTensor"}.get(str(value.array.dtype), "Tensor")
    return type(value).__name__


def _check_name(module: Module, name, kind: str) -> None:
    if not isinstance(name, str):
        raise TorchTypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if "." in name:
        raise TorchKeyError(f'{kind} name can\'t contain "."')
    if name == "":
        raise TorchKeyError(f'{kind} name can\'t be empty string ""')
    if name in module.__dict__ and not name.startswith("_"):
        raise TorchKeyError(f"attribute '{name}' already exists")


def registry_op(name: str):
    return REGISTRY[name].fn


# -- containers --------------------------------------------------------------------------------------------

class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for key, module in modules[0].items():
                self.add_module(key, module)
        else:
            for index, module in enumerate(modules):
                self.add_module(str(index), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        items = list(self._modules.items())
        if isinstance(index, slice):
            return type(self)(OrderedDict(items[index]))
        return items[_list_index(index, len(items))][1]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        for module in modules or []:
            self.append(module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        items = list(self._modules.values())
        if isinstance(index, slice):
            return ModuleList(items[index])
        return items[_list_index(index, len(items))]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [ModuleList] is missing the required "forward" function')


class ModuleDict(Module):
    """torch.nn.ModuleDict: sub-modules by name, in insertion order (a dict or an iterable of (name, module))."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str):
        return self._modules[key]

    def __setitem__(self, key: str, module) -> None:
        self.add_module(key, module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def pop(self, key: str):
        return self._modules.pop(key)

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules) -> None:
        if isinstance(modules, (dict, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
            return
        for j, pair in enumerate(modules):
            if not isinstance(pair, (list, tuple)):
                raise TorchTypeError(f"ModuleDict update sequence element #{j} should be Iterable; is "
                                     f"{type(pair).__name__}")
            if len(pair) != 2:
                raise TorchValueError(f"ModuleDict update sequence element #{j} has length {len(pair)}; 2 is "
                                      "required")
            self[pair[0]] = pair[1]

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [ModuleDict] is missing the required "forward" function')


def _as_parameter(value):
    """What ParameterList / ParameterDict store: a plain tensor becomes a Parameter, as torch's __setitem__ makes it."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


class ParameterList(Module):
    """torch.nn.ParameterList: parameters registered under "0", "1", ... (plain tensors made Parameters)."""

    def __init__(self, values=None):
        super().__init__()
        object.__setattr__(self, "_size", 0)
        for value in values or []:
            self.append(value)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ParameterList([self._parameters[str(i)] for i in range(self._size)[index]])
        return self._parameters[str(_list_index(index, self._size))]

    def __setitem__(self, index, value) -> None:
        self.register_parameter(str(_list_index(index, self._size)), _as_parameter(value))

    def __iter__(self):
        return iter([self._parameters[str(i)] for i in range(self._size)])

    def append(self, value):
        object.__setattr__(self, "_size", self._size + 1)
        self.register_parameter(str(self._size - 1), _as_parameter(value))
        return self

    def extend(self, values):
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): Parameter containing: [{p.dtype} of size {'x'.join(map(str, p.shape))}]"
                         for k, p in enumerate(self))

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [ParameterList] is missing the required "forward" function')


_LEGACY_TYPE_NAMES = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor", "float16": "torch.HalfTensor",
                      "int64": "torch.LongTensor", "int32": "torch.IntTensor", "bool": "torch.BoolTensor"}


class ParameterDict(Module):
    """torch.nn.ParameterDict: parameters by name, in insertion order (plain tensors made Parameters)."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        return self._parameters[key]

    def __setitem__(self, key: str, value) -> None:
        self.register_parameter(key, _as_parameter(value))

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def __contains__(self, key) -> bool:
        return key in self._parameters

    def keys(self):
        return self._parameters.keys()

    def items(self):
        return self._parameters.items()

    def values(self):
        return self._parameters.values()

    def pop(self, key: str):
        return self._parameters.pop(key)

    def clear(self) -> None:
        self._parameters.clear()

    def update(self, parameters) -> None:
        pairs = parameters.items() if isinstance(parameters, (dict, ParameterDict)) else parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): Parameter containing: [{_LEGACY_TYPE_NAMES.get(p.dtype.name, 'torch.Tensor')} "
                         f"of size {'x'.join(map(str, p.shape))}]" for k, p in self.items())

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [ParameterDict] is missing the required "forward" function')


def _list_index(index, length: int) -> int:
    index = int(index)
    if not -length <= index < length:
        raise TorchIndexError(f"index {index} is out of range")
    return index % length


# -- layers ------------------------------------------------------------------------------------------------

def kaiming_uniform_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                     generator=None) -> Tensor:
    """torch.nn.init.kaiming_uniform_: uniform_(-bound, bound), bound = sqrt(3) * gain / sqrt(fan)."""
    fan_in, fan_out = calculate_fan_in_and_fan_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = calculate_gain(nonlinearity, a)
    bound = math.sqrt(3.0) * (gain / math.sqrt(fan))
    with no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_normal_(tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu",
                    generator=None) -> Tensor:
    """torch.nn.init.kaiming_normal_: normal_(0, gain / sqrt(fan))."""
    fan = _correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


def _correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise TorchValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                  generator=None) -> Tensor:
    """torch.nn.init.trunc_normal_ as PyTorch 2.13 draws it (torch/nn/init.py, _no_grad_trunc_normal_), op for op:
    when [a, b] holds more than 0.3 of the mass, normal_ draws with the values outside redrawn (a fresh normal_
    of the whole tensor per round, kept where outside) until none is; else uniform_ candidates on [a, b] accepted
    by a uniform_ draw's log against the log density below its peak, pending ones redrawn."""
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    op = registry_op
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        state.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may be "
                   "incorrect.", UserWarning)
    with no_grad():
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if p > 0.3:
            lo = creation.tensor(a, dtype=tensor.dtype).item()
            hi = creation.tensor(b, dtype=tensor.dtype).item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = op("logical_or")(op("lt")(result, lo), op("gt")(result, hi))
                if not op("any")(mask).item():
                    break
                fresh = creation.empty_like(result).normal_(mean, std, generator=generator)
                result = op("where")(mask, fresh, result)
            if tensor is not result:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2

        def log_density_gap(candidates):  # candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            for name, value in (("sub_", mean), ("div_", std), ("pow_", 2), ("mul_", -0.5), ("sub_", log_peak)):
                op(name)(candidates, value)

        candidates = creation.empty_like(tensor)
        accept_buf = creation.empty_like(tensor)
        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        log_density_gap(candidates)
        pending = op("gt")(op("log_")(accept_buf.uniform_(generator=generator)), candidates)
        if op("any")(pending).item():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = op("where")(pending, candidates, result)
                log_density_gap(candidates)
                pending = op("where")(pending, op("gt")(op("log_")(accept_buf.uniform_(generator=generator)),
                                                        candidates), pending)
                if not op("any")(pending).item():
                    break
            tensor.copy_(result)
        return tensor


def eye_(tensor: Tensor) -> Tensor:
    """torch.nn.init.eye_: the identity matrix written into a 2-D tensor."""
    if tensor.dim() != 2:
        raise TorchValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return tensor.copy_(creation.eye(*tensor.shape, dtype=tensor.dtype))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """torch.nn.init.dirac_: zeros but a one at each kernel's centre for each kept input channel (per group)."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise TorchValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise TorchValueError("dim 0 must be divisible by groups")
    per_group = sizes[0] // groups
    with no_grad():
        tensor.zero_()
        centre = tuple(size // 2 for size in sizes[2:])
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor.array[(g * per_group + d, d, *centre)] = 1
        return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """torch.nn.init.sparse_: normal_(0, std), then in each column the rows of a fresh randperm's first
    ceil(sparsity * rows) entries set to zero (randperm from the default generator, as torch draws it)."""
    if tensor.dim() != 2:
        raise TorchValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            zero_rows = registry_op("randperm")(rows)[:num_zeros]
            tensor.array[zero_rows.array, col] = 0
        return tensor


def calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise TorchValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for size in tensor.shape[2:]:
        receptive *= size
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def calculate_gain(nonlinearity: str, param=None) -> float:
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
              "sigmoid")
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise TorchValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise TorchValueError(f"Unsupported nonlinearity {nonlinearity}")


def factory_dtype(dtype):
    return dtype if dtype is not None else dtypes.get_default_dtype()


class Linear(Module):
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(creation.empty(out_features, in_features, dtype=factory_dtype(dtype), device=device))
        if bias:
            self.bias = Parameter(creation.empty(out_features, dtype=factory_dtype(dtype), device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return registry_op("linear")(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class DataParallel(Module):
    """nn.DataParallel on a machine without CUDA (as torch builds it then): no devices to replicate to, so it holds
    the module and its forward is the module's."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.output_device = None

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
class UninitializedParameter(Parameter):
    """torch.nn.UninitializedParameter: a lazy module's parameter before its first call, without data.  It
    becomes a Parameter of the shape `materialize` gives it (uninitialised memory, which the module's
    reset_parameters then fills), as torch's UninitializedTensorMixin.materialize turns itself into one."""

    __slots__ = ()

    def materialize(self, shape) -> None:
        self.array = creation.empty(*shape, dtype=self.dtype).array
        object.__setattr__(self, "__class__", Parameter)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


class LazyLinear(Linear):
    """torch.nn.LazyLinear: a Linear whose in_features is the last dim of its first input.  Nothing is drawn
    when it is made; its first call materialises the weight (and bias) and initialises them as Linear does,
    from the generator's state at that call, then the module becomes a Linear (torch's cls_to_become): printed
    as one, `type(m) == nn.Linear`.  A state_dict loaded before that gives the parameters its shapes."""

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None):
        super().__init__(0, 0, False)  # torch's: Linear's empty (0, 0) weight, replaced at once
        self.weight = UninitializedParameter(creation.empty(0, dtype=factory_dtype(dtype)))
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(creation.empty(0, dtype=factory_dtype(dtype)))

    def has_uninitialized_params(self) -> bool:
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:  # materialised by a loaded state_dict
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                                     f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]

    def call_with_hooks(self, forward, args: tuple, kwargs: dict):
        # torch's _infer_parameters: the forward pre-hook registered first, removed once it has run
        self.initialize_parameters(*args, **kwargs)
        object.__setattr__(self, "__class__", Linear)
        return Module.call_with_hooks(self, forward, args, kwargs)


def materialize_from(module, state_dict, prefix: str = "") -> None:
    """torch's _lazy_load_hook: each uninitialised parameter of a lazy module takes the shape of the tensor
    state_dict holds for it, before the values are copied."""
    for name, param in list(module._parameters.items()):
        source = state_dict.get(prefix + name)
        if isinstance(param, UninitializedParameter) and isinstance(source, Tensor):
            param.materialize(tuple(source.shape))


class Identity(Module):
    def __init__(self, *args, **kwargs):  # takes and ignores any arguments, as torch's
        super().__init__()

    def forward(self, input):
        return input


class Flatten(Module):
    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    def __init__(self, dim: int, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)

    def forward(self, input):
        shape = list(input.shape)
        dim = self.dim % len(shape)
        return input.reshape(*shape[:dim], *self.unflattened_size, *shape[dim + 1:])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def _activation(class_name: str, op: str, params: tuple = (), defaults: tuple = (), shown: tuple | None = None):
    """A module whose forward is one registry op with the module's settings as its keyword arguments."""
    shown = params if shown is None else shown

    def __init__(self, *args, **kwargs):
        Module.__init__(self)
        values = dict(zip(params, defaults))
        if len(args) > len(params):
            raise TorchTypeError(f"{class_name}.__init__() takes from 1 to {len(params) + 1} positional arguments "
                                 f"but {len(args) + 1} were given")
        values.update(zip(params, args))
        for key, value in kwargs.items():
            if key not in values:
                raise TorchTypeError(f"{class_name}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        for key, value in values.items():
            setattr(self, key, value)

    def forward(self, input):
        settings = {key: getattr(self, key) for key in params}  # inplace=True modifies the input, as torch's
        return registry_op(op)(input, **settings)

    def extra_repr(self):
        parts = []
        for key in shown:
            value = getattr(self, key)
            if key == "inplace":
                if value:
                    parts.append("inplace=True")
            else:
                parts.append(f"{key}={value}")
        return ", ".join(parts)

    return type(class_name, (Module,), {"__init__": __init__, "forward": forward, "extra_repr": extra_repr,
                                        "__module__": __name__, "__qualname__": class_name})


ReLU = _activation("ReLU", "relu", ("inplace",), (False,))
Tanh = _activation("Tanh", "tanh")
Sigmoid = _activation("Sigmoid", "sigmoid")
SiLU = _activation("SiLU", "silu", ("inplace",), (False,))
GELU = _activation("GELU", "gelu", ("approximate",), ("none",))
ELU = _activation("ELU", "elu", ("alpha", "inplace"), (1.0, False))
LeakyReLU = _activation("LeakyReLU", "leaky_relu", ("negative_slope", "inplace"), (0.01, False))
Softplus = _activation("Softplus", "softplus", ("beta", "threshold"), (1.0, 20.0))
Softmax = _activation("Softmax", "softmax", ("dim",), (None,))
LogSoftmax = _activation("LogSoftmax", "log_softmax", ("dim",), (None,))

Hardtanh = _activation("Hardtanh", "hardtanh", ("min_val", "max_val", "inplace"), (-1.0, 1.0, False))
ReLU6 = _activation("ReLU6", "relu6", ("inplace",), (False,))
Threshold = _activation("Threshold", "threshold", ("threshold", "value", "inplace"), (None, None, False))
Hardsigmoid = _activation("Hardsigmoid", "hardsigmoid", ("inplace",), (False,))
Hardswish = _activation("Hardswish", "hardswish", ("inplace",), (False,))
Mish = _activation("Mish", "mish", ("inplace",), (False,))
CELU = _activation("CELU", "celu", ("alpha", "inplace"), (1.0, False))
SELU = _activation("SELU", "selu", ("inplace",), (False,))
GLU = _activation("GLU", "glu", ("dim",), (-1,))
LogSigmoid = _activation("LogSigmoid", "logsigmoid")
Softsign = _activation("Softsign", "softsign")
Tanhshrink = _activation("Tanhshrink", "tanhshrink")
Softmin = _activation("Softmin", "softmin", ("dim",), (None,))


def _shrink_repr(self) -> str:
    return str(self.lambd)  # torch prints Hardshrink(0.5), the value alone


Hardshrink = type("Hardshrink", (_activation("Hardshrink", "hardshrink", ("lambd",), (0.5,)),),
                  {"extra_repr": _shrink_repr, "__module__": __name__, "__qualname__": "Hardshrink"})
Softshrink = type("Softshrink", (_activation("Softshrink", "softshrink", ("lambd",), (0.5,)),),
                  {"extra_repr": _shrink_repr, "__module__": __name__, "__qualname__": "Softshrink"})


class Softmax2d(Module):
    """softmax over the channels (dim -3) of a 3-D or 4-D input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise TorchValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return registry_op("softmax")(input, -3)


class PReLU(Module):
    def __init__(self, num_parameters: int = 1, init: float = 0.25):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(creation.full((num_parameters,), float(init)))

    def forward(self, input):
        return registry_op("prelu")(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class RReLU(Module):
    """nn.RReLU: random slopes (torch's generator) for the non-positive elements in training, their mean in eval."""

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return registry_op("rrelu_" if self.inplace else "rrelu")(input, self.lower, self.upper, self.training)

    def extra_repr(self) -> str:
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


MORE_ACTIVATIONS = (Hardtanh, ReLU6, Threshold, Hardsigmoid, Hardswish, Mish, CELU, SELU, GLU, LogSigmoid, Softsign,
                    Tanhshrink, Softmin, Hardshrink, Softshrink, Softmax2d, PReLU, RReLU)


class Dropout(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        if p < 0 or p > 1:
            raise TorchValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return registry_op("dropout")(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


def _loss(class_name: str, op: str, params: tuple = (), defaults: tuple = ()):
    """A loss module: reduction (and the op's other settings) kept as attributes, forward = the op."""

    def __init__(self, *args, size_average=None, reduce=None, **kwargs):
        Module.__init__(self)
        if size_average is not None or reduce is not None:
            raise TorchValueError("size_average and reduce are deprecated; use reduction=")
        values = dict(zip(params, defaults))
        values.update(zip(params, args))
        for key, value in kwargs.items():
            if key not in values:
                raise TorchTypeError(f"{class_name}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        if values.get("reduction", "mean") not in ("none", "mean", "sum", *(("batchmean",) if op == "kl_div" else ())):
            raise TorchValueError(f"{values['reduction']} is not a valid value for reduction")
        for key, value in values.items():
            if key in ("weight", "pos_weight"):
                self.register_buffer(key, value)
            else:
                setattr(self, key, value)

    def forward(self, *inputs):  # (input, target), or three tensors for the losses of pairs and triplets
        return registry_op(op)(*inputs, **{key: getattr(self, key) for key in params})

    return type(class_name, (Module,), {"__init__": __init__, "forward": forward, "__module__": __name__,
                                        "__qualname__": class_name})


MSELoss = _loss("MSELoss", "mse_loss", ("reduction",), ("mean",))
L1Loss = _loss("L1Loss", "l1_loss", ("reduction",), ("mean",))
SmoothL1Loss = _loss("SmoothL1Loss", "smooth_l1_loss", ("reduction", "beta"), ("mean", 1.0))
HuberLoss = _loss("HuberLoss", "huber_loss", ("reduction", "delta"), ("mean", 1.0))
CrossEntropyLoss = _loss("CrossEntropyLoss", "cross_entropy",
                         ("weight", "ignore_index", "reduction", "label_smoothing"), (None, -100, "mean", 0.0))
NLLLoss = _loss("NLLLoss", "nll_loss", ("weight", "ignore_index", "reduction"), (None, -100, "mean"))
BCELoss = _loss("BCELoss", "binary_cross_entropy", ("weight", "reduction"), (None, "mean"))
BCEWithLogitsLoss = _loss("BCEWithLogitsLoss", "binary_cross_entropy_with_logits",
                          ("weight", "reduction", "pos_weight"), (None, "mean", None))
# the settings in the order torch's constructors take them positionally (size_average and reduce aside)
KLDivLoss = _loss("KLDivLoss", "kl_div", ("reduction", "log_target"), ("mean", False))
SoftMarginLoss = _loss("SoftMarginLoss", "soft_margin_loss", ("reduction",), ("mean",))
HingeEmbeddingLoss = _loss("HingeEmbeddingLoss", "hinge_embedding_loss", ("margin", "reduction"), (1.0, "mean"))
PoissonNLLLoss = _loss("PoissonNLLLoss", "poisson_nll_loss", ("log_input", "full", "eps", "reduction"),
                       (True, False, 1e-8, "mean"))
GaussianNLLLoss = _loss("GaussianNLLLoss", "gaussian_nll_loss", ("full", "eps", "reduction"), (False, 1e-6, "mean"))
CosineEmbeddingLoss = _loss("CosineEmbeddingLoss", "cosine_embedding_loss", ("margin", "reduction"), (0.0, "mean"))
MarginRankingLoss = _loss("MarginRankingLoss", "margin_ranking_loss", ("margin", "reduction"), (0.0, "mean"))
TripletMarginLoss = _loss("TripletMarginLoss", "triplet_margin_loss", ("margin", "p", "eps", "swap", "reduction"),
                          (1.0, 2.0, 1e-6, False, "mean"))
MultiMarginLoss = _loss("MultiMarginLoss", "multi_margin_loss", ("p", "margin", "weight", "reduction"),
                        (1, 1.0, None, "mean"))
MultiLabelSoftMarginLoss = _loss("MultiLabelSoftMarginLoss", "multilabel_soft_margin_loss", ("weight", "reduction"),
                                 (None, "mean"))
MultiLabelMarginLoss = _loss("MultiLabelMarginLoss", "multilabel_margin_loss", ("reduction",), ("mean",))
CTCLoss = _loss("CTCLoss", "ctc_loss", ("blank", "reduction", "zero_infinity"), (0, "mean", False))
OTHER_LOSSES = (MultiLabelSoftMarginLoss, MultiLabelMarginLoss, CTCLoss, KLDivLoss, SoftMarginLoss, HingeEmbeddingLoss,
                PoissonNLLLoss,
                GaussianNLLLoss, CosineEmbeddingLoss,
                MarginRankingLoss, TripletMarginLoss, MultiMarginLoss)


# The torch.nn members a program reaches, by name (torch.nn.functional is added by the caller).
MODULE_CLASSES = {cls.__name__: cls for cls in (
    Module, Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict,
    Linear, LazyLinear, Identity, Flatten, Unflatten, ReLU, Tanh, Sigmoid, SiLU, GELU, ELU,
    LeakyReLU, Softplus, Softmax, LogSoftmax, Dropout, MSELoss, L1Loss, SmoothL1Loss, HuberLoss, CrossEntropyLoss,
    NLLLoss, BCELoss, BCEWithLogitsLoss, DataParallel, *OTHER_LOSSES, *MORE_ACTIVATIONS)}
# the file of torch.nn.modules each class lives in: its printed class name is torch.nn.modules.<file>.<name>
TORCH_MODULE_FILES = {
    "Sequential": "container", "ModuleList": "container", "ModuleDict": "container", "ParameterList": "container",
    "ParameterDict": "container", "Linear": "linear", "LazyLinear": "linear", "Identity": "linear",
    "DataParallel": "data_parallel",
    "Flatten": "flatten", "Unflatten": "flatten", "Dropout": "dropout",
    **{name: "activation" for name in ("ReLU", "Tanh", "Sigmoid", "SiLU", "GELU", "ELU", "LeakyReLU", "Softplus",
                                       "Softmax", "LogSoftmax", *(cls.__name__ for cls in MORE_ACTIVATIONS))},
    **{name: "loss" for name in ("MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss",
                                 "BCELoss", "BCEWithLogitsLoss", *(cls.__name__ for cls in OTHER_LOSSES))},
}
INIT_FUNCTIONS = {fn.__name__: fn for fn in (
    kaiming_uniform_, uniform_, normal_, constant_, zeros_, ones_, xavier_uniform_, xavier_normal_,
    calculate_gain, kaiming_normal_, trunc_normal_, eye_, dirac_, sparse_)}
