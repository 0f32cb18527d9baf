import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
p = F.softmax(x, dim=1)
print(p)
lp = torch.log_softmax(x, dim=-1)
print(lp)
(p[:, 0].sum() + lp[0, 2]).backward()
print(x.grad)
