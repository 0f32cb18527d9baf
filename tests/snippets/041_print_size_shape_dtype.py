import torch

x = torch.zeros(2, 3)
print(x.shape, x.size(), x.size(1), x.dim(), x.numel())
print(x.dtype, torch.tensor([1, 2]).dtype, torch.tensor(True).dtype)
print(x.shape[0], len(x), list(x.shape))
print(x.shape == (2, 3), x.shape.numel())
print(type(x), type(x.shape[0]), type(1.5))
