import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward(gradient=torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)
x.grad = None
y2 = 2 * x
y2.backward(torch.ones_like(y2))
print(x.grad)
