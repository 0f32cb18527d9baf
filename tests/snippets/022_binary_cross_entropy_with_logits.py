import torch
import torch.nn.functional as F

z = torch.tensor([1.5, -0.3, 0.8], requires_grad=True)
y = torch.tensor([1.0, 0.0, 0.0])
loss = F.binary_cross_entropy_with_logits(z, y)
print(loss)
loss.backward()
print(z.grad)
