# The example in the documentation of torch.nn.Upsample (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/upsampling.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

input = torch.arange(1, 5, dtype=torch.float32).view(1, 1, 2, 2)
print(input)

m = nn.Upsample(scale_factor=2, mode='nearest')
print(m(input))

m = nn.Upsample(scale_factor=2, mode='bilinear')  # align_corners=False
print(m(input))

m = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
print(m(input))

# Try scaling the same data in a larger tensor
input_3x3 = torch.zeros(3, 3).view(1, 1, 3, 3)
print(input_3x3[:, :, :2, :2].copy_(input))
print(input_3x3)

m = nn.Upsample(scale_factor=2, mode='bilinear')  # align_corners=False
# Notice that values in top left corner are the same with the small input (except at boundary)
print(m(input_3x3))

m = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
# Notice that values in top left corner are now changed
print(m(input_3x3))
