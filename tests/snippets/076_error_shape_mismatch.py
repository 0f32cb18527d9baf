import torch

a = torch.ones(3)
b = torch.ones(4)
print(a + b)
