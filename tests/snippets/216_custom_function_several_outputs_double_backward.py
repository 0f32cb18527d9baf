import torch

class Sinh2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, grad_out_exp, grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += grad_out_exp * expx
        grad_input -= grad_out_exp * expnegx
        return grad_input

x = torch.tensor([0.5, 1.0, -0.3], dtype=torch.double, requires_grad=True)
out = Sinh2.apply(x)[0]
g, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(g)
h, = torch.autograd.grad(g.sum(), x)
print(h)
a, b, c = Sinh2.apply(x)
g2, = torch.autograd.grad((a * 2 + b * 3 + c).sum(), x, create_graph=True)
print(g2, torch.autograd.grad(g2.sum(), x))
v = torch.ones(3, dtype=torch.double, requires_grad=True)
a, b, c = Sinh2.apply(x)
g3, = torch.autograd.grad(a, x, v, create_graph=True)
print(g3, torch.autograd.grad(g3.sum(), v))
w = torch.full((3,), 2.0, dtype=torch.double, requires_grad=True)
a, b, c = Sinh2.apply(x)
g4, = torch.autograd.grad((a, b), x, (v, w), create_graph=True)
print(g4, torch.autograd.grad(g4.sum(), (v, w, x)))
