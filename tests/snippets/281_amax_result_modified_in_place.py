# amax saves its result for backward (torch's AmaxBackward0 compares it with the input): abs_() of that
# result bumps its version and backward raises, leaving .grad None (issue 28's fuzz)
import torch

x = torch.tensor([[1., -3., 2.], [-4., 0.5, -0.5]], requires_grad=True)
z = x.amin(dim=0, keepdim=True)
print(z)
(z * torch.tensor([[1., 2., 3.]])).sum().backward()
print(x.grad)
y = x.amax(dim=1)
y.abs_()
print(y, x.grad)
y.sum().backward()
