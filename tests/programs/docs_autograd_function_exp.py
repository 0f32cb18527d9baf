# The example in the documentation of torch.autograd.Function (PyTorch 2.13's docstring, pytorch/pytorch torch/autograd/function.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: input = torch.randn(3, requires_grad=True), print(output), a backward and print(input.grad).
import torch
from torch.autograd import Function

torch.manual_seed(0)


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


input = torch.randn(3, requires_grad=True)
# Use it by calling the apply method:
output = Exp.apply(input)
print(output)
output.sum().backward()
print(input.grad)
