# gradcheck compares the Jacobian element for element: a backward that gives A @ g where A^T @ g is right (the
# transposed Jacobian) fails it, for a square non-symmetric A as for a non-square one.
import torch


class WrongMatVec(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, x):
        ctx.save_for_backward(a)
        return a @ x

    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return None, a @ g


class RightMatVec(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, x):
        ctx.save_for_backward(a)
        return a @ x

    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return None, a.t() @ g


a = torch.tensor([[1.0, 2.0], [0.0, 3.0]], dtype=torch.float64)
x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(RightMatVec.apply, (a, x)))
print(torch.autograd.gradcheck(WrongMatVec.apply, (a, x), raise_exception=False))
try:
    torch.autograd.gradcheck(WrongMatVec.apply, (a, x))
except RuntimeError as e:
    print(str(e))
b = torch.tensor([[1.0, 2.0], [0.0, 3.0], [4.0, -1.0]], dtype=torch.float64)
print(torch.autograd.gradcheck(RightMatVec.apply, (b, x)))
