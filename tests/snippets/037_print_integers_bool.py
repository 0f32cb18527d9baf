import torch

print(torch.tensor([1, 2, 3]))
print(torch.arange(5))
print(torch.tensor([True, False]))
print(torch.tensor([1, 2]) * 2)
print(torch.tensor([1, 2]) / 2)
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.zeros(2, 2, dtype=torch.long))
