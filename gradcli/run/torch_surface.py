"""The parts of torch's Python API that are plain Python in torch itself, written as torch writes them:
the legacy `Variable` and typed constructors (`torch.LongTensor([1, 2])`), `out=` on torch's functions,
`torch.normal`, `torch.autograd.functional` (jacobian, hessian, vjp, jvp, hvp, vhp: torch/autograd/functional.py,
operation for operation, so values and grad_fn names are torch's), `gradcheck` / `gradgradcheck`, and the
autograd profiler (it runs the code; its table is timing)."""

from __future__ import annotations

import contextvars
import pickle
import time

import numpy as np

from gradcli import engine
from gradcli.engine import creation, dtypes, forward_ad, meta, random, state
from gradcli.engine.autograd import HOOKS_DISABLED, enable_grad, register_multi_grad_hook, saved_tensors_hooks
from gradcli.engine.errors import EngineError, TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.modules import Module, Parameter
from gradcli.engine.ops import REGISTRY
from gradcli.engine.tensor import CPU, Device, Size, Tensor, check_device
from gradcli.run import argument_parser, classes
from gradcli.run.numpy_api import NumpyRefused

# -- legacy constructors --------------------------------------------------------------------------------------


def Generator(device="cpu"):
    """torch.Generator(device='cpu'): a generator of its own for `generator=` arguments, starting from torch's
    default seed until its manual_seed."""
    if Device(device).type != "cpu":
        raise TorchRuntimeError(f"gradcli computes on the CPU only; a generator on '{device}' is not available")
    return random.Generator(random.NEW_GENERATOR_SEED)


def Variable(data=None, requires_grad: bool = False, volatile: bool = False):
    """torch.autograd.Variable (torch/csrc/autograd/python_legacy_variable.cpp): the data detached, sharing its
    storage, with requires_grad set."""
    if volatile:
        state.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                      UserWarning, stacklevel=2)
    if data is None:
        var = creation.empty(0)
    elif isinstance(data, Tensor):
        var = data.detach()
    else:
        raise TorchTypeError(f"Variable data has to be a tensor, but got {_type_name(data)}")
    if requires_grad:
        var.requires_grad_(True)
    return var


def _type_name(value) -> str:
    return {list: "list", tuple: "tuple", int: "int", float: "float", str: "str", bool: "bool"}.get(
        type(value), type(value).__name__)


def legacy_constructor(name: str, dtype_name: str | None):
    """torch.FloatTensor & co.: `T(sequence)` is a tensor of that data, `T(n, m, ...)` / `T(torch.Size)` an
    uninitialised one of that shape (zeros here), `T()` an empty one."""

    def construct(*args, device=None):
        dtype = dtypes.get_default_dtype() if dtype_name is None else dtypes.by_name(dtype_name)
        check_device(device)  # the legacy constructors are not torch's factory functions: no default device
        if not args:
            return creation.empty(0, dtype=dtype, device=CPU)
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
            return creation.tensor(_cast_data(args[0], dtype), dtype=dtype, device=CPU)
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype != dtype:
                raise TorchTypeError(f"expected {_legacy_type(dtype)} (got {_legacy_type(args[0].dtype)})")
            return args[0]
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args) or \
                (len(args) == 1 and isinstance(args[0], Size)):
            return creation.zeros(*args, dtype=dtype, device=CPU)
        raise TorchTypeError(f"new(): invalid data type '{_type_name(args[0])}'")

    construct.__name__ = name
    construct.__qualname__ = name
    return construct


def _legacy_type(dtype) -> str:
    names = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool",
             "float16": "Half", "int16": "Short", "int8": "Char", "uint8": "Byte"}
    return f"torch.{names.get(str(dtype).removeprefix('torch.'), 'Float')}Tensor"


def _cast_data(data, dtype):
    """Python numbers converted as torch's legacy constructors convert them (1.7 -> 1 for LongTensor)."""
    if isinstance(data, (list, tuple)):
        return [_cast_data(item, dtype) for item in data]
    if isinstance(data, Tensor):
        return data.item()
    if dtype.is_floating_point:
        return float(data)
    if str(dtype) == "torch.bool":
        return bool(data)
    return int(data)


LEGACY_CONSTRUCTORS = {name: legacy_constructor(name, dtype) for name, dtype in (
    ("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"), ("LongTensor", "int64"),
    ("IntTensor", "int32"), ("ShortTensor", "int16"), ("CharTensor", "int8"), ("ByteTensor", "uint8"),
    ("BoolTensor", "bool"))}
TENSOR_CONSTRUCTOR = legacy_constructor("Tensor", None)


# -- out= -----------------------------------------------------------------------------------------------------

ABSENT = object()  # an argument not given (out=None is given)


def with_out(fn, name: str):
    """torch.X(..., out=t): the result written into t (resized as torch resizes it, with its warning when t had
    elements of another shape), t returned; refused under autograd as torch refuses it."""

    signatures = argument_parser.parser(name)  # torch's argument parser, where torch.NAME has one
    accepted = signatures.accepted if signatures is not None else None

    def call(*args, out=ABSENT, **kwargs):
        if signatures is not None:  # (argument_parser.call_key's first step inline: the common case's only cost)
            rebound = None
            if out is not ABSENT:  # (out=None too: torch counts it among the arguments)
                rebound = signatures.check(args, {**kwargs, "out": out})
                if rebound is not None:
                    args, kwargs = rebound[0], {k: v for k, v in rebound[1].items() if k != "out"}
            elif (tuple(map(type, args)) if not kwargs else
                  (*map(type, args), *map(type, kwargs.values()), *kwargs)) not in accepted:
                rebound = signatures.check(args, kwargs)
                if rebound is not None:
                    args, kwargs = rebound
        if out is ABSENT:
            out = None
        if out is None:
            return fn(*args, **kwargs)
        if isinstance(out, (tuple, list)):
            raise TorchTypeError(f"{name}(): gradcli run supports out= with one tensor only; assign the result "
                                 f"instead (values = torch.{name}(...))")
        if not isinstance(out, Tensor):
            raise TorchTypeError(f"{name}(): argument 'out' must be Tensor, not {_type_name(out)}")
        if engine.is_grad_enabled() and (out.requires_grad or any(
                isinstance(a, Tensor) and a.requires_grad for a in (*args, *kwargs.values()))):
            raise TorchRuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                                    "differentiation, but one of the arguments requires grad.")
        result = fn(*args, **kwargs)
        if not isinstance(result, Tensor):
            raise TorchTypeError(f"{name}() got an unexpected keyword argument 'out'")
        if not _can_cast(result.dtype, out.dtype):
            raise TorchRuntimeError(f"result type {_title(result.dtype)} can't be cast to the desired output type "
                                    f"{_title(out.dtype)}")
        if tuple(out.shape) != tuple(result.shape):
            if out.numel() != 0 and name == "arange":
                state.warn(
                    f"The number of elements in the out tensor of shape [{', '.join(map(str, out.shape))}] is "
                    f"{out.numel()} which does not match the computed number of elements {result.numel()}. Note "
                    "that this may occur as a result of rounding error. The out tensor will be resized to a tensor "
                    f"of shape ({', '.join(map(str, result.shape))},). (Triggered internally at "
                    "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)", UserWarning, stacklevel=2)
            elif out.numel() != 0:
                state.warn(
                    f"An output with one or more elements was resized since it had shape "
                    f"[{', '.join(map(str, out.shape))}], which does not match the required output shape "
                    f"[{', '.join(map(str, result.shape))}]. This behavior is deprecated, and in a future PyTorch "
                    "release outputs will not be resized unless they have zero elements. You can explicitly "
                    "reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0). "
                    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)", UserWarning,
                    stacklevel=2)
            out.array = np.zeros(result.shape, dtype=out.array.dtype)
        with engine.no_grad():
            out.copy_(result)
        return out

    call.__name__ = getattr(fn, "__name__", name)
    call.__qualname__ = call.__name__
    call.__wrapped__ = fn
    call.arguments_checked = True
    return call


def _title(dtype) -> str:
    return {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool",
            "float16": "Half", "int16": "Short", "int8": "Char", "uint8": "Byte", "bfloat16": "BFloat16"}.get(
        str(dtype).removeprefix("torch."), str(dtype))


def _can_cast(src, dst) -> bool:
    """torch's canCast: no floating result into an integral tensor, nothing but bool into bool."""
    kind = {True: 2}
    def rank(d):
        if str(d) == "torch.bool":
            return 0
        return 2 if d.is_floating_point else 1
    del kind
    return rank(src) <= rank(dst)


# -- torch.autograd.functional ---------------------------------------------------------------------------------

def _as_tuple(inp, arg_name: str, fn_name: str):
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"the value at index {i} has type" if is_tuple else f"the given {arg_name} has type"
            raise TorchTypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                                 f"but {where} {_class_repr(el)}.")
    return is_tuple, items


def _class_repr(value) -> str:
    return f"<class '{_type_name(value)}'>"


def _tuple_postprocess(res, to_unpack):
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph: bool, need_graph: bool):
    if create_graph:
        return tuple(inp.view_as(inp) if inp.requires_grad else inp.detach().requires_grad_(need_graph)
                     for inp in inputs)
    return tuple(inp.detach().requires_grad_(need_graph) for inp in inputs)


def _grad_postprocess(inputs, create_graph: bool):
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise TorchRuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise TorchRuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if tuple(el_v.shape) != tuple(el_other.shape):
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise TorchRuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got "
                                    f"{el_v.size()}.")


def _check_requires_grad(inputs, input_type: str, strict: bool) -> None:
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise TorchRuntimeError(f"The output of the user-provided function is independent of input {i}. "
                                    "This is not allowed in strict mode.")
        if not inp.requires_grad:
            if input_type == "hessian":
                raise TorchRuntimeError(f"The hessian of the user-provided function with respect to input {i} is "
                                        "independent of the input. This is not allowed in strict mode. You should "
                                        "ensure that your function is thrice differentiable and that the hessian "
                                        "depends on the inputs.")
            if input_type == "jacobian":
                raise TorchRuntimeError(f"While computing the hessian, found that the jacobian of the user-provided "
                                        f"function with respect to input {i} is independent of the input. This is "
                                        "not allowed in strict mode. You should ensure that your function is twice "
                                        "differentiable and that the jacobian depends on the inputs (this would be "
                                        "violated by a linear function for example).")
            if input_type == "grad_inputs":
                raise TorchRuntimeError(f"The gradient with respect to input {i} is independent of the inputs of "
                                        "the user-provided function. This is not allowed in strict mode.")
            raise TorchRuntimeError(f"Output {i} of the user-provided function does not require gradients. The "
                                    "outputs must be computed in a differentiable manner from the input when "
                                    "running in strict mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grad_outputs = [], []
    for out, grad_out in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            new_outputs.append(out)
            new_grad_outputs.append(grad_out)
    if not new_outputs:
        return (None,) * len(inputs)
    return tuple(engine.grad(new_outputs, list(inputs), new_grad_outputs, allow_unused=True,
                             create_graph=create_graph, retain_graph=retain_graph))


def _fill_in_zeros(grads, refs, strict: bool, create_graph: bool, stage: str):
    res = []
    for i, grads_i in enumerate(grads):
        if grads_i is None:
            if strict:
                raise TorchRuntimeError(f"The output of the user-provided function is independent of input {i}. "
                                        "This is not allowed in strict mode.")
            grads_i = creation.zeros_like(refs[i])
        res.append(grads_i)
    return tuple(res)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, outputs, is_outputs_tuple)
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise TorchRuntimeError("The vector v can only be None if the user-provided function returns a single "
                                    "Tensor with a single element.")
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        vjp_ = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    vjp_ = _grad_postprocess(vjp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vjp_, is_inputs_tuple)


def _inputs_and_v(inputs, v, create_graph, name):
    """jvp's, vhp's and hvp's inputs and their vector v, checked and prepared as torch's functional.py does."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", name)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    if v is not None:
        _, v = _as_tuple(v, "v", name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, inputs, is_inputs_tuple)
    elif len(inputs) != 1 or inputs[0].numel() != 1:
        raise TorchRuntimeError("The vector v can only be None if the input to the user-provided function is a "
                                "single Tensor with a single element.")
    return is_inputs_tuple, inputs, v


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """The double-backward trick, as torch computes jvp."""
    with enable_grad():
        is_inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "jvp")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        grad_outputs = tuple(creation.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
        if create_graph:
            with enable_grad():
                grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
                jvp_ = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
        else:
            grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
            jvp_ = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    jvp_ = _grad_postprocess(jvp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(jvp_, is_outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """Row by row (torch's vectorize=False path; vectorize=True gives the same values)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise TorchValueError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                               'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                               'Otherwise, prefer to use "reverse-mode".')
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        result = []
        for i, out in enumerate(outputs):
            jac_i = [[] for _ in inputs]
            for j in range(out.numel()):
                vj = _autograd_grad((out.reshape(-1)[j],), inputs, retain_graph=True, create_graph=create_graph)
                for el_idx, (jac_i_el, vj_el, inp_el) in enumerate(zip(jac_i, vj, inputs)):
                    if vj_el is not None:
                        if strict and create_graph and not vj_el.requires_grad:
                            raise TorchRuntimeError("The jacobian of the user-provided function is independent of "
                                                    f"input {i}. This is not allowed in strict mode when "
                                                    "create_graph=True.")
                        jac_i_el.append(vj_el)
                    else:
                        if strict:
                            raise TorchRuntimeError(f"Output {i} of the user-provided function is independent of "
                                                    f"input {el_idx}. This is not allowed in strict mode.")
                        jac_i_el.append(creation.zeros_like(inp_el))
            result.append(tuple(_stack(jac_i_el, dim=0).view(*(tuple(out.shape) + tuple(inputs[k].shape)))
                                for k, jac_i_el in enumerate(jac_i)))
        result = _grad_postprocess(tuple(result), create_graph)
    return _tuple_postprocess(result, (is_outputs_tuple, is_inputs_tuple))


def _stack(tensors, dim=0):
    return REGISTRY["stack"].fn(tensors, dim=dim)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise TorchRuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise TorchRuntimeError("The Tensor returned by the function given to hessian should contain a single "
                                    "element")
        return out.squeeze()

    def jac_func(*inp):
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _single_output(outputs, fn_name: str) -> None:
    if len(outputs) != 1:
        raise TorchRuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise TorchRuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single "
                                "element")


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        is_inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "vhp")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vhp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if is_outputs_tuple or not isinstance(outputs[0], Tensor):
            raise TorchRuntimeError("The function given to vhp should return a single Tensor")
        _single_output(outputs, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        vhp_ = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    vhp_ = _grad_postprocess(vhp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vhp_, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        is_inputs_tuple, inputs, v = _inputs_and_v(inputs, v, create_graph, "hvp")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "hvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if is_outputs_tuple or not isinstance(outputs[0], Tensor):
            raise TorchRuntimeError("The function given to hvp should return a single Tensor")
        _single_output(outputs, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(creation.zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        hvp_ = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    hvp_ = _grad_postprocess(hvp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(hvp_, is_inputs_tuple)


FUNCTIONAL = {fn.__name__: fn for fn in (vjp, jvp, jacobian, hessian, vhp, hvp)}


# -- gradcheck ------------------------------------------------------------------------------------------------

class GradcheckError(TorchRuntimeError):
    """torch.autograd.gradcheck.GradcheckError (a RuntimeError)."""


def _differentiable(inputs):
    return [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]


def _outputs(func, inputs):
    out = func(*inputs)
    return out if isinstance(out, tuple) else (out,)


def _numerical_jacobian(func, inputs, index: int, out_index: int, eps: float) -> np.ndarray:
    x = inputs[index]
    flat = x.detach().array.reshape(-1)
    columns = []
    for k in range(flat.size):
        original = flat[k]
        values = []
        for step in (eps, -eps):
            probe = flat.copy()
            probe[k] = original + step
            args = list(inputs)
            args[index] = creation.tensor(probe.reshape(x.shape).tolist(), dtype=x.dtype,
                                          requires_grad=x.requires_grad)
            with enable_grad():
                values.append(np.asarray(_outputs(func, args)[out_index].detach().array, dtype=np.float64))
        columns.append(((values[0] - values[1]) / (2 * eps)).reshape(-1))
    return np.stack(columns, axis=0) if columns else np.zeros((0, 0))  # (input elements, output elements)


def _analytical_jacobian(func, inputs, index: int, out_index: int) -> np.ndarray:
    with enable_grad():
        out = _outputs(func, inputs)[out_index]
        rows = []
        for j in range(out.numel()):
            got = engine.grad([out.reshape(-1)[j]], [inputs[index]], retain_graph=True, allow_unused=True)[0]
            rows.append(np.zeros(inputs[index].numel()) if got is None else got.detach().array.reshape(-1))
    return np.stack(rows, axis=0) if rows else np.zeros((0, inputs[index].numel()))


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    """Finite differences (central, eps) against the backward pass, output by output and input by input."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    indices = _differentiable(inputs)
    if not indices:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i in indices:
        if inputs[i].dtype != dtypes.by_name("float64"):
            state.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point "
                          "or complex. ", UserWarning, stacklevel=2)
    if check_forward_ad and not _forward_jacobians_agree(func, inputs, indices, eps, atol, rtol, raise_exception):
        return False
    if not check_backward_ad:
        return True
    with enable_grad():
        outputs = _outputs(func, inputs)
    for o, out in enumerate(outputs):
        if not isinstance(out, Tensor) or not out.dtype.is_floating_point:
            continue
        for position, i in enumerate(indices):  # torch numbers the inputs that require grad
            numerical = _numerical_jacobian(func, inputs, i, o, eps)
            analytical = _analytical_jacobian(func, inputs, i, o).T  # rows per input element, as numerical's
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian mismatch for output {o} with respect to input {position},\n"
                                     f"numerical:{_repr(numerical)}\nanalytical:{_repr(analytical)}\n")
    return True


def _forward_jacobian(func, inputs, index: int, out_index: int) -> np.ndarray:
    """The Jacobian in forward mode, one input element at a time (a basis tangent), rows per input element."""
    x = inputs[index]
    rows = []
    for j in range(x.numel()):
        basis = np.zeros(x.array.size, dtype=x.array.dtype)
        basis[j] = 1
        with forward_ad.dual_level():
            dual = forward_ad.make_dual(x.detach(), Tensor._make(basis.reshape(x.array.shape), None))
            out = _outputs(func, (*inputs[:index], dual, *inputs[index + 1:]))[out_index]
            tangent = forward_ad.unpack_dual(out).tangent
            rows.append(np.zeros(out.numel()) if tangent is None else tangent.array.reshape(-1).astype(np.float64))
    return np.stack(rows, axis=0) if rows else np.zeros((0, 0))


def _forward_jacobians_agree(func, inputs, indices, eps, atol, rtol, raise_exception) -> bool:
    """gradcheck's check_forward_ad: finite differences against the Jacobian forward-mode AD gives."""
    outputs = _outputs(func, inputs)
    for o, out in enumerate(outputs):
        if not isinstance(out, Tensor) or not out.dtype.is_floating_point:
            continue
        for position, i in enumerate(indices):
            numerical = _numerical_jacobian(func, inputs, i, o, eps)
            analytical = _forward_jacobian(func, inputs, i, o)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(f"Jacobian computed with forward mode mismatch for output {o} with respect to "
                                     f"input {position},\nnumerical:{_repr(numerical)}\n"
                                     f"analytical:{_repr(analytical)}\n")
    return True


def _repr(array) -> str:
    return repr(creation.tensor(array.tolist(), dtype=dtypes.by_name("float64")))


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception=True, nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the function's backward: grad_outputs drawn as torch draws them (uniform in [-1, 1) from
    the default generator, one tensor per output), then differentiated once more."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    if grad_outputs is None:
        with enable_grad():
            outputs = _outputs(func, inputs)
        grad_outputs = []
        for out in outputs:
            g = creation.empty(*out.shape, dtype=out.dtype)
            with engine.no_grad():
                g.uniform_(-1, 1)
            grad_outputs.append(g.requires_grad_(True))
        grad_outputs = tuple(grad_outputs)
    else:
        grad_outputs = grad_outputs if isinstance(grad_outputs, tuple) else (grad_outputs,)
    n_in = len(inputs)
    indices = _differentiable(inputs)

    def new_func(*args):
        inps, gouts = args[:n_in], args[n_in:]
        with enable_grad():
            outs = _outputs(func, inps)
            diff = [inps[i] for i in indices]
            pairs = [(o, g) for o, g in zip(outs, gouts) if isinstance(o, Tensor) and o.requires_grad]
            grads = engine.grad([o for o, _ in pairs], diff, [g for _, g in pairs], create_graph=True,
                                allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, tuple(inputs) + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


# -- the autograd profiler ------------------------------------------------------------------------------------

class KeyAverages:
    def __init__(self, elapsed: float):
        self.elapsed = elapsed

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        rule = "-" * 35 + "  " + "  ".join(["-" * 12] * 6)
        names = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        head = f"{names[0]:>35}  " + "  ".join(f"{n:>12}" for n in names[1:])
        return f"{rule}\n{head}\n{rule}\n{rule}\nSelf CPU time total: {self.elapsed * 1000:.3f}ms\n"


class profile:
    """torch.autograd.profiler.profile: runs its block; the table it prints is wall time only (PyTorch's lists
    ATen's kernels, which gradcli does not have), and is timing either way."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=True, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None):
        self.elapsed = 0.0

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start
        return False

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        return KeyAverages(self.elapsed)

    def table(self, sort_by=None, row_limit=100, **kwargs):
        return self.key_averages().table(sort_by=sort_by, row_limit=row_limit)


class detect_anomaly:
    """torch.autograd.detect_anomaly / set_detect_anomaly: a context manager (and decorator) whose checks
    gradcli's backward makes anyway; it warns on entry as torch's does."""

    def __init__(self, mode: bool = True, check_nan: bool = True):
        self.mode = mode
        if mode:
            state.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only "
                          "be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


class DeviceMode:
    """`with torch.device(d):` (torch's DeviceContext): inside it torch's factory functions given no device
    create on d, which for anything but the CPU fails where the first tensor is made (engine/tensor.py's
    check_device), as a CPU-only torch fails."""

    def __init__(self, device: Device):
        self.device = device

    def __enter__(self):
        self._token = state.DEFAULT_DEVICE.set(None if self.device.type == "cpu" else self.device)
        return self.device

    def __exit__(self, *exc):
        state.DEFAULT_DEVICE.reset(self._token)
        return False


def set_default_device(device) -> None:
    """torch.set_default_device: where the factory functions create from now on (None: the CPU)."""
    device = None if device is None else Device(device)
    state.DEFAULT_DEVICE.set(None if device is None or device.type == "cpu" else device)


def get_default_device() -> Device:
    """torch.get_default_device: the CPU, or the device set, whose query fails for CUDA as torch.cuda's does."""
    device = state.DEFAULT_DEVICE.get()
    if device is None:
        return Device("cpu")
    check_device(device)
    return device


CONTEXT_MANAGERS = (profile, detect_anomaly, DeviceMode)


# -- torch.func -----------------------------------------------------------------------------------------------
# Computed with reverse mode on gradcli's graph (jacfwd's values are jacrev's; vmap runs the function once per
# batch entry and stacks the results): the values torch.func gives, not its implementation.

def _argnums(argnums, n: int) -> tuple:
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    for k in nums:
        if not isinstance(k, int) or not -n <= k < n:
            raise TorchRuntimeError(f"Got argnums={argnums}, but only {n} positional inputs")
    return tuple(k % n for k in nums)


def _is_tree(value) -> bool:
    """A container torch.func treats as a pytree node: a dict (a module's named parameters), a tuple or a list."""
    return isinstance(value, (dict, tuple, list)) and type(value) in (dict, tuple, list) or \
        isinstance(value, dict) and type(value).__name__ == "OrderedDict"


def _tree_leaves(value) -> list:
    """The leaves of a pytree in torch's order (a dict's in insertion order)."""
    if _is_tree(value):
        items = value.values() if isinstance(value, dict) else value
        return [leaf for item in items for leaf in _tree_leaves(item)]
    return [value]


def _tree_map(fn, value):
    """`value` with fn applied to each leaf, containers rebuilt as they were."""
    if isinstance(value, dict) and _is_tree(value):
        return type(value)((key, _tree_map(fn, item)) for key, item in value.items())
    if _is_tree(value):
        return type(value)(_tree_map(fn, item) for item in value)
    return fn(value)


def _differentiable_args(args, nums):
    """The arguments with those at `nums` (tensors, or dicts/tuples/lists of tensors: torch.func's pytrees)
    made leaves of a new graph."""
    args = list(args)
    for k in nums:
        def differentiable(a, k=k):
            if not isinstance(a, Tensor):
                raise TorchRuntimeError(f"Expected argument {k} to be a Tensor, got {_type_name(a)}")
            if a.requires_grad:
                return a.view_as(a)
            leaf = a.detach().requires_grad_(True)
            tangent = forward_ad.tangent_of(a)
            if tangent is not None:  # a dual input stays dual (and its backward is then refused as
                forward_ad.set_tangent(leaf, tangent)  # forward-over-reverse, never a gradient without its tangent)
            return leaf
        args[k] = _tree_map(differentiable, args[k])
    return args


def _nested(args) -> bool:
    return any(isinstance(a, Tensor) and a.requires_grad for a in _tree_leaves(list(args)))


def _detached(value):
    """torch.func's outputs leave the transform without its graph (tensors nested in tuples, lists, dicts)."""
    if isinstance(value, Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        return type(value)(_detached(v) for v in value)
    if isinstance(value, dict):
        return {k: _detached(v) for k, v in value.items()}
    return value


def func_grad(func, argnums=0, has_aux=False):
    def grad_fn(*args, **kwargs):
        nums = _argnums(argnums, len(args))
        nested = _nested(args)
        with enable_grad():
            diff = _differentiable_args(args, nums)
            out = func(*diff, **kwargs)
            aux = None
            if has_aux:
                out, aux = out
            if not isinstance(out, Tensor) or out.numel() != 1:
                raise TorchRuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, "
                                        f"got tensor with {out.dim() if isinstance(out, Tensor) else 0} dims. "
                                        "Maybe you wanted to use the vjp or jacrev APIs instead?")
            leaves = [leaf for k in nums for leaf in _tree_leaves(diff[k])]
            # a graph of the gradient only when a transform around this one differentiates it (conv has no
            # double backward: per-sample gradients of a CNN need none)
            found = iter(engine.grad([out], leaves, create_graph=nested, allow_unused=True))

            def gradient(leaf):
                g = next(found)
                return creation.zeros_like(leaf) if g is None else g
            grads = tuple(_tree_map(gradient, diff[k]) for k in nums)  # each in its argument's structure
        if not nested:
            grads = _detached(grads)
            aux = _detached(aux)
        elif has_aux:  # an input handed back as aux leaves the transform as the caller's own tensor, as torch's
            originals = {id(w): a for k in nums for w, a in zip(_tree_leaves(diff[k]), _tree_leaves(args[k]))}
            aux = _tree_map(lambda leaf: originals.get(id(leaf), leaf), aux)
        result = grads if isinstance(argnums, tuple) else grads[0]
        return (result, aux) if has_aux else result
    return grad_fn


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    def jac_fn(*args):
        nums = _argnums(argnums, len(args))
        nested = _nested(args)
        with enable_grad():
            diff = _differentiable_args(args, nums)
            out = func(*diff)
            aux = None
            if has_aux:
                out, aux = out
            jacs = []
            for k in nums:
                rows = []
                for j in range(out.numel()):
                    g = engine.grad([out.reshape(-1)[j]], [diff[k]], retain_graph=True, create_graph=True,
                                    allow_unused=True)[0]
                    rows.append(creation.zeros_like(diff[k]) if g is None else g)
                shape = tuple(out.shape) + tuple(diff[k].shape)
                jac = _stack(rows, 0).view(*shape) if rows else creation.zeros(*shape, dtype=out.dtype)
                jacs.append(jac if nested else jac.detach())
        result = tuple(jacs) if isinstance(argnums, tuple) else jacs[0]
        if has_aux:
            return result, (aux if nested else _detached(aux))
        return result
    return jac_fn


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    return jacrev(func, argnums, has_aux=has_aux)


def func_hessian(func, argnums=0):
    return jacfwd(jacrev(func, argnums), argnums)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    def batched(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise TorchValueError(f"vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                                  f"structure of `inputs`. in_dims has structure {len(dims)} but inputs has "
                                  f"structure {len(args)}.")
        pairs = [pair for a, dim in zip(args, dims) for pair in _dims_of(a, dim)]
        for leaf, d in pairs:
            if d is not None and not isinstance(leaf, Tensor):
                name = getattr(func, "name", None) or getattr(func, "__name__", "f")  # a program's function: .name
                raise TorchValueError(f"vmap({name.rsplit('.', 1)[-1]}, in_dims={in_dims}, ...)(<inputs>): "
                                      f"Got in_dim={d} for an input but the input is of type {type(leaf)}. We cannot "
                                      "vmap over non-Tensor arguments, please use None as the respective in_dim")
        sizes = {leaf.shape[d] for leaf, d in pairs if d is not None}
        if not sizes:
            raise TorchValueError(f"vmap(f, in_dims={in_dims}, ...)(<inputs>): at least one input must be a Tensor "
                                  "batched by in_dims")
        if len(sizes) != 1:
            raise TorchValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got "
                                  f"sizes {sorted(sizes)} for the mapped dimension")
        results = []
        size = sizes.pop()
        for i in range(size):
            sliced = [_entry(a, d, i) for a, d in zip(args, dims)]  # a dict of tensors sliced leaf by leaf
            # torch's one batched call frees a graph autograd.grad reads once, after the whole batch
            token = _VMAP_MORE_ENTRIES.set(_VMAP_MORE_ENTRIES.get() or i < size - 1)
            try:
                results.append(func(*sliced, **kwargs))
            finally:
                _VMAP_MORE_ENTRIES.reset(token)
        if isinstance(results[0], tuple):
            outs = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(results[0])
            return tuple(_stacked([r[k] for r in results], outs[k]) for k in range(len(results[0])))
        return _stacked(results, out_dims)
    return batched


def _dims_of(value, dim) -> list:
    """(leaf, its batch dim) pairs of an argument: `dim` an int or None for all its leaves, or a dict, tuple or
    list of dims matching the argument's structure (in_dims=({"x": 0, "y": None},))."""
    if isinstance(dim, dict) and isinstance(value, dict):
        return [pair for key in value for pair in _dims_of(value[key], dim.get(key))]
    if isinstance(dim, (tuple, list)) and _is_tree(value) and not isinstance(value, dict):
        return [pair for item, d in zip(value, dim) for pair in _dims_of(item, d)]
    return [(leaf, dim) for leaf in _tree_leaves(value)]


def _entry(value, dim, i: int):
    """Batch entry i of an argument whose batch dims are `dim` (as _dims_of reads them)."""
    if dim is None:
        return value
    if isinstance(dim, dict) and isinstance(value, dict):
        return type(value)((key, _entry(item, dim.get(key), i)) for key, item in value.items())
    if isinstance(dim, (tuple, list)) and _is_tree(value) and not isinstance(value, dict):
        return type(value)(_entry(item, d, i) for item, d in zip(value, dim))
    return _tree_map(lambda leaf: leaf.select(dim, i) if isinstance(leaf, Tensor) else leaf, value)


_VMAP_MORE_ENTRIES: contextvars.ContextVar[bool] = contextvars.ContextVar("gradcli_vmap_more_entries", default=False)
_BATCHED_NODES: dict = {}
# The node torch's batched op ends in where it is not the per-entry op's (measured with torch 2.13: a full
# reduction becomes one over a dim, dot an mv, a matrix product a bmm's view ...); other ops keep their name.
_BATCHED_NAMES = {"SumBackward0": "SumBackward1", "MeanBackward0": "MeanBackward1", "ProdBackward0": "ProdBackward1",
                  "MaxBackward1": "MaxBackward0", "MinBackward1": "MinBackward0", "MedianBackward0": "MedianBackward1",
                  "DotBackward0": "MvBackward0", "TraceBackward0": "SumBackward1",
                  "SqueezeBackward4": "SqueezeBackward5", "MvBackward0": "PermuteBackward0",
                  "MmBackward0": "UnsafeViewBackward0", "TBackward0": "TransposeBackward0"}


def _stacked(results: list, dim: int):
    """vmap's output from the per-entry results: tensors stacked along `dim`, a dict's entries key by key.  Where
    every entry was made by the same op, the stacked result's node is named as torch's batched op that makes the
    result (`grad_fn=<ReluBackward0>`, a sum's SumBackward1); its next_functions are the entries' nodes."""
    if isinstance(results[0], dict):
        return type(results[0])((key, _stacked([r[key] for r in results], dim)) for key in results[0])
    out = _stack(results, dim)
    names = {type(r.grad_fn).name if isinstance(r, Tensor) and r.grad_fn is not None else None for r in results}
    if dim == 0 and out.grad_fn is not None and len(names) == 1 and None not in names:
        name = names.pop()
        name = _BATCHED_NAMES.get(name, name)
        node = type(out.grad_fn)
        batched = _BATCHED_NODES.get((node, name))
        if batched is None:
            batched = _BATCHED_NODES[(node, name)] = type(node.__name__, (node,), {"__slots__": (), "name": name})
        out.grad_fn.__class__ = batched
    return out


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    """torch.func.functional_call: module(*args, **kwargs) with its parameters and buffers named in the dict(s)
    replaced by the given tensors for this call only (torch/_functorch/functional_call.py)."""
    if strict:
        raise NumpyRefused("torch.func.functional_call(..., strict=True) (gradcli checks no missing or unexpected "
                           "keys: call it without strict=)")
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, dict):
        merged = dict(dicts)
    elif isinstance(dicts, (tuple, list)) and all(isinstance(d, dict) for d in dicts):
        merged = {}
        for d in dicts:
            repeated = [key for key in d if key in merged]
            if repeated:
                raise TorchValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call "
                                      "is ambiguous")
            merged.update(d)
    else:
        raise TorchValueError(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                              f"{_type_name(dicts)}")
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    swapped = []
    try:
        for name, value in merged.items():
            path, _, leaf = name.rpartition(".")
            owner = module.get_submodule(path)
            entries = next((owner.__dict__[table] for table in ("_parameters", "_buffers")
                            if leaf in owner.__dict__[table]), None)
            if entries is None:
                raise NumpyRefused(f"torch.func.functional_call with '{name}', which is not a parameter or buffer "
                                   "of the module (use a name module.named_parameters() or named_buffers() lists)")
            swapped.append((entries, leaf, entries[leaf]))
            entries[leaf] = value
        return module(*args, **(kwargs or {}))
    finally:
        for entries, leaf, old in reversed(swapped):
            entries[leaf] = old


def _primal_tensors(primals, api: str) -> None:
    for k, p in enumerate(primals):
        if not isinstance(p, Tensor):
            raise TorchRuntimeError(f"{api}: Expected all primals to be Tensors, got {_type_name(p)} at position {k}")


def func_vjp(func, *primals, has_aux=False):
    """torch.func.vjp: (func(*primals), vjp_fn), vjp_fn(cotangents) the tuple of vector-Jacobian products, one per
    primal (reverse mode, the graph kept so that vjp_fn may be called again, as under vmap)."""
    _primal_tensors(primals, "vjp(f, *primals)")
    nested = _nested(primals)
    with enable_grad():
        diff = _differentiable_args(primals, range(len(primals)))
        out = func(*diff)
        aux = None
        if has_aux:
            out, aux = out
    outs = tuple(_tree_leaves(out))  # a tensor, or tuples, lists and dicts of them (torch.func's pytrees)

    def vjp_fn(cotangents):
        cts = tuple(_tree_leaves(cotangents))
        if len(cts) != len(outs) or (isinstance(out, dict) and (not isinstance(cotangents, dict)
                                                                 or list(cotangents) != list(out))):
            raise TorchRuntimeError(f"Expected pytree structure of cotangents to be the same as pytree structure of "
                                    f"outputs to the function: {len(cts)} cotangents for {len(outs)} outputs")
        with enable_grad():
            grads = engine.grad(list(outs), diff, grad_outputs=list(cts), retain_graph=True,
                                create_graph=True, allow_unused=True)
        grads = tuple(creation.zeros_like(d) if g is None else g for g, d in zip(grads, diff))
        return grads if nested or _nested(cts) else tuple(g.detach() for g in grads)

    output = out if nested else _detached(out)
    return (output, vjp_fn, aux if nested else _detached(aux)) if has_aux else (output, vjp_fn)


def func_jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """torch.func.jvp: (func(*primals), the Jacobian of func at primals times tangents).  Forward-mode AD (each
    op's forward formula, engine/forward_ad.py), as torch computes it; inside another transform (primals that
    require grad, or a dual level already open) by the double-vjp trick in reverse mode, whose tangent is itself
    differentiable (the vjp's cotangent u is a variable, and the vjp is linear in it)."""
    for name, value in (("primals", primals), ("tangents", tangents)):
        if not isinstance(value, tuple):
            raise TorchRuntimeError(f"jvp(f, primals, tangents): Expected {name} to be a tuple. E.g. it should be "
                                    "valid to call f(*primals).")
    if len(primals) != len(tangents):
        raise TorchRuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                                f"structure. For example, if primals is a tuple of 3 tensors, tangents also must "
                                f"be. Got primals with structure {len(primals)} and tangents with structure "
                                f"{len(tangents)}")
    leaves, tangent_leaves = _tree_leaves(list(primals)), _tree_leaves(list(tangents))
    if len(leaves) != len(tangent_leaves):
        raise TorchRuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                                f"structure. For example, if primals is a tuple of 3 tensors, tangents also must "
                                f"be. Got primals with structure {len(leaves)} and tangents with structure "
                                f"{len(tangent_leaves)}")
    _primal_tensors(leaves, "jvp(f, primals, tangents)")
    for p, t in zip(leaves, tangent_leaves):
        if not isinstance(t, Tensor) or tuple(t.shape) != tuple(p.shape):
            raise TorchRuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same "
                                    "shape")
    nested = _nested(primals) or _nested(tangents)
    flat = all(isinstance(p, Tensor) for p in primals)
    if forward_ad.LEVEL.get() is None and (not nested or not flat):
        try:
            return _forward_jvp(func, primals, tangents, has_aux, nested)
        except forward_ad.NoForwardFormula:
            if not flat:
                raise
            # an op without a forward formula, or a reverse-mode transform inside f (jvp of grad): the same
            # product in reverse mode
    with enable_grad():
        diff = _differentiable_args(primals, range(len(primals)))
        out = func(*diff)
        aux = None
        if has_aux:
            out, aux = out
        outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        us = [creation.zeros_like(o).requires_grad_(True) for o in outs]
        gs = engine.grad(list(outs), diff, grad_outputs=us, create_graph=True, allow_unused=True)
        pairs = [(g, t) for g, t in zip(gs, tangents) if g is not None and g.requires_grad]
        jvps = (engine.grad([g for g, _ in pairs], us, grad_outputs=[t for _, t in pairs], create_graph=True,
                            allow_unused=True) if pairs else [None] * len(us))
        jvps = tuple(creation.zeros_like(o) if j is None else j for j, o in zip(jvps, outs))
    if not nested:
        out, jvps = _detached(out), tuple(j.detach() for j in jvps)
    result = (out, jvps if isinstance(out, (tuple, list)) else jvps[0])
    return (*result, aux if nested else _detached(aux)) if has_aux else result


def _forward_jvp(func, primals, tangents, has_aux: bool, nested: bool):
    """torch.func.jvp in forward mode: f on dual tensors inside a dual level, the outputs unpacked."""
    pairs = iter(zip(_tree_leaves(list(primals)), _tree_leaves(list(tangents))))
    with forward_ad.dual_level():
        duals = _tree_map(lambda p: forward_ad.make_dual(p, next(pairs)[1]), list(primals))
        out = func(*duals)
        aux = None
        if has_aux:
            out, aux = out

        def primal(value):
            return forward_ad.unpack_dual(value).primal if isinstance(value, Tensor) else value

        def tangent(value):
            if not isinstance(value, Tensor):
                return value
            found = forward_ad.unpack_dual(value).tangent
            return creation.zeros_like(value) if found is None else found

        jvp_out = _tree_map(tangent, out)
        out = _tree_map(primal, out)
        aux = _tree_map(primal, aux)
    if not nested:
        out, aux = _detached(out), _detached(aux)
    return (out, jvp_out, aux) if has_aux else (out, jvp_out)


def make_functional_with_buffers(model, disable_autograd_tracking=False):
    """functorch.make_functional_with_buffers: (func, params, buffers), func(params, buffers, *args) calling the
    model with those parameters and buffers (torch.func.functional_call underneath)."""
    param_names = [name for name, _ in model.named_parameters()]
    buffer_names = [name for name, _ in model.named_buffers()]
    params = tuple(p.detach() if disable_autograd_tracking else p for p in model.parameters())
    buffers = tuple(model.buffers())

    def func(new_params, new_buffers, *args, **kwargs):
        return functional_call(model, ({**dict(zip(param_names, new_params)), **dict(zip(buffer_names, new_buffers))}),
                               args, kwargs)

    return func, params, buffers


def make_functional(model, disable_autograd_tracking=False):
    """functorch.make_functional: (func, params), func(params, *args)."""
    func, params, buffers = make_functional_with_buffers(model, disable_autograd_tracking)
    if buffers:
        raise TorchRuntimeError("make_functional(model): `model` has buffers. Please use "
                                "make_functional_with_buffers(model) instead.")
    return (lambda new_params, *args, **kwargs: func(new_params, (), *args, **kwargs)), params


FORWARD_AD = {name: getattr(forward_ad, name) for name in (
    "dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor", "enter_dual_level", "exit_dual_level")}
def stack_module_state(models):
    """torch.func.stack_module_state: each parameter and buffer of the models stacked along a new first dim, as new
    leaves (requiring grad where the models' do), keyed by name (torch/_functorch/functional_call.py)."""
    models = list(models)
    if not models:
        raise TorchRuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise TorchRuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    first = classes.class_of(models[0]) or type(models[0])
    if not all((classes.class_of(m) or type(m)) is first for m in models):
        raise TorchRuntimeError("stack_module_state: Expected all models to be of the same class.")

    def stacked(tensors, name):
        grads = [t.requires_grad for t in tensors]
        if any(grads) and not all(grads):
            raise TorchRuntimeError(f"Expected {name} from each model to have the same .requires_grad")
        result = _stack(tensors, 0)
        return result.detach().requires_grad_() if all(grads) else result

    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: stacked([p[k] for p in all_params], k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: stacked([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


FUNC = {"stack_module_state": stack_module_state, "grad": func_grad, "jacrev": jacrev, "jacfwd": jacfwd,
        "hessian": func_hessian, "vmap": vmap, "vjp": func_vjp, "jvp": func_jvp, "functional_call": functional_call}


# -- torch.save / torch.load: the run's files in memory -------------------------------------------------------

def _saved_copy(obj, what: str):
    """What torch.save's pickle keeps and torch.load gives back: tensors copied (requires_grad kept, a Parameter
    stays one, history dropped), containers rebuilt, plain values as they are."""
    if isinstance(obj, Tensor):
        data = Tensor._make(meta.meta_array(obj.array.shape, obj.array.dtype), None) if obj.is_meta else \
            Tensor(obj.array.copy())  # a meta tensor saves its shape and dtype (and loads on the meta device)
        if isinstance(obj, Parameter):
            return Parameter(data, requires_grad=obj.requires_grad)
        return data.requires_grad_(True) if obj.requires_grad else data
    if isinstance(obj, dict):
        copy = type(obj)()
        for key, value in obj.items():
            copy[key] = _saved_copy(value, what)
        return copy
    if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple):
        return type(obj)(_saved_copy(v, what) for v in obj)
    if obj is None or type(obj) in (bool, int, float, str, dtypes.DType, Size):
        return obj
    raise NumpyRefused(f"{what} of a {_type_name(obj)} (gradcli run saves tensors, dicts, lists, tuples, numbers "
                       "and strings: save model.state_dict() and load it with load_state_dict)")


class TorchUnpicklingError(EngineError, pickle.UnpicklingError):
    """What torch.load's weights-only unpickler raises (_pickle.UnpicklingError, as Python prints it)."""

    torch_type = "_pickle.UnpicklingError"


class PickledModule:
    """A whole module of the program's own class passed to torch.save: pickled by reference to its class
    (`__main__.Net`), which torch.load's default weights-only unpickler refuses."""

    __slots__ = ("global_name",)

    def __init__(self, global_name: str):
        self.global_name = global_name


def weights_only_failure(global_name: str) -> TorchUnpicklingError:
    """torch.load's error (torch/serialization.py, PyTorch 2.13) for a file holding `global_name`."""
    return TorchUnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those "
        "steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default "
        "value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
        "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
        "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` "
        "please check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported "
        f"global: GLOBAL {global_name} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{global_name}])` or the "
        f"`torch.serialization.safe_globals([{global_name}])` context manager to allowlist this global if you "
        "trust this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by "
        "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def memory_files(store):
    """torch.save and torch.load of one run: the 'file' is an entry of the run's namespace (run/memory_files.py),
    never the disk."""

    def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
        if not isinstance(f, str):
            raise NumpyRefused(f"torch.save to a {_type_name(f)} (gradcli run keeps saved files in memory by name: "
                               "pass a file name)")
        program_class = getattr(obj, "program_class", None)
        if isinstance(obj, Module) and program_class is not None:  # torch.save(model, PATH): pickled by class
            store.store(f, PickledModule(f"__main__.{program_class.name}"))
            return
        store.store(f, _saved_copy(obj, "torch.save"))

    def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
        if not isinstance(f, str):
            raise NumpyRefused(f"torch.load from a {_type_name(f)} (pass the file name given to torch.save)")
        saved = store.fetch(f)
        if isinstance(saved, PickledModule):
            if weights_only is None or weights_only:  # torch >= 2.6 loads weights only by default
                raise weights_only_failure(saved.global_name)
            raise NumpyRefused("torch.load(weights_only=False) of a whole module (gradcli run does not unpickle "
                               "objects: save model.state_dict() and load it with load_state_dict)")
        return _saved_copy(saved, "torch.load")

    return save, load


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002 - torch's names
    """torch.unique on a CPU: the distinct values in ascending order (np.unique), with the inverse indices and
    counts as int64 tensors; of a tensor without history (torch's result would carry Unique2Backward0)."""
    if not isinstance(input, Tensor):
        raise TorchTypeError(f"unique(): argument 'input' (position 1) must be Tensor, not {_type_name(input)}")
    if input.requires_grad:
        raise NumpyRefused("torch.unique of a tensor that requires grad (gradcli does not record Unique2Backward0; "
                           "call it on x.detach())")
    if not sorted:
        raise NumpyRefused("torch.unique(..., sorted=False) (its order is an implementation detail of torch's "
                           "hash table; use sorted=True)")
    array = input.array
    if dim is not None:
        dim = dim % max(array.ndim, 1)
    values, inverse, counts = np.unique(array, return_inverse=True, return_counts=True, axis=dim)
    out = [Tensor(values.astype(array.dtype, copy=False))]
    if return_inverse:
        out.append(Tensor(inverse.reshape(array.shape if dim is None else (array.shape[dim],)).astype(np.int64)))
    if return_counts:
        out.append(Tensor(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """torch.isclose: |input - other| <= atol + rtol * |other| elementwise (both of one dtype, as torch asks)."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TorchTypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not "
                             f"{_type_name(other if isinstance(input, Tensor) else input)}")
    if input.dtype != other.dtype:
        raise TorchRuntimeError(f"{_title(input.dtype)} did not match {_title(other.dtype)}")
    a, b = input.detach().array, other.detach().array
    with np.errstate(all="ignore"):
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan) if a.dtype.kind in "fc" else a == b
    return creation.tensor(np.asarray(close).tolist(), dtype=dtypes.by_name("bool"))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(isclose(input, other, rtol, atol, equal_nan).array.all())


# -- torch.autograd.grad with torch's full signature ----------------------------------------------------------

def autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
                  allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """torch.autograd.grad, its arguments in torch's order: `only_inputs` (deprecated: a warning, no effect),
    `is_grads_batched` (the first dimension of each grad_output is a batch: one backward per entry, the
    results stacked), `materialize_grads` (zeros for unused inputs)."""
    if not only_inputs:
        state.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.", FutureWarning,
                      stacklevel=2)
    if materialize_grads and allow_unused is False:
        raise TorchValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                              "allow_unused=False.")
    if _VMAP_MORE_ENTRIES.get():  # inside vmap, an entry before the last: the batch's one call is still to come
        retain_graph = True
    if not is_grads_batched:
        return engine.grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
                           allow_unused=allow_unused, materialize_grads=materialize_grads)
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    gouts = [grad_outputs] if isinstance(grad_outputs, Tensor) else list(grad_outputs or ())
    if len(gouts) != len(outs) or any(g is None for g in gouts):
        raise TorchRuntimeError("grad_outputs must be given, one batched tensor per output, when "
                                "is_grads_batched=True")
    batch = gouts[0].shape[0] if gouts[0].ndim else 0
    if batch == 0 or any(g.ndim == 0 or g.shape[0] != batch for g in gouts):
        raise TorchRuntimeError("vmap: Expected all tensors to have the same size in the mapped dimension")
    keep = create_graph if retain_graph is None else retain_graph
    per_entry = [engine.grad(outs, inputs, [g[i] for g in gouts], retain_graph=True if i < batch - 1 else keep,
                             create_graph=create_graph, allow_unused=allow_unused,
                             materialize_grads=materialize_grads) for i in range(batch)]
    return tuple(None if per_entry[0][k] is None else _stack([entry[k] for entry in per_entry], 0)
                 for k in range(len(per_entry[0])))


# -- torch.autograd.graph: saved-tensor hooks ------------------------------------------------------------------


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """torch.autograd.graph.save_on_cpu: saved tensors moved to the CPU and back; gradcli's are there already."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        super().__init__(lambda tensor: tensor, lambda tensor: tensor)


class disable_saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """torch.autograd.graph.disable_saved_tensors_hooks(error_message): opening saved_tensors_hooks inside it
    raises RuntimeError(error_message)."""

    def __init__(self, error_message: str):
        self.error_message = error_message

    def __enter__(self):
        self._token = HOOKS_DISABLED.set(self.error_message)
        return self

    def __exit__(self, *exc):
        HOOKS_DISABLED.reset(self._token)
        return False


GRAPH = {"saved_tensors_hooks": saved_tensors_hooks, "save_on_cpu": save_on_cpu,
         "disable_saved_tensors_hooks": disable_saved_tensors_hooks,
         "register_multi_grad_hook": register_multi_grad_hook}
CONTEXT_MANAGERS = (*CONTEXT_MANAGERS, saved_tensors_hooks, disable_saved_tensors_hooks, forward_ad.dual_level)
