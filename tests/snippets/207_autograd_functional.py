import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.manual_seed(0)

def f(x, y):
    return x * y.sin(), (x ** 2).sum()

x = torch.rand(3)
y = torch.rand(3)
print(jacobian(f, (x, y)))
print(jacobian(torch.exp, x))
print(vjp(torch.sin, x, torch.ones(3)))
print(jvp(torch.sin, x, torch.ones(3)))

def g(a, b):
    return (a ** 3 * b).sum()

print(hessian(g, (x, y)))
print(vhp(g, (x, y), (torch.ones(3), torch.zeros(3))))
print(hvp(g, (x, y), (torch.ones(3), torch.zeros(3))))
print(jacobian(torch.tanh, x, create_graph=True))
print(hessian(g, (x, y), create_graph=True)[0][0])

def const(a):
    return torch.ones(2)

print(jacobian(const, x), vjp(const, x, torch.ones(2)))
jacobian(const, x, strict=True)
