# sort, topk, median, cummax, cummin: torch.return_types printed, gradients to the selected elements (median of
# all elements shares it between ties). topk's tie order is torch's unstable CPU order: no ties here.
import torch
x = torch.tensor([[2., 1., 2., 3., 2.], [0.5, -1.0, 4.0, 4.0, -2.0]], requires_grad=True)
u = torch.tensor([[2.5, 1., 0.2, 3., 2.], [0.5, -1.0, 4.0, 4.5, -2.0]], requires_grad=True)
print(torch.max(x, 1))
s = torch.sort(x, dim=1)
print(s, torch.sort(x, 0, descending=True).values)
t = torch.topk(u, 2)
print(t, u.topk(3, largest=False, dim=1).indices)
m = torch.median(x)
print(m, x.median(dim=1), x.median(0, keepdim=True))
c = torch.cummax(x, 1)
print(c, torch.cummin(x, dim=0))
w = torch.arange(10.0).reshape(2, 5)
(s.values * w).sum().backward(retain_graph=True); print(x.grad); x.grad = None
(t.values * w[:, :2]).sum().backward(); print(u.grad)
(m * 3).backward(); print(x.grad); x.grad = None
(x.median(1).values * torch.tensor([1.0, 2.0])).sum().backward(); print(x.grad); x.grad = None
(c.values * w).sum().backward(); print(x.grad); x.grad = None
print(torch.median(torch.tensor([1.0, float("nan"), 3.0]), 0), torch.tensor([3.0, 1.0, 2.0]).sort())
a, b = torch.sort(torch.tensor([3, 1, 2]), descending=True)
print(a, b)
