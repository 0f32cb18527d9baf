import torch
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
x = torch.rand(3, dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sin, x), gradgradcheck(torch.sin, x))
print(gradcheck(torch.mul, (x, torch.rand(3, dtype=torch.double, requires_grad=True))))
print(torch.rand(2))  # gradgradcheck drew its grad_outputs from the default generator


class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3


print(gradcheck(Bad.apply, x, raise_exception=False))
print(gradcheck(torch.sin, torch.rand(2, requires_grad=True), atol=1e-2, rtol=1e-2))
