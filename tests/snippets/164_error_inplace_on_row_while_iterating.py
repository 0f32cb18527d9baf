import torch

# the rows of `for row in h` are unbind's views: modifying one in place is refused
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = x * 2
for row in h:
    row.mul_(2)
