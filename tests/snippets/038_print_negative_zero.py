import torch

x = torch.tensor([-0.0, 0.0, 1.0])
print(x)
print(-torch.zeros(3))
print(torch.tensor(-0.0))
print(torch.tensor([-0.0, 1.5]))
