# The deprecated F.upsample, F.upsample_nearest and F.upsample_bilinear still in older tutorials: torch's
# deprecation warnings (once per line) and their values, next to the modules that do not warn.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(6, dtype=torch.float32).view(1, 1, 2, 3)
for _ in range(2):
    print(F.upsample(x, scale_factor=2, mode='bilinear'))
print(F.upsample_nearest(x, size=(3, 4)))
print(F.upsample_bilinear(x, scale_factor=1.5))
print(nn.UpsamplingBilinear2d(scale_factor=1.5)(x))
print(nn.UpsamplingNearest2d(size=(3, 4))(x))
