import torch

t = torch.tensor(5.0)
print(t[None], t[...])
print(t[0])
