# The non-full backward hook on a program's module: the hooked node is whatever op the forward ends with.
import torch
import torch.nn as nn

torch.manual_seed(0)


def show(module, grad_input, grad_output):
    print(type(module).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
          [tuple(g.shape) for g in grad_output])
    print(grad_input)


class EndsInSum(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x).sum()


class EndsInAdd(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x) + x[:, :2]


class EndsInView(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)

    def forward(self, x):
        return self.fc(x).view(-1, 2, 2)


class TwoInputs(nn.Module):
    def forward(self, a, b):
        return a * b


class TwoOutputs(nn.Module):
    def forward(self, a):
        return a * 2, a + 1


x = torch.randn(2, 3, requires_grad=True)
for cls in (EndsInSum, EndsInAdd, EndsInView):
    m = cls()
    m.register_backward_hook(show)
    m(x).sum().backward()

m = TwoInputs()
m.register_backward_hook(show)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
m(a, b).sum().backward()
m(a, torch.ones(3)).sum().backward()

m = TwoOutputs()
m.register_backward_hook(show)
p, q = m(a)
(p.sum() + q.sum()).backward()


def scale(module, grad_input, grad_output):
    return tuple(None if g is None else g * 10 for g in grad_input)


lin = nn.Linear(2, 2)
handle = lin.register_backward_hook(scale)
w = torch.randn(3, 2, requires_grad=True)
lin(w).sum().backward()
print(w.grad, lin.weight.grad, lin.bias.grad)
handle.remove()
w.grad = None
lin(w).sum().backward()
print(w.grad)
try:
    lin.register_full_backward_hook(show)
except RuntimeError as e:
    print("RuntimeError:", e)
