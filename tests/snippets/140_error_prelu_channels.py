# torch's error, word for word
import torch
torch.manual_seed(0)
x=torch.randn(3,requires_grad=True)
print(torch.nn.functional.prelu(x, torch.tensor([0.2,0.1,0.3])))
