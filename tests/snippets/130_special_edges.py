# Edge values PyTorch handles in its own way: erfinv near +-1 (full float64 accuracy), sinc's gradient where
# x*x*pi underflows, logit with eps > 0.5, nanmean of an all-nan row (nan gradient), cummax/cummin after
# several nans (the latest nan wins).
import torch
y = torch.tensor([0.9, 0.99, 0.999999, 1 - 1e-10, 1 - 1e-14, -(1 - 1e-15), 1e-300, 0.5], dtype=torch.float64, requires_grad=True)
print(torch.erfinv(y).tolist())
torch.erfinv(y).sum().backward()
print([float(f"{v:.13g}") for v in y.grad.tolist()])  # exp of ~30 may differ in the last bit
f = torch.tensor([0.9, 0.99, 0.999999, 0.9999999, -0.99999994], requires_grad=True)
print(torch.erfinv(f).tolist())
x = torch.tensor([1e-9, -1e-7, 1e-20, 0.0, 1e-4, 2.0], dtype=torch.float64, requires_grad=True)
torch.sinc(x).sum().backward()
print(x.grad.tolist())
x32 = torch.tensor([1e-9, -1e-7, 1e-20, 0.0, 1e-4, 2.0, 1e-3], requires_grad=True)
torch.sinc(x32).sum().backward()
print(x32.grad.tolist())
p = torch.tensor([0.1, 0.3, 0.5, 0.7, 0.9], dtype=torch.float64, requires_grad=True)
for eps in (0.6, 0.5, 0.2):
    z = torch.logit(p, eps=eps)
    print(z.tolist())
    p.grad = None
    z.sum().backward()
    print(p.grad.tolist())
x = torch.tensor([1e-200, -1e-170, 1e-160, 0.0], dtype=torch.float64, requires_grad=True)
torch.sinc(x).sum().backward()
print(x.grad.tolist())
x32 = torch.tensor([1e-30, -1e-25, 1e-22, 1e-19], requires_grad=True)
torch.sinc(x32).sum().backward()
print(x32.grad.tolist())
nan = float("nan")
x = torch.tensor([[1.0, nan, 2.0], [nan, nan, nan]], requires_grad=True)
y = torch.nanmean(x, 1)
print(y)
y.sum().backward()
print(x.grad)
x.grad = None
torch.nansum(x).backward()
print(x.grad)
c = torch.tensor([1.0, nan, 3.0, nan, 2.0, 5.0, nan], requires_grad=True)
for f in (torch.cummax, torch.cummin):
    r = f(c, 0)
    print(r)
    c.grad = None
    (r.values * torch.arange(7.0)).sum().backward()
    print(c.grad)
d = torch.tensor([nan, 1.0, nan, 0.5, 4.0], requires_grad=True)
print(torch.cummax(d, 0), torch.cummin(d, 0))
