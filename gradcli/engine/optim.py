"""torch.optim.SGD, Adam, AdamW, RMSprop and Adagrad, following torch's single-tensor update formulas step by step.

Updates are computed on the parameters' numpy arrays in the parameters' dtype, in torch's order of
operations: a Python-float hyperparameter meets a float32 array as a float32, as torch's kernels cast
their scalar arguments, and where torch's CPU kernels use a fused multiply-add (add with alpha, lerp,
addcmul) so does `_fma`, so float32 and float64 results agree bit for bit.  The result is written in place with a
version bump, as torch's in-place updates under no_grad do.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from gradcli.engine import dual
from gradcli.engine.autograd import enable_grad, type_name
from gradcli.engine.errors import TorchTypeError, TorchValueError
from gradcli.engine.kernels import fused
from gradcli.engine.tensor import Tensor


def _typename(value) -> str:
    """torch.typename: what torch's optimizer errors call a value."""
    return type_name(value) if isinstance(value, Tensor) else type(value).__name__


class Optimizer:
    """Parameter groups (dicts with "params" and the hyperparameters), zero_grad() and per-parameter state."""

    def __init__(self, params, defaults: dict):
        if isinstance(params, Tensor):
            raise TorchTypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                                 f"but got {_typename(params)}")
        groups = list(params)
        if not groups:
            raise TorchValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        self.defaults = defaults
        self.param_groups: list[dict] = []
        self._state: dict = {}  # param -> {name: float or ndarray}, updated by step()
        self.step_called = False  # torch's `_opt_called`: lr_scheduler warns when it steps before the optimizer
        for group in groups:
            self._add_param_group(dict(group))

    def add_param_group(self, param_group: dict) -> None:
        if not isinstance(param_group, dict):
            raise TorchTypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        self._add_param_group(dict(param_group))
        if any(id(p) in seen for p in self.param_groups[-1]["params"]):
            self.param_groups.pop()
            raise TorchValueError("some parameters appear in more than one parameter group")

    def _add_param_group(self, group: dict) -> None:
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TorchTypeError(f"optimizer can only optimize Tensors, but one of the params is {_typename(p)}")
            if p.grad_fn is not None:
                raise TorchValueError("can't optimize a non-leaf Tensor")
        group["params"] = params
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    p._grad.detach_()
                    p._grad.zero_()

    def step(self, closure=None):
        self.step_called = True
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is not None:
                    self._update(p, p._grad.array, group, self._state.setdefault(p, {}))
        return loss

    @property
    def state(self) -> defaultdict:
        """Each parameter's state as torch shows it: tensors (`step` a float32 0-d tensor), keyed by parameter."""
        return defaultdict(dict, {p: _as_tensors(s) for p, s in self._state.items() if s})

    def state_dict(self) -> dict:
        """torch's form: {"state": {index: {...}}, "param_groups": [{hyperparameters..., "params": [indices]}]}."""
        index, groups = {}, []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = list(range(len(index), len(index) + len(group["params"])))
            index.update({id(p): i for p, i in zip(group["params"], packed["params"])})
            groups.append(packed)
        state = {index[id(p)]: _as_tensors(s) for p, s in self._state.items() if s and id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise TorchValueError("loaded state dict has a different number of parameter groups")
        for mine, theirs in zip(self.param_groups, groups):
            if len(mine["params"]) != len(theirs["params"]):
                raise TorchValueError("loaded state dict contains a parameter group that doesn't match the size of "
                                      "optimizer's group")
        params = {i: p for mine, theirs in zip(self.param_groups, groups) for i, p in zip(theirs["params"],
                                                                                          mine["params"])}
        self._state = {}
        for i, values in state_dict["state"].items():
            p = params[i]
            self._state[p] = {k: (float(v.item()) if k == "step" else
                                  np.array(v.array, dtype=p.array.dtype) if isinstance(v, Tensor) else v)
                              for k, v in values.items()}
        for mine, theirs in zip(self.param_groups, groups):
            mine.update({k: v for k, v in theirs.items() if k != "params"})

    def _update(self, param: Tensor, grad: np.ndarray, group: dict, state: dict) -> None:  # pragma: no cover
        raise NotImplementedError


def _as_tensors(state: dict) -> dict:
    return {k: Tensor._make(np.asarray(v, dtype=np.float32), None) if k == "step" else
            Tensor._make(v.copy(), None) if isinstance(v, np.ndarray) else v for k, v in state.items()}


def _write(param: Tensor, value: np.ndarray) -> None:
    param.array[...] = value
    param._bump_version()


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_lr(lr)
        if momentum < 0.0:
            raise TorchValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise TorchValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                                  "foreach": foreach, "differentiable": differentiable, "fused": fused})

    def _update(self, param, grad, group, state):
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = _fma(group["weight_decay"], param.array, grad)
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad.copy()
            else:
                buf = _fma(1 - group["dampening"], grad, buf * momentum)
            state["momentum_buffer"] = buf
            grad = _fma(momentum, buf, grad) if group["nesterov"] else buf
        _write(param, _fma(-group["lr"], grad, param.array))


class Adam(Optimizer):
    decoupled_default = False
    weight_decay_default = 0

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=None, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=None):
        weight_decay = self.weight_decay_default if weight_decay is None else weight_decay
        decoupled = self.decoupled_default if decoupled_weight_decay is None else decoupled_weight_decay
        _check_lr(lr)
        if not 0.0 <= eps:
            raise TorchValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise TorchValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise TorchValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
                                  "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                                  "capturable": capturable, "differentiable": differentiable, "fused": fused,
                                  "decoupled_weight_decay": decoupled})

    def _update(self, param, grad, group, state):
        if not state:
            state["step"] = 0.0
            state["exp_avg"] = np.zeros_like(param.array)
            state["exp_avg_sq"] = np.zeros_like(param.array)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = np.zeros_like(param.array)
        beta1, beta2 = group["betas"]
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            if group["decoupled_weight_decay"]:
                _write(param, param.array * _scalar(1 - group["lr"] * group["weight_decay"], param.array))
            else:
                grad = _fma(group["weight_decay"], param.array, grad)
        exp_avg = state["exp_avg"] = _lerp(state["exp_avg"], grad, 1 - beta1)
        exp_avg_sq = state["exp_avg_sq"] = _fma((1 - beta2) * grad, grad, state["exp_avg_sq"] * beta2)
        step = state["step"]
        bias_correction1 = 1 - beta1 ** step
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        step_size = group["lr"] / bias_correction1
        second_moment = exp_avg_sq
        if group["amsgrad"]:
            np.maximum(state["max_exp_avg_sq"], exp_avg_sq, out=state["max_exp_avg_sq"])
            second_moment = state["max_exp_avg_sq"]
        denom = _sqrt(group)(second_moment) / bias_correction2_sqrt + group["eps"]
        _write(param, param.array + (-step_size) * exp_avg / denom)


class AdamW(Adam):
    """Adam with decoupled weight decay (torch 2.13's AdamW is exactly that, weight_decay=1e-2 by default)."""

    decoupled_default = True
    weight_decay_default = 1e-2


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= eps:
            raise TorchValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise TorchValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise TorchValueError(f"Invalid alpha value: {alpha}")
        super().__init__(params, {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                                  "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                                  "maximize": maximize, "differentiable": differentiable})

    def _update(self, param, grad, group, state):
        """torch.optim.rmsprop._single_tensor_rmsprop, operation by operation."""
        if not state:
            state["step"] = 0.0
            state["square_avg"] = np.zeros_like(param.array)
            if group["momentum"] > 0:
                state["momentum_buffer"] = np.zeros_like(param.array)
            if group["centered"]:
                state["grad_avg"] = np.zeros_like(param.array)
        if group["maximize"]:
            grad = -grad
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = _fma(group["weight_decay"], param.array, grad)
        alpha = group["alpha"]
        square_avg = state["square_avg"] = _fma((1 - alpha) * grad, grad, state["square_avg"] * alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"] = _lerp(state["grad_avg"], grad, 1 - alpha)
            avg = dual.np_sqrt(_fma(-1 * grad_avg, grad_avg, square_avg))
        else:
            avg = dual.np_sqrt(square_avg)
        avg = avg + _scalar(group["eps"], avg)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"] = state["momentum_buffer"] * _scalar(group["momentum"], avg) + grad / avg
            _write(param, _fma(-group["lr"], buf, param.array))
        else:
            _write(param, param.array + (-group["lr"]) * grad / avg)


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        if not 0.0 <= lr_decay:
            raise TorchValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise TorchValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise TorchValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise TorchValueError(f"Invalid epsilon value: {eps}")
        super().__init__(params, {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                                  "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                                  "maximize": maximize, "differentiable": differentiable, "fused": fused})
        for group in self.param_groups:  # torch fills the state at construction
            for p in group["params"]:
                self._state[p] = {"step": 0.0, "sum": np.full_like(p.array, group["initial_accumulator_value"])}

    def _update(self, param, grad, group, state):
        """torch.optim.adagrad._single_tensor_adagrad, operation by operation."""
        state["step"] += 1
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = _fma(group["weight_decay"], param.array, grad)
        clr = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        state_sum = state["sum"] = _fma(1 * grad, grad, state["sum"])
        std = _sqrt(group)(state_sum)
        std = std + _scalar(group["eps"], std)
        _write(param, param.array + (-clr) * grad / std)


def _check_lr(lr) -> None:
    if lr < 0.0:
        raise TorchValueError(f"Invalid learning rate: {lr}")


def _scalar(value: float, like: np.ndarray):
    """A Python number as torch's kernels see it beside a tensor of `like`'s dtype."""
    return like.dtype.type(value)


def _fma(x, y, z: np.ndarray) -> np.ndarray:
    """x * y + z rounded once, in z's dtype (torch's add with alpha, addcmul and lerp kernels fuse them, in
    float64 as in float32)."""
    if z.dtype not in (np.float32, np.float64):
        return x * y + z
    t = z.dtype.type
    return fused.fma(t(x) if np.ndim(x) == 0 else x, t(y) if np.ndim(y) == 0 else y, z)


def _sqrt(group):
    """The square root of the update: MKL's (dual.np_sqrt) in the single-tensor and foreach paths; the fused
    CPU kernels take Vectorized::sqrt, which is correctly rounded."""
    return np.sqrt if group.get("fused") else dual.np_sqrt


def _lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """torch.lerp with a scalar weight: the formula it picks depends on the weight's size."""
    if abs(weight) < 0.5:
        return _fma(weight, end - start, start)
    return _fma(weight - 1, end - start, end)


OPTIMIZERS = {cls.__name__: cls for cls in (SGD, Adam, AdamW, RMSprop, Adagrad)}
