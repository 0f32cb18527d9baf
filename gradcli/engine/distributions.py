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
from gradcli.engine.ops import REGISTRY
from gradcli.engine.ops.common import dtype_title
from gradcli.engine.tensor import CPU, Size, Tensor

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
        out = creation.empty(*((size,) if isinstance(size, int) else tuple(size)), dtype=dtype, device=CPU)
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
        out = creation.empty(*shape, dtype=ref.dtype, device=CPU)
        if mean_t and not std_t:
            out.normal_(0.0, std, generator=gen)
            out.add_(mean)
        else:
            out.normal_(0.0, 1.0, generator=gen)
            out.mul_(std).add_(mean if mean_t else creation.full((), mean, dtype=ref.dtype, device=CPU))
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
    # torch.broadcast_tensors (expand_outplace) keeps a tensor that already has the shape
    return [t if tuple(t.shape) == shape else t.expand(*shape) for t in tensors]


def _format(t) -> str:
    """f"{t}" as torch formats a tensor: a 0-dim one as its Python number."""
    return str(t.item()) if t.ndim == 0 else repr(t)


def _op(name: str):
    return REGISTRY[name].fn


# -- constraints (torch/distributions/constraints.py): check() and the printed form ----------------------------

class Constraint:
    name = "Constraint"

    def check(self, value):  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{self.name}()"


class _Real(Constraint):
    name = "Real"

    def check(self, value):
        return value == value


class _Boolean(Constraint):
    name = "Boolean"

    def check(self, value):
        return (value == 0) | (value == 1)


class _Simplex(Constraint):
    name = "Simplex"

    def check(self, value):
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _GreaterThan(Constraint):
    name = "GreaterThan"

    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={_show_bound(self.lower_bound)})"


class _LessThan(Constraint):
    name = "LessThan"

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={_show_bound(self.upper_bound)})"


class _Interval(Constraint):
    name = "Interval"

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"{self.name}(lower_bound={_show_bound(self.lower_bound)}, upper_bound={_show_bound(self.upper_bound)})"


class _IntegerInterval(_Interval):
    name = "IntegerInterval"

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _GreaterThanEq(_GreaterThan):
    name = "GreaterThanEq"

    def check(self, value):
        return self.lower_bound <= value

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={_show_bound(self.lower_bound)})"


def _show_bound(bound) -> str:
    return _format(bound) if isinstance(bound, Tensor) else str(bound)


REAL, BOOLEAN, SIMPLEX, POSITIVE, UNIT_INTERVAL = _Real(), _Boolean(), _Simplex(), _GreaterThan(0.0), \
    _Interval(0.0, 1.0)


def _all_true(valid) -> bool:
    return bool(valid.all()) if isinstance(valid, Tensor) else bool(valid)


# -- torch.distributions.Distribution ------------------------------------------------------------------------

class Distribution:
    """torch.distributions.Distribution: batch and event shapes, argument validation (on by default, as in
    torch), sample = rsample under no_grad, the printed form of the parameters set."""

    arg_constraints: dict = {}
    has_rsample = False

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self.batch_shape = Size(tuple(batch_shape))
        self.event_shape = Size(tuple(event_shape))
        self._validate_args = validate_args is not False
        if self._validate_args:
            for param, constraint in self._constraints().items():
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None), _Lazy):
                    continue  # a lazily computed parameter not computed yet
                value = getattr(self, param)
                if not _all_true(constraint.check(value)):
                    raise TorchValueError(
                        f"Expected parameter {param} (Tensor of shape {tuple(value.shape)}) of distribution "
                        f"{self!r} to satisfy the constraint {constraint!r}, but found invalid values:\n"
                        f"{_format(value)}")

    def _constraints(self) -> dict:
        return self.arg_constraints

    def __repr__(self) -> str:
        def show(t):
            return _format(t) if t.numel() == 1 else f"torch.Size({list(t.shape)})"
        names = [name for name in self._constraints() if name in self.__dict__]
        return f"{type(self).__name__}(" + ", ".join(f"{name}: {show(self.__dict__[name])}" for name in names) + ")"

    def _extended_shape(self, sample_shape=()) -> tuple:
        return tuple(sample_shape) + tuple(self.batch_shape) + tuple(self.event_shape)

    def sample(self, sample_shape=()):
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        raise NotImplementedError(f"{type(self).__name__} does not implement rsample")

    @property
    def support(self):
        raise NotImplementedError

    @property
    def stddev(self):
        return self.variance.sqrt()

    def _validate_sample(self, value) -> None:
        if not isinstance(value, Tensor):
            raise TorchValueError("The value argument to log_prob must be a Tensor")
        actual, expected = tuple(value.shape), tuple(self.batch_shape) + tuple(self.event_shape)
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise TorchValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                      f"torch.Size({list(actual)}) vs torch.Size({list(expected)}).")
        support = self.support
        if not _all_true(support.check(value)):
            raise TorchValueError(
                f"Expected value argument (Tensor of shape {actual}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{_format(value)}")


def _batch_shape(numbers: bool, tensor) -> tuple:
    return () if numbers else tuple(tensor.shape)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) or isinstance(value, bool)


class Normal(Distribution):
    """torch.distributions.Normal(loc, scale), as torch/distributions/normal.py."""

    arg_constraints = {"loc": REAL, "scale": POSITIVE}
    support = REAL
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _broadcast_all(loc, scale)
        super().__init__(_batch_shape(_is_number(loc) and _is_number(scale), self.loc), (), validate_args)

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
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale ** 2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def icdf(self, value):
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()


class Uniform(Distribution):
    """torch.distributions.Uniform(low, high): rsample is low + rand * (high - low)."""

    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = _broadcast_all(low, high)
        super().__init__(_batch_shape(_is_number(low) and _is_number(high), self.low), (), validate_args)

    def _constraints(self) -> dict:
        return {"low": _LessThan(self.high), "high": _GreaterThan(self.low)}

    @property
    def support(self):
        return _Interval(self.low, self.high)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def mode(self):
        return math.nan * self.high

    @property
    def stddev(self):
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        rand = creation.rand(*shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return lb.mul(ub).log() - (self.high - self.low).log()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return (self.high - self.low).log()


def _clamp_probs(probs):
    eps = float(np.finfo(probs.array.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


class _Lazy:
    """torch's lazy_property: computed on first read and then kept in the instance (so it prints after)."""

    def __init__(self, fn):
        self.fn, self.name = fn, fn.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = self.fn(instance)
        instance.__dict__[self.name] = value
        return value


class Bernoulli(Distribution):
    """torch.distributions.Bernoulli(probs=None, logits=None)."""

    arg_constraints = {"probs": UNIT_INTERVAL, "logits": REAL}
    support = BOOLEAN

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise TorchValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.__dict__["probs"],) = _broadcast_all(probs)
            param, number = self.__dict__["probs"], _is_number(probs)
        else:
            (self.__dict__["logits"],) = _broadcast_all(logits)
            param, number = self.__dict__["logits"], _is_number(logits)
        self._param = param
        super().__init__(_batch_shape(number, param), (), validate_args)

    @_Lazy
    def logits(self):
        ps = _clamp_probs(self.probs)
        return ps.log() - (-ps).log1p()

    @_Lazy
    def probs(self):
        return self.logits.sigmoid()

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    @property
    def param_shape(self):
        return Size(tuple(self._param.shape))

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            return creation.bernoulli(self.probs.expand(*shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = _broadcast_all(self.logits, value)
        return -_op("binary_cross_entropy_with_logits")(logits, value, reduction="none")

    def entropy(self):
        return _op("binary_cross_entropy_with_logits")(self.logits, self.probs, reduction="none")


class Categorical(Distribution):
    """torch.distributions.Categorical(probs=None, logits=None): sample by multinomial with replacement."""

    arg_constraints = {"probs": SIMPLEX, "logits": REAL}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise TorchValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise TorchValueError("`probs` parameter must be at least one-dimensional.")
            self.__dict__["probs"] = probs / probs.sum(-1, keepdim=True)
            param = self.__dict__["probs"]
        else:
            if logits.dim() < 1:
                raise TorchValueError("`logits` parameter must be at least one-dimensional.")
            self.__dict__["logits"] = logits - logits.logsumexp(dim=-1, keepdim=True)
            param = self.__dict__["logits"]
        self._param = param
        self._num_events = param.shape[-1]
        super().__init__(tuple(param.shape[:-1]) if param.ndim > 1 else (), (), validate_args)

    @property
    def support(self):
        return _IntegerInterval(0, self._num_events - 1)

    @_Lazy
    def logits(self):
        return _clamp_probs(self.probs).log()

    @_Lazy
    def probs(self):
        return self.logits.softmax(dim=-1)

    @property
    def param_shape(self):
        return Size(tuple(self._param.shape))

    @property
    def mean(self):
        return creation.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return creation.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    def sample(self, sample_shape=()):
        count = math.prod(tuple(sample_shape))
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = creation.multinomial(probs_2d, count, True).T
        return samples_2d.reshape(*self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        shape = np.broadcast_shapes(tuple(value.shape), tuple(self.logits.shape))
        value, log_pmf = value.expand(*shape), self.logits.expand(*shape)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = float(np.finfo(self.logits.array.dtype).min)
        logits = self.logits.clamp(min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)


class _StandardGamma(Function):
    """torch._standard_gamma: a Gamma(alpha, 1) draw per alpha (Generator.standard_gamma); its gradient is
    grad * _standard_gamma_grad(alpha, sample), the implicit reparameterisation (a constant factor here, as
    torch does not differentiate _standard_gamma_grad either)."""

    __slots__ = ()
    name = "StandardGammaBackward0"

    @staticmethod
    def forward(ctx, alphas, generator=None):
        alphas = np.asarray(alphas)
        sample = (generator or random.default_generator()).standard_gamma(alphas.reshape(-1)).reshape(alphas.shape)
        ctx.aux = random.standard_gamma_grad(alphas, sample)
        return sample

    @staticmethod
    def backward(ctx, g):
        factor = ctx.aux
        return (g * (Tensor._make(factor, None) if isinstance(g, Tensor) else factor),)


class Gamma(Distribution):
    """torch.distributions.Gamma(concentration, rate): rsample is _standard_gamma(concentration) / rate, clamped
    to the dtype's tiny outside the graph."""

    arg_constraints = {"concentration": POSITIVE, "rate": POSITIVE}
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = _broadcast_all(concentration, rate)
        super().__init__(_batch_shape(_is_number(concentration) and _is_number(rate), self.concentration), (),
                         validate_args)

    @property
    def support(self):
        return _GreaterThanEq(0.0)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        value = _StandardGamma.apply(self.concentration.expand(*shape)) / self.rate.expand(*shape)
        np.maximum(value.array, np.finfo(value.array.dtype).tiny, out=value.array)  # value.detach().clamp_(min=tiny)
        return value

    def log_prob(self, value):
        if not isinstance(value, Tensor):
            value = creation.tensor(value, dtype=self.rate.dtype)
        if self._validate_args:
            self._validate_sample(value)
        return (_op("xlogy")(self.concentration, self.rate) + _op("xlogy")(self.concentration - 1, value)
                - self.rate * value - self.concentration.lgamma())

    def entropy(self):
        return (self.concentration - self.rate.log() + self.concentration.lgamma()
                + (1.0 - self.concentration) * self.concentration.digamma())


class _DirichletSample(Function):
    """torch.distributions.dirichlet._Dirichlet (a Python autograd Function, printed _DirichletBackward): a
    _sample_dirichlet draw; backward _Dirichlet_backward: _dirichlet_grad(x, alpha, total) * (grad - (x *
    grad).sum(-1, True)), computed in the dtype (no second derivative: torch's is once_differentiable)."""

    __slots__ = ()
    name = "_DirichletBackward"

    @staticmethod
    def forward(ctx, alphas, generator=None):
        alphas = np.asarray(alphas)
        x = random.sample_dirichlet(generator or random.default_generator(), alphas)
        totals = np.broadcast_to(alphas.sum(axis=-1, keepdims=True), alphas.shape)
        ctx.aux = (x, random.dirichlet_grad(x, alphas, totals))
        return x

    @staticmethod
    def backward(ctx, g):
        x, grad = ctx.aux
        g = g.array if isinstance(g, Tensor) else np.asarray(g)
        g = np.broadcast_to(g, x.shape)
        return (grad * (g - (x * g).sum(axis=-1, keepdims=True)),)


class _Independent(Constraint):
    def __init__(self, base, dims: int):
        self.base, self.dims = base, dims

    def check(self, value):
        result = self.base.check(value)
        for _ in range(self.dims):
            result = result.all(-1)
        return result

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base!r}, {self.dims})"


class Dirichlet(Distribution):
    """torch.distributions.Dirichlet(concentration), for two categories (what Beta needs): rsample through
    torch's _sample_dirichlet and its reparameterised gradient."""

    arg_constraints = {"concentration": _Independent(POSITIVE, 1)}
    support = SIMPLEX
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise TorchValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(tuple(concentration.shape[:-1]), tuple(concentration.shape[-1:]), validate_args)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return _DirichletSample.apply(self.concentration.expand(*shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (_op("xlogy")(self.concentration - 1.0, value).sum(-1) + self.concentration.sum(-1).lgamma()
                - self.concentration.lgamma().sum(-1))

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        concentrationm1 = (self.concentration - 1).clamp(min=0.0)
        mode = concentrationm1 / concentrationm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = _op("one_hot")(mode[mask].argmax(dim=-1), concentrationm1.shape[-1]).to(mode.dtype)
        return mode

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self):
        k = self.concentration.shape[-1]
        a0 = self.concentration.sum(-1)
        return (self.concentration.lgamma().sum(-1) - a0.lgamma() - (k - a0) * a0.digamma()
                - ((self.concentration - 1.0) * self.concentration.digamma()).sum(-1))


class Beta(Distribution):
    """torch.distributions.Beta(concentration1, concentration0): a two-category Dirichlet, its first column."""

    arg_constraints = {"concentration1": POSITIVE, "concentration0": POSITIVE}
    support = UNIT_INTERVAL
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        if _is_number(concentration1) and _is_number(concentration0):
            both = creation.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = _broadcast_all(concentration1, concentration0)
            both = _op("stack")([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(both, validate_args=validate_args)
        super().__init__(tuple(self._dirichlet.batch_shape), (), validate_args)

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self):
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        heads_tails = _op("stack")([value, 1.0 - value], -1)
        return self._dirichlet.log_prob(heads_tails)

    def entropy(self):
        return self._dirichlet.entropy()


DISTRIBUTIONS = {"Normal": Normal, "Uniform": Uniform, "Bernoulli": Bernoulli, "Categorical": Categorical,
                 "Gamma": Gamma, "Beta": Beta, "Distribution": Distribution}
# what a program may read of each (run/api.py's table of members)
DISTRIBUTION_MEMBERS = {
    Normal: "loc scale cdf icdf",
    Uniform: "low high cdf icdf",
    Bernoulli: "probs logits param_shape",
    Categorical: "probs logits param_shape",
    Gamma: "concentration rate",
    Beta: "concentration1 concentration0",
}
COMMON_MEMBERS = "batch_shape event_shape mean mode stddev variance sample rsample log_prob entropy support has_rsample"
