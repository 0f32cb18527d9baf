# The example in the documentation of torch.nn.Bilinear (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/linear.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output) and a backward of output.sum() with the weight's gradient printed (the docstring only prints the size).
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.Bilinear(20, 30, 40)
input1 = torch.randn(128, 20)
input2 = torch.randn(128, 30)
output = m(input1, input2)
print(output.size())
print(output)
output.sum().backward()
print(m.weight.grad[0, :3, :5])
print(m.bias.grad)
