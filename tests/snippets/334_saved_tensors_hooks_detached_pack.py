# A pack hook that returns a detached copy (t.detach(), t.clone(): pack hooks run with grad mode off): the unpacked
# tensor still stands for the saved one in the graph, so create_graph=True gives the second derivative.
import torch
x = torch.tensor([1.5, 2.0], requires_grad=True)
def pack(t):
    print("pack: grad enabled", torch.is_grad_enabled(), "requires_grad", t.requires_grad)
    return t.detach().clone()
def unpack(t):
    print("unpack: grad enabled", torch.is_grad_enabled())
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x ** 3).sum()
    z = (x.sin() * x).exp().sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g, g.requires_grad)
g2, = torch.autograd.grad(g.sum(), x)
print(g2)
h, = torch.autograd.grad(z, x, create_graph=True)
print(h)
h2, = torch.autograd.grad(h.sum(), x)
print(h2)
def pack_scalar(t):
    print("packed", float(t.sum()))  # no warning: the hook runs without grad
    return t
with torch.autograd.graph.saved_tensors_hooks(pack_scalar, lambda t: t):
    w = (x * x).sum()
w.backward()
print(x.grad)
