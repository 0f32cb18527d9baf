# The example in the documentation of torch.inference_mode (PyTorch 2.13's docstring, torch/autograd/grad_mode.py),
# as a learner runs it: each expression whose value the docs show is printed. Cut: nothing.
import torch

import torch
x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)
print(y._version)
@torch.inference_mode()
def func(x):
    return x * x
out = func(x)
print(out.requires_grad)
@torch.inference_mode()
def doubler(x):
    return x * 2
out = doubler(x)
print(out.requires_grad)
