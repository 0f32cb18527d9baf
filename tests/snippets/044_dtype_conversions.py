import torch

x = torch.tensor([1.7, -2.2, 3.5], requires_grad=True)
print(x.long())
print(x.int())
print(x.double())
print(x.to(torch.float64))
print(x.bool())
print(x.float() is x)
y = x.double() * 2
y.sum().backward()
print(x.grad)
print(torch.tensor([1, 2]).float())
