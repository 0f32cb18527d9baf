import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
def double(g):
    print("leaf hook sees", g)
    return g * 2
def show(g):
    print("y hook sees", g)
hx = x.register_hook(double)
y = x * x
hy = y.register_hook(show)
y.retain_grad()
z = (y * 3).sum()
z.backward()
print(x.grad, y.grad)
hx.remove()
x.grad = None
(x * x).sum().backward()
print(x.grad)
print(torch.autograd.grad((x ** 3).sum(), x))
w = torch.ones(2, requires_grad=True)
w.register_hook(double)
print(torch.autograd.grad((w * 5).sum(), w))
torch.ones(2).register_hook(show)
