import torch

print("before")
x = torch.tensor([1, 2, 3], requires_grad=True)
