# The example in the documentation of torch.nn.PoissonNLLLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output); print(log_input.grad) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

loss = nn.PoissonNLLLoss()
log_input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
output = loss(log_input, target)
output.backward()
print(output)
print(log_input.grad)
