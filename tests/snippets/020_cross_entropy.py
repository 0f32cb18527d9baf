import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
labels = torch.tensor([0, 1])
loss = F.cross_entropy(logits, labels)
print(loss)
loss.backward()
print(logits.grad)
