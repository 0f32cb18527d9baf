import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x ** 2).sum().backward()
assert x.grad is None, "gradient should be empty"
