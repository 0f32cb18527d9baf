# The example in the documentation of torch.nn.Sequential (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/container.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: print(model) after each model and a forward of a random 1x1x12x12 image through the second, its output's size and sum printed.
import torch
import torch.nn as nn
from collections import OrderedDict

torch.manual_seed(0)

# Using Sequential to create a small model. When `model` is run,
# input will first be passed to `Conv2d(1,20,5)`. The output of
# `Conv2d(1,20,5)` will be used as the input to the first
# `ReLU`; the output of the first `ReLU` will become the input
# for `Conv2d(20,64,5)`. Finally, the output of
# `Conv2d(20,64,5)` will be used as input to the second `ReLU`
model = nn.Sequential(
    nn.Conv2d(1, 20, 5), nn.ReLU(), nn.Conv2d(20, 64, 5), nn.ReLU()
)
print(model)

# Using Sequential with OrderedDict. This is functionally the
# same as the above code
model = nn.Sequential(
    OrderedDict(
        [
            ("conv1", nn.Conv2d(1, 20, 5)),
            ("relu1", nn.ReLU()),
            ("conv2", nn.Conv2d(20, 64, 5)),
            ("relu2", nn.ReLU()),
        ]
    )
)
print(model)
output = model(torch.randn(1, 1, 12, 12))
print(output.size())
print(output.sum())
