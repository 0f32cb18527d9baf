# The example in the documentation of torch.nn.LPPool2d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/pooling.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (m) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

# power-2 pool of square window of size=3, stride=2
m = nn.LPPool2d(2, 3, stride=2)
# pool of non-square window of power 1.2
m = nn.LPPool2d(1.2, (3, 2), stride=(2, 1))
input = torch.randn(20, 16, 50, 32)
output = m(input)
print(output)
print(m)
