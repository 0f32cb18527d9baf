import torch

# once its base changed in place, an output of unbind may no longer be used in a graph
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = x * 2
first, second = h.unbind()
h.mul_(2)
print(first)
with torch.no_grad():
    print(first * 2)
print(first * 2)
