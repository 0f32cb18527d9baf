# The example in the documentation of torch.nn.Dropout (PyTorch 2.13's docstring, torch/nn/modules/dropout.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output.size()) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.Dropout(p=0.2)
input = torch.randn(20, 16)
output = m(input)
print(output.size())
