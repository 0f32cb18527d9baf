import torch

base = torch.tensor([2.0, 3.0], requires_grad=True)
exp = torch.tensor([3.0, 2.0], requires_grad=True)
y = base ** exp
print(y)
y.sum().backward()
print(base.grad)
print(exp.grad)
