# The example in the documentation of torch.nn.GaussianNLLLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output); print(input.grad); print(var.grad) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

loss = nn.GaussianNLLLoss()
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 2, requires_grad=True)  # heteroscedastic
output = loss(input, target, var)
output.backward()
loss = nn.GaussianNLLLoss()
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 1, requires_grad=True)  # homoscedastic
output = loss(input, target, var)
output.backward()
print(output)
print(input.grad)
print(var.grad)
