# torch's error, word for word
import torch
torch.manual_seed(0)
print(torch.randn(6).unflatten(0, (4, -1)))
