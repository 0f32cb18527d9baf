import torch

x = torch.tensor([[1.0, 5.0, 3.0], [7.0, 2.0, 7.0]], requires_grad=True)
m = x.max()
print(m)
m.backward()
print(x.grad)
x.grad = None
values, indices = x.min(dim=1)
print(values)
print(indices)
values.sum().backward()
print(x.grad)
