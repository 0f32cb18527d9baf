# cdist over rows of no columns (zeros, for every p), multi_margin_loss of a 0-d and a 1-D input
import torch
x = torch.ones(2, 0, requires_grad=True)
d = torch.cdist(x, torch.ones(3, 0), p=float("inf"))
print(d)
d.sum().backward()
print(x.grad.shape)
x = torch.ones(2, 0, requires_grad=True)
d = torch.cdist(x, torch.ones(3, 0))
d.sum().backward()
print(d, x.grad.shape)
print(torch.linalg.vector_norm(torch.ones(2, 3, 0), ord=2, dim=-1))
F = torch.nn.functional
print(F.multi_margin_loss(torch.tensor(0.4, requires_grad=True), torch.tensor(0)))
print(F.multi_margin_loss(torch.tensor([0.4, 0.1], requires_grad=True), torch.tensor(1), reduction='none'))
