# The example in the documentation of torch.nn.AvgPool1d (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/pooling.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. The value the docstring shows is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

# pool with window of size=3, stride=2
m = nn.AvgPool1d(3, stride=2)
print(m(torch.tensor([[[1., 2, 3, 4, 5, 6, 7]]])))
