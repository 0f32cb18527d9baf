# The example in the documentation of torch.nn.BatchNorm1d (PyTorch 2.13's docstring, torch/nn/modules/batchnorm.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output.size()) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.BatchNorm1d(100)
m = nn.BatchNorm1d(100, affine=False)
input = torch.randn(20, 100)
output = m(input)
print(output.size())
