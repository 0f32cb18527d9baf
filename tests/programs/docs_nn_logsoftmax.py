# The example in the documentation of torch.nn.LogSoftmax (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/activation.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output) at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.LogSoftmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)
