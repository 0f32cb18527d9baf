# The example in the documentation of torch.nn.LocalResponseNorm (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/normalization.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (lrn) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

lrn = nn.LocalResponseNorm(2)
signal_2d = torch.randn(32, 5, 24, 24)
signal_4d = torch.randn(16, 5, 7, 7, 7, 7)
output_2d = lrn(signal_2d)
output_4d = lrn(signal_4d)
print(lrn)
