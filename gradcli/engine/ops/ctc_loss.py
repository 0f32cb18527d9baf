"""F.ctc_loss / torch.ctc_loss as ATen's CPU kernel computes it (aten/src/ATen/native/LossCTC.cpp): the log-alpha
recursion of the forward, the log-beta recursion and the gradient of the backward, in the input's dtype, with
its order of log-sum-exp (three terms: log(exp(a - m) + exp(b - m) + exp(c - m)) + m, then + log_prob) and the
C library's exp and log on each element (`kernels.scalar`: torch's bits with --bits torch, numpy's otherwise).

The recursions run one time step at a time over every (sample, state) at once: a state's value at t depends only
on states at t - 1 (alpha) or t + 1 (beta).  The backward's "log +=" of alpha * beta into each (t, class) cell
goes over the states in ATen's descending order, one state at a time over every (sample, t) at once (within one
state each (sample, t) adds into one cell).  The wrapper (ctc_loss_impl) is torch's composition: the unbatched
input unsqueezed, zero_infinity's where, mean's division by the clamped target lengths and mean, sum."""

from __future__ import annotations

import numpy as np

from gradcli.engine import kernels
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchNotImplementedError, TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.ops import sizes
from gradcli.engine.ops.common import dtype_title, val
from gradcli.engine.ops.registry import REGISTRY, register
from gradcli.engine.tensor import Tensor

_WHERE = " (while checking arguments for ctc_loss_allocate_outputs)"
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _exp(x):
    return kernels.scalar("exp", x)


def _log(x):
    return kernels.scalar("log", x)


def _lse3(a, b, c):
    """ATen's three-term log-sum-exp with its maximum (a first, then b and c where larger; 0 if all are -inf),
    without the log-probability added."""
    m = np.where(b > a, b, a)
    m = np.where(c > m, c, m)
    m = np.where(m == -np.inf, m.dtype.type(0), m)
    return _log(_exp(a - m) + _exp(b - m) + _exp(c - m)) + m


def _augmented(targets: np.ndarray, offsets, stride: int, target_lengths, blank: int, width: int) -> np.ndarray:
    """l' of every sample: blank, l1, blank, l2, ..., blank, padded with blank to `width` states."""
    batch = len(target_lengths)
    out = np.full((batch, width), blank, np.int64)
    flat = targets.reshape(-1)
    for b in range(batch):
        length = target_lengths[b]
        if length:
            out[b, 1:2 * length:2] = flat[offsets[b] + stride * np.arange(length)]
    return out


def _check(log_probs: np.ndarray, targets: np.ndarray, input_lengths, target_lengths, blank: int):
    """ctc_loss_allocate_outputs' checks, in its order: (target offsets, their stride, the longest target)."""
    if log_probs.ndim != 3:
        raise TorchRuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.ndim}-dimensional tensor for "
                                f"argument #1 'log_probs'{_WHERE}")
    if not 1 <= targets.ndim <= 2:
        raise TorchRuntimeError(f"Expected 1 to 2 dimensions, but got {targets.ndim}-dimensional tensor for "
                                f"argument #2 'targets'{_WHERE}")
    batch, classes = log_probs.shape[1], log_probs.shape[2]
    if not 0 <= blank < classes:
        raise TorchRuntimeError("blank must be in label range")
    if len(input_lengths) != batch:
        raise TorchRuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch:
        raise TorchRuntimeError("target_lengths must be of size batch_size")
    offsets, longest = [], 0
    if targets.ndim == 1:
        position = 0
        for length in target_lengths:
            if length < 0:
                raise TorchRuntimeError(f"Expected target_lengths to have value at least 0, but got value "
                                        f"{length}{_WHERE}")
            offsets.append(position)
            position += length
            longest = max(longest, length)
        if targets.shape[0] != position:
            raise TorchRuntimeError(f"Expected tensor to have size {position} at dimension 0, but got size "
                                    f"{targets.shape[0]} for argument #2 'targets'{_WHERE}")
        stride = 1
    else:
        for b, length in enumerate(target_lengths):
            if length < 0:
                raise TorchRuntimeError(f"Expected target_lengths to have value at least 0, but got value "
                                        f"{length}{_WHERE}")
            offsets.append(b * targets.shape[1])
            longest = max(longest, length)
        stride = 1
        if targets.shape[0] != batch:
            raise TorchRuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size "
                                    f"{targets.shape[0]} for argument #2 'targets'{_WHERE}")
        if targets.shape[1] < longest:
            raise TorchRuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but got size "
                                    f"{targets.shape[1]} for argument #2 'targets'{_WHERE}")
    steps = log_probs.shape[0]
    for length in input_lengths:
        if length < 0:
            raise TorchRuntimeError(f"Expected input_lengths to have value at least 0, but got value {length}{_WHERE}")
        if length > steps:
            raise TorchRuntimeError(f"Expected input_lengths to have value at most {steps}, but got value "
                                    f"{length}{_WHERE}")
    for b, length in enumerate(target_lengths):  # torch reads class `target` of log_probs without a bound check
        used = targets.reshape(-1)[offsets[b]:offsets[b] + stride * length:stride] if length else targets[:0]
        if used.size and (used.min() < 0 or used.max() >= classes):
            bad = int(used[(used < 0) | (used >= classes)][0])
            raise TorchRuntimeError(f"gradcli: ctc_loss target {bad} is outside the classes 0..{classes - 1} "
                                    "(torch reads memory out of bounds there: its result is undefined)")
    return offsets, stride, longest


class CtcLossGradient(Function):
    """_ctc_loss_backward's result under create_graph: torch defines no derivative for it
    (grad_fn=<NotImplemented>, an error when differentiated again)."""

    __slots__ = ()
    name = "NotImplemented"

    @staticmethod
    def forward(ctx, grad_out, log_probs, result):
        return result

    @staticmethod
    def backward(ctx, g):
        raise TorchRuntimeError("derivative for aten::_ctc_loss_backward is not implemented")


class CtcLoss(Function):
    """_ctc_loss: the negative log-likelihood of each sample (log_probs (T, N, C)); its node saves log_alpha."""

    __slots__ = ()
    name = "CtcLossBackward0"
    torch_edges = (0,)  # log_probs (targets and lengths are not differentiable)
    saves = (0,)

    @staticmethod
    def forward(ctx, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
        offsets, stride, longest = _check(log_probs, targets, input_lengths, target_lengths, blank)
        dt = log_probs.dtype.type
        steps, batch, _ = log_probs.shape
        width = 2 * longest + 1
        # log_alpha (and log_beta): one value per sample, step and state, more than the inputs when targets are long
        sizes.check_size((batch, steps, width), "ctc_loss", log_probs.itemsize)
        prime = _augmented(targets, offsets, stride, target_lengths, blank, width)
        lp = log_probs.transpose(1, 0, 2)  # (N, T, C)
        emit = np.take_along_axis(lp, np.broadcast_to(prime[:, None, :], (batch, steps, width)), axis=2)  # (N,T,S)
        inputs = np.asarray(input_lengths, np.int64)
        targets_n = np.asarray(target_lengths, np.int64)
        alpha = np.full((batch, steps, width), -np.inf, dt)
        skip = np.zeros((batch, width), bool)  # s > 1 and l'[s - 2] != l'[s]
        skip[:, 2:] = prime[:, 2:] != prime[:, :-2]
        neg_inf = np.full((batch, 1), -np.inf, dt)
        with np.errstate(all="ignore"):
            if steps:
                alpha[:, 0, 0] = lp[:, 0, blank]
                has_target = targets_n > 0
                if width > 1:
                    alpha[has_target, 0, 1] = emit[has_target, 0, 1]
            for t in range(1, steps):
                prev = alpha[:, t - 1]
                la2 = np.concatenate([neg_inf, prev[:, :-1]], axis=1)
                la3 = np.where(skip, np.concatenate([neg_inf, neg_inf, prev[:, :-2]], axis=1)[:, :width], dt(-np.inf))
                alpha[:, t] = _lse3(prev, la2, la3) + emit[:, t]
            nll = np.empty(batch, dt)
            for b in range(batch):
                length, target = int(inputs[b]), int(targets_n[b])
                if length == 0:
                    nll[b] = -(dt(0) if target == 0 else dt(-np.inf))  # -0.0 for an empty target
                elif target == 0:
                    nll[b] = -alpha[b, length - 1, 0]
                else:
                    l1, l2 = alpha[b, length - 1, 2 * target], alpha[b, length - 1, 2 * target - 1]
                    m = l2 if l1 < l2 else l1  # std::max
                    m = dt(0) if m == -np.inf else m
                    nll[b] = -(_log(_exp(np.asarray([l1 - m], dt)) + _exp(np.asarray([l2 - m], dt)))[0] + m)
        ctx.aux = (log_probs, prime, emit, skip, inputs, targets_n, alpha, nll, blank, zero_infinity)
        return nll

    @staticmethod
    def backward(ctx, g, saved_log_probs):
        if isinstance(g, Tensor) or isinstance(saved_log_probs, Tensor):  # create_graph: computed, not differentiable
            result = CtcLoss.backward(ctx, np.asarray(val(g)), np.asarray(val(saved_log_probs)))[0]
            return (CtcLossGradient.apply(g if isinstance(g, Tensor) else Tensor._make(np.asarray(g), None),
                                          saved_log_probs, result),)
        log_probs, prime, emit, skip, inputs, targets_n, alpha, nll, blank, zero_infinity = ctx.aux
        dt = log_probs.dtype.type
        steps, batch, classes = log_probs.shape
        width = prime.shape[1]
        lp = log_probs.transpose(1, 0, 2)
        grad = np.full((batch, steps, classes), -np.inf, dt)
        beta = np.full((batch, steps, width), -np.inf, dt)
        last = inputs - 1
        states = np.arange(width)
        top = 2 * targets_n  # the last state of each sample
        with np.errstate(all="ignore"):
            for b in range(batch):
                if inputs[b] > 0:
                    t, two = last[b], top[b]
                    beta[b, t, two] = lp[b, t, blank]
                    grad[b, t, blank] = alpha[b, t, two] + beta[b, t, two]
                    if two > 0:
                        label = prime[b, two - 1]
                        beta[b, t, two - 1] = lp[b, t, label]
                        grad[b, t, label] = alpha[b, t, two - 1] + beta[b, t, two - 1]
            inf_pad = np.full((batch, 2), -np.inf, dt)
            below_top = states[None, :] < top[:, None]
            skip_up = np.zeros((batch, width), bool)  # s < 2L - 1 and l'[s + 2] != l'[s]
            skip_up[:, :-2] = (prime[:, 2:] != prime[:, :-2]) & (states[None, :-2] < top[:, None] - 1)
            valid_state = states[None, :] <= top[:, None]
            for t in range(steps - 2, -1, -1):
                following = beta[:, t + 1]
                padded = np.concatenate([following, inf_pad], axis=1)
                lb2 = np.where(below_top, padded[:, 1:width + 1], dt(-np.inf))
                lb3 = np.where(skip_up, padded[:, 2:width + 2], dt(-np.inf))
                value = _lse3(following, lb2, lb3) + emit[:, t]
                write = (t <= last - 1)[:, None] & valid_state
                beta[:, t] = np.where(write, value, beta[:, t])
            # the collection: for s from 2L down to 0, grad[b, t, l'[s]] "log +=" alpha[b, t, s] + beta[b, t, s]
            alpha_beta = alpha + beta
            times = np.arange(steps)
            active_t = times[None, :] <= (last - 1)[:, None]  # (N, T): the recursion's t for each sample
            b_index = np.broadcast_to(np.arange(batch)[:, None], (batch, steps))
            t_index = np.broadcast_to(times[None, :], (batch, steps))
            for s in range(width - 1, -1, -1):
                mask = active_t & (s <= top)[:, None]
                if not mask.any():
                    continue
                bb, tt = b_index[mask], t_index[mask]
                cc = prime[bb, s]
                current = grad[bb, tt, cc]
                added = alpha_beta[bb, tt, s]
                high = np.where(current < added, added, current)  # std::max(lcab, log_alpha_beta)
                merged = _log(_exp(current - high) + _exp(added - high)) + high
                grad[bb, tt, cc] = np.where(current == -np.inf, added, merged)
            scale = np.asarray(g, dt).reshape(batch)
            result = (_exp(lp) - _exp(grad + nll[:, None, None] - lp)) * scale[:, None, None]
            result = np.where((times[None, :] < inputs[:, None])[:, :, None], result, dt(0))
            if zero_infinity:
                result = np.where((nll == np.inf)[:, None, None], dt(0), result)
        return (np.ascontiguousarray(result.transpose(1, 0, 2)),)


def _lengths(value, name: str):
    if isinstance(value, Tensor):
        if value.array.dtype.kind not in "iu":
            raise TorchRuntimeError(f"{name} must be integral")
        return [int(v) for v in value.array.reshape(-1)]
    return [int(v) for v in value]


@register("ctc_loss", sig="ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', "
          "zero_infinity=False)", doc="connectionist temporal classification loss of log-probabilities (T, N, C)",
          category="loss", functional=True, method=False, torch=True)
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """torch's ctc_loss_impl: the unbatched (T, C) input unsqueezed to (T, 1, C), _ctc_loss, zero_infinity's
    where(loss == inf, 0, loss), then (loss / target_lengths.clamp_min(1)).mean(), loss.sum() or the loss."""
    if isinstance(reduction, str):
        if reduction not in _REDUCTIONS:
            raise TorchValueError(f"{reduction} is not a valid value for reduction")
        reduction_code = _REDUCTIONS[reduction]
    else:
        reduction_code = int(reduction)
    tensors = isinstance(input_lengths, Tensor), isinstance(target_lengths, Tensor)
    if tensors[0] != tensors[1] or not all(isinstance(v, (Tensor, list, tuple)) for v in (input_lengths,
                                                                                          target_lengths)):
        kinds = ", ".join(type(v).__name__ if not isinstance(v, Tensor) else "Tensor" for v in (
            log_probs, targets, input_lengths, target_lengths, blank, reduction_code, zero_infinity))
        raise TorchTypeError(f"ctc_loss() received an invalid combination of arguments - got ({kinds}), but expected "
                             "one of: (Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints "
                             "target_lengths, int blank, int reduction, bool zero_infinity) or (Tensor log_probs, "
                             "Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank, int reduction, "
                             "bool zero_infinity)")
    inputs = _lengths(input_lengths, "input_lengths")
    lengths = _lengths(target_lengths, "target_lengths")
    batched = log_probs.ndim == 3
    x = log_probs if batched else REGISTRY["unsqueeze"].fn(log_probs, 1)
    if x.array.dtype.char not in "fd":
        raise TorchNotImplementedError(f"\"ctc_loss_cpu\" not implemented for '{dtype_title(x.array.dtype)}'")
    target_array = np.asarray(targets.array if isinstance(targets, Tensor) else targets)
    if target_array.dtype.kind == "c":
        raise TorchRuntimeError("gradcli: ctc_loss of complex targets is not supported")
    target_array = target_array.astype(np.int64)  # targets.to(kLong)
    res = CtcLoss.apply(x, target_array, inputs, lengths, int(blank), bool(zero_infinity))
    dt = res.array.dtype
    if zero_infinity:
        res = REGISTRY["where"].fn(Tensor._make(res.array == np.inf, None),
                                   Tensor._make(np.zeros((), dt), None), res)
    if reduction_code == 1:
        clamped = Tensor._make(np.maximum(np.asarray(lengths, np.int64), 1).astype(dt).reshape(len(lengths)), None)
        return REGISTRY["mean"].fn(REGISTRY["div"].fn(res, clamped))
    if reduction_code == 2:
        return REGISTRY["sum"].fn(res)
    return res if batched else REGISTRY["squeeze"].fn(res, 0)
