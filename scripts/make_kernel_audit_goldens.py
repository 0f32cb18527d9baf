"""Record torch 2.13's values and gradients for the ops whose math the issue-27 audit routed through the kernel
layer (gradcli/engine/kernels: softmax/log_softmax over dim 0 and middle dims, mish, gelu(approximate='tanh'),
elu/celu/selu, logsigmoid, softplus, glu, logaddexp(2), logcumsumexp, xlogy, logit, sinc, asin/asinh/acosh,
atan2, hypot and the losses) for tests/engine/test_kernel_audit.py.

tests/goldens/kernel_audit.json holds, per case: the expression (gradcli's parser reads it), the dtype, the
inputs (requiring grad) and constants, torch's output, the upstream gradient fed to backward and torch's
gradients, every float as float.hex.  Shapes are small (every element on the kernels' scalar lanes, where torch
calls the C library), a row with a vector part and a tail, and 3-d tensors for softmax over dim 0 and middle dims.

    pip install torch==2.13.0 && python scripts/make_kernel_audit_goldens.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812 - the expressions' name

OUT = Path(__file__).resolve().parents[1] / "tests" / "goldens" / "kernel_audit.json"

# domain of each input: normal (scaled), a positive range, the open unit interval, ...
NORMAL, WIDE, POSITIVE, UNIT, ABOVE_ONE, INSIDE = "normal", "wide", "positive", "unit", "above_one", "inside"
SMALL, ROW, MATRIX = (5,), (45,), (4, 37)
CUBE, MIDDLE = (5, 3, 21), (3, 6, 21)

# (expression, {input: domain}, {constant: (kind, ...)}, shapes)
UNARY = [
    ("F.mish(x)", SMALL, ROW, MATRIX),
    ("F.gelu(x, approximate='tanh')", SMALL, ROW, MATRIX),
    ("F.elu(x)", SMALL, ROW),
    ("F.celu(x, alpha=0.7)", SMALL, ROW),
    ("F.selu(x)", SMALL, ROW),
    ("F.logsigmoid(x)", SMALL, ROW),
    ("F.softplus(x)", SMALL, ROW),
    ("torch.sinc(x)", SMALL, ROW),
    ("torch.asinh(x)", SMALL, ROW),
    ("torch.softmax(x, 0)", (4, 3), CUBE, (2, 40)),
    ("torch.softmax(x, 1)", MIDDLE, (2, 9, 17)),
    ("torch.log_softmax(x, 0)", (4, 3), CUBE, (2, 40)),
    ("torch.log_softmax(x, 1)", MIDDLE, (2, 9, 17)),
    ("torch.logcumsumexp(x, 0)", SMALL, (6, 5)),
    ("torch.logcumsumexp(x, -1)", (3, 8), ROW),
    ("F.glu(x, 0)", (6, 5), (4, 40)),
]
DOMAIN = {"torch.asin(x)": INSIDE, "torch.logit(x)": UNIT, "torch.acosh(x)": ABOVE_ONE}
UNARY += [("torch.asin(x)", SMALL, ROW), ("torch.logit(x)", SMALL, ROW), ("torch.acosh(x)", SMALL, ROW)]

BINARY = [  # (expression, domain of x, domain of y, shapes)
    ("torch.logaddexp(x, y)", WIDE, WIDE, (SMALL, ROW, MATRIX)),
    ("torch.logaddexp2(x, y)", WIDE, WIDE, (SMALL, ROW, MATRIX)),
    ("torch.xlogy(x, y)", NORMAL, POSITIVE, (SMALL, ROW)),
    ("torch.atan2(x, y)", NORMAL, NORMAL, (SMALL, ROW)),
    ("torch.hypot(x, y)", NORMAL, NORMAL, (SMALL, ROW)),
]

LOSSES = [  # (expression, x domain, constants: name -> kind, shapes)
    ("F.binary_cross_entropy(x, t, reduction='none')", UNIT, {"t": "unit"}, (SMALL, ROW)),
    ("F.binary_cross_entropy(x, t)", UNIT, {"t": "unit"}, (SMALL, ROW)),
    ("F.binary_cross_entropy_with_logits(x, t)", NORMAL, {"t": "unit"}, (SMALL, ROW)),
    ("F.binary_cross_entropy_with_logits(x, t, reduction='none')", NORMAL, {"t": "unit"}, (SMALL,)),
    ("F.cross_entropy(x, t)", NORMAL, {"t": "class"}, ((4, 5), (3, 40))),
    ("F.nll_loss(F.log_softmax(x, 1), t)", NORMAL, {"t": "class"}, ((4, 5),)),
    ("F.cross_entropy(x, t, reduction='none')", NORMAL, {"t": "class"}, ((4, 5),)),
    ("F.kl_div(x, t, reduction='batchmean')", NORMAL, {"t": "positive"}, ((4, 5),)),
    ("F.kl_div(x, t, reduction='none', log_target=True)", NORMAL, {"t": "normal"}, ((4, 5),)),
    ("F.poisson_nll_loss(x, t)", NORMAL, {"t": "positive"}, (SMALL, ROW)),
    ("F.poisson_nll_loss(x, t, log_input=False)", POSITIVE, {"t": "positive"}, (SMALL,)),
    ("F.gaussian_nll_loss(x, t, v)", NORMAL, {"t": "normal", "v": "positive"}, (SMALL, ROW)),
    ("F.soft_margin_loss(x, t)", NORMAL, {"t": "sign"}, (SMALL, ROW)),
    ("F.soft_margin_loss(x, t, reduction='none')", NORMAL, {"t": "sign"}, (SMALL,)),
]


def _values(rng, domain, shape, dtype):
    if domain == NORMAL:
        a = rng.standard_normal(shape) * 2
    elif domain == WIDE:
        a = rng.standard_normal(shape) * 8
    elif domain in (POSITIVE, "positive"):
        a = rng.uniform(0.05, 5, shape)
    elif domain in (UNIT, "unit"):
        a = rng.uniform(0.02, 0.98, shape)
    elif domain == ABOVE_ONE:
        a = rng.uniform(1.05, 9, shape)
    elif domain == INSIDE:
        a = rng.uniform(-0.97, 0.97, shape)
    elif domain == "sign":
        a = rng.choice([-1.0, 1.0], shape)
    else:
        raise ValueError(domain)
    return a.astype(dtype)


def _hex(a):
    return [float(v).hex() for v in np.asarray(a, dtype=np.float64).ravel()]


def _array(a):
    return {"shape": list(np.shape(a)), "dtype": str(np.asarray(a).dtype), "hex": _hex(a)}


def _record(expr, inputs, consts, rng):
    tensors = {k: torch.tensor(v, requires_grad=True) for k, v in inputs.items()}
    const_tensors = {k: torch.tensor(v) for k, v in consts.items()}
    out = eval(expr, {"torch": torch, "F": F}, {**tensors, **const_tensors})  # noqa: S307 - our own literals
    g = rng.standard_normal(out.shape).astype(str(out.dtype).replace("torch.", ""))
    out.backward(torch.tensor(g))
    return {"expr": expr, "dtype": str(out.dtype).replace("torch.", ""),
            "inputs": {k: _array(v) for k, v in inputs.items()},
            "const": {k: _array(v) for k, v in consts.items()},
            "output": _array(out.detach().numpy()), "grad_output": _array(g),
            "grads": {k: _array(t.grad.numpy()) for k, t in tensors.items()}}


def main() -> None:
    torch.set_num_threads(1)
    rng = np.random.default_rng(2027)
    cases = []
    for dtype in ("float32", "float64"):
        for expr, *shapes in UNARY:
            for shape in shapes:
                x = _values(rng, DOMAIN.get(expr, NORMAL), shape, dtype)
                if expr == "torch.sinc(x)":
                    x.ravel()[0] = 0  # the kernel's x == 0 branch
                cases.append(_record(expr, {"x": x}, {}, rng))
        for expr, dx, dy, shapes in BINARY:
            for shape in shapes:
                x, y = _values(rng, dx, shape, dtype), _values(rng, dy, shape, dtype)
                if "logaddexp" in expr:
                    y.ravel()[:2] = x.ravel()[:2]  # a - b = 0: log1p(1) exactly
                if "xlogy" in expr:
                    x.ravel()[0] = 0
                cases.append(_record(expr, {"x": x, "y": y}, {}, rng))
        for expr, dx, kinds, shapes in LOSSES:
            for shape in shapes:
                x = _values(rng, dx, shape, dtype)
                consts, inputs = {}, {"x": x}
                for name, kind in kinds.items():
                    if kind == "class":
                        consts[name] = rng.integers(0, shape[1], shape[0]).astype(np.int64)
                    elif name == "v":
                        inputs[name] = _values(rng, kind, shape, dtype)
                    else:
                        consts[name] = _values(rng, kind, shape, dtype)
                cases.append(_record(expr, inputs, consts, rng))
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}) + "\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
