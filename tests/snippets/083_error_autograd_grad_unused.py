import torch

x = torch.tensor(1.0, requires_grad=True)
w = torch.tensor(2.0, requires_grad=True)
torch.autograd.grad(x * 3, [x, w])
