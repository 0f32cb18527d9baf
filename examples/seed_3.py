import torch

# Create a tensor with gradient tracking enabled
x = torch.tensor(2.0, requires_grad=True)

# Define a simple function y = x^2
y = x ** 2

# Compute gradients (dy/dx)
y.backward()

# Print the gradient stored in x.grad
print(x.grad)
