# The example in the documentation of torch.nn.ConvTranspose1d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/conv.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. The values the docstring shows are printed (h.size(), output.size()); added: print of output.sum() for both outputs.
import torch
import torch.nn as nn

torch.manual_seed(0)

# With square kernels and equal stride
m = nn.ConvTranspose1d(16, 33, 3, stride=2)
input = torch.randn(20, 16, 50)
output = m(input)
print(output.size())
print(output.sum())
# exact output size can be also specified as an argument
input = torch.randn(1, 16, 12)
downsample = nn.Conv1d(16, 16, 3, stride=2, padding=1)
upsample = nn.ConvTranspose1d(16, 16, 3, stride=2, padding=1)
h = downsample(input)
print(h.size())
output = upsample(h, output_size=input.size())
print(output.size())
print(output[0, :2])
