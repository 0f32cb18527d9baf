import torch

a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
b = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
c = a + b
print(c)
c.sum().backward()
print(a.grad)
print(b.grad)
