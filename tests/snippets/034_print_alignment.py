import torch

print(torch.tensor([[1.0, -22.5, 333.25], [0.5, 10.0, -1.0]]))
print(torch.tensor([[1, -200], [30, 4]]))
print(torch.tensor([1.5, 2.0, -3.25]))
print(torch.arange(30.0).reshape(3, 10) / 7)
