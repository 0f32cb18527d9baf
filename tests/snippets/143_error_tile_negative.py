# torch's error, word for word
import torch
torch.manual_seed(0)
print(torch.tile(torch.randn(3), (-1,)))
