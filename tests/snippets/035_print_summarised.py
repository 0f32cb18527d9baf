import torch

big = torch.arange(2000.0)
print(big)
print(torch.arange(1200).reshape(40, 30))
print(torch.ones(3, 400, requires_grad=True).sum(dim=0))
