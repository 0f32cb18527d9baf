import torch

x = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
print(x)
print(torch.tensor([float("nan")]))
print(torch.tensor([0.0, 1.0]) / 0.0)
print(torch.tensor(float("inf")))
