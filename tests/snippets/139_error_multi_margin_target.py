# torch's error, word for word
import torch
torch.manual_seed(0)
x=torch.randn(2,3)
print(torch.nn.functional.multi_margin_loss(x, torch.tensor([1,5])))
