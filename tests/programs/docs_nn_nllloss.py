# The example in the documentation of torch.nn.NLLLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(loss) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

log_softmax = nn.LogSoftmax(dim=1)
loss_fn = nn.NLLLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.tensor([1, 0, 4])
loss = loss_fn(log_softmax(input), target)
loss.backward()
N, C = 5, 4
loss_fn = nn.NLLLoss()
data = torch.randn(N, 16, 10, 10)
conv = nn.Conv2d(16, C, (3, 3))
log_softmax = nn.LogSoftmax(dim=1)
output = log_softmax(conv(data))
target = torch.empty(N, 8, 8, dtype=torch.long).random_(0, C)
loss = loss_fn(output, target)
loss.backward()
print(loss)
