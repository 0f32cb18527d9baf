# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_preliminaries/autograd.md
# @ 23d7a5ae, the cells of the PyTorch tab in order, prose dropped. The last expression of a cell, which the
# notebook displays, is printed (print(...) around it), except where its value is None (the notebook shows nothing).
# Added: torch.manual_seed(0) (a = torch.randn(...) decides the branch taken). Cut: nothing.
import torch

torch.manual_seed(0)

x = torch.arange(4.0)
print(x)

# Can also create x = torch.arange(4.0, requires_grad=True)
x.requires_grad_(True)
x.grad  # The gradient is None by default

y = 2 * torch.dot(x, x)
print(y)

y.backward()
print(x.grad)

print(x.grad == 4 * x)

x.grad.zero_()  # Reset the gradient
y = x.sum()
y.backward()
print(x.grad)

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))  # Faster: y.sum().backward()
print(x.grad)

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x

z.sum().backward()
print(x.grad == u)

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()

print(a.grad == d / a)
