# The example in the documentation of torch.nn.CosineSimilarity (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/distance.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (cos) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

input1 = torch.randn(100, 128)
input2 = torch.randn(100, 128)
cos = nn.CosineSimilarity(dim=1, eps=1e-6)
output = cos(input1, input2)
print(output)
print(cos)
