import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
a = x[0]
b = x[:, 1]
c = x[1, 2]
print(a, b, c, sep="\n")
(a.sum() + 2 * b.sum() + 3 * c).backward()
print(x.grad)
idx = torch.tensor([0, 0, 2])
print(x[1][idx])
