# The example in the documentation of torch.autograd.graph.saved_tensors_hooks (PyTorch 2.13's docstring, torch/autograd/graph.py),
# as a learner runs it: each expression whose value the docs show is printed. Cut: nothing.
import torch

def pack_hook(x):
    print("Packing", x)
    return x.detach()
def unpack_hook(x):
    print("Unpacking", x)
    return x
a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
print(y.sum().backward())
