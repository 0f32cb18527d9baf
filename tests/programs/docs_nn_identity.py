# The example in the documentation of torch.nn.Identity (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/linear.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output is input) and print(m).
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.Identity(54, unused_argument1=0.1, unused_argument2=False)
input = torch.randn(128, 20)
output = m(input)
print(output.size())
print(output is input)
print(m)
