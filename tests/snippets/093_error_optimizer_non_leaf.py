import torch

x = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([x * 2], lr=0.1)
