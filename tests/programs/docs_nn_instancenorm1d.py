# The example in the documentation of torch.nn.InstanceNorm1d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/instancenorm.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(output[0, :2, :5]) and the gradient of output.pow(3).sum() at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

# Without Learnable Parameters
m = nn.InstanceNorm1d(100)
# With Learnable Parameters
m = nn.InstanceNorm1d(100, affine=True)
input = torch.randn(20, 100, 40)
output = m(input)
print(output[0, :2, :5])
input.requires_grad_()
m(input).pow(3).sum().backward()
print(input.grad[0, 0, :5])
print(m.weight.grad[:5])
