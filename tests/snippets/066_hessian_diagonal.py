import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
f = (x ** 3).sum() + (x[0] * x[1])
(g,) = torch.autograd.grad(f, x, create_graph=True)
rows = []
for i in range(3):
    (row,) = torch.autograd.grad(g[i], x, retain_graph=True)
    rows.append(row.tolist())
print(rows)
