# torch's error, word for word
import torch
torch.manual_seed(0)
print(torch.masked_select(torch.randn(3), torch.tensor([True,False])))
