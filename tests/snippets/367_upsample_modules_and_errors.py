# nn.Upsample, UpsamplingNearest2d, UpsamplingBilinear2d as a learner writes them (float32, printed), their
# printed form, and torch's errors for wrong calls caught with try/except.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 3, 3, 5, requires_grad=True)
for m in (nn.Upsample(scale_factor=1.5, mode='bilinear'), nn.Upsample(size=(4, 7), mode='bicubic', align_corners=True),
          nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=(5, 6)),
          nn.Upsample(scale_factor=(0.5, 2.5), mode='nearest-exact'), nn.Upsample(size=2, mode='area')):
    y = m(x)
    print(m, y.shape, y.grad_fn)
    print(y[0, 1])
    y.pow(2).sum().backward()
    print(x.grad[0, 2])
    x.grad = None
net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False),
                    nn.ReLU())
print(net)
out = net(x)
out.mean().backward()
print(out.shape, net[0].weight.grad[0, 0])
v = torch.randn(2, 4, 6)
print(F.interpolate(v, scale_factor=0.7, mode='linear'), F.interpolate(v, size=3, mode='area'))
for call in (lambda: F.interpolate(x, size=2, scale_factor=2),
             lambda: F.interpolate(x, scale_factor=2, mode='nearest', align_corners=True),
             lambda: F.interpolate(v, scale_factor=2, mode='bilinear'),
             lambda: F.interpolate(x, scale_factor=2, mode='trilinear'),
             lambda: F.interpolate(x, size=(2, 3, 4)),
             lambda: F.interpolate(x, scale_factor=2, mode='bogus'),
             lambda: nn.Bilinear(3, 4, 5)(torch.randn(2, 3), torch.randn(2, 5))):
    try:
        call()
    except (ValueError, NotImplementedError, RuntimeError) as err:
        print(type(err).__name__, err)
print(nn.Bilinear(3, 4, 5, bias=False))
