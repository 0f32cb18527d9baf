import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x ** 2).sum()
loss.backward()
print(x.grad)
x.grad.zero_()
print(x.grad)
loss = (2 * x).sum()
loss.backward()
print(x.grad)
x.grad = None
print(x.grad)
