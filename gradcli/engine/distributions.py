"""torch.normal, and torch.distributions as far as the corpus samples from it: Normal, as
torch/distributions/normal.py writes it (sample draws torch.normal(loc, scale) under no_grad; rsample is
loc + eps * scale with eps = normal_() into a fresh tensor; log_prob, entropy, the moments), with torch's
argument validation and printed form."""

from __future__ import annotations

import math

import numpy as np

from gradcli.engine import creation, dtypes, dual, random, state
from gradcli.engine.autograd import Function, no_grad
from gradcli.engine.errors import TorchRuntimeError, TorchTypeError, TorchValueError
from gradcli.engine.ops.common import dtype_title
from gradcli.engine.tensor import Size, Tensor

# -- torch.normal ---------------------------------------------------------------------------------------------

def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False, device=None):
    """torch.normal's four forms, as ATen's normal_out_impl computes them: N(0, 1) (or N(0, std)) draws into
    the output, then scaled by a std tensor and shifted by the mean."""
    gen = generator or random.default_generator()
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_t and not std_t:
        if size is None:
            raise TorchTypeError("normal() received an invalid combination of arguments - got (float, float), "
                                 "but expected one of: (Tensor mean, Tensor std), (Tensor mean, float std), "
                                 "(float mean, Tensor std), (float mean, float std, tuple of ints size)")
        if std < 0:
            raise TorchRuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
        out = creation.empty(*((size,) if isinstance(size, int) else tuple(size)), dtype=dtype)
        with no_grad():
            out.normal_(mean, std, generator=gen)
        return out.requires_grad_(True) if requires_grad else out
    if std_t and std.numel() and bool((std < 0).any()):
        raise TorchRuntimeError("normal expects all elements of std >= 0.0")
    if not std_t and std < 0:
        raise TorchRuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    ref = mean if mean_t else std
    shape = np.broadcast_shapes(tuple(mean.shape) if mean_t else (), tuple(std.shape) if std_t else ())
    with no_grad():
        out = creation.empty(*shape, dtype=ref.dtype)
        if mean_t and not std_t:
            out.normal_(0.0, std, generator=gen)
            out.add_(mean)
        else:
            out.normal_(0.0, 1.0, generator=gen)
            out.mul_(std).add_(mean if mean_t else creation.full((), mean, dtype=ref.dtype))
    return out



class _Poisson(Function):
    """torch.poisson's node: no gradient flows to the rates (zeros, as torch's)."""

    __slots__ = ()
    name = "PoissonBackward0"

    @staticmethod
    def forward(ctx, rates, generator=None):
        rates = np.asarray(rates)
        return (generator or random.default_generator()).poisson(rates).reshape(rates.shape).astype(rates.dtype)

    @staticmethod
    def backward(ctx, g):
        return (dual.zeros_like(g),)


def poisson(input, generator=None):
    """torch.poisson(rates): a Poisson draw per rate (ATen's sample_poisson, in C order), in the rates' dtype."""
    if not isinstance(input, Tensor):
        raise TorchTypeError(f"poisson(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if input.array.dtype.kind != "f":
        raise TorchRuntimeError(f'"poisson_cpu" not implemented for \'{dtype_title(input.array.dtype)}\'')
    if input.numel() and not bool(np.all(input.array >= 0)):
        raise TorchRuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _Poisson.apply(input, generator=generator)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """F.gumbel_softmax as torch/nn/functional.py writes it: Gumbel noise -log(Exp(1)) drawn by exponential_
    into an empty_like tensor, softmax((logits + noise) / tau); hard=True: the one-hot argmax, straight through."""
    if eps != 1e-10:
        state.warn("`eps` parameter is deprecated and has no effect.", UserWarning, stacklevel=3)
    gumbels = -creation.empty_like(logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def _broadcast_all(*values):
    """torch.distributions.utils.broadcast_all: numbers become tensors of the default dtype (or of the
    tensors' dtype), then all are broadcast to one shape."""
    ref = next((v for v in values if isinstance(v, Tensor)), None)
    dtype = ref.dtype if ref is not None else dtypes.get_default_dtype()
    tensors = [v if isinstance(v, Tensor) else creation.tensor(float(v), dtype=dtype) for v in values]
    shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    return [t.expand(*shape) for t in tensors]


def _format(t) -> str:
    """f"{t}" as torch formats a tensor: a 0-dim one as its Python number."""
    return str(t.item()) if t.ndim == 0 else repr(t)


class Normal:
    """torch.distributions.Normal(loc, scale)."""

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _broadcast_all(loc, scale)
        self.batch_shape = Size(self.loc.shape)
        self.event_shape = Size(())
        if validate_args is not False and not bool((self.scale > 0).all()):
            raise TorchValueError(
                f"Expected parameter scale (Tensor of shape {tuple(self.scale.shape)}) of distribution {self!r} to "
                "satisfy the constraint GreaterThan(lower_bound=0.0), but found invalid values:\n"
                f"{_format(self.scale)}")

    def __repr__(self) -> str:
        def show(t):
            return _format(t) if t.numel() == 1 else f"torch.Size({list(t.shape)})"
        return f"Normal(loc: {show(self.loc)}, scale: {show(self.scale)})"

    def _extended_shape(self, sample_shape=()) -> tuple:
        return tuple(sample_shape) + tuple(self.batch_shape)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return self.scale.pow(2)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return normal(self.loc.expand(*shape), self.scale.expand(*shape))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            eps = creation.empty(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        var = self.scale ** 2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()


DISTRIBUTIONS = {"Normal": Normal}
