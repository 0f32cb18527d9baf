# linalg.eigh / eigvalsh / qr / pinv: values as LAPACK gives them (torch's signs), and gradients by torch's rules
# (eigenvectors through abs, since a vector's sign is a convention).
import torch
torch.manual_seed(1)
A = torch.randn(3, 3, dtype=torch.float64)
S = (A @ A.T + torch.eye(3, dtype=torch.float64)).requires_grad_()
B = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
C = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
e = torch.linalg.eigh(S)
print(e)
w = torch.arange(9.0, dtype=torch.float64).reshape(3, 3).sin()
(e.eigenvalues * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward(retain_graph=True)
print(S.grad); S.grad = None
(e.eigenvectors.abs() * w).sum().backward()
print(S.grad); S.grad = None
print(torch.linalg.eigvalsh(S))
q, r = torch.linalg.qr(B)
print(q, r)
((q * torch.arange(12.0, dtype=torch.float64).reshape(4, 3).cos()).sum() + (r * w).sum()).backward()
print(B.grad)
p = torch.linalg.pinv(B)
print(p)
(p * torch.arange(12.0, dtype=torch.float64).reshape(3, 4).cos()).sum().backward()
print(B.grad)
p2 = torch.linalg.pinv(C)
(p2 * torch.arange(8.0, dtype=torch.float64).reshape(4, 2).cos()).sum().backward()
print(p2, C.grad)
