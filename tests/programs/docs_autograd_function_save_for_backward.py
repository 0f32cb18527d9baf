# The example in the documentation of torch.autograd.function.FunctionCtx.save_for_backward (PyTorch 2.13's docstring, pytorch/pytorch torch/autograd/function.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: from torch.autograd.function import Function, once_differentiable; print(d), d.backward(), print(a.grad, b.grad).
import torch
from torch.autograd.function import Function, once_differentiable

torch.manual_seed(0)


class Func(Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, z: int):
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z  # z is not a tensor
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        gx = grad_out * (y + y * z)
        gy = grad_out * (x + z + w)
        gz = None
        return gx, gy, gz

a = torch.tensor(1., requires_grad=True, dtype=torch.double)
b = torch.tensor(2., requires_grad=True, dtype=torch.double)
c = 4
d = Func.apply(a, b, c)
print(d)
d.backward()
print(a.grad, b.grad)
