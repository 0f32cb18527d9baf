# backward(inputs=...): only those tensors' .grad is accumulated (leaves or not), the nodes leading elsewhere do
# not run (their hooks and retained gradients neither); its errors.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = c.exp()
d.retain_grad()
e = (b * 2).sin()
e.retain_grad()
e.register_hook(lambda g: print("hook on e", g))
b.register_hook(lambda g: print("hook on b", g))
(d + e).sum().backward(inputs=(a,), retain_graph=True)
print(a.grad, b.grad, c.grad, d.grad, e.grad)
(d + e).sum().backward(inputs=[c], retain_graph=True)
print(a.grad, b.grad, c.grad, d.grad, e.grad)
torch.autograd.backward([(d * e).sum()], inputs=[b, a])
print(a.grad, b.grad, c.grad, d.grad, e.grad)
for inputs in ([], (torch.ones(2),)):
    try:
        (a * 2).sum().backward(inputs=inputs)
    except RuntimeError as err:
        print(err)
x = torch.ones(3, requires_grad=True)
(x * x).sum().backward(inputs=x)
print(x.grad)
