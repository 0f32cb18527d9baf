import torch

x = torch.arange(6.0).reshape(2, 3)
y = x.t()
print(y.reshape(6))
z = y.view(6)
