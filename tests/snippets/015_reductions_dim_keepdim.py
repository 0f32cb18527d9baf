import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
s0 = x.sum(dim=0)
s1 = x.sum(dim=1, keepdim=True)
m = x.mean(1)
print(s0, s1, m, sep="\n")
(s0.sum() + s1.sum() * 2 + m.sum()).backward()
print(x.grad)
print(x.sum(), x.mean())
