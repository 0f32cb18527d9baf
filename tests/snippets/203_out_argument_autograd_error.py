import torch

x = torch.ones(3, requires_grad=True)
c = torch.empty(3)
torch.mul(x, 2, out=c)
