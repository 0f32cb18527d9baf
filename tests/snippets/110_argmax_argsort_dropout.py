# argmax / argmin / argsort (ties, nan, dims, keepdim) and F.dropout's draws (training, eval, p = 0 and 1).
import torch
import torch.nn.functional as F

x = torch.tensor([[3.0, 1.0, 3.0, 2.0], [1.0, float("nan"), 0.0, 5.0], [2.0, 2.0, 2.0, 2.0]])
print(x.argmax(), x.argmin(), torch.argmax(x, dim=1), torch.argmin(x, 0))
print(x.argmax(dim=1, keepdim=True), torch.argmax(x, keepdim=True).shape, x[2].argmin())
print(torch.tensor([[1, 7, 7], [9, 0, 9]]).argmax(1), torch.tensor([4, -2, -2]).argmin())
print(torch.argsort(x), torch.argsort(x, dim=0, descending=True))
print(torch.tensor([5, 1, 4, 1, 5]).argsort(stable=True), torch.tensor([5, 1, 4, 1, 5]).argsort(descending=True, stable=True))

torch.manual_seed(0)
h = torch.linspace(-1, 1, 12, requires_grad=True)
d = F.dropout(h, p=0.4)
print(d)
d.sum().backward()
print(h.grad)
print(F.dropout(h, 0.4, training=False) is h, F.dropout(h, 0.0) is h, F.dropout(h, 1.0))
print(F.dropout(torch.ones(2, 20, dtype=torch.float64), 0.3))
print(torch.dropout(torch.ones(17), 0.5, True))
y = torch.ones(6)
F.dropout(y, 0.5, inplace=True)
print(y)
