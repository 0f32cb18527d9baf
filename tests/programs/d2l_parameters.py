# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_builders-guide/parameters.md @ 23d7a5ae,
# the cells of the PyTorch tab in order, prose dropped. The last expression of a cell, which the notebook
# displays, is printed (print(...) around it; a tuple printed as the notebook shows it, print((a, b))).
# Added: torch.manual_seed(0) (the parameters printed are random).
# Cut: nothing.
import torch
from torch import nn

torch.manual_seed(0)

net = nn.Sequential(nn.LazyLinear(8),
                    nn.ReLU(),
                    nn.LazyLinear(1))

X = torch.rand(size=(2, 4))
print(net(X).shape)

print(net[2].state_dict())

print((type(net[2].bias), net[2].bias.data))

print(net[2].weight.grad == None)

print([(name, param.shape) for name, param in net.named_parameters()])

# We need to give the shared layer a name so that we can refer to its
# parameters
shared = nn.LazyLinear(8)
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(),
                    shared, nn.ReLU(),
                    shared, nn.ReLU(),
                    nn.LazyLinear(1))

net(X)
# Check whether the parameters are the same
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
# Make sure that they are actually the same object rather than just having the
# same value
print(net[2].weight.data[0] == net[4].weight.data[0])
