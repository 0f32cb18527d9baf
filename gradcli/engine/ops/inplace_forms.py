"""More in-place forms torch's namespace has as functions (torch.acosh_(x), torch.clamp_min_(x, 0) ...): the
out-of-place op applied in place (inplace.apply_inplace: the same node, recorded on self, as torch's in-place
kernels record it).  A form already registered elsewhere (e.g. as a Tensor method) is left as it is."""

from __future__ import annotations

from gradcli.engine import kernels
from gradcli.engine.autograd import Function
from gradcli.engine.errors import TorchNotImplementedError
from gradcli.engine.ops import (  # noqa: F401  (the modules defining the ops below register them first)
    activations,
    arith,
    elementwise,
    elementwise_math,
    method_forms,
    nn_linear,
    special,
)
from gradcli.engine.ops.common import as_float, like_layout
from gradcli.engine.ops.inplace import apply_inplace
from gradcli.engine.ops.registry import REGISTRY, register

# out-of-place op -> its in-place form (torch.X_ and Tensor.X_)
FORMS = ("acosh", "asinh", "atanh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "erfc", "fix",
         "negative", "round", "deg2rad", "rad2deg", "clamp_min", "clamp_max", "clip", "xlogy", "threshold", "celu",
         "selu")


# activations whose inplace=True form records torch's own in-place node (CeluBackward1, EluBackward1 ...)
FLAGGED = frozenset({"celu", "selu", "threshold"})


def _without_derivative(name: str, kernel):
    """acosh_, asinh_, atanh_: torch records AcoshBackward1 ... whose backward is not implemented (derivatives.yaml
    has no formula for the in-place form); the forward is the op's own."""

    def forward(ctx, x):
        return like_layout(kernel(x if x.dtype.kind == "f" else as_float(x)), x)

    def backward(ctx, g):
        raise TorchNotImplementedError(f"the derivative for 'inplace version of {name}' is not implemented.")

    node = type(f"{name.capitalize()}InPlace", (Function,), {
        "__slots__": (), "name": f"{name.capitalize()}Backward1", "saves": (), "forward": staticmethod(forward),
        "backward": staticmethod(backward)})
    return lambda x: node.apply(x)


NO_DERIVATIVE = {name: _without_derivative(name, getattr(kernels, name)) for name in ("acosh", "asinh", "atanh")}
NO_DERIVATIVE.update({"arc" + name[1:]: fn for name, fn in list(NO_DERIVATIVE.items())})


def _inplace(name: str):
    if name in FLAGGED:
        def op(self, *args, **kwargs):
            return REGISTRY[name].fn(self, *args, inplace=True, **kwargs)
    elif name in NO_DERIVATIVE:
        def op(self):
            return apply_inplace(self, NO_DERIVATIVE[name])
    else:
        def op(self, *args, **kwargs):
            return apply_inplace(self, lambda s: REGISTRY[name].fn(s, *args, **kwargs))

    op.__name__ = name + "_"
    op.__doc__ = f"{name} in place"
    return op


for _name in FORMS:
    if _name + "_" not in REGISTRY and _name in REGISTRY:
        register(_name + "_", sig=f"{_name}_(input, ...)", doc=f"{_name} in place", category="inplace",
                 torch=False)(_inplace(_name))

TORCH_INPLACE_FORMS = frozenset(name + "_" for name in FORMS if name + "_" in REGISTRY)
