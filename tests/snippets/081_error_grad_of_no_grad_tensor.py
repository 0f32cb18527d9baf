import torch

x = torch.tensor([1.0, 2.0])
y = (x * 2).sum()
y.backward()
