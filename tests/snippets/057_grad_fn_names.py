import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for y in [x + 1, x * 2, x / 3, x ** 2, x.exp(), x.sum(), x.mean(), x[0], x.view(2, 1), x.t(), x @ x]:
    print(y.grad_fn.name())
print(x.grad_fn)
print((x * 2).grad_fn)
