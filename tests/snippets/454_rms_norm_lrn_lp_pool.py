# nn.RMSNorm / F.rms_norm, LocalResponseNorm, LPPool1d/2d: values, grads, grad_fn, printed form, errors
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    x = torch.randn(2, 3, 4, dtype=dt, requires_grad=True)
    for m in (nn.RMSNorm(4), nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False), nn.LocalResponseNorm(2), nn.LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2.0), nn.LPPool1d(2, 2), nn.LPPool1d(3, 3, stride=1), nn.LPPool1d(float('inf'), 2), nn.LPPool2d(2, (2, 3), ceil_mode=True)):
        m = m.to(dt)
        y = m(x)
        print(m, y, y.grad_fn)
        w = m.weight if getattr(m, "weight", None) is not None else None
        gs = torch.autograd.grad((y * y.detach().sign()).sum(), [x] + ([w] if w is not None else []))
        print(gs)
v = torch.randn(2, 5, 3, 2, requires_grad=True)
y = F.local_response_norm(v, 3)
print(y, y.grad_fn)
print(torch.autograd.grad(y.sum(), v)[0])
print(F.rms_norm(v, (2,)), F.rms_norm(v, [3, 2], torch.randn(3, 2), eps=0.5))
with torch.no_grad():
    print(F.rms_norm(v, (2,)))
for f in [lambda: F.rms_norm(v, (3,)), lambda: F.rms_norm(v, (2,), torch.randn(3)), lambda: F.local_response_norm(torch.randn(2, 3), 2)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
for f in [lambda: F.rms_norm(v, (4, 3, 2)), lambda: F.rms_norm(torch.randn(2), (4, 3, 2))]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
