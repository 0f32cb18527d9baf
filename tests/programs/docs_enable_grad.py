# The example in the documentation of torch.enable_grad (PyTorch 2.13's docstring, torch/autograd/grad_mode.py),
# as a learner runs it: each expression whose value the docs show is printed. Cut: nothing.
import torch

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    z = tripler(x)
print(z.requires_grad)
