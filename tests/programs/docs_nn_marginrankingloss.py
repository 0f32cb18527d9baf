# The example in the documentation of torch.nn.MarginRankingLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output); print(input1.grad); print(input2.grad) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

loss = nn.MarginRankingLoss()
input1 = torch.randn(3, requires_grad=True)
input2 = torch.randn(3, requires_grad=True)
target = torch.randn(3).sign()
output = loss(input1, input2, target)
output.backward()
print(output)
print(input1.grad)
print(input2.grad)
