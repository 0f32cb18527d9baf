"""Random compositions of ops, as expression text both PyTorch (`eval` with `torch` in scope) and gradcli's
expression language read the same way.  Used by scripts/make_composition_goldens.py (with PyTorch) and by
tests/test_compositions.py (without it): the generator is deterministic for a seed.

Each case: {"expr": text, "leaves": {name: {"shape": [...], "values": [...] (flat)}}, "grad_output": flat
values or None (None: the output is a scalar)}.  Compositions nest 1-5 levels of elementwise ops, binary ops
with broadcasting (size-1 dims, leading dims, 0-d, empty), reductions with dim/keepdim, matmul, shape ops,
indexing, losses, activations, in-place methods on non-leaves, where, clamp, min/max ties, `//` and detach,
over values with special points (0, negatives, ties, large, tiny, sometimes nan/inf).
"""

from __future__ import annotations

import math
import random

NAMES = ("a", "b", "c")
SHAPES = [(), (1,), (3,), (2, 3), (1, 3), (2, 1), (3, 1), (2, 1, 3), (1, 1), (0,), (0, 3)]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 1e3, -1e3, 1e-3, 3.0]
RARE = [math.nan, math.inf, -math.inf]

UNARY = ["torch.sin({})", "torch.cos({})", "torch.tanh({})", "torch.sigmoid({})", "torch.relu({})",
         "torch.abs({})", "torch.exp(torch.clamp({}, max=5.0))", "torch.log(torch.abs({}) + 0.5)",
         "torch.sqrt(torch.abs({}) + 0.1)", "({}) ** 2", "({}) ** 3", "-({})", "torch.square({})",
         "torch.nn.functional.softplus({})", "torch.nn.functional.gelu({})", "torch.nn.functional.silu({})",
         "torch.nn.functional.elu({})", "torch.nn.functional.leaky_relu({}, 0.1)", "torch.erf({})",
         "torch.clamp({}, min=-0.5, max=0.5)", "torch.clamp({}, min=0.0)", "({}).detach() * 0.5 + ({}) * 0.5",
         "torch.atan({})", "torch.log1p(torch.abs({}))", "torch.sign({}) * ({})", "(({}) * 1).clamp_(min=-1.0)",
         "(({}) * 1).mul_(2.0)", "(({}) + 0).pow_(2)", "torch.reciprocal(torch.abs({}) + 1.0)",
         "torch.nn.functional.logsigmoid({})", "torch.asinh({})", "torch.expm1(torch.clamp({}, max=3.0))",
         "torch.rsqrt(torch.abs({}) + 0.5)", "torch.nn.functional.hardtanh({})", "torch.trunc({}) + ({})",
         "({}) // 1.5"]
BINARY = ["({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) / (torch.abs({}) + 0.5)", "torch.maximum({}, {})",
          "torch.minimum({}, {})", "torch.where(({}) > ({}), {}, {})", "torch.atan2({}, {})",
          "torch.lerp({}, {}, 0.3)", "torch.clamp({}, min={})", "torch.xlogy(torch.abs({}), torch.abs({}) + 0.5)",
          "({}) * 2 - ({}).detach()", "torch.hypot_free({}, {})"]
REDUCE = ["({}).sum()", "({}).mean()", "({}).sum(dim={d})", "({}).sum(dim={d}, keepdim=True)",
          "({}).mean(dim={d}, keepdim=True)", "({}).amax(dim={d})", "({}).amin(dim={d}, keepdim=True)",
          "({}).max()", "({}).min()", "torch.logsumexp({}, dim={d})", "({}).prod(dim={d})", "({}).norm()",
          "({}).var(dim={d})", "({}).std()", "torch.softmax({}, dim={d})", "torch.log_softmax({}, dim={d})",
          "torch.cumsum({}, dim={d})", "({}).max(dim={d}).values", "torch.linalg.vector_norm({}, ord=1)"]
SHAPE = ["({}).reshape(-1)", "({}).unsqueeze(0)", "({}).flip(0)", "({})[0]", "torch.cat([{}, {}])",
         "({}).t()", "({}).transpose(0, 1)", "({}).squeeze()", "({})[..., :2]", "torch.stack([{}, {}])",
         "({}).expand(2, {last})", "({}).flatten()", "({}).roll(1, 0)"]
LOSSES = ["torch.nn.functional.mse_loss({}, {})", "torch.nn.functional.l1_loss({}, {})",
          "torch.nn.functional.smooth_l1_loss({}, {})", "torch.nn.functional.huber_loss({}, {}, delta=0.5)",
          "torch.nn.functional.mse_loss({}, {}, reduction='sum')"]


def broadcast(s1, s2):
    """The broadcast shape, or None when the shapes do not broadcast."""
    out = []
    for i in range(1, max(len(s1), len(s2)) + 1):
        a = s1[-i] if i <= len(s1) else 1
        b = s2[-i] if i <= len(s2) else 1
        if a != b and a != 1 and b != 1:
            return None
        out.append(max(a, b) if a and b else 0)
    return tuple(reversed(out))


class Generator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.leaves: dict[str, tuple] = {}

    # -- values ---------------------------------------------------------------------------------------
    def value(self) -> float:
        r = self.rng.random()
        if r < 0.02:
            return self.rng.choice(RARE)
        if r < 0.25:
            return self.rng.choice(SPECIAL)
        return round(self.rng.uniform(-2.5, 2.5), 3)

    def leaf(self, shape=None) -> tuple[str, tuple]:
        free = [n for n in NAMES if n not in self.leaves]
        if self.leaves and (not free or self.rng.random() < 0.35):
            name = self.rng.choice(list(self.leaves))  # reuse a leaf: shared subexpressions, ties
            return name, self.leaves[name]
        name = free[0]
        shape = shape if shape is not None else self.rng.choice(SHAPES)
        self.leaves[name] = shape
        return name, shape

    # -- expressions: (text, shape) --------------------------------------------------------------------
    def expr(self, depth: int) -> tuple[str, tuple]:
        if depth <= 0:
            return self.leaf()
        kind = self.rng.choices(["unary", "binary", "reduce", "shape", "matmul", "loss"],
                                weights=[4, 5, 3, 2, 1, 1])[0]
        return getattr(self, kind)(depth)

    def unary(self, depth):
        text, shape = self.expr(depth - 1)
        template = self.rng.choice(UNARY)
        return template.replace("{}", text), shape

    def binary(self, depth):
        left, ls = self.expr(depth - 1)
        right, rs = self.expr(self.rng.randint(0, depth - 1))
        out = broadcast(ls, rs)
        if out is None:
            return left, ls
        template = self.rng.choice(BINARY)
        if template.startswith("torch.hypot_free"):
            template = "torch.sqrt(({})**2 + ({})**2 + 1e-3)"
        if template.startswith("torch.where"):
            return template.format(left, right, left, right), out
        if template.startswith("({}) / "):
            return template.format(left, right), out
        if template.startswith("torch.lerp") and ls != out:
            return f"({left}) + ({right})", out  # lerp's result must have its input's shape in torch
        if template.startswith("torch.clamp") and ls != out:
            return f"({left}) - ({right})", out
        return template.format(left, right), out

    def reduce(self, depth):
        text, shape = self.expr(depth - 1)
        template = self.rng.choice(REDUCE)
        if "{d}" in template:
            if not shape:
                return f"({text}).sum()", ()
            d = self.rng.randrange(-len(shape), len(shape))
            keep = "keepdim=True" in template
            axis = d % len(shape)
            new = tuple(1 if i == axis else s for i, s in enumerate(shape)) if keep else \
                tuple(s for i, s in enumerate(shape) if i != axis)
            if "softmax" in template or "cumsum" in template:
                new = shape
            return template.format(text, d=d), new
        return template.format(text), ()

    def shape(self, depth):
        text, shape = self.expr(depth - 1)
        template = self.rng.choice(SHAPE)
        n = math.prod(shape)
        if template == "({}).reshape(-1)" or template == "({}).flatten()":
            return template.format(text), (n,)
        if template == "({}).unsqueeze(0)":
            return template.format(text), (1, *shape)
        if template in ("({}).flip(0)", "({}).roll(1, 0)") and shape:
            return template.format(text), shape
        if template == "({})[0]" and shape and shape[0] > 0:
            return template.format(text), shape[1:]
        if template == "torch.cat([{}, {}])" and shape:
            return template.format(text, text), (2 * shape[0], *shape[1:])
        if template == "torch.stack([{}, {}])":
            return template.format(text, text), (2, *shape)
        if template in ("({}).t()", "({}).transpose(0, 1)") and len(shape) == 2:
            return template.format(text), (shape[1], shape[0])
        if template == "({}).squeeze()":
            return template.format(text), tuple(s for s in shape if s != 1)
        if template == "({})[..., :2]" and shape:
            return template.format(text), (*shape[:-1], min(2, shape[-1]))
        if template == "({}).expand(2, {last})" and len(shape) == 2 and shape[0] == 1:
            return template.format(text, last=shape[1]), (2, shape[1])
        return f"({text}) * 1.5", shape

    def matmul(self, depth):
        text, shape = self.expr(depth - 1)
        if len(shape) == 2 and shape[1] > 0:
            name, ws = self.leaf((shape[1], 2)) if "c" not in self.leaves else ("c", self.leaves["c"])
            if ws == (shape[1], 2):
                return f"({text}) @ {name}", (shape[0], 2)
        if len(shape) == 1 and shape[0] > 0:
            return f"({text}) @ ({text})", ()
        return f"({text}) * 2", shape

    def loss(self, depth):
        left, ls = self.expr(depth - 1)
        right, rs = self.expr(max(0, depth - 2))
        if ls != rs:
            return f"torch.nn.functional.mse_loss({left}, ({left}).detach() * 0.5)", ()
        return self.rng.choice(LOSSES).format(left, right), ()

    # -- a case --------------------------------------------------------------------------------------
    def case(self) -> dict:
        self.leaves = {}
        depth = self.rng.randint(1, 5)
        text, shape = self.expr(depth)
        if not self.leaves:
            self.leaf()
        leaves = {name: {"shape": list(s), "values": [self.value() for _ in range(math.prod(s))]}
                  for name, s in sorted(self.leaves.items())}
        grad_output = None
        if shape != ():
            grad_output = [round(self.rng.uniform(-1.5, 1.5), 2) for _ in range(math.prod(shape))]
        return {"expr": text, "leaves": leaves, "grad_output": grad_output, "shape": list(shape)}


def cases(seed: int, n: int) -> list[dict]:
    gen = Generator(seed)
    return [gen.case() for _ in range(n)]
