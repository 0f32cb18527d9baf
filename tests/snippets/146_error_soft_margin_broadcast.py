# torch's error, word for word
import torch
torch.manual_seed(0)
print(torch.nn.functional.soft_margin_loss(torch.randn(3), torch.randn(2)))
