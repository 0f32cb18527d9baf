# The example in the documentation of torch.nn.Linear (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/linear.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output) at the end (the docstring only prints the size).
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.Linear(20, 30)
input = torch.randn(128, 20)
output = m(input)
print(output.size())
print(output)
