import torch

print(torch.zeros(2, 3))
print(torch.ones(2))
print(torch.full((2, 2), 7.0))
print(torch.full((2,), 3))
print(torch.eye(3))
print(torch.arange(0, 1, 0.25))
print(torch.linspace(-1, 1, 5))
print(torch.zeros_like(torch.tensor([1, 2])), torch.ones_like(torch.tensor([1.0])))
print(torch.empty(0))
print(torch.tensor([]))
print(torch.tensor([[1.0, 2.0]], dtype=torch.float64))
