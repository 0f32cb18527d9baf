import torch

x = torch.arange(6.0)
print(x.reshape(4, -1))
