import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.cat([a, b * 2])
s = torch.stack([a, a * a])
print(c)
print(s)
(c.sum() + s.sum()).backward()
print(a.grad, b.grad)
