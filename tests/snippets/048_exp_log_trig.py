import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = torch.exp(x) + torch.log(x) + torch.sin(x) * torch.cos(x) + x.sqrt()
print(y)
y.sum().backward()
print(x.grad)
