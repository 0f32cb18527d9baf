# The example in the documentation of torch.nn.RMSNorm (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/normalization.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (rms_norm) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

rms_norm = nn.RMSNorm([2, 3])
input = torch.randn(2, 2, 3)
print(rms_norm(input))
print(rms_norm)
