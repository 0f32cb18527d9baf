# GroupNorm on a channels-last input (a permuted copy, as convolution code makes it): torch runs other kernels
# there, and its result and the input's gradient keep the channels-last layout, so their sums add in that
# order; beside it the contiguous input and InstanceNorm2d (batch_norm on a view).
import torch
import torch.nn as nn

torch.manual_seed(0)
gn = nn.GroupNorm(4, 16)
with torch.no_grad():
    gn.weight.uniform_(0.5, 1.5)
    gn.bias.uniform_(-0.5, 0.5)
for shape in [(3, 5, 7, 16), (2, 30, 30, 16)]:  # below 1024 pixels: no thread split
    x = torch.randn(*shape).permute(0, 3, 1, 2).requires_grad_()
    y = gn(x)
    print(y.sum().item(), y[1, 2, 3].tolist()[:4])
    (y * torch.randn(y.shape)).sum().backward()
    print(x.grad.sum().item(), gn.weight.grad.sum().item(), gn.bias.grad.sum().item())
    gn.zero_grad()
    z = x.detach().contiguous().requires_grad_()
    out = gn(z)
    (out * out).sum().backward()
    print(out.sum().item(), z.grad.sum().item(), gn.weight.grad[:3].tolist())
    gn.zero_grad()
inorm = nn.InstanceNorm2d(16, affine=True)
x = torch.randn(2, 16, 5, 5, requires_grad=True)
(inorm(x) ** 3).sum().backward()
print(x.grad.sum().item(), inorm.weight.grad.sum().item())
