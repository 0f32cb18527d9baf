import torch

x = torch.tensor(1.0, requires_grad=True)
y = torch.tensor(2.0, requires_grad=True)
z = x * y + y ** 2
gx, gy = torch.autograd.grad(z, [x, y])
print(gx, gy)
print(x.grad, y.grad)
w = torch.tensor(5.0, requires_grad=True)
print(torch.autograd.grad((x * 3), [x, w], allow_unused=True))
