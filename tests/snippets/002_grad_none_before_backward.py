import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(x.grad)
print(x.grad is None)
y = (3 * x).sum()
y.backward()
print(x.grad)
