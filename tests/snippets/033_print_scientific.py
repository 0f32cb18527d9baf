import torch

print(torch.tensor([1e-5, 1.0, 1000.0]))
print(torch.tensor([123456789.0, 1.0]))
print(torch.tensor([0.0001, 0.001]))
print(torch.tensor(1e10))
print(torch.tensor([1e-8, 2e-8], requires_grad=True))
