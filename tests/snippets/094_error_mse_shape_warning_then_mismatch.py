import torch
import torch.nn.functional as F

pred = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(F.mse_loss(pred, torch.tensor([[1.0], [2.0]])))
F.mse_loss(pred, torch.zeros(4))
