import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
d = y.detach()
print(d, d.requires_grad, d.is_leaf)
z = (y * d).sum()
z.backward()
print(x.grad)
print(x.detach())
print(x.data)
