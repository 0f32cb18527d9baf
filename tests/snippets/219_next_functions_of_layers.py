# grad_fn.next_functions has one entry per edge of torch's node: an op's parameters (a view's shape, a
# convolution's stride, a norm's eps, a pool's kernel) are not edges.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x4 = torch.randn(2, 3, 4, 4, requires_grad=True)
x2 = torch.randn(4, 3, requires_grad=True)
cases = [
    (nn.MaxPool2d(2), x4), (nn.AvgPool2d(2), x4), (nn.BatchNorm2d(3), x4), (nn.Conv2d(3, 2, 2, bias=False), x4),
    (nn.LayerNorm(3), x2), (nn.Dropout(0.5), x2), (nn.Sigmoid(), x2), (nn.Tanh(), x2), (nn.Softmax(dim=1), x2),
    (nn.LogSoftmax(dim=1), x2), (nn.Flatten(), x4), (nn.BatchNorm1d(3), x2), (nn.LeakyReLU(), x2), (nn.ELU(), x2),
    (nn.Conv1d(3, 2, 2), torch.randn(1, 3, 5, requires_grad=True)),
]
for m, x in cases:
    y = m(x)
    print(type(m).__name__, y.grad_fn.name(), len(y.grad_fn.next_functions))
e = nn.Embedding(5, 2)
y = e(torch.tensor([1, 2]))
print("Embedding", y.grad_fn.name(), len(y.grad_fn.next_functions))
for f in [lambda t: t.sum(), lambda t: t.mean(), lambda t: t.view(-1), lambda t: t.reshape(-1), lambda t: t * 2, lambda t: t + 1,
          lambda t: t.pow(2), lambda t: t[:, :2], lambda t: t.t(), lambda t: t.sum(dim=1), lambda t: torch.cat([t, t]),
          lambda t: t.clamp(0, 1), lambda t: F.relu(t), lambda t: t.unsqueeze(0), lambda t: t.permute(1, 0), lambda t: t.transpose(0, 1), lambda t: t.squeeze()]:
    y = f(x2)
    print(y.grad_fn.name(), len(y.grad_fn.next_functions))
