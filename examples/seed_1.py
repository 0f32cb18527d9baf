import torch

# Create a tensor with requires_grad=True
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)

# Define a scalar loss function
loss = (x ** 2).sum()  # Scalar: loss = 1^2 + 2^2 + 3^2 = 14

# Backward pass to compute gradients
loss.backward()

# Access gradients
print(x.grad)  # Output: tensor([2., 4., 6.])

x = torch.tensor([1.0, 2.0, 3.0])  # requires_grad=False by default
print(x.grad)  # Output: None
