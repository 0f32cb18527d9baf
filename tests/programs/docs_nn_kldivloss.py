# The example in the documentation of torch.nn.KLDivLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output) added at the end.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

kl_loss = nn.KLDivLoss(reduction="batchmean")
# input should be a distribution in the log space
input = F.log_softmax(torch.randn(3, 5, requires_grad=True), dim=1)
# Sample a batch of distributions. Usually this would come from the dataset
target = F.softmax(torch.rand(3, 5), dim=1)
output = kl_loss(input, target)

kl_loss = nn.KLDivLoss(reduction="batchmean", log_target=True)
log_target = F.log_softmax(torch.rand(3, 5), dim=1)
output = kl_loss(input, log_target)
print(output)
