import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.retain_grad()
z = y.mean()
z.backward()
print(y.grad)
print(x.grad)
print(y.retains_grad, x.retains_grad)
