# The example in the documentation of torch.nn.GroupNorm (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/normalization.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output[0, 0, 0]) and the gradient of output.pow(3).sum() at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

input = torch.randn(20, 6, 10, 10)
# Separate 6 channels into 3 groups
m = nn.GroupNorm(3, 6)
# Separate 6 channels into 6 groups (equivalent with InstanceNorm)
m = nn.GroupNorm(6, 6)
# Put all 6 channels into a single group (equivalent with LayerNorm)
m = nn.GroupNorm(1, 6)
# Activating the module
output = m(input)
print(output[0, 0, 0])
input.requires_grad_()
m(input).pow(3).sum().backward()
print(input.grad[0, 0, 0])
print(m.weight.grad)
