# The example in the documentation of torch.no_grad (PyTorch 2.13's docstring, torch/autograd/grad_mode.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing.
import torch

torch.manual_seed(0)

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
@torch.no_grad()
def tripler(x):
    return x * 3
z = tripler(x)
print(z.requires_grad)
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)
