# The example in the documentation of torch.nn.Conv3d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/conv.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output.size()) and print(output.sum()) at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

# With square kernels and equal stride
m = nn.Conv3d(16, 33, 3, stride=2)
# non-square kernels and unequal stride and with padding
m = nn.Conv3d(16, 33, (3, 5, 2), stride=(2, 1, 1), padding=(4, 2, 0))
input = torch.randn(20, 16, 10, 50, 100)
output = m(input)
print(output.size())
print(output[0, 0, 0, 0, :5])
