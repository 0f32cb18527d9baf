# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_multilayer-perceptrons/mlp.md
# @ 23d7a5ae, the cells of the PyTorch tab in order, prose dropped. Cut (plotting): `%matplotlib inline` and
# `from d2l import torch as d2l`; each `d2l.plot(x.detach(), Y, 'x', ..., figsize=(5, 2.5))` is replaced by
# print(Y), the values it plots.
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(y.detach())

y.backward(torch.ones_like(x), retain_graph=True)
print(x.grad)

y = torch.sigmoid(x)
print(y.detach())

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad)

y = torch.tanh(x)
print(y.detach())

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.grad)
