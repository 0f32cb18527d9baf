import torch

x = torch.tensor([1.0, 2.5], dtype=torch.float64, requires_grad=True)
print(x)
y = (x * x).sum()
print(y)
y.backward()
print(x.grad)
print(x.double() is x, x.dtype)
