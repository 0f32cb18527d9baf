# return_indices=True of F.max_pool1d/2d and nn.MaxPool1d/2d: the first maximum of a window, the last nan; the
# gradient goes where the index points
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 2, 5, 6)
x[0, 0, 0, :2] = 5.0
x[1, 1, 1] = float("nan")
x[1, 0, 2, 1:4] = float("nan")
x.requires_grad_()
for a in [(2,), (3, 2, 1), ((2, 3), (1, 2), (1, 0), (1, 2), True), (2, 1, 0, 2)]:
    out, idx = F.max_pool2d(x, *a, return_indices=True)
    print(out, idx, idx.dtype)
    out.backward(torch.arange(out.numel(), dtype=torch.float32).reshape(out.shape))
    print(x.grad)
    x.grad = None
    if not isinstance(a[0], tuple):
        out, idx = F.max_pool1d(x[0], *a[:1], return_indices=True)
        print(out, idx)
        out.sum().backward()
        print(x.grad[0])
        x.grad = None
print(nn.MaxPool2d(2, return_indices=True)(x)[1], nn.MaxPool1d(3, stride=2, return_indices=True)(x[1, 1])[1])
try:
    F.max_pool1d(x[0], (2, 3))
except RuntimeError as e:
    print(e)
for kw in [dict(kernel_size=(2, 2)), dict(kernel_size=2, stride=(1, 1)), dict(kernel_size=2, padding=(1, 1)),
           dict(kernel_size=2, dilation=(1, 1))]:
    for ri in (False, True):
        try:
            F.max_pool1d(x[0, 0], return_indices=ri, **kw)
        except RuntimeError as e:
            print(ri, e)
