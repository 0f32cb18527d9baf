"""The table of user-visible ops: one entry per name, used by the expression language, `gradcli ops`
and the Tensor methods.  Adding an op touches one place: its `@register` line next to its definition."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass

from gradcli.engine import meta
from gradcli.engine.autograd import FORWARD_CALL
from gradcli.engine.ops.costs import WORK, costed
from gradcli.engine.ops.sizes import guarded
from gradcli.engine.tensor import Tensor


@dataclass(frozen=True)
class OpSpec:
    name: str
    fn: Callable
    signature: str
    doc: str
    category: str
    torch: bool  # available as torch.NAME
    method: bool  # available as x.NAME(...)
    functional: bool  # available as F.NAME (torch.nn.functional)
    linalg: bool  # available as torch.linalg.NAME
    result_shape: Callable | None = None  # the size rule of an op whose result can outgrow its inputs

    @property
    def elementwise(self) -> bool:
        """Each output element depends only on the same (broadcast) element of each input, so one call on
        a batch of rows gives every row's own result (`gradcli eval --rows` vectorises on this)."""
        return self.category in ELEMENTWISE_CATEGORIES


ELEMENTWISE_CATEGORIES = frozenset({"elementwise", "activation", "arithmetic", "comparison"})
REGISTRY: dict[str, OpSpec] = {}
LINALG: dict[str, OpSpec] = {}


def register(name: str, *, sig: str, doc: str, category: str, torch: bool = True, method: bool = True,
             functional: bool = False, linalg: bool = False, aliases: tuple = (), result_shape=None):
    """Record `fn` under `name` (and `aliases`) and, if `method`, attach it to Tensor.

    `result_shape` (a rule from `sizes`) is required of every op whose result can have more elements than
    its largest tensor input: the op is then wrapped so its output size is checked before it is computed.
    """

    def decorate(fn):
        if result_shape is not None:
            fn = guarded(name, fn, result_shape)
        if name in WORK:  # work that grows faster than the result: refused up front when it cannot finish
            fn = costed(name, fn, WORK[name])
        fn = dispatched(name, category, with_numpy_names(fn))
        for alias in (name, *aliases):
            spec = OpSpec(alias, fn, sig.replace(name, alias, 1) if alias != name else sig, doc, category,
                          torch, method, functional, linalg, result_shape)
            if category in meta.ELEMENTWISE:
                if meta.ELEMENTWISE_NAMES is None:
                    meta.ELEMENTWISE_NAMES = set()
                meta.ELEMENTWISE_NAMES.add(alias)
            if linalg:
                LINALG[alias] = spec
            else:
                REGISTRY[alias] = spec
            if method and not linalg:
                setattr(Tensor, alias, fn)
        return fn

    return decorate


def dispatched(name: str, category: str, fn):
    """`fn` behind the two modes that change what an op call does, in one wrapper (a Python call each op pays):
    on arguments holding a meta tensor it computes only its result's shape (engine/meta.py; the arguments are
    looked at only once some meta tensor exists in the process), and while a dual level is open it goes through
    forward-mode AD's check (forward_ad.check_call: an op whose floating result lacks a tangent although an input
    had one is refused, never a silent zero tangent)."""
    used = meta.USED
    has_meta = meta.has_meta

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if used[0] and has_meta(args, kwargs):
            return meta.dispatch(name, category, fn, args, kwargs)
        check = FORWARD_CALL[0]
        if check is None:
            return fn(*args, **kwargs) if kwargs else fn(*args)
        return check(name, fn, args, kwargs)

    return call


def meta_guarded(name: str, category: str, fn):
    """A Tensor operator that is not a registry op itself (`__rsub__`, `__getitem__` ...): on meta arguments its
    result's shape, as `dispatched` gives the registry's ops (forward mode's check stays with the registry ops)."""
    used = meta.USED
    has_meta = meta.has_meta

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if used[0] and has_meta(args, kwargs):
            return meta.dispatch(name, category, fn, args, kwargs)
        return fn(*args, **kwargs)

    return call


def with_numpy_names(fn):
    """torch's argument parser also takes numpy's names `axis` for `dim` and `keepdims` for `keepdim`: accept
    them for every op that has a `dim` (or `keepdim`) parameter and not the numpy name itself."""
    code = getattr(inspect.unwrap(fn), "__code__", None)  # (not inspect.signature: this runs for every op at import)
    if code is None or code.co_flags & inspect.CO_VARKEYWORDS:
        return fn
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    renames = {alias: name for alias, name in (("axis", "dim"), ("keepdims", "keepdim"))
               if name in params and alias not in params}
    if not renames:
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if kwargs:
            for alias, name in renames.items():
                if alias in kwargs:
                    if name in kwargs:
                        raise TypeError(f"{fn.__name__}() got multiple values for argument '{name}'")
                    kwargs[name] = kwargs.pop(alias)
        return fn(*args, **kwargs)

    return call
