import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
print(y.is_leaf, x.is_leaf)
print(y.grad)
print(x.grad)
