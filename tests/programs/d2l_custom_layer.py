# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_builders-guide/custom-layer.md @ 23d7a5ae,
# the cells of the PyTorch tab in order, prose dropped. The last expression of a cell, which the notebook
# displays, is printed (print(...) around it; a tuple printed as the notebook shows it, print((a, b))).
# Added: torch.manual_seed(0) (the parameters printed are random).
# `from d2l import torch as d2l` is replaced by the d2l helpers the code uses (d2l.tensor, d2l.rand: torch's
# functions under d2l's names). Cut: nothing.
import torch
from torch import nn
from torch.nn import functional as F

class d2l:  # the d2l helpers used (d2l/torch.py)
    tensor = torch.tensor
    rand = torch.rand

torch.manual_seed(0)

class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return X - X.mean()

layer = CenteredLayer()
print(layer(d2l.tensor([1.0, 2, 3, 4, 5])))

net = nn.Sequential(nn.LazyLinear(128), CenteredLayer())

Y = net(d2l.rand(4, 8))
print(Y.mean())

class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
        
    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)

linear = MyLinear(5, 3)
print(linear.weight)

print(linear(torch.rand(2, 5)))

net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
print(net(torch.rand(2, 64)))
