# The example in the documentation of torch.nn.TripletMarginLoss (PyTorch 2.13's docstring, torch/nn/modules/loss.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output); print(anchor.grad[0, :8]) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

triplet_loss = nn.TripletMarginLoss(margin=1.0, p=2, eps=1e-7)
anchor = torch.randn(100, 128, requires_grad=True)
positive = torch.randn(100, 128, requires_grad=True)
negative = torch.randn(100, 128, requires_grad=True)
output = triplet_loss(anchor, positive, negative)
output.backward()
print(output)
print(anchor.grad[0, :8])
