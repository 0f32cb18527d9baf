# The example in the documentation of torch.nn.PixelShuffle (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/pixelshuffle.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Each value the docstring shows is printed, and the module (pixel_shuffle) is printed.
import torch
import torch.nn as nn

torch.manual_seed(0)

pixel_shuffle = nn.PixelShuffle(3)
input = torch.randn(1, 9, 4, 4)
output = pixel_shuffle(input)
print(output)
print(output.size())
print(pixel_shuffle)
