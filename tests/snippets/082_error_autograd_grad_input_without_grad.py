import torch

x = torch.tensor(1.0, requires_grad=True)
c = torch.tensor(2.0)
torch.autograd.grad(x * c, [c])
