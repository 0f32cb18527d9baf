# The example in the documentation of torch.nn.ChannelShuffle (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/channelshuffle.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (channel_shuffle) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

channel_shuffle = nn.ChannelShuffle(2)
input = torch.arange(1, 17, dtype=torch.float32).view(1, 4, 2, 2)
print(input)
output = channel_shuffle(input)
print(output)
print(channel_shuffle)
