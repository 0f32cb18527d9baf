# The example in the documentation of torch.nn.BCELoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output); print(input.grad) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

m = nn.Sigmoid()
loss = nn.BCELoss()
input = torch.randn(3, 2, requires_grad=True)
target = torch.rand(3, 2, requires_grad=False)
output = loss(m(input), target)
output.backward()
print(output)
print(input.grad)
