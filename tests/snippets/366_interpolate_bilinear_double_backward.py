# F.interpolate in every mode and nn.Bilinear differentiated twice (create_graph=True): the
# upsample_*_backward and _trilinear nodes, and the second derivatives, as torch computes them.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for mode, shape, kw in [('bilinear', (1, 2, 3, 4), dict(size=(5, 7), align_corners=False)),
                        ('nearest', (1, 1, 3, 3), dict(scale_factor=2)),
                        ('bicubic', (1, 1, 3, 4), dict(size=(6, 5), align_corners=True)),
                        ('linear', (2, 1, 5), dict(scale_factor=1.7)),
                        ('trilinear', (1, 1, 2, 3, 2), dict(size=(3, 4, 3)))]:
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    y = F.interpolate(x * x, mode=mode, **kw)
    w = torch.randn(y.shape, dtype=torch.float64)
    (g,) = torch.autograd.grad((y * w).sum(), x, create_graph=True)
    print(mode, g.grad_fn)
    g.pow(2).sum().backward()
    print(x.grad.flatten().tolist())
x1 = torch.randn(4, 3, requires_grad=True); x2 = torch.randn(4, 5, requires_grad=True)
m = torch.nn.Bilinear(3, 5, 2)
(g1, g2) = torch.autograd.grad(m(x1, x2).pow(2).sum(), (x1, x2), create_graph=True)
print(g1.grad_fn)
(g1.sum() + g2.pow(2).sum()).backward()
print(x1.grad.flatten().tolist(), x2.grad.flatten().tolist(), m.weight.grad.flatten().tolist()[:6])
