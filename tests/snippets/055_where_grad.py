import torch

x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
y = torch.where(x > 0, x * 2, x * x)
print(y)
y.sum().backward()
print(x.grad)
