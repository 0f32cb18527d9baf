import torch

# a leaf that requires grad cannot be modified in place through a view either
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
with torch.no_grad():
    x[0] = 5.0  # allowed: not recorded
    x.t()[1].mul_(2)
print(x)
x[1].exp_()
