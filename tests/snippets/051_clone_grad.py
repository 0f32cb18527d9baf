import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = x.clone()
print(c)
(c * c).sum().backward()
print(x.grad)
print(torch.clone(x.detach()))
