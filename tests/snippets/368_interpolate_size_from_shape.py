# F.interpolate with size= taken from another tensor's shape (a torch.Size, and the error naming it), an
# unbatched nn.Bilinear, nn.Upsample's attributes, fractional bicubic scale factors in float64.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4, requires_grad=True)
y = torch.randn(1, 2, 6, 5)
print(F.interpolate(x, size=y.shape[2:], mode='bilinear', align_corners=False).shape)
print(F.interpolate(x, size=y.shape[-2:]).shape)
try:
    F.interpolate(x, size=y.shape[1:])
except ValueError as e:
    print(e)
m = nn.Bilinear(3, 4, 2)
out = m(torch.randn(3), torch.randn(4))
print(out, out.shape)
out.sum().backward()
print(m.weight.grad)
up = nn.Upsample(scale_factor=2)
print(up, up.scale_factor, up.mode, up.name)
print(F.interpolate(x, scale_factor=torch.tensor(2.0).item()).shape)
print(F.interpolate(x.double(), scale_factor=(1.25, 0.8), mode='bicubic'))
print(F.interpolate(x, size=(3, 4), mode='bilinear').grad_fn)
