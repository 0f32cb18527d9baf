# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_builders-guide/lazy-init.md
# @ 23d7a5ae, the cells of the PyTorch tab in order, prose dropped. The last expression of a cell, which the
# notebook displays, is printed (print(...) around it). Cut: `from d2l import torch as d2l` and the last cell
# (it adds a method apply_init to d2l.Module, the book's own base class, and calls nothing).
import torch
from torch import nn

net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))

print(net[0].weight)

X = torch.rand(2, 20)
net(X)

print(net[0].weight.shape)
