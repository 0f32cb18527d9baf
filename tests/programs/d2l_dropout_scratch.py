# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_multilayer-perceptrons/dropout.md
# @ 23d7a5ae, the cells of the PyTorch tab up to the dropout layer's demonstration, prose dropped; the `tab.selected`
# branches of the shared cell reduced to the PyTorch one. Added: torch.manual_seed(0) (the masks are random).
# Cut: `from d2l import torch as d2l` and the models trained on Fashion-MNIST (a download).
import torch
from torch import nn

def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1: return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)

torch.manual_seed(0)

X = torch.arange(16, dtype = torch.float32).reshape((2, 8))
print('dropout_p = 0:', dropout_layer(X, 0))
print('dropout_p = 0.5:', dropout_layer(X, 0.5))
print('dropout_p = 1:', dropout_layer(X, 1))
