import torch

x = torch.tensor([-2.0, 0.0, 0.5, 1.0, 3.0], requires_grad=True)
y = x.clamp(min=0.0, max=1.0)
print(y)
y.sum().backward()
print(x.grad)
