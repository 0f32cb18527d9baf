import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(3, 2)


def show(module, grad_input, grad_output):
    print("hook", module, grad_input, grad_output)


def double_input(module, grad_input, grad_output):
    return (grad_input[0] * 2,)


def pre(module, grad_output):
    print("pre", grad_output)
    return (grad_output[0] * 10,)


h = lin.register_full_backward_hook(show)
x = torch.randn(1, 3, requires_grad=True)
out = lin(x)
print(out)
out.sum().backward()
print(x.grad, lin.bias.grad)
h2 = lin.register_full_backward_hook(double_input)
hp = lin.register_full_backward_pre_hook(pre)
x.grad = None
lin(x).sum().backward()
print(x.grad, lin.bias.grad)
h.remove()
h2.remove()
hp.remove()
lin.register_full_backward_hook(show)
lin(torch.ones(1, 3)).sum().backward()
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
seq[1].register_full_backward_hook(show)
y = seq(torch.ones(1, 2, requires_grad=True))
print(y)
y.sum().backward()
