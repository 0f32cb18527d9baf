import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
first, second, third = h.unbind()
print(first.grad_fn)
h.mul_(2)
print(first)
print(first.grad_fn)
