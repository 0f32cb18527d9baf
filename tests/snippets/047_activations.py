import torch
import torch.nn.functional as F

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
r = F.relu(x)
s = torch.sigmoid(x)
t = x.tanh()
print(r, s, t, sep="\n")
(r.sum() + s.sum() + t.sum()).backward()
print(x.grad)
