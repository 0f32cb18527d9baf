# The example in the documentation of torch.autograd.function.FunctionCtx.mark_non_differentiable and set_materialize_grads (PyTorch 2.13's docstring, pytorch/pytorch torch/autograd/function.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: from torch.autograd.function import Function, once_differentiable; each function applied to a tensor (x = torch.randn(5, requires_grad=True) for the first), results, a backward and the gradients printed.
import torch
from torch.autograd.function import Function, once_differentiable

torch.manual_seed(0)


class Func(Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):  # still need to accept g2
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input


x = torch.randn(5, requires_grad=True)
s, i = Func.apply(x)
print(s, i)
print(i.requires_grad)
(s * torch.arange(5.)).sum().backward()
print(x.grad)


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        return g1 + g2  # No check for None necessary

# We modify SimpleFunc to handle non-materialized grad outputs
class Func(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:  # We must check for None now
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input

a = torch.tensor(1., requires_grad=True)
b, _ = Func.apply(a)  # induces g2 to be undefined
b.backward()
print(a.grad)
c, _ = SimpleFunc.apply(a)
(c * 3).backward()
print(a.grad)
