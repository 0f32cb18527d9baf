# Node.register_hook (grad_fn.register_hook): hook(grad_inputs, grad_outputs) after the node computed its inputs'
# gradients, one per edge of torch's node (None where none is needed); it may return replacements.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = a * b


def show(grad_inputs, grad_outputs):
    print("MulBackward0 hook", grad_inputs, grad_outputs)


h = y.grad_fn.register_hook(show)
y.sum().backward(retain_graph=True)
print(a.grad, b.grad)
h.remove()
y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
a.grad = None
b.grad = None
y.sum().backward()
print(a.grad, b.grad)
c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = c.view(3, 1).expand(3, 2)
z.grad_fn.register_hook(lambda gi, go: print("expand", [g.shape for g in gi], [g.shape for g in go]))
z.sum().backward()
print(c.grad)
w = torch.ones(2, 3, requires_grad=True)
s = w.sum(dim=1)
s.grad_fn.register_hook(lambda gi, go: print("sum", gi, go))
(s * torch.tensor([1.0, 2.0])).sum().backward()
