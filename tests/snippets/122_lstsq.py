# linalg.lstsq: the least-squares solution (pinv(A)·B), the empty residuals and the rank gelsy reports,
# gradients for A and B by torch's linalg_lstsq_backward.
import torch
torch.manual_seed(2)
A = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
B = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
b = torch.randn(5, dtype=torch.float64, requires_grad=True)
r = torch.linalg.lstsq(A, B)
print(r)
(r.solution * torch.arange(6.0, dtype=torch.float64).reshape(3, 2).cos()).sum().backward()
print(A.grad, B.grad)
A.grad = None
x = torch.linalg.lstsq(A, b.unsqueeze(-1)).solution
(x ** 2).sum().backward()
print(x, A.grad, b.grad)
