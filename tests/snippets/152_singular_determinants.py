# slogdet/logdet/det of matrices singular in exact arithmetic: torch factors A transposed, so an exact zero
# pivot gives sign ±0, log|det| -inf and its LU solve's infinities even where numpy's LU of A misses it.
import torch
B = torch.tensor([[0., 1.], [0., 2.]], requires_grad=True)
s, l = torch.linalg.slogdet(B)
print(s, l, torch.det(B))
l.backward()
print(B.grad)
torch.manual_seed(0)
A = torch.randn(3, 4, 4, dtype=torch.float64)
A[1, 0, 2] = 2 * A[1, 0, 1]
A[1, 1, 2] = 2 * A[1, 1, 1]
A[1, 2, 2] = 2 * A[1, 2, 1]
A[1, 3, 2] = 2 * A[1, 3, 1]
A.requires_grad_()
s, l = torch.linalg.slogdet(A)
print(s, l)
l.sum().backward()
print(A.grad)
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64, requires_grad=True)
print(torch.logdet(S), torch.slogdet(S))
torch.logdet(S).backward()
print(S.grad)
