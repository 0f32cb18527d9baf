# issue 28's fuzz: a slice of a shape is a torch.Size; cross_entropy over zero classes; norms of empty matrices
import torch
import torch.nn.functional as F

x = torch.tensor([[1., 2., 3.], [4., 5., 7.]], requires_grad=True)
print(x.shape[-1:], x.size()[1:], x.shape[:0], x.shape[::-1])
w = torch.tensor([0.5, -1., 2.])
out = F.layer_norm(x, x.shape[-1:], w)
print(out.shape, x.reshape(x.shape[::-1]).shape)

logits = torch.zeros(2, 0, requires_grad=True)
probs = torch.zeros(2, 0)
print(F.cross_entropy(logits, probs), F.cross_entropy(logits, probs, reduction='sum'))
loss = F.cross_entropy(logits, probs, label_smoothing=0.1)
print(loss)
loss.backward()
print(logits.grad)

empty = torch.zeros(3, 0, requires_grad=True)
print(torch.linalg.norm(empty, ord=1), torch.linalg.norm(empty, ord=float('inf')))
print(torch.linalg.norm(empty, ord=-float('inf')), torch.linalg.matrix_norm(torch.zeros(0, 3), ord=float('inf')))
print(torch.linalg.matrix_norm(torch.zeros(2, 0, 3, requires_grad=True), ord=1, keepdim=True))
