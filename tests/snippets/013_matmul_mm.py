import torch

A = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
B = torch.tensor([[1.0, 0.5, -1.0], [2.0, -0.5, 0.0]], requires_grad=True)
C = A @ B
print(C)
C.sum().backward()
print(A.grad)
print(B.grad)
