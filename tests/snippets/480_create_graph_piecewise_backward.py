# create_graph through ops whose derivative is piecewise constant: the gradient requires grad (grad_fn is
# torch's *BackwardBackward0 node) and a second backward gives zeros, not an error
import torch
import torch.nn.functional as F

x = torch.tensor([-1.5, -0.25, 0.0, 0.5, 2.0, 7.0], requires_grad=True)
y = torch.tensor([0.75, -1.25, 2.0, 1.5, -0.5, 3.0], requires_grad=True)
cases = [
    ("relu", lambda: F.relu(x)),
    ("relu_method", lambda: x.relu()),
    ("leaky_relu", lambda: F.leaky_relu(x, 0.1)),
    ("leaky_relu_inplace", lambda: F.leaky_relu(x * 1.0, 0.1, inplace=True)),
    ("hardtanh", lambda: F.hardtanh(x)),
    ("relu6", lambda: F.relu6(x)),
    ("rrelu_eval", lambda: F.rrelu(x)),
    ("threshold", lambda: F.threshold(x, 0.1, 20.0)),
    ("hardshrink", lambda: F.hardshrink(x)),
    ("softshrink", lambda: F.softshrink(x)),
    ("abs", lambda: x.abs()),
    ("fmod", lambda: torch.fmod(x, y)),
    ("remainder", lambda: torch.remainder(x, y)),
]
for name, f in cases:
    out = f()
    gx, gy = torch.autograd.grad((out * torch.arange(6.0)).sum(), [x, y], create_graph=True, allow_unused=True)
    print(name, gx, gx.requires_grad)
    if gy is not None:
        print("  d/dy", gy)
    total = (gx * x).sum() if gy is None else (gx * x).sum() + (gy * y).sum()
    print("  second", torch.autograd.grad(total, [x, y], allow_unused=True))

torch.manual_seed(0)
z = torch.tensor([-1.5, -0.25, 0.5, 2.0], requires_grad=True)
out = F.rrelu(z, training=True)
g, = torch.autograd.grad(out.sum(), z, create_graph=True)
print("rrelu_train", g)
print(torch.autograd.grad((g * z).sum(), z))

g, = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
print("hardsigmoid", g, g.requires_grad, g.grad_fn.name())
try:
    torch.autograd.grad(g.sum(), x)
except RuntimeError as e:
    print("RuntimeError:", e)

# third order: the double-backward node differentiates again
g, = torch.autograd.grad(F.relu(x).pow(2).sum(), x, create_graph=True)
h, = torch.autograd.grad(g.sum(), x, create_graph=True)
print(h, h.grad_fn)
