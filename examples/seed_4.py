import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x ** 2).sum()
loss.backward()
print(x.grad)  # Output: tensor([2., 4.])

# Clear gradients
x.grad.zero_()

# Compute new gradients
loss = (2 * x).sum()  # New loss
loss.backward()
print(x.grad)  # Output: tensor([2., 2.])
