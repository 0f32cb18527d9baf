# The example in the documentation of torch.nn.InstanceNorm3d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/instancenorm.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (m) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

# Without Learnable Parameters
m = nn.InstanceNorm3d(100)
# With Learnable Parameters
m = nn.InstanceNorm3d(100, affine=True)
input = torch.randn(20, 100, 35, 45, 10)
output = m(input)
print(output)
print(m)
