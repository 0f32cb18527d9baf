# The example in the documentation of torch.nn.MaxPool1d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/pooling.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output.size()), print(output[0, :2]) and the gradient of output.sum() at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

# pool of size=3, stride=2
m = nn.MaxPool1d(3, stride=2)
input = torch.randn(20, 16, 50)
output = m(input)
print(output.size())
print(output[0, :2])
input.requires_grad_()
m(input).sum().backward()
print(input.grad[0, 0])
