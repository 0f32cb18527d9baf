import torch

a = torch.tensor([1.0, 4.0], requires_grad=True)
b = torch.tensor([2.0, 8.0], requires_grad=True)
q = a / b
print(q)
q.sum().backward()
print(a.grad)
print(b.grad)
