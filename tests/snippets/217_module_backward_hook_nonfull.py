# nn.Module.register_backward_hook (the old, non-full hook): it hooks the grad_fn of the module's output, so
# grad_input holds the gradients of that one node's inputs (its next_functions), None where none is needed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def show(module, grad_input, grad_output):
    print(module.__class__.__name__, "grad_input:", len(grad_input), "grad_output:", len(grad_output))
    for g in grad_input:
        print("  in ", None if g is None else (tuple(g.shape), g))
    for g in grad_output:
        print("  out", None if g is None else (tuple(g.shape), g))


lin = nn.Linear(3, 2)
lin.register_backward_hook(show)
x = torch.randn(4, 3, requires_grad=True)
out = lin(x)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad)

# a 2-D input that needs no gradient: that edge's grad_input is None
lin(torch.randn(2, 3)).pow(2).sum().backward()

# a 1-D input and a 3-D input: torch's linear is then not one addmm node
y = lin(torch.randn(3, requires_grad=True))
print(y.grad_fn.name())
y.sum().backward()
z = lin(torch.randn(2, 2, 3, requires_grad=True))
print(z.grad_fn.name())
z.sum().backward()

nobias = nn.Linear(3, 2, bias=False)
nobias.register_backward_hook(show)
nobias(x).sum().backward()

conv = nn.Conv2d(1, 2, 2)
conv.register_backward_hook(show)
conv(torch.randn(1, 1, 3, 3)).sum().backward()
conv(torch.randn(1, 1, 3, 3, requires_grad=True)).sum().backward()

act = nn.ReLU()
act.register_backward_hook(show)
act(torch.randn(5, requires_grad=True)).sum().backward()
