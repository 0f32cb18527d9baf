# The example in the documentation of torch.nn.CircularPad3d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/padding.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (m) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.CircularPad3d(3)
input = torch.randn(16, 3, 8, 320, 480)
output = m(input)
print(output)
# using different paddings for different sides
m = nn.CircularPad3d((3, 3, 6, 6, 1, 1))
output = m(input)
print(output)
print(m)
