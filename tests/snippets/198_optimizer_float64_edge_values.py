# float64 optimiser updates are fused multiply-adds in PyTorch's kernels: a -0.0 parameter stays -0.0, huge
# values keep their last bits, and an infinite intermediate does not turn into nan.
import torch

for options in ({}, {"momentum": 0.9, "weight_decay": 0.01}):
    p = torch.tensor([-0.0, 1.0], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1, **options)
    for _ in range(3):
        opt.zero_grad()
        (p[1] * 2).backward()
        opt.step()
    print(p.tolist())

big = torch.tensor([-2.0e301, 3.1e300, 7.0], dtype=torch.float64, requires_grad=True)
opt = torch.optim.SGD([big], lr=0.37)
for _ in range(3):
    opt.zero_grad()
    (big * torch.tensor([1.1e301, -2.3e300, 1e-300], dtype=torch.float64)).sum().backward()
    opt.step()
    print(big.tolist())

w = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
opt = torch.optim.RMSprop([w], lr=0.01, centered=True)
for scale in (1e-3, 1e156, 1.0):
    opt.zero_grad()
    (w * scale).sum().backward()
    opt.step()
    print(w.tolist())
