# The example in the documentation of torch.nn.AdaptiveAvgPool2d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/pooling.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output.size()) after each output and print(output[0, 0]) at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

# target output size of 5x7
m = nn.AdaptiveAvgPool2d((5, 7))
input = torch.randn(1, 64, 8, 9)
output = m(input)
print(output.size())
print(output[0, 0])
# target output size of 7x7 (square)
m = nn.AdaptiveAvgPool2d(7)
input = torch.randn(1, 64, 10, 9)
output = m(input)
print(output.size())
print(output[0, 0])
# target output size of 10x7
m = nn.AdaptiveAvgPool2d((None, 7))
input = torch.randn(1, 64, 10, 9)
output = m(input)
print(output.size())
print(output[0, 0])
