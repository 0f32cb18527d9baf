# cdist's matrix-product path (p=2, more than 25 rows): torch's _euclidean_dist values and backward, where a
# point's distance to itself can be a small positive number; compute_mode chooses the path.
import torch
torch.manual_seed(0)
x = torch.randn(30, 3, dtype=torch.float64, requires_grad=True)
y = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
d = torch.cdist(x, y)
print(d.grad_fn.name(), d[:3])
(d * torch.arange(4.0, dtype=torch.float64)).sum().backward()
print(x.grad[:3], y.grad)
x.grad = None
d = torch.cdist(x, x)
print(d[:3, :3])
d.sum().backward()
print(x.grad[:3])
x32 = torch.randn(2, 30, 3, requires_grad=True)
d = torch.cdist(x32, x32[0])
print(d[0, :2, :3], d.shape, d.grad_fn.name())
d.sum().backward()
print(torch.cdist(x[:5], y, compute_mode="use_mm_for_euclid_dist").grad_fn.name())
print(torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist").grad_fn.name())
