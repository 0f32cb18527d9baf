# "Autograd" (PyTorch for former Torch users), pytorch/tutorials
# beginner_source/former_torchies/autograd_tutorial.py @ 803c1b12, prose dropped. Cut: nothing.
# torch.manual_seed(0) added.
import torch

torch.manual_seed(0)

x = torch.ones(2, 2, requires_grad=True)
print(x)

print(x.data)

print(x.grad)

print(x.grad_fn)  # we've created x ourselves

y = x + 2
print(y)

print(y.grad_fn)

z = y * y * 3
out = z.mean()

print(z, out)

a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

out.backward()
print(x.grad)

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
y.backward(torch.ones(2, 2), retain_graph=True)
# the retain_variables flag will prevent the internal buffers from being freed
print(x.grad)

z = y * y
print(z)

gradient = torch.randn(2, 2)

# this would fail if we didn't specify
# that we want to retain variables
y.backward(gradient)

print(x.grad)

print(x.requires_grad)
print((x ** 2).requires_grad)

with torch.no_grad():
	print((x ** 2).requires_grad)
