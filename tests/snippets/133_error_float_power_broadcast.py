# torch's error, word for word
import torch
torch.manual_seed(0)
print(torch.float_power(torch.randn(3), torch.randn(2)))
