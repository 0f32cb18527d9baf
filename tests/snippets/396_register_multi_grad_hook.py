# torch.autograd.graph.register_multi_grad_hook: "all" (once per backward, None for the tensors that backward does
# not compute: backward, backward(inputs=), autograd.grad), "any", remove(), a bad mode, a tensor without grad;
# a leaf's hook keeps the tensor it saw while .grad accumulates in its own.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = (b * 3).exp()
seen = []
h = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), lambda grads: seen.append(grads))
c.sum().backward(retain_graph=True)
(c.sum() + d.sum()).backward(retain_graph=True)
d.sum().backward(inputs=[b], retain_graph=True)
for grads in seen:
    print(grads)
h.remove()
c.sum().backward(retain_graph=True)
print(len(seen))
e = c * d
torch.autograd.graph.register_multi_grad_hook((c, d, e), lambda grads: print("grad", grads))
torch.autograd.grad((e + d).sum(), [c, d], retain_graph=True)
kept = []
a.register_hook(lambda g: kept.append(g))
c.sum().backward(retain_graph=True)
c.sum().backward(retain_graph=True)
print(kept, a.grad)
try:
    torch.autograd.grad(c.sum(), [a], retain_graph=True)
except RuntimeError as err:
    print(err)
torch.autograd.graph.register_multi_grad_hook((a, c), lambda g: print("any", g), mode="any")
(c * 2).sum().backward(retain_graph=True)
try:
    torch.autograd.graph.register_multi_grad_hook((a,), print, mode="some")
except ValueError as e:
    print(e)
torch.autograd.graph.register_multi_grad_hook((a, torch.ones(2)), print)
