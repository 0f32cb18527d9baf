import torch

# a view saved for backward, changed through its base: backward refuses, naming the view's history
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 1
v = h[:2]
y = v * v
print(v._version, v.grad_fn)
h.mul_(2)
print(v._version, v.grad_fn, h.grad_fn)
y.sum().backward()
