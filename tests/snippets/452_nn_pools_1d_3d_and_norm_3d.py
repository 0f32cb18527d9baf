# nn.AdaptiveAvgPool1d/AdaptiveMaxPool1d/AdaptiveAvgPool3d, BatchNorm3d, InstanceNorm3d, F's *_with_indices: values, grads, errors
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 7, requires_grad=True)
for m in (nn.AdaptiveAvgPool1d(3), nn.AdaptiveMaxPool1d(5), nn.AdaptiveMaxPool1d(3, return_indices=True), nn.AdaptiveAvgPool1d((4,))):
    y = m(x)
    print(m, y)
    if isinstance(y, tuple):
        y = y[0]
    print(torch.autograd.grad((y * y).sum(), x)[0])
print(F.adaptive_max_pool1d(x, 3, return_indices=True), F.adaptive_avg_pool1d(x[0], 2))
print(F.max_pool1d_with_indices(x, 2), F.max_pool2d_with_indices(torch.randn(1, 1, 4, 4), 2))
print(F.adaptive_max_pool2d_with_indices(torch.randn(1, 4, 5), (2, 3)))
v = torch.randn(2, 3, 4, 5, 6, requires_grad=True)
m = nn.AdaptiveAvgPool3d((2, None, 3))
y = m(v)
print(m, y.shape, y.grad_fn)
bn = nn.BatchNorm3d(3)
out = bn(v)
print(bn, out.grad_fn, out[0, 0, 0], bn.running_mean, bn.running_var, bn.num_batches_tracked)
out.pow(2).sum().backward()
print(v.grad[1, 2, 3], bn.weight.grad, bn.bias.grad)
bn.eval()
print(bn(v)[1, 1, 1])
inn = nn.InstanceNorm3d(3, affine=True)
out = inn(v)
print(inn, out.grad_fn, out[1, 2, 0])
print(nn.InstanceNorm3d(3)(v[0])[0, 0])
for f in [lambda: F.adaptive_avg_pool1d(torch.randn(3), 2), lambda: F.adaptive_avg_pool1d(torch.randn(1, 2, 3), (2, 2)), lambda: F.adaptive_max_pool1d(torch.randn(2, 3, 4, 5), 2), lambda: F.adaptive_max_pool1d(torch.randn(2, 0, 4), 2), lambda: nn.BatchNorm3d(2)(torch.randn(2, 2, 3)), lambda: nn.InstanceNorm3d(2)(torch.randn(2, 2, 3))]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
