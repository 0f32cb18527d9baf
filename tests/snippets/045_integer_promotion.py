import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5])
print(i + f)
print(i * 2.5)
print(i + 1)
print((i + 1).dtype, (i * 1.0).dtype, (i / 1).dtype)
print(i.sum(), i.sum().dtype)
print(torch.tensor([1.0, 2.0], dtype=torch.float64) + f[:2])
