# torch's error, word for word
import torch
torch.manual_seed(0)
x=torch.randn(3,dtype=torch.float64)
print(torch.quantile(x, torch.tensor([0.5])))
