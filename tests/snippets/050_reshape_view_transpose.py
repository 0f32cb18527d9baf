import torch

x = torch.arange(6.0, requires_grad=True)
m = x.view(2, 3)
t = m.t()
r = t.reshape(-1)
print(m, t, r, sep="\n")
(r * torch.arange(6.0)).sum().backward()
print(x.grad)
print(m.unsqueeze(0).shape, m.unsqueeze(0).squeeze().shape, m.T.shape)
