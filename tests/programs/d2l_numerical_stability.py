# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en
# chapter_multilayer-perceptrons/numerical-stability-and-init.md @ 23d7a5ae, the cells of the PyTorch tab in
# order, prose dropped. Added: torch.manual_seed(0) (random matrices are printed). Cut (plotting):
# `%matplotlib inline` and `from d2l import torch as d2l`; `d2l.plot(x.detach().numpy(), [y.detach().numpy(),
# x.grad.numpy()], legend=['sigmoid', 'gradient'], figsize=(4.5, 2.5))` is replaced by
# print([y.detach().numpy(), x.grad.numpy()]), the values it plots.
import torch

torch.manual_seed(0)

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))

print([y.detach().numpy(), x.grad.numpy()])

M = torch.normal(0, 1, size=(4, 4))
print('a single matrix \n',M)
for i in range(100):
    M = M @ torch.normal(0, 1, size=(4, 4))
print('after multiplying 100 matrices\n', M)
