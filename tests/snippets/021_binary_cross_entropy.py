import torch
import torch.nn.functional as F

p = torch.tensor([0.9, 0.2, 0.6], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
loss = F.binary_cross_entropy(p, y)
print(loss)
loss.backward()
print(p.grad)
