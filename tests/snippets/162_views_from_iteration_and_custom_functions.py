import torch


class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)

# iterating over a tensor gives unbind's views
h = x * 2
for row in h:
    print(row)
print([r.grad_fn.name() for r in x])
rows = torch.zeros(2, 2)
for i, row in enumerate(rows):
    row.add_(i + 1)  # allowed: nothing requires grad
print(rows)

# a custom Function's input returned as-is is a view of it; its output's views are ordinary
h = x * 1
y = Same.apply(h)
print(y, y._base is h, y is h)
(y * y).sum().backward()
print(x.grad)
x.grad = None
y = Double.apply(x)
y[0].mul_(3)
print(y)
y.sum().backward()
print(x.grad)
