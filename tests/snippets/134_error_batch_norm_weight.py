# torch's error, word for word
import torch
torch.manual_seed(0)
print(torch.nn.functional.batch_norm(torch.randn(2,3), torch.zeros(3), torch.ones(3), weight=torch.ones(2), training=True))
