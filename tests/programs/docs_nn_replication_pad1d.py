# The example in the documentation of torch.nn.ReplicationPad1d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/padding.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (m) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.ReplicationPad1d(2)
input = torch.arange(8, dtype=torch.float).reshape(1, 2, 4)
print(input)
print(m(input))
# using different paddings for different sides
m = nn.ReplicationPad1d((3, 1))
print(m(input))
print(m)
