import torch

# the outputs of unbind, split and chunk are views that torch forbids modifying in place
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = x * 2
first, second = h.unbind()
print(first, second)
print(h.split(1)[0], h.chunk(2, 1)[1])
second.mul_(2)
