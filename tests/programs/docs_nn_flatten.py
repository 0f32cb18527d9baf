# The example in the documentation of torch.nn.Flatten (PyTorch 2.13's docstring, torch/nn/modules/flatten.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing.
import torch
import torch.nn as nn

torch.manual_seed(0)

input = torch.randn(32, 1, 5, 5)
m = nn.Flatten()
output = m(input)
print(output.size())
m = nn.Flatten(0, 2)
output = m(input)
print(output.size())
