# Forward-mode AD as a learner writes it: dual tensors printed, tangents through common ops, in-place ops on
# duals and views of them, modules with dual parameters, a custom Function's jvp, torch.func.jvp, and torch's
# errors (make_dual outside a level, a tangent of another size, nested levels).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, functional_call

torch.manual_seed(0)
x = torch.randn(3, 4)
t = torch.randn(3, 4)
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    print(d)
    print(fwAD.unpack_dual(d).tangent is t)
    print(d * 2 + 1)
    print(fwAD.unpack_dual((d ** 2).sum()).tangent)
    print(fwAD.unpack_dual(d.exp().mean(dim=0)).tangent)
    print(fwAD.unpack_dual(torch.tanh(d) @ d.T).tangent)
    print(fwAD.unpack_dual(F.softmax(d, dim=1)).tangent)
    print(fwAD.unpack_dual(F.log_softmax(d, dim=0)).tangent)
    print(fwAD.unpack_dual(torch.cat([d, x], dim=0)[2:5]).tangent)
    print(fwAD.unpack_dual(torch.stack([d, d * d]).sum(0)).tangent)
    print(fwAD.unpack_dual(torch.where(x > 0, d, x)).tangent)
    print(fwAD.unpack_dual(d.relu().sigmoid()).tangent)
    c = d.clone()
    c.mul_(3)
    c[0].add_(d[1])
    print(fwAD.unpack_dual(c).tangent)
    base = torch.zeros(2, 4)
    base[1] = d[0]
    print(fwAD.unpack_dual(base))
    print(fwAD.unpack_dual(x).tangent)
    try:
        fwAD.unpack_dual(3.0)
    except TypeError as e:
        print("TypeError:", e)
    try:
        fwAD.make_dual(x, torch.ones(4))
    except RuntimeError as e:
        print("RuntimeError:", e)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
print(fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(3.0))
try:
    fwAD.make_dual(x, t)
except RuntimeError as e:
    print("RuntimeError:", e)

model = nn.Linear(4, 2)
tangents = {name: torch.rand_like(p) for name, p in model.named_parameters()}
with fwAD.dual_level():
    duals = {name: fwAD.make_dual(p, tangents[name]) for name, p in model.named_parameters()}
    out = functional_call(model, duals, (x,))
    # (detached: torch's tangent records a graph here, its formula reading the weight, which requires grad;
    # gradcli's tangents carry no history, docs/run.md)
    print(fwAD.unpack_dual(out).tangent.detach())


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.a = a
        return a ** 3

    @staticmethod
    def backward(ctx, g):
        return 3 * ctx.a ** 2 * g

    @staticmethod
    def jvp(ctx, ta):
        return 3 * ctx.a ** 2 * ta


with fwAD.dual_level():
    print(fwAD.unpack_dual(Cube.apply(fwAD.make_dual(x, t))).tangent)
p = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, (p,), check_forward_ad=True, check_backward_ad=False))
out, tangent_out = jvp(lambda a, b: (a * b).sin(), (x, t), (t, x))
print(out, tangent_out)
