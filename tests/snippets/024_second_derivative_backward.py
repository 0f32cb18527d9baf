import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.sin() * x).sum()
g = torch.autograd.grad(y, x, create_graph=True)[0]
print(g)
g.sum().backward()
print(x.grad)
