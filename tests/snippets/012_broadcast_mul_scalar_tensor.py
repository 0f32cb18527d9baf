import torch

w = torch.tensor(0.5, requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = w * x + w
y.sum().backward()
print(y)
print(w.grad)
print(x.grad)
