# The example in the documentation of torch.nn.MaxPool2d (PyTorch 2.13's docstring, torch/nn/modules/pooling.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output.size()) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.MaxPool2d(3, stride=2)
m = nn.MaxPool2d((3, 2), stride=(2, 1))
input = torch.randn(20, 16, 50, 32)
output = m(input)
print(output.size())
