import torch
x = torch.tensor([0.7, -1.3, 2.0], requires_grad=True)
o = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
y = x.ldexp(o)
print(y)
g = torch.autograd.grad(y.sum(), [x, o], create_graph=True)
print(g)
print(torch.autograd.grad(g[1].sum(), [x, o]))
