import torch

# a view made under no_grad, modified in place with grad mode on
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = x * 2
with torch.no_grad():
    row = h[0]
print(row, row.requires_grad)
row.add_(1)
