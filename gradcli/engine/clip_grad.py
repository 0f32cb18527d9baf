"""torch.nn.utils.clip_grad_norm_ / clip_grad_value_ / get_total_norm / clip_grads_with_norm_ as PyTorch 2.13 computes
them on the CPU (torch/nn/utils/clip_grad.py): the CPU takes the foreach path, whose kernels there are the per-tensor
fallbacks (`_foreach_norm` is `linalg.vector_norm` of each gradient, `_foreach_mul_` each gradient's `mul_` by the
0-d coefficient, `_foreach_clamp_min_`/`_max_` each gradient's clamps), so the total norm is the vector norm of
the stacked per-gradient norms, the coefficient `max_norm / (total_norm + 1e-6)` (a float over a tensor: its
reciprocal times the float, as Tensor.__rdiv__ computes it) clamped to 1, all in the gradients' dtype, op for op."""

from __future__ import annotations

import types

from gradcli.engine import creation, state
from gradcli.engine.autograd import no_grad
from gradcli.engine.errors import TorchRuntimeError
from gradcli.engine.ops import LINALG, REGISTRY
from gradcli.engine.tensor import Tensor


def _op(name: str):
    return REGISTRY[name].fn


def _as_list(tensors) -> list:
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return creation.tensor(0.0)
    with no_grad():
        vector_norm = LINALG["vector_norm"].fn
        groups: dict = {}  # torch groups by (device, dtype), in first-seen order
        for t in tensors:
            groups.setdefault(t.dtype, []).append(t)
        norms = [vector_norm(t, norm_type) for group in groups.values() for t in group]
        total_norm = vector_norm(_op("stack")(norms), norm_type)
        if error_if_nonfinite and bool(_op("logical_or")(total_norm.isnan(), total_norm.isinf()).item()):
            raise TorchRuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it cannot "
                "be clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
                "`error_if_nonfinite=False`")
    return total_norm


def clip_grads_with_norm_(parameters, max_norm, total_norm: Tensor, foreach=None) -> None:
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    with no_grad():
        clip_coef = _op("reciprocal")(total_norm + 1e-6) * max_norm
        clip_coef_clamped = _op("clamp")(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            state.warn("`parameters` is an empty generator, no gradient clipping will occur.", UserWarning)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None) -> None:
    parameters = _as_list(parameters)
    clip_value = float(clip_value)
    with no_grad():
        for grad in [p.grad for p in parameters if p.grad is not None]:
            grad.clamp_(min=-clip_value)
            grad.clamp_(max=clip_value)


UTILS = {fn.__name__: fn for fn in (clip_grad_norm_, clip_grad_value_, get_total_norm, clip_grads_with_norm_)}
