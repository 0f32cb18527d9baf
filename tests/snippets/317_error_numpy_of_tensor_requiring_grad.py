# .numpy() on a tensor that requires grad: torch's error, naming detach()
import torch

w = torch.ones(2, requires_grad=True)
print(w.detach().numpy())
print(w.numpy())
