# The example in the documentation of torch.nn.HingeEmbeddingLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output); print(input.grad) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

loss = nn.HingeEmbeddingLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).sign()
output = loss(input, target)
output.backward()
print(output)
print(input.grad)
