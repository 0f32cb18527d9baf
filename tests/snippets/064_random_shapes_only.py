import torch

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
r = torch.rand(5)
print(x.shape, r.shape, x.dtype, x.requires_grad)
y = (x * 2).sum()
y.backward()
print(x.grad)
print((r >= 0).sum(), (r < 1).sum())
