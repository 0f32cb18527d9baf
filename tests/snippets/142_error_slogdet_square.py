# torch's error, word for word
import torch
torch.manual_seed(0)
x=torch.randn(2,3)
print(torch.linalg.slogdet(x))
