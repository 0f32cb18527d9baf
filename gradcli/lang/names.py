"""Name resolution for expressions: torch.X, torch.linalg.X, F.X, torch.nn.functional.X, bare X, x.X().

The op registry (`gradcli.engine.ops.REGISTRY`) is the single source of truth for what exists.
"""

from __future__ import annotations

import math

from gradcli.engine import dtypes
from gradcli.engine.ops import LINALG, REGISTRY

CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}
_NAMESPACED_CONSTANTS = {
    ("math", "pi"): math.pi, ("math", "e"): math.e, ("math", "inf"): math.inf, ("math", "nan"): math.nan,
    ("torch", "pi"): math.pi, ("torch", "e"): math.e, ("torch", "inf"): math.inf, ("torch", "nan"): math.nan,
}
for _d in dtypes.ALL:
    _NAMESPACED_CONSTANTS[("torch", _d.name)] = _d
for _alias in ("float", "double", "half", "long", "int", "short"):
    _NAMESPACED_CONSTANTS[("torch", _alias)] = dtypes.by_name(_alias)

# Attributes of values (not calls): x.T, torch.max(x, 0).values, x.shape
VALUE_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "values", "indices", "sign", "logabsdet", "eigenvalues",
                              "eigenvectors", "Q", "R", "solution", "U", "S", "V", "Vh", "shape", "ndim", "dtype"})

_FUNCTIONAL_PREFIXES = {("F",), ("torch", "nn", "functional"), ("nn", "functional")}
_MATH_FUNCTIONS = {"exp", "log", "sin", "cos", "tan", "tanh", "sqrt", "asin", "acos", "atan", "sinh", "cosh",
                   "log2", "log10", "log1p", "expm1", "atan2", "erf", "erfc", "floor", "ceil", "trunc"}


# Math notation that the homework reader (gradcli check, explain, steps) reads and PyTorch spells otherwise:
# the PyTorch spelling of NAME(x), for the hint of an unknown function (tests/lang check it against the reader)
_TORCH_SPELLING = {
    "ln": "log(x)", "lg": "log10(x)", "sec": "1/cos(x)", "csc": "1/sin(x)", "cot": "1/tan(x)", "sech": "1/cosh(x)",
    "csch": "1/sinh(x)", "coth": "1/tanh(x)", "asec": "acos(1/x)", "acsc": "asin(1/x)", "acot": "atan(1/x)",
    "asech": "acosh(1/x)", "acsch": "asinh(1/x)", "acoth": "atanh(1/x)", "cbrt": "sign(x)*abs(x)**(1/3)",
    "tg": "tan(x)", "sgn": "sign(x)", "logistic": "sigmoid(x)", "arsinh": "asinh(x)", "arcosh": "acosh(x)",
    "artanh": "atanh(x)", "σ": "sigmoid(x)",
}
_SAME_AS = {"cosec": "csc", "ctg": "cot", "arcsec": "asec", "arccsc": "acsc", "arccot": "acot", "arsech": "asech",
            "arcsech": "asech", "arcsch": "acsch", "arccsch": "acsch", "arcoth": "acoth", "arccoth": "acoth"}
MATH_NOTATION = _TORCH_SPELLING | {name: _TORCH_SPELLING[same] for name, same in _SAME_AS.items()}


def torch_spelling(name: str) -> str | None:
    """How PyTorch writes math notation's NAME(x) (ln(x) -> log(x)), or None."""
    return MATH_NOTATION.get(name)


def resolve_function(path: tuple[str, ...]):
    """The OpSpec a (possibly dotted) callee names, or None."""
    *prefix, name = path
    prefix = tuple(prefix)
    if not prefix:
        spec = REGISTRY.get(name)
        return spec if spec is not None and (spec.torch or spec.functional) else None
    if prefix == ("torch",):
        spec = REGISTRY.get(name)
        return spec if spec is not None and spec.torch else None
    if prefix == ("torch", "linalg"):
        return LINALG.get(name)
    if prefix in _FUNCTIONAL_PREFIXES:
        spec = REGISTRY.get(name)
        return spec if spec is not None and spec.functional else None
    if prefix == ("math",) and name in _MATH_FUNCTIONS:
        return REGISTRY.get(name)
    return None


def resolve_method(name: str):
    spec = REGISTRY.get(name)
    return spec if spec is not None and spec.method else None


def resolve_constant(path: tuple[str, ...]):
    if len(path) == 1:
        return CONSTANTS.get(path[0])
    return _NAMESPACED_CONSTANTS.get(tuple(path))


def function_names(prefix: tuple[str, ...] = ()) -> list[str]:
    prefix = tuple(prefix)
    if prefix == ("torch", "linalg"):
        return sorted(LINALG)
    if prefix in _FUNCTIONAL_PREFIXES:
        return sorted(n for n, s in REGISTRY.items() if s.functional)
    return sorted(n for n, s in REGISTRY.items() if s.torch or (not prefix and s.functional))


def method_names() -> list[str]:
    return sorted(n for n, s in REGISTRY.items() if s.method)


def constant_names() -> list[str]:
    return sorted(CONSTANTS) + sorted(".".join(p) for p in _NAMESPACED_CONSTANTS if p[0] == "math")
