import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    print(torch.is_grad_enabled())
print(y, y.requires_grad, y.grad_fn)
print(torch.is_grad_enabled())
z = x * 2
print(z)
