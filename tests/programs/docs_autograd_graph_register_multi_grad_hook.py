# The example in the documentation of torch.autograd.graph.register_multi_grad_hook (PyTorch 2.13's docstring,
# torch/autograd/graph.py), as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added.
# Cut: nothing.
import torch

torch.manual_seed(0)

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b

def fn(grads):
    print([g is not None for g in grads])

torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)

c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
