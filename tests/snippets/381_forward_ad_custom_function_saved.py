# A custom autograd.Function's jvp reading ctx.saved_tensors (save_for_forward), run with grad mode on as torch
# runs it (the tangent records its history), and the same Function's backward.
import torch, torch.autograd.forward_ad as fwAD
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 2 * x * t
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2*x*g
x0 = torch.tensor([1., 2.], requires_grad=True)
with fwAD.dual_level():
    x = fwAD.make_dual(x0, torch.tensor([1., 1.]))
    y = F.apply(x)
    print(y)
    print(fwAD.unpack_dual(y).tangent)
z = F.apply(x0).sum()
z.backward()
print(x0.grad)
