# The example in the documentation of torch.nn.RReLU (PyTorch 2.13's docstring, torch/nn/modules/activation.py),
# as a learner runs it: torch.manual_seed(0) added. Cut: nothing. print(output) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.RReLU(0.1, 0.3)
input = torch.randn(2)
output = m(input)
print(output)
