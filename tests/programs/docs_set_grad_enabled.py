# The example in the documentation of torch.set_grad_enabled (PyTorch 2.13's docstring, torch/autograd/grad_mode.py),
# as a learner runs it: each expression whose value the docs show is printed. Cut: nothing.
import torch

x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
