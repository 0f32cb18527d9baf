# float32 sums and means in ATen's summation order (issue 28): printed with .item() / .tolist(), every bit shows
import torch

print(torch.tensor([0.1318, 1.0198, -0.4468, 0.4520, -0.9759]).sum().item())
torch.manual_seed(0)
for width in range(5, 17):
    x = torch.randn(3, width)
    print(width, x.sum(dim=1).tolist(), x.mean().item())
rows = torch.randn(100, 9)
print(rows.sum(dim=0).tolist())
print(rows.t().sum(dim=1).tolist(), rows.t().sum().item())
print(rows.mean(dim=0, keepdim=True).tolist())
cube = torch.randn(4, 33, 17)
print(cube.sum(dim=(0, 2)).tolist(), cube.permute(2, 0, 1).sum(dim=1).sum().item())
big = torch.randn(40000)
print(big.sum().item(), big.mean().item(), big.view(200, 200).sum(dim=0)[:4].tolist())
nans = torch.randn(50)
nans[::7] = float('nan')
print(torch.nansum(nans).item(), torch.nanmean(nans).item())

# a training loop: the loss drifted from its first line when sums were taken in numpy's order
w = torch.randn(8, requires_grad=True)
data = torch.randn(64, 8)
target = torch.randn(64)
opt = torch.optim.SGD([w], lr=0.01)
for step in range(500):
    opt.zero_grad()
    loss = (((data * w).sum(dim=1) - target) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(step, loss.item())
print(w.tolist())
m = torch.randn(3, 5, requires_grad=True)
m.mean(dim=1).sum().backward()
print(m.grad.tolist())
