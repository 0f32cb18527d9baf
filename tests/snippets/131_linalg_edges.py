# Linear algebra edges: pinv(hermitian=True) reads the lower triangle; cdist's p=inf ties (each tied
# coordinate gets the whole gradient) and p=0 (zeros); poisson_nll_loss(full=True) differentiates the Stirling
# term for the target; slogdet/logdet of a singular matrix (sign -0., infinite gradients); wide QR's backward.
import torch
torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64)
A = (A + A.T).requires_grad_()
B = A.detach().clone()
B[0, 2] = 5.0
B.requires_grad_()
P = torch.linalg.pinv(B, hermitian=True)
print(P)
(P * torch.arange(9.0, dtype=torch.float64).reshape(3, 3)).sum().backward()
print(B.grad)
x = torch.tensor([[0.0, 1.0, 3.0], [2.0, -1.0, 0.5]], requires_grad=True)
y = torch.tensor([[1.0, 3.0, 0.0], [4.0, 0.0, -2.0]], requires_grad=True)
d = torch.cdist(x, y, p=float("inf"))
print(d)
d.sum().backward()
print(x.grad, y.grad)
x.grad = None
y.grad = None
torch.cdist(x, y, p=0).sum().backward()
print(x.grad, y.grad)
inp = torch.tensor([0.5, 1.2, -0.3, 2.0], requires_grad=True)
tgt = torch.tensor([0.0, 1.0, 3.0, 7.5], requires_grad=True)
l = torch.nn.functional.poisson_nll_loss(inp, tgt, full=True)
print(l)
l.backward()
print(inp.grad, tgt.grad)
l = torch.nn.functional.poisson_nll_loss(inp.exp(), tgt, log_input=False, full=True, reduction="sum")
inp.grad = None
tgt.grad = None
l.backward()
print(l, inp.grad, tgt.grad)
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64, requires_grad=True)
print(torch.logdet(S), torch.slogdet(S))
torch.logdet(S).backward()
print(S.grad)
S.grad = None
torch.linalg.slogdet(S).logabsdet.backward()
print(S.grad)
W = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
q, r = torch.linalg.qr(W)
print(q, r)
(q.sum() + (r * torch.arange(8.0, dtype=torch.float64).reshape(2, 4)).sum()).backward()
print(W.grad)
u = torch.tensor([[0.0, 1.0, -3.0], [2.0, -1.0, 0.5]], requires_grad=True)
v = torch.tensor([[3.0, 4.0, 0.0], [4.0, 0.0, -2.0]], requires_grad=True)
torch.cdist(u, v, p=float("inf")).sum().backward()
print(u.grad, v.grad)
torch.manual_seed(0)
W = torch.randn(2, 4, dtype=torch.float64, requires_grad=True)
q, r = torch.linalg.qr(W)
(q.sum() + (r * torch.arange(8.0, dtype=torch.float64).reshape(2, 4)).sum()).backward()
print(W.grad)
W.grad = None
q, r = torch.linalg.qr(W)
q.sum().backward()
print(W.grad)
W.grad = None
q, r = torch.linalg.qr(W)
(r * torch.arange(8.0, dtype=torch.float64).reshape(2, 4)).sum().backward()
print(W.grad)
